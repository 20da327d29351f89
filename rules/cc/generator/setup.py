"""RS.10–RS.16 set-up, markers, cards and Zero Hour; RS.17 battle result [6.3, 9.2]."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.cc.common import Faction, Posture
from rules.cc.generator.forces import defender
from rules.cc.generator.state import OBJECTIVES, ScenarioState, StepResult
from rules.cc.generator.tables import FATE_DECK, SETUP_DEPTH
from rules.errors import RuleError
from rules.explain import Decision, Explanation

SUDDEN_DEATH_RANGE = (3, 10)


def _depth(state: ScenarioState, posture: Posture, exp: Explanation) -> int:
    if state.orientation is None:
        raise RuleError("orient the map first", rule="RS.1")
    return SETUP_DEPTH.lookup((posture, state.orientation), exp)


def _take_control(
    state: ScenarioState, changes: Mapping[int, Faction], rule: str, exp: Explanation
) -> ScenarioState:
    """Place control markers and score the Known chit's change in value [7.3.3]."""
    for objective in changes:
        if objective not in OBJECTIVES:
            raise RuleError(f"there is no Objective {objective}", rule=rule)
    control = {**state.control, **changes}
    delta = state.known_vp(control) - state.known_vp(state.control)
    for objective, faction in sorted(changes.items()):
        exp.add(rule, f"control marker on Objective {objective}", str(faction))
    exp.add(rule, "Known objective VP change (Axis side positive)", delta)
    return replace(state, control=control, vp_axis=state.vp_axis + delta)


def _posture_side(state: ScenarioState, posture: Posture, rule: str) -> Faction:
    for faction in Faction:
        if state.side(faction).posture is posture:
            return faction
    raise RuleError(f"this scenario has no {posture} side", rule=rule)


def rs_10_defender_setup(state: ScenarioState) -> StepResult:
    """RS.10: the Defender sets up within 8 (wide) / 12 (long) hexes, fortifications aside;
    his control markers go on all Objectives; Known chits score."""
    exp = Explanation()
    side = _posture_side(state, Posture.DEFEND, "RS.10")
    state = state.with_side(side, setup_depth=_depth(state, Posture.DEFEND, exp))
    state = _take_control(state, dict.fromkeys(OBJECTIVES, side), "RS.10", exp)
    return StepResult(state, exp)


def rs_11_2_attacker_setup(state: ScenarioState, *, occupied: Collection[int]) -> StepResult:
    """RS.11.2: the Attacker sets up within 2 (wide) / 3 (long) hexes, any Radio in his
    Artillery Box; Objectives in `occupied` (his units, no enemy) turn to him; Known chits
    score."""
    if "RS.11.1" not in state.done:
        raise RuleError("settle the Asset Request first", rule="RS.11.1")
    exp = Explanation()
    side = _posture_side(state, Posture.ATTACK, "RS.11.2")
    state = state.with_side(side, setup_depth=_depth(state, Posture.ATTACK, exp))
    if (radio := state.side(side).radio) is not None:
        exp.add("RS.11.2", "Radio placed in the Artillery Box", radio.item)
    state = _take_control(state, dict.fromkeys(occupied, side), "RS.11.2", exp)
    return StepResult(state, exp)


def rs_12_fortification_setup(state: ScenarioState) -> StepResult:
    """RS.12: the Defender places bought fortifications up to 8 (wide) / 12 hexes deep."""
    exp = Explanation()
    side = defender(state)
    if side is None or not state.side(side).fortifications:
        exp.add("RS.12", "no fortifications to place")
        return StepResult(state, exp)
    depth = _depth(state, Posture.DEFEND, exp)
    exp.add("RS.12", f"{side} places {', '.join(state.side(side).fortifications)}", depth)
    return StepResult(state, exp)


def rs_13_recon_setup(
    state: ScenarioState,
    *,
    axis_only: Collection[int],
    allied_only: Collection[int],
    first: Faction | None = None,
) -> StepResult:
    """RS.13: in Recon the higher OB Initiative sets up first, both within 4 (wide) / 6 (long)
    hexes; each side controls the Objectives where only it has units. The rules do not break
    an Initiative tie: `first` is then asked for."""
    exp = Explanation()
    if any(state.side(f).posture is not Posture.RECON for f in Faction):
        raise RuleError("RS.13 is for Recon scenarios", rule="RS.13")
    if set(axis_only) & set(allied_only):
        raise RuleError("an Objective cannot hold only Axis and only Allied units", rule="RS.13")
    leader = _higher_initiative(state, "RS.13", first, exp)
    if isinstance(leader, Decision):
        return StepResult(state, exp, leader)
    exp.add("RS.13", "sets up first", str(leader))
    depth = _depth(state, Posture.RECON, exp)
    for faction in Faction:
        state = state.with_side(faction, setup_depth=depth)
    changes = {
        **dict.fromkeys(axis_only, Faction.AXIS),
        **dict.fromkeys(allied_only, Faction.ALLIES),
    }
    return StepResult(_take_control(state, changes, "RS.13", exp), exp)


def _higher_initiative(
    state: ScenarioState, rule: str, chosen: Faction | None, exp: Explanation
) -> Faction | Decision:
    """The side with the higher OB Initiative, or the players' choice on a tie."""
    values = {}
    for faction in Faction:
        ob = state.side(faction).ob
        if ob is None:
            raise RuleError("pick both OBs first", rule="RS.5")
        values[faction] = exp.add(rule, f"{faction} OB Initiative", ob.initiative)
    if values[Faction.AXIS] != values[Faction.ALLIES]:
        higher = max(values, key=values.__getitem__)
        if chosen is not None and chosen is not higher:
            raise RuleError(f"{higher} has the higher Initiative", rule=rule)
        return higher
    if chosen is None:
        return Decision(
            f"{rule.lower().replace('.', '_')}_initiative_tie",
            rule,
            "Initiative is tied and the rules do not say who goes first: agree on a side",
            tuple(Faction),
            "both players",
        )
    exp.add(rule, "tied Initiative: the players chose", str(chosen))
    return chosen


def rs_14_markers(state: ScenarioState) -> StepResult:
    """RS.14: Time on 0; Sudden Death on Axis + Allied Orders (3 to 10); Surrender markers from
    the OBs; the Minefield marker when 7- or 8-FP mines were bought; Smoke/Blaze cup."""
    exp = Explanation()
    orders = {}
    for faction in Faction:
        ob = state.side(faction).ob
        if ob is None:
            raise RuleError("pick both OBs first", rule="RS.5")
        orders[faction] = ob.orders
        state = state.with_side(
            faction, surrender=exp.add("RS.14", f"{faction} Surrender space", ob.surrender)
        )
    sudden_death = sum(orders.values())
    exp.add(
        "RS.14",
        f"Sudden Death = {orders[Faction.AXIS]} + {orders[Faction.ALLIES]} Orders",
        sudden_death,
    )
    low, high = SUDDEN_DEATH_RANGE
    if not low <= sudden_death <= high:
        raise RuleError(
            f"the Orders give Sudden Death {sudden_death}, not {low} to {high}: check the OB data",
            rule="RS.14",
        )
    exp.add("RS.14", "Time marker", 0)
    if state.mine_strength != 6:
        exp.add("RS.14", "Minefield marker covers the 6-FP box", state.mine_strength)
    exp.add("RS.14", "Smoke/Blaze markers go into a second cup")
    return StepResult(replace(state, time_space=0, sudden_death=sudden_death), exp)


def rs_15_cards(state: ScenarioState, *, initiative: Faction | None = None) -> StepResult:
    """RS.15: the Initiative card to the higher OB Initiative (a tie is asked for); each side
    shuffles its nation's Fate deck and draws its posture's hand size."""
    exp = Explanation()
    holder = _higher_initiative(state, "RS.15", initiative, exp)
    if isinstance(holder, Decision):
        return StepResult(state, exp, holder)
    exp.add("RS.15", "Initiative card", str(holder))
    for faction in Faction:
        side = state.side(faction)
        if side.posture is None or side.nation is None:
            raise RuleError("set postures first", rule="RS.8")
        deck = FATE_DECK.lookup(side.nation, exp)
        hand = exp.add(
            "RS.15", f"{faction} draws the {side.posture} hand size", side.posture.hand_size
        )
        state = state.with_side(faction, deck=deck, hand_size=hand)
    return StepResult(replace(state, initiative=holder), exp)


def rs_16_zero_hour(state: ScenarioState) -> StepResult:
    """RS.16: the Initiative card holder takes the first turn."""
    if state.initiative is None:
        raise RuleError("deal the Initiative card first", rule="RS.15")
    exp = Explanation()
    exp.add("RS.16", "takes the first turn", str(state.initiative))
    return StepResult(replace(state, first_turn=state.initiative), exp)


class EndReason(StrEnum):
    """The four ways a battle ends [6.3]."""

    SURRENDER = "surrender"
    LAST_UNIT_ELIMINATED = "last_unit_eliminated"
    LAST_UNIT_EXITED = "last_unit_exited"
    SUDDEN_DEATH = "sudden_death"


@dataclass(frozen=True)
class BattleResult:
    winner: Faction
    vp_axis: int
    explanation: Explanation


def rs_17_battle_result(
    *,
    end: EndReason,
    vp_axis: int,
    initiative: Faction,
    losers: Collection[Faction] = (),
    secret_vp_axis: int = 0,
) -> BattleResult:
    """RS.17 (outside campaigns) by 6.3: surrender or loss of the last unit loses whatever the
    VP (both at once: the Initiative holder wins); otherwise secret chits are revealed
    (`secret_vp_axis`, signed) and the VP decide, "0" going to the Initiative holder [9.2]."""
    exp = Explanation()
    if end in (EndReason.SURRENDER, EndReason.LAST_UNIT_ELIMINATED):
        if not losers or len(set(losers)) > 2:
            raise RuleError("name the side (or both sides) that lost this way", rule="6.3.1")
        if len(set(losers)) == 2:
            winner = exp.add(
                "6.3.1", "both sides lose at once: the Initiative holder wins", initiative
            )
        else:
            loser = next(iter(losers))
            winner = exp.add("6.3.1", f"{loser} loses whatever the VP ({end})", loser.other)
        return BattleResult(winner, vp_axis, exp)
    if losers:
        raise RuleError(f"{end} is decided on VP, not by a losing side", rule="6.3.2")
    vp_axis = exp.add(
        "6.3.2", "secret chits revealed: final VP (Axis side positive)", vp_axis + secret_vp_axis
    )
    if vp_axis == 0:
        winner = exp.add("9.2", "VP marker on 0: the Initiative holder wins", initiative)
    else:
        winner = exp.add(
            "6.3.2",
            "the side with the VP marker on its side wins",
            Faction.AXIS if vp_axis > 0 else Faction.ALLIES,
        )
    return BattleResult(winner, vp_axis, exp)

"""RS.5 Order of Battle, RS.6 Leaders, RS.7 Support, RS.8 Posture, RS.9 Fortifications,
and the RS.11.1 Asset Request (it buys from the Support Table like RS.7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum

from rules.cc.common import Faction, Posture, roll, white_die
from rules.cc.generator.state import ScenarioState, StepResult
from rules.cc.generator.tables import FORTIFICATIONS
from rules.cc.generator_tables import GeneratorData, OrderOfBattle, SupportEntry
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Decision, Explanation


def legal_obs(state: ScenarioState, data: GeneratorData, faction: Faction) -> list[OrderOfBattle]:
    """OBs matching the side's nationality, the year and its troop quality [RS.5]."""
    side = state.side(faction)
    return [
        ob
        for ob in data.orders_of_battle
        if ob.nation == side.nation
        and ob.first_year <= (state.year or 0) <= ob.last_year
        and ob.quality == side.quality
    ]


def rs_5_order_of_battle(
    state: ScenarioState,
    data: GeneratorData,
    *,
    axis: tuple[str, str] | None = None,
    allies: tuple[str, str] | None = None,
) -> StepResult:
    """RS.5: both players secretly pick an OB (size, letter) and reveal together; the Axis
    then the Allied player pays its Point Value in VP."""
    if state.axis.quality is None or state.allies.quality is None:
        raise RuleError("roll troop quality first", rule="RS.5")
    exp = Explanation()
    picks = {Faction.AXIS: axis, Faction.ALLIES: allies}
    for faction, pick in picks.items():
        if pick is None:
            options = tuple((ob.size, ob.letter) for ob in legal_obs(state, data, faction))
            if not options:
                raise RuleError(
                    f"no {faction} OB entered fits nation, year and quality", rule="RS.5"
                )
            decision = Decision(
                key=f"rs_5_ob_{faction}",
                rule="RS.5",
                prompt="Pick your OB secretly (size, letter)",
                options=options,
                chooser=state.side(faction).player,
            )
            return StepResult(state, exp, decision)
    for faction, pick in picks.items():
        assert pick is not None
        side = state.side(faction)
        assert side.nation is not None
        ob = data.ob(side.nation, *pick)
        if ob not in legal_obs(state, data, faction):
            raise RuleError(
                f"{ob.label} does not match {side.nation}, {state.year} and {side.quality}",
                rule="RS.5",
            )
        state = state.pay(faction, ob.point_value).with_side(faction, ob=ob)
        exp.add("RS.5", f"{faction} takes OB {ob.label} and pays its Point Value", ob.point_value)
    exp.add("RS.5", "VP marker (Axis side positive)", state.vp_axis)
    return StepResult(state, exp)


def rs_6_leaders(
    state: ScenarioState, dice: DiceSource, data: GeneratorData, *, faction: Faction, modifier: int
) -> StepResult:
    """RS.6: one white-die roll per leader of the OB on the nation's Leader Table column, plus
    the `modifier` the player reads under the printed table; a repeated name is re-rolled."""
    side = state.side(faction)
    if side.ob is None or side.nation is None:
        raise RuleError("pick the OB first", rule="RS.6")
    column = data.leader_column(side.nation)
    reachable = {column[d + modifier] for d in range(1, 7) if d + modifier in column}
    if len(reachable) < side.ob.leaders:
        raise RuleError(
            f"the {side.nation} Leader Table column gives {len(reachable)} different leaders "
            f"with modifier {modifier:+d}; the OB needs {side.ob.leaders}",
            rule="RS.6",
        )
    exp = Explanation()
    leaders: list[str] = []
    while len(leaders) < side.ob.leaders:
        face, record = white_die(dice, purpose=f"RS.6 {faction} leader", rule="RS.6")
        result = face + modifier
        if result not in column:
            raise RuleError(f"enter the {side.nation} Leader Table row {result}", rule="RS.6")
        name = column[result]
        repeated = name in leaders
        exp.add(
            "RS.6",
            f"white die {face} {modifier:+d} = {result}: {name}"
            + (" again, re-roll" if repeated else ""),
            None if repeated else name,
            roll=record,
        )
        if not repeated:
            leaders.append(name)
    return StepResult(state.with_side(faction, leaders=tuple(leaders)), exp)


class SecondBuyer(StrEnum):
    """Reading of RS.7 "si – y sólo si – el segundo jugador tiene ahora los mismos VP (es decir,
    el marcador ha pasado por el espacio "o" …)": the halves disagree."""

    PAST_ZERO = "past_zero"  # the marker is now strictly on the second player's side
    AT_OR_PAST_ZERO = "at_or_past_zero"  # "los mismos": also when it stops on "0"


def _support_buy(
    state: ScenarioState,
    dice: DiceSource,
    data: GeneratorData,
    *,
    faction: Faction,
    key: str,
    rule: str,
    purchases: Sequence[str] | None,
    radio: bool,
) -> tuple[ScenarioState, Explanation, Decision | None]:
    """Roll a Support Table column (once; kept in the state) and buy from it."""
    side = state.side(faction)
    if side.nation is None or state.year is None:
        raise RuleError("roll year and nationality first", rule="RS.2")
    exp = Explanation()
    record = state.pending.get(key)
    if record is None:
        record = roll(dice, purpose=f"{rule} {faction} Support Table column", rule=rule)
        state = state.with_roll(key, record)
        exp.add(
            rule, f"{faction} rolls on the {side.nation} Support Table", record.value, roll=record
        )
    offered = {
        e.item: e
        for e in data.support_table(side.nation, rule)
        if e.offered(record.value, state.year) and e.radio == radio
    }
    kind = "Radio" if radio else "non-Radio unit"
    if not offered:
        exp.add(rule, f"no {kind} of {state.year} in column {record.value}: nothing to buy")
        return state.finish(key), exp, None
    if radio and len(offered) == 1:
        purchases = list(offered)
    if purchases is None:
        prompt = (
            f"Buy the Radio of column {record.value}"
            if radio
            else f"Buy one or more units of column {record.value} (repeats allowed, no Radios)"
        )
        return state, exp, Decision(f"{key}_buy", rule, prompt, tuple(offered), side.player)
    if not purchases or (radio and len(purchases) != 1):
        raise RuleError(f"{faction} must buy {'the' if radio else 'one or more'} {kind}", rule=rule)
    bought: list[SupportEntry] = []
    for item in purchases:
        if item not in offered:
            raise RuleError(f"{item!r} is not offered: choose from {sorted(offered)}", rule=rule)
        bought.append(offered[item])
    cost = sum(e.cost for e in bought)
    exp.add(rule, f"{faction} buys {', '.join(purchases)} and pays", cost)
    state = state.pay(faction, cost)
    if radio:
        state = state.with_side(faction, radio=bought[0])
    else:
        state = state.with_side(faction, support=side.support + tuple(bought))
    return state.finish(key), exp, None


def rs_7_support(
    state: ScenarioState,
    dice: DiceSource,
    data: GeneratorData,
    *,
    purchases: Sequence[str] | None = None,
    second_buyer: SecondBuyer = SecondBuyer.PAST_ZERO,
) -> StepResult:
    """RS.7: the side with the cheaper OB (marker on its side) rolls and must buy; then, if the
    marker has passed "0" (see `SecondBuyer`), the other side rolls and must buy.

    Call again with `purchases` for the buyer named in the returned decision.
    """
    if "RS.7" in state.done:
        raise RuleError("support has already been bought", rule="RS.7")
    exp = Explanation()
    if state.first_buyer is None:
        first = state.ahead()
        if first is None:
            exp.add("RS.7", "VP marker on 0: skip to RS.8")
            return StepResult(state.finish("RS.7"), exp)
        state = replace(state, first_buyer=first)
    first = state.first_buyer
    if "RS.7.1" not in state.done:
        state, part, decision = _support_buy(
            state,
            dice,
            data,
            faction=first,
            key="RS.7.1",
            rule="RS.7",
            purchases=purchases,
            radio=False,
        )
        exp.extend(part)
        if decision:
            return StepResult(state, exp, decision)
        purchases = None
        second = first.other
        qualifies = state.vp(second) > 0 or (
            second_buyer is SecondBuyer.AT_OR_PAST_ZERO and state.vp_axis == 0
        )
        if not qualifies:
            exp.add("RS.7", f"the VP marker has not passed 0 toward {second}: no second purchase")
            return StepResult(state.finish("RS.7"), exp)
        exp.add(
            "RS.7", f"the VP marker has passed 0: {second} rolls and must buy", state.vp(second)
        )
    state, part, decision = _support_buy(
        state,
        dice,
        data,
        faction=first.other,
        key="RS.7.2",
        rule="RS.7",
        purchases=purchases,
        radio=False,
    )
    exp.extend(part)
    if decision:
        return StepResult(state, exp, decision)
    return StepResult(state.finish("RS.7"), exp)


def rs_8_posture(state: ScenarioState) -> StepResult:
    """RS.8: the side with the VP marker on its side defends, the other attacks; on "0" both
    are Recon. Each OB Factors marker shows the OB's Orders and Quality."""
    exp = Explanation()
    defender = state.ahead()
    for faction in Faction:
        side = state.side(faction)
        if side.ob is None:
            raise RuleError("pick both OBs first", rule="RS.8")
        if defender is None:
            posture = Posture.RECON
        else:
            posture = Posture.DEFEND if faction is defender else Posture.ATTACK
        exp.add("RS.8", f"{faction} posture (VP marker {state.vp_axis:+d} Axis)", posture)
        exp.add(
            "RS.8", f"{faction} OB box: Orders {side.ob.orders}, {side.quality}", side.ob.orders
        )
        state = state.with_side(faction, posture=posture)
    return StepResult(state, exp)


def defender(state: ScenarioState) -> Faction | None:
    """The side whose posture is Defend, if any."""
    for faction in Faction:
        if state.side(faction).posture is Posture.DEFEND:
            return faction
    return None


def rs_9_fortifications(
    state: ScenarioState, *, purchases: Sequence[str] | None = None
) -> StepResult:
    """RS.9: the Defender only may spend up to his VP on Fortification OBs, all minefields of
    one strength; he pays the VP. Returns a decision listing affordable OBs when `purchases`
    is missing (an empty list buys nothing)."""
    exp = Explanation()
    side_ = defender(state)
    if side_ is None:
        exp.add("RS.9", "no Defender (Recon): no Fortification OBs")
        return StepResult(state, exp)
    budget = exp.add("RS.9", f"{side_} may spend up to his VP", state.vp(side_))
    if purchases is None:
        options = tuple(name for name, f in FORTIFICATIONS.rows.items() if f.cost <= budget)
        decision = Decision(
            "rs_9_fortifications",
            "RS.9",
            f"Buy Fortification OBs for up to {budget} VP (minefields of one strength)",
            options,
            state.side(side_).player,
        )
        return StepResult(state, exp, decision)
    bought = [FORTIFICATIONS.lookup(name, exp) for name in purchases]
    strengths = {f.mine_strength for f in bought if f.mine_strength is not None}
    if len(strengths) > 1:
        raise RuleError(
            f"minefields of different strengths ({sorted(strengths)} FP) may not be combined",
            rule="RS.9",
        )
    cost = sum(f.cost for f in bought)
    if cost > budget:
        raise RuleError(
            f"Fortification OBs cost {cost} VP, more than the Defender's {budget}", rule="RS.9"
        )
    exp.add("RS.9", f"{side_} pays for Fortification OBs", cost)
    state = state.pay(side_, cost).with_side(side_, fortifications=tuple(purchases))
    if strengths:
        state = replace(state, mine_strength=strengths.pop())
    return StepResult(state, exp)


def rs_11_1_asset_request(
    state: ScenarioState,
    dice: DiceSource,
    data: GeneratorData,
    *,
    request: bool | None = None,
    radio: str | None = None,
) -> StepResult:
    """RS.11.1: the Attacker may roll on his Support Table; if he does he must buy the Radio of
    that column when one matches the year, paying its cost."""
    attacker = next((f for f in Faction if state.side(f).posture is Posture.ATTACK), None)
    exp = Explanation()
    if attacker is None:
        raise RuleError("only an Attacker makes an Asset Request", rule="RS.11.1")
    if "RS.11.1" in state.done:
        raise RuleError("the Asset Request has been made", rule="RS.11.1")
    if request is None and "RS.11.1" not in state.pending:
        decision = Decision(
            "rs_11_1_request",
            "RS.11.1",
            "Roll on your Support Table for a Radio?",
            (True, False),
            state.side(attacker).player,
        )
        return StepResult(state, exp, decision)
    if request is False:
        exp.add("RS.11.1", f"{attacker} makes no Asset Request")
        return StepResult(state.finish("RS.11.1"), exp)
    state, part, decision = _support_buy(
        state,
        dice,
        data,
        faction=attacker,
        key="RS.11.1",
        rule="RS.11.1",
        purchases=None if radio is None else [radio],
        radio=True,
    )
    exp.extend(part)
    return StepResult(state, exp, decision)

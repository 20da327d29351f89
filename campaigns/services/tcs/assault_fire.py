"""The fire of an assault round [22.0 step 6] and the minefield attack on the assaulters
[22.0 step 5], played by both sides on one `TcsCombat` (see `campaigns.services.tcs.assault`).

A round: each side declares its area fire, its point fire (P-firers use point OR area fire
[22.0.b]) and its infantry's AT rolls [16.1.a]; all of it is public. When one side fires
first [22.0 step 6] its fire is resolved alone, the other side applies those losses, then
its surviving units declare and fire; otherwise both fire at once. Then each side applies
the rest of its losses and checks morale, attacker first; those totals stay private [1.5].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Side
from campaigns.models.tcs import TcsCombat
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services.tcs.combat import Check, check_and_apply, take_losses
from campaigns.services.tcs.common import dice_for, log_explanation, rule_error
from campaigns.services.tcs.engine import SideEngine
from campaigns.services.tcs.fire import FireOrder, chart_value_needed, summary
from campaigns.services.tcs.minefields import (
    apply_mine_results,
    foot_losses,
    log_public,
    run_mine_rules,
)
from campaigns.services.tcs.minefields import attack_summary as mine_summary
from campaigns.tcs.state import options_for
from rules.dice import EnteredDice
from rules.errors import DiceError, RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.serial import from_data, to_data
from rules.tcs import assault as ra
from rules.tcs import assault_steps as st
from rules.tcs import minefields as mf
from rules.tcs.fire import Firer, TargetUnit, point_fire
from rules.tcs.fire_actions import at_rolls
from rules.tcs.fire_tables import Terrain
from rules.tcs.morale_check import CHECKERS, Mode, MoraleState

ATTACKER, DEFENDER = ra.ATTACKER, ra.DEFENDER
GONE = {"syr", "surrender"}
VEHICLE_MOVERS = {"vehicle", "transport"}  # the rest enter a minefield on foot [21.0.b]
MINE = "mine"
EARLY, SECOND = "early", "second"  # the second side's losses, then its fire [22.0 step 6]


def other_role(role: str) -> str:
    return DEFENDER if role == ATTACKER else ATTACKER


def state_of(combat: TcsCombat) -> st.Assault:
    return st.Assault.from_dict(combat.result["state"])


def stage(combat: TcsCombat) -> str:
    """The stage of step 5 ("" or MINE) or of a fire round (step 6); "" otherwise."""
    step, given = state_of(combat).step, combat.result.get("stage") or ""
    if step == 6:
        return given or "fire"
    return given if step == 5 and given == MINE else ""


def order_of(combat: TcsCombat) -> tuple[str, ...]:
    """(first, second) when one side fires first, else (SIMULTANEOUS,) [22.0 step 6]."""
    return st.fire_order(state_of(combat))


def public(campaign, actor, combat, text, rule, turn) -> None:
    log_public(campaign, actor, text, rule, {"combat": combat.pk}, turn)


def one(rule, text) -> Explanation:
    exp = Explanation()
    exp.add(rule, text)
    return exp


def survivors(engine: SideEngine, states: Mapping[str, str]) -> dict[str, str]:
    """The units still in the hex, with their markers as they stand now."""
    return {
        c: engine.units[c].morale_state
        for c in states
        if c in engine.units and not engine.units[c].eliminated
    }


def _firers(engine: SideEngine, firers: Sequence[Firer], overrun: bool) -> None:
    """Mortars, towed guns and heavy weapons out of Fire mode never fire [22.0.b, 23.0.e];
    eliminated units do not fire."""
    units = []
    for f in firers:
        own = engine.units.get(f.id)
        if own is not None and own.eliminated:
            raise ValidationError({"firers": _("%(u)s is already eliminated.") % {"u": f.id}})
        units.append(
            ra.AssaultUnit(
                id=f.id,
                kind=f.kind,
                mode=Mode(own.mode) if own else Mode.FIRE,
                state=MoraleState(own.morale_state) if own else MoraleState.NORMAL,
            )
        )
    try:
        ra.check_assault_firers(units, overrun=overrun)
    except RuleError as exc:
        raise rule_error(exc, "firers") from None


def declare_fire(combat, campaign, engine, role, answer, actor, turn, side: Side) -> None:
    """This side's declaration: its targets (its own units as the enemy sees them) and, when
    it may fire now, its area fire, point fire and AT rolls; fire resolves once all is in."""
    fire = dict(answer.get("fire") or {})
    now = stage(combat)
    given = combat.result.setdefault("fire_in", {})
    mine = dict(given.get(role) or {})
    if fire.get("targets"):
        mine["targets"] = [to_data(t) for t in fire["targets"]]
        mine["terrain_shift"] = fire.get("terrain_shift")
    if not mine.get("targets"):
        raise ValidationError({"targets": _("Write your units in the target hex.")})
    order = order_of(combat)
    waits = now == "fire" and len(order) == 2 and role == order[1]
    if waits and (fire.get("firers") or (fire.get("point") or {}).get("firers")):
        raise ValidationError(
            {"firers": "[22.0 step 6] " + _("The other side fires first: your units fire after.")}
        )
    if not waits:
        area = list(fire.get("firers", ()))
        point = dict(fire.get("point") or {})
        clash = {f.id for f in area} & {f.id for f in point.get("firers", ())}
        if clash:
            raise ValidationError(
                {
                    "point_firers": "[22.0 step 6] "
                    + _("%(u)s fires point or area fire, not both.") % {"u": ", ".join(clash)}
                }
            )
        _firers(engine, [*area, *point.get("firers", ())], state_of(combat).overrun)
        if point.get("firers") and not point.get("targets"):
            raise ValidationError({"point_targets": _("Select the targets of the point fire.")})
        at = dict(fire.get("at") or {})
        mine |= {
            "firers": [to_data(f) for f in area],
            "other": [list(o) for o in fire.get("other", ())],
            "roll": fire.get("roll"),
            "point": {
                "firers": [to_data(f) for f in point.get("firers", ())],
                "targets": [to_data(t) for t in point.get("targets", ())],
                "roll": point.get("roll"),
            },
            "at": {k: at.get(k) for k in ("steps", "target_steps", "value", "rolls")},
            "fired": True,
        }
    given[role] = mine
    public(
        campaign,
        actor,
        combat,
        msg("%(side)s declares its assault fire", side=side.name),
        "22.0.h",
        turn,
    )
    if now == SECOND:
        _resolve(combat, campaign, actor, turn, (role,))
        combat.result["stage"] = ATTACKER
    elif len(given) == 2 and len(order) == 2:
        _resolve(combat, campaign, actor, turn, (order[0],))
        hit = combat.result["fire"][-1][order[0]]["steps"]
        combat.result["stage"] = EARLY if hit else SECOND
    elif len(given) == 2:
        _resolve(combat, campaign, actor, turn, (ATTACKER, DEFENDER))
        combat.result["stage"] = ATTACKER


def _source(roll):
    return dice_for(None if roll is None else [roll] if isinstance(roll, int) else list(roll))


def _extra(role, given, charts, terrain, exp) -> dict[str, Any]:
    """The side's point fire [12.0] and AT rolls [16.0] in the hex: kills of enemy steps and
    its own steps lost to unmodified rolls of 3 or less [16.1.e]."""
    out = {"point_kills": 0, "at_kills": 0, "at_own_losses": 0}
    point = given.get("point") or {}
    if point.get("firers"):
        res = point_fire(
            [from_data(Firer, f) for f in point["firers"]],
            [from_data(TargetUnit, t) for t in point["targets"]],
            terrain,
            charts,
            _source(point.get("roll")),
        )
        exp.extend(res.explanation)
        out["point_kills"] = int(res.steps or 0)
        out["point"] = summary(FireOrder(kind="point", firers=(), targets=(), terrain=terrain), res)
    at = given.get("at") or {}
    if at.get("steps"):
        dice = _source(at.get("rolls"))
        entered = {"at_roll": at["value"]} if at.get("value") is not None else {}
        res = at_rolls(
            int(at["steps"]), int(at.get("target_steps") or 0), terrain, 0, charts, dice,
            entered=entered,
        )  # fmt: skip
        if isinstance(dice, EnteredDice) and dice.remaining:
            raise ValidationError({"at_rolls": _("Enter one 2d6 per AT roll, no more.")})
        exp.extend(res.explanation)
        out["at_kills"], out["at_own_losses"] = res.kills, res.attacker_losses
        out["at"] = summary(FireOrder(kind="at", firers=(), targets=(), terrain=terrain), res)
    return out


def _resolve(combat, campaign, actor, turn, roles: tuple[str, ...]) -> None:
    """The fire of `roles` (both at once, or one side's turn), in public: one consolidated
    area fire each [22.0.h] plus point fire and AT rolls; added to this round's record."""
    state = state_of(combat)
    given = combat.result["fire_in"]
    charts = operation_charts(campaign).fire
    if charts is None:
        raise ValidationError(
            {"firers": _("This operation has no Fire Table yet: enter it on the charts page.")}
        )
    terrain = Terrain(combat.result.get("terrain", Terrain.OPEN.value))
    area = {r: given[r].get("firers", []) if r in roles else [] for r in (ATTACKER, DEFENDER)}
    firing = [r for r in (ATTACKER, DEFENDER) if area[r]]
    entered = {
        r: {
            f"terrain_posture:{t['posture']}": given[r]["terrain_shift"]
            for t in given[r]["targets"]
        }
        if given[r].get("terrain_shift") is not None
        else None
        for r in (ATTACKER, DEFENDER)
    }
    exp = Explanation()
    out: dict[str, Any] = {}
    try:
        fire = ra.assault_fire(
            [from_data(Firer, f) for f in area[ATTACKER]],
            [from_data(Firer, f) for f in area[DEFENDER]],
            [from_data(TargetUnit, t) for t in given[ATTACKER]["targets"]],
            [from_data(TargetUnit, t) for t in given[DEFENDER]["targets"]],
            terrain,
            charts,
            _Turns([_source(given[r].get("roll")) for r in firing]),
            overrun=state.overrun,
            other_vs_attacker=[tuple(o) for o in given[DEFENDER].get("other", ())],
            other_vs_defender=[tuple(o) for o in given[ATTACKER].get("other", ())],
            entered_vs_attacker=entered[ATTACKER],
            entered_vs_defender=entered[DEFENDER],
        )
        exp.extend(fire.explanation)
        shape = FireOrder(kind="area", firers=(), targets=(), terrain=Terrain.OPEN)
        for role, res in ((ATTACKER, fire.by_attacker), (DEFENDER, fire.by_defender)):
            if role not in roles:
                continue
            done = {"steps": 0, "check": False}
            if res is not None:
                exp.extend(res.explanation)
                done = summary(shape, res)
            done |= _extra(role, given[role], charts, terrain, exp)
            done["steps"] = int(done["steps"]) + done["point_kills"] + done["at_kills"]
            out[role] = done
    except DecisionRequired as exc:
        raise chart_value_needed(exc) from None
    except RollNeeded:
        raise ValidationError({"rolls": _("Enter the d66 rolled at the table.")}) from None
    except RuleError as exc:
        raise rule_error(exc, "rolls" if isinstance(exc, DiceError) else "firers") from None
    log_explanation(
        campaign, exp, actor=actor, private_to=None, tag={"combat": combat.pk}, turn=turn
    )
    rounds = combat.result.setdefault("fire", [])
    if rounds and stage(combat) == SECOND:  # the second side's fire joins the round
        rounds[-1].update(out)
        rounds[-1]["explanation"] += exp.as_list()
    else:
        rounds.append({"round": state.round, **out, "explanation": exp.as_list()})


class _Turns:
    """One dice source per area attack, in the order the attacks roll (attacker first)."""

    def __init__(self, sources):
        self.sources = list(sources)

    def roll(self, kind_, *, purpose, rule=""):
        return self.sources.pop(0).roll(kind_, purpose=purpose, rule=rule)


def _due(combat, role) -> int:
    """Steps this side still loses this round: the other side's kills not yet applied, and
    its own attacking steps lost on AT rolls [16.1.e]."""
    last = combat.result["fire"][-1]
    theirs = last.get(other_role(role)) or {}
    own = last.get(role) or {}
    done = sum(x["steps"] for x in combat.result.get("early_done", {}).get(role, []))
    return int(theirs.get("steps", 0)) - done + int(own.get("at_own_losses", 0))


def _take(campaign, side, engine, codes, wanted, answer, actor) -> tuple[list, list]:
    """Apply exactly `wanted` steps shared out by the owner among `codes`."""
    wanted = min(wanted, sum(engine.units[c].steps_left for c in codes))
    losses = {u.code: int(n) for u, n in (answer.get("losses") or {}).items() if int(n)}
    if set(losses) - set(codes) or sum(losses.values()) != wanted:
        raise ValidationError(
            {
                "losses": _("Share exactly %(n)s step loss(es) among your units in the hex.")
                % {"n": wanted}
            }
        )
    return take_losses(campaign, side, engine, actor, losses, dice_for(None), exact=True)


def _in_hex(engine: SideEngine, states: Mapping[str, str]) -> list[str]:
    return [c for c in states if c in engine.units and not engine.units[c].eliminated]


def early_losses(combat, campaign, side, engine, role, answer, actor) -> None:
    """The side that fires second applies the first side's kills before it fires."""
    state = state_of(combat)
    codes = _in_hex(engine, state.attackers if role == ATTACKER else state.defenders)
    done, _gone = _take(campaign, side, engine, codes, _due(combat, role), answer, actor)
    combat.result.setdefault("early_done", {})[role] = done
    combat.applied.setdefault(role, []).append({"round": state.round, "losses": done})
    left = _in_hex(engine, {c: "" for c in codes})
    combat.result["stage"] = SECOND if left else ATTACKER


def own_round(combat, campaign, side, engine, role, answer, actor, turn) -> st.Assault:
    """This side's remaining losses from the round's fire, then its morale check [22.0 step 6,
    22.0.c]; in an overrun the 22.0.c escalation is the operation's reading."""
    state = state_of(combat)
    codes = _in_hex(engine, state.attackers if role == ATTACKER else state.defenders)
    hit = combat.result["fire"][-1].get(other_role(role)) or {"check": False}
    done: dict[str, Any] = {}
    done["losses"], gone = _take(campaign, side, engine, codes, _due(combat, role), answer, actor)
    skip = role == DEFENDER and combat.result.get("attacker_gone")
    checkers = [c for c in codes if engine.units[c].category in CHECKERS]
    retreat = False
    if hit.get("check") and checkers and not skip:
        escalates = not state.overrun or options_for(campaign).overrun_escalates
        check = replace(answer.get("check") or Check(), cause="assault", in_assault=escalates)
        done["check"] = check_and_apply(
            campaign, side, engine, checkers, check, actor=actor,
            tag={"combat": combat.pk}, gone=gone,
        )  # fmt: skip
        retreat = done["check"]["result"] in GONE or bool(done["check"]["retreat_hexes"])
    elif skip:
        text = msg("the attacker is eliminated or retreats: the defender does not check")
        log_explanation(
            campaign,
            one("22.0", text),
            actor=actor,
            private_to=None,
            tag={"combat": combat.pk},
            turn=turn,
        )
    left = {} if retreat else survivors(engine, {c: "" for c in codes})
    combat.applied.setdefault(role, []).append({"round": state.round, **done})
    if role == ATTACKER:
        combat.result["attacker_gone"] = not left
        combat.result["stage"] = DEFENDER
        return replace(state, attackers=left)
    for key in ("attacker_gone", "fire_in", "early_done"):
        combat.result.pop(key, None)
    combat.result["stage"] = ""
    return st.advance(state, {"attackers": state.attackers, "defenders": left})


def mine_attack(combat, campaign, side, engine, answer, actor, turn) -> st.Assault:
    """Step 5: the minefield in the target hex attacks the entering assaulters, a breach
    notwithstanding [22.0 step 5, 21.0.b]: AF 18 on the foot units, 2d6 8+ per vehicle step;
    the attacker applies the losses and the check (the target hex's terrain modifiers); an
    S, P, SYR, surrender or the stack eliminated ends the assault."""
    state = state_of(combat)
    codes = _in_hex(engine, state.attackers)
    moves = {
        c: mf.Movement.VEHICLE if engine.units[c].category in VEHICLE_MOVERS else mf.Movement.FOOT
        for c in codes
    }
    dice = dice_for(answer.get("rolls"))
    shift = answer.get("stacking_shift")
    attack = run_mine_rules(
        mf.minefield_attack,
        marker=mf.MinefieldMarker(hex="", breached=bool(combat.result.pop("breached", False))),
        targets=[mf.MineTarget(c, engine.units[c].steps_left, moves[c]) for c in codes],
        charts=operation_charts(campaign).fire,
        dice=dice,
        assault=True,
        entered={} if shift is None else {"stacking": shift},
        first_step_choice=answer.get("first_step_choice"),
    )
    log_explanation(
        campaign, attack.explanation, actor=actor, private_to=None,
        tag={"combat": combat.pk}, turn=turn,
    )  # fmt: skip
    foot = [engine.units[c] for c in codes if moves[c] is mf.Movement.FOOT]
    given = {u.code: int(n) for u, n in (answer.get("losses") or {}).items()}
    losses = foot_losses(attack.foot, foot, given)
    check = None
    if attack.morale_check:
        check = replace(answer.get("check") or Check(), cause="minefield")
    applied: dict[str, Any] = {"mine": mine_summary(attack)}
    applied |= apply_mine_results(
        campaign, side, engine, actor, losses, [u.code for u in foot], check, dice, combat.pk,
        vehicle_losses=attack.vehicle_losses,
    )  # fmt: skip
    result = "none"
    if applied.get("check") and applied["check"]["result"] in ra.REPULSING:
        result = applied["check"]["result"]
    combat.applied.setdefault(ATTACKER, []).append({"round": 0, **applied})
    left = survivors(engine, state.attackers)
    if not left:
        result = "eliminated"
    combat.result["stage"] = ""
    return st.advance(state, {"attacker_result": result, "attackers": left})

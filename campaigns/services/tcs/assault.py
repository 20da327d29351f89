"""Assaults [22.0] and overruns [23.0] played by both sides, each acting for its own units.

One `TcsCombat` (kind "assault" or "overrun", `side` the attacker, `target_side` the
defender) holds the step machine of `rules.tcs.assault` in `result["state"]` and stays OPEN
while it runs. `prompt()` says whose move it is; that side answers with `tcs_assault_answer`.
A round of assault fire (step 6) has three stages: both sides declare their fire ("fire"),
then the attacker applies his losses and checks morale ("attacker"), then the defender
("defender") [22.0 step 6]. Fire and results are public, as at the table; each side's losses,
checks and totals are logged private to it and kept under `applied[role]` [1.5].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import TcsCombat, TcsUnit
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services._base import append_log
from campaigns.services.tcs.combat import Check, check_and_apply
from campaigns.services.tcs.common import dice_for, log_explanation, rule_error, side_write
from campaigns.services.tcs.engine import SideEngine, load_side
from campaigns.services.tcs.fire import FireOrder, _needed, summary
from campaigns.services.tcs.losses import apply_losses
from campaigns.tcs.state import current_turn
from rules.dice import EnteredDice
from rules.errors import RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.serial import from_data, to_data
from rules.tcs import assault as ra
from rules.tcs.fire import Firer, FirerKind, TargetUnit
from rules.tcs.fire_tables import Terrain
from rules.tcs.morale_check import CHECKERS, Mode, MoraleState
from rules.tcs.opsheet import C2Status, c2_status
from rules.tcs.overrun import aftermath, check_overrun

ATTACKER, DEFENDER = ra.ATTACKER, ra.DEFENDER
KINDS = ("assault", "overrun")
FIRER_KIND = {
    "infantry": FirerKind.INFANTRY,
    "heavy_weapon": FirerKind.MG,
    "vehicle": FirerKind.VEHICLE,
    "transport": FirerKind.TRANSPORT,
}
RESULTS = ("none", *sorted(ra.REPULSING))
GONE = {"syr", "surrender"}


def role_of(combat: TcsCombat, side: Side) -> str:
    if side.pk == combat.side_id:
        return ATTACKER
    if side.pk == combat.target_side_id:
        return DEFENDER
    raise ValidationError(_("This side takes no part in this assault."))


def state_of(combat: TcsCombat) -> ra.Assault:
    return ra.Assault.from_dict(combat.result["state"])


def stage_of(combat: TcsCombat) -> str:
    """The step (and the stage of a fire round) an answer must name, so a repeat is refused."""
    state = state_of(combat)
    stage = combat.result.get("stage") or "fire"
    return f"{state.step}:{stage}" if state.step == 6 else str(state.step)


def whose(combat: TcsCombat) -> set[str]:
    """The roles that may answer now."""
    state = state_of(combat)
    if state.step == 8:
        return set()
    if state.step == 6:
        stage = combat.result.get("stage") or "fire"
        if stage == "fire":
            return {ATTACKER, DEFENDER} - set(combat.result.get("fire_in", {}))
        return {stage}
    return {ra.prompt(state).whose}


def _unit(engine: SideEngine, code: str) -> TcsUnit:
    return engine.units[code]


def _assault_unit(engine: SideEngine, code: str, mp: int | None, at_start: bool) -> ra.AssaultUnit:
    u = _unit(engine, code)
    return ra.AssaultUnit(
        id=code,
        kind=FIRER_KIND[u.category],
        mode=Mode(u.mode),
        state=MoraleState(u.morale_state),
        mp=mp,
        in_stack_at_start=at_start,
        unassigned=c2_status(code, engine.sheet_list) is not C2Status.ASSIGNED,
    )


def _codes(engine: SideEngine, units: Sequence[TcsUnit], field: str = "units") -> list[str]:
    codes = []
    for u in units:
        if u.side_id != engine.side.pk or u.code not in engine.units:
            raise ValidationError({field: _("Choose units of this side.")})
        if engine.units[u.code].eliminated:
            raise ValidationError({field: _("%(u)s is already eliminated.") % {"u": u.code}})
        codes.append(u.code)
    if not codes:
        raise ValidationError({field: _("Choose the units of the stack.")})
    return list(dict.fromkeys(codes))


def _public(campaign, actor, combat, text, rule, turn) -> None:
    append_log(
        campaign,
        kind=LogEntry.Kind.RULE,
        summary=text,
        rule=rule,
        actor=actor,
        data={"tcs": {"combat": combat.pk}, "turn": turn},
    )


def tcs_assault_declare(
    *,
    side: Side,
    actor,
    units: Sequence[TcsUnit],
    overrun: bool = False,
    enter_cost: int = 0,
    leave_cost: int = 0,
    mp: int | None = None,
    adjacent: bool = True,
    in_stack_at_start: bool = True,
    terrain: Terrain = Terrain.OPEN,
) -> TcsCombat:
    """The attacker declares an assault [22.0 step 1] or an overrun [23.0] with his own stack;
    refusals name every problem with its rule. The defender's Final overwatch comes next."""
    with side_write(side, side.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Combat is resolved once play has started."))
        engine = load_side(campaign, side)
        codes = _codes(engine, units)
        stack = [_assault_unit(engine, c, mp, in_stack_at_start) for c in codes]
        try:
            if overrun:
                exp = check_overrun(
                    stack, enter_cost=enter_cost, leave_cost=leave_cost, adjacent=adjacent
                )
            else:
                exp = ra.check_assault(stack, enter_cost=enter_cost, adjacent=adjacent)
        except RuleError as exc:
            raise rule_error(exc, "units") from None
        target = campaign.sides.exclude(pk=side.pk).order_by("order").first()
        turn = current_turn(campaign).number
        state = ra.start(stack, [], overrun=overrun)
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            target_side=target,
            turn=turn,
            kind="overrun" if overrun else "assault",
            rule="23.0" if overrun else "22.0",
            status=TcsCombat.Status.OPEN,
            inputs={"attackers": codes, "enter_cost": enter_cost, "leave_cost": leave_cost},
            result={
                "state": state.to_dict(),
                "stage": "",
                "terrain": terrain.value,
                "explanation": exp.as_list(),
            },
            created_by=actor,
        )
        log_explanation(campaign, exp, actor=actor, private_to=None, tag={"combat": combat.pk})
        _public(
            campaign,
            actor,
            combat,
            msg("%(side)s declares: %(units)s", side=side.name, units=", ".join(codes)),
            combat.rule,
            turn,
        )
    return combat


def _survivors(engine: SideEngine, states: Mapping[str, str]) -> dict[str, str]:
    """The units still in the hex, with their markers as they stand now."""
    return {
        c: engine.units[c].morale_state
        for c in states
        if c in engine.units and not engine.units[c].eliminated
    }


def _hit(state: ra.Assault, answer: Mapping[str, Any], attacker_engine: SideEngine):
    result = answer.get("attacker_result") or "none"
    if result not in RESULTS:
        raise ValidationError({"attacker_result": _("Choose the result the attacker got.")})
    return {"attacker_result": result, "attackers": _survivors(attacker_engine, state.attackers)}


def _step(combat, campaign, engine, role, answer, actor, turn) -> ra.Assault:
    """Steps 2–5 and 7: the answer of the side whose move it is."""
    state = state_of(combat)
    other = load_side(campaign, combat.side) if role == DEFENDER else engine
    if state.step == 2:
        if not answer.get("units"):
            raise ValidationError({"units": _("Choose your units in the target hex.")})
        codes = _codes(engine, answer["units"])
        state = replace(state, defenders={c: engine.units[c].morale_state for c in codes})
        move = {"choice": answer.get("choice") or "overwatch"}
        if move["choice"] != "retreat":
            move |= _hit(state, answer, other)
        return ra.advance(state, move)
    if state.step == 3 and not state.overrun:  # the defenders' Suppressed markers go [22.0]
        defender = load_side(campaign, combat.target_side)
        for code, mark in state.defenders.items():
            unit = defender.units.get(code)
            if unit and mark == MoraleState.SUPPRESSED and not unit.eliminated:
                unit.morale_state = MoraleState.NORMAL.value
                unit.save(update_fields=["morale_state"])
    if state.step in (4, 5):
        return ra.advance(state, _hit(state, answer, other))
    return ra.advance(state)


def _firers(engine: SideEngine, firers: Sequence[Firer], overrun: bool) -> None:
    """Mortars, towed guns and heavy weapons out of Fire mode never fire [22.0.b, 23.0.e]."""
    units = []
    for f in firers:
        own = engine.units.get(f.id)
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


class _Turns:
    """One dice source per attack, in the order the attacks roll (attacker first)."""

    def __init__(self, sources):
        self.sources = list(sources)

    def roll(self, kind_, *, purpose, rule=""):
        return self.sources.pop(0).roll(kind_, purpose=purpose, rule=rule)


def _fire(combat, campaign, actor, turn) -> None:
    """Both sides declared: one consolidated area fire each [22.0.h], in public."""
    state = state_of(combat)
    given = combat.result["fire_in"]
    att, dfd = given[ATTACKER], given[DEFENDER]
    charts = operation_charts(campaign).fire
    if charts is None:
        raise ValidationError(
            {"firers": _("This operation has no Fire Table yet: enter it on the charts page.")}
        )
    order = [r for r in (ATTACKER, DEFENDER) if given[r]["firers"]]
    sources = [
        EnteredDice([given[r]["roll"]]) if given[r]["roll"] is not None else dice_for(None)
        for r in order
    ]
    entered = {
        k: {
            f"terrain_posture:{t['posture']}": given[k]["terrain_shift"]
            for t in given[k]["targets"]
        }
        if given[k].get("terrain_shift") is not None
        else None
        for k in (ATTACKER, DEFENDER)
    }
    try:
        fire = ra.assault_fire(
            [from_data(Firer, f) for f in att["firers"]],
            [from_data(Firer, f) for f in dfd["firers"]],
            [from_data(TargetUnit, t) for t in att["targets"]],
            [from_data(TargetUnit, t) for t in dfd["targets"]],
            Terrain(combat.result.get("terrain", Terrain.OPEN.value)),
            charts,
            _Turns(sources),
            overrun=state.overrun,
            other_vs_attacker=[tuple(o) for o in dfd["other"]],
            other_vs_defender=[tuple(o) for o in att["other"]],
            entered_vs_attacker=entered[ATTACKER],
            entered_vs_defender=entered[DEFENDER],
        )
    except DecisionRequired as exc:
        raise _needed(exc) from None
    except RollNeeded:
        raise ValidationError({"rolls": _("Enter the d66 rolled at the table.")}) from None
    except RuleError as exc:
        raise rule_error(exc, "firers") from None
    exp = Explanation()
    exp.extend(fire.explanation)
    shape = FireOrder(kind="area", firers=(), targets=(), terrain=Terrain.OPEN)
    out = {}
    for role, res in ((ATTACKER, fire.by_attacker), (DEFENDER, fire.by_defender)):
        if res is not None:
            exp.extend(res.explanation)
            out[role] = summary(shape, res)
    log_explanation(
        campaign, exp, actor=actor, private_to=None, tag={"combat": combat.pk}, turn=turn
    )
    rounds = combat.result.setdefault("fire", [])
    rounds.append({"round": state.round, **out, "explanation": exp.as_list()})
    combat.result["stage"] = ATTACKER


def _own_round(combat, campaign, side, engine, role, answer, actor, turn) -> ra.Assault:
    """This side's losses from the other side's fire, then its morale check [22.0 step 6]."""
    state = state_of(combat)
    mine = state.attackers if role == ATTACKER else state.defenders
    last = combat.result["fire"][-1]
    hit = last.get(DEFENDER if role == ATTACKER else ATTACKER) or {"steps": 0, "check": False}
    codes = [c for c in mine if c in engine.units and not engine.units[c].eliminated]
    wanted = min(int(hit.get("steps", 0)), sum(engine.units[c].steps_left for c in codes))
    losses = {u.code: int(n) for u, n in (answer.get("losses") or {}).items() if int(n)}
    if set(losses) - set(codes) or sum(losses.values()) != wanted:
        raise ValidationError(
            {
                "losses": _("Share exactly %(n)s step loss(es) among your units in the hex.")
                % {"n": wanted}
            }
        )
    done: dict[str, Any] = {"losses": []}
    gone = []
    for code, steps in losses.items():
        unit = engine.units[code]
        if steps > unit.steps_left:
            raise ValidationError(
                {"losses": _("%(u)s has %(n)s steps left.") % {"u": code, "n": unit.steps_left}}
            )
        r = apply_losses(
            campaign, side, engine, unit, actor=actor, steps=steps, combat=True,
            candidates=[], dice=dice_for(None),
        )  # fmt: skip
        done["losses"].append({"unit": code, "steps": steps, **r})
        if r.get("eliminated"):
            gone.append(code)
    skip = role == DEFENDER and combat.result.get("attacker_gone")
    checkers = [c for c in codes if engine.units[c].category in CHECKERS]
    retreat = False
    if hit.get("check") and checkers and not skip:
        check = replace(answer.get("check") or Check(), cause="assault", in_assault=True)
        done["check"] = check_and_apply(
            campaign, side, engine, checkers, check, actor=actor,
            tag={"combat": combat.pk}, gone=gone,
        )  # fmt: skip
        retreat = done["check"]["result"] in GONE or bool(done["check"]["retreat_hexes"])
    elif skip:
        log_explanation(
            campaign,
            _one(
                "22.0", msg("the attacker is eliminated or retreats: the defender does not check")
            ),
            actor=actor,
            private_to=None,
            tag={"combat": combat.pk},
            turn=turn,
        )
    left = {} if retreat else _survivors(engine, {c: "" for c in codes})
    combat.applied.setdefault(role, []).append({"round": state.round, **done})
    if role == ATTACKER:
        combat.result["attacker_gone"] = not left
        combat.result["stage"] = DEFENDER
        return replace(state, attackers=left)
    combat.result.pop("attacker_gone", None)
    combat.result["stage"] = ""
    combat.result.pop("fire_in", None)
    return ra.advance(state, {"attackers": state.attackers, "defenders": left})


def _one(rule, text) -> Explanation:
    exp = Explanation()
    exp.add(rule, text)
    return exp


def _finish(combat, campaign, actor, state: ra.Assault, turn) -> None:
    """The end: who holds the hex, the attacker back to its start hex, what follows."""
    combat.status = TcsCombat.Status.DONE
    exp = Explanation()
    final = ra.prompt(state)
    exp.add(final.rule, final.text)
    if state.ended != "repulsed":
        for rule, text in aftermath(state).notes:
            exp.add(rule, text)
    log_explanation(
        campaign, exp, actor=actor, private_to=None, tag={"combat": combat.pk}, turn=turn
    )


def tcs_assault_answer(
    *, combat: TcsCombat, side: Side, actor, stage: str, answer: Mapping[str, Any]
) -> TcsCombat:
    """`side` answers the current step of a running assault (`stage` as `stage_of` read it
    when the form was shown: a repeat or a stale answer changes nothing). `answer` keys:
    `units` (step 2: own units in the target hex), `choice` overwatch/retreat, `attacker_result`
    (steps 2, 4, 5), `fire` (step 6: firers, own targets, other shifts, roll), `losses`
    {TcsUnit: steps} and `check` (a `Check`) when applying a round's fire."""
    with side_write(side, side.campaign_id, actor) as campaign:
        combat = TcsCombat.objects.select_for_update().get(pk=combat.pk)
        if combat.kind not in KINDS or combat.status != TcsCombat.Status.OPEN:
            raise ValidationError(_("This assault is over: nothing was changed."))
        role = role_of(combat, side)
        if stage != stage_of(combat) or role not in whose(combat):
            raise ValidationError(_("This step was already answered: nothing was changed."))
        engine = load_side(campaign, side)
        turn = current_turn(campaign).number
        before = state_of(combat)
        if before.step == 6 and (combat.result.get("stage") or "fire") == "fire":
            fire = dict(answer.get("fire") or {})
            if not fire.get("targets"):
                raise ValidationError({"targets": _("Write your units in the target hex.")})
            _firers(engine, fire.get("firers", ()), before.overrun)
            combat.result.setdefault("fire_in", {})[role] = {
                "firers": [to_data(f) for f in fire.get("firers", ())],
                "targets": [to_data(t) for t in fire["targets"]],
                "other": [list(o) for o in fire.get("other", ())],
                "roll": fire.get("roll"),
                "terrain_shift": fire.get("terrain_shift"),
            }
            combat.result["stage"] = "fire"
            _public(
                campaign,
                actor,
                combat,
                msg("%(side)s declares its assault fire", side=side.name),
                "22.0.h",
                turn,
            )
            if len(combat.result["fire_in"]) == 2:
                _fire(combat, campaign, actor, turn)
            state = before
        elif before.step == 6:
            state = _own_round(combat, campaign, side, engine, role, answer, actor, turn)
        else:
            try:
                state = _step(combat, campaign, engine, role, answer, actor, turn)
            except RuleError as exc:
                raise rule_error(exc, "choice") from None
        new_notes = state.explanation[len(before.explanation) :]
        if new_notes:
            log_explanation(
                campaign,
                Explanation.from_list(new_notes),
                actor=actor,
                private_to=None,
                tag={"combat": combat.pk},
                turn=turn,
            )
        combat.result["state"] = state.to_dict()
        if (state.step == 6 and before.step != 6) or state.round != before.round:
            combat.result["stage"] = "fire"
        if state.step == 8:
            _finish(combat, campaign, actor, state, turn)
        combat.save(update_fields=["result", "applied", "status"])
    return combat


def running(side: Side) -> list[TcsCombat]:
    """The operation's running assaults and overruns that involve this side (bounded)."""
    return list(
        TcsCombat.objects.filter(
            Q(side=side) | Q(target_side=side),
            campaign_id=side.campaign_id,
            kind__in=KINDS,
            status=TcsCombat.Status.OPEN,
        ).order_by("id")[:10]
    )


STAGE_TEXT = {
    "fire": msg("Both sides declare their area fire, consolidated into one attack each [22.0.h]"),
    ATTACKER: msg("Attacker: take your losses from the defender's fire, then check morale first"),
    DEFENDER: msg("Defender: take your losses from the attacker's fire, then check morale"),
}
WHOSE_WORDS = {
    ATTACKER: msg("attacker"),
    DEFENDER: msg("defender"),
    "both": msg("both sides"),
    "": msg("nobody"),
}


def ask_kind(combat: TcsCombat) -> str:
    """Which answer form the current step takes (forms.assault.STEP_FIELDS)."""
    state = state_of(combat)
    if state.step == 2:
        return "hex"
    if state.step in (4, 5):
        return "hit"
    if state.step == 6:
        return "fire" if (combat.result.get("stage") or "fire") == "fire" else "own"
    return "go"


def describe(combat: TcsCombat, role: str) -> dict[str, Any]:
    """Whose move and what is asked, the public state and fire, and this side's own part."""
    state = state_of(combat)
    asked = ra.prompt(state)
    text, rule = asked.text, asked.rule
    roles = whose(combat)
    if state.step == 6:
        stage = combat.result.get("stage") or "fire"
        text = msg("%(round)s. %(stage)s", round=asked.text, stage=STAGE_TEXT[stage])
        rule = "22.0.h" if stage == "fire" else "22.0.c"
    who = "both" if len(roles) == 2 else (next(iter(roles)) if roles else "")
    return {
        "id": combat.pk,
        "kind": combat.kind,
        "role": role,
        "step": state.step,
        "round": state.round,
        "stage": stage_of(combat),
        "whose": who,
        "whose_words": say(WHOSE_WORDS[who]),
        "rule": rule,
        "asks": say(text),
        "my_move": role in roles,
        "form": ask_kind(combat) if role in roles else "",
        "attackers": state.attackers,
        "defenders": state.defenders,
        "fire_order": [say(ra.SIDE_WORDS[o]) for o in ra.fire_order(state)],
        "fire": [_shown(r) for r in combat.result.get("fire", [])],
        "ended": state.ended,
        "winner": state.winner,
        "status": combat.status,
        "explanation": state.explanation,
        "own": combat.applied.get(role, []),
    }


def _shown(shot: Mapping[str, Any]) -> dict[str, Any]:
    """A round's public fire, its results in words."""
    out: dict[str, Any] = {"round": shot["round"]}
    for role in (ATTACKER, DEFENDER):
        if role in shot:
            words = say(shot[role]["words"]) if shot[role].get("words") else _("No Effect")
            out[role] = {**shot[role], "words": words}
    return out

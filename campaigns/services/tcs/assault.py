"""Assaults [22.0] and overruns [23.0] played by both sides, each acting for its own units.

One `TcsCombat` (kind "assault" or "overrun", `side` the attacker, `target_side` the
defender) holds the step machine of `rules.tcs.assault_steps` in `result["state"]` and stays
OPEN while it runs. `prompt()` says whose move it is; that side answers with
`tcs_assault_answer`. Step 5 has a stage "mine" (the attacker takes the minefield attack);
a round of assault fire (step 6) has the stages of `assault_fire`: "fire" (declarations;
when one side fires first, its fire alone), "early" and "second" (the other side's losses,
then its fire), "attacker" and "defender" (losses and morale checks, attacker first). Fire
and results are public, as at the table; each side's losses, checks and totals are logged
private to it and kept under `applied[role]` [1.5].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, Side
from campaigns.models.tcs import TcsCombat, TcsUnit
from campaigns.services.tcs import assault_fire as af
from campaigns.services.tcs.assault_fire import (
    EARLY,
    MINE,
    SECOND,
    public,
    state_of,
    survivors,
)
from campaigns.services.tcs.common import log_explanation, rule_error, side_write
from campaigns.services.tcs.engine import SideEngine, load_side
from campaigns.tcs.state import current_turn
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.tcs import assault as ra
from rules.tcs import assault_steps as st
from rules.tcs.fire import FirerKind
from rules.tcs.fire_tables import Terrain
from rules.tcs.morale_check import Mode, MoraleState
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


def role_of(combat: TcsCombat, side: Side) -> str:
    if side.pk == combat.side_id:
        return ATTACKER
    if side.pk == combat.target_side_id:
        return DEFENDER
    raise ValidationError(_("This side takes no part in this assault."))


def stage_of(combat: TcsCombat) -> str:
    """The step (and its stage) an answer must name, so a repeat is refused."""
    state, stage = state_of(combat), af.stage(combat)
    return f"{state.step}:{stage}" if stage else str(state.step)


def whose(combat: TcsCombat) -> set[str]:
    """The roles that may answer now."""
    state, stage = state_of(combat), af.stage(combat)
    if state.step == 8:
        return set()
    if stage == MINE:
        return {ATTACKER}
    if state.step == 6:
        if stage == "fire":
            return {ATTACKER, DEFENDER} - set(combat.result.get("fire_in", {}))
        if stage in (EARLY, SECOND):
            return {af.order_of(combat)[1]}
        return {stage}
    return {st.prompt(state).whose}


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
        state = st.start(stack, [], overrun=overrun)
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
        public(
            campaign,
            actor,
            combat,
            msg("%(side)s declares: %(units)s", side=side.name, units=", ".join(codes)),
            combat.rule,
            turn,
        )
    return combat


def _hit(state: st.Assault, answer: Mapping[str, Any], attacker_engine: SideEngine):
    result = answer.get("attacker_result") or "none"
    if result not in RESULTS:
        raise ValidationError({"attacker_result": _("Choose the result the attacker got.")})
    return {"attacker_result": result, "attackers": survivors(attacker_engine, state.attackers)}


def _step(combat, campaign, engine, role, answer, actor, turn) -> st.Assault:
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
        return st.advance(state, move)
    if state.step == 3 and not state.overrun:  # the defenders' Suppressed markers go [22.0]
        defender = load_side(campaign, combat.target_side)
        for code, mark in state.defenders.items():
            unit = defender.units.get(code)
            if unit and mark == MoraleState.SUPPRESSED and not unit.eliminated:
                unit.morale_state = MoraleState.NORMAL.value
                unit.save(update_fields=["morale_state"])
    if state.step == 5 and answer.get("minefield"):  # the attacker takes it [22.0 step 5]
        combat.result["stage"] = MINE
        combat.result["breached"] = bool(answer.get("breached"))
        public(campaign, actor, combat, msg("a minefield in the target hex"), "22.0", turn)
        return state
    if state.step in (4, 5):
        return st.advance(state, _hit(state, answer, other))
    return st.advance(state)


def _finish(combat, campaign, actor, state: st.Assault, turn) -> None:
    """The end: who holds the hex, the attacker back to its start hex, what follows."""
    combat.status = TcsCombat.Status.DONE
    exp = Explanation()
    final = st.prompt(state)
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
    (steps 2, 4), `minefield` (step 5: the defender says the hex holds one), `fire` (step 6:
    firers, own targets, other shifts, roll, `point` {firers, targets, roll}, `at` {steps,
    target_steps, value, rolls}), `losses` {TcsUnit: steps} and `check` (a `Check`) when
    applying a round's fire or the minefield attack (with `rolls`, `stacking_shift`)."""
    with side_write(side, side.campaign_id, actor) as campaign:
        combat = TcsCombat.objects.select_for_update().get(pk=combat.pk)
        if combat.kind not in KINDS or combat.status != TcsCombat.Status.OPEN:
            raise ValidationError(_("This assault is over: nothing was changed."))
        role = role_of(combat, side)
        if stage != stage_of(combat) or role not in whose(combat):
            raise ValidationError(_("This step was already answered: nothing was changed."))
        engine = load_side(campaign, side)
        turn = current_turn(campaign).number
        before, now = state_of(combat), af.stage(combat)
        state = before
        if now == MINE:
            state = af.mine_attack(combat, campaign, side, engine, answer, actor, turn)
        elif now in ("fire", SECOND):
            af.declare_fire(combat, campaign, engine, role, answer, actor, turn, side)
        elif now == EARLY:
            af.early_losses(combat, campaign, side, engine, role, answer, actor)
        elif before.step == 6:
            state = af.own_round(combat, campaign, side, engine, role, answer, actor, turn)
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
    "first": msg(
        "The side firing first declares its fire; the other side writes its units as targets"
    ),
    EARLY: msg("Take your losses from the first fire before your units fire"),
    SECOND: msg("Your surviving units declare their fire"),
    ATTACKER: msg("Attacker: take your losses from the defender's fire, then check morale first"),
    DEFENDER: msg("Defender: take your losses from the attacker's fire, then check morale"),
}
WHOSE_WORDS = {
    ATTACKER: msg("attacker"),
    DEFENDER: msg("defender"),
    "both": msg("both sides"),
    "": msg("nobody"),
}


def ask_kind(combat: TcsCombat, role: str) -> str:
    """Which answer form the current step takes for this side (forms.assault.STEP_FIELDS)."""
    state, stage = state_of(combat), af.stage(combat)
    order = af.order_of(combat)
    if state.step == 2:
        return "hex"
    if stage == MINE:
        return "mine_own"
    if state.step == 5:
        return "mine"
    if state.step == 4:
        return "hit"
    if stage == "fire" and len(order) == 2 and role == order[1]:
        return "targets"
    if stage in ("fire", SECOND):
        return "fire"
    if stage == EARLY:
        return "losses"
    return "own" if state.step == 6 else "go"


def describe(combat: TcsCombat, role: str) -> dict[str, Any]:
    """Whose move and what is asked, the public state and fire, and this side's own part."""
    state = state_of(combat)
    asked = st.prompt(state)
    text, rule = asked.text, asked.rule
    roles = whose(combat)
    stage = af.stage(combat)
    if state.step == 6:
        key = "first" if stage == "fire" and len(af.order_of(combat)) == 2 else stage
        text = msg("%(round)s. %(stage)s", round=asked.text, stage=STAGE_TEXT[key])
        rule = "22.0.h" if stage == "fire" else "22.0" if stage in (EARLY, SECOND) else "22.0.c"
    elif stage == MINE:
        text = msg("Attacker: the minefield attacks your entering units; take the losses and check")
        rule = "21.0.b"
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
        "form": ask_kind(combat, role) if role in roles else "",
        "attackers": state.attackers,
        "defenders": state.defenders,
        "fire_order": [say(ra.SIDE_WORDS[o]) for o in st.fire_order(state)],
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

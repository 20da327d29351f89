"""What happens to a side's own units in the turn: morale checks [17.0–17.6] (forced by fire,
an assault, being unassigned, night …), recovery [17.7], a fire result applied by the target's
owner, and a unit's mode, printed morale and marker.

Every total is the owner's secret (it holds the battalion's morale [1.5]): explanations are
logged private to the side; the other side reads one public line with the result, as the
markers on the map would show it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import Mode, TcsCombat, TcsFormation, TcsUnit
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services._base import append_log
from campaigns.services.tcs.common import (
    dice_for,
    log_explanation,
    log_private,
    rule_error,
    side_write,
)
from campaigns.services.tcs.engine import SideEngine, load_side
from campaigns.services.tcs.losses import apply_losses
from campaigns.tcs.state import current_turn, options_for
from rules.dice import D66, EnteredDice, entered_roll
from rules.errors import DiceError, RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.tcs import morale_check as mc
from rules.tcs.morale_table import RESULT_WORDS, MoraleResult
from rules.tcs.opsheet import C2Status, OpSheetType, c2_status
from rules.tcs.units import UnitCategory

LIKE_PRELIMS = {OpSheetType.MOVE, OpSheetType.HASTY_DEFENSE, OpSheetType.PREPARED_DEFENSE}
CAUSES = {
    "fire": msg("fire"),
    "assault": msg("an assault"),
    "unassigned": msg("unassigned units near the enemy"),
    "night": msg("night"),
    "artillery": msg("artillery"),
    "minefield": msg("a minefield"),
    "other": msg("another rule"),
}
# a decision the morale rules ask for → the field that answers it
DECISION_FIELDS = {
    "largest_unit": "largest_choice",
    "artillery_syr": "syr_as_paralyzed",
    "assault": "assault_choice",
    "morale_result": "result",
}


@dataclass(frozen=True)
class Check:
    """How a stack checks: the table's modifiers, the assault and artillery context, the
    owner's answers, and the d66 rolled at the table (None: the site rolls)."""

    cause: str = "fire"
    modifiers: mc.Modifiers = field(default_factory=mc.Modifiers)
    roll: int | None = None
    result: str | None = None  # read off the printed Morale Table
    in_assault: bool = False
    assault_choice: str | None = None
    largest_choice: str | None = None
    artillery_air_phase: bool = False
    syr_as_paralyzed: bool | None = None
    morale: Mapping[str, int] = field(default_factory=dict)  # printed morale typed now


def _battalion_value(unit: TcsUnit) -> int:
    f = unit.formation
    if f is not None and f.morale == TcsFormation.Morale.BATTALION:
        return int(f.state.get("value", 0))
    return 0


def stack_of(
    engine: SideEngine, codes: Sequence[str], check: Check, gone: Sequence[str] = ()
) -> list[mc.StackUnit]:
    """The units as the morale rules see them; `gone` were just destroyed [17.2.a]."""
    options = options_for(engine.campaign)
    out = []
    for code in codes:
        unit = engine.units[code]
        morale = check.morale.get(code, unit.morale)
        c2 = c2_status(code, engine.sheet_list)
        out.append(
            mc.StackUnit(
                id=code,
                category=UnitCategory(unit.category),
                steps=unit.steps,
                steps_lost=unit.steps_lost if code not in gone else 0,
                morale=morale,
                battalion_morale=_battalion_value(unit),
                state=mc.MoraleState(unit.morale_state),
                mode=mc.Mode(unit.mode),
                unassigned=_unassigned(code, c2, engine, options),
                eliminated=code in gone,
            )
        )
    return out


def _unassigned(code: str, c2: C2Status, engine: SideEngine, options) -> bool:
    """Unassigned or executing preliminary instructions [6.3, 6.3.b]; with the reading on,
    also a unit whose mission is Move or a defence (see DECISIONS.md)."""
    if c2 is not C2Status.ASSIGNED:
        return True
    if not options.move_defense_units_unassigned_for_morale:
        return False
    missions = {s.acting_mission(code) for s in engine.sheet_list} - {None}
    return bool(missions) and missions <= LIKE_PRELIMS


def _answer(exc: DecisionRequired) -> ValidationError:
    key = exc.decision.key.split(":")[0]
    prompt = say(exc.decision.prompt)
    options = ", ".join(str(o) for o in exc.decision.options)
    return ValidationError(
        {
            DECISION_FIELDS.get(key, "detail"): _("%(prompt)s [%(rule)s]: %(options)s.")
            % {"prompt": prompt, "rule": exc.decision.rule, "options": options}
        }
    )


def _check_roll(check: Check, has_table: bool):
    if check.roll is None:
        if not has_table and check.result is None:
            raise ValidationError(
                {
                    "roll": _(
                        "This operation has no Morale Table: roll at the table, then enter the "
                        "roll and the result read off the printed chart."
                    )
                }
            )
        return None
    try:
        return entered_roll(D66, check.roll, purpose=msg("morale check"), rule="17.2")
    except DiceError as exc:
        raise rule_error(exc, "roll") from None


def run_check(
    campaign: Campaign, engine: SideEngine, codes: Sequence[str], check: Check, gone=()
) -> mc.Outcome:
    charts = operation_charts(campaign)
    stack = stack_of(engine, codes, check, gone)
    roll = _check_roll(check, charts.morale is not None)
    entered = None
    if check.result:
        try:
            entered = MoraleResult(check.result)
        except ValueError:
            raise ValidationError({"result": _("Choose a Morale Table result.")}) from None
    try:
        return mc.check_morale(
            stack,
            dice_for(None),
            table=charts.morale,
            entered=entered,
            roll=roll,
            modifiers=check.modifiers,
            in_assault=check.in_assault,
            artillery_air_phase=check.artillery_air_phase,
            syr_as_paralyzed=check.syr_as_paralyzed,
            assault_choice=check.assault_choice,
            largest_choice=check.largest_choice,
        )
    except DecisionRequired as exc:
        raise _answer(exc) from None
    except RuleError as exc:
        raise rule_error(exc, "units") from None


def _apply_effects(engine: SideEngine, outcome: mc.Outcome, exp: Explanation) -> None:
    for effect in outcome.effects:
        unit = engine.units[effect.unit]
        unit.morale_state = effect.state.value
        if effect.mode.value != unit.mode:
            unit.mode = effect.mode.value
        if unit.mode == Mode.MOVE and unit.dug_in:
            unit.dug_in = False
            exp.add("6.16.c", msg("%(u)s is in Move mode: no longer Dug In", u=unit.code))
        unit.save(update_fields=["morale_state", "mode", "dug_in"])


def _public_line(campaign, side, actor, outcome: mc.Outcome, cause: str, turn: int, tag) -> None:
    text = msg(
        "%(side)s: a morale check after %(cause)s — %(result)s",
        side=side.name,
        cause=CAUSES.get(cause, CAUSES["other"]),
        result=RESULT_WORDS[outcome.result],
    )
    if outcome.retreat_hexes:
        text = msg("%(text)s; the stack retreats %(n)s hexes", text=text, n=outcome.retreat_hexes)
    append_log(
        campaign,
        kind=LogEntry.Kind.RULE,
        summary=text,
        rule="17.2",
        actor=actor,
        data={"tcs": dict(tag), "turn": turn},
    )


def take_losses(
    campaign, side, engine: SideEngine, actor, losses: Mapping[str, int], dice, *, exact=False
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each unit's steps lost in combat [10.0] (with its vehicle checks [17.8]), inside the
    caller's transaction: what each took and the codes eliminated. More steps than a unit
    has left are cut to what it has, or refused when `exact`."""
    done, gone = [], []
    for code, wanted in losses.items():
        unit = engine.units[code]
        if exact and wanted > unit.steps_left:
            raise ValidationError(
                {"losses": _("%(u)s has %(n)s steps left.") % {"u": code, "n": unit.steps_left}}
            )
        steps = min(wanted, unit.steps_left)
        if not steps:
            continue
        try:
            out = apply_losses(
                campaign,
                side,
                engine,
                unit,
                actor=actor,
                steps=steps,
                combat=True,
                candidates=[],
                dice=dice,
            )
        except RollNeeded:
            raise ValidationError(
                {"rolls": _("Enter a d6 for each vehicle morale check, or let the site roll.")}
            ) from None
        done.append({"unit": code, "steps": steps, **out})
        if out.get("eliminated"):
            gone.append(code)
    return done, gone


def check_and_apply(
    campaign: Campaign,
    side: Side,
    engine: SideEngine,
    codes: Sequence[str],
    check: Check,
    *,
    actor,
    tag: Mapping[str, Any],
    gone: Sequence[str] = (),
) -> dict[str, Any]:
    """One morale check of a stack and all it does, inside the caller's transaction."""
    turn = current_turn(campaign).number
    outcome = run_check(campaign, engine, codes, check, gone)
    _apply_effects(engine, outcome, outcome.explanation)
    log_explanation(campaign, outcome.explanation, actor=actor, private_to=side, tag=tag, turn=turn)
    losses = []
    for loss in outcome.losses:
        taken, _gone = take_losses(
            campaign, side, engine, actor, {loss.unit: loss.steps}, dice_for(None)
        )
        losses += [{**t, "rule": loss.rule} for t in taken]
    _public_line(campaign, side, actor, outcome, check.cause, turn, tag)
    return {
        "result": outcome.result.value,
        "result_words": say(RESULT_WORDS[outcome.result]),
        "total": outcome.total,
        "roll": outcome.roll.value if outcome.roll else None,
        "retreat_hexes": outcome.retreat_hexes,
        "effects": [
            {"unit": e.unit, "state": e.state.value, "mode": e.mode.value} for e in outcome.effects
        ],
        "losses": losses,
    }


def _codes(engine: SideEngine, units: Sequence[TcsUnit], field_name: str = "units") -> list[str]:
    codes = []
    for unit in units:
        if unit.side_id != engine.side.pk or unit.code not in engine.units:
            raise ValidationError({field_name: _("Choose units of this side.")})
        if engine.units[unit.code].eliminated:
            raise ValidationError(
                {field_name: _("%(u)s is already eliminated.") % {"u": unit.code}}
            )
        codes.append(unit.code)
    if not codes:
        raise ValidationError({field_name: _("Choose the units of the stack.")})
    return list(dict.fromkeys(codes))


def tcs_morale_check(*, side: Side, actor, units: Sequence[TcsUnit], check: Check) -> TcsCombat:
    """A stack's morale check [17.2] and its consequences, applied to the side's units."""
    if check.cause not in CAUSES:
        raise ValidationError({"cause": _("Choose what forces the check.")})
    with side_write(side, side.campaign_id, actor) as campaign:
        _active(campaign)
        engine = load_side(campaign, side)
        codes = _codes(engine, units)
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            turn=current_turn(campaign).number,
            kind="morale_check",
            rule="17.2",
            inputs={"units": codes, "cause": check.cause},
            created_by=actor,
        )
        combat.result = check_and_apply(
            campaign, side, engine, codes, check, actor=actor, tag={"combat": combat.pk}
        )
        combat.save(update_fields=["result"])
    return combat


def _active(campaign: Campaign) -> None:
    if campaign.status != Campaign.Status.ACTIVE:
        raise ValidationError(_("Combat is resolved once play has started."))


def tcs_recover(
    *, side: Side, actor, units: Sequence[TcsUnit], in_artillery_zone: bool = False
) -> TcsCombat:
    """Voluntary recovery at the end of the owner's Action Phase [17.7]: one level off each
    marked unit of the stack, once per stack and phase; an overwatch event [17.7.a]."""
    with side_write(side, side.campaign_id, actor) as campaign:
        _active(campaign)
        engine = load_side(campaign, side)
        codes = _codes(engine, units)
        turn = current_turn(campaign).number
        already = TcsCombat.objects.filter(
            campaign=campaign, side=side, turn=turn, kind="recovery"
        ).values_list("inputs", flat=True)
        again = any(set(codes) & set(i.get("units", [])) for i in already)
        try:
            outcome = mc.recover(
                stack_of(engine, codes, Check()),
                in_artillery_zone=in_artillery_zone,
                recovered_this_phase=again,
            )
        except RuleError as exc:
            raise rule_error(exc, "units") from None
        _apply_effects(engine, outcome, outcome.explanation)
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            turn=turn,
            kind="recovery",
            rule="17.7",
            inputs={"units": codes},
            result={"effects": [{"unit": e.unit, "state": e.state.value} for e in outcome.effects]},
            created_by=actor,
        )
        log_explanation(
            campaign,
            outcome.explanation,
            actor=actor,
            private_to=side,
            tag={"combat": combat.pk},
            turn=turn,
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.RULE,
            summary=msg("%(side)s: a stack recovers (an overwatch event)", side=side.name),
            rule="17.7.a",
            actor=actor,
            data={"tcs": {"combat": combat.pk}, "turn": turn},
        )
    return combat


def tcs_fire_apply(
    *,
    combat: TcsCombat,
    actor,
    losses: Mapping[TcsUnit, int],
    units: Sequence[TcsUnit],
    check: Check = Check(),
    rolls: list[int] | None = None,
) -> TcsCombat:
    """The target's owner applies a fire result to his stack: the step losses as split by
    10.0.f (or the point-fire kills [12.2.e]), then the morale check it forces [17.0.b],
    with units just destroyed still able to check [17.2.a]. Applied once."""
    with side_write(combat.target_side_id or 0, combat.campaign_id, actor) as campaign:
        _active(campaign)
        combat = TcsCombat.objects.select_for_update().get(pk=combat.pk)
        if combat.status != TcsCombat.Status.OPEN:
            raise ValidationError(_("This fire result was already applied: nothing was changed."))
        side = combat.target_side
        if combat.kind == "artillery":  # a barrage in the Air & Artillery Phase [17.4.l]
            check = replace(check, cause="artillery", artillery_air_phase=True)
        engine = load_side(campaign, side)
        stack = _codes(engine, list(units) + list(losses))
        wanted = int(combat.result.get("steps", 0))
        by_code = {u.code: int(n) for u, n in losses.items() if int(n)}
        available = sum(engine.units[c].steps_left for c in stack)
        if sum(by_code.values()) != min(wanted, available):
            raise ValidationError(
                {
                    "losses": _("Share exactly %(n)s step loss(es) among the units of the stack.")
                    % {"n": min(wanted, available)}
                }
            )
        dice = dice_for(rolls)
        applied: dict[str, Any] = {}
        applied["losses"], gone = take_losses(
            campaign, side, engine, actor, by_code, dice, exact=True
        )
        if isinstance(dice, EnteredDice) and dice.remaining:
            raise ValidationError(
                {"rolls": _("More dice were entered than the vehicle morale checks need.")}
            )
        if combat.result.get("check"):
            checkers = [c for c in stack if engine.units[c].category in mc.CHECKERS]
            if checkers:
                applied["check"] = check_and_apply(
                    campaign,
                    side,
                    engine,
                    checkers,
                    check,
                    actor=actor,
                    tag={"combat": combat.pk},
                    gone=gone,
                )
        combat.status = TcsCombat.Status.APPLIED
        combat.applied = applied
        combat.applied_by = actor
        combat.applied_at = timezone.now()
        combat.save(update_fields=["status", "applied", "applied_by", "applied_at"])
        log_private(
            campaign,
            side,
            actor,
            msg("Fire result applied to your stack."),
            rule=combat.rule,
            tag={"combat": combat.pk},
        )
    return combat

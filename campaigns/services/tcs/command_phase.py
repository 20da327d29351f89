"""A side's Command Phase [2.0], step by step: weighted turns [6.9.d], implementation rolls
[6.9.f], reserves and alternatives [6.14], morale recovery [17.1.d, 17.8.d], completion.

Each step runs once per phase under the campaign lock (`engine.phase_step`), so two players
clicking at once cannot apply it twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsFormation
from campaigns.services._base import append_log
from campaigns.services.tcs.common import (
    dice_for,
    locked,
    log_private,
    may_act,
    roll_needed,
    rule_error,
)
from campaigns.services.tcs.engine import (
    SideEngine,
    load_side,
    mark,
    phase_step,
    save_formation,
    snapshot,
    track_state,
    vehicle_track,
)
from campaigns.services.tcs.sheet_effects import undig
from campaigns.tcs.state import blockers_for, current_turn, options_for
from rules.dice import D6, EnteredDice, ServerDice
from rules.errors import RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.tcs.command_prep import AttemptMode, attempt_implementation
from rules.tcs.morale import BattalionMorale, battalion_recovery
from rules.tcs.opsheet import OpSheetType
from rules.tcs.reserves import choose_alternative, commit_reserves, roll_check
from rules.tcs.vehicle_morale import vehicle_recovery
from rules.tcs.weighted_turns import accumulate_weighted_turns


def tcs_phase_open(*, side: Side, actor) -> CommandPhase:
    """This turn's Command Phase for the side (made once; a second call returns it)."""
    with transaction.atomic():
        campaign = locked(side.campaign_id)
        may_act(campaign, actor, side.pk)
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Start the operation first."))
        turn = current_turn(campaign)
        phase, created = CommandPhase.objects.get_or_create(
            campaign=campaign,
            side=side,
            turn=turn.number,
            defaults={"clock": turn.clock, "light": turn.light.value, "steps": {}},
        )
        if created:
            append_log(
                campaign,
                kind=LogEntry.Kind.EVENT,
                summary=msg(
                    "%(side)s: Command Phase of turn %(n)s (%(clock)s).",
                    side=side.name,
                    n=turn.number,
                    clock=turn.clock,
                ),
                rule="2.0",
                actor=actor,
                data={"tcs": {"phase": phase.pk}, "turn": turn.number},
            )
    return phase


def tcs_phase_weighted_turns(
    *, phase: CommandPhase, actor, fired_sheets: Iterable[int] = ()
) -> dict[str, int]:
    """Step 2: every sheet (and addition) in Command Prep adds its ticks [6.9.d, 6.9.e,
    26.1.a]; `fired_sheets` are the sheets a listed unit of which fired or was fired on last
    turn. Done once per phase."""
    with phase_step(phase, actor) as step:
        phase, engine, turn = step.phase, step.engine, step.turn
        if phase.steps.get("ticked"):
            raise ValidationError(_("Weighted turns were already added in this Command Phase."))
        fired_ids = set(fired_sheets)
        if fired_ids - {r.pk for r in engine.records}:
            raise ValidationError({"fired_sheets": _("Choose among this side's op sheets.")})
        fired: set[str] = set()
        for record in engine.records:
            if record.pk in fired_ids:
                sheet = engine.sheets[record.pk]
                fired.update(sheet.active_units)
                for addition in sheet.pending_additions:
                    fired.update(addition.units)
        options = options_for(step.campaign)
        added: dict[str, int] = {}
        logs = []
        for record in engine.records:
            sheet = engine.sheets[record.pk]
            if not (sheet.status.in_prep or sheet.pending_additions):
                continue
            result = accumulate_weighted_turns(
                sheet, engine.oob, engine.sheet_list, turn, fired, options
            )
            for c in result.counters:
                added[c.counter] = c.ticks
            logs.append((record.pk, result.explanation))
        engine.save_sheets(turn.number)
        mark(phase, "ticked", dict(added) or True)
        mark(phase, "fired", sorted(fired_ids))
        for pk, exp in logs:
            step.log(exp, {"sheet": pk})
        if not logs:
            log_private(
                step.campaign,
                phase.side,
                actor,
                msg("%(side)s: no op sheet in Command Prep.", side=phase.side.name),
                rule="6.9.d",
                tag={"phase": phase.pk},
            )
    return added


def _threshold_entries(thresholds: Mapping[str, int | None]) -> dict[OpSheetType, int | None]:
    """Row type → the threshold read off the chart (None: the cell shows no number)."""
    entries: dict[OpSheetType, int | None] = {}
    for key, value in thresholds.items():
        try:
            row = OpSheetType(key)
        except ValueError:
            raise ValidationError(
                {
                    "thresholds": _("Name each threshold's row: %(rows)s.")
                    % {"rows": ", ".join(t.value for t in OpSheetType)}
                }
            ) from None
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValidationError(
                {"thresholds": _("A threshold is a d66 reading (11–66) or empty.")}
            )
        entries[row] = value
    return entries


def tcs_phase_attempt(
    *,
    phase: CommandPhase,
    sheet: OpSheetRecord,
    actor,
    mode: str = AttemptMode.FULL,
    roll: int | None = None,
    thresholds: Mapping[str, int | None] | None = None,
    addition_id: str | None = None,
) -> dict[str, Any]:
    """Step 3: one Command Prep roll for a sheet (or an addition) [6.9.f, 6.14.a].

    `thresholds` maps a row type to the value read off the printed chart (None: the cell
    shows no number); without them the side's table is read. A missing threshold is a form
    error naming the row, column and key to read, raised before any die is rolled.
    """
    with phase_step(phase, actor, sheet) as step:
        phase, record = step.phase, step.record
        key = f"{record.pk}/{addition_id or ''}"
        if key in phase.steps.get("attempted", []):
            raise ValidationError(_("This sheet already had its Command Prep roll this phase."))
        if not phase.steps.get("ticked"):
            raise ValidationError(_("Add this turn's weighted turns first (step 2)."))
        if mode not in {x.value for x in AttemptMode}:
            raise ValidationError(
                {"mode": _("Choose a full attempt or preliminary instructions only.")}
            )
        try:
            result = attempt_implementation(
                step.sheet,
                step.engine.sheet_list,
                rating=step.engine.settings.rating,
                dice=dice_for(None if roll is None else [roll]),
                mode=AttemptMode(mode),
                table=step.engine.table,
                entered=_threshold_entries(thresholds or {}),
                addition_id=addition_id or None,
                options=options_for(step.campaign),
            )
        except DecisionRequired as need:
            row = need.decision.key.split(":", 1)[1]
            field = "move_threshold" if row == "move" and row != record.sheet_type else "threshold"
            raise ValidationError({field: say(need.decision.prompt)}) from None
        except RuleError as exc:
            raise rule_error(
                exc, "roll" if exc.__class__.__name__ == "DiceError" else None
            ) from None
        step.save(result.explanation)
        undig(step.engine, actor, step.turn.number)  # implemented or prelims [6.16.d]
        mark(phase, "attempted", [key])
        mark(phase, "outcomes", [{"sheet": record.pk, "outcome": result.outcome.value}])
        for other, units in result.released.items():
            other_record = next((r for r in step.engine.records if r.code == other), None)
            if other_record is not None:
                log_private(
                    step.campaign,
                    phase.side,
                    actor,
                    msg("Struck from %(s)s: %(u)s.", s=other, u=", ".join(units)),
                    rule="6.10.a",
                    tag={"sheet": other_record.pk},
                )
    return {"outcome": result.outcome.value, "roll": result.roll.value if result.roll else None}


def tcs_phase_commit_reserves(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, units: list[str], order: str
) -> str:
    """Step 4 (set-up): commit reserves as a group with one order [6.14.b]."""
    with phase_step(phase, actor, sheet) as step:
        state = step.sheet
        group_id = f"r{len(state.check_groups) + 1}"
        try:
            result = commit_reserves(
                state, group_id, units, OpSheetType(order), rating=step.engine.settings.rating
            )
        except (RuleError, ValueError) as exc:
            if isinstance(exc, RuleError):
                raise rule_error(exc, "units") from None
            raise ValidationError({"order": _("Choose Attack, Hasty Defense or Move.")}) from None
        step.save(result.explanation)
    return group_id


def tcs_phase_choose_alternative(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, alternative: str
) -> str:
    """Step 4 (set-up): start choosing an alternative; irreversible [6.14.c]."""
    with phase_step(phase, actor, sheet) as step:
        try:
            result = choose_alternative(step.sheet, alternative, rating=step.engine.settings.rating)
        except RuleError as exc:
            raise rule_error(exc, "alternative") from None
        step.save(result.explanation)
    return f"alt:{alternative}"


def tcs_phase_check_roll(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, group_id: str, roll: int | None = None
) -> bool:
    """Step 4: a pending reserve or alternative group's check roll, 1d6 ≥ rating [6.14.d];
    one per group per phase."""
    with phase_step(phase, actor, sheet) as step:
        key = f"{step.record.pk}/{group_id}"
        if key in step.phase.steps.get("checked", []):
            raise ValidationError(_("This group already rolled its check this phase."))
        try:
            result = roll_check(
                step.sheet,
                group_id,
                rating=step.engine.settings.rating,
                dice=dice_for(None if roll is None else [roll]),
            )
        except RuleError as exc:
            raise rule_error(exc, "roll") from None
        step.save(result.explanation)
        undig(step.engine, actor, step.turn.number)  # a reserve given its order [6.16.d]
        mark(step.phase, "checked", [key])
    return result.success


# --- morale recovery ------------------------------------------------------------------------


def tcs_phase_recovery(
    *, phase: CommandPhase, actor, rolls: Mapping[int, int | None] | None = None
) -> dict[str, tuple[int, int]]:
    """Step 7: on whole hours (at night even hours) each battalion and vehicle formation
    rolls 1d6; ≤ its value lowers it by 1, never while attacking [17.1.d–e, 17.8.d, 26.1.d].

    `rolls` maps a formation pk to the die rolled at the table; None: the server rolls every
    die. With entered dice each formation that must roll needs its die: the missing ones are
    all named at once and nothing changes until they are given. A die entered for a
    formation that does not roll (morale 0, attacking, not its recovery hour) is not used;
    the phase records it (`recovery_unused`) and the log says so.
    """
    with phase_step(phase, actor) as step:
        phase, engine, turn = step.phase, step.engine, step.turn
        if phase.steps.get("recovery"):
            raise ValidationError(_("Morale recovery was already rolled in this Command Phase."))
        moraled = [f for f in engine.formations.values() if f.morale != TcsFormation.Morale.NONE]
        server = rolls is None
        entered = _entered_recovery(rolls, moraled)
        options = options_for(step.campaign)
        changes: dict[str, tuple[int, int]] = {}
        missing: dict[str, str] = {}
        unused: list[str] = []
        exp_all: list[tuple[TcsFormation, Explanation]] = []
        for formation in moraled:
            value = entered.get(formation.pk)
            dice = ServerDice() if server else EnteredDice([] if value is None else [value])
            try:
                result, new_state = _recover(engine, formation, turn, dice, options)
            except RollNeeded as exc:
                missing.update(roll_needed(exc, f"roll_{formation.pk}").message_dict)
                continue
            except RuleError as exc:
                raise rule_error(exc, f"roll_{formation.pk}") from None
            if result is None:  # a vehicle formation without steps keeps no track
                continue
            if value is not None and result.roll is None:
                unused.append(formation.code)
            if result.after != result.before:
                changes[formation.code] = (result.before, result.after)
            save_formation(formation, new_state, turn.number, "recovery")
            exp_all.append((formation, result.explanation))
        if missing:
            raise ValidationError(missing)
        mark(phase, "recovery", {k: list(v) for k, v in changes.items()} or True)
        if unused:
            mark(phase, "recovery_unused", unused)
        for formation, exp in exp_all:
            step.log(exp, {"formation": formation.pk})
        if unused:
            log_private(
                step.campaign,
                phase.side,
                actor,
                msg(
                    "Dice entered for %(f)s were not used: no recovery roll is made for them.",
                    f=", ".join(unused),
                ),
                rule="17.1.d",
                tag={"phase": phase.pk},
                turn=turn.number,
            )
    return changes


def _entered_recovery(
    rolls: Mapping[int, int | None] | None, moraled: list[TcsFormation]
) -> dict[int, int]:
    """The dice entered, checked before anything is rolled or applied."""
    if rolls is None:
        return {}
    known = {f.pk for f in moraled}
    errors: dict[str, str] = {}
    entered: dict[int, int] = {}
    for pk, value in rolls.items():
        if pk not in known:
            errors["rolls"] = _("Enter dice only for this side's formations that keep morale.")
            continue
        if value is None:
            continue
        try:
            entered[pk] = D6.check_value(value)
        except RuleError as exc:
            errors[f"roll_{pk}"] = say(exc.message)
    if errors:
        raise ValidationError(errors)
    return entered


def _recover(engine, formation, turn, dice, options):
    """One formation's recovery roll: (result, state to save), or (None, None)."""
    if formation.morale == TcsFormation.Morale.BATTALION:
        morale = BattalionMorale.from_dict(formation.state)
        result = battalion_recovery(morale, turn, dice, oob=engine.oob, sheets=engine.sheet_list)
        return result, morale.to_dict()
    track = vehicle_track(engine, formation)
    if track is None:
        return None, None
    result = vehicle_recovery(
        track,
        turn,
        dice,
        formation_units=engine.oob.surviving(formation.code),
        sheets=engine.sheet_list,
        options=options,
    )
    return result, track_state(track)


# --- completing the phase -------------------------------------------------------------------


def phase_blockers(phase: CommandPhase, engine: SideEngine, campaign: Campaign) -> list[str]:
    """What must still be done before the phase may be completed."""
    return blockers_for(
        phase.steps,
        engine.sheet_list,
        engine.formations.values(),
        engine.settings.rating,
        campaign,
    )


def tcs_phase_complete(*, phase: CommandPhase, actor) -> CommandPhase:
    """Close the phase; completing it twice changes nothing (idempotent)."""
    with transaction.atomic():
        campaign = locked(phase.campaign_id)
        phase = CommandPhase.objects.select_related("side").get(pk=phase.pk)
        may_act(campaign, actor, phase.side_id)
        if phase.status == CommandPhase.Status.COMPLETED:
            return phase
        engine = load_side(campaign, phase.side)
        blockers = phase_blockers(phase, engine, campaign)
        if blockers:
            raise ValidationError(_("Before completing: %(what)s.") % {"what": "; ".join(blockers)})
        for record in engine.records:  # one timeline point per sheet and turn
            snapshot(record.history, phase.turn, status=record.status, wt=record.weighted_turns)
            OpSheetRecord.objects.filter(pk=record.pk).update(history=record.history)
        phase.status = CommandPhase.Status.COMPLETED
        phase.completed_at = timezone.now()
        phase.completed_by = actor
        phase.save(update_fields=["status", "completed_at", "completed_by"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=msg(
                "%(side)s completed the Command Phase of turn %(n)s.",
                side=phase.side.name,
                n=phase.turn,
            ),
            rule="2.0",
            actor=actor,
            data={"tcs": {"phase": phase.pk}, "turn": phase.turn},
        )
    return phase

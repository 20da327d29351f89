"""Corrections to losses and morale: a formation's morale value set by hand [17.1, 17.8],
and steps given back to a unit (which puts an eliminated unit back on its sheets)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsDecision, TcsFormation, TcsUnit
from campaigns.services._base import append_log
from campaigns.services.tcs.common import (
    log_explanation,
    log_private,
    side_write,
)
from campaigns.services.tcs.engine import SideEngine, load_side, save_formation
from campaigns.tcs.state import current_turn
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg, nmsg
from rules.tcs import labels
from rules.tcs.morale import BattalionMorale, battalion_loss_undone
from rules.tcs.opsheet import EntryStatus, OpSheetType, check_assignment
from rules.tcs.units import UnitCategory


def tcs_morale_correct(*, formation: TcsFormation, actor, value: int, reason: str) -> TcsFormation:
    """Correct a morale value (a mistake at the table); the correction is logged with its
    reason and the old value."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the value is corrected.")})
    if value < 0:
        raise ValidationError({"value": _("Morale is never below 0.")})
    with side_write(formation.side_id, formation.campaign_id, actor) as campaign:
        formation = TcsFormation.objects.select_related("side").get(pk=formation.pk)
        if formation.morale == TcsFormation.Morale.NONE:
            raise ValidationError({"value": _("This formation keeps no morale.")})
        before = formation.state.get("value", 0)
        turn = current_turn(campaign)
        save_formation(formation, {**formation.state, "value": value}, turn.number, "correction")
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=msg(
                "%(f)s morale corrected from %(a)s to %(b)s: %(why)s",
                f=formation.code,
                a=before,
                b=value,
                why=reason,
            ),
            rule="17.1" if formation.morale == TcsFormation.Morale.BATTALION else "17.8",
            actor=actor,
            private_to=formation.side,
            data={"tcs": {"formation": formation.pk}, "before": before, "after": value},
        )
    return formation


def _put_back(engine: SideEngine, unit: TcsUnit) -> tuple[list[str], list[str], Explanation]:
    """Put a unit that returns to play back on the sheets it was on when destroyed, where
    the rules still allow it: the sheet has not ended and 6.7.c holds; an addition that is
    still in Command Prep [6.13.c]. Returns (sheets back on, sheets not, explanation)."""
    exp = Explanation()
    back: list[str] = []
    not_back: list[str] = []
    for record in engine.records:
        state = engine.sheets[record.pk]
        entry = state.entry(unit.code)
        if entry is None or entry.status is not EntryStatus.ELIMINATED:
            continue
        if state.status.closed:
            not_back.append(record.code)
            exp.add(
                "6.11",
                msg(
                    "%(s)s has ended (%(status)s): %(u)s stays off it",
                    s=record.code,
                    status=labels.sheet_state(state.status),
                    u=unit.code,
                ),
            )
            continue
        others = [s for pk, s in engine.sheets.items() if pk != record.pk]
        try:
            check_assignment(
                unit.code, state.type, others, implemented=state.status.value == "implemented"
            )
        except RuleError as exc:
            not_back.append(record.code)
            exp.add(
                "6.7.c",
                msg(
                    "%(u)s cannot return to %(s)s: %(why)s",
                    u=unit.code,
                    s=record.code,
                    why=exc.message,
                ),
            )
            continue
        entry.status = EntryStatus.ACTIVE
        back.append(record.code)
        exp.add(
            "10.0",
            msg(
                "%(u)s is back on %(s)s as %(mission)s",
                u=unit.code,
                s=record.code,
                mission=labels.sheet_type(entry.mission) if entry.mission else msg("reserve"),
            ),
        )
    for left in unit.left_additions:
        record = next((r for r in engine.records if r.pk == left["sheet"]), None)
        if record is None:
            continue
        state = engine.sheets[record.pk]
        addition = next((a for a in state.pending_additions if a.id == left["addition"]), None)
        name = f"{record.code}/{left['addition']}"
        if addition is None:
            not_back.append(name)
            exp.add(
                "6.13.c",
                msg("%(s)s is no longer in Command Prep: %(u)s stays off it", s=name, u=unit.code),
            )
            continue
        addition.missions[unit.code] = OpSheetType(left["mission"])
        back.append(name)
        exp.add("6.13.c", msg("%(u)s is back in %(s)s", u=unit.code, s=name))
    return back, not_back, exp


def tcs_unit_restore(*, unit: TcsUnit, actor, steps: int, reason: str) -> TcsUnit:
    """Give back steps entered by mistake. A unit that was eliminated returns to play and,
    where the rules allow it, to the sheets it was on (not to a sheet that has ended, nor
    when 6.7.c forbids it; each case is logged). A battalion choice still awaited from the
    opponent is cancelled. The loss comes off the battalion box it was credited to
    [17.1.a] (logged); a vehicle morale track is corrected separately."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the steps are given back.")})
    with side_write(unit.side_id, unit.campaign_id, actor) as campaign:
        unit = TcsUnit.objects.select_related("side").get(pk=unit.pk)
        if not 1 <= steps <= unit.steps_lost:
            raise ValidationError(
                {"steps": _("%(u)s has lost %(n)s steps.") % {"u": unit.code, "n": unit.steps_lost}}
            )
        was_eliminated = unit.eliminated
        unit.steps_lost -= steps
        unit.eliminated_turn = None
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=nmsg(
                "%(u)s: %(n)s step given back (%(why)s).",
                "%(u)s: %(n)s steps given back (%(why)s).",
                steps,
                u=unit.code,
                why=reason,
            ),
            rule="10.0",
            actor=actor,
            private_to=unit.side,
            data={"tcs": {"unit": unit.pk}},
        )
        unit.restored = {"back": [], "not_back": [], "eliminated": was_eliminated}
        if was_eliminated:
            turn = current_turn(campaign)
            engine = load_side(campaign, unit.side)
            back, not_back, exp = _put_back(engine, unit)
            engine.save_sheets(turn.number)
            unit.restored = {"back": back, "not_back": not_back, "eliminated": True}
            unit.left_additions = []
            log_explanation(
                campaign,
                exp,
                actor=actor,
                private_to=unit.side,
                tag={"unit": unit.pk},
                turn=turn.number,
            )
            _cancel_decisions(campaign, unit, actor)
            unit.restored["morale"] = _undo_battalion_loss(campaign, unit, actor, turn.number)
        unit.save(update_fields=["steps_lost", "eliminated_turn", "left_additions", "credited_to"])
    return unit


def _undo_battalion_loss(campaign, unit: TcsUnit, actor, turn: int) -> list[int] | None:
    """Take the unit's loss back off the battalion box it was credited to [17.1.a]: returns
    [before, after], or None when no box counted it (vehicles, a choice never made)."""
    if unit.credited_to_id is None:
        return None
    formation = TcsFormation.objects.get(pk=unit.credited_to_id)
    unit.credited_to = None
    if formation.morale != TcsFormation.Morale.BATTALION:
        return None
    box = BattalionMorale.from_dict({"battalion": formation.code, **formation.state})
    change = battalion_loss_undone(box, UnitCategory(unit.category), unit=unit.code)
    save_formation(formation, box.to_dict(), turn, "correction")
    log_explanation(
        campaign,
        change.explanation,
        actor=actor,
        private_to=unit.side,
        tag={"unit": unit.pk, "formation": formation.pk},
        turn=turn,
    )
    log_private(
        campaign,
        unit.side,
        actor,
        _("%(u)s is back in play: %(f)s battalion morale %(a)s → %(b)s.")
        % {"u": unit.code, "f": formation.code, "a": change.before, "b": change.after},
        rule="17.1.a",
        tag={"unit": unit.pk, "formation": formation.pk},
        turn=turn,
    )
    return [change.before, change.after]


def _cancel_decisions(campaign, unit: TcsUnit, actor) -> None:
    for decision in TcsDecision.objects.filter(unit=unit, status=TcsDecision.Status.OPEN):
        decision.status = TcsDecision.Status.CANCELLED
        decision.resolved_at = timezone.now()
        decision.resolved_by = actor
        decision.save(update_fields=["status", "resolved_at", "resolved_by"])
        log_private(
            campaign,
            unit.side,
            actor,
            _("The opponent's choice for %(u)s is no longer needed.") % {"u": unit.code},
            rule="17.1.c",
            tag={"unit": unit.pk, "decision": decision.pk},
        )

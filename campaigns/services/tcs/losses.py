"""Step losses and morale: losses on a unit [10.0], the battalion box [17.1.a–c] (with the
opponent's choice between equally near battalions as its own step), the vehicle morale
track [17.8], and corrections (morale values, steps given back)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import TcsDecision, TcsFormation, TcsUnit
from campaigns.services._base import append_log
from campaigns.services.tcs.common import (
    dice_for,
    locked,
    log_explanation,
    log_private,
    may_act,
    roll_needed,
    rule_error,
    side_write,
)
from campaigns.services.tcs.engine import (
    SideEngine,
    load_side,
    save_formation,
    track_state,
    vehicle_track,
)
from campaigns.tcs.state import current_turn, options_for
from rules.dice import EnteredDice
from rules.errors import DiceError, RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.tcs.morale import BattalionMorale, battalion_loss
from rules.tcs.opsheet import EntryStatus, OpSheetType, check_assignment, eliminate
from rules.tcs.vehicle_morale import vehicle_step_losses


def _boxes(engine: SideEngine) -> dict[str, BattalionMorale]:
    return {
        f.code: BattalionMorale.from_dict(f.state)
        for f in engine.formations.values()
        if f.morale == TcsFormation.Morale.BATTALION
    }


def _nearest_list(nearest: str | Sequence[str] | None) -> list[str]:
    if not nearest:
        return []
    return [nearest] if isinstance(nearest, str) else list(dict.fromkeys(nearest))


def _vehicle_losses(engine, unit, formation, steps, rolls, turn, options, outcome, logs):
    track = vehicle_track(engine, formation)
    before_status = {pk: s.status for pk, s in engine.sheets.items()}
    dice = dice_for(rolls)
    try:
        result = vehicle_step_losses(
            track,
            steps,
            dice,
            formation_units=engine.oob.surviving(formation.code),
            sheets=engine.sheet_list,
            options=options,
        )
    except RollNeeded as exc:
        raise roll_needed(exc, "rolls") from None
    except RuleError as exc:
        raise rule_error(exc, "rolls" if isinstance(exc, DiceError) else "steps") from None
    if isinstance(dice, EnteredDice) and dice.remaining:
        # every die entered is applied exactly once: one left over is a mistake to correct
        raise ValidationError(
            {
                "rolls": _(
                    "%(n)s check roll(s) were needed [17.8.b] but %(m)s were entered: enter "
                    "exactly the dice rolled at the table."
                )
                % {"n": len(result.checks), "m": len(rolls or [])}
            }
        )
    save_formation(formation, track_state(track), turn.number, "loss")
    outcome["failed"] = result.failed
    outcome["checks"] = [c.value for c in result.checks]
    logs.append(({"formation": formation.pk}, result.explanation))
    outcome["sheets_failed"] = [
        r.pk for r in engine.records if engine.sheets[r.pk].status != before_status[r.pk]
    ]


def _left_additions(engine: SideEngine, code: str) -> list[dict[str, Any]]:
    """The pending additions a unit is about to be dropped from (to put it back later)."""
    return [
        {"sheet": r.pk, "addition": a.id, "mission": a.missions[code].value}
        for r in engine.records
        for a in engine.sheets[r.pk].pending_additions
        if code in a.missions
    ]


def tcs_losses_record(
    *,
    unit: TcsUnit,
    actor,
    steps: int,
    combat: bool = True,
    nearest: str | Sequence[str] | None = None,
    rolls: list[int] | None = None,
    expected_steps_left: int | None = None,
) -> dict[str, Any]:
    """Step losses on one unit [10.0]. A destroyed non-vehicle unit enters its battalion's
    box [17.1.a–c]; vehicle steps fill the formation's morale track with a d6 check per point
    gained, and a failure ends its implemented sheets [17.8.a–c]. `rolls` are d6 rolled at
    the table (None: the server rolls).

    `nearest` names the battalion(s) nearest to a unit outside any battalion [17.1.c]; when
    several tie, the loss is recorded and the opponent is asked to choose (a `TcsDecision`,
    resolved by `tcs_decision_resolve`).

    `expected_steps_left` (the steps the caller saw) makes a repeated request harmless: if
    the unit no longer has them, nothing is recorded twice and the refusal says why."""
    candidates = _nearest_list(nearest)
    with side_write(unit.side_id, unit.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Losses are recorded once play has started."))
        side = Side.objects.get(pk=unit.side_id)
        engine = load_side(campaign, side)
        unit = engine.units[unit.code]
        if expected_steps_left is not None and expected_steps_left != unit.steps_left:
            raise ValidationError(
                {
                    "expected_steps_left": _(
                        "%(u)s has %(n)s steps left, not %(e)s: this loss may already be "
                        "recorded. Nothing was changed."
                    )
                    % {"u": unit.code, "n": unit.steps_left, "e": expected_steps_left}
                }
            )
        if unit.eliminated:
            raise ValidationError({"unit": _("%(u)s is already eliminated.") % {"u": unit.code}})
        if not 1 <= steps <= unit.steps_left:
            raise ValidationError(
                {"steps": _("%(u)s has %(n)s steps left.") % {"u": unit.code, "n": unit.steps_left}}
            )
        turn = current_turn(campaign)
        outcome: dict[str, Any] = {"eliminated": False, "failed": False}
        logs: list[tuple[dict, Explanation]] = []
        intro = Explanation()
        unit.steps_lost += steps
        intro.add("10.0", f"{unit.code} loses {steps} step(s)", unit.steps_left)
        logs.append(({"unit": unit.pk}, intro))
        formation = unit.formation
        if (
            unit.category == TcsUnit.Category.VEHICLE
            and formation
            and formation.morale == TcsFormation.Morale.VEHICLE
        ):
            _vehicle_losses(
                engine, unit, formation, steps, rolls, turn, options_for(campaign), outcome, logs
            )
        elif rolls:
            raise ValidationError(
                {"rolls": _("Only vehicle losses in a vehicle-morale formation need dice.")}
            )
        pending = None
        if unit.steps_left == 0:
            unit.eliminated_turn = turn.number
            unit.left_additions = _left_additions(engine, unit.code)
            outcome["eliminated"] = True
            eliminate(unit.code, engine.sheet_list)
            engine.oob.eliminate(unit.code)
            if unit.category != TcsUnit.Category.VEHICLE:
                pending = _battalion_loss(engine, unit, candidates, combat, turn, outcome, logs)
        unit.save(update_fields=["steps_lost", "eliminated_turn", "left_additions"])
        engine.save_sheets(turn.number)
        for tag, exp in logs:
            log_explanation(campaign, exp, actor=actor, private_to=side, tag=tag, turn=turn.number)
        for pk in outcome.get("sheets_failed", []):
            log_private(
                campaign,
                side,
                actor,
                _("Op sheet %(s)s: %(status)s after the vehicle morale failure.")
                % {"s": engine.record(pk).code, "status": engine.sheets[pk].status.value},
                rule="17.8.c",
                tag={"sheet": pk},
            )
        if pending is not None:
            outcome["decision"] = _ask_opponent(campaign, side, unit, pending, combat, turn, actor)
    return outcome


def _battalion_loss(engine, unit, candidates, combat, turn, outcome, logs):
    """Credit the destroyed unit to a battalion's box [17.1.a–c]; returns the engine's
    Decision when the opponent must choose between equally near battalions."""
    boxes = _boxes(engine)
    if any(c not in boxes for c in candidates):
        raise ValidationError({"nearest": _("Choose one of your battalions.")})
    try:
        change = battalion_loss(unit.code, engine.oob, boxes, nearest=candidates, combat=combat)
    except DecisionRequired as need:
        if not combat:  # nothing would be counted: no one needs to choose
            exp = Explanation()
            exp.add("17.1.a", f"{unit.code}: non-combat loss, ignored", 0)
            logs.append(({"unit": unit.pk}, exp))
            return None
        outcome["awaiting"] = list(need.decision.options)
        return need.decision
    except RuleError as exc:
        raise ValidationError(
            {
                "nearest": _(
                    "%(u)s has no battalion: choose the battalion of the nearest unit [17.1.c]."
                )
                % {"u": unit.code}
            }
        ) from exc
    _credit(engine.formations[change.battalion], boxes, change, turn, logs)
    outcome["battalion"] = (change.battalion, change.before, change.after)
    return None


def _credit(battalion: TcsFormation, boxes, change, turn, logs) -> None:
    save_formation(battalion, boxes[change.battalion].to_dict(), turn.number, "loss")
    logs.append(({"formation": battalion.pk}, change.explanation))


def _ask_opponent(campaign, side, unit, decision, combat, turn, actor) -> int:
    opponent = campaign.sides.exclude(pk=side.pk).order_by("order").first()
    asked = TcsDecision.objects.create(
        campaign=campaign,
        side=side,
        chooser=opponent,
        unit=unit,
        key=decision.key,
        rule=decision.rule,
        options=list(decision.options),
        combat=combat,
        turn=turn.number,
    )
    log_private(
        campaign,
        side,
        actor,
        _("%(u)s is as near to %(b)s: %(o)s chooses whose morale it counts for.")
        % {"u": unit.code, "b": " / ".join(decision.options), "o": opponent.name},
        rule="17.1.c",
        tag={"unit": unit.pk, "decision": asked.pk},
        turn=turn.number,
    )
    log_private(
        campaign,
        opponent,
        actor,
        _("%(side)s asks you to choose which battalion the loss of %(u)s counts for.")
        % {"side": side.name, "u": unit.code},
        rule="17.1.c",
        kind=LogEntry.Kind.EVENT,
        tag={"decision": asked.pk},
        turn=turn.number,
    )
    return asked.pk


def tcs_decision_resolve(*, decision: TcsDecision, actor, choice: str) -> TcsDecision:
    """The opponent chooses the battalion a destroyed unit counts for [17.1.c]; its box is
    then credited [17.1.a]. Choosing again the same answer changes nothing."""
    with transaction.atomic():
        campaign = locked(decision.campaign_id)
        decision = TcsDecision.objects.select_related("side", "chooser", "unit").get(pk=decision.pk)
        may_act(campaign, actor, decision.chooser_id)
        if decision.status == TcsDecision.Status.RESOLVED and decision.choice == choice:
            return decision
        if decision.status != TcsDecision.Status.OPEN:
            raise ValidationError(_("This choice was already made or is no longer needed."))
        if choice not in decision.options:
            raise ValidationError({"choice": _("Choose one of the battalions offered.")})
        engine = load_side(campaign, decision.side)
        boxes = _boxes(engine)
        try:
            change = battalion_loss(
                decision.unit.code,
                engine.oob,
                boxes,
                nearest=decision.options,
                choice=choice,
                combat=decision.combat,
            )
        except RuleError as exc:
            raise rule_error(exc, "choice") from None
        turn = current_turn(campaign)
        logs: list[tuple[dict, Explanation]] = []
        _credit(engine.formations[change.battalion], boxes, change, turn, logs)
        decision.status = TcsDecision.Status.RESOLVED
        decision.choice = choice
        decision.resolved_at = timezone.now()
        decision.resolved_by = actor
        decision.save(update_fields=["status", "choice", "resolved_at", "resolved_by"])
        for tag, exp in logs:
            log_explanation(
                campaign, exp, actor=actor, private_to=decision.side, tag=tag, turn=turn.number
            )
        log_private(
            campaign,
            decision.chooser,
            actor,
            _("You chose %(b)s for the loss of %(u)s.") % {"b": choice, "u": decision.unit.code},
            rule="17.1.c",
            kind=LogEntry.Kind.EVENT,
            tag={"decision": decision.pk},
        )
    return decision


# --- corrections ----------------------------------------------------------------------------


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
            summary=_("%(f)s morale corrected from %(a)s to %(b)s: %(why)s")
            % {"f": formation.code, "a": before, "b": value, "why": reason},
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
                "6.11", f"{record.code} has ended ({state.status.value}): {unit.code} stays off it"
            )
            continue
        others = [s for pk, s in engine.sheets.items() if pk != record.pk]
        try:
            check_assignment(
                unit.code, state.type, others, implemented=state.status.value == "implemented"
            )
        except RuleError as exc:
            not_back.append(record.code)
            exp.add("6.7.c", f"{unit.code} cannot return to {record.code}: {exc.message}")
            continue
        entry.status = EntryStatus.ACTIVE
        back.append(record.code)
        exp.add("10.0", f"{unit.code} is back on {record.code} as {entry.mission or 'reserve'}")
    for left in unit.left_additions:
        record = next((r for r in engine.records if r.pk == left["sheet"]), None)
        if record is None:
            continue
        state = engine.sheets[record.pk]
        addition = next((a for a in state.pending_additions if a.id == left["addition"]), None)
        name = f"{record.code}/{left['addition']}"
        if addition is None:
            not_back.append(name)
            exp.add("6.13.c", f"{name} is no longer in Command Prep: {unit.code} stays off it")
            continue
        addition.missions[unit.code] = OpSheetType(left["mission"])
        back.append(name)
        exp.add("6.13.c", f"{unit.code} is back in {name}")
    return back, not_back, exp


def tcs_unit_restore(*, unit: TcsUnit, actor, steps: int, reason: str) -> TcsUnit:
    """Give back steps entered by mistake. A unit that was eliminated returns to play and,
    where the rules allow it, to the sheets it was on (not to a sheet that has ended, nor
    when 6.7.c forbids it; each case is logged). A battalion choice still awaited from the
    opponent is cancelled. Morale is not recomputed: correct it separately (logged)."""
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
            summary=_("%(u)s: %(n)s step(s) given back (%(why)s).")
            % {"u": unit.code, "n": steps, "why": reason},
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
            log_private(
                campaign,
                unit.side,
                actor,
                _(
                    "%(u)s is back in play. Morale is not recomputed: if its loss changed a "
                    "battalion or vehicle morale value, correct that value with the reason."
                )
                % {"u": unit.code},
                rule="17.1",
                tag={"unit": unit.pk},
            )
        unit.save(update_fields=["steps_lost", "eliminated_turn", "left_additions"])
    return unit


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

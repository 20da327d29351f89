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
from rules.i18n import msg, nmsg
from rules.tcs import labels
from rules.tcs.morale import BattalionMorale, battalion_loss
from rules.tcs.transitions import eliminate
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


def _vehicle_losses(engine, formation, steps, dice, turn, options, outcome, logs):
    track = vehicle_track(engine, formation)
    before_status = {pk: s.status for pk, s in engine.sheets.items()}
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
    save_formation(formation, track_state(track), turn.number, "loss")
    outcome["failed"] = outcome.get("failed", False) or result.failed
    outcome.setdefault("checks", []).extend(c.value for c in result.checks)
    logs.append(({"formation": formation.pk}, result.explanation))
    outcome.setdefault("sheets_failed", []).extend(
        r.pk for r in engine.records if engine.sheets[r.pk].status != before_status[r.pk]
    )


def _on_track(unit: TcsUnit) -> bool:
    """A vehicle whose losses fill its formation's vehicle morale track [17.8.a]."""
    formation = unit.formation
    return (
        unit.category == TcsUnit.Category.VEHICLE
        and formation is not None
        and formation.morale == TcsFormation.Morale.VEHICLE
    )


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
        if rolls and not _on_track(unit):
            raise ValidationError(
                {"rolls": _("Only vehicle losses in a vehicle-morale formation need dice.")}
            )
        dice = dice_for(rolls)
        outcome = apply_losses(
            campaign,
            side,
            engine,
            unit,
            actor=actor,
            steps=steps,
            combat=combat,
            candidates=candidates,
            dice=dice,
        )
        if isinstance(dice, EnteredDice) and dice.remaining:
            # every die entered is applied exactly once: one left over is a mistake to correct
            raise ValidationError(
                {
                    "rolls": _(
                        "%(n)s check roll(s) were needed [17.8.b] but %(m)s were entered: "
                        "enter exactly the dice rolled at the table."
                    )
                    % {"n": len(outcome.get("checks", [])), "m": len(rolls or [])}
                }
            )
    return outcome


def apply_losses(
    campaign: Campaign,
    side: Side,
    engine: SideEngine,
    unit: TcsUnit,
    *,
    actor,
    steps: int,
    combat: bool,
    candidates: list[str],
    dice,
) -> dict[str, Any]:
    """Steps off one unit of `engine` inside the caller's transaction [10.0], with what
    follows: the vehicle track and its checks [17.8], elimination, the battalion box
    [17.1.a–c] (or the opponent asked to choose), each step logged private to the side."""
    turn = current_turn(campaign)
    outcome: dict[str, Any] = {"eliminated": False, "failed": False}
    logs: list[tuple[dict, Explanation]] = []
    intro = Explanation()
    unit.steps_lost += steps
    intro.add(
        "10.0",
        nmsg("%(u)s loses %(n)s step", "%(u)s loses %(n)s steps", steps, u=unit.code),
        unit.steps_left,
    )
    logs.append(({"unit": unit.pk}, intro))
    if _on_track(unit):
        _vehicle_losses(
            engine, unit.formation, steps, dice, turn, options_for(campaign), outcome, logs
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
    unit.save(update_fields=["steps_lost", "eliminated_turn", "left_additions", "credited_to"])
    engine.save_sheets(turn.number)
    for tag, exp in logs:
        log_explanation(campaign, exp, actor=actor, private_to=side, tag=tag, turn=turn.number)
    for pk in outcome.get("sheets_failed", []):
        log_private(
            campaign,
            side,
            actor,
            msg(
                "Op sheet %(s)s: %(status)s after the vehicle morale failure.",
                s=engine.record(pk).code,
                status=labels.sheet_state(engine.sheets[pk].status),
            ),
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
            exp.add("17.1.a", msg("%(u)s: non-combat loss, ignored", u=unit.code), 0)
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
    _credit(engine.formations[change.battalion], unit, boxes, change, turn, logs, combat)
    outcome["battalion"] = (change.battalion, change.before, change.after)
    return None


def _credit(battalion: TcsFormation, unit: TcsUnit, boxes, change, turn, logs, combat) -> None:
    if combat:  # only a counted loss is taken off again when steps are given back
        unit.credited_to = battalion
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
        msg(
            "%(u)s is as near to %(b)s: %(o)s chooses whose morale it counts for.",
            u=unit.code,
            b=" / ".join(decision.options),
            o=opponent.name,
        ),
        rule="17.1.c",
        tag={"unit": unit.pk, "decision": asked.pk},
        turn=turn.number,
    )
    log_private(
        campaign,
        opponent,
        actor,
        msg(
            "%(side)s asks you to choose which battalion the loss of %(u)s counts for.",
            side=side.name,
            u=unit.code,
        ),
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
        _credit(
            engine.formations[change.battalion],
            decision.unit,
            boxes,
            change,
            turn,
            logs,
            decision.combat,
        )
        decision.unit.save(update_fields=["credited_to"])
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
            msg("You chose %(b)s for the loss of %(u)s.", b=choice, u=decision.unit.code),
            rule="17.1.c",
            kind=LogEntry.Kind.EVENT,
            tag={"decision": decision.pk},
        )
    return decision

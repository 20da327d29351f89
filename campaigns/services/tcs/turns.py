"""The turn clock: starting play [27.1.f], the next turn [1.3], ending the operation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry
from campaigns.models.tcs import CommandPhase, OpSheetRecord
from campaigns.services._base import append_log
from campaigns.services.tcs.common import current_turn, locked, may_manage, options_for
from rules.tcs.clock import Light, Turn, next_turn


def tcs_operation_start(*, campaign: Campaign, actor) -> Campaign:
    """Start play at turn 1; no sheet may start unimplemented [27.1.f]."""
    with transaction.atomic():
        campaign = locked(campaign.pk)
        may_manage(campaign, actor)
        if campaign.status != Campaign.Status.SETUP:
            raise ValidationError(_("The operation has already started."))
        waiting = OpSheetRecord.objects.filter(campaign=campaign).exclude(
            state__status="implemented"
        )
        if waiting.exists():
            raise ValidationError(
                _("Players may not start with unimplemented op sheets [27.1.f]: %(s)s.")
                % {"s": ", ".join(waiting.values_list("code", flat=True))}
            )
        turn = current_turn(campaign)
        first = Turn(1, turn.minutes, turn.light)
        campaign.state = {**campaign.state, "turn": first.to_dict()}
        campaign.status = Campaign.Status.ACTIVE
        campaign.save(update_fields=["state", "status", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("Play starts: turn 1, %(clock)s (%(light)s).")
            % {"clock": first.clock, "light": first.light.value},
            rule="2.0",
            actor=actor,
            data={"tcs": {"turn": 1}},
        )
    return campaign


def tcs_turn_advance(
    *, campaign: Campaign, actor, light: str, expected_turn: int | None = None
) -> Turn:
    """The next turn, once both sides completed this turn's Command Phase.

    `expected_turn` makes the request idempotent: a second click for the same turn changes
    nothing.
    """
    if light not in {x.value for x in Light}:
        raise ValidationError({"light": _("Choose the light condition.")})
    with transaction.atomic():
        campaign = locked(campaign.pk)
        may_manage(campaign, actor)
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Start the operation first."))
        turn = current_turn(campaign)
        if expected_turn is not None and expected_turn != turn.number:
            return turn
        done = set(
            CommandPhase.objects.filter(
                campaign=campaign, turn=turn.number, status=CommandPhase.Status.COMPLETED
            ).values_list("side_id", flat=True)
        )
        missing = [s.name for s in campaign.sides.all() if s.pk not in done]
        if missing:
            raise ValidationError(
                _("Complete the Command Phase first: %(sides)s.") % {"sides": ", ".join(missing)}
            )
        new = next_turn(turn, Light(light), options_for(campaign))
        campaign.state = {**campaign.state, "turn": new.to_dict()}
        campaign.save(update_fields=["state", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("Turn %(n)s begins at %(clock)s (%(light)s).")
            % {"n": new.number, "clock": new.clock, "light": new.light.value},
            rule="1.3",
            actor=actor,
            data={"tcs": {"turn": new.number}},
        )
    return new


def tcs_operation_end(*, campaign: Campaign, actor, confirm: bool) -> Campaign:
    """End the operation: every op sheet and private entry about them is revealed."""
    if not confirm:
        raise ValidationError({"confirm": _("Tick the box to confirm: this cannot be undone.")})
    with transaction.atomic():
        campaign = locked(campaign.pk)
        may_manage(campaign, actor)
        now = timezone.now()
        OpSheetRecord.objects.filter(campaign=campaign, revealed_at__isnull=True).update(
            revealed_at=now
        )
        LogEntry.objects.filter(
            campaign=campaign, private_to__isnull=False, data__has_key="tcs"
        ).update(private_to=None)
        campaign.status = Campaign.Status.FINISHED
        campaign.save(update_fields=["status", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.RESULT,
            summary=_("The operation is over; every op sheet is revealed."),
            actor=actor,
            data={"tcs": {"end": True}},
        )
    return campaign

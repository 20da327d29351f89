"""The turn clock: starting play [27.1.f], the next turn [1.3], ending the operation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsDecision
from campaigns.permissions import viewer_context
from campaigns.selectors.tcs import start_blockers
from campaigns.services._base import append_log
from campaigns.services.tcs.common import locked, may_manage
from campaigns.tcs.state import END_AGREED, current_turn, options_for
from rules.i18n import msg
from rules.tcs import labels
from rules.tcs.clock import Light, Turn, next_turn


def tcs_operation_start(*, campaign: Campaign, actor) -> Campaign:
    """Start play at turn 1; no sheet may start unimplemented [27.1.f]. The refusal names
    the sheets the actor may see and counts the others, with the way forward."""
    with transaction.atomic():
        campaign = locked(campaign.pk)
        may_manage(campaign, actor)
        if campaign.status != Campaign.Status.SETUP:
            raise ValidationError(_("The operation has already started."))
        blockers = start_blockers(campaign, viewer_context(actor, campaign))
        if blockers:
            raise ValidationError(
                _(
                    "Play may not start with unimplemented op sheets [27.1.f]: %(s)s. Their "
                    "side implements or deletes each one from the sheet's page."
                )
                % {"s": "; ".join(b.what for b in blockers)}
            )
        turn = current_turn(campaign)
        first = Turn(1, turn.minutes, turn.light)
        campaign.state = {**campaign.state, "turn": first.to_dict()}
        campaign.status = Campaign.Status.ACTIVE
        campaign.save(update_fields=["state", "status", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=msg(
                "Play starts: turn 1, %(clock)s (%(light)s).",
                clock=first.clock,
                light=labels.light(first.light),
            ),
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
            summary=msg(
                "Turn %(n)s begins at %(clock)s (%(light)s).",
                n=new.number,
                clock=new.clock,
                light=labels.light(new.light),
            ),
            rule="1.3",
            actor=actor,
            data={"tcs": {"turn": new.number}},
        )
    return new


def tcs_operation_end(*, campaign: Campaign, actor, confirm: bool) -> Campaign:
    """End the operation: every op sheet and private entry about them is revealed.

    Ending reveals both sides' secrets, so one side may not do it alone: the organiser (the
    operation's creator) or a neutral game master ends it at once; a player who is neither
    agrees for their side, and the operation ends when every side has agreed (a side may
    withdraw its agreement until then, `tcs_operation_end_withdraw`). The answer's status
    says which happened.
    """
    if not confirm:
        raise ValidationError({"confirm": _("Tick the box to confirm: this cannot be undone.")})
    with transaction.atomic():
        campaign = locked(campaign.pk)
        viewer = viewer_context(actor, campaign)
        if viewer.can_manage:
            _finish(campaign, actor)
            return campaign
        if not viewer.side_ids:
            raise ValidationError(
                _(
                    "Only the organiser, a game master or the players (every side agreeing) may end the operation."
                )
            )
        sides = list(campaign.sides.order_by("order"))
        agreed = set(campaign.state.get(END_AGREED, [])) | set(viewer.side_ids)
        if all(s.pk in agreed for s in sides):
            _finish(campaign, actor)
            return campaign
        campaign.state = {**campaign.state, END_AGREED: sorted(agreed)}
        campaign.save(update_fields=["state", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_(
                "%(who)s agree to end the operation; it ends when %(others)s agree too (or "
                "the organiser ends it)."
            )
            % {
                "who": ", ".join(s.name for s in sides if s.pk in viewer.side_ids),
                "others": ", ".join(s.name for s in sides if s.pk not in agreed),
            },
            actor=actor,
            data={"tcs": {"end_agreed": sorted(agreed)}},
        )
    return campaign


def tcs_operation_end_withdraw(*, campaign: Campaign, actor) -> Campaign:
    """A side takes back its agreement to end the operation (before every side agreed)."""
    with transaction.atomic():
        campaign = locked(campaign.pk)
        viewer = viewer_context(actor, campaign)
        agreed = set(campaign.state.get(END_AGREED, []))
        mine = agreed & set(viewer.side_ids)
        if not mine:
            raise ValidationError(_("Your side has not agreed to end the operation."))
        campaign.state = {**campaign.state, END_AGREED: sorted(agreed - mine)}
        campaign.save(update_fields=["state", "updated_at"])
        names = ", ".join(s.name for s in campaign.sides.all() if s.pk in mine)
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("%(who)s no longer agree to end the operation.") % {"who": names},
            actor=actor,
            data={"tcs": {"end_agreed": sorted(agreed - mine)}},
        )
    return campaign


def _finish(campaign: Campaign, actor) -> None:
    now = timezone.now()
    OpSheetRecord.objects.filter(campaign=campaign, revealed_at__isnull=True).update(
        revealed_at=now
    )
    LogEntry.objects.filter(
        campaign=campaign, private_to__isnull=False, data__has_key="tcs"
    ).update(private_to=None)
    # a choice still awaited can no longer be made: nothing is left waiting on anyone
    TcsDecision.objects.filter(campaign=campaign, status=TcsDecision.Status.OPEN).update(
        status=TcsDecision.Status.CANCELLED, resolved_at=now, resolved_by=actor
    )
    campaign.state = {k: v for k, v in campaign.state.items() if k != END_AGREED}
    campaign.status = Campaign.Status.FINISHED
    campaign.save(update_fields=["state", "status", "updated_at"])
    append_log(
        campaign,
        kind=LogEntry.Kind.RESULT,
        summary=_("The operation is over; every op sheet is revealed."),
        actor=actor,
        data={"tcs": {"end": True}},
    )

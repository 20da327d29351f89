"""The operation: creating it, its page (turn clock, sides, what it waits for and from
whom), starting play, the next turn, and ending it (the organiser or a game master at once,
the players when every side agrees)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.selectors import campaign_log
from campaigns.selectors.tcs import (
    decisions_to_make,
    is_finished,
    operation_waiting,
    tcs_operation,
)
from campaigns.selectors.tcs_turn import tcs_turn_phases
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.views.common import form_errors
from campaigns.views.tcs.common import flash, load, posted


@login_required
def tcs_new(request):
    form = tf.OperationForm(posted(request), user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = svc.tcs_operation_create(creator=request.user, **form.service_kwargs())
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(
                request,
                _("Operation created. Enter each side's order of battle and draw the op sheets."),
            )
            return redirect("tcs-operation", pk=campaign.pk)
    return render(request, "tcs/new.html", {"form": form})


def tcs_operation_view(request, pk: int):
    campaign, viewer = load(request, pk)
    op = tcs_operation(campaign, viewer)
    log = campaign_log(campaign, viewer).reverse()[:20]
    agreed = set(campaign.state.get(svc.END_AGREED, []))
    return render(
        request,
        "tcs/operation.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "op": op,
            "log": log,
            "advance_form": tf.AdvanceForm(
                initial={"expected_turn": op.turn.number, "light": op.turn.light.value}
            ),
            "recovery_due": svc.recovery_due(campaign),
            "decisions": decisions_to_make(campaign, viewer),
            "waiting": operation_waiting(campaign, viewer, op),
            "end_agreed": [sv.side for sv in op.sides if sv.side.pk in agreed],
            "phases": tcs_turn_phases(campaign, viewer),
        },
    )


def _manage_post(request, pk: int, action):
    campaign, viewer = load(request, pk)
    if not (viewer.can_manage or viewer.side_ids):
        raise Http404
    try:
        action(campaign)
    except ValidationError as exc:
        flash(request, exc)
    return redirect("tcs-operation", pk=campaign.pk)


@login_required
@require_POST
def tcs_start(request, pk: int):
    return _manage_post(
        request, pk, lambda c: svc.tcs_operation_start(campaign=c, actor=request.user)
    )


@login_required
@require_POST
def tcs_advance(request, pk: int):
    form = tf.AdvanceForm(request.POST)

    def advance(campaign):
        if not form.is_valid():
            raise ValidationError(_("Choose the light condition of the next turn."))
        svc.tcs_turn_advance(
            campaign=campaign,
            actor=request.user,
            light=form.cleaned_data["light"],
            expected_turn=form.cleaned_data["expected_turn"],
        )

    return _manage_post(request, pk, advance)


@login_required
def tcs_end(request, pk: int):
    """The organiser or a neutral game master ends the operation at once; a player agrees
    for their side and it ends when every side has agreed."""
    campaign, viewer = load(request, pk)
    if not (viewer.can_manage or viewer.side_ids) or is_finished(campaign):
        raise Http404
    form = tf.ConfirmForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            campaign = svc.tcs_operation_end(
                campaign=campaign, actor=request.user, confirm=form.cleaned_data["confirm"]
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            if is_finished(campaign):
                messages.success(request, _("The operation is over; every op sheet is revealed."))
            else:
                messages.success(
                    request,
                    _("Your side agrees to end the operation; it ends when every side agrees."),
                )
            return redirect("tcs-operation", pk=campaign.pk)
    agreed = set(campaign.state.get(svc.END_AGREED, []))
    return render(
        request,
        "tcs/end.html",
        {
            "campaign": campaign,
            "form": form,
            "ends_at_once": viewer.can_manage,
            "agreed": [s for s in campaign.sides.all() if s.pk in agreed],
            "mine_agreed": bool(agreed & set(viewer.side_ids)),
        },
    )


@login_required
@require_POST
def tcs_end_withdraw(request, pk: int):
    def withdraw(campaign):
        svc.tcs_operation_end_withdraw(campaign=campaign, actor=request.user)
        messages.success(request, _("Your side no longer agrees to end the operation."))

    return _manage_post(request, pk, withdraw)

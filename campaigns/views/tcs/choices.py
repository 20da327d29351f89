"""The opponent's choices [17.1.c] and the operation's rule readings."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.models.tcs import TcsDecision
from campaigns.permissions import can_act_for_side
from campaigns.selectors.tcs import is_finished
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs import readings as tf_readings
from campaigns.views.common import form_errors
from campaigns.views.tcs.common import load, posted


def tcs_decisions(request, pk: int):
    """Choices the rules give this viewer's side about the other side's losses: which of
    equally near battalions a destroyed unit counts for [17.1.c]. Only the unit and the
    battalions are shown, never their morale."""
    campaign, viewer = load(request, pk)
    choosers = [s for s in campaign.sides.all() if can_act_for_side(viewer, s)]
    if not choosers or not request.user.is_authenticated:
        raise Http404
    decisions = list(
        TcsDecision.objects.filter(
            campaign=campaign, chooser__in=choosers, status=TcsDecision.Status.OPEN
        ).select_related("unit", "side", "chooser")
    )
    bound = None
    if request.method == "POST":
        target = next((d for d in decisions if str(d.pk) == request.POST.get("decision")), None)
        if target is None:
            messages.error(request, _("This choice was already made or is no longer needed."))
            return redirect("tcs-decisions", pk=campaign.pk)
        bound = tf.DecisionForm(target.options, request.POST, prefix=f"d{target.pk}")
        if bound.is_valid():
            try:
                svc.tcs_decision_resolve(
                    decision=target, actor=request.user, choice=bound.cleaned_data["choice"]
                )
            except ValidationError as exc:
                form_errors(bound, exc)
            else:
                messages.success(request, _("Your choice is recorded [17.1.c]."))
                return redirect("tcs-decisions", pk=campaign.pk)
        bound.decision_pk = target.pk
    items = [
        {
            "decision": d,
            "form": bound
            if bound is not None and bound.decision_pk == d.pk
            else tf.DecisionForm(d.options, prefix=f"d{d.pk}"),
        }
        for d in decisions
    ]
    return render(
        request,
        "tcs/decisions.html",
        {"campaign": campaign, "items": items},
        status=400 if bound is not None and bound.errors else 200,
    )


# --- rule readings --------------------------------------------------------------------------


def tcs_readings(request, pk: int):
    """The operation's readings of unclear rules with their explanations; the organiser or
    a game master changes them (each change logged)."""
    campaign, viewer = load(request, pk)
    if not viewer.is_participant:
        raise Http404
    current = svc.options_for(campaign)
    can_change = viewer.can_manage and not is_finished(campaign)
    if request.method == "POST" and not (can_change and request.user.is_authenticated):
        raise Http404
    form = tf_readings.ReadingsForm(current, posted(request)) if can_change else None
    if form is not None and request.method == "POST" and form.is_valid():
        try:
            svc.tcs_options_update(campaign=campaign, actor=request.user, values=form.values())
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Readings saved; each change is in the log."))
            return redirect("tcs-readings", pk=campaign.pk)
    return render(
        request,
        "tcs/readings.html",
        {
            "campaign": campaign,
            "rows": tf_readings.reading_rows(current),
            "form": form,
        },
        status=400 if form is not None and form.errors else 200,
    )

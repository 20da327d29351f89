from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.cc.engines import TEMPLATES
from campaigns.forms import CampaignCreateForm, InviteForm
from campaigns.models import Campaign, LogEntry, Side
from campaigns.permissions import can_view_campaign
from campaigns.selectors.history import LOG_WINDOW, battles_window, log_window
from campaigns.services import campaign_create, side_invite, side_join
from campaigns.views.cc import dashboard_context
from campaigns.views.common import form_errors, partial_request, visible_campaign
from campaigns.views.paging import cursor, more, window


@login_required
def campaign_new(request):
    form = CampaignCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_create(creator=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Campaign created. Invite your opponents to a side."))
            return redirect(campaign)
    return render(request, "campaigns/new.html", {"form": form, "templates": TEMPLATES.values()})


def campaign_detail(request, pk: int):
    campaign, viewer = visible_campaign(request, pk)
    kind = request.GET.get("kind") or None
    if kind not in LogEntry.Kind.values:
        kind = None
    wanted = more(request)
    if wanted == "battles":
        battles = window(battles_window, campaign, cursor=cursor(request, "battles_before"))
        return render(request, "cc/_dashboard.html#battle-rows", {"battles": battles})
    log = window(log_window, campaign, viewer, kind=kind, cursor=cursor(request), size=LOG_WINDOW)
    if wanted == "log":
        return render(request, "campaigns/detail.html#log-rows", {"log": log, "campaign": campaign})
    if partial_request(request):
        return render(request, "campaigns/detail.html#log", {"log": log, "campaign": campaign})
    context = {
        "campaign": campaign,
        "viewer": viewer,
        "log": log,
        "kind": kind,
        "kinds": LogEntry.Kind,
    }
    if campaign.template in TEMPLATES:
        context.update(
            dashboard_context(campaign, viewer, battles_cursor=cursor(request, "battles_before"))
        )
    if viewer.can_manage:
        context["invite_form"] = InviteForm(campaign.sides.all())
    return render(request, "campaigns/detail.html", context)


@login_required
@require_POST
def side_take_seat(request, pk: int, side_pk: int):
    """Take the empty seat of a side in a campaign the user can see."""
    side = get_object_or_404(Side.objects.select_related("campaign"), pk=side_pk, campaign_id=pk)
    if not can_view_campaign(request.user, side.campaign):
        raise Http404
    try:
        side_join(user=request.user, side=side, require_empty=True)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("You now play %(side)s.") % {"side": side.name})
    return redirect(side.campaign)


@login_required
@require_POST
def side_invite_view(request, pk: int):
    campaign = get_object_or_404(Campaign, pk=pk)
    form = InviteForm(campaign.sides.all(), request.POST)
    if form.is_valid():
        try:
            side_invite(
                campaign=campaign,
                actor=request.user,
                username=form.cleaned_data["username"],
                side=form.sides[form.cleaned_data["side"]],
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Player seated."))
    else:
        messages.error(request, _("Give a username and a side."))
    return redirect(campaign)

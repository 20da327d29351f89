"""What every TCS page shares: loading the operation and a side with the permission checks
(404 to anyone who may not see), and putting a service's errors on a form or in a message."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404

from campaigns.models import Campaign, Side
from campaigns.models.tcs import TCS_TEMPLATE
from campaigns.permissions import (
    Viewer,
    can_act_for_side,
    can_see_tcs_secret,
    can_view_campaign,
    viewer_context,
)
from campaigns.selectors import campaign_with_sides
from campaigns.selectors.tcs import is_finished


def load(request, pk: int) -> tuple[Campaign, Viewer]:
    try:
        campaign = campaign_with_sides(pk)
    except Campaign.DoesNotExist:
        raise Http404 from None
    if campaign.system != "tcs" or campaign.template != TCS_TEMPLATE:
        raise Http404
    viewer = viewer_context(request.user, campaign)
    if not can_view_campaign(request.user, campaign, viewer):
        raise Http404
    return campaign, viewer


def side_for(campaign: Campaign, viewer: Viewer, side_pk: int, *, act: bool = False) -> Side:
    side = next((s for s in campaign.sides.all() if s.pk == side_pk), None)
    if side is None or not can_see_tcs_secret(viewer, side, finished=is_finished(campaign)):
        raise Http404
    if act and not can_act_for_side(viewer, side):
        raise Http404
    return side


def posted(request):
    return request.POST if request.method == "POST" else None


def uploaded(request):
    return request.FILES if request.method == "POST" else None


def flash(request, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)

"""What every TCS page shares: loading the operation and a side with the permission checks
(404 to anyone who may not see), putting a service's errors on a form or in a message, and
the posted-card pattern of the turn pages (one card posts; a full page redirects with the
message, htmx gets the panel back with fresh forms)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render

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
from campaigns.views.common import form_errors, partial_request


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


def card_request(request, pk: int, side_pk: int, cards) -> tuple[Campaign, Viewer, Side, bool, str]:
    """The operation, the side, whether the viewer may act for it and the card posted ("" on
    a GET); 404 for a card not on the page or posted by a viewer who may not act."""
    campaign, viewer = load(request, pk)
    side = side_for(campaign, viewer, side_pk)
    can_act = can_act_for_side(viewer, side) and request.user.is_authenticated
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action and (not can_act or action not in cards):
        raise Http404
    return campaign, viewer, side, can_act, action


def run_card(request, form, run):
    """`run()` once the card's form is valid (a card without a form runs at once): what it
    did, or None with the service's errors on the form (in a message when there is none)."""
    if form is not None and not form.is_valid():
        return None
    try:
        return run()
    except ValidationError as exc:
        if form is None:
            messages.error(request, " ".join(exc.messages))
        else:
            form_errors(form, exc)
    return None


def card_done(request, done, url_name: str, pk: int, side_pk: int):
    """After a card that did something, a full page redirects with the message; None for
    htmx (the caller renders the panel with fresh forms) or when nothing was done."""
    if done and not partial_request(request):
        messages.success(request, done)
        return redirect(url_name, pk, side_pk)
    return None


def render_card_page(request, template: str, context, action: str):
    """The page, or only its panel for an htmx post."""
    if partial_request(request) and action:
        return render(request, f"{template}#panel", context)
    return render(request, template, context)

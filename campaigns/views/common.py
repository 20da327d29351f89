"""Helpers shared by the HTML views: loading what a user may see, htmx, messages."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404

from campaigns.models import Campaign
from campaigns.permissions import Viewer, can_view_campaign, viewer_context
from campaigns.selectors import campaign_with_sides


def partial_request(request) -> bool:
    """An htmx swap of part of a page; a boosted navigation (hx-boost) wants the whole page."""
    return bool(request.htmx) and not request.htmx.boosted


def visible_campaign(request, pk: int) -> tuple[Campaign, Viewer]:
    """The campaign with its sides and the user's relation to it; 404 when not visible."""
    try:
        campaign = campaign_with_sides(pk)
    except Campaign.DoesNotExist:
        raise Http404 from None
    viewer = viewer_context(request.user, campaign)
    if not can_view_campaign(request.user, campaign, viewer):
        raise Http404
    return campaign, viewer


def flash_errors(request, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def flash_form_errors(request, form) -> None:
    """Form errors as messages, each prefixed with its field's label."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label} {error}".strip())


def form_errors(form, exc: ValidationError) -> None:
    """Put a service's errors on the form: on the field it names, or on the whole form."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)

"""'Your move': the inbox page and header badge, notice settings, live page versions and
the favicon."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from campaigns.models import Campaign, NoticeSettings, SkirmishBattle
from campaigns.permissions import can_view_campaign, can_view_skirmish, viewer_context
from campaigns.selectors.inbox import (
    campaign_version,
    inbox_count,
    inbox_items,
    skirmish_version,
)
from campaigns.services.notices import (
    SETTING_FIELDS,
    notice_inbox_read,
    notice_settings_get,
    notice_settings_update,
)

FAVICON = (settings.BASE_DIR / "static" / "favicon.ico").read_bytes()


def inbox_badge(request) -> dict:
    """Context processor: the header badge's count, computed only if a page draws it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"inbox_count": SimpleLazyObject(lambda: inbox_count(user))}


@login_required
def inbox(request):
    """Everything waiting for the signed-in user, with a link to where it is done."""
    items = inbox_items(request.user)
    notice_inbox_read(user=request.user)
    return render(request, "inbox/inbox.html", {"items": items})


class NoticeSettingsForm(forms.ModelForm):
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        required=False,
        max_length=254,
        help_text=gettext_lazy("Where the notices go; empty: none is sent."),
    )

    class Meta:
        model = NoticeSettings
        fields = ("email", *SETTING_FIELDS)


@login_required
def notice_settings(request):
    """Which e-mail notices the user receives (all off until chosen)."""
    current = notice_settings_get(user=request.user)
    form = NoticeSettingsForm(
        request.POST or None, instance=current, initial={"email": request.user.email}
    )
    if request.method == "POST" and form.is_valid():
        notice_settings_update(
            user=request.user, language=translation.get_language(), **form.cleaned_data
        )
        messages.success(request, _("Your notice settings are saved."))
        return redirect("notice-settings")
    return render(
        request,
        "inbox/settings.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


def _live_answer(request, version: str, url: str) -> HttpResponse:
    """204 while the page is current; else the poller with the new version, and the
    ``ledger-changed`` event that makes the page reload its live regions."""
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    response = render(
        request,
        "inbox/_live.html",
        {"live_url": url, "version": version, "regions": request.GET.get("regions", "")},
    )
    response["HX-Trigger"] = "ledger-changed"
    return response


STOP_POLLING = 286  # htmx stops polling an element answered with this status


@require_GET
def live_campaign(request, pk: int):
    """A campaign's live version as this viewer sees it (campaign, CC battle and TCS
    operation pages poll it). Signed out meanwhile: the page stops asking (a redirect to
    the login page would be swapped into it)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=STOP_POLLING)
    campaign = get_object_or_404(Campaign.objects.only("pk", "visibility", "created_by"), pk=pk)
    viewer = viewer_context(request.user, campaign)
    if not can_view_campaign(request.user, campaign, viewer):
        raise Http404
    return _live_answer(request, campaign_version(campaign, viewer), request.path)


@require_GET
def live_skirmish(request, pk: int):
    """A skirmish battle's live version as this user sees it."""
    if not request.user.is_authenticated:
        return HttpResponse(status=STOP_POLLING)
    battle = get_object_or_404(SkirmishBattle, pk=pk)
    if not can_view_skirmish(request.user, battle):
        raise Http404
    return _live_answer(request, skirmish_version(request.user, battle), request.path)


@require_GET
@cache_control(public=True, max_age=86400)
def favicon(request):
    return HttpResponse(FAVICON, content_type="image/x-icon")

"""``{% live_poller kind obj "#region #other" %}``: a hidden element that asks every ten
seconds whether the page changed for this reader, and makes ledger.js reload the named
regions when it did (no inline script: the CSP forbids it)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from campaigns.permissions import viewer_context
from campaigns.selectors.inbox import campaign_version, skirmish_version

register = template.Library()


@register.inclusion_tag("inbox/_live.html", takes_context=True)
def live_poller(context, kind: str, obj, regions: str) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    if kind == "skirmish":
        version = skirmish_version(user, obj)
    else:
        viewer = context.get("viewer") or viewer_context(user, obj)
        version = campaign_version(obj, viewer)
    return {
        "live_url": reverse(f"live-{kind}", args=[obj.pk]),
        "version": version,
        "regions": regions,
    }

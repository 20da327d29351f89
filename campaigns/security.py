"""Security plumbing shared by the pages and the API: the Permissions-Policy header and the
answer to a locked-out sign-in (django-axes, settings AXES_*)."""

import math
from datetime import UTC

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _


class PermissionsPolicyMiddleware:
    """Adds `Permissions-Policy` (settings.PERMISSIONS_POLICY) to every response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = getattr(settings, "PERMISSIONS_POLICY", "")
        if policy and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = policy
        return response


def client_ip(request):
    """AXES_CLIENT_IP_CALLABLE: the client's address. Behind settings.PROXY_COUNT trusted
    proxies it is the X-Forwarded-For entry the outermost of them appended (entries further
    left are whatever the client sent)."""
    count = getattr(settings, "PROXY_COUNT", 0)
    if count:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= count:
            return forwarded[-count]
    return request.META.get("REMOTE_ADDR")


def _locked_until(request, credentials):
    """When the lockout of this username and address ends: the cool-off after the last
    recorded failure (failures during a lockout are not recorded, so it does not move)."""
    cool_off = get_cool_off(request)
    username = get_client_username(request, credentials)
    last = AccessAttempt.objects.filter(
        username=username, ip_address=getattr(request, "axes_ip_address", None)
    ).aggregate(last=Max("attempt_time"))["last"]
    return (last or timezone.now()) + cool_off


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: 429 with when to try again, JSON on the API, a page elsewhere."""
    until = _locked_until(request, credentials)
    seconds = max(0, math.ceil((until - timezone.now()).total_seconds()))
    minutes = max(1, math.ceil(seconds / 60))
    status = settings.AXES_HTTP_RESPONSE_CODE
    if request.path.startswith("/api/"):
        detail = _(
            "Too many failed sign-in attempts. Try again in %(minutes)d minutes (after %(time)s UTC)."
        ) % {"minutes": minutes, "time": until.astimezone(UTC).strftime("%H:%M")}
        response = JsonResponse(
            {"detail": detail, "retry_after": seconds, "locked_until": until.isoformat()},
            status=status,
        )
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"until": until, "minutes": minutes},
            status=status,
        )
    response["Retry-After"] = str(seconds)
    return response

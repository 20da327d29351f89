"""Shared helper of the league API views."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from rest_framework.exceptions import PermissionDenied


def run(service, **kwargs):
    """Call a service; its "forbidden" refusal becomes a 403 (other errors a 400)."""
    try:
        return service(**kwargs)
    except ValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise PermissionDenied(exc.messages[0]) from None
        raise

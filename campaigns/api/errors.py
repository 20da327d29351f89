"""API errors: a domain ValidationError from a service becomes a 400 naming the field."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.exceptions import PermissionDenied
from rest_framework.views import exception_handler as drf_exception_handler

from rules.errors import RuleError


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, RuleError):
        exc = exceptions.ValidationError({"detail": [str(exc)], "rule": exc.rule})
    return drf_exception_handler(exc, context)


def run(service, **kwargs):
    """Call a service; its "forbidden" refusal becomes a 403 (other refusals a 400)."""
    try:
        return service(**kwargs)
    except DjangoValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise PermissionDenied(exc.messages[0]) from None
        raise

"""API errors: a domain ValidationError from a service becomes a 400 naming the field.

A refusal coded as a whole answers by its code: "forbidden" 403, "not_found" 404, "conflict"
409 (the object's state forbids it now: an archived roster). A body that only names objects
that do not exist (or that the caller may not see) answers 404, as a path naming one does; a
name already taken 409. The fields keep their messages, the first one is the `detail`.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.exceptions import APIException, NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules.errors import RuleError


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError) and len(found := codes(exc)) == 1:
        # A service refusal coded as a whole: forbidden 403, not found 404, conflict 409.
        kind = {"forbidden": PermissionDenied, "not_found": NotFound, "conflict": Conflict}.get(
            next(iter(found))
        )
        if kind is not None:
            exc = kind(exc.messages[0])
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, RuleError):
        exc = exceptions.ValidationError({"detail": [str(exc)], "rule": exc.rule})
    response = drf_exception_handler(exc, context)
    if isinstance(exc, exceptions.ValidationError):
        leaf_codes = set(_leaves(exc.get_codes()))
        if leaf_codes == {"does_not_exist"}:  # the body names objects that do not exist
            response = Response({"detail": _messages(exc.detail)[0], **exc.detail}, status=404)
        elif leaf_codes == {"unique"}:  # a name already taken
            response = Response({"detail": _messages(exc.detail)[0], **exc.detail}, status=409)
    return response


class Conflict(APIException):
    status_code = 409
    default_detail = _("The request conflicts with the current state.")
    default_code = "conflict"


def _leaves(codes):
    if isinstance(codes, dict):
        for value in codes.values():
            yield from _leaves(value)
    elif isinstance(codes, list):
        for value in codes:
            yield from _leaves(value)
    else:
        yield codes


def _messages(detail) -> list[str]:
    return [str(message) for message in _leaves(detail)]


def codes(exc: DjangoValidationError) -> set[str | None]:
    """The codes of a service's refusal, whatever its shape."""
    groups = exc.error_dict.values() if hasattr(exc, "error_dict") else [exc.error_list]
    return {error.code for group in groups for error in group}


def run(service, **kwargs):
    """Call a service; its refusals coded "forbidden" become a 403, "not_found" a 404 and
    "conflict" (the object's state forbids it now, e.g. an archived roster) a 409; others a
    400."""
    try:
        return service(**kwargs)
    except DjangoValidationError as exc:
        found = codes(exc)
        if getattr(exc, "code", None) == "forbidden" or found == {"forbidden"}:
            raise PermissionDenied(exc.messages[0]) from None
        if found == {"not_found"}:
            raise NotFound(exc.messages[0]) from None
        if found == {"conflict"}:
            raise Conflict(exc.messages[0]) from None
        raise

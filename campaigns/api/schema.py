"""The OpenAPI schema documents how every operation refuses, in one place.

Every operation may answer 400 with the problems (by field, or under `detail`): the input
layer refuses control characters in a path or query before any view runs. Every write, and
every read whose permissions refuse a signed-out caller or check each object, answers 403 when
the caller may not do it; every write, every operation with a path parameter and every
paginated list answers 404 when the object named does not exist or is not visible to the
caller, or the page is past the end (campaigns/api/errors.py shapes those bodies). An
operation that documents a status itself keeps its own description. Strings and numbers carry
the limits of the input layer (no control characters, numbers within MAX_JSON_NUMBER).
"""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_array_type, build_basic_type, build_object_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


class ProblemSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("What is wrong, in words."))


# A refused request: each refused field of the body maps to its messages (a list field or a
# nested object maps to the messages of its items, by position or name); problems not tied to
# one field are under `detail`: a list of messages from the services and the serializers, one
# message when the request itself is refused (a NUL in the path, a body that is not JSON), and
# a rule reference under `rule` when the rules refused it.
FIELD_PROBLEMS = {
    "anyOf": [
        build_array_type({"anyOf": [build_basic_type(OpenApiTypes.STR), build_object_type()]}),
        build_object_type(),
    ]
}
VALIDATION_PROBLEM = build_object_type(
    properties={
        "detail": {
            "anyOf": [
                build_basic_type(OpenApiTypes.STR),
                build_array_type(build_basic_type(OpenApiTypes.STR)),
            ]
        },
        "rule": build_basic_type(OpenApiTypes.STR),
    },
    additionalProperties=FIELD_PROBLEMS,
    description=_("Each refused field maps to its messages; other problems are under detail."),
)


REFUSALS = {
    "400": OpenApiResponse(
        VALIDATION_PROBLEM,
        description=_("Refused: the messages say what to change. Nothing was changed."),
    ),
    "403": OpenApiResponse(
        ProblemSerializer, description=_("You may not do this (or you are not signed in).")
    ),
    "404": OpenApiResponse(ProblemSerializer, description=_("Not found, or not visible to you.")),
}


def _anonymous_read_refused(view) -> bool:
    """Whether a permission of ``view`` may refuse a read (signed out, or per object)."""
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.permissions import BasePermission
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    request = Request(APIRequestFactory().get("/"))
    request.user = AnonymousUser()
    for permission in view.get_permissions():
        if type(permission).has_object_permission is not BasePermission.has_object_permission:
            return True
        try:
            if not permission.has_permission(request, view):
                return True
        except Exception:
            return True
    return False


# What the input layer refuses, said in the schema so that clients (and schemathesis) know:
# campaigns/middleware.py refuses NUL and other C0 control characters in paths, query
# parameters and field names, and in values except tab, newline and carriage return;
# campaigns/jsontext.py refuses numbers beyond MAX_JSON_NUMBER anywhere in a JSON body.
TEXT_PATTERN = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$"
STRICT_PATTERN = r"^[^\u0000-\u001f\u007f]*$"


def constrain(schema: dict, pattern: str, numbers: bool = True) -> dict:
    """Add the input layer's limits to a string or number schema that states none tighter."""
    from campaigns.jsontext import MAX_JSON_NUMBER

    kind = schema.get("type")
    if kind == "string" and not ({"pattern", "enum", "format"} & schema.keys()):
        schema["pattern"] = pattern
    elif kind in ("integer", "number") and numbers:
        schema["maximum"] = min(schema.get("maximum", MAX_JSON_NUMBER), MAX_JSON_NUMBER)
        schema["minimum"] = max(schema.get("minimum", -MAX_JSON_NUMBER), -MAX_JSON_NUMBER)
    return schema


class LedgerAutoSchema(AutoSchema):
    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        return constrain(schema, TEXT_PATTERN)

    def _insert_field_validators(self, field, schema):
        super()._insert_field_validators(field, schema)
        # drf-spectacular offers a blank string of a field that may be blank as a second
        # `oneOf` branch; when the first one also takes "" (our pattern does), "" matched both
        # and was invalid. Either branch will do: `anyOf`.
        if schema.get("oneOf", [None])[-1] == {"type": "string", "maxLength": 0}:
            schema["anyOf"] = schema.pop("oneOf")

    def _get_parameters(self):
        from campaigns.idempotency import HEADER, KEY_PATTERN

        parameters = super()._get_parameters()
        for parameter in parameters:
            schema = parameter.get("schema", {})
            if parameter["in"] == "header" and parameter["name"] == HEADER:
                schema.setdefault("pattern", KEY_PATTERN.pattern)
            constrain(schema, STRICT_PATTERN, numbers=False)  # the number limit is JSON's
        return parameters

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        # Any request may be refused 400 before it reaches a view: a NUL or other control
        # character in its path or query (campaigns/middleware.py), a query filter that does
        # not validate, a body that is not a JSON object.
        wanted = ["400"]
        if self.method in WRITES or _anonymous_read_refused(self.view):
            wanted.append("403")
        if (
            self.method in WRITES
            or "{" in self.path
            or (self._is_list_view() and self._get_paginator() is not None)
        ):
            # The object named in the path (or, for a write, in the body) may be missing or
            # hidden from the caller; a list answers 404 for a page past its end.
            wanted.append("404")
        for code in wanted:
            if code not in responses:
                responses[code] = self._get_response_for_code(REFUSALS[code], code)
        return responses

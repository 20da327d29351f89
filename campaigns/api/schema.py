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

from django.contrib.auth.models import AnonymousUser
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_array_type, build_basic_type, build_object_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from campaigns.api.fields import DistinctListField
from campaigns.idempotency import HEADER, KEY_PATTERN
from campaigns.jsontext import MAX_JSON_NUMBER

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
    "409": OpenApiResponse(
        ProblemSerializer,
        description=_(
            "Refused by the object's current state (an archived roster, a name already taken)."
        ),
    ),
}


def _anonymous_read_refused(view) -> bool:
    """Whether a permission of ``view`` may refuse a read (signed out, or per object)."""
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
# A text field that may not be blank refuses one of only spaces too (DRF strips it first).
FILLED_PATTERN = (
    r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*"
    r"[^\s\u0000-\u001f\u007f]"
    r"[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$"
)


def _kinds(schema: dict) -> set[str]:
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind}


def constrain(schema: dict, pattern: str, numbers: bool = True) -> dict:
    """Add the input layer's limits to a string or number schema that states none tighter."""
    kinds = _kinds(schema)
    if "string" in kinds and not ({"pattern", "enum", "format"} & schema.keys()):
        schema["pattern"] = pattern
    elif kinds & {"integer", "number"} and numbers:
        schema["maximum"] = min(schema.get("maximum", MAX_JSON_NUMBER), MAX_JSON_NUMBER)
        schema["minimum"] = max(schema.get("minimum", -MAX_JSON_NUMBER), -MAX_JSON_NUMBER)
    return schema


# A value of a free-form JSON field in a request (campaign tables, result details, house
# rules …): any JSON within the input layer's limits. The services check the real shape.
JSON_VALUE = {
    "description": "Any JSON value: strings without control characters, numbers within "
    f"±{MAX_JSON_NUMBER:.0e}, object keys without control characters.",
    "anyOf": [
        {"type": "string", "pattern": TEXT_PATTERN},
        {"type": "number", "minimum": -MAX_JSON_NUMBER, "maximum": MAX_JSON_NUMBER},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "array", "items": {"$ref": "#/components/schemas/JsonValue"}},
        {
            "type": "object",
            "propertyNames": {"type": "string", "pattern": STRICT_PATTERN},
            "additionalProperties": {"$ref": "#/components/schemas/JsonValue"},
        },
    ],
}
JSON_VALUE_REF = {"$ref": "#/components/schemas/JsonValue"}


ANNOTATIONS = {"description", "title", "default", "example", "examples", "readOnly", "writeOnly"}


def _is_free(schema) -> bool:
    """A schema that takes any value (only annotations, no type or other constraint)."""
    return isinstance(schema, dict) and not (schema.keys() - ANNOTATIONS)


def _free_value(schema: dict) -> dict:
    return {**schema, **JSON_VALUE_REF}


def _keys_and_free_values(node, free: bool, seen: set, schemas: dict) -> None:
    """Every object takes keys without control characters; in a request, a free-form value
    (``{}``) is a ``JsonValue``. Follows references into request components once."""
    if isinstance(node, list):
        for item in node:
            _keys_and_free_values(item, free, seen, schemas)
        return
    if not isinstance(node, dict):
        return
    if free and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            _keys_and_free_values(schemas[name], free, seen, schemas)
        return
    if "object" in _kinds(node) or "properties" in node:
        node.setdefault("propertyNames", {"type": "string", "pattern": STRICT_PATTERN})
        if free and "properties" in node:
            # Fields a body does not declare are ignored, within the input layer's limits.
            node.setdefault("additionalProperties", dict(JSON_VALUE_REF))
    for key, value in list(node.items()):
        if free and key in ("additionalProperties", "items") and _is_free(value):
            node[key] = _free_value(value)
        elif free and key in ("oneOf", "anyOf") and any(_is_free(v) for v in value):
            # Any JSON value or null: `anyOf`, since null is a JSON value too.
            node.pop(key)
            node["anyOf"] = [_free_value(v) if _is_free(v) else v for v in value]
            _keys_and_free_values(node["anyOf"], free, seen, schemas)
        elif key == "properties" and isinstance(value, dict):
            for name, prop in value.items():
                if free and _is_free(prop):
                    value[name] = _free_value(prop)
                else:
                    _keys_and_free_values(prop, free, seen, schemas)
        else:
            _keys_and_free_values(value, free, seen, schemas)


def input_limits_hook(result, generator, request, public):
    """drf-spectacular postprocessing hook: the input layer's limits on keys and free-form
    request values (with COMPONENT_SPLIT_REQUEST, request components are their own)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["JsonValue"] = JSON_VALUE
    seen = {"JsonValue"}
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                _keys_and_free_values(operation["requestBody"], True, seen, schemas)
    for name, schema in schemas.items():
        if name not in seen:
            _keys_and_free_values(schema, False, seen, schemas)
    return result


class LedgerAutoSchema(AutoSchema):
    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, DistinctListField):
            schema["uniqueItems"] = True
        if any(isinstance(v, RegexValidator) for v in field.validators):
            return schema  # its own pattern (added by drf-spectacular after this)
        filled = (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and not field.allow_blank
            and field.trim_whitespace
        )
        return constrain(schema, FILLED_PATTERN if filled else TEXT_PATTERN)

    def _insert_field_validators(self, field, schema):
        super()._insert_field_validators(field, schema)
        # drf-spectacular offers a blank string of a field that may be blank as a second
        # `oneOf` branch; when the first one also takes "" (our pattern does), "" matched both
        # and was invalid. Either branch will do: `anyOf`.
        if schema.get("oneOf", [None])[-1] == {"type": "string", "maxLength": 0}:
            schema["anyOf"] = schema.pop("oneOf")

    def _get_parameters(self):
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
        if self.method in WRITES:
            wanted.append("409")
        for code in wanted:
            if code not in responses:
                responses[code] = self._get_response_for_code(REFUSALS[code], code)
        return responses

"""The OpenAPI schema documents how every write refuses, in one place.

Every write answers 400 with the problems (by field, or under `detail`), 403 when the caller
may not do it, and 404 when the object named in the path does not exist or is not visible to
the caller (campaigns/api/errors.py shapes those bodies). An operation that documents a
status itself keeps its own description.
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


# A refused request: each refused field of the body maps to its messages; problems not tied
# to one field are under `detail` (a rule reference under `rule` when the rules refused it).
VALIDATION_PROBLEM = build_object_type(
    properties={"detail": build_array_type(build_basic_type(OpenApiTypes.STR))},
    additionalProperties=build_array_type(build_basic_type(OpenApiTypes.STR)),
    description=_("Each refused field maps to its messages; other problems are under detail."),
)


REFUSALS = {
    "400": OpenApiResponse(
        VALIDATION_PROBLEM,
        description=_("Refused: the messages say what to change. Nothing was changed."),
    ),
    "403": OpenApiResponse(ProblemSerializer, description=_("You may not do this.")),
    "404": OpenApiResponse(ProblemSerializer, description=_("Not found, or not visible to you.")),
}


class LedgerAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response" or self.method not in WRITES:
            return responses
        wanted = ["403"]
        if self.method != "DELETE":
            wanted.append("400")
        if "{" in self.path:
            wanted.append("404")
        for code in wanted:
            if code not in responses:
                responses[code] = self._get_response_for_code(REFUSALS[code], code)
        return responses

"""TCS operations in the API: op sheets, formations with morale, Command Phases.

Read-only lists filtered by the same rule as the pages: a side's op sheets, order of battle
and morale are visible to that side and a neutral game master, to everyone once revealed or
once the operation is over. Revealing a sheet is the one write (POST …/reveal/).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from campaigns.models.tcs import (
    SHEET_TEXT_FIELDS,
    CommandPhase,
    OpSheetRecord,
    TcsFormation,
    TcsUnit,
)
from campaigns.permissions import can_act_for_side, viewer_context, visible_campaigns
from campaigns.selectors.tcs import api_formations, api_sheets
from campaigns.services.tcs import tcs_sheet_reveal

CAMPAIGN_PARAM = OpenApiParameter(
    "campaign", int, description="Only this operation (a campaign id).", required=False
)


def _campaign_filter(request, qs):
    raw = request.query_params.get("campaign")
    if raw in (None, ""):
        return qs
    if not raw.isdigit():
        raise ValidationError({"campaign": ["A campaign id is a whole number."]})
    return qs.filter(campaign_id=int(raw))


class OpSheetSerializer(serializers.ModelSerializer):
    side = serializers.CharField(source="side.name")
    has_graphic = serializers.SerializerMethodField()
    revealed = serializers.SerializerMethodField()

    class Meta:
        model = OpSheetRecord
        fields = [
            "id",
            "campaign",
            "side",
            "code",
            "state",
            "history",
            *SHEET_TEXT_FIELDS,
            "prepared_defense",
            "has_graphic",
            "revealed",
            "created_at",
        ]

    def get_has_graphic(self, obj) -> bool:
        return bool(obj.graphic)

    def get_revealed(self, obj) -> bool:
        return obj.revealed_at is not None


class UnitSerializer(serializers.ModelSerializer):
    class Meta:
        model = TcsUnit
        fields = ["code", "category", "steps", "steps_lost", "eliminated_turn"]


class FormationSerializer(serializers.ModelSerializer):
    side = serializers.CharField(source="side.name")
    units = UnitSerializer(many=True, read_only=True)

    class Meta:
        model = TcsFormation
        fields = [
            "id",
            "campaign",
            "side",
            "code",
            "name",
            "morale",
            "is_battalion",
            "state",
            "history",
            "units",
        ]


class CommandPhaseSerializer(serializers.ModelSerializer):
    side = serializers.CharField(source="side.name")

    class Meta:
        model = CommandPhase
        fields = ["id", "campaign", "side", "turn", "clock", "light", "status", "completed_at"]


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class OpSheetViewSet(viewsets.ReadOnlyModelViewSet):
    """Op sheets the caller may read: their own side's, revealed ones, all once over."""

    serializer_class = OpSheetSerializer

    def get_queryset(self):
        qs = api_sheets(self.request.user).order_by("campaign_id", "side__order", "id")
        return _campaign_filter(self.request, qs)

    @extend_schema(request=None, responses=OpSheetSerializer)
    @action(detail=True, methods=["post"])
    def reveal(self, request, pk=None):
        """The owner (or the neutral game master) shows the sheet to everyone."""
        sheet = self.get_object()
        viewer = viewer_context(request.user, sheet.campaign)
        if not can_act_for_side(viewer, sheet.side_id):
            raise NotFound
        sheet = tcs_sheet_reveal(sheet=sheet, actor=request.user)
        return Response(OpSheetSerializer(sheet).data)


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class FormationViewSet(viewsets.ReadOnlyModelViewSet):
    """Formations with their morale state and units, for the sides the caller may see."""

    serializer_class = FormationSerializer

    def get_queryset(self):
        return _campaign_filter(self.request, api_formations(self.request.user).order_by("id"))


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class CommandPhaseViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Which Command Phases were played (when, by which side); what was done in them is in
    the log, private to the side until revealed."""

    serializer_class = CommandPhaseSerializer

    def get_queryset(self):
        campaigns = visible_campaigns(self.request.user).filter(system="tcs")
        qs = CommandPhase.objects.filter(campaign__in=campaigns).select_related("side")
        return _campaign_filter(self.request, qs.order_by("turn", "id"))


def register(router) -> None:
    """Add this module's viewsets to the API router."""
    router.register("tcs/op-sheets", OpSheetViewSet, basename="api-tcs-sheet")
    router.register("tcs/formations", FormationViewSet, basename="api-tcs-formation")
    router.register("tcs/command-phases", CommandPhaseViewSet, basename="api-tcs-phase")

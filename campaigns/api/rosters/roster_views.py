"""Rosters: create, builder edits, settings, house rules, history, undo, archive."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.api.rosters.serializers import (
    RosterArchiveSerializer,
    RosterChangeSerializer,
    RosterCreateSerializer,
    RosterEditSerializer,
    RosterHouseRulesSerializer,
    RosterSerializer,
    RosterSettingsSerializer,
)
from campaigns.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent_api
from campaigns.models import Roster
from campaigns.permissions import (
    can_edit_roster,
    can_view_roster,
)
from campaigns.selectors.rosters import (
    roster_history,
    visible_rosters,
)
from campaigns.services import rosters as svc


class RosterViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Your rosters and those in campaigns you may see. Writes go through the services."""

    serializer_class = RosterSerializer
    filterset_fields = ["system", "campaign"]

    def get_queryset(self):
        return visible_rosters(self.request.user).order_by("-updated_at", "-id")

    def _mine(self) -> Roster:
        roster = self.get_object()
        if not can_edit_roster(self.request.user, roster):
            raise Http404
        return roster

    @extend_schema(request=RosterCreateSerializer, responses={201: RosterSerializer})
    def create(self, request, *args, **kwargs):
        data = RosterCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        roster = svc.roster_create(owner=request.user, **data.validated_data)
        return Response(RosterSerializer(roster).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=RosterEditSerializer,
        responses={200: RosterSerializer, **IDEMPOTENCY_RESPONSES},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @action(detail=True, methods=["post"])
    @idempotent_api
    def edit(self, request, pk=None):
        """One builder edit; the answer carries the validation (violations, points left)."""
        roster = self._mine()
        data = RosterEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        roster = svc.roster_edit(roster=roster, actor=request.user, edit=data.validated_data)
        return Response(RosterSerializer(roster).data)

    @extend_schema(request=RosterHouseRulesSerializer, responses=RosterSerializer)
    @action(detail=True, methods=["post"], url_path="house-rules")
    def house_rules(self, request, pk=None):
        """Set the house rules (and, for 1936, the army-list readings under `army`); the
        service checks the values, so the body is passed on as sent."""
        roster = self._mine()
        if not isinstance(request.data, dict):
            raise ValidationError({"detail": [_("A JSON object of the house rules' fields.")]})
        roster = svc.roster_house_rules_set(roster=roster, actor=request.user, options=request.data)
        return Response(RosterSerializer(roster).data)

    @extend_schema(request=RosterSettingsSerializer, responses=RosterSerializer)
    @action(detail=True, methods=["post"], url_path="settings")
    def roster_settings(self, request, pk=None):
        """The settings page: rename the roster, attach it to one of your campaigns of the
        same system or detach it (`campaign`: null)."""
        roster = self._mine()
        data = RosterSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        roster = svc.roster_update(roster=roster, actor=request.user, **data.validated_data)
        return Response(RosterSerializer(roster).data)

    @extend_schema(request=RosterArchiveSerializer, responses=RosterSerializer)
    @action(detail=True, methods=["post"])
    def archive(self, request, pk=None):
        """Archive the roster (`archived`: true, the default) or restore it (false); nothing
        is deleted and the history keeps the change."""
        roster = self._mine()
        data = RosterArchiveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        roster = svc.roster_archive(
            roster=roster, actor=request.user, archived=data.validated_data["archived"]
        )
        return Response(RosterSerializer(roster).data)

    @extend_schema(responses=RosterChangeSerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request, pk=None):
        page = self.paginate_queryset(roster_history(self.get_object()))
        return self.get_paginated_response(RosterChangeSerializer(page, many=True).data)

    @extend_schema(request=None, responses=RosterSerializer)
    @action(detail=True, methods=["post"], url_path=r"history/(?P<seq>\d+)/undo")
    def undo(self, request, pk=None, seq=None):
        roster = self._mine()
        change = roster.changes.filter(seq=int(seq)).first()
        if change is None:
            raise Http404
        roster = svc.roster_revert(change=change, actor=request.user)
        return Response(RosterSerializer(roster).data)

    def get_object(self):
        obj = super().get_object()
        if not can_view_roster(self.request.user, obj):
            raise Http404
        return obj

"""Player profiles and rating histories."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.api.leagues.serializers import ResultSerializer
from campaigns.api.pagination import RatingHistoryPagination, ResultPagination
from campaigns.models import (
    GameSystem,
    Result,
)
from campaigns.selectors.leagues import (
    player_profile,
)


class RatingSnapshotSerializer(serializers.Serializer):
    system = serializers.CharField()
    method = serializers.CharField()
    league = serializers.IntegerField(source="league_id")
    seq = serializers.IntegerField()
    result = serializers.IntegerField(source="result_id", allow_null=True)
    played_on = serializers.DateField(allow_null=True)
    value = serializers.FloatField()
    delta = serializers.FloatField()
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)


class PlayerViewSet(viewsets.GenericViewSet):
    """A player's profile: record by system, scenario and opponent (the most played, at most
    30 of each); ratings; the latest results (all of them page at results/)."""

    lookup_field = "username"
    lookup_value_regex = r"[\w.@+-]+"  # the characters of a username
    queryset = get_user_model().objects.all()

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def retrieve(self, request, username=None):
        player = get_object_or_404(get_user_model(), username=username)
        p = player_profile(player)

        def tallies(items):
            return [
                {
                    "label": t.label,
                    "played": t.played,
                    "wins": t.wins,
                    "draws": t.draws,
                    "losses": t.losses,
                }
                for t in items
            ]

        return Response(
            {
                "username": player.username,
                "by_system": tallies(p["by_system"]),
                "by_scenario": tallies(p["by_scenario"]),
                "by_opponent": tallies(p["by_opponent"]),
                "ratings": [
                    {
                        "league": r.league_id,
                        "system": r.system,
                        "method": r.method,
                        "value": r.value,
                        "games": r.games,
                    }
                    for r in p["ratings"]
                ],
                "results": [
                    {
                        "id": r["id"],
                        "league": r["league_id"],
                        "played_on": r["played_on"],
                        "scenario": r["scenario"],
                        "side": r["side"],
                        "score": r["score"],
                        "opponents": r["opponents"],
                        "partners": r["partners"],
                    }
                    for r in p["results"]
                ],
            }
        )

    @extend_schema(responses=ResultSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=ResultPagination, filter_backends=[])
    def results(self, request, username=None):
        """The player's counting results, latest played first, a page at a time (follow
        `next`)."""
        player = get_object_or_404(get_user_model(), username=username)
        qs = (
            Result.objects.filter(players__user=player, status=Result.Status.ACTIVE)
            .select_related("battle")
            .prefetch_related("players__user")
        )
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(ResultSerializer(page, many=True).data)

    @extend_schema(
        responses=RatingSnapshotSerializer(many=True),
        parameters=[OpenApiParameter("system", str, enum=list(GameSystem.values))],
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="rating-history",
        pagination_class=RatingHistoryPagination,
        filter_backends=[],
    )
    def rating_history(self, request, username=None):
        """The player's rating after each rating period, by system, method and league, a
        page at a time (follow `next`)."""
        player = get_object_or_404(get_user_model(), username=username)
        system = request.query_params.get("system")
        if system and system not in GameSystem.values:
            raise serializers.ValidationError({"system": [_("Choose one of the game systems.")]})
        qs = player.rating_history.all()
        if system:
            qs = qs.filter(system=system)
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(RatingSnapshotSerializer(page, many=True).data)

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

from campaigns.models import (
    GameSystem,
)
from campaigns.selectors.leagues import (
    player_profile,
)


class PlayerViewSet(viewsets.GenericViewSet):
    """A player's profile: record by system, scenario and opponent; ratings; results."""

    lookup_field = "username"
    lookup_value_regex = "[^/]+"
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

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        parameters=[OpenApiParameter("system", str, enum=list(GameSystem.values))],
    )
    @action(detail=True, methods=["get"], url_path="rating-history")
    def rating_history(self, request, username=None):
        player = get_object_or_404(get_user_model(), username=username)
        system = request.query_params.get("system")
        if system and system not in GameSystem.values:
            raise serializers.ValidationError({"system": [_("Choose one of the game systems.")]})
        qs = player.rating_history.select_related("league").order_by(
            "system", "method", "league", "seq"
        )
        if system:
            qs = qs.filter(system=system)
        return Response(
            [
                {
                    "system": s.system,
                    "method": s.method,
                    "league": s.league_id,
                    "seq": s.seq,
                    "result": s.result_id,
                    "played_on": s.played_on,
                    "value": s.value,
                    "delta": s.delta,
                    "mu": s.mu,
                    "sigma": s.sigma,
                }
                for s in qs
            ]
        )

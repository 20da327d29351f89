"""Leagues: create, settings, participants, standings, ratings, balance, CSV exports."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.api.leagues.common import run
from campaigns.api.leagues.serializers import (
    BalanceRowSerializer,
    EnrolSerializer,
    LeagueSerializer,
    ParticipantsSerializer,
    RatingsSerializer,
    StandingsSerializer,
)
from campaigns.exports import results_csv, standings_csv
from campaigns.models import (
    League,
    LeagueParticipant,
    Rating,
)
from campaigns.selectors.leagues import (
    league_balance,
    league_ratings,
    league_standings,
)
from campaigns.services.leagues import (
    league_create,
    league_participant_add,
    league_update,
)
from rules.ratings.standings import METRICS


class LeagueViewSet(
    mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet
):
    serializer_class = LeagueSerializer
    filterset_fields = ["system", "status", "season"]
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        qs = League.objects.select_related("club").order_by("-created_at", "-id")
        club = self.request.query_params.get("club")
        return qs.filter(club__slug=club) if club else qs

    def create(self, request, *args, **kwargs):
        data = LeagueSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        league = run(league_create, actor=request.user, **v)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        league = self.get_object()
        data = LeagueSerializer(league, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        if (
            v.pop("club", league.club) != league.club
            or v.pop("system", league.system) != league.system
        ):
            raise serializers.ValidationError(
                {"system": [_("A league's club and system are fixed.")]}
            )
        league = run(league_update, league=league, actor=request.user, **v)
        return Response(LeagueSerializer(league).data)

    def _criteria(self, request, league):
        raw = request.query_params.get("tb")
        if not raw:
            return None
        keys = [k for k in raw.split(",") if k]
        if not keys or any(k not in METRICS for k in keys) or len(set(keys)) != len(keys):
            raise serializers.ValidationError(
                {"tb": [_("Choose from %(m)s, once each.") % {"m": ", ".join(METRICS)}]}
            )
        return keys

    @extend_schema(
        parameters=[OpenApiParameter("tb", str, description="tie-break order preview")],
        responses=StandingsSerializer,
    )
    @action(detail=True, methods=["get"])
    def standings(self, request, pk=None):
        league = self.get_object()
        view = league_standings(league, self._criteria(request, league))
        rows = [
            {
                "rank": item["row"].rank,
                "tied": item["row"].tied,
                "player": item["user"].username if item["user"] else None,
                "played": item["row"].played,
                "wins": item["row"].wins,
                "draws": item["row"].draws,
                "losses": item["row"].losses,
                "points": item["row"].points,
                "values": dict(item["row"].values),
                "elo": item["elo"],
                "handicapped": item["handicapped"],
            }
            for item in view.rows
        ]
        return Response(
            {
                "criteria": [k for k, _label in view.criteria],
                "rows": rows,
                "warnings": list(view.standings.warnings),
            }
        )

    @extend_schema(
        parameters=[OpenApiParameter("method", str, enum=["elo", "openskill"])],
        responses=RatingsSerializer,
    )
    @action(detail=True, methods=["get"])
    def ratings(self, request, pk=None):
        league = self.get_object()
        method = request.query_params.get("method", Rating.Method.ELO)
        if method not in Rating.Method.values:
            raise serializers.ValidationError({"method": [_("Choose elo or openskill.")]})
        return Response(
            {
                "method": method,
                "up_to_date": league.ratings_computed_version == league.ratings_version,
                "ratings": [
                    {
                        "player": r.user.username,
                        "value": r.value,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                    }
                    for r in league_ratings(league, method)
                ],
            }
        )

    @extend_schema(responses=BalanceRowSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def balance(self, request, pk=None):
        league = self.get_object()
        return Response(
            [
                {
                    "scenario": r.scenario,
                    "side": r.side,
                    "plays": r.plays,
                    "wins": r.wins,
                    "losses": r.losses,
                    "draws": r.draws,
                    "win_pct": r.win_pct,
                    "wilson_low": r.low,
                    "wilson_high": r.high,
                    "few_plays": r.few_plays,
                }
                for r in league_balance(league)
            ]
        )

    @extend_schema(responses={(200, "text/csv"): str})
    @action(detail=True, methods=["get"], url_path="results-csv")
    def results_csv(self, request, pk=None):
        league = self.get_object()
        return HttpResponse(results_csv(league), content_type="text/csv; charset=utf-8")

    @extend_schema(responses={(200, "text/csv"): str})
    @action(detail=True, methods=["get"], url_path="standings-csv")
    def standings_csv(self, request, pk=None):
        league = self.get_object()
        view = league_standings(league, self._criteria(request, league))
        return HttpResponse(standings_csv(view), content_type="text/csv; charset=utf-8")

    @extend_schema(request=EnrolSerializer, responses={201: ParticipantsSerializer})
    @action(detail=True, methods=["post"])
    def participants(self, request, pk=None):
        league = self.get_object()
        data = EnrolSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data["username"].strip()
        user = request.user
        if username:
            user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise serializers.ValidationError({"username": [_("There is no user with this name.")]})
        run(
            league_participant_add,
            league=league,
            actor=request.user,
            user=user,
            handicapped=data.validated_data["handicapped"],
        )
        return Response(
            {
                "participants": list(
                    LeagueParticipant.objects.filter(league=league).values_list(
                        "user__username", flat=True
                    )
                )
            },
            status=status.HTTP_201_CREATED,
        )

"""API for clubs (invitations, members), leagues, results, standings, ratings, balance,
player profiles and exports: thin views over the same services, selectors and permission
predicates as the pages. Reads are public like the pages; writes need the club's organiser."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from campaigns.exports import campaign_export, campaign_import, results_csv, standings_csv
from campaigns.models import (
    Battle,
    Campaign,
    Club,
    ClubInvite,
    ClubMembership,
    GameSystem,
    League,
    LeagueParticipant,
    Rating,
    Result,
)
from campaigns.permissions import can_view_campaign
from campaigns.selectors.leagues import (
    league_balance,
    league_ratings,
    league_standings,
    player_profile,
)
from campaigns.services.club_admin import (
    club_invite_accept,
    club_invite_create,
    club_member_set_role,
)
from campaigns.services.leagues import (
    league_create,
    league_participant_add,
    league_update,
    result_correct,
    result_enter,
    result_from_battle,
    result_restore,
    result_void,
    results_import_csv,
)
from rules.ratings.standings import METRICS


def run(service, **kwargs):
    """Call a service; its "forbidden" refusal becomes a 403 (other errors a 400)."""
    try:
        return service(**kwargs)
    except ValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise PermissionDenied(exc.messages[0]) from None
        raise


# --- Serializers ------------------------------------------------------------------------------


class InviteSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    username = serializers.CharField(required=False, allow_blank=True, write_only=True)
    invited_user = serializers.CharField(source="invited_user.username", read_only=True)

    class Meta:
        model = ClubInvite
        fields = ["id", "club", "token", "username", "invited_user", "role", "created_at",
                  "accepted_at", "revoked"]  # fmt: skip
        read_only_fields = ["token", "created_at", "accepted_at", "revoked"]


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=64)


class MembershipSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = ClubMembership
        fields = ["id", "club", "username", "role", "joined_at"]
        read_only_fields = ["joined_at"]


class LeagueSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(METRICS)), required=False
    )
    elo_k_bands = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        required=False,
    )

    class Meta:
        model = League
        fields = ["id", "club", "name", "season", "system", "status", "points_win",
                  "points_draw", "points_loss", "tiebreaks", "apply_cc_handicap", "elo_initial",
                  "elo_k_bands", "elo_period", "balance_min_plays", "created_at"]  # fmt: skip
        read_only_fields = ["created_at"]


class ResultSerializer(serializers.ModelSerializer):
    team_a = serializers.SerializerMethodField()
    team_b = serializers.SerializerMethodField()
    battle = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = ["id", "league", "played_on", "round", "scenario", "side_a", "side_b",
                  "team_a", "team_b", "outcome", "details", "status", "notes", "battle",
                  "created_at", "updated_at"]  # fmt: skip

    def _team(self, obj, team):
        return [p.user.username for p in obj.players.all() if p.team == team]

    def get_team_a(self, obj) -> list[str]:
        return self._team(obj, "a")

    def get_team_b(self, obj) -> list[str]:
        return self._team(obj, "b")

    def get_battle(self, obj) -> dict | None:
        if not obj.battle_id:
            return None
        return {"campaign": obj.battle.campaign_id, "number": obj.battle.number}


class ResultInputSerializer(serializers.Serializer):
    """Shapes only; the service checks the rest (players in the club, details) and names the
    field it refuses."""

    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    played_on = serializers.DateField()
    round = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    side_a = serializers.CharField(required=False, allow_blank=True, max_length=80)
    side_b = serializers.CharField(required=False, allow_blank=True, max_length=80)
    team_a = serializers.ListField(child=serializers.CharField(max_length=150), min_length=1)
    team_b = serializers.ListField(child=serializers.CharField(max_length=150), min_length=1)
    outcome = serializers.ChoiceField(choices=Result.Outcome.choices)
    details = serializers.DictField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=300)


class CorrectionInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)
    played_on = serializers.DateField(required=False)
    round = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    side_a = serializers.CharField(required=False, allow_blank=True, max_length=80)
    side_b = serializers.CharField(required=False, allow_blank=True, max_length=80)
    team_a = serializers.ListField(child=serializers.CharField(max_length=150), required=False)
    team_b = serializers.ListField(child=serializers.CharField(max_length=150), required=False)
    outcome = serializers.ChoiceField(choices=Result.Outcome.choices, required=False)
    details = serializers.DictField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=300)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


class FromBattleSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    battle = serializers.PrimaryKeyRelatedField(queryset=Battle.objects.all())
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    round = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    details = serializers.DictField(required=False)


class ImportSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    csv = serializers.CharField(max_length=2_000_000)


class EnrolSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    handicapped = serializers.BooleanField(default=False)


# --- Views ------------------------------------------------------------------------------------


class ClubInviteViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Invitations of the clubs the caller organises; `accept` joins with a token."""

    serializer_class = InviteSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ClubInvite.objects.none()
        clubs = ClubMembership.objects.filter(
            user=self.request.user, role=ClubMembership.Role.ORGANISER
        ).values("club_id")
        return ClubInvite.objects.filter(club_id__in=clubs).select_related("club", "invited_user")

    def create(self, request, *args, **kwargs):
        data = InviteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        invite = run(
            club_invite_create,
            club=v["club"],
            actor=request.user,
            username=v.get("username", ""),
            role=v.get("role", ClubMembership.Role.MEMBER),
        )
        return Response(InviteSerializer(invite).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TokenSerializer, responses=MembershipSerializer)
    @action(detail=False, methods=["post"])
    def accept(self, request):
        data = TokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = run(club_invite_accept, token=data.validated_data["token"], user=request.user)
        return Response(MembershipSerializer(membership).data)


class ClubMemberViewSet(mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Club members (filter with ?club=<slug>); an organiser changes a member's role."""

    serializer_class = MembershipSerializer
    http_method_names = ["get", "patch", "head", "options"]

    def get_queryset(self):
        qs = ClubMembership.objects.select_related("club", "user").order_by(
            "club", "user__username"
        )
        club = self.request.query_params.get("club")
        return qs.filter(club__slug=club) if club else qs

    def partial_update(self, request, *args, **kwargs):
        membership = self.get_object()
        role = request.data.get("role", "")
        membership = run(
            club_member_set_role,
            club=membership.club,
            actor=request.user,
            user=membership.user,
            role=role,
        )
        return Response(MembershipSerializer(membership).data)


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
            raise serializers.ValidationError({"system": ["A league's club and system are fixed."]})
        league = run(league_update, league=league, actor=request.user, **v)
        return Response(LeagueSerializer(league).data)

    def _criteria(self, request, league):
        raw = request.query_params.get("tb")
        if not raw:
            return None
        keys = [k for k in raw.split(",") if k]
        if not keys or any(k not in METRICS for k in keys) or len(set(keys)) != len(keys):
            raise serializers.ValidationError(
                {"tb": [f"Choose from {', '.join(METRICS)}, once each."]}
            )
        return keys

    @extend_schema(parameters=[OpenApiParameter("tb", str, description="tie-break order preview")])
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

    @extend_schema(parameters=[OpenApiParameter("method", str, enum=["elo", "openskill"])])
    @action(detail=True, methods=["get"])
    def ratings(self, request, pk=None):
        league = self.get_object()
        method = request.query_params.get("method", Rating.Method.ELO)
        if method not in Rating.Method.values:
            raise serializers.ValidationError({"method": ["Choose elo or openskill."]})
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

    @action(detail=True, methods=["get"])
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

    @extend_schema(request=EnrolSerializer, responses={201: None})
    @action(detail=True, methods=["post"])
    def participants(self, request, pk=None):
        league = self.get_object()
        data = EnrolSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = get_user_model().objects.filter(username=data.validated_data["username"]).first()
        if user is None:
            raise serializers.ValidationError({"username": ["There is no user with this name."]})
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


class ResultViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """League results (filter ?league=<id>&status=active|void); organisers write."""

    serializer_class = ResultSerializer
    filterset_fields = ["league", "status", "outcome"]

    def get_queryset(self):
        return (
            Result.objects.select_related("battle")
            .prefetch_related("players__user")
            .order_by("-played_on", "-id")
        )

    @extend_schema(request=ResultInputSerializer, responses={201: ResultSerializer})
    def create(self, request, *args, **kwargs):
        data = ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = run(result_enter, league=v.pop("league"), actor=request.user, **v)
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data, status=201)

    @extend_schema(request=FromBattleSerializer, responses={201: ResultSerializer})
    @action(detail=False, methods=["post"], url_path="from-battle")
    def from_battle(self, request):
        data = FromBattleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        campaign = v["battle"].campaign
        if campaign.club_id != v["league"].club_id and not can_view_campaign(
            request.user, campaign
        ):
            raise serializers.ValidationError({"battle": ["No such battle."]})
        result = run(result_from_battle, actor=request.user, **v)
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data, status=201)

    @extend_schema(request=ImportSerializer, responses={201: ResultSerializer(many=True)})
    @action(detail=False, methods=["post"], url_path="import")
    def import_csv(self, request):
        data = ImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        results = run(
            results_import_csv,
            league=data.validated_data["league"],
            actor=request.user,
            text=data.validated_data["csv"],
        )
        return Response({"imported": len(results)}, status=201)

    @extend_schema(request=CorrectionInputSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        result = self.get_object()
        data = CorrectionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        run(result_correct, result=result, actor=request.user, **v)
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data)

    @extend_schema(request=ReasonSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        return self._status(request, result_void)

    @extend_schema(request=ReasonSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def restore(self, request, pk=None):
        return self._status(request, result_restore)

    def _status(self, request, service):
        result = self.get_object()
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run(service, result=result, actor=request.user, reason=data.validated_data["reason"])
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data)

    @action(detail=True, methods=["get"])
    def trace(self, request, pk=None):
        result = self.get_object()
        return Response(
            [
                {
                    "action": t.action,
                    "actor": t.actor.username if t.actor else None,
                    "reason": t.reason,
                    "before": t.before,
                    "after": t.after,
                    "created_at": t.created_at,
                }
                for t in result.trace.select_related("actor")
            ]
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
            raise serializers.ValidationError({"system": ["Choose one of the game systems."]})
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


class CampaignExportViewSet(viewsets.GenericViewSet):
    """A campaign as JSON (no private data); importing one needs a staff account."""

    queryset = Campaign.objects.all()

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def retrieve(self, request, pk=None):
        campaign = Campaign.objects.filter(pk=pk).first()
        if campaign is None or not can_view_campaign(request.user, campaign):
            raise Http404
        return Response(campaign_export(campaign))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def create(self, request):
        if not (request.user.is_authenticated and request.user.is_staff):
            raise PermissionDenied("Importing a campaign needs a staff account.")
        campaign = campaign_import(request.data, actor=request.user)
        return Response({"id": campaign.pk}, status=status.HTTP_201_CREATED)


__all__ = [
    "CampaignExportViewSet",
    "ClubInviteViewSet",
    "ClubMemberViewSet",
    "LeagueViewSet",
    "PlayerViewSet",
    "ResultViewSet",
]


def register(router) -> None:
    """Add this module's viewsets to the API router."""
    router.register("club-invites", ClubInviteViewSet, basename="api-club-invite")
    router.register("club-members", ClubMemberViewSet, basename="api-club-member")
    router.register("leagues", LeagueViewSet, basename="api-league")
    router.register("results", ResultViewSet, basename="api-result")
    router.register("players", PlayerViewSet, basename="api-player")
    router.register("campaign-exports", CampaignExportViewSet, basename="api-campaign-export")

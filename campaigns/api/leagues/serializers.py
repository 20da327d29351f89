"""Serializers of the club, league and result API (request bodies use the page forms' field
names)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.api.fields import DistinctListField
from campaigns.forms_leagues import WIN_TYPES, ResultForm
from campaigns.models import (
    Battle,
    Campaign,
    Club,
    ClubInvite,
    ClubMembership,
    League,
    Result,
    SkirmishBattle,
)
from campaigns.models import bounds as b
from rules.ratings.standings import METRICS


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


@extend_schema_field(
    {
        "type": "array",
        "minItems": 1,
        "maxItems": b.K_BANDS_MAX,
        "uniqueItems": True,
        "items": {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "prefixItems": [
                {"type": "number", "minimum": b.ELO_RATING[0], "maximum": b.ELO_RATING[1]},
                {"type": "number", "exclusiveMinimum": 0, "maximum": b.K_FACTOR[1]},
            ],
        },
    }
)
class KBandsField(DistinctListField):
    """Elo K bands: each a [lowest rating, K] pair within the league bounds."""


class LeagueSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(METRICS)),
        required=False,
        min_length=1,
        max_length=len(METRICS),
    )
    elo_k_bands = KBandsField(
        child=serializers.ListField(
            child=serializers.FloatField(validators=[b.finite]), min_length=2, max_length=2
        ),
        required=False,
        min_length=1,
        max_length=b.K_BANDS_MAX,
        help_text=_("[lowest rating, K] pairs, one lowest rating each (in any order)."),
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
                  "skirmish", "operation", "created_at", "updated_at"]  # fmt: skip

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


class PageDetailsMixin(serializers.Serializer):
    """The result page's flat fields (win type, time space, VP, casualties, objective 5) are
    accepted too and become `details`, as the page's form does."""

    win_type = serializers.ChoiceField(choices=WIN_TYPES, required=False, allow_blank=True)
    time_space = serializers.IntegerField(
        required=False, allow_null=True, **b.form_range(b.TIME_SPACE)
    )
    vp_a = serializers.IntegerField(
        required=False, allow_null=True, **b.form_range(b.RESULT_DETAILS["vp_a"])
    )
    vp_b = serializers.IntegerField(
        required=False, allow_null=True, **b.form_range(b.RESULT_DETAILS["vp_b"])
    )
    casualties_a = serializers.IntegerField(
        required=False, allow_null=True, **b.form_range(b.CASUALTIES)
    )
    casualties_b = serializers.IntegerField(
        required=False, allow_null=True, **b.form_range(b.CASUALTIES)
    )
    objective_5_in_play = serializers.BooleanField(required=False)

    def validate(self, attrs):
        attrs = dict(attrs)
        flat = {k: attrs.pop(k) for k in ResultForm.DETAILS if k in attrs}
        flat = {k: v for k, v in flat.items() if v not in (None, "")}
        if attrs.pop("objective_5_in_play", False):
            flat["objective_5_in_play"] = True
        if flat:
            attrs["details"] = {**attrs.get("details", {}), **flat}
        return attrs


class ResultInputSerializer(PageDetailsMixin):
    """Shapes only; the service checks the rest (players in the club, details) and names the
    field it refuses."""

    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    played_on = serializers.DateField()
    round = serializers.IntegerField(required=False, allow_null=True, **b.form_range(b.ROUND))
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    side_a = serializers.CharField(required=False, allow_blank=True, max_length=80)
    side_b = serializers.CharField(required=False, allow_blank=True, max_length=80)
    team_a = serializers.ListField(child=serializers.CharField(max_length=150), min_length=1)
    team_b = serializers.ListField(child=serializers.CharField(max_length=150), min_length=1)
    outcome = serializers.ChoiceField(choices=Result.Outcome.choices)
    details = serializers.DictField(required=False, validators=b.json_size(b.JSON_SMALL))
    notes = serializers.CharField(required=False, allow_blank=True, max_length=300)


class CorrectionInputSerializer(PageDetailsMixin):
    reason = serializers.CharField(max_length=300)
    played_on = serializers.DateField(required=False)
    round = serializers.IntegerField(required=False, allow_null=True, **b.form_range(b.ROUND))
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    side_a = serializers.CharField(required=False, allow_blank=True, max_length=80)
    side_b = serializers.CharField(required=False, allow_blank=True, max_length=80)
    team_a = serializers.ListField(child=serializers.CharField(max_length=150), required=False)
    team_b = serializers.ListField(child=serializers.CharField(max_length=150), required=False)
    outcome = serializers.ChoiceField(choices=Result.Outcome.choices, required=False)
    details = serializers.DictField(required=False, validators=b.json_size(b.JSON_SMALL))
    notes = serializers.CharField(required=False, allow_blank=True, max_length=300)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


class FromBattleSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    battle = serializers.PrimaryKeyRelatedField(queryset=Battle.objects.all())
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    round = serializers.IntegerField(required=False, allow_null=True, **b.form_range(b.ROUND))
    details = serializers.DictField(required=False, validators=b.json_size(b.JSON_SMALL))


class FromSkirmishSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    skirmish = serializers.PrimaryKeyRelatedField(queryset=SkirmishBattle.objects.all())
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    round = serializers.IntegerField(required=False, allow_null=True, **b.form_range(b.ROUND))


class FromOperationSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    operation = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.all())
    outcome = serializers.ChoiceField(choices=Result.Outcome.choices)
    scenario = serializers.CharField(required=False, allow_blank=True, max_length=120)
    round = serializers.IntegerField(required=False, allow_null=True, **b.form_range(b.ROUND))


class SettleSerializer(serializers.Serializer):
    """The organiser's ruling: the result counts (with this outcome) or is void."""

    ruling = serializers.ChoiceField(choices=["a", "b", "draw", "void"])
    reason = serializers.CharField(max_length=300)


class CampaignClubSerializer(serializers.Serializer):
    """The club a campaign belongs to (its slug), or null for none."""

    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Club.objects.all(), allow_null=True
    )


class ImportSerializer(serializers.Serializer):
    """The CSV as text: `csv`, or `text` as on the import page."""

    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    csv = serializers.CharField(max_length=b.CSV_TEXT_MAX, required=False)
    text = serializers.CharField(max_length=b.CSV_TEXT_MAX, required=False, write_only=True)

    def validate(self, attrs):
        attrs = dict(attrs)
        text = attrs.pop("text", "")
        attrs["csv"] = attrs.get("csv") or text
        if not attrs["csv"].strip():
            raise serializers.ValidationError({"csv": [_("Paste the CSV (csv or text).")]})
        return attrs


class EnrolSerializer(serializers.Serializer):
    """`username` blank or left out: the caller enters the league themself (as on the page)."""

    username = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    handicapped = serializers.BooleanField(default=False)


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=ClubMembership.Role.choices)


class ParticipantsSerializer(serializers.Serializer):
    participants = serializers.ListField(
        child=serializers.CharField(), help_text=_("Usernames of the league's participants.")
    )


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    player = serializers.CharField(allow_null=True)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    points = serializers.FloatField()
    values = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text=_("Each criterion's value.")
    )
    elo = serializers.FloatField(allow_null=True)
    handicapped = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    criteria = serializers.ListField(child=serializers.CharField())
    rows = StandingsRowSerializer(many=True)
    warnings = serializers.ListField(child=serializers.CharField())


class RatingRowSerializer(serializers.Serializer):
    player = serializers.CharField()
    value = serializers.FloatField()
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()


class RatingsSerializer(serializers.Serializer):
    method = serializers.CharField()
    up_to_date = serializers.BooleanField()
    ratings = RatingRowSerializer(many=True)


class BalanceRowSerializer(serializers.Serializer):
    scenario = serializers.CharField()
    side = serializers.CharField()
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    win_pct = serializers.FloatField(allow_null=True)
    wilson_low = serializers.FloatField(allow_null=True)
    wilson_high = serializers.FloatField(allow_null=True)
    few_plays = serializers.BooleanField()


class TraceEntrySerializer(serializers.Serializer):
    action = serializers.CharField()
    actor = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    before = serializers.JSONField()
    after = serializers.JSONField()
    created_at = serializers.DateTimeField()

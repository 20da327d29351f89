"""Serializers of the roster and skirmish API."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.i18n import say
from campaigns.models import Campaign, Roster, RosterSystem, SkirmishBattle
from campaigns.models import bounds as b
from campaigns.rosters.engine import ROUNDINGS as ROUNDING_CHOICES
from campaigns.rosters.engine import report
from campaigns.rosters.words import ARMY_HELP
from campaigns.selectors.rosters import (
    battle_orders,
    sealed_status,
)


class RosterSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    system = serializers.CharField(read_only=True, help_text="parabellum or m1936")
    validation = serializers.SerializerMethodField()

    class Meta:
        model = Roster
        fields = [
            "id",
            "name",
            "system",
            "owner",
            "campaign",
            "data",
            "house_rules",
            "condition",
            "archived_at",
            "created_at",
            "updated_at",
            "validation",
        ]

    def get_validation(self, obj) -> dict:
        rep = report(obj.system, obj.data, obj.house_rules)
        keep = ("valid", "violations", "pm_left", "starting_po", "points_left", "budget", "spent")
        return {k: rep[k] for k in keep if k in rep}


class RosterCreateSerializer(serializers.Serializer):
    system = serializers.ChoiceField(choices=RosterSystem.choices)
    name = serializers.CharField(max_length=120)
    campaign = serializers.PrimaryKeyRelatedField(
        queryset=Campaign.objects.all(), required=False, allow_null=True
    )
    squad_type = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    faction = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    role = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    quality = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    size = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    defender_points = serializers.IntegerField(
        required=False, allow_null=True, default=None, **b.form_range(b.ROSTER_POINTS)
    )


class RosterEditSerializer(serializers.Serializer):
    """Parabellum: soldier_id, field, value. 1936: op, profile / entry / upgrade / label /
    quality (op "quality": a unit's own quality, "" for the force's; needs the army-list
    reading `per_unit_quality`)."""

    soldier_id = serializers.CharField(required=False, max_length=40)
    field = serializers.CharField(required=False, max_length=40)
    value = serializers.JSONField(
        required=False, allow_null=True, validators=b.json_size(b.JSON_SMALL)
    )
    op = serializers.CharField(required=False, max_length=40)
    profile = serializers.CharField(required=False, max_length=120)
    entry = serializers.IntegerField(required=False, **b.form_range(b.ELEMENT_COUNT))
    upgrade = serializers.CharField(required=False, max_length=80)
    label = serializers.CharField(required=False, allow_blank=True, max_length=60)
    quality = serializers.CharField(required=False, allow_blank=True, max_length=40)


class ArmyReadingsSerializer(serializers.Serializer):
    """1936 army-list readings (`rules.m1936.army.ArmyOptions`); a field left out is its
    default, the rulebook's literal text."""

    rounding = serializers.ChoiceField(
        choices=ROUNDING_CHOICES,
        required=False,
        help_text=str(ARMY_HELP["rounding"]) + " [M36-II]",
    )
    quality_applies_to_upgrades = serializers.BooleanField(
        required=False, help_text=str(ARMY_HELP["quality_applies_to_upgrades"]) + " [M36-II]"
    )
    per_unit_quality = serializers.BooleanField(
        required=False, help_text=str(ARMY_HELP["per_unit_quality"]) + " [M36-II]"
    )
    apply_rule_quality_modifiers = serializers.BooleanField(
        required=False,
        help_text="Default true: Section III adds the quality modifiers (Green +1, Regular 0, "
        "Veteran -1, Elite 0) to the levels of Líder, Observar and Cavar; false: the levels "
        "stay as listed. [M36-III]",
    )
    fog_of_war_token_limit = serializers.BooleanField(
        required=False, help_text=str(ARMY_HELP["fog_of_war_token_limit"]) + " [M36-XIV.1]"
    )


class RosterHouseRulesSerializer(serializers.Serializer):
    """The whole set: a field left out goes back to its default. Parabellum takes the HR-1…4
    fields; 1936 the carry_* house rules and `army`, its army-list readings. A bad value is a
    400 naming the field."""

    casualties_carry_over = serializers.BooleanField(required=False, help_text="Parabellum HR-1")
    recovery_target = serializers.IntegerField(
        required=False,
        help_text="Parabellum HR-1",
        **b.form_range(b.HOUSE_RULES["recovery_target"]),
    )
    promotion = serializers.BooleanField(required=False, help_text="Parabellum HR-2")
    battles_to_regular = serializers.IntegerField(
        required=False, help_text="Parabellum HR-2", **b.form_range(b.BATTLES_TO_PROMOTE)
    )
    battles_to_veteran = serializers.IntegerField(
        required=False, help_text="Parabellum HR-2", **b.form_range(b.BATTLES_TO_PROMOTE)
    )
    replacements = serializers.BooleanField(required=False, help_text="Parabellum HR-3")
    carry_over_po = serializers.BooleanField(required=False, help_text="Parabellum HR-4")
    po_carry_over_cap = serializers.IntegerField(
        required=False, allow_null=True, help_text="Parabellum HR-4", **b.form_range(b.PO)
    )
    carry_casualties = serializers.BooleanField(required=False, help_text="1936 house rule")
    carry_decimation = serializers.BooleanField(required=False, help_text="1936 house rule")
    carry_vehicle_damage = serializers.BooleanField(required=False, help_text="1936 house rule")
    carry_destroyed = serializers.BooleanField(required=False, help_text="1936 house rule")
    army = ArmyReadingsSerializer(required=False, help_text="1936 army-list readings")


class RosterChangeSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField()
    rule = serializers.CharField()
    actor = serializers.CharField(source="actor.username", default=None)
    battle = serializers.IntegerField(source="battle_id", allow_null=True)
    before = serializers.JSONField()
    after = serializers.JSONField()
    explanation = serializers.JSONField()
    created_at = serializers.DateTimeField()


class SkirmishSideSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    role = serializers.CharField()
    player = serializers.CharField(source="player.username")
    roster = serializers.IntegerField(source="roster_id", allow_null=True)
    snapshot = serializers.JSONField()
    start_po = serializers.IntegerField()
    po = serializers.IntegerField()
    casualties = serializers.JSONField()
    calls = serializers.JSONField()


class SkirmishBattleSerializer(serializers.ModelSerializer):
    system = serializers.CharField(read_only=True)
    status = serializers.CharField(read_only=True)
    sides = SkirmishSideSerializer(many=True, read_only=True)
    orders = serializers.SerializerMethodField()
    sealed = serializers.SerializerMethodField()
    construction = serializers.SerializerMethodField(
        help_text="The 1936 construction points ledger; each reason in the request's language."
    )

    class Meta:
        model = SkirmishBattle
        fields = [
            "id",
            "system",
            "mode",
            "title",
            "campaign",
            "status",
            "sides",
            "sealed",
            "orders",
            "turns",
            "tactical",
            "scenario",
            "weather",
            "construction",
            "score",
            "winner_index",
            "created_at",
            "finished_at",
            "revealed_at",
        ]

    def get_construction(self, obj) -> dict:
        ledger = dict(obj.construction or {})
        if ledger.get("entries"):
            ledger["entries"] = [{**e, "reason": say(e.get("reason"))} for e in ledger["entries"]]
        return ledger

    def get_orders(self, obj) -> list[dict]:
        """Only the orders this caller may read: their own, or all once revealed."""
        user = self.context["request"].user
        return [
            {
                "side": o.side.index,
                "priority_order": o.priority_order,
                "directives": o.directives,
                "revealed": o.revealed_at is not None,
            }
            for o in battle_orders(user, obj)
        ]

    def get_sealed(self, obj) -> dict:
        return {str(k): v for k, v in sealed_status(obj).items()}


class BattleCreateSerializer(serializers.Serializer):
    roster = serializers.PrimaryKeyRelatedField(queryset=Roster.objects.all())
    role = serializers.CharField(help_text="attacker or defender")
    opponent = serializers.SlugRelatedField(
        slug_field="username", queryset=get_user_model().objects.all()
    )
    mode = serializers.CharField(required=False, allow_blank=True, default="", max_length=8)
    title = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=SkirmishBattle._meta.get_field("title").max_length,
    )


class SkirmishEventSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        allow_null=True, help_text=_("Public events are numbered; private ones are not.")
    )
    kind = serializers.CharField()
    summary = serializers.CharField()
    rule = serializers.CharField()
    data = serializers.JSONField()
    private = serializers.SerializerMethodField(help_text=_("Only your side reads it."))
    created_at = serializers.DateTimeField()

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_private(self, event) -> bool:
        return event.private_to_id is not None


class DiceSerializer(serializers.Serializer):
    dice_mode = serializers.ChoiceField(choices=["server", "entered"], default="server")
    dice = serializers.CharField(required=False, allow_blank=True, default="", max_length=400)


class RosterSettingsSerializer(serializers.Serializer):
    """The roster settings page's fields: the name, and the campaign it belongs to (one of
    the owner's campaigns of the same system, or null)."""

    name = serializers.CharField(max_length=120)
    campaign = serializers.PrimaryKeyRelatedField(
        queryset=Campaign.objects.all(), required=False, allow_null=True, default=None
    )


class RosterArchiveSerializer(serializers.Serializer):
    archived = serializers.BooleanField(
        default=True, help_text="true archives the roster, false restores it"
    )


class OddsLineSerializer(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.CharField()


class OddsSerializer(serializers.Serializer):
    """The exact odds (enumerated, not simulated) shown before rolling."""

    lines = OddsLineSerializer(many=True)


class PlayUnitSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    state = serializers.CharField()
    detail = serializers.CharField(allow_blank=True)


class PlaySideSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    player = serializers.CharField()
    role = serializers.CharField()
    score_label = serializers.CharField()
    score = serializers.CharField()
    points_label = serializers.CharField()
    points = serializers.CharField()
    units = PlayUnitSerializer(many=True)


class PlaySummarySerializer(serializers.Serializer):
    """The top of the battle page: turn, phase, whose move and what the table does now, each
    side's score, points left and units (another side's hidden units only as tokens)."""

    turn = serializers.IntegerField(allow_null=True)
    phase = serializers.CharField()
    acting = serializers.IntegerField(allow_null=True)
    acting_player = serializers.CharField(allow_blank=True)
    now = serializers.ListField(child=serializers.CharField())
    sides = PlaySideSerializer(many=True)

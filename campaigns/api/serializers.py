from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import Campaign, Club, GameSystem, LogEntry, Side


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username"]


class SeatSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="user.pk")
    username = serializers.CharField(source="user.username")


class SideSerializer(serializers.ModelSerializer):
    players = SeatSerializer(source="seats", many=True, read_only=True)

    class Meta:
        model = Side
        fields = ["id", "name", "faction", "order", "players"]


class CampaignSerializer(serializers.ModelSerializer):
    sides = SideSerializer(many=True, read_only=True)
    game_masters = UserSerializer(many=True, read_only=True)
    created_by = UserSerializer(read_only=True)

    class Meta:
        model = Campaign
        fields = [
            "id",
            "name",
            "system",
            "template",
            "description",
            "status",
            "visibility",
            "club",
            "created_by",
            "game_masters",
            "sides",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["status", "created_at", "updated_at", "template"]


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    system = serializers.ChoiceField(choices=GameSystem.choices)
    side_names = serializers.ListField(
        child=serializers.CharField(max_length=80), min_length=2, max_length=8
    )
    visibility = serializers.ChoiceField(
        choices=Campaign.Visibility.choices, default=Campaign.Visibility.PRIVATE
    )
    description = serializers.CharField(required=False, allow_blank=True, default="")


class LogEntrySerializer(serializers.ModelSerializer):
    actor = UserSerializer(read_only=True)

    class Meta:
        model = LogEntry
        fields = ["seq", "kind", "summary", "rule", "data", "actor", "private_to", "created_at"]


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "created_at"]
        read_only_fields = ["slug", "created_at"]


class BattleSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    position = serializers.CharField()
    status = serializers.CharField()
    winner = serializers.CharField(source="winner.name", default=None)
    result = serializers.JSONField()
    finished_at = serializers.DateTimeField()


class DecisionSerializer(serializers.Serializer):
    """A decision; a sealed answer is shown only to its side until revealed."""

    id = serializers.IntegerField()
    key = serializers.CharField()
    rule = serializers.CharField()
    prompt = serializers.CharField()
    options = serializers.JSONField()
    min_choices = serializers.IntegerField()
    max_choices = serializers.IntegerField()
    roll_kind = serializers.CharField()
    chooser = serializers.CharField(source="chooser.name", default=None)
    sealed = serializers.BooleanField()
    status = serializers.CharField()
    answer = serializers.SerializerMethodField()
    can_answer = serializers.SerializerMethodField()

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_answer(self, decision):
        viewer = self.context["viewer"]
        hidden = decision.sealed and decision.revealed_at is None
        if hidden and not viewer.can_see_private(decision.chooser_id):
            return None
        return decision.answer

    def get_can_answer(self, decision) -> bool:
        from campaigns.services.cc_engine import can_answer

        return can_answer(self.context["viewer"], decision)


class AnswerSerializer(serializers.Serializer):
    answer = serializers.JSONField(help_text="An option, a list of options, a number or dice.")

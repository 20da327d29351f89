from django.contrib.auth import get_user_model
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

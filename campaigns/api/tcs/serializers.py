"""What the TCS API answers: op sheets, formations with morale, Command Phases, the
operation with what it waits for, a side with its order of battle, and each step's result.

Another side's op sheets, units, morale and Command Phase steps are only in an answer to
someone who may see that side's secrets (the views choose the objects; nothing here
reaches across sides).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from campaigns.models.tcs import (
    SHEET_TEXT_FIELDS,
    CommandPhase,
    OpSheetRecord,
    TcsDecision,
    TcsFormation,
    TcsUnit,
)


class TcsMessageSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("What was done, in words."))


class OpSheetSerializer(serializers.ModelSerializer):
    side = serializers.CharField(source="side.name")
    side_id = serializers.IntegerField()
    has_graphic = serializers.SerializerMethodField()
    revealed = serializers.SerializerMethodField()

    class Meta:
        model = OpSheetRecord
        fields = [
            "id",
            "campaign",
            "side",
            "side_id",
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


class TcsSheetActionSerializer(serializers.Serializer):
    detail = serializers.CharField()
    sheet = OpSheetSerializer()
    result = serializers.JSONField(required=False, help_text=_("What the service returned."))


class UnitSerializer(serializers.ModelSerializer):
    class Meta:
        model = TcsUnit
        fields = [
            "id",
            "code",
            "category",
            "steps",
            "steps_lost",
            "eliminated_turn",
            "dug_in",
            "morale",
            "morale_state",
            "mode",
        ]


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


class TcsUnitActionSerializer(serializers.Serializer):
    detail = serializers.CharField()
    unit = UnitSerializer()
    result = serializers.JSONField(required=False)


class TcsFormationActionSerializer(serializers.Serializer):
    detail = serializers.CharField()
    formation = FormationSerializer()


class CommandPhaseSerializer(serializers.ModelSerializer):
    side = serializers.CharField(source="side.name")

    class Meta:
        model = CommandPhase
        fields = ["id", "campaign", "side", "turn", "clock", "light", "status", "completed_at"]


class TcsPhaseDetailSerializer(CommandPhaseSerializer):
    """A Command Phase with its steps and what it still needs (for its own side only)."""

    side_id = serializers.IntegerField()
    status = serializers.CharField(help_text=_("open or completed"))
    steps = serializers.JSONField()
    blockers = serializers.SerializerMethodField()

    class Meta(CommandPhaseSerializer.Meta):
        fields = [*CommandPhaseSerializer.Meta.fields, "side_id", "steps", "blockers"]

    def get_blockers(self, obj) -> list[str]:
        return self.context.get("blockers", [])


class TcsPhaseStepSerializer(serializers.Serializer):
    detail = serializers.CharField()
    phase = TcsPhaseDetailSerializer()
    result = serializers.JSONField(required=False, help_text=_("What the step did."))


class TcsTurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    clock = serializers.CharField()
    light = serializers.CharField()
    minutes = serializers.IntegerField()


class TcsWaitingSerializer(serializers.Serializer):
    who = serializers.CharField()
    what = serializers.CharField()
    side_id = serializers.IntegerField(allow_null=True)


class TcsSideSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    can_see = serializers.BooleanField()
    can_act = serializers.BooleanField()
    phase = serializers.CharField(allow_null=True, help_text=_("This turn's Command Phase."))
    sheets = OpSheetSerializer(many=True, help_text=_("Only the sheets you may read."))


class TcsPhaseRowSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    rules = serializers.CharField()
    status = serializers.ChoiceField(choices=["done", "now", "next"])
    status_label = serializers.CharField()
    side_id = serializers.IntegerField(allow_null=True)
    steps = serializers.ListField(child=serializers.CharField())


class TcsReinforcementsSerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text=_("Your side's id."))
    units = serializers.ListField(
        child=serializers.CharField(max_length=40),
        help_text=_(
            "Arriving units: each on an implemented sheet or executing preliminary "
            "instructions [27.2.b]."
        ),
    )


class TcsTurnPhasesSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    clock = serializers.CharField()
    light = serializers.CharField()
    phases = TcsPhaseRowSerializer(many=True)
    next_text = serializers.CharField()


class TcsOperationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    turn = TcsTurnSerializer()
    sides = TcsSideSummarySerializer(many=True)
    waiting = TcsWaitingSerializer(many=True)
    recovery_due = serializers.BooleanField()
    decisions_to_make = serializers.IntegerField()
    end_agreed = serializers.ListField(child=serializers.IntegerField())
    phases = TcsTurnPhasesSerializer(
        help_text=_("The turn's Sequence of Play [2.0]: each phase done, now or next.")
    )


class TcsSideDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    prep_table = serializers.JSONField(allow_null=True)
    formations = FormationSerializer(many=True)
    units = UnitSerializer(many=True, help_text=_("Units outside any formation."))
    sheets = OpSheetSerializer(many=True)
    awaited = serializers.ListField(
        child=serializers.DictField(),
        help_text=_("This side's losses waiting for the opponent's choice [17.1.c]."),
    )


class TcsSideActionSerializer(serializers.Serializer):
    detail = serializers.CharField()
    side = TcsSideDetailSerializer()


class TcsReadingSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    rule = serializers.CharField()
    help = serializers.CharField()
    value = serializers.JSONField()
    is_default = serializers.BooleanField()


class TcsReadingsSerializer(serializers.Serializer):
    can_change = serializers.BooleanField()
    readings = TcsReadingSerializer(many=True)


class TcsTimelineSerializer(serializers.Serializer):
    turns = serializers.ListField(child=serializers.DictField())
    sheets = serializers.ListField(child=serializers.DictField())
    formations = serializers.ListField(child=serializers.DictField())


class TcsDecisionSerializer(serializers.ModelSerializer):
    """Only the unit and the battalions offered: never their morale [17.1.c]."""

    side = serializers.CharField(source="side.name")
    chooser = serializers.CharField(source="chooser.name")
    unit = serializers.CharField(source="unit.code")
    status = serializers.CharField(help_text=_("open or resolved"))

    class Meta:
        model = TcsDecision
        fields = [
            "id",
            "campaign",
            "side",
            "chooser",
            "unit",
            "rule",
            "options",
            "combat",
            "turn",
            "status",
            "choice",
        ]


class TcsSeatsSideSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())


class TcsSeatsSerializer(serializers.Serializer):
    detail = serializers.CharField()
    sides = TcsSeatsSideSerializer(many=True)

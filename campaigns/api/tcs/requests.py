"""The bodies the TCS API takes, for the schema: the page forms' fields under the same
names (campaigns/tcs/forms.py), which check them. JSON or form-encoded; op sheet drawing and
editing also take multipart with the `graphic` file."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import Campaign
from campaigns.models.tcs import TcsFormation
from campaigns.tcs.forms import DICE_CHOICES, LIGHT_CHOICES

DICE = serializers.ChoiceField(
    choices=DICE_CHOICES, default="server", help_text=_("server: the site rolls; entered.")
)
MISSIONS = ["attack", "hasty_defense", "prepared_defense", "move"]


# A time of day as the operation form takes it: 0000 to 2359, with or without a colon.
CLOCK_PATTERN = r"^ *([01][0-9]|2[0-3]):?[0-5][0-9] *$"


class TcsOperationCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    side_a = serializers.CharField(max_length=80)
    rating_a = serializers.IntegerField(min_value=0, max_value=12)
    side_b = serializers.CharField(max_length=80)
    rating_b = serializers.IntegerField(min_value=0, max_value=12)
    start_clock = serializers.RegexField(
        CLOCK_PATTERN, max_length=5, help_text=_("Four digits, e.g. 0800 (or 08:00).")
    )
    light = serializers.ChoiceField(choices=LIGHT_CHOICES)
    role = serializers.CharField(
        help_text=_("0: you play the first side; 1: the second; gm: neutral game master.")
    )
    visibility = serializers.ChoiceField(choices=Campaign.Visibility.choices)
    description = serializers.CharField(required=False, allow_blank=True)


class TcsAdvanceSerializer(serializers.Serializer):
    light = serializers.ChoiceField(choices=LIGHT_CHOICES)
    expected_turn = serializers.IntegerField(
        help_text=_("The turn you are looking at: a second request for it changes nothing.")
    )


@extend_schema_field({"type": "boolean", "enum": [True]})
class ConfirmField(serializers.BooleanField):
    """`true`: the caller confirms an action that cannot be undone (false is refused 400)."""


class TcsConfirmSerializer(serializers.Serializer):
    confirm = ConfirmField(help_text=_("true: you confirm; this cannot be undone."))


class TcsReadingsUpdateSerializer(serializers.Serializer):
    values = serializers.DictField(
        required=False,
        help_text=_("Reading name → value; or give the readings as top-level fields."),
    )


class TcsSideSettingsSerializer(serializers.Serializer):
    rating = serializers.IntegerField(min_value=0, max_value=12)
    prep_table = serializers.JSONField(
        required=False, help_text=_("The Command Prep Table: JSON (or its text); empty: none.")
    )


class TcsFormationCreateSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    morale = serializers.ChoiceField(choices=TcsFormation.Morale.choices)
    is_battalion = serializers.BooleanField(default=False)
    start_value = serializers.IntegerField(min_value=0, required=False)
    track = serializers.CharField(max_length=200, required=False, allow_blank=True)


class TcsUnitCreateSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=40)
    formation = serializers.IntegerField(required=False, help_text=_("A formation id."))
    category = serializers.CharField(
        help_text=_("infantry, heavy_weapon, vehicle or transport (the unit categories).")
    )
    steps = serializers.IntegerField(min_value=1, max_value=30)
    morale = serializers.IntegerField(
        required=False, min_value=0, max_value=20, help_text=_("Its printed morale [17.2].")
    )


class TcsCsvImportSerializer(serializers.Serializer):
    csv = serializers.CharField(required=False, help_text=_("The CSV text."))
    csv_file = serializers.FileField(required=False, help_text=_("…or the CSV file."))


class TcsSheetTextsSerializer(serializers.Serializer):
    time_drawn = serializers.CharField(required=False, allow_blank=True)
    size_note = serializers.CharField(required=False, allow_blank=True)
    task_organization = serializers.CharField(required=False, allow_blank=True)
    written_notes = serializers.CharField(required=False, allow_blank=True)
    failure_instructions = serializers.CharField(required=False, allow_blank=True)
    rally_points = serializers.CharField(required=False, allow_blank=True)
    preliminary_text = serializers.CharField(required=False, allow_blank=True)
    reserves_text = serializers.CharField(required=False, allow_blank=True)
    alternatives_text = serializers.CharField(
        required=False, allow_blank=True, help_text=_("One per line: “name: unit ids”.")
    )
    graphic = serializers.FileField(required=False, help_text=_("Multipart only."))


class TcsSheetDrawSerializer(TcsSheetTextsSerializer):
    side = serializers.IntegerField(help_text=_("The side drawing the sheet."))
    code = serializers.CharField(max_length=40)
    missions = serializers.DictField(
        child=serializers.ChoiceField(choices=MISSIONS),
        required=False,
        help_text=_("Unit id → mission; or the page's fields m_<unit id>."),
    )
    reserves = serializers.ListField(
        child=serializers.CharField(), required=False, help_text=_("Unit ids held in reserve.")
    )
    reinforcement = serializers.BooleanField(
        required=False, help_text=_("Written for reinforcements [6.13.e, 27.2.d-e].")
    )


class TcsUnitsSerializer(serializers.Serializer):
    units = serializers.ListField(child=serializers.CharField(), required=False)


class TcsFailSerializer(TcsUnitsSerializer):
    confirm = ConfirmField(help_text=_("true: you confirm; this cannot be undone."))


class TcsPreparedDefenseSerializer(serializers.Serializer):
    addition = serializers.CharField(required=False, allow_blank=True)
    fire_mode = serializers.ListField(child=serializers.CharField(), required=False)


class TcsSheetUnitsSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["add", "strike"])
    missions = serializers.DictField(
        child=serializers.ChoiceField(choices=MISSIONS),
        required=False,
        help_text=_("add: unit id → mission; or the page's fields m_<unit id>."),
    )
    row = serializers.ChoiceField(choices=MISSIONS, required=False)
    prelims = serializers.BooleanField(required=False)
    units = serializers.ListField(child=serializers.CharField(), required=False)


class TcsPhaseOpenSerializer(serializers.Serializer):
    side = serializers.IntegerField()


class TcsWeightedTurnsSerializer(serializers.Serializer):
    fired = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text=_("Op sheet ids [6.9.d].")
    )


class TcsAttemptSerializer(serializers.Serializer):
    sheet = serializers.IntegerField()
    addition_id = serializers.CharField(required=False, allow_blank=True)
    mode = serializers.ChoiceField(choices=["full", "prelims_only"], default="full")
    threshold = serializers.CharField(required=False, allow_blank=True)
    move_threshold = serializers.CharField(required=False, allow_blank=True)
    dice = DICE
    roll = serializers.CharField(required=False, help_text=_("d66, 11–66, when entered."))


class TcsCheckSerializer(serializers.Serializer):
    sheet = serializers.IntegerField()
    group = serializers.CharField()
    dice = DICE
    roll = serializers.CharField(required=False, help_text=_("d6, when entered."))


class TcsCommitSerializer(serializers.Serializer):
    sheet = serializers.IntegerField()
    units = serializers.ListField(child=serializers.CharField())
    order = serializers.ChoiceField(choices=["attack", "hasty_defense", "move"])


class TcsAlternativeSerializer(serializers.Serializer):
    sheet = serializers.IntegerField()
    alternative = serializers.CharField()


class TcsRecoverySerializer(serializers.Serializer):
    dice = DICE
    rolls = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text=_("Formation id → d6 (entered); or the page's fields roll_<formation id>."),
    )


class TcsLossSerializer(serializers.Serializer):
    unit = serializers.IntegerField()
    steps = serializers.IntegerField(min_value=1, max_value=30)
    combat = serializers.BooleanField(default=False)
    nearest = serializers.ListField(child=serializers.CharField(), required=False)
    dice = DICE
    rolls = serializers.CharField(required=False, help_text=_("Entered d6s, e.g. “3 5”."))


class TcsRestoreSerializer(serializers.Serializer):
    steps = serializers.IntegerField(min_value=1, max_value=30)
    reason = serializers.CharField(max_length=200)


class TcsCorrectionSerializer(serializers.Serializer):
    value = serializers.IntegerField(min_value=0)
    reason = serializers.CharField(max_length=200)


class TcsDecisionResolveSerializer(serializers.Serializer):
    choice = serializers.CharField()


class TcsSeatSerializer(serializers.Serializer):
    username = serializers.CharField()


class TcsUnitStateSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["fire", "move"], required=False)
    morale = serializers.IntegerField(required=False, min_value=0, max_value=20)
    morale_state = serializers.ChoiceField(
        choices=["normal", "suppressed", "paralyzed"], required=False
    )
    reason = serializers.CharField(
        required=False, help_text=_("Why the marker is corrected (needed to change it).")
    )

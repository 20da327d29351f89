"""Request and response bodies of the Combat Commander API.

Request bodies use the page forms' field names (campaigns/cc/forms.py), JSON-typed: the
campaign form's `opt_<name>` options, the result form's `winner` (a side id), `method`,
`vp_margin` and `survivors_<faction>` lines, and so on.
"""

from __future__ import annotations

import dataclasses
from enum import Enum

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.api.serializers import (
    CampaignSerializer,
    DecisionSerializer,
    LogEntrySerializer,
    campaign_club_field,
)
from campaigns.cc.engines import TEMPLATES
from campaigns.cc.forms import EventForm, RollForm
from campaigns.models import Campaign
from campaigns.models import bounds as b
from campaigns.services.battles import EVENTS
from campaigns.services.cc_campaigns import DICE_MODES
from rules.cc.gastadores import WinMethod

DICE_MODE_LABELS = {
    "server": _("The site rolls (logged before anyone sees the result)"),
    "entered": _("We roll at the table and enter the dice"),
}
ROLE_HELP = _(
    'Your part: the index of the side you play ("0", "1"), "gm" for a neutral game master '
    '(sees both sides\' secrets) or "none" (you organise; seats are taken later).'
)
SURVIVORS_HELP = _(
    "Survivors (Stalingrad), one unit per line: id; kind; weapon; veteran; leader of. "
    "Example: 2-1; Rifle squad; LMG; veteran"
)
ROLL_KINDS = [value for value, _label in RollForm.base_fields["roll_kind"].choices]
WIN_METHODS = [m.value for m in WinMethod]


def option_fields() -> dict[str, serializers.Field]:
    """Every template's options as the new-campaign form names them (`opt_<name>`)."""
    found: dict[str, serializers.Field] = {}
    for tpl in TEMPLATES.values():
        for f in dataclasses.fields(tpl.options_cls):
            if isinstance(f.default, bool):
                field: serializers.Field = serializers.BooleanField(required=False)
            elif isinstance(f.default, Enum):
                field = serializers.ChoiceField(
                    choices=[e.value for e in type(f.default)], required=False
                )
            else:
                continue
            field.help_text = _(
                "An option of the %(template)s template (ignored for the other templates)."
            ) % {"template": tpl.key}
            found.setdefault(f"opt_{f.name}", field)
    return found


# --- templates --------------------------------------------------------------------------------


class ChoiceSerializer(serializers.Serializer):
    value = serializers.JSONField()
    label = serializers.CharField()


class TemplateSideSerializer(serializers.Serializer):
    order = serializers.IntegerField()
    name = serializers.CharField()
    faction = serializers.CharField()


class TemplateOptionSerializer(serializers.Serializer):
    key = serializers.CharField(help_text=_("The body field of POST /campaigns/cc/."))
    label = serializers.CharField()
    type = serializers.ChoiceField(choices=["boolean", "choice"])
    choices = ChoiceSerializer(many=True)
    default = serializers.JSONField()
    rule = serializers.CharField(help_text=_("The rule reference the option changes."))
    help = serializers.CharField(help_text=_("The reading the option changes, in words."))


class CCTemplateSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    sides = TemplateSideSerializer(many=True)
    options = TemplateOptionSerializer(many=True)
    roles = ChoiceSerializer(many=True)
    dice_modes = ChoiceSerializer(many=True)
    visibilities = ChoiceSerializer(many=True)
    needs_tables = serializers.BooleanField()
    positions = serializers.ListField(child=serializers.CharField())
    result_fields = serializers.ListField(child=serializers.CharField())


# --- creating a campaign ----------------------------------------------------------------------


# The creator's seat: a side by its position in the template, the game master, or none.
ROLES = [str(i) for i in range(max(len(t.sides) for t in TEMPLATES.values()))] + ["gm", "none"]


class CCCampaignCreateSerializer(serializers.Serializer):
    """The new-campaign form: options left out keep the template's default."""

    template = serializers.ChoiceField(choices=list(TEMPLATES))
    name = serializers.CharField(max_length=160)
    role = serializers.ChoiceField(choices=ROLES, help_text=ROLE_HELP)
    visibility = serializers.ChoiceField(choices=Campaign.Visibility.choices)
    dice_mode = serializers.ChoiceField(choices=list(DICE_MODES))
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=b.DESCRIPTION_MAX
    )
    club = campaign_club_field()

    def get_fields(self):
        fields = super().get_fields()
        fields.update(option_fields())
        return fields

    def validate(self, attrs):
        tpl = TEMPLATES[attrs["template"]]
        roles = [str(i) for i in range(len(tpl.sides))] + ["gm", "none"]
        if attrs["role"] not in roles:
            raise serializers.ValidationError(
                {"role": [_("Choose one of: %(roles)s.") % {"roles": ", ".join(roles)}]}
            )
        own = {f"opt_{f.name}" for f in dataclasses.fields(tpl.options_cls)}
        return {k: v for k, v in attrs.items() if not k.startswith("opt_") or k in own}

    def service_kwargs(self) -> dict:
        data = self.validated_data
        role = data["role"]
        return {
            "name": data["name"],
            "template": data["template"],
            "visibility": data["visibility"],
            "dice_mode": data["dice_mode"],
            "description": data["description"],
            "options": {k[4:]: v for k, v in data.items() if k.startswith("opt_")},
            "creator_side": int(role) if role.isdecimal() else None,
            "as_game_master": role == "gm",
            "club": data.get("club"),
        }


class CCCampaignSerializer(CampaignSerializer):
    status = serializers.CharField(read_only=True, help_text=_("setup, active, finished …"))
    dice_mode = serializers.SerializerMethodField()
    engine_options = serializers.SerializerMethodField()

    class Meta(CampaignSerializer.Meta):
        fields = [*CampaignSerializer.Meta.fields, "dice_mode", "engine_options"]

    def get_dice_mode(self, campaign) -> str:
        return (campaign.options or {}).get("dice", "server")

    @extend_schema_field(serializers.DictField(child=serializers.JSONField()))
    def get_engine_options(self, campaign):
        return (campaign.options or {}).get("engine", {})


# --- seats ------------------------------------------------------------------------------------


class SeatRequestSerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text=_("The side's id."))
    username = serializers.CharField(max_length=150)


class JoinRequestSerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text=_("The side's id (its seat must be empty)."))


# --- tables -----------------------------------------------------------------------------------


class TablesRequestSerializer(serializers.Serializer):
    tables = serializers.DictField(
        child=serializers.JSONField(),
        help_text=_(
            "The campaign's user tables (campaign_forces, divisional_reserve …). PUT replaces "
            "them all; PATCH replaces only the sections given."
        ),
    )


class TablesSerializer(serializers.Serializer):
    tables = serializers.DictField(
        child=serializers.JSONField(),
        help_text=_("The campaign's user tables: campaign_forces, divisional_reserve …"),
    )
    missing = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=_("What the players still have to enter from their printed tables."),
    )
    note = serializers.CharField(read_only=True)


# --- dashboard --------------------------------------------------------------------------------


class LedgerEntrySerializer(serializers.Serializer):
    amount = serializers.IntegerField()
    balance = serializers.IntegerField()
    reason = serializers.CharField()
    rule = serializers.CharField()
    battle = serializers.IntegerField()


class PoolSerializer(serializers.Serializer):
    name = serializers.CharField()
    cap = serializers.IntegerField()
    balance = serializers.IntegerField()
    ledger = LedgerEntrySerializer(many=True)


class DashboardSideSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    order = serializers.IntegerField()
    name = serializers.CharField()
    faction = serializers.CharField()
    quality = serializers.CharField()
    wins = serializers.IntegerField()
    lists = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_("Named lists as the dashboard shows them (pool, reserves, reinforcements …)."),
    )


class TrackSerializer(serializers.Serializer):
    positions = serializers.ListField(child=serializers.CharField())
    maps = serializers.DictField(child=serializers.IntegerField())
    path = serializers.ListField(child=serializers.CharField())
    current = serializers.CharField(allow_null=True)


class BattleBriefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    position = serializers.CharField()
    status = serializers.CharField()
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    winner_name = serializers.CharField(source="winner.name", default=None, allow_null=True)


class ViewerSerializer(serializers.Serializer):
    side_ids = serializers.ListField(child=serializers.IntegerField())
    is_gm = serializers.BooleanField()
    is_participant = serializers.BooleanField()
    can_manage = serializers.BooleanField()


class DashboardSerializer(serializers.Serializer):
    campaign = serializers.IntegerField()
    template = serializers.CharField()
    status = serializers.CharField()
    phase = serializers.CharField()
    battle_number = serializers.IntegerField()
    position = serializers.CharField()
    track = TrackSerializer(allow_null=True)
    current_battle = serializers.IntegerField(allow_null=True)
    waiting_for = serializers.CharField()
    stopped_reason = serializers.CharField()
    victory = serializers.CharField(allow_null=True)
    missing_values = serializers.IntegerField()
    tables_note = serializers.CharField()
    sides = DashboardSideSerializer(many=True)
    pools = PoolSerializer(many=True)
    battles = BattleBriefSerializer(
        many=True,
        help_text=_("The latest battles (at most 20), newest first; all of them at battles/."),
    )
    decisions = DecisionSerializer(many=True, help_text=_("The open decisions."))
    answerable = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Ids of the open decisions you may answer.")
    )
    can_advance = serializers.BooleanField()
    can_resume = serializers.BooleanField()
    viewer = ViewerSerializer()


# --- battles ----------------------------------------------------------------------------------


class PostureSerializer(serializers.Serializer):
    posture = serializers.CharField()
    hand_size = serializers.IntegerField()


class VPEntrySerializer(serializers.Serializer):
    delta_axis = serializers.IntegerField()
    reason = serializers.CharField()
    rule = serializers.CharField()


class SetupSerializer(serializers.Serializer):
    map = serializers.IntegerField(allow_null=True)
    orientation = serializers.IntegerField(allow_null=True)
    vp_axis = serializers.IntegerField()
    vp_ledger = VPEntrySerializer(many=True)
    fielded = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    posture = serializers.DictField(child=PostureSerializer())
    totals = serializers.DictField(child=serializers.DictField(child=serializers.JSONField()))
    extras = serializers.DictField(child=serializers.JSONField())


class BattleDetailSerializer(serializers.Serializer):
    campaign = serializers.IntegerField()
    number = serializers.IntegerField()
    position = serializers.CharField()
    status = serializers.CharField()
    status_display = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True, help_text=_("The winning side's id."))
    winner_name = serializers.CharField(allow_null=True)
    result = serializers.DictField(child=serializers.JSONField())
    finished_at = serializers.DateTimeField(allow_null=True)
    setup = SetupSerializer(allow_null=True, help_text=_("The set-up as the battle page shows it."))
    can_play = serializers.BooleanField()
    can_correct = serializers.BooleanField()
    result_fields = serializers.ListField(child=serializers.CharField())
    decisions = DecisionSerializer(many=True)
    log = LogEntrySerializer(
        many=True,
        help_text=_(
            "The battle's latest entries (at most 30) in writing order; the whole battle log "
            "pages at GET /api/v1/campaigns/{id}/log/?battle={number}."
        ),
    )


class EventRequestSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=list(EVENTS))
    text = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=200, trim_whitespace=False
    )
    vp_delta = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        **b.form_range(b.VP_MARGIN),
        help_text=EventForm.base_fields["vp_delta"].help_text,
    )


class EventResponseSerializer(serializers.Serializer):
    event = LogEntrySerializer()
    battle = BattleBriefSerializer()


class RollRequestSerializer(serializers.Serializer):
    roll_kind = serializers.ChoiceField(choices=ROLL_KINDS, default="2d6")
    purpose = serializers.CharField(max_length=120)
    entered = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_(
            "The dice rolled at the table: the total (7), the faces ([3, 4]) or as typed "
            '("3,4"). Leave it out to let the site roll.'
        ),
    )

    def validate_entered(self, value):
        if value is None or value == "" or value == []:
            return None
        ok = (
            (isinstance(value, int) and not isinstance(value, bool))
            or (isinstance(value, str) and len(value) <= b.DICE_TEXT_MAX)
            or (
                isinstance(value, list)
                and len(value) <= 20
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            )
        )
        if not ok:
            raise serializers.ValidationError(
                _("Enter the dice as a number, a list of faces or text such as 3,4.")
            )
        return value


class RollOddsRowSerializer(serializers.Serializer):
    value = serializers.IntegerField()
    exactly = serializers.CharField(help_text=_("The exact probability, as a fraction."))
    at_least = serializers.CharField(help_text=_("The exact probability, as a fraction."))
    exactly_percent = serializers.FloatField()
    at_least_percent = serializers.FloatField()


class RollOddsSerializer(serializers.Serializer):
    kind = serializers.CharField()
    mean = serializers.FloatField()
    rows = RollOddsRowSerializer(many=True)


class RollResponseSerializer(serializers.Serializer):
    kind = serializers.CharField()
    purpose = serializers.CharField()
    rule = serializers.CharField()
    faces = serializers.ListField(child=serializers.IntegerField())
    total = serializers.IntegerField()
    source = serializers.CharField()
    odds = RollOddsSerializer()


class ResultRequestSerializer(serializers.Serializer):
    """The result form: `winner` always; the rest as the template's `result_fields` ask."""

    winner = serializers.IntegerField(help_text=_("The winning side's id."))
    method = serializers.ChoiceField(choices=WIN_METHODS, required=False)
    vp_margin = serializers.IntegerField(
        required=False, allow_null=True, **b.form_range(b.VP_MARGIN)
    )
    survivors_axis = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text=SURVIVORS_HELP,
        max_length=b.NOTES_MAX,
    )
    survivors_allies = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text=SURVIVORS_HELP,
        max_length=b.NOTES_MAX,
    )

    def form_data(self) -> dict[str, str]:
        """The validated body as the page's result form receives it."""
        return {k: "" if v is None else str(v) for k, v in self.validated_data.items()}


class CorrectionRequestSerializer(ResultRequestSerializer):
    reason = serializers.CharField(max_length=200)
    confirm = serializers.BooleanField(
        help_text=_("Must be true: undo the consequences applied so far and apply them again.")
    )


class CampaignActionSerializer(serializers.Serializer):
    detail = serializers.CharField()
    dashboard = DashboardSerializer()

from django.contrib.auth import get_user_model
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from campaigns.api.fields import DistinctListField
from campaigns.cc.labels import option_labels
from campaigns.i18n import say_entry
from campaigns.models import Campaign, Club, GameSystem, LogEntry, Side
from campaigns.models import bounds as b
from campaigns.services.cc_engine import can_answer


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


def campaign_club_field() -> serializers.SlugRelatedField:
    """A new campaign's club, by slug (optional): one the caller belongs to."""
    return serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text=_("The club the campaign belongs to (its slug); you must be a member."),
    )


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    system = serializers.ChoiceField(choices=GameSystem.choices)
    side_names = DistinctListField(
        child=serializers.CharField(max_length=80),
        min_length=2,
        max_length=8,
        help_text=_("Each side its own name (compared without case)."),
    )
    visibility = serializers.ChoiceField(
        choices=Campaign.Visibility.choices, default=Campaign.Visibility.PRIVATE
    )
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=b.DESCRIPTION_MAX
    )
    as_game_master = serializers.BooleanField(
        default=False, help_text=_("Run it as its neutral game master instead of playing a side.")
    )
    club = campaign_club_field()


class LogEntrySerializer(serializers.ModelSerializer):
    actor = UserSerializer(read_only=True)
    summary = serializers.SerializerMethodField(
        help_text=_("What happened, in the language the request asks for (Accept-Language).")
    )

    class Meta:
        model = LogEntry
        # `number`, not `seq`: the writing order would show gaps where another side's private
        # entries were written.
        fields = [
            "number",
            "kind",
            "summary",
            "rule",
            "data",
            "actor",
            "private_to",
            "created_at",
        ]

    def get_summary(self, entry: LogEntry) -> str:
        return say_entry(entry)


# A club's address is made from its name: the name needs a letter or digit it can keep.
CLUB_NAME = RegexValidator(
    r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*[A-Za-z0-9]"
    r"[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$",
    _("Give the club a name with letters or digits."),
    code="invalid",
)


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "created_at"]
        read_only_fields = ["slug", "created_at"]
        extra_kwargs = {
            "name": {"validators": [CLUB_NAME, UniqueValidator(queryset=Club.objects.all())]}
        }


class BattleSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    position = serializers.CharField()
    status = serializers.CharField()
    winner = serializers.CharField(source="winner.name", default=None)
    result = serializers.JSONField()
    finished_at = serializers.DateTimeField()


class OptionLabelSerializer(serializers.Serializer):
    value = serializers.JSONField(help_text=_("What to answer with."))
    label = serializers.CharField(help_text=_("The option in words."))


class DecisionSerializer(serializers.Serializer):
    """A decision; a sealed answer is shown only to its side until revealed.

    A roll decision (`is_roll`) is answered with the dice rolled at the table: the faces
    (`[3, 4]`), or the total.
    """

    id = serializers.IntegerField()
    key = serializers.CharField()
    rule = serializers.CharField()
    prompt = serializers.CharField(source="prompt_text")
    battle = serializers.IntegerField(
        source="battle.number", default=None, allow_null=True, help_text=_("The battle number.")
    )
    options = serializers.JSONField()
    option_labels = serializers.SerializerMethodField()
    min_choices = serializers.IntegerField()
    max_choices = serializers.IntegerField()
    is_roll = serializers.BooleanField()
    is_multiple = serializers.BooleanField()
    roll_kind = serializers.CharField()
    chooser = serializers.IntegerField(
        source="chooser_id",
        allow_null=True,
        help_text=_("The id of the side that answers; null when the players decide together."),
    )
    chooser_name = serializers.CharField(source="chooser.name", default=None, allow_null=True)
    sealed = serializers.BooleanField()
    revealed = serializers.SerializerMethodField()
    status = serializers.CharField()
    answer = serializers.SerializerMethodField()
    can_answer = serializers.SerializerMethodField()

    @extend_schema_field(OptionLabelSerializer(many=True))
    def get_option_labels(self, decision):
        """The options in words; another side's sealed choice keeps its bare values (its
        labels say what each option costs that side)."""
        if self._hidden(decision):
            return [{"value": o, "label": str(o)} for o in decision.options]
        return option_labels(decision)

    def _hidden(self, decision) -> bool:
        unrevealed = decision.sealed and decision.revealed_at is None
        return unrevealed and not self.context["viewer"].can_see_private(decision.chooser_id)

    def get_revealed(self, decision) -> bool:
        return not decision.sealed or decision.revealed_at is not None

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_answer(self, decision):
        return None if self._hidden(decision) else decision.answer

    def get_can_answer(self, decision) -> bool:
        return can_answer(self.context["viewer"], decision)


class AnswerSerializer(serializers.Serializer):
    answer = serializers.JSONField(
        validators=b.json_size(b.JSON_SMALL),
        help_text=_(
            "An option's value, a list of values, a number, or for a roll the dice faces "
            "([3, 4]) or their total."
        ),
    )

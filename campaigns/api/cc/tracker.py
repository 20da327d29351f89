"""The battle assistant in the API: a tracked battle's state, starting to track it, every
procedure (each with its own request schema in the OpenAPI document), live odds and undo —
the same services and permissions as the battle page (campaigns/views/cc_battle.py)."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from campaigns.api.errors import run
from campaigns.api.schema import REFUSALS
from campaigns.cc.battle.common import ACTING_SIDE, SIDE_FIELD
from campaigns.cc.battle.registry import PROCEDURES
from campaigns.cc.battle.spec import Context, Procedure
from campaigns.cc.labels import option_words
from campaigns.i18n import rule_text, say
from campaigns.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent_api
from campaigns.selectors.cc_tracker import (
    reader_context,
    result_draft,
    tracker_of,
    tracks,
    visible_state,
)
from campaigns.services.cc_battle import (
    battle_act,
    battle_action_undo,
    battle_counters_set,
    battle_tracker_start,
    read_counters,
)
from rules.cc.battle.readings import READING_NAMES
from rules.cc.battle.state import BattleMode
from rules.cc.common import Faction, Posture
from rules.errors import RuleError

from .battles import BATTLE, CC

TRACKER = BATTLE + "/tracker"
FACTIONS = [f.value for f in Faction]


def inputs_serializer(spec: Procedure, context: Context | None = None) -> type:
    """A serializer class for one procedure's inputs (its fields, bounded)."""
    fields = {f.name: f.api_field(context) for f in spec.fields}
    return type(f"{spec.key.capitalize()}Inputs", (serializers.Serializer,), fields)


def request_serializer(spec: Procedure) -> type:
    fields = {
        "procedure": serializers.ChoiceField(choices=[spec.key]),
        "inputs": inputs_serializer(spec)()
        if spec.fields
        else serializers.DictField(required=False, default=dict, help_text="No inputs."),
        "version": serializers.IntegerField(
            required=False,
            min_value=0,
            help_text="The tracker's version you saw; refused (409) if someone acted since.",
        ),
    }
    if not any(f.name == SIDE_FIELD for f in spec.fields):
        fields[ACTING_SIDE] = serializers.ChoiceField(
            choices=FACTIONS,
            required=False,
            help_text="A game master or organiser: the side this action is for (a player "
            "always acts for his own side).",
        )
    if spec.rolls:
        fields["dice"] = serializers.CharField(
            required=False,
            allow_blank=True,
            max_length=8 * spec.rolls + 20,
            help_text="Empty: the site rolls. Rolled at the table: white and coloured die of "
            "each card, cards apart with ';' (\"4 1; 6 2\").",
        )
    return type(f"{spec.key.capitalize()}Action", (serializers.Serializer,), fields)


REQUESTS = {key: request_serializer(spec) for key, spec in PROCEDURES.items()}
ACTION_REQUEST = PolymorphicProxySerializer(
    component_name="BattleProcedure",
    serializers=list(REQUESTS.values()),
    resource_type_field_name="procedure",
)


class ReadingsSerializer(serializers.Serializer):
    """The rule readings for this battle; a reading left out keeps the campaign's choice."""

    def get_fields(self):
        return {
            name: serializers.BooleanField(required=False, help_text=" — ".join(option_words(name)))
            for name in READING_NAMES
        }


class StartTrackingSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=[m.value for m in BattleMode], default="light")
    time = serializers.IntegerField(min_value=0, max_value=30, default=0)
    sudden_death = serializers.IntegerField(min_value=0, max_value=30)
    vp_axis = serializers.IntegerField(min_value=-999, max_value=999, default=0)
    initiative = serializers.ChoiceField(choices=FACTIONS)
    first_player = serializers.ChoiceField(choices=FACTIONS)
    postures = serializers.DictField(
        child=serializers.ChoiceField(choices=[p.value for p in Posture])
    )
    surrender = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=30))
    readings = ReadingsSerializer(required=False)

    def validate(self, attrs):
        for key in ("postures", "surrender"):
            if set(attrs[key]) != set(FACTIONS):
                raise serializers.ValidationError({key: _("Give one for each side: axis, allies.")})
        return attrs


class SideTrackSerializer(serializers.Serializer):
    faction = serializers.CharField()
    name = serializers.CharField()
    casualties = serializers.IntegerField()
    surrender = serializers.IntegerField(allow_null=True)
    posture = serializers.CharField()
    exited = serializers.IntegerField()
    deck = serializers.IntegerField(help_text="Cards in its Fate deck, as far as counted.")
    discard = serializers.IntegerField(help_text="Cards in its discard pile.")


class ChitLineSerializer(serializers.Serializer):
    owner = serializers.CharField(help_text="The side that drew it; empty for an open chit.")
    text = serializers.CharField(help_text='Its face, or "secret" to the other side.')
    secret = serializers.BooleanField()
    seen = serializers.BooleanField(help_text="Whether this reader sees its face.")


class ReadingLineSerializer(serializers.Serializer):
    rule = serializers.CharField()
    label = serializers.CharField()
    played = serializers.BooleanField()


class UnitLineSerializer(serializers.Serializer):
    side = serializers.CharField()
    text = serializers.CharField(help_text="Name (id): good order or broken, markers, Weapon.")


class TracksSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    mode = serializers.CharField()
    time = serializers.IntegerField()
    sudden_death = serializers.IntegerField()
    vp_axis = serializers.IntegerField()
    vp_text = serializers.CharField()
    initiative = serializers.CharField()
    active = serializers.CharField()
    sides = SideTrackSerializer(many=True)
    objectives = serializers.ListField(child=serializers.ListField())
    outcome = serializers.CharField()
    over = serializers.BooleanField()
    chits = ChitLineSerializer(many=True, help_text="Objective chits, as this reader may see.")
    cards = serializers.BooleanField(help_text="Whether the decks are counted yet.")
    melee_hexes = serializers.ListField(
        child=serializers.CharField(), help_text="Melee markers waiting for their turn."
    )
    urban_sniper = serializers.CharField(
        help_text="The side holding the Urban Sniper marker [ST-3.1]; empty when nobody."
    )
    readings = ReadingLineSerializer(
        many=True, help_text="Rule readings played otherwise than the seed's default."
    )
    units = UnitLineSerializer(many=True, help_text="Registered counters (tracked fully).")
    state = serializers.DictField(help_text="The whole state as the rules keep it.")
    result = serializers.DictField(
        help_text="Once over: the winner's side id and VP margin for the battle's result."
    )


class ActionSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    procedure = serializers.CharField()
    side = serializers.CharField()
    summary = serializers.CharField()
    shown = serializers.ListField(child=serializers.CharField())
    explanation = serializers.ListField(child=serializers.DictField())
    rolls = serializers.ListField(child=serializers.DictField())
    undone = serializers.BooleanField()


class ActionResponseSerializer(serializers.Serializer):
    action = ActionSerializer()
    tracks = TracksSerializer()


class CountersSerializer(serializers.Serializer):
    units = serializers.ListField(
        child=serializers.DictField(), max_length=500, help_text="One row per unit type."
    )
    weapons = serializers.ListField(
        child=serializers.DictField(), max_length=500, required=False, default=list
    )


class OddsRequestSerializer(serializers.Serializer):
    procedure = serializers.ChoiceField(choices=[k for k, p in PROCEDURES.items() if p.has_odds])
    inputs = serializers.DictField(help_text="The procedure's inputs, as for its action.")


class ProcedureOddsSerializer(serializers.Serializer):
    label = serializers.CharField()
    p = serializers.CharField(help_text="Exact fraction, e.g. 5/12.")
    percent = serializers.FloatField()


def _tracks_data(tracker, viewer) -> dict:
    view = tracks(tracker, viewer, tracker.battle.campaign)
    data = {
        k: getattr(view, k)
        for k in TracksSerializer().fields
        if k not in ("state", "sides", "result")
    }
    data["sides"] = [vars(s) for s in view.sides]
    data["state"] = visible_state(tracker, viewer, tracker.battle.campaign)
    data["result"] = result_draft(tracker, list(tracker.battle.campaign.sides.all()))
    return data


def _action_data(action) -> dict:
    result = action.result
    return {
        "seq": action.seq,
        "procedure": action.procedure,
        "side": action.side,
        "summary": say(result["summary"]),
        "shown": [say(m) for m in result.get("shown", [])],
        "explanation": [
            {**step, "text": say(step["msg"]) if step.get("msg") else step.get("text", "")}
            for step in result.get("explanation", [])
        ],
        "rolls": action.rolls,
        "undone": action.undone_at is not None,
    }


def _odds(p: Fraction, label) -> dict:
    return {"label": say(label), "p": str(p), "percent": round(float(p) * 100, 2)}


class CCTrackerActions:
    """Actions of the campaign viewset for a tracked Combat Commander battle."""

    def _tracked(self, request, number):
        campaign, _tpl, viewer, battle = self._battle(request, number)
        tracker = tracker_of(battle)
        if tracker is None:
            raise NotFound(_("This battle is not tracked yet: start tracking it first."))
        return campaign, viewer, battle, tracker

    @extend_schema(tags=CC, responses={200: TracksSerializer, 404: REFUSALS["404"]})
    @action(detail=True, methods=["get"], url_path=TRACKER)
    def tracker(self, request, pk=None, number=None):
        """The tracked battle: Time and Sudden Death, VP, casualties against Surrender, the
        Initiative card, Objectives, the outcome once over, and the version to act on."""
        _campaign, viewer, _battle, tracker = self._tracked(request, number)
        return Response(TracksSerializer(_tracks_data(tracker, viewer)).data)

    @extend_schema(
        tags=CC,
        request=StartTrackingSerializer,
        responses={201: TracksSerializer, **IDEMPOTENCY_RESPONSES},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @action(detail=True, methods=["post"], url_path=TRACKER + "/start")
    @idempotent_api
    def tracker_start(self, request, pk=None, number=None):
        """Start tracking the battle with the scenario's markers; players and game master."""
        _campaign, _tpl, viewer, battle = self._battle(request, number, play=True)
        body = StartTrackingSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tracker = run(
            battle_tracker_start, battle=battle, actor=request.user, **body.validated_data
        )
        return Response(
            TracksSerializer(_tracks_data(tracker, viewer)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        tags=CC,
        request=ACTION_REQUEST,
        responses={201: ActionResponseSerializer, **IDEMPOTENCY_RESPONSES},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @action(detail=True, methods=["post"], url_path=TRACKER + "/actions")
    @idempotent_api
    def tracker_act(self, request, pk=None, number=None):
        """Resolve one procedure (`procedure` names it; `inputs` as its schema says) with the
        site's dice or the dice rolled at the table; answers the result, its explanation with
        rule ids, and the new tracks. Each side acts for itself."""
        _campaign, _tpl, viewer, battle = self._battle(request, number, play=True)
        key = request.data.get("procedure") if isinstance(request.data, dict) else None
        if not isinstance(key, str) or key not in REQUESTS:
            raise serializers.ValidationError(
                {"procedure": [_("Choose one of: %(keys)s.") % {"keys": ", ".join(REQUESTS)}]}
            )
        body = REQUESTS[key](data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        done = run(
            battle_act,
            battle=battle,
            actor=request.user,
            procedure=key,
            inputs=dict(data["inputs"]),
            entered=data.get("dice", ""),
            version=data.get("version"),
            acting_side=data.get(ACTING_SIDE, ""),
        )
        tracker = tracker_of(battle)
        answer = {"action": _action_data(done), "tracks": _tracks_data(tracker, viewer)}
        return Response(ActionResponseSerializer(answer).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        tags=CC,
        request=OddsRequestSerializer,
        responses={200: ProcedureOddsSerializer(many=True)},
    )
    @action(detail=True, methods=["post"], url_path=TRACKER + "/odds")
    def tracker_odds(self, request, pk=None, number=None):
        """Exact odds of a procedure's rolls before rolling, for its inputs as far as they
        are known (`{"procedure": "recover", "inputs": {"units": "Squad; 7"}}`); changes
        nothing."""
        campaign, viewer, _battle, tracker = self._tracked(request, number)
        asked = OddsRequestSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        spec = PROCEDURES[asked.validated_data["procedure"]]
        context = reader_context(campaign, viewer, tracker)
        body = inputs_serializer(spec, context)(data=asked.validated_data["inputs"])
        body.is_valid(raise_exception=True)
        try:
            odds = spec.odds(body.validated_data, context)
        except RuleError as exc:
            raise serializers.ValidationError({"detail": [rule_text(exc)]}) from None
        return Response(
            ProcedureOddsSerializer([_odds(o.p, o.label) for o in odds], many=True).data
        )

    @extend_schema(
        tags=CC,
        request=None,
        responses={200: ActionSerializer, **IDEMPOTENCY_RESPONSES},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @action(detail=True, methods=["post"], url_path=TRACKER + "/undo")
    @idempotent_api
    def tracker_undo(self, request, pk=None, number=None):
        """Undo the last action still standing (its player, the organiser or the game master);
        the log keeps both."""
        _campaign, _tpl, _viewer, battle = self._battle(request, number, play=True)
        undone = run(battle_action_undo, battle=battle, actor=request.user)
        return Response(ActionSerializer(_action_data(undone)).data)

    @extend_schema(
        tags=CC,
        methods=["GET"],
        responses={200: CountersSerializer, 404: REFUSALS["404"]},
    )
    @extend_schema(
        tags=CC,
        methods=["PUT"],
        request=CountersSerializer,
        responses={200: CountersSerializer},
    )
    @action(detail=True, methods=["get", "put"], url_path=TRACKER + "/counters")
    def tracker_counters(self, request, pk=None, number=None):
        """The battle's counter table (values printed on the counters, per nationality):
        read it, or replace it (players and game master); every bad cell is named."""
        _campaign, _viewer, battle, tracker = self._tracked(request, number)
        if request.method == "GET":
            return Response(CountersSerializer(tracker.counters or {"units": []}).data)
        self._battle(request, number, play=True)
        body = CountersSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        counters = run(read_counters, data=dict(body.validated_data))
        tracker = run(battle_counters_set, battle=battle, actor=request.user, counters=counters)
        return Response(CountersSerializer(tracker.counters).data)

"""REST API for rosters (with their entries and history) and skirmish battles (with sealed
orders, casualties, results). Same services, selectors and permissions as the pages."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404, QueryDict
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.models import Campaign, Roster, RosterSystem, SkirmishBattle
from campaigns.permissions import (
    can_edit_roster,
    can_view_roster,
    can_view_skirmish,
    is_organiser,
    player_side,
)
from campaigns.rosters.engine import report
from campaigns.selectors.rosters import (
    battle_events,
    battle_orders,
    battles_for,
    roster_history,
    sealed_status,
    skirmish_detail,
    visible_rosters,
)
from campaigns.services import rosters as svc
from campaigns.services import skirmish as sk
from campaigns.views.rosters.battle_actions import ACTIONS, M1936_ACTIONS


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
    system = serializers.CharField(help_text=" or ".join(RosterSystem.values))
    name = serializers.CharField(max_length=120)
    campaign = serializers.PrimaryKeyRelatedField(
        queryset=Campaign.objects.all(), required=False, allow_null=True
    )
    squad_type = serializers.CharField(required=False, allow_blank=True, default="")
    faction = serializers.CharField(required=False, allow_blank=True, default="")
    role = serializers.CharField(required=False, allow_blank=True, default="")
    quality = serializers.CharField(required=False, allow_blank=True, default="")
    size = serializers.CharField(required=False, allow_blank=True, default="")
    defender_points = serializers.IntegerField(required=False, allow_null=True, default=None)


class RosterEditSerializer(serializers.Serializer):
    """Parabellum: soldier_id, field, value. 1936: op, profile / entry / upgrade / label."""

    soldier_id = serializers.CharField(required=False)
    field = serializers.CharField(required=False)
    value = serializers.JSONField(required=False, allow_null=True)
    op = serializers.CharField(required=False)
    profile = serializers.CharField(required=False)
    entry = serializers.IntegerField(required=False)
    upgrade = serializers.CharField(required=False)
    label = serializers.CharField(required=False, allow_blank=True)


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


class RosterViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Your rosters and those in campaigns you may see. Writes go through the services."""

    serializer_class = RosterSerializer
    filterset_fields = ["system", "campaign"]

    def get_queryset(self):
        return visible_rosters(self.request.user).order_by("-updated_at", "-id")

    def _mine(self) -> Roster:
        roster = self.get_object()
        if not can_edit_roster(self.request.user, roster):
            raise Http404
        return roster

    @extend_schema(request=RosterCreateSerializer, responses={201: RosterSerializer})
    def create(self, request, *args, **kwargs):
        data = RosterCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        roster = svc.roster_create(owner=request.user, **data.validated_data)
        return Response(RosterSerializer(roster).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RosterEditSerializer, responses=RosterSerializer)
    @action(detail=True, methods=["post"])
    def edit(self, request, pk=None):
        """One builder edit; the answer carries the validation (violations, points left)."""
        roster = self._mine()
        data = RosterEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        roster = svc.roster_edit(roster=roster, actor=request.user, edit=data.validated_data)
        return Response(RosterSerializer(roster).data)

    @extend_schema(request=OpenApiTypes.OBJECT, responses=RosterSerializer)
    @action(detail=True, methods=["post"], url_path="house-rules")
    def house_rules(self, request, pk=None):
        roster = self._mine()
        roster = svc.roster_house_rules_set(roster=roster, actor=request.user, options=request.data)
        return Response(RosterSerializer(roster).data)

    @extend_schema(responses=RosterChangeSerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request, pk=None):
        page = self.paginate_queryset(roster_history(self.get_object()))
        return self.get_paginated_response(RosterChangeSerializer(page, many=True).data)

    @extend_schema(request=None, responses=RosterSerializer)
    @action(detail=True, methods=["post"], url_path=r"history/(?P<seq>\d+)/undo")
    def undo(self, request, pk=None, seq=None):
        roster = self._mine()
        change = roster.changes.filter(seq=int(seq)).first()
        if change is None:
            raise Http404
        roster = svc.roster_revert(change=change, actor=request.user)
        return Response(RosterSerializer(roster).data)

    def get_object(self):
        obj = super().get_object()
        if not can_view_roster(self.request.user, obj):
            raise Http404
        return obj


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
    mode = serializers.CharField(required=False, allow_blank=True, default="")
    title = serializers.CharField(required=False, allow_blank=True, default="")


class SkirmishEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField()
    rule = serializers.CharField()
    data = serializers.JSONField()
    private = serializers.BooleanField(source="private_to_id")
    created_at = serializers.DateTimeField()


class DiceSerializer(serializers.Serializer):
    dice_mode = serializers.ChoiceField(choices=["server", "entered"], default="server")
    dice = serializers.CharField(required=False, allow_blank=True, default="")


ACTION_ARGS = {
    "join": ("roster",),
    "orders": ("priority_order", "directives"),
    "shoot": None,
    "assault": None,
    "grenade": None,
    "support": None,
    "casualty": None,
    "turn": ("turn", "po", "models"),
    "finish": (),
}


class SkirmishViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Skirmish battles you play or may see. Sealed orders are only in the answer for their
    own side (or everyone's once the battle is over)."""

    serializer_class = SkirmishBattleSerializer

    def get_queryset(self):
        user = self.request.user
        if not user.is_authenticated:
            return SkirmishBattle.objects.none()
        return battles_for(user)

    def get_object(self):
        try:
            battle = skirmish_detail(int(self.kwargs["pk"]))
        except (SkirmishBattle.DoesNotExist, ValueError):
            raise Http404 from None
        if not can_view_skirmish(self.request.user, battle):
            raise Http404
        return battle

    @extend_schema(request=BattleCreateSerializer, responses={201: SkirmishBattleSerializer})
    def create(self, request, *args, **kwargs):
        data = BattleCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        battle = sk.skirmish_create(
            creator=request.user,
            roster=d["roster"],
            role=d["role"],
            opponent=d["opponent"],
            mode=d["mode"],
            title=d["title"],
            campaign=d["roster"].campaign,
        )
        battle = skirmish_detail(battle.pk)
        return Response(
            SkirmishBattleSerializer(battle, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses=SkirmishEventSerializer(many=True))
    @action(detail=True, methods=["get"])
    def log(self, request, pk=None):
        battle = self.get_object()
        page = self.paginate_queryset(battle_events(request.user, battle))
        return self.get_paginated_response(SkirmishEventSerializer(page, many=True).data)

    @extend_schema(request=OpenApiTypes.OBJECT, responses=SkirmishBattleSerializer)
    @action(detail=True, methods=["post"], url_path=r"actions/(?P<name>[a-z0-9_]+)")
    def act(self, request, pk=None, name=None):
        """Run one battle action: join, orders, tactical, bombardment, shoot, assault,
        grenade (`launcher` for the M7), projector, support, casualty, turn, finish, apply,
        correct (`winner`: 0, 1 or null, `reason`), agree (`correction`).

        1936 battles, with the page forms' fields: scenario (`terrain`, `user_table`, dice),
        tie (`order`), plan (`sector`, `e0`…, `last_piece`), objectives, weather (`season`,
        dice), weather_change (`turn`, dice), construction (`waiting_days`), fortify (`kind`,
        `count`), morale (`u0`… a state per unit), performance (`purpose`, `value`: the result
        R, always entered, never rolled), bog (`unit`, `ground`, `value`), m36finish
        (`winner`: a side index or `draw`), conditions (`c0`, `d0`, `x0`… per unit).
        `dice_mode` is `server` unless `entered` with `dice`.

        Bad input is a 400 naming the field; nothing changes."""
        battle = self.get_object()
        if player_side(request.user, battle) is None and not (
            name in ("correct", "agree") and is_organiser(request.user, battle)
        ):
            raise Http404
        body = request.data
        kwargs = {"battle": battle, "actor": request.user}
        if name == "join":
            roster = Roster.objects.filter(pk=body.get("roster")).first()
            if roster is None:
                raise ValidationError({"roster": ["Choose one of your rosters."]})
            sk.skirmish_join(roster=roster, **kwargs)
        elif name == "orders":
            sk.skirmish_orders_submit(
                priority_order=body.get("priority_order"),
                directives=list(body.get("directives") or []),
                **kwargs,
            )
        elif name == "finish":
            sk.skirmish_finish(**kwargs)
        elif name == "turn":
            po = body.get("po")
            if not isinstance(po, list):
                raise ValidationError({"po": ["A list of the PO each side holds."]})
            models = body.get("models") or {}
            if not isinstance(models, dict):
                raise ValidationError({"models": ["An object: soldier → list of positions."]})
            sk.skirmish_turn_record(turn=_int(body, "turn"), po=po, models=models, **kwargs)
        elif name == "tactical":
            blue = body.get("blue")
            if not isinstance(blue, list) or len(blue) != 2:
                raise ValidationError({"blue": ["The blue tokens each player showed: [a, b]."]})
            sk.skirmish_tactical(turn=_int(body, "turn"), blue=tuple(blue), **kwargs)
        elif name == "correct":
            winner = body.get("winner")
            if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
                raise ValidationError({"winner": ["0, 1 or null for a draw."]})
            sk.skirmish_result_correct(
                winner_index=winner, reason=str(body.get("reason") or ""), **kwargs
            )
        elif name == "agree":
            sk.skirmish_result_agree(correction_id=_int(body, "correction"), **kwargs)
        elif name in M1936_ACTIONS:
            _run_page_action(name, request, battle, body)
        elif name in (
            "shoot",
            "assault",
            "grenade",
            "support",
            "apply",
            "casualty",
            "projector",
            "bombardment",
        ):
            _dispatch(name, body, kwargs)
        else:
            raise Http404
        battle = skirmish_detail(battle.pk)
        return Response(SkirmishBattleSerializer(battle, context={"request": request}).data)


def _run_page_action(name: str, request, battle, body) -> None:
    """Run an action of the pages' table: its form checks the body (a 400 naming the field,
    before anything changes), then its service runs with the form's arguments."""
    act = ACTIONS[name]
    if isinstance(body, QueryDict):
        data = body
    elif isinstance(body, dict):
        # JSON lists and objects (the Costa / Ciudad user table) reach the form as JSON text
        data = {k: json.dumps(v) if isinstance(v, list | dict) else v for k, v in body.items()}
    else:
        raise ValidationError({"detail": ["A JSON object of the action's fields."]})
    form = act.form(request, battle, data) if act.form else None
    if form is not None and "dice_mode" in form.fields and isinstance(data, dict):
        data.setdefault("dice_mode", "server")  # as for the other actions' dice
    if form is not None and not form.is_valid():
        raise ValidationError({k: list(v) for k, v in form.errors.items()})
    act.service(battle=battle, actor=request.user, **act.arguments(form, data))


def _int(body, key, default=None):
    value = body.get(key, default)
    if isinstance(value, bool):
        raise ValidationError({key: ["A whole number."]})
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        raise ValidationError({key: ["A whole number."]}) from None


def _float(body, key):
    try:
        return float(body.get(key))
    except (TypeError, ValueError):
        raise ValidationError({key: ["A number of centimetres."]}) from None


def _dispatch(name: str, body, kwargs) -> None:
    dice_data = DiceSerializer(data=body)
    dice_data.is_valid(raise_exception=True)
    dice = sk.dice_from(dice_data.validated_data["dice_mode"], dice_data.validated_data["dice"])
    flags = lambda *keys: {k: bool(body.get(k)) for k in keys}  # noqa: E731
    if name == "apply":
        sk.skirmish_apply_house_rules(dice=dice, **kwargs)
    elif name == "casualty":
        sk.skirmish_casualty(
            soldier=str(body.get("soldier", "")),
            turn=_int(body, "turn"),
            cause=str(body.get("cause") or "other"),
            healed_turn=_int(body, "healed_turn"),
            remove=bool(body.get("remove")),
            **kwargs,
        )
    elif name == "shoot":
        sk.skirmish_shoot(
            turn=_int(body, "turn"),
            shooter=str(body.get("shooter", "")),
            target=str(body.get("target", "")),
            hit_the_dirt=bool(body.get("hit_the_dirt")),
            dice=dice,
            distance_cm=_float(body, "distance_cm"),
            cover=str(body.get("cover") or "none"),
            target_double_time_cm=body.get("target_double_time_cm"),
            **flags("reaction", "aimed", "target_suppressed", "mg42_assisted"),
            **kwargs,
        )
    elif name == "assault":
        sk.skirmish_assault(
            turn=_int(body, "turn"),
            attacker=str(body.get("attacker", "")),
            defender=str(body.get("defender", "")),
            dice=dice,
            movement=str(body.get("movement") or "cautious"),
            second_defender=str(body.get("second_defender") or ""),
            mg_assistant=str(body.get("mg_assistant") or ""),
            **flags("defender_suppressed", "heavy_cover", "marked", "second_suppressed"),
            **kwargs,
        )
    elif name == "grenade":
        sk.skirmish_grenade(
            turn=_int(body, "turn"),
            thrower=str(body.get("thrower", "")),
            distance_cm=_float(body, "distance_cm"),
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            dice=dice,
            **flags("moved", "los_to_marker", "launcher"),
            **kwargs,
        )
    elif name == "projector":
        sk.skirmish_projector(
            turn=_int(body, "turn"),
            firer=str(body.get("firer", "")),
            distance_cm=_float(body, "distance_cm"),
            moved=bool(body.get("moved")),
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            dice=dice,
            **kwargs,
        )
    elif name == "bombardment":
        sk.skirmish_bombardment(
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            dice=dice,
            **kwargs,
        )
    else:
        sk.skirmish_support(
            turn=_int(body, "turn"),
            kind=str(body.get("kind", "")),
            po=_int(body, "po", 0) or 0,
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            radio_operator=bool(body.get("radio_operator")),
            dice=dice,
            **kwargs,
        )


__all__ = ["RosterViewSet", "SkirmishViewSet", "permissions"]


def register(router) -> None:
    """Add this module's viewsets to the API router."""
    router.register("rosters", RosterViewSet, basename="api-roster")
    router.register("skirmishes", SkirmishViewSet, basename="api-skirmish")

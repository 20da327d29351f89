"""Skirmish battles: create, read (sealed orders only for their side), log and actions."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.api.rosters.dispatch import (
    dispatch_action,
    int_field,
    odds_preview,
    run_page_action,
)
from campaigns.api.rosters.form_schema import form_serializer
from campaigns.api.rosters.serializers import (
    BattleCreateSerializer,
    OddsSerializer,
    PlaySummarySerializer,
    SkirmishBattleSerializer,
    SkirmishEventSerializer,
)
from campaigns.models import Roster, SkirmishBattle
from campaigns.permissions import (
    can_view_skirmish,
    is_organiser,
    player_side,
)
from campaigns.selectors.rosters import (
    battle_events,
    battles_for,
    skirmish_detail,
)
from campaigns.selectors.skirmish_play import play_summary
from campaigns.services import skirmish as sk
from campaigns.views.rosters.battle_actions import ACTIONS, check_game, previewed


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

    @extend_schema(responses={200: PlaySummarySerializer, 409: None})
    @action(detail=True, methods=["get"])
    def state(self, request, pk=None):
        """What the table needs now, as on the top of the battle page: turn, phase, whose
        move and what may react, each side's score and points left, the units' states
        (another side's hidden units only as tokens). 409 before the battle is played."""
        battle = self.get_object()
        sides = list(battle.sides.select_related("player").order_by("index"))
        summary = play_summary(battle, sides, player_side(request.user, battle))
        if summary is None:
            return Response(
                {"detail": _("The battle is not being played.")}, status=status.HTTP_409_CONFLICT
            )
        return Response(PlaySummarySerializer(summary).data)

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OddsSerializer)
    @action(detail=True, methods=["post"], url_path=r"odds/(?P<name>[a-z0-9_]+)")
    def odds(self, request, pk=None, name=None):
        """The exact odds before rolling, from the same fields as the action (dice not
        needed). Parabellum: shoot, assault, grenade, projector, support; 1936: m36fire (the
        outcome for each performance result R, vehicles' severe damage odds), m36assault,
        m36bombard (deviation), m36initiative (the tie roll). Nothing changes."""
        battle = self.get_object()
        if player_side(request.user, battle) is None or not previewed(name, battle):
            raise Http404
        preview = odds_preview(name, request, battle, request.data)
        lines = [{"label": str(label), "value": str(value)} for label, value in preview.lines]
        return Response(OddsSerializer({"lines": lines}).data)

    def run_action(self, request, name: str):
        """Run one battle action (see `install_actions` for the bodies). Bad input is a 400
        naming the field; nothing changes."""
        battle = self.get_object()
        if player_side(request.user, battle) is None and not (
            name in ("correct", "agree") and is_organiser(request.user, battle)
        ):
            raise Http404
        check_game(name, battle)
        body = request.data
        kwargs = {"battle": battle, "actor": request.user}
        if name == "join":
            roster = Roster.objects.filter(pk=body.get("roster")).first()
            if roster is None:
                raise ValidationError({"roster": [_("Choose one of your rosters.")]})
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
                raise ValidationError({"po": [_("A list of the PO each side holds.")]})
            models = body.get("models") or {}
            if not isinstance(models, dict):
                raise ValidationError({"models": [_("An object: soldier → list of positions.")]})
            sk.skirmish_turn_record(turn=int_field(body, "turn"), po=po, models=models, **kwargs)
        elif name == "tactical":
            blue = body.get("blue")
            if not isinstance(blue, list) or len(blue) != 2:
                raise ValidationError({"blue": [_("The blue tokens each player showed: [a, b].")]})
            sk.skirmish_tactical(turn=int_field(body, "turn"), blue=tuple(blue), **kwargs)
        elif name == "correct":
            winner = body.get("winner")
            if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
                raise ValidationError({"winner": [_("0, 1 or null for a draw.")]})
            sk.skirmish_result_correct(
                winner_index=winner, reason=str(body.get("reason") or ""), **kwargs
            )
        elif name == "agree":
            sk.skirmish_result_agree(correction_id=int_field(body, "correction"), **kwargs)
        elif name in DISPATCHED:
            dispatch_action(name, body, kwargs)
        else:
            run_page_action(name, request, battle, body)
        battle = skirmish_detail(battle.pk)
        return Response(SkirmishBattleSerializer(battle, context={"request": request}).data)


# Actions whose API body has its own shape (lists, a soldier → positions object); the others
# take their page form's fields, documented in the schema.
SPECIAL = ("join", "orders", "finish", "turn", "tactical", "correct", "agree")
DISPATCHED = (
    "shoot",
    "assault",
    "grenade",
    "support",
    "apply",
    "casualty",
    "projector",
    "bombardment",
)
SPECIAL_DOC = {
    "join": _("Join with one of your rosters: `roster` (its id)."),
    "orders": _(
        "Seal your orders (orders game): `priority_order` 1–3, or null for a card drawn by "
        "the server; `directives`: two of 1–6."
    ),
    "finish": _("End a Parabellum battle after turn 5: sealed orders revealed, VP scored."),
    "turn": _(
        "Positions at the end of a turn: `turn`, `po` (the PO each side holds, [a, b]), "
        '`models` ("side:soldier" → list of position flags).'
    ),
    "tactical": _("Tactical phase: `turn`, `blue` (the blue tokens each player showed, [a, b])."),
    "correct": _("Correct a finished result: `winner` 0, 1 or null (draw), `reason`."),
    "agree": _("Agree with the correction the other player proposed: `correction` (its id)."),
}


def _install(name: str) -> None:
    act = ACTIONS.get(name)
    form_class = getattr(act.form, "form_class", None) if act else None
    if name in SPECIAL or form_class is None:
        request_schema = OpenApiTypes.OBJECT
        description = str(SPECIAL_DOC.get(name, "")) or (
            "Parabellum: the fields of the battle page's form of the same name; dice as "
            "`dice_mode` (server / entered) and `dice`."
        )
    else:
        request_schema = form_serializer(name, form_class)
        description = (form_class.__doc__ or "").strip()

    def run(self, request, pk=None):
        return self.run_action(request, name)

    run.__name__ = f"action_{name}"
    run.__doc__ = description
    view = extend_schema(
        request=request_schema,
        responses=SkirmishBattleSerializer,
        operation_id=f"skirmishes_action_{name}",
    )(
        action(
            detail=True, methods=["post"], url_path=f"actions/{name}", url_name=f"action-{name}"
        )(run)
    )
    setattr(SkirmishViewSet, f"action_{name}", view)


for _name in dict.fromkeys([*ACTIONS, *SPECIAL]):
    _install(_name)

"""Fire and morale in the turn (the resolve page): fire with its live preview, fire results
applied by the target's owner, morale checks, recovery, a unit's mode and marker.

`/tcs/resolve/{side}/` is one side's panel (404 to anyone who may not see that side);
`/tcs/combats/` lists what the caller may see: every fire (public, as at the table) and its
own sides' checks and recoveries; what a target's owner applied stays his.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.api.tcs.common import CAMPAIGN_PARAM, body, campaign_filter, checked, load_side, run
from campaigns.i18n import say, say_step
from campaigns.ids import as_id
from campaigns.models import Side
from campaigns.models.tcs import TcsCombat
from campaigns.permissions import viewer_context, visible_campaigns
from campaigns.selectors.tcs_combat import (
    FIRE_KINDS,
    owner_of,
    recent,
    to_apply,
    units_in_play,
)
from campaigns.services import tcs as svc
from campaigns.services.tcs.fire import preview
from campaigns.tcs import forms as tf
from campaigns.tcs.combat_words import combat_result, combat_title, result_text
from rules.tcs.fire import result_words

DICE_VALUES = ["server", "entered"]
ACTION_VALUES = ["sfa", "pfa", "overwatch", ""]
EVENT_VALUES = ["movement", "fire", "recovery", "final"]
TERRAIN_VALUES = ["billiard_table", "open", "partly_protective", "protective"]
LINES = gettext_lazy("A list of lines, or one text with a line per unit (as on the page).")


class TcsCombatSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text=gettext_lazy("area_fire, point_fire, at_rolls, …"))
    title = serializers.CharField()
    rule = serializers.CharField()
    turn = serializers.IntegerField()
    side = serializers.IntegerField()
    target_side = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text=gettext_lazy("open: the target's owner applies it."))
    result_words = serializers.CharField()
    result = serializers.JSONField()
    explanation = serializers.ListField(child=serializers.JSONField())
    applied = serializers.JSONField(help_text=gettext_lazy("Only for the target's own side."))


class TcsFireRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["area", "point", "at"])
    action = serializers.ChoiceField(
        choices=ACTION_VALUES,
        required=False,
        help_text=gettext_lazy("SFA [13], PFA [14], overwatch [15]; empty: not checked."),
    )
    event = serializers.ChoiceField(choices=EVENT_VALUES, required=False)
    firers = serializers.ListField(child=serializers.CharField(), help_text=LINES)
    targets = serializers.ListField(child=serializers.CharField(), help_text=LINES)
    terrain = serializers.ChoiceField(choices=TERRAIN_VALUES)
    spotted = serializers.BooleanField(required=False)
    road_movement = serializers.BooleanField(required=False)
    other = serializers.CharField(required=False, help_text=gettext_lazy("“name; shift” lines."))
    terrain_shift = serializers.IntegerField(required=False)
    range_shift = serializers.IntegerField(required=False)
    stacking_shift = serializers.IntegerField(required=False)
    differential_shift = serializers.IntegerField(required=False)
    at_value = serializers.IntegerField(required=False)
    distance = serializers.ChoiceField(choices=["0", "1"], required=False)
    attacking_steps = serializers.IntegerField(required=False)
    dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    rolls = serializers.CharField(
        required=False, help_text=gettext_lazy("The d66 (fire) or the 2d6 totals (AT rolls).")
    )


class TcsCheckFieldsSerializer(serializers.Serializer):
    units = serializers.ListField(child=serializers.IntegerField(), required=False)
    dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    roll = serializers.CharField(required=False, help_text=gettext_lazy("The d66, e.g. 46."))
    result = serializers.ChoiceField(
        choices=["none", "suppressed", "paralyzed", "syr", "surrender"],
        required=False,
        help_text=gettext_lazy("Read off the printed Morale Table (no table entered)."),
    )
    night = serializers.IntegerField(required=False)
    crossfire = serializers.IntegerField(required=False)
    terrain_modifier = serializers.IntegerField(required=False)
    in_assault = serializers.BooleanField(required=False)
    assault_choice = serializers.ChoiceField(choices=["retreat", "step_loss"], required=False)
    artillery_air_phase = serializers.BooleanField(required=False)
    syr_as_paralyzed = serializers.ChoiceField(choices=["yes", "no"], required=False)
    largest_choice = serializers.CharField(required=False)


class TcsMoraleCheckRequestSerializer(TcsCheckFieldsSerializer):
    cause = serializers.ChoiceField(
        choices=["fire", "assault", "unassigned", "night", "artillery", "minefield", "other"]
    )


class TcsApplyRequestSerializer(TcsCheckFieldsSerializer):
    losses = serializers.DictField(
        child=serializers.IntegerField(), help_text=gettext_lazy("Unit id → steps lost.")
    )
    vehicle_dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    vehicle_rolls = serializers.CharField(required=False)


class TcsRecoverRequestSerializer(serializers.Serializer):
    units = serializers.ListField(child=serializers.IntegerField())
    in_artillery_zone = serializers.BooleanField(required=False)


class TcsPanelSerializer(serializers.Serializer):
    side = serializers.IntegerField()
    to_apply = TcsCombatSerializer(many=True)
    recent = TcsCombatSerializer(many=True)
    units = serializers.ListField(child=serializers.JSONField())


class TcsPreviewSerializer(serializers.Serializer):
    column = serializers.IntegerField(allow_null=True)
    odds = serializers.ListField(child=serializers.JSONField())
    explanation = serializers.ListField(child=serializers.JSONField())


def combat_data(combat: TcsCombat, *, own: bool) -> dict:
    result = {k: v for k, v in combat.result.items() if k != "explanation"}
    return {
        "id": combat.pk,
        "kind": combat.kind,
        "title": combat_title(combat),
        "rule": combat.rule,
        "turn": combat.turn,
        "side": combat.side_id,
        "target_side": combat.target_side_id,
        "status": combat.status,
        "result_words": combat_result(combat),
        "result": result,
        "explanation": [
            {"rule": s.get("rule", ""), "text": say_step(s)}
            for s in combat.result.get("explanation", [])
        ],
        "applied": combat.applied if own else {},
    }


def unit_data(u) -> dict:
    return {
        "id": u.pk,
        "code": u.code,
        "steps_left": u.steps_left,
        "morale": u.morale,
        "morale_state": u.morale_state,
        "mode": u.mode,
        "dug_in": u.dug_in,
        "eliminated": u.eliminated,
    }


def _lines(data, *names) -> None:
    for name in names:
        value = data.get(name)
        if isinstance(value, list):
            data[name] = "\n".join(value)


def _answer(text, combat, code=status.HTTP_201_CREATED):
    return Response({"detail": text, "combat": combat_data(combat, own=True)}, status=code)


@extend_schema_view(retrieve=extend_schema(responses=TcsPanelSerializer))
class ResolveViewSet(viewsets.GenericViewSet):
    """One side's resolve panel; `{id}` is the side."""

    serializer_class = TcsPanelSerializer
    queryset = Side.objects.none()
    permission_classes = [IsAuthenticated]

    def retrieve(self, request, pk=None):
        """What the side must apply, the latest procedures it may see, its units."""
        campaign, viewer, side = load_side(request, pk)
        return Response(
            {
                "side": side.pk,
                "to_apply": [combat_data(c, own=True) for c in to_apply(side)],
                "recent": [
                    combat_data(s.combat, own=s.own) for s in recent(campaign, viewer, side)
                ],
                "units": [unit_data(u) for u in units_in_play(side)],
            }
        )

    @extend_schema(request=TcsFireRequestSerializer, responses={201: TcsCombatSerializer})
    @action(detail=True, methods=["post"])
    def fire(self, request, pk=None):
        """Area fire [11], point fire [12] or AT rolls [16] on the operation's charts; a
        chart value not entered is asked for on its `*_shift` field (400)."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        data = body(request, lists=("firers", "targets"), dice=True)
        _lines(data, "firers", "targets")
        d = checked(tf.FireForm(data))
        combat = run(
            svc.tcs_fire_resolve,
            side=side,
            actor=request.user,
            order=d["order"],
            rolls=d["rolls_list"],
        )
        return _answer(_("Fire resolved: %(r)s") % {"r": result_text(combat)}, combat)

    @extend_schema(request=TcsFireRequestSerializer, responses=TcsPreviewSerializer)
    @action(detail=True, methods=["post"])
    def preview(self, request, pk=None):
        """The column, the shifts and the exact odds before the roll (area and point fire)."""
        campaign, _viewer, _side = load_side(request, pk)
        data = body(request, lists=("firers", "targets"), dice=True)
        _lines(data, "firers", "targets")
        d = checked(tf.FireForm(data))
        if d["kind"] == "at":
            raise ValidationError({"kind": [_("AT rolls show their chance once rolled.")]})
        result = run(preview, order=d["order"], campaign=campaign)
        return Response(
            {
                "column": result.column,
                "odds": [
                    {"result": say(result_words(cell)), "chance": str(p), "percent": float(p) * 100}
                    for cell, p in result.odds.items()
                ],
                "explanation": [{"rule": s.rule, "text": say(s.text)} for s in result.explanation],
            }
        )

    def _stack_form(self, form_class, request, side):
        data = body(request, lists=("units",), dice=True)
        return form_class(units_in_play(side), data)

    @extend_schema(request=TcsMoraleCheckRequestSerializer, responses={201: TcsCombatSerializer})
    @action(detail=True, methods=["post"], url_path="morale-check")
    def morale_check(self, request, pk=None):
        """A stack's morale check [17.2] and its consequences on the side's units."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        form = self._stack_form(tf.MoraleCheckForm, request, side)
        d = checked(form)
        combat = run(
            svc.tcs_morale_check,
            side=side,
            actor=request.user,
            units=form.chosen(),
            check=form.check(d["cause"]),
        )
        return _answer(_("Morale check: %(r)s") % {"r": combat.result["result_words"]}, combat)

    @extend_schema(request=TcsRecoverRequestSerializer, responses={201: TcsCombatSerializer})
    @action(detail=True, methods=["post"])
    def recover(self, request, pk=None):
        """Voluntary recovery [17.7] of a stack."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        form = self._stack_form(tf.RecoverForm, request, side)
        d = checked(form)
        combat = run(
            svc.tcs_recover,
            side=side,
            actor=request.user,
            units=form.chosen(),
            in_artillery_zone=d.get("in_artillery_zone", False),
        )
        return _answer(_("The stack recovers one level [17.7]."), combat)


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class CombatViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Procedures resolved in the turn that the caller may see, newest first."""

    serializer_class = TcsCombatSerializer
    permission_classes = [IsAuthenticated]

    def _own_ids(self) -> set[int]:
        user = self.request.user
        sides = Side.objects.filter(campaign__in=visible_campaigns(user).filter(system="tcs"))
        return {
            s.pk
            for s in sides.select_related("campaign")
            if (v := viewer_context(user, s.campaign)).is_gm or s.pk in v.side_ids
        }

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return TcsCombat.objects.none()
        campaigns = visible_campaigns(self.request.user).filter(system="tcs")
        own = self._own_ids()
        qs = TcsCombat.objects.filter(campaign__in=campaigns).filter(
            Q(kind__in=FIRE_KINDS) | Q(side_id__in=own)
        )
        return campaign_filter(self.request, qs.order_by("-created_at", "-id"))

    def list(self, request, *args, **kwargs):
        own = self._own_ids()
        page = self.paginate_queryset(self.get_queryset())
        data = [combat_data(c, own=owner_of(c) in own) for c in page]
        return self.get_paginated_response(data)

    def retrieve(self, request, *args, **kwargs):
        combat = self.get_object()
        return Response(combat_data(combat, own=owner_of(combat) in self._own_ids()))

    @extend_schema(request=TcsApplyRequestSerializer, responses=TcsCombatSerializer)
    @action(detail=True, methods=["post"])
    def apply(self, request, pk=None):
        """The target's owner applies a fire result: `losses` (unit id → steps) as split by
        10.0.f, then the morale check it forces on `units` [17.0.b]. Applied once."""
        combat = self.get_object()
        if combat.target_side_id is None:
            raise NotFound
        _campaign, _viewer, side = load_side(request, combat.target_side_id, act=True)
        if combat.status != TcsCombat.Status.OPEN:
            raise ValidationError(
                {"detail": [_("This fire result was already applied: nothing was changed.")]}
            )
        data = body(request, lists=("units",), objects=("losses",), dice=True)
        losses = request.data.get("losses") if isinstance(request.data, dict) else None
        if not isinstance(losses, dict):
            raise ValidationError(
                {"losses": [_("Give the steps each unit loses: {unit id: steps}.")]}
            )
        units = units_in_play(side)
        known = {str(u.pk) for u in units}
        for key, steps in losses.items():
            if as_id(key) is None or str(key) not in known:
                raise ValidationError({"losses": [_("Choose units of this side.")]})
            data[f"loss_{key}"] = steps
        form = tf.FireApplyForm(units, data, artillery=combat.kind == "artillery")
        try:
            d = checked(form)
        except ValidationError as exc:  # a unit's steps are refused under `losses`
            errors = {}
            for key, texts in exc.detail.items():
                errors.setdefault("losses" if key.startswith("loss_") else key, []).extend(texts)
            raise ValidationError(errors) from None
        combat = run(
            svc.tcs_fire_apply,
            combat=combat,
            actor=request.user,
            losses=form.losses(),
            units=form.chosen(),
            check=form.check("fire"),
            rolls=d.get("vehicle_rolls_list"),
        )
        return Response(combat_data(combat, own=True))

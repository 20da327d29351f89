"""Minefields in the API [21], on the page's forms and services: `/tcs/minefields/{side}/`
reads the operation's markers (public once on the map) with the side's granted counts and
latest attacks; its actions place a marker [21.1], show the exact odds of entering, resolve
the side's own units entering a minefield hex [21.0.b, 21.2] and a breach attempt [21.3].

Another side's page answers 404, acting for a side one does not play 403; an
`Idempotency-Key` header makes a repeat apply once.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.api.tcs.combat import TcsCheckFieldsSerializer, combat_data, unit_data
from campaigns.api.tcs.common import body, checked, load_side, run
from campaigns.i18n import say
from campaigns.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent_api
from campaigns.ids import as_id
from campaigns.models import Side
from campaigns.selectors.tcs_combat import units_in_play
from campaigns.selectors.tcs_minefields import markers, recent_attacks, sheet_grants
from campaigns.services.tcs import minefields as mines
from campaigns.tcs.combat_words import minefield_text
from campaigns.tcs.form_actions import minefield_card
from campaigns.tcs.forms.minefields import BreachForm, EnterForm, PlaceForm
from rules.tcs.minefields import MinefieldMarker

MOVEMENT_VALUES = ["foot", "vehicle"]
FIRE_RESULT_VALUES = ["none", "check", *[str(n) for n in range(1, 21)]]
WRITE = {"parameters": [IDEMPOTENCY_PARAMETER]}


class TcsMinefieldSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    hex = serializers.CharField()
    breached = serializers.BooleanField()
    source = serializers.CharField(help_text=gettext_lazy("pregame, or sheet:<op sheet id> [21.1]"))
    side = serializers.IntegerField()


class TcsMinefieldPanelSerializer(serializers.Serializer):
    side = serializers.IntegerField()
    minefields = TcsMinefieldSerializer(many=True)
    grants = serializers.ListField(child=serializers.JSONField())
    recent = serializers.ListField(child=serializers.JSONField())
    units = serializers.ListField(child=serializers.JSONField())


class TcsMinefieldPlaceRequestSerializer(serializers.Serializer):
    hex = serializers.CharField()
    source = serializers.CharField(
        help_text=gettext_lazy("pregame, or the id of a Prepared Defense sheet")
    )
    near_platoons = serializers.BooleanField(required=False)
    far_from_enemy = serializers.BooleanField(required=False)
    enemy_may_deploy = serializers.BooleanField(required=False)
    enemy_set_up_first = serializers.BooleanField(required=False)


class TcsMineAttackFieldsSerializer(TcsCheckFieldsSerializer):
    minefield = serializers.IntegerField()
    stacking_shift = serializers.IntegerField(required=False)
    fire_result = serializers.ChoiceField(
        choices=FIRE_RESULT_VALUES,
        required=False,
        help_text=gettext_lazy("Read off the printed Fire Table (no table entered)."),
    )
    rolls = serializers.CharField(
        required=False,
        help_text=gettext_lazy(
            "In order: the d66, one 2d6 total per vehicle step, any vehicle morale d6."
        ),
    )
    first_step_choice = serializers.CharField(required=False)
    losses = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text=gettext_lazy(
            "Unit id → steps, when several units on foot share the loss [10.0.f]."
        ),
    )


class TcsMinefieldEnterRequestSerializer(TcsMineAttackFieldsSerializer):
    units = serializers.DictField(
        child=serializers.ChoiceField(choices=MOVEMENT_VALUES),
        help_text=gettext_lazy("Unit id → how it enters: foot or vehicle [21.0.b]."),
    )
    retreat = serializers.BooleanField(required=False)
    assault = serializers.BooleanField(required=False)


class TcsMinefieldBreachRequestSerializer(TcsMineAttackFieldsSerializer):
    units = serializers.ListField(child=serializers.IntegerField())
    began_adjacent = serializers.BooleanField(required=False)
    idle = serializers.BooleanField(required=False)
    dismounted = serializers.BooleanField(required=False)
    enemy_in_hex = serializers.BooleanField(required=False)
    gone = serializers.ListField(child=serializers.IntegerField(), required=False)


class TcsMinefieldOddsSerializer(serializers.Serializer):
    odds = serializers.ListField(child=serializers.JSONField())
    explanation = serializers.ListField(child=serializers.JSONField())


def _objects(request, data, units, names) -> None:
    """`{unit id: value}` objects of the body as the page form's per-unit fields."""
    raw = request.data if isinstance(request.data, dict) else {}
    known = {str(u.pk) for u in units if not u.eliminated}
    for name, prefix in names:
        value = raw.get(name)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise ValidationError({name: [_("Give {unit id: value}.")]})
        for key, item in value.items():
            if as_id(key) is None or str(key) not in known:
                raise ValidationError({name: [_("Choose units of this side.")]})
            data[f"{prefix}{key}"] = item


def _panel(campaign, side) -> dict:
    return {
        "side": side.pk,
        "minefields": markers(campaign),
        "grants": [
            {
                "sheet": g["sheet"].pk,
                "code": g["sheet"].code,
                **{k: g[k] for k in g if k != "sheet"},
            }
            for g in sheet_grants(campaign, side)
        ],
        "recent": [
            {**combat_data(c, own=True), "result_words": minefield_text(c)}
            for c in recent_attacks(side)
        ],
        "units": [unit_data(u) for u in units_in_play(side)],
    }


@extend_schema_view(retrieve=extend_schema(responses=TcsMinefieldPanelSerializer))
class MinefieldViewSet(viewsets.GenericViewSet):
    """The minefields of a side's operation; `{id}` is the side."""

    serializer_class = TcsMinefieldPanelSerializer
    queryset = Side.objects.none()
    permission_classes = [IsAuthenticated]

    def retrieve(self, request, pk=None):
        """The markers on the map, the side's granted counts, its latest attacks, units."""
        campaign, _viewer, side = load_side(request, pk)
        return Response(_panel(campaign, side))

    def _answer(self, text, campaign, side, status=201):
        campaign.refresh_from_db()
        return Response({"detail": text, **_panel(campaign, side)}, status=status)

    @extend_schema(
        request=TcsMinefieldPlaceRequestSerializer,
        responses={201: TcsMinefieldPanelSerializer, **IDEMPOTENCY_RESPONSES},
        **WRITE,
    )
    @action(detail=True, methods=["post"])
    @idempotent_api
    def place(self, request, pk=None):
        """A marker at set-up, or from a Prepared Defense sheet (only its granted count,
        `near_platoons` and `far_from_enemy` confirmed) [21.1]."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        form = PlaceForm(sheet_grants(campaign, side), body(request))
        checked(form)
        text = run(minefield_card, action="place", form=form, side=side, user=request.user)
        return self._answer(text, campaign, side)

    def _enter_form(self, request, campaign, side):
        units = units_in_play(side)
        data = body(request, objects=("units", "losses"), dice=True)
        _objects(request, data, units, (("units", "move_"), ("losses", "loss_")))
        return EnterForm(units, markers(campaign), data)

    @extend_schema(request=TcsMinefieldEnterRequestSerializer, responses=TcsMinefieldOddsSerializer)
    @action(detail=True, methods=["post"])
    def preview(self, request, pk=None):
        """The exact odds of entering, before any die [21.0.b]."""
        campaign, _viewer, side = load_side(request, pk)
        form = self._enter_form(request, campaign, side)
        d = checked(form)
        steps = {u.code: u.steps_left for u in units_in_play(side)}
        marker = MinefieldMarker.from_dict(form.rows[d["minefield"]])
        attack = run(
            mines.preview,
            campaign=campaign,
            marker=marker,
            entry=form.entry(form.moves()),
            steps=steps,
        )
        odds = []
        if attack.foot is not None:
            odds += [
                {"unit": "", "result": str(cell), "chance": str(p), "percent": float(p) * 100}
                for cell, p in attack.foot.odds.items()
            ]
        odds += [
            {"unit": unit, "result": str(k), "chance": str(p), "percent": float(p) * 100}
            for unit, chances in attack.vehicle_odds.items()
            for k, p in chances.items()
        ]
        return Response(
            {
                "odds": odds,
                "explanation": [{"rule": s.rule, "text": say(s.text)} for s in attack.explanation],
            }
        )

    @extend_schema(
        request=TcsMinefieldEnterRequestSerializer,
        responses={201: TcsMinefieldPanelSerializer, **IDEMPOTENCY_RESPONSES},
        **WRITE,
    )
    @action(detail=True, methods=["post"])
    @idempotent_api
    def enter(self, request, pk=None):
        """The side's own units enter a minefield hex: the attack resolved and applied at
        once, losses and the morale check it forces [21.0.b, 17.0.b]."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        form = self._enter_form(request, campaign, side)
        checked(form)
        text = run(minefield_card, action="enter", form=form, side=side, user=request.user)
        return self._answer(text, campaign, side)

    @extend_schema(
        request=TcsMinefieldBreachRequestSerializer,
        responses={201: TcsMinefieldPanelSerializer, **IDEMPOTENCY_RESPONSES},
        **WRITE,
    )
    @action(detail=True, methods=["post"])
    @idempotent_api
    def breach(self, request, pk=None):
        """A breach attempt: eligibility, the attack on the "9" column, the Breach placed
        if a unit is still there, neither Suppressed nor Paralyzed [21.3]."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        units = units_in_play(side)
        data = body(request, lists=("units", "gone"), objects=("losses",), dice=True)
        _objects(request, data, units, (("losses", "loss_"),))
        form = BreachForm(units, markers(campaign), data)
        checked(form)
        text = run(minefield_card, action="breach", form=form, side=side, user=request.user)
        return self._answer(text, campaign, side)

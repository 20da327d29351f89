"""Assaults and overruns [22.0, 23.0] in the API, on the assault page's forms.

- `GET /tcs/assaults/?side=` the running assaults involving a side the caller plays;
- `POST /tcs/assaults/declare/` the attacker declares with his own stack (`side`, `units`);
- `GET /tcs/assaults/{id}/?side=` whose move, what is asked, the public state and fire, and
  the caller's own side's losses and checks (never the other side's);
- `POST /tcs/assaults/{id}/answer/` the side answers the step it is asked (`side`, `stage`
  as read, then the fields the step asks: see `form`).

A side the caller may not see, or an assault it takes no part in, answers 404.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.api.tcs.combat import DICE_VALUES, TERRAIN_VALUES, TcsCheckFieldsSerializer
from campaigns.api.tcs.common import body, checked, load_side, run
from campaigns.ids import as_id
from campaigns.models.tcs import TcsCombat
from campaigns.selectors.tcs_combat import units_in_play
from campaigns.services.tcs import assault as sa
from campaigns.tcs.form_actions import assault_answer, assault_declare
from campaigns.tcs.forms.assault import AssaultAnswerForm, AssaultDeclareForm

SIDE_PARAM = OpenApiParameter(
    "side",
    {"type": "integer", "minimum": 0},
    description=gettext_lazy("The side the caller acts or reads for."),
    required=True,
)
LINES = gettext_lazy("A list of lines, or one text with a line per unit (as on the page).")


class TcsAssaultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text=gettext_lazy("assault or overrun"))
    role = serializers.CharField(help_text=gettext_lazy("attacker or defender"))
    step = serializers.IntegerField(help_text=gettext_lazy("22.0 step 2–7; 8 = over"))
    round = serializers.IntegerField()
    stage = serializers.CharField(help_text=gettext_lazy("Send it back with the answer."))
    whose = serializers.CharField()
    whose_words = serializers.CharField()
    rule = serializers.CharField()
    asks = serializers.CharField()
    my_move = serializers.BooleanField()
    form = serializers.CharField(help_text=gettext_lazy("hex, hit, go, fire, own or empty"))
    attackers = serializers.JSONField()
    defenders = serializers.JSONField()
    fire_order = serializers.ListField(child=serializers.CharField())
    fire = serializers.ListField(child=serializers.JSONField())
    ended = serializers.CharField()
    winner = serializers.CharField()
    status = serializers.CharField()
    explanation = serializers.ListField(child=serializers.JSONField())
    own = serializers.ListField(
        child=serializers.JSONField(), help_text=gettext_lazy("Only the caller's side's part.")
    )


class TcsAssaultDeclareRequestSerializer(serializers.Serializer):
    side = serializers.IntegerField()
    units = serializers.ListField(child=serializers.IntegerField())
    overrun = serializers.BooleanField(required=False)
    terrain = serializers.ChoiceField(choices=TERRAIN_VALUES, required=False)
    enter_cost = serializers.IntegerField()
    leave_cost = serializers.IntegerField(required=False)
    mp = serializers.IntegerField(required=False)
    adjacent = serializers.BooleanField(required=False)
    in_stack_at_start = serializers.BooleanField(required=False)


class TcsAssaultAnswerRequestSerializer(TcsCheckFieldsSerializer):
    side = serializers.IntegerField()
    stage = serializers.CharField()
    choice = serializers.ChoiceField(choices=["overwatch", "retreat"], required=False)
    attacker_result = serializers.ChoiceField(
        choices=["none", "suppressed", "paralyzed", "syr", "surrender", "eliminated"],
        required=False,
    )
    firers = serializers.ListField(child=serializers.CharField(), required=False, help_text=LINES)
    targets = serializers.ListField(child=serializers.CharField(), required=False, help_text=LINES)
    other = serializers.CharField(required=False)
    terrain_shift = serializers.IntegerField(required=False)
    fire_dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    fire_roll = serializers.CharField(required=False)
    point_firers = serializers.ListField(
        child=serializers.CharField(), required=False, help_text=LINES
    )
    point_targets = serializers.ListField(
        child=serializers.CharField(), required=False, help_text=LINES
    )
    point_roll = serializers.CharField(required=False)
    at_steps = serializers.IntegerField(required=False)
    at_target_steps = serializers.IntegerField(required=False)
    at_value = serializers.IntegerField(required=False)
    at_rolls = serializers.CharField(
        required=False, help_text=gettext_lazy("The 2d6 totals, e.g. “7 3”.")
    )
    minefield = serializers.BooleanField(required=False)
    breached = serializers.BooleanField(required=False)
    stacking_shift = serializers.IntegerField(required=False)
    first_step_choice = serializers.CharField(required=False)
    rolls = serializers.CharField(
        required=False,
        help_text=gettext_lazy("Minefield: the d66, then a 2d6 total per vehicle step."),
    )
    losses = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text=gettext_lazy("Unit id → steps lost."),
    )


def _side_of(request):
    raw = request.query_params.get("side")
    if raw is None and isinstance(request.data, dict):
        raw = request.data.get("side")
    if raw in (None, ""):
        raise ValidationError({"side": [gettext_lazy("Give the side you act or read for.")]})
    if as_id(raw) is None:  # no such side: as for any side the caller may not see
        raise NotFound
    return raw


def _assault(side, pk) -> TcsCombat:
    combat = TcsCombat.objects.filter(
        pk=as_id(pk) or 0, campaign_id=side.campaign_id, kind__in=sa.KINDS
    ).first()
    if combat is None or side.pk not in (combat.side_id, combat.target_side_id):
        raise NotFound
    return combat


def _joined(data, *names) -> None:
    for name in names:
        value = data.get(name)
        if isinstance(value, list):
            data[name] = "\n".join(value)


class AssaultViewSet(viewsets.GenericViewSet):
    """Running assaults and overruns; each side acts for its own units."""

    serializer_class = TcsAssaultSerializer
    queryset = TcsCombat.objects.none()
    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[SIDE_PARAM], responses=TcsAssaultSerializer(many=True))
    def list(self, request):
        """The running assaults and overruns that involve the side."""
        _campaign, _viewer, side = load_side(request, _side_of(request))
        return Response([sa.describe(c, sa.role_of(c, side)) for c in sa.running(side)])

    @extend_schema(parameters=[SIDE_PARAM], responses=TcsAssaultSerializer)
    def retrieve(self, request, pk=None):
        """Whose move, what is asked, the public state and this side's own part."""
        _campaign, _viewer, side = load_side(request, _side_of(request))
        combat = _assault(side, pk)
        return Response(sa.describe(combat, sa.role_of(combat, side)))

    @extend_schema(
        request=TcsAssaultDeclareRequestSerializer, responses={201: TcsAssaultSerializer}
    )
    @action(detail=False, methods=["post"])
    def declare(self, request):
        """The attacker declares an assault [22.0] or overrun [23.0] with his own stack;
        a refusal names each problem with its rule id (400 on `units`)."""
        _campaign, _viewer, side = load_side(request, _side_of(request), act=True)
        data = body(request, lists=("units",))
        data.setdefault("terrain", "open")
        if "adjacent" not in data:
            data["adjacent"] = "true"
        if "in_stack_at_start" not in data:
            data["in_stack_at_start"] = "true"
        form = AssaultDeclareForm(units_in_play(side), data)
        checked(form)
        _text, combat = run(assault_declare, form=form, side=side, user=request.user)
        return Response(sa.describe(combat, sa.ATTACKER), status=status.HTTP_201_CREATED)

    @extend_schema(request=TcsAssaultAnswerRequestSerializer, responses=TcsAssaultSerializer)
    @action(detail=True, methods=["post"])
    def answer(self, request, pk=None):
        """The side answers the current step: the fields of its `form` (hex: `units`,
        `choice`, `attacker_result`; hit: `attacker_result`; mine: `minefield`; mine_own:
        `losses`, `stacking_shift`, `fire_dice`/`rolls` and the check fields; fire: `firers`,
        `targets`, `other`, `fire_dice`/`fire_roll`, `point_firers`/`point_targets`/
        `point_roll`, `at_steps`/`at_target_steps`/`at_value`/`at_rolls`; targets: `targets`;
        losses: `losses`; own: `losses` and the morale check fields).
        A repeat of the same answer changes nothing (400)."""
        _campaign, _viewer, side = load_side(request, _side_of(request), act=True)
        combat = _assault(side, pk)
        seen = sa.describe(combat, sa.role_of(combat, side))
        if not seen["my_move"]:
            raise ValidationError(
                {"stage": [gettext_lazy("This step was already answered: nothing was changed.")]}
            )
        lines = ("firers", "targets", "point_firers", "point_targets")
        data = body(request, lists=("units", *lines), objects=("losses",), dice=True)
        _joined(data, *lines)
        units = units_in_play(side)
        losses = request.data.get("losses") if isinstance(request.data, dict) else None
        if losses is not None:
            if not isinstance(losses, dict):
                raise ValidationError({"losses": [gettext_lazy("Give {unit id: steps}.")]})
            known = {str(u.pk) for u in units}
            for key, steps in losses.items():
                if str(key) not in known:
                    raise ValidationError({"losses": [gettext_lazy("Choose units of this side.")]})
                data[f"loss_{key}"] = steps
        if "fire_dice" not in data:
            data["fire_dice"] = "server"
        form = AssaultAnswerForm(units, seen["form"], data)
        checked(form)
        run(assault_answer, form=form, combat=combat, side=side, user=request.user)
        combat.refresh_from_db()
        return Response(sa.describe(combat, sa.role_of(combat, side)))

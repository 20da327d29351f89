"""Losses and morale (the side page) and the opponent's choice [17.1.c] (the decisions
page): step losses, steps given back, morale corrections with a reason, and choosing which
of equally near battalions a lost unit counts for. Another side's units and morale answer
404; a choice shows only the unit and the battalions offered."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.api.tcs.common import (
    CAMPAIGN_PARAM,
    body,
    campaign_filter,
    checked,
    load_side,
    run,
)
from campaigns.api.tcs.requests import (
    TcsCorrectionSerializer,
    TcsDecisionResolveSerializer,
    TcsLossSerializer,
    TcsRestoreSerializer,
    TcsUnitStateSerializer,
)
from campaigns.api.tcs.serializers import (
    FormationSerializer,
    TcsDecisionSerializer,
    TcsFormationActionSerializer,
    TcsUnitActionSerializer,
)
from campaigns.ids import as_id
from campaigns.models import Side
from campaigns.models.tcs import TcsDecision, TcsFormation, TcsUnit
from campaigns.permissions import can_act_for_side, viewer_context, visible_campaigns
from campaigns.selectors.tcs import api_formations
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs.state import losses_message, restore_message


def _unit(request, pk, *, act=True):
    """A unit of a side whose secrets the caller may see (else 404)."""
    side_id = (
        TcsUnit.objects.filter(pk=pk).values_list("side_id", flat=True).first()
        if as_id(pk) is not None
        else None
    )
    if side_id is None:
        raise NotFound
    campaign, _viewer, side = load_side(request, side_id, act=act)
    return campaign, side, TcsUnit.objects.get(pk=pk)


def _unit_answer(unit_pk, text, result=None, code=status.HTTP_200_OK):
    data = {
        "detail": text,
        "unit": TcsUnitActionSerializer()
        .fields["unit"]
        .to_representation(TcsUnit.objects.get(pk=unit_pk)),
    }
    if result is not None:
        data["result"] = result
    return Response(data, status=code)


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class FormationViewSet(viewsets.ReadOnlyModelViewSet):
    """Formations with their morale state and units, for the sides the caller may see."""

    serializer_class = FormationSerializer

    def get_queryset(self):
        return campaign_filter(self.request, api_formations(self.request.user).order_by("id"))

    @extend_schema(request=TcsCorrectionSerializer, responses=TcsFormationActionSerializer)
    @action(detail=True, methods=["post"], url_path="morale-correction")
    def morale_correction(self, request, pk=None):
        """Correct a formation's morale value, saying why (the correction is logged)."""
        formation = self.get_object()
        _campaign, _viewer, _side = load_side(request, formation.side_id, act=True)
        moraled = [formation] if formation.morale != TcsFormation.Morale.NONE else []
        data = body(request)
        if isinstance(data, dict):
            data["formation"] = str(formation.pk)
        form = tf.CorrectionForm(moraled, data)
        if not moraled:
            raise ValidationError({"formation": [_("This formation keeps no morale.")]})
        d = checked(form)
        run(
            svc.tcs_morale_correct,
            formation=formation,
            actor=request.user,
            value=d["value"],
            reason=d["reason"],
        )
        formation = api_formations(request.user).get(pk=formation.pk)
        return Response(
            {
                "detail": _("Morale corrected; the correction is in the log."),
                "formation": FormationSerializer(formation).data,
            }
        )


class UnitViewSet(viewsets.GenericViewSet):
    """A unit's steps given back (a correction, with its reason)."""

    serializer_class = TcsUnitActionSerializer
    queryset = TcsUnit.objects.none()

    @extend_schema(request=TcsRestoreSerializer, responses=TcsUnitActionSerializer)
    @action(detail=True, methods=["post"])
    def restore(self, request, pk=None):
        """Give steps back to a unit (it returns to its sheets where it can)."""
        _campaign, _side, unit = _unit(request, pk)
        if not unit.steps_lost:
            raise ValidationError({"steps": [_("%(u)s has lost no steps.") % {"u": unit.code}]})
        data = body(request)
        if isinstance(data, dict):
            data["unit"] = str(unit.pk)
        form = tf.RestoreForm([unit], data)
        d = checked(form)
        unit = run(
            svc.tcs_unit_restore,
            unit=unit,
            actor=request.user,
            steps=d["steps"],
            reason=d["reason"],
        )
        return _unit_answer(unit.pk, restore_message(unit), unit.restored)

    @extend_schema(request=TcsUnitStateSerializer, responses=TcsUnitActionSerializer)
    @action(detail=True, methods=["post"])
    def state(self, request, pk=None):
        """A unit's mode (Move mode ends Dug In [6.16.c]), printed morale [17.2], or its
        marker corrected with a `reason`."""
        _campaign, _side, unit = _unit(request, pk)
        data = body(request)
        if isinstance(data, dict):
            data["unit"] = str(unit.pk)
        form = tf.UnitStateForm([unit], data)
        d = checked(form)
        unit = run(
            svc.tcs_unit_state,
            unit=unit,
            actor=request.user,
            mode=d.get("mode") or None,
            morale=d.get("morale"),
            morale_state=d.get("morale_state") or None,
            reason=d.get("reason", ""),
        )
        return _unit_answer(unit.pk, _("%(u)s updated.") % {"u": unit.code})


class LossViewSet(viewsets.GenericViewSet):
    """Step losses of one unit [10.0, 17.1, 17.8]."""

    serializer_class = TcsUnitActionSerializer
    queryset = TcsUnit.objects.none()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=TcsLossSerializer, responses={201: TcsUnitActionSerializer})
    def create(self, request):
        """Record a unit's step losses: `combat` losses count for morale [17.1.a];
        `nearest` the equally near battalions of a unit outside any (the opponent then
        chooses [17.1.c]); vehicle morale checks with server dice or entered `rolls`."""
        data = body(request, lists=("nearest",), dice=True)
        raw = data.get("unit") if hasattr(data, "get") else None
        if raw in (None, ""):
            raise ValidationError({"unit": [_("Choose the unit.")]})
        _campaign, side, _unit_obj = _unit(request, raw)
        units = list(TcsUnit.objects.filter(side=side))
        battalions = list(
            TcsFormation.objects.filter(side=side, morale=TcsFormation.Morale.BATTALION)
        )
        if isinstance(data, dict):
            data["unit"] = str(raw)
        form = tf.LossForm(units, battalions, data)
        d = checked(form)
        outcome = run(
            svc.tcs_losses_record,
            unit=form.units[d["unit"]],
            actor=request.user,
            steps=d["steps"],
            combat=d["combat"],
            nearest=d["nearest"] or None,
            rolls=d["rolls_list"],
        )
        text = losses_message(outcome)
        result = {k: getattr(v, "pk", v) for k, v in outcome.items()}
        return _unit_answer(int(d["unit"]), text, result, status.HTTP_201_CREATED)


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class DecisionViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Open choices [17.1.c] for the sides you play (or any, as a neutral game master)."""

    serializer_class = TcsDecisionSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        user = self.request.user
        if getattr(self, "swagger_fake_view", False):
            return TcsDecision.objects.none()
        campaigns = visible_campaigns(user).filter(system="tcs")
        qs = TcsDecision.objects.filter(
            campaign__in=campaigns, status=TcsDecision.Status.OPEN
        ).select_related("unit", "side", "chooser", "campaign")
        chooser_ids = [
            s.pk
            for s in Side.objects.filter(campaign__in=campaigns).select_related("campaign")
            if can_act_for_side(viewer_context(user, s.campaign), s)
        ]
        return campaign_filter(self.request, qs.filter(chooser_id__in=chooser_ids).order_by("id"))

    @extend_schema(request=TcsDecisionResolveSerializer, responses=TcsDecisionSerializer)
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        """Choose which battalion the lost unit counts for (`choice`, one of `options`)."""
        decision = self.get_object()
        d = checked(tf.DecisionForm(decision.options, body(request)))
        decision = run(
            svc.tcs_decision_resolve, decision=decision, actor=request.user, choice=d["choice"]
        )
        return Response(TcsDecisionSerializer(decision).data)

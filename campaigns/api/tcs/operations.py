"""The operation: create it (as the new-operation page), read it with its turn, sides and
what it waits for, start play, the next turn, end it (the organiser at once, or every side
agrees) or withdraw an agreement, its rule readings, timeline and export."""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.api.tcs.common import body, checked, load, load_side, must_take_part, run
from campaigns.api.tcs.requests import (
    TcsAdvanceSerializer,
    TcsConfirmSerializer,
    TcsOperationCreateSerializer,
    TcsReadingsUpdateSerializer,
)
from campaigns.api.tcs.serializers import (
    OpSheetSerializer,
    TcsOperationSerializer,
    TcsReadingsSerializer,
    TcsReinforcementsSerializer,
    TcsTimelineSerializer,
)
from campaigns.models import Campaign
from campaigns.selectors.tcs import (
    decisions_to_make,
    is_finished,
    operation_waiting,
    tcs_operation,
    tcs_timeline,
)
from campaigns.selectors.tcs_export import tcs_operation_export
from campaigns.selectors.tcs_turn import tcs_turn_phases
from campaigns.services import tcs as svc
from campaigns.services.tcs.sheet_effects import tcs_reinforcements_enter
from campaigns.tcs import forms as tf
from campaigns.tcs import readings as tf_readings
from rules.serial import to_data
from rules.tcs.options import TcsOptions


def operation_data(request, campaign, viewer) -> dict:
    op = tcs_operation(campaign, viewer)
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "status": campaign.status,
        "turn": {
            "number": op.turn.number,
            "clock": op.turn.clock,
            "light": op.turn.light.value,
            "minutes": op.turn.minutes,
        },
        "sides": [
            {
                "id": sv.side.pk,
                "name": sv.side.name,
                "rating": sv.settings.rating if sv.settings else None,
                "can_see": sv.can_see,
                "can_act": sv.can_act,
                "phase": sv.phase.status if sv.phase else None,
                "sheets": OpSheetSerializer(sv.sheets, many=True).data,
            }
            for sv in op.sides
        ],
        "waiting": [
            {"who": w.who, "what": w.what, "side_id": w.side_id}
            for w in operation_waiting(campaign, viewer, op)
        ],
        "recovery_due": bool(svc.recovery_due(campaign)),
        "decisions_to_make": decisions_to_make(campaign, viewer),
        "end_agreed": sorted(campaign.state.get(svc.END_AGREED, [])),
        "phases": tcs_turn_phases(campaign, viewer).as_data(),
    }


def _answer(request, pk, code=status.HTTP_200_OK):
    campaign, viewer = load(request, pk)
    return Response(operation_data(request, campaign, viewer), status=code)


class OperationViewSet(viewsets.GenericViewSet):
    """TCS operations: the operation page's actions."""

    serializer_class = TcsOperationSerializer
    queryset = Campaign.objects.none()

    def get_permissions(self):
        if self.request is not None and self.request.method == "GET":
            return super().get_permissions()  # reads: as the pages, public operations too
        return [IsAuthenticated()]

    @extend_schema(request=TcsOperationCreateSerializer, responses={201: TcsOperationSerializer})
    def create(self, request):
        """Create an operation (the new-operation page): two sides with their ratings, the
        first turn's clock and light, your part (a side or neutral game master)."""
        form = tf.OperationForm(body(request), user=request.user)
        checked(form)
        campaign = run(svc.tcs_operation_create, creator=request.user, **form.service_kwargs())
        return _answer(request, campaign.pk, status.HTTP_201_CREATED)

    @extend_schema(responses=TcsOperationSerializer)
    def retrieve(self, request, pk=None):
        """The turn, the sides (op sheets you may read) and what the operation waits for."""
        return _answer(request, pk)

    def _take_part(self, request, pk):
        campaign, viewer = load(request, pk)
        must_take_part(viewer)
        return campaign

    @extend_schema(request=None, responses=TcsOperationSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """Start play at turn 1 [27.1.f]."""
        campaign = self._take_part(request, pk)
        run(svc.tcs_operation_start, campaign=campaign, actor=request.user)
        return _answer(request, pk)

    @extend_schema(request=TcsAdvanceSerializer, responses=TcsOperationSerializer)
    @action(detail=True, methods=["post"], url_path="next-turn")
    def next_turn(self, request, pk=None):
        """The next turn, once every side completed its Command Phase."""
        campaign = self._take_part(request, pk)
        form = tf.AdvanceForm(body(request))
        d = checked(form)
        run(
            svc.tcs_turn_advance,
            campaign=campaign,
            actor=request.user,
            light=d["light"],
            expected_turn=d["expected_turn"],
        )
        return _answer(request, pk)

    @extend_schema(request=TcsConfirmSerializer, responses=TcsOperationSerializer)
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        """The organiser or a neutral game master ends the operation at once; a player
        agrees for their side and it ends when every side agrees. Needs `confirm`."""
        campaign = self._take_part(request, pk)
        d = checked(tf.ConfirmForm(body(request)))
        run(svc.tcs_operation_end, campaign=campaign, actor=request.user, confirm=d["confirm"])
        return _answer(request, pk)

    @extend_schema(request=None, responses=TcsOperationSerializer)
    @action(detail=True, methods=["post"], url_path="end/withdraw", url_name="end-withdraw")
    def end_withdraw(self, request, pk=None):
        """Your side no longer agrees to end the operation."""
        campaign = self._take_part(request, pk)
        run(svc.tcs_operation_end_withdraw, campaign=campaign, actor=request.user)
        return _answer(request, pk)

    @extend_schema(request=TcsReinforcementsSerializer, responses=TcsOperationSerializer)
    @action(detail=True, methods=["post"])
    def reinforcements(self, request, pk=None):
        """Your reinforcements enter the map at the start of your Action Phase [27.2.a]; refused
        for a unit not on an implemented sheet nor executing preliminary instructions
        [6.13.e, 27.2.b]."""
        self._take_part(request, pk)
        data = TcsReinforcementsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        _campaign, _viewer, side = load_side(request, data.validated_data["side"], act=True)
        if side.campaign_id != int(pk):
            raise NotFound
        units = run(
            tcs_reinforcements_enter,
            side=side,
            actor=request.user,
            units=data.validated_data["units"],
        )
        answer = _answer(request, pk)
        answer.data["detail"] = _("Reinforcements enter the map: %(u)s.") % {"u": ", ".join(units)}
        return answer

    @extend_schema(
        methods=["GET"], request=None, responses=TcsReadingsSerializer, operation_id="tcs_readings"
    )
    @extend_schema(
        methods=["PATCH"],
        request=TcsReadingsUpdateSerializer,
        responses=TcsReadingsSerializer,
        operation_id="tcs_readings_update",
    )
    @action(detail=True, methods=["get", "patch"])
    def readings(self, request, pk=None):
        """The operation's readings of unclear rules; the organiser or a game master changes
        them (each change logged). PATCH takes only the readings to change."""
        campaign, viewer = load(request, pk)
        if not viewer.is_participant:
            raise NotFound
        can_change = viewer.can_manage and not is_finished(campaign)
        if request.method == "PATCH":
            if not can_change:
                raise PermissionDenied(_("Only the organiser or a game master may do this."))
            current = svc.options_for(campaign)
            body(request, objects=("values",))  # a JSON object or form fields, else a 400
            data = {k: _as_form_value(v) for k, v in to_data(current).items()}
            data.update({k: _as_form_value(v) for k, v in request_values(request).items()})
            form = tf_readings.ReadingsForm(current, data)
            checked(form)
            run(svc.tcs_options_update, campaign=campaign, actor=request.user, values=form.values())
            campaign, viewer = load(request, pk)
        rows = tf_readings.reading_rows(svc.options_for(campaign))
        return Response({"can_change": can_change, "readings": rows})

    @extend_schema(responses=TcsTimelineSerializer)
    @action(detail=True, methods=["get"])
    def timeline(self, request, pk=None):
        """Turns played, the op sheets' states and morale over time, as you may see them."""
        campaign, viewer = load(request, pk)
        t = tcs_timeline(campaign, viewer)
        return Response(
            {
                "turns": t.turns,
                "sheets": [
                    {"id": s.pk, "side": s.side.name, "code": s.code, "history": s.history}
                    for s in t.sheets
                ],
                "formations": [
                    {"id": f.pk, "side": f.side.name, "code": f.code, "history": f.history}
                    for f in t.formations
                ],
            }
        )

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """The operation as JSON, as you may see it (the page's export)."""
        campaign, viewer = load(request, pk)
        return Response(tcs_operation_export(campaign, viewer))


def request_values(request) -> dict:
    """The readings to change: under `values`, or as top-level fields; an unknown name is
    a 400 (as the service refuses it)."""
    data = request.data
    values = data.get("values") if hasattr(data, "get") else None
    if not isinstance(values, dict):
        values = {k: v for k, v in data.items() if k != "values"}
    unknown = sorted(set(values) - {f.name for f in dataclasses.fields(TcsOptions)})
    if unknown:
        raise ValidationError(
            {"detail": [_("Unknown readings: %(n)s.") % {"n": ", ".join(unknown)}]}
        )
    return values


def _as_form_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return value

"""Op sheets (the sheet pages): read the ones you may (your side's, revealed ones, all once
the operation is over), draw one (multipart for the graphic), correct it, delete one that
never took effect, reveal it, declare failure or success, record a Prepared Defense, add and
strike units. Another side's unrevealed sheet answers 404."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from campaigns.api.parsers import CheckedJSONParser
from campaigns.api.tcs.common import (
    CAMPAIGN_PARAM,
    body,
    campaign_filter,
    checked,
    load,
    load_side,
    must_act,
    run,
)
from campaigns.api.tcs.requests import (
    TcsFailSerializer,
    TcsPreparedDefenseSerializer,
    TcsSheetDrawSerializer,
    TcsSheetTextsSerializer,
    TcsSheetUnitsSerializer,
    TcsUnitsSerializer,
)
from campaigns.api.tcs.serializers import (
    OpSheetSerializer,
    TcsMessageSerializer,
    TcsSheetActionSerializer,
)
from campaigns.models import Campaign
from campaigns.models.tcs import SHEET_TEXT_FIELDS, CommandPhase, OpSheetRecord, TcsUnit
from campaigns.selectors.tcs import api_sheets, sheet_for
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs.graphics import GRAPHIC_TYPES, graphic_response
from rules.tcs.opsheet import OpSheet

UNIT_LISTS = ("units", "fire_mode", "fired", "nearest")


def missions_data(request, data):
    """`missions` {unit: mission} and `reserves` [unit] as the page's m_<unit> fields."""
    if not isinstance(data, dict):
        return data
    missions, reserves = request.data.get("missions"), request.data.get("reserves")
    data.pop("missions", None)
    data.pop("reserves", None)
    if missions is not None and not isinstance(missions, dict):
        raise ValidationError({"missions": [_("An object: unit id → mission.")]})
    if reserves is not None and not isinstance(reserves, list):
        raise ValidationError({"reserves": [_("A list of unit ids.")]})
    for unit, mission in (missions or {}).items():
        data[f"m_{unit}"] = mission
    for unit in reserves or []:
        data[f"m_{unit}"] = "reserve"
    return data


def _live_units(campaign, side):
    return list(TcsUnit.objects.filter(campaign=campaign, side=side, eliminated_turn__isnull=True))


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class OpSheetViewSet(viewsets.ReadOnlyModelViewSet):
    """Op sheets the caller may read: their own side's, revealed ones, all once over."""

    serializer_class = OpSheetSerializer
    parser_classes = [CheckedJSONParser, FormParser, MultiPartParser]

    def get_queryset(self):
        qs = api_sheets(self.request.user).order_by("campaign_id", "side__order", "id")
        return campaign_filter(self.request, qs)

    def _mine(self, request, pk):
        """The sheet as its page loads it, for a player of its side (else 403)."""
        sheet = self.get_object()
        campaign, viewer = load(request, sheet.campaign_id)
        sheet = sheet_for(campaign, viewer, sheet.pk)
        if sheet is None:
            raise NotFound
        must_act(viewer, sheet.side_id)
        return campaign, viewer, sheet

    def _answer(self, sheet_pk, text, result=None, code=status.HTTP_200_OK):
        sheet = OpSheetRecord.objects.select_related("side").get(pk=sheet_pk)
        data = {"detail": text, "sheet": OpSheetSerializer(sheet).data}
        if result is not None:
            data["result"] = result
        return Response(data, status=code)

    @extend_schema(
        request={
            "application/json": TcsSheetDrawSerializer,
            "multipart/form-data": TcsSheetDrawSerializer,
        },
        responses={201: TcsSheetActionSerializer},
    )
    def create(self, request):
        """Draw an op sheet for `side`: during set-up it starts implemented [6.8, 27.1.f], in
        play in Command Prep. Only that side sees it until revealed."""
        raw = request.data.get("side") if hasattr(request.data, "get") else None
        if raw in (None, ""):
            raise ValidationError({"side": [_("Choose the side drawing the sheet.")]})
        campaign, _viewer, side = load_side(request, raw, act=True)
        if campaign.status in (Campaign.Status.FINISHED, Campaign.Status.ABANDONED):
            raise ValidationError({"detail": [_("The operation is over.")]})
        data = missions_data(request, body(request, objects=("missions", "reserves")))
        form = tf.SheetDrawForm(
            _live_units(campaign, side),
            data,
            request.FILES,
            setup=campaign.status == Campaign.Status.SETUP,
        )
        d = checked(form)
        record = run(
            svc.tcs_sheet_draw,
            side=side,
            actor=request.user,
            code=d["code"],
            missions=d["missions"],
            reserves=d["reserves"],
            alternatives=form.alternatives,
            texts=form.texts(),
            graphic=form.upload(),
            reinforcement=d.get("reinforcement", False),
        )
        text = _("Op sheet drawn. Only your side sees it.")
        return self._answer(record.pk, text, code=status.HTTP_201_CREATED)

    @extend_schema(
        request={
            "application/json": TcsSheetTextsSerializer,
            "multipart/form-data": TcsSheetTextsSerializer,
        },
        responses=TcsSheetActionSerializer,
    )
    def partial_update(self, request, pk=None):
        """Correct the sheet's texts or graphic (the fields given; the rest stay)."""
        _campaign, _viewer, sheet = self._mine(request, pk)
        given = body(request)
        if not request.FILES and not any(k in SHEET_TEXT_FIELDS for k in given):
            return self._answer(sheet.pk, _("Nothing to correct: no field of the sheet given."))
        data = {f: getattr(sheet, f) for f in SHEET_TEXT_FIELDS}
        data.update({k: given.get(k) for k in given if k in SHEET_TEXT_FIELDS})
        form = tf.SheetEditForm(data, request.FILES, instance=sheet)
        checked(form)
        run(
            svc.tcs_sheet_edit,
            sheet=sheet,
            actor=request.user,
            texts=form.texts(),
            graphic=form.upload(),
        )
        return self._answer(sheet.pk, _("Op sheet corrected; the change is in your side's log."))

    @extend_schema(request=None, responses={200: TcsMessageSerializer})
    def destroy(self, request, pk=None):
        """Delete a sheet that never took effect: any during set-up, an unimplemented one in
        play (the deletion is logged)."""
        _campaign, _viewer, sheet = self._mine(request, pk)
        code = run(svc.tcs_sheet_delete, sheet=sheet, actor=request.user)
        return Response(
            {"detail": _("Op sheet %(c)s deleted; the deletion is logged.") % {"c": code}}
        )

    @extend_schema(request=None, responses=TcsSheetActionSerializer)
    @action(detail=True, methods=["post"])
    def reveal(self, request, pk=None):
        """The owner (or the neutral game master) shows the sheet to everyone."""
        _campaign, _viewer, sheet = self._mine(request, pk)
        run(svc.tcs_sheet_reveal, sheet=sheet, actor=request.user)
        return self._answer(sheet.pk, _("Op sheet revealed to everyone who can see the operation."))

    @extend_schema(request=TcsFailSerializer, responses=TcsSheetActionSerializer)
    @action(detail=True, methods=["post"])
    def fail(self, request, pk=None):
        """Declare failure [6.11]: the whole sheet, or only `units` [6.11.d]; `confirm`."""
        _campaign, _viewer, sheet = self._mine(request, pk)
        form = tf.FailForm(
            OpSheet.from_dict(sheet.state).active_units, body(request, lists=UNIT_LISTS)
        )
        d = checked(form)
        run(
            svc.tcs_sheet_declare_failure,
            sheet=sheet,
            actor=request.user,
            confirm=d.get("confirm", False),
            units=d.get("units") or None,
        )
        return self._answer(
            sheet.pk, _("Failure declared: the units execute failure instructions.")
        )

    @extend_schema(request=TcsUnitsSerializer, responses=TcsSheetActionSerializer)
    @action(detail=True, methods=["post"])
    def succeed(self, request, pk=None):
        """Declare success in this turn's Command Phase: the whole sheet, or only `units`
        [6.13.a]."""
        campaign, _viewer, sheet = self._mine(request, pk)
        phase = CommandPhase.objects.filter(
            campaign=campaign, side_id=sheet.side_id, turn=svc.current_turn(campaign).number
        ).first()
        if phase is None:
            raise ValidationError({"detail": [_("Open this turn's Command Phase first.")]})
        units = OpSheet.from_dict(sheet.state).active_units
        data = body(request, lists=UNIT_LISTS)
        if isinstance(data, dict):
            data["sheet"] = sheet.pk
        form = tf.PartialSuccessForm(units, data)
        d = checked(form)
        run(
            svc.tcs_sheet_declare_success,
            phase=phase,
            sheet=sheet,
            actor=request.user,
            units=d["units"],
        )
        text = (
            _("Success declared for %(u)s [6.13.a].") % {"u": ", ".join(d["units"])}
            if d["units"]
            else _("Success declared.")
        )
        return self._answer(sheet.pk, text)

    @extend_schema(request=TcsPreparedDefenseSerializer, responses=TcsSheetActionSerializer)
    @action(detail=True, methods=["post"], url_path="prepared-defense")
    def prepared_defense(self, request, pk=None):
        """Which units were in Fire mode when a Prepared Defense was implemented: they dig in
        [6.16.a]; minefields to place [21.1]."""
        _campaign, _viewer, sheet = self._mine(request, pk)
        data = body(request, lists=UNIT_LISTS)
        if isinstance(data, dict):  # the page's fields are prefixed: pd-fire_mode, pd-addition
            data = {**{f"pd-{k}": v for k, v in data.items()}, **data}
        form = tf.prepared_defense_form(sheet, OpSheet.from_dict(sheet.state), data)
        if form is None:
            raise ValidationError(
                {"detail": [_("Nothing to record: no Prepared Defense implementation.")]}
            )
        d = checked(form)
        done = run(
            svc.tcs_sheet_prepared_defense,
            sheet=sheet,
            actor=request.user,
            fire_mode=d["fire_mode"],
            addition_id=d["addition"],
        )
        text = _("Dug in: %(d)s. Minefields to place now: %(m)s [6.16.a, 21.1].") % {
            "d": ", ".join(done["dug_in"]) or "—",
            "m": done["minefields"],
        }
        return self._answer(sheet.pk, text, done)

    @extend_schema(request=TcsSheetUnitsSerializer, responses=TcsSheetActionSerializer)
    @action(detail=True, methods=["post"])
    def units(self, request, pk=None):
        """`action` add: units join the sheet [6.13.c, 6.13.d] (`missions`, and for an
        implemented sheet `row` and `prelims`); strike: `units` leave a sheet still in
        Command Prep [6.13.b]."""
        campaign, _viewer, sheet = self._mine(request, pk)
        state = OpSheet.from_dict(sheet.state)
        data = missions_data(request, body(request, lists=UNIT_LISTS, objects=("missions",)))
        what = data.get("action") if hasattr(data, "get") else None
        if what == "add":
            listed = {*state.active_units, *(u for a in state.additions for u in a.units)}
            candidates = [u.code for u in _live_units(campaign, sheet.side) if u.code not in listed]
            implemented = state.status.value == "implemented"
            d = checked(tf.AddUnitsForm(candidates, data, implemented=implemented))
            done = run(
                svc.tcs_sheet_add_units,
                sheet=sheet,
                actor=request.user,
                missions=d["missions"],
                row=d.get("row") or None,
                preliminary_instructions=d.get("prelims", False),
            )
            return self._answer(sheet.pk, _added_text(done), done)
        if what == "strike":
            if not state.status.in_prep:
                raise ValidationError(
                    {"action": [_("Units are struck only from a sheet in Command Prep [6.13.b].")]}
                )
            d = checked(tf.StrikeForm(state.active_units, data))
            run(svc.tcs_sheet_strike_units, sheet=sheet, actor=request.user, units=d["units"])
            return self._answer(sheet.pk, _("Units struck; size and weighted turns stay [6.13.b]."))
        raise ValidationError({"action": [_("Choose add or strike.")]})

    @extend_schema(
        responses={
            (200, content_type): OpenApiTypes.BINARY
            for content_type in [t.content_type for t in GRAPHIC_TYPES]
            + ["application/octet-stream"]
        }
    )
    @action(detail=True, methods=["get"])
    def graphic(self, request, pk=None):
        """The sheet's graphic, private as the sheet: a download (`Content-Disposition:
        attachment`) of the type found in its content, never rendered as a page."""
        return graphic_response(self.get_object())


def _added_text(done: dict) -> str:
    """What adding units did, in the page's words [6.13.c, 6.13.d]."""
    if done["addition"]:
        return _(
            "Units added as %(a)s: they roll their own Command Prep from 0 weighted turns [6.13.c]."
        ) % {"a": done["addition"]}
    before, after = done["weighted_turns"]
    return _("Units added; weighted turns %(b)s → %(a)s, size %(s)s [6.13.d].") % {
        "b": before,
        "a": after,
        "s": done["size"],
    }

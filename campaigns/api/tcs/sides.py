"""A side (the side page): its Command Prep settings, order of battle by form and by CSV
import. Only that side (and a neutral game master) sees it: 404 to anyone else."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from campaigns.api.parsers import CheckedJSONParser
from campaigns.api.tcs.common import body, checked, load, load_side, run
from campaigns.api.tcs.requests import (
    TcsCsvImportSerializer,
    TcsFormationCreateSerializer,
    TcsSeatSerializer,
    TcsSideSettingsSerializer,
    TcsUnitCreateSerializer,
)
from campaigns.api.tcs.serializers import (
    FormationSerializer,
    OpSheetSerializer,
    TcsSeatsSerializer,
    TcsSideActionSerializer,
    TcsSideDetailSerializer,
    UnitSerializer,
)
from campaigns.forms import InviteForm
from campaigns.i18n import say
from campaigns.ids import as_id
from campaigns.models import Side
from campaigns.models.tcs import TcsFormation
from campaigns.selectors.tcs import decisions_awaited, tcs_operation
from campaigns.services import side_invite, side_join
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf


def side_data(campaign, viewer, side) -> dict:
    sv = next(s for s in tcs_operation(campaign, viewer).sides if s.side.pk == side.pk)
    formations = []
    for f in sv.formations:
        f.formation.side = side
        data = FormationSerializer(f.formation).data
        data["units"] = UnitSerializer(f.units, many=True).data
        formations.append(data)
    return {
        "id": side.pk,
        "campaign": campaign.pk,
        "name": side.name,
        "rating": sv.settings.rating if sv.settings else None,
        "prep_table": sv.settings.prep_table if sv.settings else None,
        "formations": formations,
        "units": UnitSerializer(sv.loose_units, many=True).data,
        "sheets": OpSheetSerializer(sv.sheets, many=True).data,
        "awaited": [
            {"id": d.pk, "unit": d.unit.code, "options": d.options, "turn": d.turn}
            for d in decisions_awaited(side)
        ],
    }


def _done(request, side_pk, text, code=status.HTTP_200_OK):
    campaign, viewer, side = load_side(request, side_pk)
    return Response({"detail": text, "side": side_data(campaign, viewer, side)}, status=code)


class SideViewSet(viewsets.GenericViewSet):
    """A side's settings and order of battle (the side page)."""

    serializer_class = TcsSideDetailSerializer
    queryset = Side.objects.none()
    parser_classes = [CheckedJSONParser, FormParser, MultiPartParser]

    @extend_schema(responses=TcsSideDetailSerializer)
    def retrieve(self, request, pk=None):
        """The side's rating, Command Prep Table, order of battle, sheets and losses
        waiting for the opponent's choice."""
        campaign, viewer, side = load_side(request, pk)
        return Response(side_data(campaign, viewer, side))

    @extend_schema(request=TcsSideSettingsSerializer, responses=TcsSideActionSerializer)
    def partial_update(self, request, pk=None):
        """Command Prep settings: the rating and the Command Prep Table (validated)."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        data = body(request, objects=("prep_table",))
        if isinstance(data, dict):
            table = request.data.get("prep_table")
            data["prep_table"] = (
                "" if table is None else table if isinstance(table, str) else json.dumps(table)
            )
        d = checked(tf.SideSettingsForm(data))
        run(
            svc.tcs_side_update,
            side=side,
            actor=request.user,
            rating=d["rating"],
            table=d["prep_table"],
        )
        return _done(request, pk, _("Command Prep settings saved."))

    @extend_schema(request=TcsFormationCreateSerializer, responses={201: TcsSideActionSerializer})
    @action(detail=True, methods=["post"])
    def formations(self, request, pk=None):
        """Add a formation: battalion morale with its start value, a vehicle morale track, or
        none."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        d = checked(tf.FormationForm(body(request)))
        run(
            svc.tcs_formation_add,
            side=side,
            actor=request.user,
            code=d["code"],
            name=d["name"],
            morale=d["morale"],
            is_battalion=d["is_battalion"],
            track=d["track"],
            start_value=d["start_value"] or 0,
        )
        return _done(request, pk, _("Formation added."), status.HTTP_201_CREATED)

    @extend_schema(request=TcsUnitCreateSerializer, responses={201: TcsSideActionSerializer})
    @action(detail=True, methods=["post"])
    def units(self, request, pk=None):
        """Add a unit, in one of this side's formations (`formation`: its id) or none."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        formations = list(TcsFormation.objects.filter(side=side))
        form = tf.UnitForm(formations, body(request))
        d = checked(form)
        run(
            svc.tcs_unit_add,
            side=side,
            actor=request.user,
            code=d["code"],
            formation=form.formations.get(d["formation"]),
            category=d["category"],
            steps=d["steps"],
            morale=d["morale"],
        )
        return _done(request, pk, _("Unit added."), status.HTTP_201_CREATED)

    @extend_schema(
        request={
            "application/json": TcsCsvImportSerializer,
            "multipart/form-data": TcsCsvImportSerializer,
        },
        responses={201: TcsSideActionSerializer},
    )
    @action(detail=True, methods=["post"], url_path="oob-csv")
    def oob_csv(self, request, pk=None):
        """Import the order of battle from CSV: the text under `csv`, or a `csv_file`
        upload. Errors name their row; nothing is added when one row is wrong."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        d = checked(tf.CsvImportForm(body(request), request.FILES))
        f, u = run(svc.tcs_oob_import, side=side, actor=request.user, text=d["text"])
        text = say(svc.imported_words(f, u))
        return _done(request, pk, text, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=TcsSeatsSerializer)
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        """Take the side's empty seat (the campaign page's “Play …” button)."""
        side = _visible_side(request, pk)
        run(side_join, user=request.user, side=side, require_empty=True)
        return Response(_seats(side))

    @extend_schema(request=TcsSeatSerializer, responses=TcsSeatsSerializer)
    @action(detail=True, methods=["post"])
    def seat(self, request, pk=None):
        """The organiser or a game master seats a player (by `username`) on the side."""
        side = _visible_side(request, pk)
        d = checked(
            InviteForm(side.campaign.sides.all(), {**_plain(request), "side": str(side.pk)})
        )
        run(
            side_invite,
            campaign=side.campaign,
            actor=request.user,
            username=d["username"],
            side=side,
        )
        return Response(_seats(side))


def _plain(request) -> dict:
    data = body(request)
    return {k: data.get(k) for k in data}


def _visible_side(request, side_pk):
    """A side of an operation the caller may see (its seats are public)."""
    side = (
        Side.objects.select_related("campaign").filter(pk=side_pk).first()
        if as_id(side_pk) is not None
        else None
    )
    if side is None:
        raise NotFound
    load(request, side.campaign_id)
    return side


def _seats(side) -> dict:
    return {
        "detail": _("Player seated."),
        "sides": [
            {"id": s.pk, "name": s.name, "players": [u.get_username() for u in s.players.all()]}
            for s in side.campaign.sides.order_by("order")
        ],
    }

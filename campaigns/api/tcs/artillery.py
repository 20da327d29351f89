"""Artillery in the API (the artillery page): `/tcs/artillery/{side}/` is one side's
batteries, ammunition record and latest missions (404 to anyone who may not see that side
[1.5]) with the operation's public Smoke and Illum markers; its actions add a battery or a
stock, delete a battery, fire a mission or a mortar/IG round, attack a hex with this turn's barrages (an OPEN fire record the
target's owner applies through `/tcs/combats/{id}/apply/`) and remove markers (in the
phases, or one by hand with a reason)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.api.tcs.combat import DICE_VALUES, LINES, TERRAIN_VALUES, combat_data
from campaigns.api.tcs.common import body, checked, load_side, run
from campaigns.models import Side
from campaigns.selectors.tcs_artillery import ammo_record, markers, missions, missions_this_turn
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs.combat_words import marker_rows, mission_text, mortar_text, result_text
from campaigns.tcs.state import current_turn

MISSION_KIND_VALUES = ["he", "continuous", "smoke", "illum", "rocket"]
AMMO_TYPE_VALUES = ["he", "smoke", "illum"]
SHOOT_VALUES = ["no_shoot", "scatter", "bad_shoot", "good_shoot"]
MORTAR_KIND_VALUES = ["smoke", "illum"]
WEAPON_VALUES = ["mortar", "ig"]
SMOKE_RESULT_VALUES = ["yes", "no"]
OBSERVER_FIELDS = ("observer_fire_mode", "observer_unmarked", "observer_los", "observer_visible")


class TcsArtilleryPanelSerializer(serializers.Serializer):
    side = serializers.IntegerField()
    record = serializers.JSONField(help_text=gettext_lazy("Batteries and stocks [18.2]."))
    missions = serializers.ListField(child=serializers.JSONField())
    markers = serializers.ListField(child=serializers.JSONField())


class TcsBatteryRequestSerializer(serializers.Serializer):
    original = serializers.CharField(required=False, help_text=gettext_lazy("Battery to change."))
    name = serializers.CharField()
    calibre = serializers.CharField()
    calibre_mm = serializers.IntegerField(required=False)
    on_map = serializers.BooleanField(required=False)
    good_af = serializers.IntegerField()
    bad_af = serializers.IntegerField()
    rocket = serializers.BooleanField(required=False)
    adjustment = serializers.IntegerField(required=False)


class TcsStockRequestSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=AMMO_TYPE_VALUES)
    calibre = serializers.CharField()
    volleys = serializers.IntegerField()
    legacy = serializers.BooleanField(
        required=False, help_text=gettext_lazy("A TCS 2-0x allocation: divided by 4.")
    )


class TcsMissionRequestSerializer(serializers.Serializer):
    batteries = serializers.ListField(child=serializers.CharField())
    kind = serializers.ChoiceField(choices=MISSION_KIND_VALUES)
    battalion = serializers.BooleanField(required=False)
    rapid = serializers.BooleanField(required=False)
    hex = serializers.CharField()
    observer_fire_mode = serializers.BooleanField(required=False, default=True)
    observer_unmarked = serializers.BooleanField(required=False, default=True)
    observer_los = serializers.BooleanField(required=False, default=True)
    observer_visible = serializers.BooleanField(required=False, default=True)
    modifiers = serializers.CharField(required=False, help_text=gettext_lazy("“name; value”."))
    shoot = serializers.ChoiceField(
        choices=SHOOT_VALUES,
        required=False,
        help_text=gettext_lazy("Read off the printed Adjustment Table (no table used)."),
    )
    all_water = serializers.BooleanField(required=False)
    dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    rolls = serializers.CharField(
        required=False, help_text=gettext_lazy("The d66, then the scatter d6s, e.g. “46 2 5”.")
    )


class TcsAttackRequestSerializer(serializers.Serializer):
    zone = serializers.ListField(child=serializers.IntegerField(), required=False)
    adjacent = serializers.ListField(child=serializers.IntegerField(), required=False)
    targets = serializers.ListField(child=serializers.CharField(), help_text=LINES)
    terrain = serializers.ChoiceField(choices=TERRAIN_VALUES)
    other = serializers.CharField(required=False)
    terrain_shift = serializers.IntegerField(required=False)
    stacking_shift = serializers.IntegerField(required=False)
    p_steps = serializers.IntegerField(required=False)
    kill_number = serializers.IntegerField(required=False)
    dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    rolls = serializers.CharField(required=False)


class TcsBatteryDeleteRequestSerializer(serializers.Serializer):
    name = serializers.CharField(help_text=gettext_lazy("The battery to delete."))
    confirm = serializers.BooleanField(
        required=False, default=True, help_text=gettext_lazy("The deletion confirmed.")
    )


class TcsMarkerRemoveRequestSerializer(serializers.Serializer):
    marker = serializers.CharField(
        help_text=gettext_lazy("“position:hex” of the marker in the panel's list, from 0.")
    )
    reason = serializers.CharField(help_text=gettext_lazy("Why it is removed (logged)."))


class TcsMortarRoundRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=MORTAR_KIND_VALUES)
    weapon = serializers.ChoiceField(choices=WEAPON_VALUES)
    calibre_mm = serializers.IntegerField()
    hex = serializers.CharField()
    success_from = serializers.IntegerField(
        required=False,
        help_text=gettext_lazy("Lowest d6 placing smoke, read off the Mortar and IG Smoke Table."),
    )
    succeeded = serializers.ChoiceField(
        choices=SMOKE_RESULT_VALUES,
        required=False,
        help_text=gettext_lazy("Or the result read off the chart."),
    )
    all_water = serializers.BooleanField(required=False)
    dice = serializers.ChoiceField(choices=DICE_VALUES, required=False)
    rolls = serializers.CharField(required=False, help_text=gettext_lazy("The smoke round's d6."))


class TcsArtilleryAnswerSerializer(serializers.Serializer):
    detail = serializers.CharField()
    panel = TcsArtilleryPanelSerializer(required=False)
    combat = serializers.JSONField(required=False)


def panel(campaign, side) -> dict:
    return {
        "side": side.pk,
        "record": ammo_record(side, current_turn(campaign).number).to_dict(),
        "missions": [combat_data(c, own=True) for c in missions(side)],
        "markers": markers(campaign).to_dict()["markers"],
    }


@extend_schema_view(retrieve=extend_schema(responses=TcsArtilleryPanelSerializer))
class ArtilleryViewSet(viewsets.GenericViewSet):
    """One side's artillery; `{id}` is the side."""

    serializer_class = TcsArtilleryPanelSerializer
    queryset = Side.objects.none()
    permission_classes = [IsAuthenticated]

    def retrieve(self, request, pk=None):
        """The side's batteries and ammunition record, its latest missions, the markers."""
        campaign, _viewer, side = load_side(request, pk)
        return Response(panel(campaign, side))

    def _done(self, request, side, text, combat=None, code=status.HTTP_201_CREATED):
        campaign, _viewer, side = load_side(request, side.pk)
        answer = {"detail": text, "panel": panel(campaign, side)}
        if combat is not None:
            answer["combat"] = combat_data(combat, own=True)
        return Response(answer, status=code)

    @extend_schema(
        request=TcsBatteryRequestSerializer, responses={201: TcsArtilleryAnswerSerializer}
    )
    @action(detail=True, methods=["post"])
    def battery(self, request, pk=None):
        """Add a battery, or change the one named `original`."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        form = tf.BatteryForm(body(request))
        d = checked(form)
        run(
            svc.tcs_artillery_battery_save,
            side=side,
            actor=request.user,
            battery=form.battery(),
            original=d.get("original") or None,
        )
        return self._done(request, side, _("Battery saved."))

    @extend_schema(request=TcsStockRequestSerializer, responses={201: TcsArtilleryAnswerSerializer})
    @action(detail=True, methods=["post"])
    def stock(self, request, pk=None):
        """The battery volleys issued of one type and calibre [18.2]."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        d = checked(tf.StockForm(body(request)))
        run(
            svc.tcs_artillery_stock_set,
            side=side,
            actor=request.user,
            ammo_type=d["type"],
            calibre=d["calibre"].strip(),
            volleys=d["volleys"],
            legacy=bool(d.get("legacy")),
        )
        return self._done(request, side, _("Ammunition record saved."))

    @extend_schema(
        request=TcsMissionRequestSerializer, responses={201: TcsArtilleryAnswerSerializer}
    )
    @action(detail=True, methods=["post"])
    def mission(self, request, pk=None):
        """A mission [18.4–18.7]: volleys crossed off, adjusted, scattered; No Shoot refunds."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        data = body(request, lists=("batteries",), dice=True)
        if isinstance(request.data, dict):  # the observer's answers default to yes
            for name in OBSERVER_FIELDS:
                data.setdefault(name, "true")
        record = ammo_record(side, current_turn(campaign).number)
        d = checked(tf.MissionForm(record.batteries, data))
        combat = run(
            svc.tcs_artillery_mission,
            side=side,
            actor=request.user,
            order=d["order"],
            rolls=d["rolls_list"],
        )
        return self._done(request, side, mission_text(combat), combat)

    @extend_schema(
        request=TcsAttackRequestSerializer, responses={201: TcsArtilleryAnswerSerializer}
    )
    @action(detail=True, methods=["post"])
    def attack(self, request, pk=None):
        """This turn's barrages on one hex, on the Fire Table [18.3 (3)], P-targets [18.9]."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        data = body(request, lists=("zone", "adjacent", "targets"), dice=True)
        if isinstance(data.get("targets"), list):
            data["targets"] = "\n".join(data["targets"])
        d = checked(tf.AttackForm(missions_this_turn(campaign, side), data))
        combat = run(
            svc.tcs_artillery_attack,
            side=side,
            actor=request.user,
            order=d["order"],
            rolls=d["rolls_list"],
        )
        text = _("Barrage resolved: %(r)s") % {"r": result_text(combat)}
        return self._done(request, side, text, combat)

    @extend_schema(request=None, responses=TcsArtilleryAnswerSerializer)
    @action(detail=True, methods=["post"], url_path="clean-up")
    def clean_up(self, request, pk=None):
        """Clean-up Phase [19.2, 26.2.c]: artillery Illum off, Smoke 1 off, Smoke 2 → 1."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        run(svc.tcs_markers_clean_up, campaign=campaign, actor=request.user)
        text = _("Clean-up Phase: markers removed and flipped [19.2, 26.2.c].")
        return self._done(request, side, text, code=status.HTTP_200_OK)

    @extend_schema(request=None, responses=TcsArtilleryAnswerSerializer)
    @action(detail=True, methods=["post"], url_path="action-phase")
    def action_phase(self, request, pk=None):
        """The start of the side's Action Phase: its mortar and IG markers go [19.2]."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        run(svc.tcs_markers_action_phase, side=side, actor=request.user)
        text = _("Your mortar and IG markers are removed [19.2].")
        return self._done(request, side, text, code=status.HTTP_200_OK)

    @extend_schema(
        request=TcsBatteryDeleteRequestSerializer, responses=TcsArtilleryAnswerSerializer
    )
    @action(detail=True, methods=["post"], url_path="delete-battery")
    def delete_battery(self, request, pk=None):
        """Delete a battery; refused once it fired this turn [18.1.b]."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        data = body(request)
        if isinstance(request.data, dict):
            data.setdefault("confirm", "true")
        record = ammo_record(side, current_turn(campaign).number)
        d = checked(tf.BatteryDeleteForm(record.batteries, data))
        run(svc.tcs_artillery_battery_delete, side=side, actor=request.user, name=d["name"])
        return self._done(request, side, _("Battery deleted."), code=status.HTTP_200_OK)

    @extend_schema(request=TcsMarkerRemoveRequestSerializer, responses=TcsArtilleryAnswerSerializer)
    @action(detail=True, methods=["post"], url_path="remove-marker")
    def remove_marker(self, request, pk=None):
        """Remove one Smoke or Illum marker by hand, a correction with its reason (logged)."""
        campaign, _viewer, side = load_side(request, pk, act=True)
        d = checked(tf.MarkerRemoveForm(marker_rows(campaign), body(request)))
        run(
            svc.tcs_marker_remove,
            side=side,
            actor=request.user,
            index=d["index"],
            hex_=d["hex"],
            reason=d["reason"],
        )
        return self._done(request, side, _("Marker removed."), code=status.HTTP_200_OK)

    @extend_schema(
        request=TcsMortarRoundRequestSerializer, responses={201: TcsArtilleryAnswerSerializer}
    )
    @action(detail=True, methods=["post"])
    def mortar(self, request, pk=None):
        """A mortar or IG smoke or illumination round instead of an SFA [24.3.c, 24.5.a]."""
        _campaign, _viewer, side = load_side(request, pk, act=True)
        d = checked(tf.MortarRoundForm(body(request, dice=True)))
        placed = run(
            svc.tcs_mortar_round,
            side=side,
            actor=request.user,
            order=d["order"],
            rolls=d["rolls_list"],
        )
        return self._done(request, side, mortar_text(d["order"], placed))

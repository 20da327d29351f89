"""An operation's charts (the charts page): the Morale Table, Fire Table, shift tables and
AT Roll Table as the rules modules take them. Anyone who may see the operation reads them
(404 otherwise); its players and game master replace one chart at a time (403 otherwise)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from campaigns.api.parsers import CheckedJSONParser
from campaigns.api.tcs.common import load, must_take_part, run
from campaigns.models import Campaign
from campaigns.selectors.tcs_charts import charts_data
from campaigns.services.tcs.charts import CHARTS, chart_from_csv, tcs_charts_update


class TcsChartsSerializer(serializers.Serializer):
    campaign = serializers.IntegerField(help_text=gettext_lazy("The operation (campaign id)."))
    morale = serializers.JSONField(
        allow_null=True, help_text=gettext_lazy("Morale Table [17.2]: columns and rows.")
    )
    fire = serializers.JSONField(
        allow_null=True, help_text=gettext_lazy("Fire Table [11.0]: columns, p_firers, rows.")
    )
    shifts = serializers.JSONField(
        allow_null=True,
        help_text=gettext_lazy(
            "Shift tables [11.3, 12.1]: terrain_posture, area_range, stacking, point_range, "
            "differential."
        ),
    )
    at = serializers.JSONField(
        allow_null=True, help_text=gettext_lazy("AT Roll Table [16.0]: terrain, in_hex, one_hex.")
    )
    adjustment = serializers.JSONField(
        allow_null=True,
        help_text=gettext_lazy("Artillery Adjustment Table [18.7.a]: columns and rows."),
    )


class TcsChartUpdateSerializer(serializers.Serializer):
    chart = serializers.ChoiceField(choices=list(CHARTS))
    data = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text=gettext_lazy("The chart as JSON; null or absent (without csv) removes it."),
    )
    csv = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text=gettext_lazy("The chart as CSV (Morale, Fire and AT Roll Tables)."),
    )


def charts_payload(campaign) -> dict:
    stored = charts_data(campaign)
    return {"campaign": campaign.pk, **{key: stored.get(key) for key in CHARTS}}


class ChartsViewSet(viewsets.GenericViewSet):
    """The operation's charts; `{id}` is the operation's campaign id."""

    serializer_class = TcsChartsSerializer
    queryset = Campaign.objects.none()
    parser_classes = [CheckedJSONParser]

    @extend_schema(responses=TcsChartsSerializer)
    def retrieve(self, request, pk=None):
        """Every chart as entered (null: read off the printed chart at the roll)."""
        campaign, _viewer = load(request, pk)
        return Response(charts_payload(campaign))

    @extend_schema(request=TcsChartUpdateSerializer, responses=TcsChartsSerializer)
    def update(self, request, pk=None):
        """Replace one chart, validated by the rules: a 400 names every bad cell and
        nothing changes."""
        campaign, viewer = load(request, pk)
        must_take_part(viewer)
        given = TcsChartUpdateSerializer(data=request.data)
        if not given.is_valid():
            raise ValidationError(given.errors)
        d = given.validated_data
        if d.get("csv", "").strip():
            if d.get("data") is not None:
                raise ValidationError(
                    {"detail": [_("Send the chart as data or as csv, not both.")]}
                )
            data = run(chart_from_csv, chart=d["chart"], text=d["csv"])
        else:
            data = d.get("data")
        run(tcs_charts_update, campaign=campaign, actor=request.user, chart=d["chart"], data=data)
        campaign.refresh_from_db(fields=["tables"])
        return Response(charts_payload(campaign))

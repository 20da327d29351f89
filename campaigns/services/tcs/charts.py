"""An operation's TCS charts [11.0, 11.3, 12.1, 16.0, 17.2]: the Morale Table, the Fire Table,
the shift tables and the AT Roll Table, kept in `Campaign.tables["tcs_charts"]`.

The seed names these charts but prints none: the players type them (or upload JSON/CSV) and
the rules modules validate them, naming every bad cell; a bad chart changes nothing. The
operation's players and its game master may edit them (the charts are shared by both sides,
as the printed charts are).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.i18n import say_problems
from campaigns.models import Campaign, LogEntry, bounds
from campaigns.services._base import append_log
from campaigns.services.tcs.common import locked, may_manage
from rules.errors import TableDataError
from rules.i18n import Msg, msg
from rules.tcs.artillery import AdjustmentTable
from rules.tcs.fire_tables import FireCharts, FireTable, at_roll_table_from_csv
from rules.tcs.morale_table import MoraleTable

KEY = "tcs_charts"
SHIFT_TABLES = ("terrain_posture", "area_range", "stacking", "point_range", "differential")
CHARTS: dict[str, Msg] = {
    "morale": msg("Morale Table"),
    "fire": msg("Fire Table"),
    "shifts": msg("shift tables"),
    "at": msg("AT Roll Table"),
    "adjustment": msg("Artillery Adjustment Table"),
}
RULES = {"morale": "17.2", "fire": "11.0", "shifts": "11.3", "at": "16.0", "adjustment": "18.7.a"}
NO_FIRE_TABLE = FireTable((), ())  # lets `FireCharts` check the other charts on their own


def _morale(data: Any) -> Any:
    return MoraleTable.from_data(data).to_data()


def _fire_data(table: FireTable) -> dict[str, Any]:
    return {
        "columns": [c.label for c in table.columns],
        "p_firers": {c.label: c.p_firers for c in table.columns if c.p_firers},
        "rows": [
            {"rolls": f"{lo}-{hi}" if lo != hi else str(lo), "cells": list(cells)}
            for lo, hi, cells in table.rows
        ],
    }


def _fire(data: Any) -> Any:
    return _fire_data(FireTable.from_data(data))


def _shifts(data: Any) -> Any:
    if not isinstance(data, Mapping) or not data or set(data) - set(SHIFT_TABLES):
        raise TableDataError(
            [("", msg("the shift tables are some of: %(names)s", names=", ".join(SHIFT_TABLES)))]
        )
    FireCharts.from_data({"fire": NO_FIRE_TABLE, **data})
    return {k: data[k] for k in SHIFT_TABLES if data.get(k)}


def _at(data: Any) -> Any:
    FireCharts.from_data({"fire": NO_FIRE_TABLE, "at_roll": data})
    return data


CHECKS: dict[str, Callable[[Any], Any]] = {
    "morale": _morale,
    "fire": _fire,
    "shifts": _shifts,
    "at": _at,
    "adjustment": lambda data: AdjustmentTable.from_data(data).to_data(),
}
CSV_READERS: dict[str, Callable[[str], Any]] = {
    "morale": lambda text: MoraleTable.from_csv(text).to_data(),
    "fire": lambda text: _fire_data(FireTable.from_csv(text)),
    "at": at_roll_table_from_csv,
    "adjustment": lambda text: AdjustmentTable.from_csv(text).to_data(),
}


def chart_from_csv(chart: str, text: str) -> Any:
    """A chart's CSV as its data (the Morale, Fire and AT Roll Tables; shifts are JSON)."""
    if chart not in CSV_READERS:
        raise ValidationError({"chart": _("This chart is uploaded as JSON, not CSV.")})
    try:
        return CSV_READERS[chart](text)
    except TableDataError as exc:
        raise ValidationError({chart: say_problems(exc.problems)}) from None


def tcs_charts_update(*, campaign: Campaign, actor, chart: str, data: Any) -> dict[str, Any]:
    """Store one chart (None or empty: remove it) after the rules validate it; a bad chart
    changes nothing and names every bad cell. Returns all the operation's charts."""
    if chart not in CHECKS:
        raise ValidationError(
            {"chart": _("Choose one of: %(names)s.") % {"names": ", ".join(CHECKS)}}
        )
    if data not in (None, "", [], {}):
        try:
            data = CHECKS[chart](data)
        except TableDataError as exc:
            raise ValidationError({chart: say_problems(exc.problems)}) from None
    else:
        data = None
    with transaction.atomic():
        campaign = locked(campaign.pk)
        may_manage(campaign, actor)
        tables = dict(campaign.tables or {})
        charts = {k: v for k, v in (tables.get(KEY) or {}).items() if k != chart}
        if data is not None:
            charts[chart] = data
        tables[KEY] = charts
        bounds.check_values(Campaign, {"tables": tables})
        campaign.tables = tables
        campaign.save(update_fields=["tables", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=msg("%(chart)s entered.", chart=CHARTS[chart])
            if data is not None
            else msg("%(chart)s removed: read off the printed chart.", chart=CHARTS[chart]),
            rule=RULES[chart],
            actor=actor,
            data={"tcs": {"chart": chart}},
        )
    return charts

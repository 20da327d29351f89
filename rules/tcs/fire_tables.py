"""The TCS fire charts as user data: Fire Table [11.0, 12.0], shift tables [11.3, 12.1] and
AT Roll Table [16.0].

The seed names these charts but prints none of them: a campaign supplies them (validated
here, every bad cell named in words), or the player enters the value read off the chart at
the moment of the roll. Nothing here invents a number.

Fire Table data::

    {"columns": ["0", "1", "2", "3", "4", ..., "11-13", "14-16", ..., "101+"],
     "p_firers": {"4": 1, "5": 2},          # column label → firing steps (point fire)
     "rows": [{"rolls": "11-36", "cells": ["-", "-", "MC", ...]}, ...]}

A cell is "-" (No Effect), "MC" (Morale Check) or a whole number (step losses, or targets
destroyed in point fire). Banded shift tables (range, stacking, differential) are lists of
``{"from": a, "to": b, "shift": s}`` (an open end is null).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.dice import D66
from rules.errors import DiceError, TableDataError
from rules.i18n import Msg, msg
from rules.tables import Field, TableSchema, int_range, one_of

NO_EFFECT = "-"
MORALE_CHECK = "MC"
D66_READINGS = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))
_LABEL = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*$")


class Terrain(StrEnum):
    """The four terrain categories of the Target Terrain/Posture Table [9.3]."""

    BILLIARD_TABLE = "billiard_table"
    OPEN = "open"
    PARTLY_PROTECTIVE = "partly_protective"
    PROTECTIVE = "protective"


class Posture(StrEnum):
    MOVE = "move"
    FIRE = "fire"
    DUG_IN = "dug_in"


TERRAIN_WORDS: dict[Terrain, Msg] = {
    Terrain.BILLIARD_TABLE: msg("Billiard Table"),
    Terrain.OPEN: msg("Open terrain"),
    Terrain.PARTLY_PROTECTIVE: msg("Partly Protective"),
    Terrain.PROTECTIVE: msg("Protective"),
}
POSTURE_WORDS: dict[Posture, Msg] = {
    Posture.MOVE: msg("Move mode"),
    Posture.FIRE: msg("Fire mode"),
    Posture.DUG_IN: msg("Dug In"),
}
CHART_WORDS: dict[str, Msg] = {
    "area": msg("area fire"),
    "area_unspotted": msg("area fire, unspotted (bold)"),
    "point": msg("point fire"),
    "infantry": msg("Infantry"),
    "low_trajectory": msg("Low-Trajectory"),
    "high_trajectory": msg("High-Trajectory"),
    "close": msg("close"),
    "nominal": msg("nominal"),
    "long": msg("long"),
}


def parse_band(text: str) -> tuple[int, int | None] | None:
    """ "11-13" → (11, 13); "101+" → (101, None); "4" → (4, 4); None when unreadable."""
    m = _LABEL.match(str(text))
    if not m:
        return None
    low = int(m.group(1))
    if m.group(4):
        return low, None
    high = int(m.group(3)) if m.group(2) else low
    return (low, high) if high >= low else None


def _cell_ok(cell: Any) -> bool:
    if cell in (NO_EFFECT, MORALE_CHECK):
        return True
    return isinstance(cell, int) and not isinstance(cell, bool) and cell >= 1


def _check_row(record: Mapping[str, Any]) -> list[Msg]:
    band = parse_band(record["rolls"])
    problems = []
    if band is None or band[1] is None:
        problems.append(msg("rolls are a d66 reading or a range such as 11-36"))
    else:
        for end in band:
            try:
                D66.check_value(end)
            except DiceError:
                problems.append(msg("%(roll)s is not a d66 reading (11 to 66)", roll=end))
    bad = [str(i) for i, c in enumerate(record["cells"], start=1) if not _cell_ok(c)]
    if bad:
        problems.append(
            msg(
                "cells %(cells)s: a cell is “-” (No Effect), “MC” (Morale Check) or a "
                "whole number of steps",
                cells=", ".join(bad),
            )
        )
    return problems


FIRE_ROWS_SCHEMA = TableSchema(
    "tcs-fire-table",
    "11.0",
    msg("Fire Table"),
    (
        Field("rolls", str, help="d66 readings of the row, e.g. 11-36", label=msg("rolls")),
        Field("cells", list, help="one result per column", label=msg("results")),
    ),
    keyed_by="rolls",
    description="Read off the game's Fire Table; the series rules do not print it.",
    record_check=_check_row,
)


FIRERS_HEADS = ("firers", "tiradores", "p_firers")
"""The heading of the row of point-fire firing steps, in either language (and the data key)."""


@dataclass(frozen=True)
class FireColumn:
    label: str
    low: int
    high: int | None
    p_firers: int | None = None

    def holds(self, value: int) -> bool:
        return self.low <= value and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class FireTable:
    """Columns by firing value (left to right), d66 rows, a result in every cell."""

    columns: tuple[FireColumn, ...]
    rows: tuple[tuple[int, int, tuple[Any, ...]], ...]

    @classmethod
    def from_data(cls, data: Any) -> FireTable:
        """Validate user data; raises `TableDataError` naming every bad cell."""
        where = msg("Fire Table")
        if not isinstance(data, Mapping):
            raise TableDataError(
                [("", msg("the Fire Table has columns, rows and the firing steps of its columns"))]
            )
        labels = data.get("columns")
        problems: list[tuple[str | Msg, Msg]] = []
        if not isinstance(labels, list) or not labels:
            raise TableDataError([(where, msg("give the column headings, left to right"))])
        bands = [parse_band(label) for label in labels]
        for label, band in zip(labels, bands, strict=True):
            if band is None:
                problems.append(
                    (where, msg("column %(label)s: write 4, 11-13 or 101+", label=label))
                )
        if not problems:
            if bands[0][0] != 0:
                problems.append((where, msg("the first column starts at 0")))
            if bands[-1][1] is not None:
                problems.append((where, msg("the last column is open-ended, such as 101+")))
            for i in range(1, len(bands)):
                prev = bands[i - 1][1]
                if prev is None or bands[i][0] != prev + 1:
                    problems.append(
                        (
                            where,
                            msg(
                                "the column after %(label)s starts one above it",
                                label=labels[i - 1],
                            ),
                        )
                    )
        p_firers = data.get("p_firers") or {}
        if not isinstance(p_firers, Mapping) or any(
            k not in labels or not isinstance(v, int) or isinstance(v, bool) or v < 1
            for k, v in p_firers.items()
        ):
            problems.append(
                (where, msg("the firers row gives a number of firing steps per column heading"))
            )
        problems.extend(FIRE_ROWS_SCHEMA.validate(data.get("rows")))
        if not problems:
            problems.extend(_check_rows(data["rows"], len(labels)))
        if problems:
            raise TableDataError(problems, rule="11.0")
        columns = tuple(
            FireColumn(str(label), band[0], band[1], p_firers.get(label))
            for label, band in zip(labels, bands, strict=True)
        )
        rows = []
        for r in data["rows"]:
            low, high = parse_band(r["rolls"])
            rows.append((low, high, tuple(r["cells"])))
        return cls(columns, tuple(sorted(rows)))

    @classmethod
    def from_csv(cls, text: str) -> FireTable:
        """First line: "rolls" then the column headings; an optional "firers" line; then
        one line per row: the rolls and a cell per column."""
        lines = [row for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)]
        if not lines:
            raise TableDataError([("", msg("the Fire Table has no rows"))], rule="11.0")
        labels = [c.strip() for c in lines[0][1:]]
        p_firers: dict[str, int] = {}
        rows = []
        for line in lines[1:]:
            head, cells = line[0].strip(), [_csv_cell(c) for c in line[1:]]
            if head.lower() in FIRERS_HEADS:
                p_firers = {lab: c for lab, c in zip(labels, cells, strict=False) if c != ""}
            else:
                rows.append({"rolls": head, "cells": cells})
        return cls.from_data({"columns": labels, "p_firers": p_firers, "rows": rows})

    def column_for(self, value: int) -> int:
        """Index of the column whose range holds a firing value [11.0]."""
        return next(i for i, c in enumerate(self.columns) if c.holds(value))

    def cell(self, column: int, roll: int) -> Any:
        return next(cells[column] for low, high, cells in self.rows if low <= roll <= high)


def _csv_cell(text: str) -> Any:
    text = text.strip()
    return int(text) if text.isdigit() else text


def _check_rows(rows: Sequence[Mapping[str, Any]], width: int) -> list[tuple[str | Msg, Msg]]:
    problems: list[tuple[str | Msg, Msg]] = []
    covered: dict[int, str] = {}
    for n, r in enumerate(rows, start=1):
        where = msg("%(table)s, row %(n)s", table=msg("Fire Table"), n=n)
        if len(r["cells"]) != width:
            problems.append((where, msg("give one result per column (%(n)s)", n=width)))
        low, high = parse_band(r["rolls"])
        for roll in (v for v in D66_READINGS if low <= v <= high):
            if roll in covered:
                problems.append((where, msg("roll %(roll)s is in two rows", roll=roll)))
            covered[roll] = r["rolls"]
    missing = [str(v) for v in D66_READINGS if v not in covered]
    if missing:
        problems.append(
            (msg("Fire Table"), msg("no row for rolls %(rolls)s", rolls=", ".join(missing)))
        )
    return problems


# ---------------------------------------------------------------------------------------------
# Shift tables


def _band_check(record: Mapping[str, Any]) -> list[Msg]:
    low, high = record.get("from"), record.get("to")
    if low is not None and high is not None and high < low:
        return [msg("“to” is not below “from”")]
    return []


def _band_fields(*extra: Field) -> tuple[Field, ...]:
    return (
        Field("from", int, required=False, help="lowest value (empty: no lower end)"),
        Field("to", int, required=False, help="highest value (empty: no upper end)"),
        Field("shift", int, help="column shift, + right", label=msg("column shift")),
        *extra,
    )


@dataclass(frozen=True)
class Band:
    low: int | None
    high: int | None
    shift: int
    extra: Mapping[str, Any]

    def holds(self, value: int) -> bool:
        return (self.low is None or self.low <= value) and (self.high is None or value <= self.high)


def _bands(schema: TableSchema, data: Any) -> tuple[Band, ...]:
    """Validated bands; two bands of the same row may not share a value."""
    bands = tuple(
        Band(
            r.get("from"),
            r.get("to"),
            r["shift"],
            {k: v for k, v in r.items() if k not in ("from", "to", "shift")},
        )
        for r in schema.clean(data)
    )
    problems: list[tuple[str | Msg, Msg]] = []
    for i, a in enumerate(bands):
        for j, b in enumerate(bands[:i]):
            lows = [v for v in (a.low, b.low) if v is not None]
            highs = [v for v in (a.high, b.high) if v is not None]
            overlap = not lows or not highs or max(lows) <= min(highs)
            if overlap and a.extra.get("firer") == b.extra.get("firer"):
                where = msg("%(table)s, row %(n)s", table=schema.title, n=i + 1)
                problems.append((where, msg("overlaps row %(n)s", n=j + 1)))
    if problems:
        raise TableDataError(problems, rule=schema.rule)
    return bands


FIRER_ROWS = ("infantry", "low_trajectory", "high_trajectory")
AREA_RANGE_SCHEMA = TableSchema(
    "tcs-area-range",
    "11.3.c",
    msg("Area Fire Range Modifier Table"),
    (
        Field(
            "firer",
            str,
            check=one_of(*FIRER_ROWS),
            help="infantry, low_trajectory (other low-trajectory firers) or high_trajectory",
            label=msg("firer row"),
        ),
        *_band_fields(),
    ),
    record_check=_band_check,
)
STACKING_SCHEMA = TableSchema(
    "tcs-stacking",
    "11.3.e",
    msg("stacking modifiers"),
    _band_fields(
        Field("unspotted_shift", int, required=False, help="asterisked value [7.1.d]"),
    ),
    record_check=_band_check,
)
DIFFERENTIAL_SCHEMA = TableSchema(
    "tcs-differential",
    "12.1.c",
    msg("point fire differential"),
    _band_fields(),
    record_check=_band_check,
)
POINT_RANGE_SCHEMA = TableSchema(
    "tcs-point-range",
    "12.1.b",
    msg("Point Fire Range Modifier Table"),
    (
        Field("band", str, check=one_of("close", "nominal", "long"), label=msg("range")),
        Field("shift", int, label=msg("column shift")),
    ),
    keyed_by="band",
)
TERRAIN_POSTURE_SCHEMA = TableSchema(
    "tcs-terrain-posture",
    "11.3.a",
    msg("Target Terrain/Posture Table"),
    (
        Field("terrain", str, check=one_of(*(t.value for t in Terrain)), label=msg("terrain")),
        Field("posture", str, check=one_of(*(p.value for p in Posture)), label=msg("posture")),
        Field("area", int, required=False, help="area fire shift"),
        Field("area_unspotted", int, required=False, help="bold column [7.1.d, 11.3.a]"),
        Field("point", int, required=False, help="point fire shift"),
    ),
)
AT_ROLL_SCHEMA = TableSchema(
    "tcs-at-roll",
    "16.0",
    msg("AT Roll Table"),
    (
        Field("terrain", str, check=one_of(*(t.value for t in Terrain)), label=msg("terrain")),
        Field("in_hex", int, required=False, check=int_range(2, 13), label=msg("In-hex")),
        Field("one_hex", int, required=False, check=int_range(2, 13), label=msg("One-hex Range")),
    ),
    keyed_by="terrain",
)


@dataclass(frozen=True)
class FireCharts:
    """Every chart a fire attack may read; any may be missing (then the player enters it)."""

    fire: FireTable
    terrain_posture: Mapping[tuple[Terrain, Posture], Mapping[str, int | None]] | None = None
    area_range: Mapping[str, tuple[Band, ...]] | None = None
    stacking: tuple[Band, ...] | None = None
    point_range: Mapping[str, int] | None = None
    differential: tuple[Band, ...] | None = None
    at_roll: Mapping[Terrain, Mapping[int, int | None]] | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> FireCharts:
        """Build from {"fire": ..., "terrain_posture": [...], "area_range": [...], ...}."""
        tp = None
        if data.get("terrain_posture") is not None:
            records = TERRAIN_POSTURE_SCHEMA.clean(data["terrain_posture"])
            tp = {
                (Terrain(r["terrain"]), Posture(r["posture"])): {
                    k: r.get(k) for k in ("area", "area_unspotted", "point")
                }
                for r in records
            }
        area = None
        if data.get("area_range") is not None:
            bands = _bands(AREA_RANGE_SCHEMA, data["area_range"])
            area = {row: tuple(b for b in bands if b.extra["firer"] == row) for row in FIRER_ROWS}
        at = None
        if data.get("at_roll") is not None:
            at = {
                Terrain(r["terrain"]): {0: r.get("in_hex"), 1: r.get("one_hex")}
                for r in AT_ROLL_SCHEMA.clean(data["at_roll"])
            }
        fire = data["fire"]
        return cls(
            fire if isinstance(fire, FireTable) else FireTable.from_data(fire),
            tp,
            area,
            _bands(STACKING_SCHEMA, data["stacking"]) if data.get("stacking") else None,
            {r["band"]: r["shift"] for r in POINT_RANGE_SCHEMA.clean(data["point_range"])}
            if data.get("point_range")
            else None,
            _bands(DIFFERENTIAL_SCHEMA, data["differential"]) if data.get("differential") else None,
            at,
        )


def at_roll_table_from_csv(text: str) -> list[dict[str, Any]]:
    """CSV "terrain,in_hex,one_hex" → AT Roll Table data (validate with `FireCharts`)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    return [
        {k: (_csv_cell(v) if k != "terrain" else v.strip()) or None for k, v in r.items()}
        for r in rows
    ]

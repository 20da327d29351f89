"""The TCS charts typed as grids (campaigns/grid.py): Morale Table [17.2], Fire Table [11.0],
shift tables [11.3, 12.1] and AT Roll Table [16.0]. Cells are checked one by one here; the
service then checks the whole chart with the rules modules."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaigns.grid import Axis, CellError, Grid, GridError, Table, TableInput
from rules.tcs.artillery import parse_shoot
from rules.tcs.fire_tables import (
    CHART_WORDS,
    FIRER_ROWS,
    FIRERS_HEADS,
    MORALE_CHECK,
    NO_EFFECT,
    POSTURE_WORDS,
    TERRAIN_WORDS,
    Posture,
    Terrain,
)
from rules.tcs.morale_table import parse_range, parse_result

BLANK = "-"


def _shift(text: str) -> int | None:
    """A column shift: a whole number such as +1, 0 or -2; "-" means none."""
    if text == BLANK:
        return None
    try:
        return int(text.replace("−", "-"))
    except ValueError:
        raise CellError(_("a whole number such as +1, 0 or -2, or - for none")) from None


def _band(text: str) -> tuple[int | None, int | None]:
    found = parse_range(text.replace("−", "-"))
    if found is None:
        raise CellError(_("a range such as ≤2, 3-5, 6 or 7+"))
    return found


def _band_text(low, high) -> str:
    if low is None:
        return f"≤{high}"
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def _cell_text(value) -> str:
    return BLANK if value is None else str(value)


class MoraleGrid(Grid):
    """The Morale Table: total-range columns, d66-range rows, a result word in each cell."""

    tables = (
        Table(
            key="morale",
            title=_("Morale Table"),
            rows=Axis(_("d66 rolls"), least=6),
            columns=Axis(_("Morale check total"), least=4),
        ),
    )

    def read_cell(self, text):
        result = parse_result(text)
        if result is None:
            raise CellError(_("a result: none, suppressed, paralyzed, syr or surrender"))
        return result.value

    def pack(self, tables):
        t = tables["morale"]
        rows = [{"rolls": r, "results": c} for r, c in zip(t.rows, t.cells, strict=True)]
        return {"columns": t.columns, "rows": rows}

    def unpack(self, data):
        rows = data.get("rows") or []
        return {
            "morale": TableInput(
                rows=[str(r.get("rolls", "")) for r in rows],
                columns=[str(c) for c in data.get("columns") or []],
                cells=[[str(c) for c in r.get("results") or []] for r in rows],
            )
        }


class FireGrid(Grid):
    """The Fire Table: firing-value columns, d66-range rows (a row headed "firers" gives the
    firing steps of the point fire columns), "-", "MC" or a number in each cell."""

    tables = (
        Table(
            key="fire",
            title=_("Fire Table"),
            rows=Axis(_("d66 rolls (or “firers”)"), least=6),
            columns=Axis(_("Firing value"), least=6),
        ),
    )

    def read_cell(self, text):
        if text in (NO_EFFECT, "—"):
            return NO_EFFECT
        if text.upper() == MORALE_CHECK:
            return MORALE_CHECK
        if text.isdigit() and int(text) >= 1:
            return int(text)
        raise CellError(_("- (No Effect), MC (Morale Check) or a whole number of steps"))

    def pack(self, tables):
        t = tables["fire"]
        rows, p_firers, problems = [], {}, []
        for i, (head, cells) in enumerate(zip(t.rows, t.cells, strict=True)):
            if head.strip().lower() not in FIRERS_HEADS:
                rows.append({"rolls": head, "cells": cells})
                continue
            for j, (label, cell) in enumerate(zip(t.columns, cells, strict=True)):
                if cell == MORALE_CHECK:
                    problems.append(("fire", i, j, _("a number of firing steps, or -")))
                elif cell != NO_EFFECT:
                    p_firers[label] = cell
        if problems:
            raise GridError(problems)
        return {"columns": t.columns, "p_firers": p_firers, "rows": rows}

    def unpack(self, data):
        columns = [str(c) for c in data.get("columns") or []]
        p_firers = data.get("p_firers") or {}
        rows = data.get("rows") or []
        heads = [str(r.get("rolls", "")) for r in rows]
        cells = [[str(c) for c in r.get("cells") or []] for r in rows]
        if p_firers:
            heads.append(str(_("firers")))
            cells.append([str(p_firers.get(c, BLANK)) for c in columns])
        return {"fire": TableInput(rows=heads, columns=columns, cells=cells)}


AT_COLUMNS = (("in_hex", _("In-hex")), ("one_hex", _("One-hex Range")))


class AtRollGrid(Grid):
    """The AT Roll Table: a 2d6 number (2–13) per terrain and range, "-" where none."""

    tables = (
        Table(
            key="at",
            title=_("AT Roll Table"),
            rows=Axis(_("Terrain"), fixed=tuple((t.value, TERRAIN_WORDS[t]) for t in Terrain)),
            columns=Axis(_("Range"), fixed=AT_COLUMNS),
        ),
    )

    def read_cell(self, text):
        if text == BLANK:
            return None
        if not text.isdigit() or not 2 <= int(text) <= 13:
            raise CellError(_("a number from 2 to 13, or - for none"))
        return int(text)

    def pack(self, tables):
        t = tables["at"]
        return [
            {"terrain": row, **dict(zip(t.columns, cells, strict=True))}
            for row, cells in zip(t.rows, t.cells, strict=True)
        ]

    def unpack(self, data):
        found = {r.get("terrain"): r for r in data if isinstance(r, dict)}
        return {
            "at": TableInput(
                cells=[
                    [_cell_text(found.get(t.value, {}).get(k)) for k, _w in AT_COLUMNS]
                    for t in Terrain
                ]
            )
        }


TP_ROWS = tuple(
    (f"{t.value}/{p.value}", f"{TERRAIN_WORDS[t]}, {POSTURE_WORDS[p]}")
    for t in Terrain
    for p in Posture
)
TP_COLUMNS = tuple((k, CHART_WORDS[k]) for k in ("area", "area_unspotted", "point"))
STACK_COLUMNS = (("shift", _("column shift")), ("unspotted_shift", _("unspotted (asterisk)")))
SHIFT = (("shift", _("column shift")),)


class ShiftsGrid(Grid):
    """The shift tables: terrain/posture [11.3.a], area fire range [11.3.c], stacking
    [11.3.e], point fire range [12.1.b] and differential [12.1.c]; a number or "-"."""

    tables = (
        Table(
            key="terrain_posture",
            title=_("Target Terrain/Posture Table"),
            rows=Axis(_("Terrain and posture"), fixed=TP_ROWS),
            columns=Axis(_("Fire"), fixed=TP_COLUMNS),
        ),
        Table(
            key="area_range",
            title=_("Area Fire Range Modifier Table"),
            rows=Axis(_("Range in hexes"), read=_band),
            columns=Axis(_("Firer"), fixed=tuple((k, CHART_WORDS[k]) for k in FIRER_ROWS)),
        ),
        Table(
            key="stacking",
            title=_("Stacking modifiers"),
            rows=Axis(_("Steps in the target hex"), read=_band),
            columns=Axis(_("Shift"), fixed=STACK_COLUMNS),
        ),
        Table(
            key="point_range",
            title=_("Point Fire Range Modifier Table"),
            rows=Axis(
                _("Range"), fixed=tuple((k, CHART_WORDS[k]) for k in ("close", "nominal", "long"))
            ),
            columns=Axis(_("Shift"), fixed=SHIFT),
        ),
        Table(
            key="differential",
            title=_("Point fire differential"),
            rows=Axis(_("Differential"), read=_band),
            columns=Axis(_("Shift"), fixed=SHIFT),
        ),
    )

    def read_cell(self, text):
        return _shift(text)

    def pack(self, tables):
        out, problems = {}, []
        for key, t in tables.items():
            if key == "terrain_posture":
                out[key] = [
                    {"terrain": row.split("/")[0], "posture": row.split("/")[1]}
                    | dict(zip(t.columns, cells, strict=True))
                    for row, cells in zip(t.rows, t.cells, strict=True)
                ]
                continue
            records = []
            for i, (row, cells) in enumerate(zip(t.rows, t.cells, strict=True)):
                if key == "point_range":
                    if cells[0] is not None:
                        records.append({"band": row, "shift": cells[0]})
                    continue
                low, high = row
                for j, (col, cell) in enumerate(zip(t.columns, cells, strict=True)):
                    if key == "area_range" and cell is not None:
                        records.append({"firer": col, "from": low, "to": high, "shift": cell})
                    elif key != "area_range" and j == 0 and cell is None:
                        problems.append((key, i, j, _("give the shift")))
                if key != "area_range" and cells[0] is not None:
                    record = {"from": low, "to": high, "shift": cells[0]}
                    if key == "stacking" and cells[1] is not None:
                        record["unspotted_shift"] = cells[1]
                    records.append(record)
            out[key] = records
        if problems:
            raise GridError(problems)
        return out

    def unpack(self, data):
        found = {}
        tp = {(r.get("terrain"), r.get("posture")): r for r in data.get("terrain_posture") or []}
        if tp:
            found["terrain_posture"] = TableInput(
                cells=[
                    [_cell_text(tp.get(tuple(k.split("/")), {}).get(c)) for c, _w in TP_COLUMNS]
                    for k, _w in TP_ROWS
                ]
            )
        by_band: dict[str, dict] = {}
        for r in data.get("area_range") or []:
            by_band.setdefault(_band_text(r.get("from"), r.get("to")), {})[r.get("firer")] = r
        if by_band:
            found["area_range"] = TableInput(
                rows=list(by_band),
                cells=[
                    [_cell_text(v.get(f, {}).get("shift")) for f in FIRER_ROWS]
                    for v in by_band.values()
                ],
            )
        for key, columns in (("stacking", STACK_COLUMNS), ("differential", SHIFT)):
            records = data.get(key) or []
            if records:
                found[key] = TableInput(
                    rows=[_band_text(r.get("from"), r.get("to")) for r in records],
                    cells=[[_cell_text(r.get(c)) for c, _w in columns] for r in records],
                )
        pr = {r.get("band"): r.get("shift") for r in data.get("point_range") or []}
        if pr:
            found["point_range"] = TableInput(
                cells=[[_cell_text(pr.get(k))] for k in ("close", "nominal", "long")]
            )
        return found


class AdjustmentGrid(MoraleGrid):
    """The Artillery Adjustment Table [18.7.a]: adjustment-value columns, d66-range rows, No
    Shoot, Scatter, Bad Shoot or Good Shoot in each cell (stored like the Morale Table)."""

    tables = (
        Table(
            key="adjustment",
            title=_("Artillery Adjustment Table"),
            rows=Axis(_("d66 rolls"), least=1),
            columns=Axis(_("Adjustment value"), least=1),
        ),
    )

    def read_cell(self, text):
        result = parse_shoot(text)
        if result is None:
            raise CellError(_("a result: No Shoot, Scatter, Bad Shoot or Good Shoot"))
        return result.value

    def pack(self, tables):
        return super().pack({"morale": tables["adjustment"]})

    def unpack(self, data):
        return {"adjustment": super().unpack(data)["morale"]}


GRIDS: dict[str, Grid] = {
    "morale": MoraleGrid(),
    "fire": FireGrid(),
    "shifts": ShiftsGrid(),
    "at": AtRollGrid(),
    "adjustment": AdjustmentGrid(),
}

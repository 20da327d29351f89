"""The counter table of a battle [3, 3.1, 11]: the values printed on units and Weapons.

The seed gives no counter values (the counters and the player aid's Unit VP values table are
not in it), so the table is user data, per nationality: for each unit type its good-order
and broken sides (FP, Range, Move, Morale; Command for Leaders; boxed values, 3.1.6) and VP
value; for each Weapon its FP, Range (min–max for mortars), Move modifier, boxed values,
white band (Artillery, 11.5), Smoke capability and Fix/Elim numbers (11.4). Only the figures
come from the seed: Squad 4, Team 2, Leader 1 [3].

A table is given as data (`table_from_data`, JSON-ready) or as CSV text (`table_from_csv`):
one row per unit type or Weapon, the same column names in both. Every problem is reported at
once (`TableDataError`), each naming the nationality, the row (counting data rows from 1)
and the field, in words.

Unit columns: nationality, name, kind (squad/team/leader/hero), vp, fp, range, move, morale,
command, boxed (any of "fp range move"), and broken_fp … broken_boxed for the broken side.
Weapon columns: nationality, name, fp, range ("12" or "2-12"), move, boxed, artillery,
smoke (yes/no), fix, elim ("3" or "1-2", may be blank).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.cc.battle.units import FIGURES, LEADERS, UnitKind
from rules.errors import RuleError, TableDataError
from rules.i18n import Msg, msg

BOXABLE = ("fp", "range", "move")  # [3.1.6]
YES, NO = ("yes", "y", "true", "1", "x", "si", "sí"), ("no", "n", "false", "0", "")

FIELD_LABELS: dict[str, Msg] = {
    "nationality": msg("Nationality"),
    "name": msg("Name"),
    "kind": msg("Kind"),
    "vp": msg("VP value"),
    "fp": msg("Firepower"),
    "range": msg("Range"),
    "move": msg("Movement"),
    "morale": msg("Morale"),
    "command": msg("Command"),
    "boxed": msg("Boxed values"),
    "artillery": msg("White band (Artillery)"),
    "smoke": msg("Smoke"),
    "fix": msg("Fix"),
    "elim": msg("Elim"),
}
BOUNDS = {  # plausibility bounds for typed values, not rules values
    "vp": (0, 30),
    "fp": (0, 30),
    "range": (0, 30),
    "move": (0, 12),
    "morale": (1, 12),
    "command": (0, 6),
    "weapon_move": (-6, 6),
    "hex": (1, 20),
}


@dataclass(frozen=True)
class PrintedValues:
    """One side of a unit counter [3.1]."""

    fp: int
    range: int
    move: int
    morale: int
    command: int | None = None  # Leaders only [3.1.5]
    boxed: frozenset[str] = frozenset()  # of "fp", "range", "move" [3.1.6]


@dataclass(frozen=True)
class UnitType:
    nationality: str
    name: str
    kind: UnitKind
    vp: int
    good: PrintedValues
    broken: PrintedValues

    @property
    def figures(self) -> int:
        return FIGURES[self.kind]


@dataclass(frozen=True)
class WeaponType:
    nationality: str
    name: str
    fp: int
    range_max: int
    move: int  # the carrier's Move modifier
    range_min: int = 0  # mortars fire only from this distance
    boxed: frozenset[str] = frozenset()
    artillery: bool = False  # white band [11.5]
    smoke: bool = False
    fix: tuple[int, int] | None = None  # random-hex numbers that repair it [11.4]
    elim: tuple[int, int] | None = None  # … and that eliminate it


@dataclass(frozen=True)
class CounterTable:
    units: tuple[UnitType, ...] = ()
    weapons: tuple[WeaponType, ...] = ()


@dataclass(frozen=True)
class CellProblem:
    """Where a problem is, for a grid: "units" or "weapons", the row (counting data rows from
    1) and the column ("" for the whole row)."""

    section: str
    row: int
    column: str
    text: Msg


class CounterTableError(TableDataError):
    """A `TableDataError` whose problems also name their cell (`cells`)."""

    def __init__(self, problems: list, cells: list[CellProblem]) -> None:
        self.cells = cells
        super().__init__(problems, rule="3.1")


class _Row:
    """Reads one row's fields, collecting every problem with its path and its cell."""

    def __init__(
        self, record: Any, path: Msg, problems: list, cells: list, where: tuple[str, int]
    ) -> None:
        self.record = record if isinstance(record, Mapping) else {}
        self.path, self.problems, self.cells, self.where = path, problems, cells, where
        if not isinstance(record, Mapping):
            self.fail(msg("enter the row as named fields"))

    def fail(self, text: Msg, key: str = "") -> None:
        self.problems.append((self.path, text))
        self.cells.append(CellProblem(*self.where, key, text))

    def raw(self, key: str) -> Any:
        value = self.record.get(key)
        return value.strip() if isinstance(value, str) else value

    def whole(self, key: str, bounds: str = "", *, label: str = "", optional: bool = False):
        low, high = BOUNDS[bounds or key]
        value = self.raw(key)
        if optional and value in (None, ""):
            return None
        try:
            number = int(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            number = None
        if number is None or not low <= number <= high or str(number) != str(value).lstrip("+"):
            self.fail(
                msg(
                    "%(field)s: enter a whole number from %(low)s to %(high)s",
                    field=FIELD_LABELS[label or key],
                    low=low,
                    high=high,
                ),
                key,
            )
            return None
        return number

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str) or not value:
            self.fail(msg("%(field)s: enter it as printed", field=FIELD_LABELS[key]), key)
            return ""
        return value

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if isinstance(value, bool):
            return value
        word = str(value or "").lower()
        if word not in YES + NO:
            self.fail(msg("%(field)s: enter yes or no", field=FIELD_LABELS[key]), key)
        return word in YES

    def boxed(self, key: str) -> frozenset[str]:
        value = self.raw(key) or ""
        words = value if isinstance(value, list) else str(value).replace(",", " ").split()
        words = [str(w).lower() for w in words]
        if any(w not in BOXABLE for w in words):
            self.fail(
                msg("%(field)s: list any of fp, range, move", field=FIELD_LABELS["boxed"]), key
            )
        return frozenset(w for w in words if w in BOXABLE)

    def span(self, key: str, *, optional: bool) -> tuple[int, int] | None:
        """ "3" or "1-2" (a list [1, 2] in data): a range of numbers, low to high."""
        value = self.raw(key)
        if optional and value in (None, ""):
            return None
        parts = value if isinstance(value, list) else str(value).split("-")
        low, high = BOUNDS["range" if key == "range" else "hex"]
        try:
            numbers = [int(p) for p in parts]
        except (TypeError, ValueError):
            numbers = []
        if len(numbers) == 1:
            numbers *= 2
        if len(numbers) != 2 or not low <= numbers[0] <= numbers[1] <= high:
            self.fail(
                msg(
                    "%(field)s: enter a number or a span such as 2-5, from %(low)s to %(high)s",
                    field=FIELD_LABELS[key],
                    low=low,
                    high=high,
                ),
                key,
            )
            return None
        return numbers[0], numbers[1]


def _side(row: _Row, kind: UnitKind | None, prefix: str) -> PrintedValues | None:
    values = {k: row.whole(prefix + k, k, label=k) for k in ("fp", "range", "move", "morale")}
    command = row.whole(prefix + "command", "command", label="command", optional=True)
    if kind in LEADERS and command is None and row.raw(prefix + "command") in (None, ""):
        row.fail(msg("Command: a Leader has a Command value; enter it"), prefix + "command")
    if kind in FIGURES and kind not in LEADERS and command is not None:
        row.fail(
            msg("Command: only Leaders have a Command value; leave it blank"), prefix + "command"
        )
    boxed = row.boxed(prefix + "boxed")
    if any(v is None for v in values.values()):
        return None
    return PrintedValues(**values, command=command, boxed=boxed)


def _unit(record: Any, index: int, problems: list, cells: list) -> UnitType | None:
    nationality, name = _ids(record)
    row = _Row(record, _path("row", nationality, index, name), problems, cells, ("units", index))
    nationality, name = row.text("nationality"), row.text("name")
    kind_word = str(row.raw("kind") or "").lower()
    kind = UnitKind(kind_word) if kind_word in FIGURES else None
    if kind is None:
        row.fail(msg("Kind: enter squad, team, leader or hero"), "kind")
    vp = row.whole("vp")
    good, broken = _side(row, kind, ""), _side(row, kind, "broken_")
    if None in (kind, vp, good, broken) or not (nationality and name):
        return None
    return UnitType(nationality, name, kind, vp, good, broken)


def _weapon(record: Any, index: int, problems: list, cells: list) -> WeaponType | None:
    nationality, name = _ids(record)
    where = ("weapons", index)
    row = _Row(record, _path("weapon", nationality, index, name), problems, cells, where)
    nationality, name = row.text("nationality"), row.text("name")
    fp, move = row.whole("fp"), row.whole("move", "weapon_move")
    reach = row.span("range", optional=False)
    fix, elim = row.span("fix", optional=True), row.span("elim", optional=True)
    if fix and elim and fix[0] <= elim[1] and elim[0] <= fix[1]:
        row.fail(msg("Fix and Elim: a random-hex number cannot both repair and eliminate"), "elim")
    weapon = dict(
        boxed=row.boxed("boxed"), artillery=row.flag("artillery"), smoke=row.flag("smoke")
    )
    if None in (fp, move, reach) or not (nationality and name):
        return None
    low, high = reach
    return WeaponType(
        nationality, name, fp, high, move, low if low != high else 0, fix=fix, elim=elim, **weapon
    )


def _ids(record: Any) -> tuple[str, str]:
    if not isinstance(record, Mapping):
        return "?", "?"
    return str(record.get("nationality") or "?").strip(), str(record.get("name") or "?").strip()


def _path(what: str, nationality: str, index: int, name: str) -> Msg:
    where = {"nationality": nationality, "row": index, "name": name}
    if what == "weapon":
        return msg("%(nationality)s, Weapon row %(row)s (%(name)s)", **where)
    return msg("%(nationality)s, row %(row)s (%(name)s)", **where)


def table_from_data(data: Mapping[str, Any]) -> CounterTable:
    """A counter table from `{"units": [row, …], "weapons": [row, …]}`; all problems at once."""
    problems: list[tuple[Msg, Msg]] = []
    cells: list[CellProblem] = []
    if not isinstance(data, Mapping) or not isinstance(data.get("units", []), list):
        raise TableDataError(
            [("", msg("enter the table as lists of units and weapons"))], rule="3.1"
        )
    units = [_unit(r, i, problems, cells) for i, r in enumerate(data.get("units", []), 1)]
    weapons = [_weapon(r, i, problems, cells) for i, r in enumerate(data.get("weapons") or [], 1)]
    for kind, section, rows in (("row", "units", units), ("weapon", "weapons", weapons)):
        seen: set[tuple[str, str]] = set()
        for i, row in enumerate(rows, 1):
            if row is not None and (row.nationality, row.name) in seen:
                again = msg("this name is already in the table")
                problems.append((_path(kind, row.nationality, i, row.name), again))
                cells.append(CellProblem(section, i, "name", again))
            if row is not None:
                seen.add((row.nationality, row.name))
    if problems:
        raise CounterTableError(problems, cells)
    return CounterTable(tuple(units), tuple(weapons))


def table_from_csv(units: str, weapons: str = "") -> CounterTable:
    """A counter table from CSV text with a header row (see the module's column names)."""
    return table_from_data(
        {
            "units": list(csv.DictReader(io.StringIO(units.strip()))),
            "weapons": list(csv.DictReader(io.StringIO(weapons.strip())))
            if weapons.strip()
            else [],
        }
    )


def unit_type(table: CounterTable, nationality: str, name: str) -> UnitType:
    for unit in table.units:
        if unit.nationality == nationality and unit.name == name:
            return unit
    raise RuleError(
        msg(
            "the counter table has no %(nationality)s unit called %(name)s; add it to the table",
            nationality=nationality,
            name=name,
        ),
        rule="3.1",
    )


def unit_values(
    table: CounterTable, nationality: str, name: str, *, broken: bool = False
) -> PrintedValues:
    """The printed values of one side of a unit counter [3.1, 3.2.1]."""
    unit = unit_type(table, nationality, name)
    return unit.broken if broken else unit.good


def weapon_values(table: CounterTable, nationality: str, name: str) -> WeaponType:
    for weapon in table.weapons:
        if weapon.nationality == nationality and weapon.name == name:
            return weapon
    raise RuleError(
        msg(
            "the counter table has no %(nationality)s Weapon called %(name)s; add it to the table",
            nationality=nationality,
            name=name,
        ),
        rule="11",
    )

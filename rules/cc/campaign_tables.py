"""The campaign tables the rulebook refers to without printing them, supplied per campaign.

The Campaign Forces Table (ST-C1.5.1, NO-C1.51) and the Divisional Reserve Tables (ST-C3.5,
NO-C1.52) are printed on the original scenario sheets, not in the rulebook. A campaign supplies
them as data; every value the rulebook does not give is null (not known yet) and a procedure
that needs it raises `RuleError` naming the rule. `rules/cc/data/campaign_tables.example.json`
holds only the values the rulebook gives.

Each table is described once, as `Column`s with the words a player reads; `check` reports
every problem of a supplied table in those words (a `Problem` per cell, as a message id so
the site shows it in the reader's language).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.cc.common import Faction, Quality
from rules.errors import RuleError, TableDataError
from rules.i18n import Msg, msg
from rules.tables import MISSING, load_json

EXAMPLE_FILE = Path(__file__).parent / "data" / "campaign_tables.example.json"

FORCES_KEY = "campaign_forces"
DIVISIONAL_KEY = "divisional_reserve"


@dataclass(frozen=True)
class Column:
    """One column of a campaign table, in a player's words.

    `kind` is "text", "number" (a whole number from `low` to `high`) or "side".
    `needed`: a value the rules read, so a new row starts with it not known yet (null)
    rather than absent.
    """

    name: str
    label: Msg
    kind: str = "text"
    required: bool = False
    low: int | None = None
    high: int | None = None
    help: Msg | None = None
    needed: bool = False


@dataclass(frozen=True)
class CampaignTable:
    """A campaign table: its key in the campaign's data, title, rule and columns."""

    key: str
    title: Msg
    rule: str
    columns: tuple[Column, ...]
    keyed_by: str | None = None
    optional: bool = False
    """True when the table may have no rows yet (then the campaign stops where it needs one)."""


def _number(name: str, label: Msg, low: int, high: int | None = None, **kw: Any) -> Column:
    return Column(name, label, "number", low=low, high=high, **kw)


FORCES_TABLE = CampaignTable(
    key=FORCES_KEY,
    title=msg("Campaign Forces Table"),
    rule="ST-C1.5.1/NO-C1.51",
    keyed_by="formation",
    columns=(
        Column(
            "formation",
            msg("Formation"),
            required=True,
            help=msg("the patrol letter (Stalingrad) or the section leader's name (Normandy)"),
        ),
        Column("side", msg("Side"), "side", required=True),
        Column("leader", msg("Leader"), help=msg("the patrol or section leader counter")),
        Column("kind", msg("Kind"), help=msg("Rifle, SMG, Engineer, Command …")),
        _number("cost", msg("Cost"), 0, help=msg("victory points to buy it"), needed=True),
        _number("orders", msg("Orders"), 0, needed=True),
        _number("initiative", msg("Initiative"), 0, needed=True),
        _number("surrender", msg("Surrender"), 0, needed=True),
        *(
            Column(f"composition_{q.value}", label)
            for q, label in (
                (Quality.ELITE, msg("Units when Elite")),
                (Quality.LINE, msg("Units when Line")),
                (Quality.GREEN, msg("Units when Green")),
            )
        ),
        Column("note", msg("Note")),
    ),
)

DIVISIONAL_TABLE = CampaignTable(
    key=DIVISIONAL_KEY,
    title=msg("Divisional Reserve Table"),
    rule="ST-C3.5/NO-C3.7",
    optional=True,
    columns=(
        Column("side", msg("Side"), "side", required=True),
        _number("roll_low", msg("Lowest roll"), 2, 12, required=True),
        _number("roll_high", msg("Highest roll"), 2, 12, required=True),
        Column(
            "formation",
            msg("Formation"),
            required=True,
            help=msg("the patrol or section leader the roll gives"),
        ),
        Column("note", msg("Note")),
    ),
)

TABLES = (FORCES_TABLE, DIVISIONAL_TABLE)

TABLE_NOTES: Mapping[tuple[str, str], Msg] = {
    ("stalingrad", FORCES_KEY): msg(
        "The rulebook names only the 8 starting patrols and prints no cost, Orders, "
        "Initiative or Surrender: copy them from your printed Campaign Forces Table, and add "
        "a row for each further patrol (16 in all, plus the two Command Patrols)."
    ),
    ("normandy", FORCES_KEY): msg(
        "The rulebook names the 16 sections but prints no cost, and Orders, Initiative and "
        "Surrender only where its examples give them: copy the rest from your printed Campaign "
        "Forces Table."
    ),
    ("stalingrad", DIVISIONAL_KEY): msg(
        "Not printed in the rulebook: copy each side's rows (dice range and the patrol it "
        "gives) from your printed table on the Scenario 45 sheet."
    ),
    ("normandy", DIVISIONAL_KEY): msg(
        "Not printed in the rulebook: copy each side's rows (dice range and the section leader "
        "it gives) from your printed table on the Scenario 56 sheet."
    ),
}


@dataclass(frozen=True)
class Problem:
    """One problem of the supplied tables: where it is (table key, 1-based row, column
    name; row/column empty for the whole table or row) and what to do, in words."""

    table: str
    row: int | None
    column: str
    short: Msg
    """What to do, for beside the cell: "enter a whole number"."""
    text: Msg
    """The same, naming the table, row and column: for a list of problems."""


class CampaignTablesError(TableDataError):
    """The supplied tables break their columns' rules; `found` lists every `Problem`."""

    def __init__(self, found: list[Problem]) -> None:
        self.found = found
        super().__init__([("", str(p.text)) for p in found], rule=FORCES_TABLE.rule)


def _cell_problem(column: Column, value: Any) -> Msg | None:
    if value is None:
        return msg("fill this in") if column.required else None
    if column.kind == "number":
        if isinstance(value, bool) or not isinstance(value, int):
            return msg("enter a whole number")
        if column.low is not None and value < column.low:
            return msg("enter %(low)s or more", low=column.low)
        if column.high is not None and value > column.high:
            return msg("enter %(high)s or less", high=column.high)
        return None
    if not isinstance(value, str):
        return msg("enter words, not a number or a list")
    if column.kind == "side" and value not in {f.value for f in Faction}:
        return msg("choose one of the two sides")
    if column.required and not value.strip():
        return msg("fill this in")
    return None


def _row_problems(table: CampaignTable, row: Mapping[str, Any]) -> list[tuple[str, Msg]]:
    """(column name, what to do) for each problem of one row."""
    names = {c.name for c in table.columns}
    found = [
        ("", msg("%(name)s is not a column of this table", name=key))
        for key in row
        if key not in names
    ]
    for column in table.columns:
        if problem := _cell_problem(column, row.get(column.name)):
            found.append((column.name, problem))
    if not found and "roll_low" in names and row["roll_low"] > row["roll_high"]:
        found.append(("roll_low", msg("the lowest roll is above the highest roll")))
    return found


def _where(table: CampaignTable, n: int, row: Mapping[str, Any], column: str, what: Msg) -> Msg:
    label = next((c.label for c in table.columns if c.name == column), None)
    name = row.get("formation")
    params: dict[str, Any] = {"table": table.title, "n": n, "problem": what}
    if isinstance(name, str) and name.strip() and column != "formation":
        params["name"] = name
        if label is None:
            return msg("%(table)s, row %(n)s (%(name)s): %(problem)s", **params)
        return msg(
            "%(table)s, row %(n)s (%(name)s), %(column)s: %(problem)s", column=label, **params
        )
    if label is None:
        return msg("%(table)s, row %(n)s: %(problem)s", **params)
    return msg("%(table)s, row %(n)s, %(column)s: %(problem)s", column=label, **params)


def check_table(
    table: CampaignTable, rows: Any, numbers: Sequence[int] | None = None
) -> list[Problem]:
    """Every problem of one table's rows (None: no rows yet), in a player's words.

    `numbers`: the row numbers the player sees (a form that skips blank or removed rows),
    one per row; by default 1, 2, 3 …"""

    def whole(what: Msg) -> Problem:
        return Problem(
            table.key,
            None,
            "",
            what,
            msg("%(table)s: %(problem)s", table=table.title, problem=what),
        )

    if rows is None or rows == []:
        return [] if table.optional else [whole(msg("add at least one row"))]
    if not isinstance(rows, list):
        return [whole(msg("the rows must be a list"))]
    found: list[Problem] = []
    seen: dict[Any, int] = {}
    for i, row in enumerate(rows):
        n = numbers[i] if numbers is not None and i < len(numbers) else i + 1
        if not isinstance(row, Mapping):
            what = msg("each row must name its columns")
            found.append(Problem(table.key, n, "", what, _where(table, n, {}, "", what)))
            continue
        problems = _row_problems(table, row)
        key = row.get(table.keyed_by) if table.keyed_by else None
        if isinstance(key, str) and key.strip():
            if key in seen:
                problems.append((table.keyed_by, msg("already in row %(row)s", row=seen[key])))
            seen.setdefault(key, n)
        found.extend(
            Problem(table.key, n, column, what, _where(table, n, row, column, what))
            for column, what in problems
        )
    return found


def check(data: Any, numbers: Mapping[str, Sequence[int]] | None = None) -> list[Problem]:
    """Every problem of a campaign's tables `{"campaign_forces": {"rows": [...]}, ...}`;
    `numbers` gives, per table key, the row numbers the player sees (see `check_table`)."""
    if not isinstance(data, Mapping):
        what = msg("the tables must be a set of named tables")
        return [Problem("", None, "", what, what)]
    found: list[Problem] = []
    for table in TABLES:
        section = data.get(table.key)
        if section is not None and not isinstance(section, Mapping):
            found.extend(check_table(table, section if isinstance(section, list) else "?"))
            continue
        rows = (section or {}).get("rows")
        found.extend(check_table(table, rows, (numbers or {}).get(table.key)))
    return found


@dataclass(frozen=True)
class Gap:
    """Values still to enter: the empty cells of one row (`row` counts from 1), or a whole
    optional table that has no rows yet (`row` 0, no columns)."""

    table: CampaignTable
    row: int
    name: str
    columns: tuple[Column, ...]

    @property
    def count(self) -> int:
        return len(self.columns) or 1


def gaps(data: Mapping[str, Any]) -> list[Gap]:
    """What the players must still enter (empty cells), table by table, in row order."""
    found: list[Gap] = []
    for table in TABLES:
        rows = (data.get(table.key) or {}).get("rows") or []
        known = {c.name: c for c in table.columns}
        for n, row in enumerate(rows, start=1):
            if not isinstance(row, Mapping):
                continue
            empty = tuple(known.get(k) or Column(k, msg(k)) for k, v in row.items() if v is None)
            if empty:
                name = row.get(table.keyed_by or "formation") or "?"
                found.append(Gap(table, n, str(name), empty))
        if not rows and table.optional:
            found.append(Gap(table, 0, "", ()))
    return found


@dataclass(frozen=True)
class CampaignTables:
    """A campaign's user-supplied tables, validated; `divisional` is None until supplied."""

    forces: Mapping[str, Mapping[str, Any]]
    divisional: tuple[Mapping[str, Any], ...] | None

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> CampaignTables:
        """Validate `{"campaign_forces": {"rows": [...]}, "divisional_reserve": {"rows": ...}}`;
        raises `CampaignTablesError` listing every problem."""
        if found := check(data):
            raise CampaignTablesError(found)
        forces = [dict(r) for r in data[FORCES_KEY]["rows"]]
        rows = (data.get(DIVISIONAL_KEY) or {}).get("rows")
        divisional = tuple(dict(r) for r in rows) if rows else None
        return cls({r["formation"]: r for r in forces}, divisional)

    @classmethod
    def example(cls, campaign: str) -> CampaignTables:
        """The shipped example for "stalingrad" or "normandy" (the rulebook's values only)."""
        return cls.load(load_json(EXAMPLE_FILE)[campaign])

    def value(self, formation: str, name: str, *, rule: str) -> Any:
        """A value a procedure cannot do without: missing → RuleError naming the rule."""
        found = self.get(formation, name)
        if found is MISSING:
            raise RuleError(
                f"the Campaign Forces Table gives no {name} for {formation}; enter it in the "
                "campaign's tables",
                rule=rule,
            )
        return found

    def get(self, formation: str, name: str) -> Any:
        """A value, or MISSING when the table does not hold it."""
        row = self.forces.get(formation)
        if row is None or row.get(name) is None:
            return MISSING
        return row[name]

    def composition(self, formation: str, quality: Quality) -> Any:
        return self.get(formation, f"composition_{quality.value}")

    def divisional_result(self, side: Faction, roll: int, *, rule: str) -> str:
        if self.divisional is None:
            raise RuleError(
                "the Divisional Reserve Table is not printed in the rulebook; enter it in the "
                "campaign's tables",
                rule=rule,
            )
        for row in self.divisional:
            if row["side"] == side.value and row["roll_low"] <= roll <= row["roll_high"]:
                return row["formation"]
        raise RuleError(
            f"the {side.value} Divisional Reserve Table has no row for {roll}", rule=rule
        )

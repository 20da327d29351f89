"""Tables the Random Scenario Generator reads but the seed does not print [RS.5–RS.7, RS.11.1].

The Order of Battle tables, each nation's Leader Table column and Support Table, and the unit
point values of the design guidance ("Consejos") live in the original playbooks only. A campaign
enters them; these schemas validate what it enters and `GeneratorData.from_raw` turns the rows
into typed records. No number here comes from the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.cc.common import Faction, Nation, Quality
from rules.errors import RuleError, TableDataError
from rules.i18n import Msg, msg
from rules.tables import Field, TableSchema, int_range, one_of

YEARS = (1939, 1945)
AXIS_OB_LETTERS = "ABCDEFGHIJ"
ALLIED_OB_LETTERS = "RSTUVWXYZ"


def _ob_check(record: Mapping[str, Any]) -> list[Msg]:
    problems = []
    letters = (
        AXIS_OB_LETTERS if Nation(record["nation"]).faction is Faction.AXIS else ALLIED_OB_LETTERS
    )
    if record["letter"] not in letters:
        problems.append(
            msg(
                "[RS.5] the OB letters of %(nation)s are %(first)s to %(last)s",
                nation=record["nation"],
                first=letters[0],
                last=letters[-1],
            )
        )
    if record["first_year"] > record["last_year"]:
        problems.append(msg("the first year is after the last year"))
    return problems


def _support_check(record: Mapping[str, Any]) -> list[Msg]:
    problems = []
    if record["roll_low"] > record["roll_high"]:
        problems.append(msg("the lowest roll is above the highest roll"))
    if record.get("to_year") is not None and record["to_year"] < record["from_year"]:
        problems.append(msg("the last year is before the first year"))
    return problems


_YEAR = int_range(*YEARS)

OB_SCHEMA = TableSchema(
    id="cc_order_of_battle",
    rule="RS.5",
    title="Order of Battle Table",
    description="One row per OB of a nation's Order of Battle Table (not printed in the seed).",
    fields=(
        Field("nation", str, check=one_of(*Nation)),
        Field("size", str, help="size designation printed on the OB chit"),
        Field("letter", str, help="A-J for Germany/Italy, R-Z for the Allies"),
        Field("first_year", int, check=_YEAR),
        Field("last_year", int, check=_YEAR),
        Field("quality", str, check=one_of(*Quality)),
        Field("point_value", int, check=int_range(0), help="VP spaces the owner pays"),
        Field("orders", int, check=int_range(1)),
        Field("initiative", int, check=int_range(0)),
        Field("surrender", int, check=int_range(1)),
        Field("leaders", int, check=int_range(0), help="leaders to roll for in RS.6"),
        Field("units", str, required=False, help="units, weapons and markers listed"),
    ),
    record_check=_ob_check,
)

LEADER_COLUMN_SCHEMA = TableSchema(
    id="cc_leader_column",
    rule="RS.6",
    title="Leader Table column",
    description="One nation's Leader Table column: modified white-die result → leader.",
    fields=(Field("roll", int), Field("leader", str)),
    keyed_by="roll",
)

SUPPORT_COLUMN_SCHEMA = TableSchema(
    id="cc_support_table",
    rule="RS.7",
    title="Support Table",
    description="One nation's Support Table: each entry, the roll column(s) it is in, its cost "
    "(bold number) and the years it is available.",
    fields=(
        Field("roll_low", int, check=int_range(2, 12)),
        Field("roll_high", int, check=int_range(2, 12)),
        Field("item", str),
        Field("cost", int, check=int_range(0)),
        Field("from_year", int, check=_YEAR),
        Field("to_year", int, required=False, check=_YEAR),
        Field("radio", bool, required=False),
    ),
    record_check=_support_check,
)

UNIT_POINTS_SCHEMA = TableSchema(
    id="cc_unit_points",
    rule="Consejos",
    title="Unit point values",
    description="Base point value of each unit, weapon, radio and fortification (design tips).",
    fields=(Field("unit", str), Field("points", int, check=int_range(0))),
    keyed_by="unit",
)


@dataclass(frozen=True)
class OrderOfBattle:
    """One OB of a nation's Order of Battle Table [RS.5, RS.8, RS.13–RS.15]."""

    nation: Nation
    size: str
    letter: str
    first_year: int
    last_year: int
    quality: Quality
    point_value: int
    orders: int
    initiative: int
    surrender: int
    leaders: int
    units: str = ""

    @property
    def label(self) -> str:
        return f"{self.nation} {self.size} {self.letter}"


@dataclass(frozen=True)
class SupportEntry:
    """One entry of a Support Table column [RS.7, RS.11.1]."""

    roll_low: int
    roll_high: int
    item: str
    cost: int
    from_year: int
    to_year: int | None = None
    radio: bool = False

    def offered(self, roll: int, year: int) -> bool:
        """In the column of `roll` and available in `year`."""
        last = self.to_year if self.to_year is not None else YEARS[1]
        return self.roll_low <= roll <= self.roll_high and self.from_year <= year <= last


@dataclass(frozen=True)
class GeneratorData:
    """The user-supplied tables, validated."""

    orders_of_battle: tuple[OrderOfBattle, ...] = ()
    leader_tables: Mapping[Nation, Mapping[int, str]] = field(default_factory=dict)
    support_tables: Mapping[Nation, tuple[SupportEntry, ...]] = field(default_factory=dict)
    unit_points: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> GeneratorData:
        """Validate `{"orders_of_battle": [...], "leader_tables": {nation: [...]},
        "support_tables": {nation: [...]}, "unit_points": [...]}`; every part is optional."""
        problems: list[tuple[str, str]] = []

        def clean(schema: TableSchema, rows: Any, path: str) -> list[dict[str, Any]]:
            found = schema.validate(rows)
            problems.extend((f"{path} {p}".strip(), m) for p, m in found)
            return [] if found else [dict(r) for r in rows]

        obs = (
            clean(OB_SCHEMA, raw["orders_of_battle"], "orders_of_battle")
            if ("orders_of_battle" in raw)
            else []
        )
        seen: set[tuple[str, str, str]] = set()
        for row in obs:
            key = (row["nation"], row["size"], row["letter"])
            if key in seen:
                problems.append(("orders_of_battle", f"duplicate OB {' '.join(key)}"))
            seen.add(key)
        leaders, support = {}, {}
        for part, schema, out in (
            ("leader_tables", LEADER_COLUMN_SCHEMA, leaders),
            ("support_tables", SUPPORT_COLUMN_SCHEMA, support),
        ):
            for name, rows in raw.get(part, {}).items():
                if name not in set(Nation):
                    problems.append((f"{part}.{name}", "is not a nation"))
                    continue
                out[Nation(name)] = clean(schema, rows, f"{part}.{name}")
        points = (
            clean(UNIT_POINTS_SCHEMA, raw["unit_points"], "unit_points")
            if ("unit_points" in raw)
            else []
        )
        if problems:
            raise TableDataError(problems, rule="RS.5")
        return cls(
            orders_of_battle=tuple(
                OrderOfBattle(
                    **{**r, "nation": Nation(r["nation"]), "quality": Quality(r["quality"])}
                )
                for r in obs
            ),
            leader_tables={
                n: {r["roll"]: r["leader"] for r in rows} for n, rows in leaders.items()
            },
            support_tables={
                n: tuple(SupportEntry(**r) for r in rows) for n, rows in support.items()
            },
            unit_points={r["unit"]: r["points"] for r in points},
        )

    def ob(self, nation: Nation, size: str, letter: str) -> OrderOfBattle:
        for ob in self.orders_of_battle:
            if (ob.nation, ob.size, ob.letter) == (nation, size, letter):
                return ob
        raise RuleError(f"no {nation} OB {size} {letter} has been entered", rule="RS.5")

    def leader_column(self, nation: Nation) -> Mapping[int, str]:
        if nation not in self.leader_tables:
            raise RuleError(f"enter the {nation} Leader Table column first", rule="RS.6")
        return self.leader_tables[nation]

    def support_table(self, nation: Nation, rule: str) -> tuple[SupportEntry, ...]:
        if nation not in self.support_tables:
            raise RuleError(f"enter the {nation} Support Table first", rule=rule)
        return self.support_tables[nation]

    def points(self, unit: str) -> int:
        if unit not in self.unit_points:
            raise RuleError(f"enter the point value of {unit!r} first", rule="Consejos")
        return self.unit_points[unit]

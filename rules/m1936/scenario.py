"""Scenario creation (Section I): terrain, sector types, scenery counts, placement, objectives
and the layout restrictions, collected on a `ScenarioSheet`.

Steps, each returning a new sheet:
`create_scenario` (terrain; 1d6 per sector type assigns types to sectors 1–4) →
`order_tied_sectors` when rolls tie → `plan_sector` for each sector (the placer's counts within
the table's min–max; who places which piece) → `place_objectives` (defender) →
`roll_scenario_weather` (XV.1). `check_layout` validates the restrictions of I.5 on the
features as placed on the table.

Only Llanura, Colinas and Bosque have tables in the rulebook; Costa and Ciudad need a
user-supplied table (`SECTOR_TABLE_SCHEMA`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from rules.dice import DiceSource
from rules.errors import RuleError, TableDataError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg
from rules.m1936 import labels
from rules.m1936.army import Role
from rules.m1936.validation import Violation
from rules.m1936.weather import Season, WeatherResult, determine_weather
from rules.serial import Serializable
from rules.tables import Field, TableSchema, int_range, load_json, one_of

TABLE_RULE = "M36-I.2"
PLACEMENT_RULE = "M36-I.4"
RESTRICTION_RULE = "M36-I.5"
DATA = Path(__file__).parent / "data" / "scenario_tables.json"
SECTORS = (1, 2, 3, 4)
OBJECTIVE_SECTORS = (2, 3, 4)
OBJECTIVES = 3


class Terrain(StrEnum):
    LLANURA = "Llanura"
    COLINAS = "Colinas"
    COSTA = "Costa"
    CIUDAD = "Ciudad"
    BOSQUE = "Bosque"


ELEMENTS = (
    "Bosque",
    "Carretera",
    "Ciudad (12–15 casas)",
    "Elevaciones nivel 0",
    "Elevaciones nivel 1",
    "Elevaciones nivel 2",
    "Línea de arbustos (5)",
    "Muro",
    "Poblado (2–4 casas)",
    "Río",
    "Sembrado",
    "Zona de arbustos (5)",
)


def _terrain(value: str) -> Msg | str:
    return labels.label(labels.TERRAINS, value)


def _sector(value: str) -> Msg | str:
    return labels.label(labels.SECTOR_TYPES, value)


def _element(value: str) -> Msg | str:
    return labels.label(labels.ELEMENTS, value)


def placer(sector: int) -> Role:
    """The attacker fills sectors 1 and 3, the defender sectors 2 and 4 (I.4)."""
    return Role.ATACANTE if sector in (1, 3) else Role.DEFENSOR


def opponent(role: Role) -> Role:
    return Role.DEFENSOR if role is Role.ATACANTE else Role.ATACANTE


@dataclass(frozen=True)
class SectorTable(Serializable):
    """Min–max count of each scenery element per sector type, for one terrain."""

    terrain: Terrain
    ranges: dict[str, dict[str, tuple[int, int]]]
    provenance: str
    rule: str

    @property
    def sector_types(self) -> tuple[str, ...]:
        return tuple(self.ranges)


def _range_check(record: Mapping[str, Any]) -> list[str]:
    return [] if record["min"] <= record["max"] else ["min must not exceed max"]


SECTOR_TABLE_SCHEMA = TableSchema(
    id="m36-sector-table",
    rule=TABLE_RULE,
    title="Scenery per sector type",
    description=(
        "Costa and Ciudad have no table in the rulebook: one row per sector type and element, "
        "4 sector types, each with all 12 elements."
    ),
    fields=(
        Field("sector", str, help="sector type name, e.g. 'Sector de Playa'"),
        Field("element", str, check=one_of(*ELEMENTS)),
        Field("min", int, check=int_range(0)),
        Field("max", int, check=int_range(0)),
    ),
    record_check=_range_check,
)


def sector_table(terrain: Terrain, user_rows: list[dict[str, Any]] | None = None) -> SectorTable:
    """The seed's table for Llanura, Colinas and Bosque; a validated user table otherwise."""
    terrain = Terrain(terrain)
    seeded = load_json(DATA)["terrains"].get(terrain.value)
    if seeded is not None:
        if user_rows is not None:
            raise RuleError(
                msg("%(terrain)s has a table in the rulebook", terrain=_terrain(terrain)),
                rule=TABLE_RULE,
            )
        ranges = {
            col: {el: (lo, hi) for el, (lo, hi) in cells.items()}
            for col, cells in seeded["sectors"].items()
        }
        return SectorTable(terrain, ranges, "seed", seeded["section"])
    if user_rows is None:
        raise RuleError(
            msg(
                "the rulebook has no scenery table for %(terrain)s; enter one for the campaign",
                terrain=_terrain(terrain),
            ),
            rule=TABLE_RULE,
        )
    rows = SECTOR_TABLE_SCHEMA.clean(user_rows)
    ranges: dict[str, dict[str, tuple[int, int]]] = {}
    problems = []
    for i, row in enumerate(rows):
        cells = ranges.setdefault(row["sector"], {})
        if row["element"] in cells:
            problems.append(
                (
                    msg("row %(n)s", n=i + 1),
                    msg(
                        "%(sector)s names %(element)s twice",
                        sector=_sector(row["sector"]),
                        element=_element(row["element"]),
                    ),
                )
            )
        cells[row["element"]] = (row["min"], row["max"])
    if len(ranges) != len(SECTORS):
        problems.append(("", msg("a terrain has 4 sector types, not %(n)s", n=len(ranges))))
    for name, cells in ranges.items():
        missing = [_element(e) for e in ELEMENTS if e not in cells]
        if missing:
            problems.append((_sector(name), msg("elements missing: %(v)s", v=missing)))
    if problems:
        raise TableDataError(problems, rule=TABLE_RULE)
    return SectorTable(terrain, ranges, "user", TABLE_RULE)


@dataclass(frozen=True)
class SectorPlan(Serializable):
    """How many of each element go in a sector and who places them."""

    sector: int
    sector_type: str
    placer: Role
    counts: dict[str, int]
    by_placer: dict[str, int]
    by_opponent: dict[str, int]


@dataclass(frozen=True)
class ScenarioOptions(Serializable):
    """Readings of I.4 (DECISIONS.md): the rival places the last piece of the sector (or of
    every element type); objectives go one in each of sectors 2, 3, 4 (or freely there)."""

    last_piece_per_element: bool = False
    objectives_one_per_sector: bool = True


DEFAULT_OPTIONS = ScenarioOptions()


@dataclass(frozen=True)
class ScenarioSheet(Serializable):
    terrain: Terrain
    table: SectorTable
    rolls: dict[str, int]
    tie_orders: tuple[tuple[str, ...], ...] = ()
    sectors: dict[int, str] = field(default_factory=dict)
    pending: Decision | None = None
    plans: dict[int, SectorPlan] = field(default_factory=dict)
    objectives: tuple[int, ...] = ()
    weather: WeatherResult | None = None
    explanation: Explanation = field(default_factory=Explanation, compare=False)

    @property
    def complete(self) -> bool:
        return len(self.plans) == len(SECTORS) and len(self.objectives) == OBJECTIVES

    def _next(self, **changes: Any) -> ScenarioSheet:
        return dataclasses.replace(self, explanation=Explanation(list(self.explanation)), **changes)


def create_scenario(
    terrain: Terrain, dice: DiceSource, *, user_table: list[dict[str, Any]] | None = None
) -> ScenarioSheet:
    """Choose the terrain and roll 1d6 per sector type; lowest goes to sector 1 and so on."""
    table = sector_table(terrain, user_table)
    exp = Explanation()
    exp.add(PLACEMENT_RULE, msg("terrain chosen: %(terrain)s", terrain=_terrain(table.terrain)))
    rolls = {}
    for sector_type in table.sector_types:
        record = dice.roll(
            "d6",
            purpose=msg("sector type %(type)s", type=_sector(sector_type)),
            rule=PLACEMENT_RULE,
        )
        rolls[sector_type] = exp.add(
            PLACEMENT_RULE,
            msg("1d6 for %(sector_type)s", sector_type=_sector(sector_type)),
            record.value,
            roll=record,
        )
    return _assign(ScenarioSheet(table.terrain, table, rolls, explanation=exp))


def order_tied_sectors(sheet: ScenarioSheet, order: Sequence[str]) -> ScenarioSheet:
    """Answer the pending tie: the placer's order for sector types with equal rolls."""
    if sheet.pending is None:
        raise RuleError(msg("no tie is waiting to be ordered"), rule=PLACEMENT_RULE)
    order = tuple(order)
    if order not in sheet.pending.options:
        raise RuleError(
            msg(
                "%(order)s is not an order of the tied sector types %(v)s",
                order=[_sector(t) for t in order],
                v=[_sector(t) for t in sheet.pending.options[0]],
            ),
            rule=PLACEMENT_RULE,
        )
    next_sheet = sheet._next(tie_orders=(*sheet.tie_orders, order), pending=None)
    next_sheet.explanation.add(
        PLACEMENT_RULE,
        msg(
            "%(chooser)s orders the tie: %(order)s",
            chooser=labels.label(labels.ROLES, sheet.pending.chooser),
            order=[_sector(t) for t in order],
        ),
    )
    return _assign(next_sheet)


def _assign(sheet: ScenarioSheet) -> ScenarioSheet:
    """Sort sector types by roll; each tie is ordered by the player placing its first sector."""
    ordered: list[str] = []
    chosen = {frozenset(o): o for o in sheet.tie_orders}
    for value, group in itertools.groupby(
        sorted(sheet.rolls, key=sheet.rolls.get), sheet.rolls.get
    ):
        tied = tuple(group)
        if len(tied) > 1 and frozenset(tied) not in chosen:
            first = len(ordered) + 1
            decision = Decision(
                key=f"sector_tie_{first}",
                rule=PLACEMENT_RULE,
                prompt=(
                    msg(
                        "%(v)s all rolled %(value)s: order them for sectors %(first)s–%(v2)s",
                        v=[_sector(t) for t in tied],
                        value=value,
                        first=first,
                        v2=first + len(tied) - 1,
                    )
                ),
                options=tuple(itertools.permutations(tied)),
                chooser=placer(first).value,
            )
            return sheet._next(pending=decision)
        ordered.extend(chosen.get(frozenset(tied), tied))
    sectors = dict(zip(SECTORS, ordered, strict=True))
    next_sheet = sheet._next(sectors=sectors)
    for sector, sector_type in sectors.items():
        next_sheet.explanation.add(
            PLACEMENT_RULE,
            msg(
                "sector %(sector)s: %(type)s (%(v)s fills it)",
                sector=sector,
                type=_sector(sector_type),
                v=labels.label(labels.ROLES, placer(sector)),
            ),
        )
    return next_sheet


def plan_sector(
    sheet: ScenarioSheet,
    sector: int,
    counts: Mapping[str, int],
    *,
    last_piece: str | None = None,
    options: ScenarioOptions = DEFAULT_OPTIONS,
) -> ScenarioSheet:
    """The placer's counts for a sector, each within the table's min–max for its sector type.

    An element with a fixed range (min = max) may be left out. The placer places every piece
    except the last, which the rival places; `last_piece` names its element when several
    element types are present (ScenarioOptions.last_piece_per_element: one of each type).
    """
    if not sheet.sectors:
        raise RuleError(msg("sector types are not assigned yet"), rule=PLACEMENT_RULE)
    if sector not in SECTORS:
        raise RuleError(
            msg("sectors are numbered 1 to 4, not %(sector)s", sector=str(sector)),
            rule=PLACEMENT_RULE,
        )
    if sector in sheet.plans:
        raise RuleError(
            msg("sector %(sector)s is already planned", sector=sector), rule=PLACEMENT_RULE
        )
    sector_type = sheet.sectors[sector]
    ranges = sheet.table.ranges[sector_type]
    who = placer(sector)
    problems = [
        msg("%(element)s is not a scenery element here", element=_element(e))
        for e in counts
        if e not in ranges
    ]
    chosen: dict[str, int] = {}
    missing = []
    for element, (lo, hi) in ranges.items():
        n = counts.get(element, lo if lo == hi else None)
        if n is None:
            missing.append((element, tuple(range(lo, hi + 1))))
        elif isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
            problems.append(
                msg(
                    "%(element)s: choose from %(lo)s to %(hi)s in a %(type)s, not %(n)s",
                    element=_element(element),
                    lo=lo,
                    hi=hi,
                    type=_sector(sector_type),
                    n=str(n),
                )
            )
        else:
            chosen[element] = n
    if problems:
        raise RuleError(msg("%(problems)s", problems=problems), rule=sheet.table.rule)
    if missing:
        raise DecisionRequired(
            Decision(
                f"sector_{sector}_counts",
                sheet.table.rule,
                msg(
                    "choose how many of each element go in sector %(sector)s (%(type)s)",
                    sector=sector,
                    type=_sector(sector_type),
                ),
                tuple(missing),
                who.value,
            )
        )
    present = [e for e, n in chosen.items() if n]
    by_opponent = _rival_pieces(sector, who, present, last_piece, options)
    by_placer = {e: chosen[e] - by_opponent.get(e, 0) for e in present}
    plan = SectorPlan(sector, sector_type, who, chosen, by_placer, by_opponent)
    next_sheet = sheet._next(plans={**sheet.plans, sector: plan})
    exp = next_sheet.explanation
    for element in present:
        exp.add(
            sheet.table.rule,
            msg(
                "sector %(sector)s: %(element)s (from %(lo)s to %(hi)s)",
                sector=sector,
                element=_element(element),
                lo=ranges[element][0],
                hi=ranges[element][1],
            ),
            chosen[element],
        )
    exp.add(
        PLACEMENT_RULE,
        msg(
            "%(v)s places the last piece(s): %(pieces)s",
            v=labels.label(labels.ROLES, opponent(who)),
            pieces=[_element(e) for e in by_opponent] or "—",
        ),
    )
    return next_sheet


def _rival_pieces(
    sector: int,
    who: Role,
    present: list[str],
    last_piece: str | None,
    options: ScenarioOptions,
) -> dict[str, int]:
    if options.last_piece_per_element or not present:
        return dict.fromkeys(present, 1)
    if last_piece is None and len(present) == 1:
        last_piece = present[0]
    if last_piece is None:
        raise DecisionRequired(
            Decision(
                f"sector_{sector}_last_piece",
                PLACEMENT_RULE,
                msg(
                    "which element is the last piece of sector %(sector)s, placed by the rival?",
                    sector=sector,
                ),
                tuple(present),
                who.value,
            )
        )
    if last_piece not in present:
        raise RuleError(
            msg(
                "the last piece must be one of the elements placed: %(v)s",
                v=[_element(e) for e in present],
            ),
            rule=PLACEMENT_RULE,
        )
    return {last_piece: 1}


def place_objectives(
    sheet: ScenarioSheet,
    sectors: Sequence[int] | None = None,
    *,
    options: ScenarioOptions = DEFAULT_OPTIONS,
) -> ScenarioSheet:
    """Once the battlefield is placed the defender places 3 objectives in sectors 2, 3, 4."""
    rule = PLACEMENT_RULE
    if len(sheet.plans) != len(SECTORS):
        raise RuleError(
            msg("objectives are placed once the whole battlefield is placed"), rule=rule
        )
    if options.objectives_one_per_sector:
        if sectors is not None and sorted(sectors) != list(OBJECTIVE_SECTORS):
            raise RuleError(msg("one objective goes in each of sectors 2, 3 and 4"), rule=rule)
        sectors = OBJECTIVE_SECTORS
    elif sectors is None:
        raise DecisionRequired(
            Decision(
                "objective_sectors",
                rule,
                "choose the sector (2, 3 or 4) of each of the 3 objectives",
                OBJECTIVE_SECTORS,
                Role.DEFENSOR.value,
            )
        )
    sectors = tuple(sectors)
    if len(sectors) != OBJECTIVES or any(s not in OBJECTIVE_SECTORS for s in sectors):
        raise RuleError(
            msg("3 objectives in sectors 2 to 4, not %(sectors)s", sectors=str(sectors)), rule=rule
        )
    next_sheet = sheet._next(objectives=sectors)
    next_sheet.explanation.add(rule, msg("the defender places the objectives in sectors"), sectors)
    return next_sheet


def roll_scenario_weather(sheet: ScenarioSheet, season: Season, dice: DiceSource) -> ScenarioSheet:
    """After creating the scenario, roll the weather (XV.1)."""
    result = determine_weather(season, dice)
    next_sheet = sheet._next(weather=result)
    next_sheet.explanation.extend(result.explanation)
    return next_sheet


class FeatureKind(StrEnum):
    ROAD = "Carretera"
    RIVER = "Río"
    HAMLET = "Poblado"
    TOWN = "Ciudad"


@dataclass(frozen=True)
class LayoutFeature(Serializable):
    """A feature as laid on the table, described by the facts I.5 needs."""

    kind: FeatureKind
    label: str = ""
    starts_at_edge: bool = True
    ends_at_edge: bool = True
    in_end_thirds: bool = False
    crossed_by_road: bool = True


@dataclass(frozen=True)
class LayoutCheck(Serializable):
    valid: bool
    violations: tuple[Violation, ...]
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def check_layout(features: Sequence[LayoutFeature]) -> LayoutCheck:
    """Every breach of I.5: roads and rivers run edge to edge, rivers only in the central
    squares (never the end thirds), every Poblado or Ciudad is crossed by a road."""
    found: list[Violation] = []
    for i, f in enumerate(features):
        kind = FeatureKind(f.kind)
        name = f"{kind} {f.label}".strip()
        if kind in (FeatureKind.ROAD, FeatureKind.RIVER) and not (
            f.starts_at_edge and f.ends_at_edge
        ):
            found.append(
                Violation(RESTRICTION_RULE, f"{name} must start and end at a table edge", i)
            )
        if kind is FeatureKind.RIVER and f.in_end_thirds:
            found.append(
                Violation(RESTRICTION_RULE, f"{name} may only run in the central squares", i)
            )
        if kind in (FeatureKind.HAMLET, FeatureKind.TOWN) and not f.crossed_by_road:
            found.append(Violation(RESTRICTION_RULE, f"{name} must be crossed by a road", i))
    exp = Explanation()
    exp.add(
        RESTRICTION_RULE,
        msg("%(v)s features checked, %(v2)s breaches", v=len(features), v2=len(found)),
        not found,
    )
    return LayoutCheck(not found, tuple(found), exp)

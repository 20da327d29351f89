"""Op sheets: types and priority [6.6], the state machine [6.5, 6.8–6.13], limits [6.7.c].

A sheet is drawn unimplemented (pre-game sheets start implemented [6.8, 27.1.f]); a Command
Prep roll starts its preliminary instructions or implements it [6.9.f, 6.14.a]; it ends by
success [6.11.a] or failure [6.11.b], wholly or for some units [6.11.d, 6.13.a]. Each unit
has one Task Organization entry per sheet whose status records why it left. The
transitions themselves are in `rules.tcs.transitions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.dice import RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.serial import Serializable
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions
from rules.tcs.size import SizeResult, sheet_size
from rules.tcs.units import OrderOfBattle


class OpSheetType(StrEnum):
    """Op sheet types in priority order [6.6]."""

    PREPARED_DEFENSE = "prepared_defense"
    ATTACK = "attack"
    HASTY_DEFENSE = "hasty_defense"
    MOVE = "move"

    @property
    def priority(self) -> int:
        return list(OpSheetType).index(self) + 1


def categorise(missions: Iterable[OpSheetType]) -> OpSheetType:
    """A sheet is categorised by its highest-priority mission [6.6]."""
    missions = list(missions)
    if not missions:
        raise RuleError(msg("an op sheet needs at least one mission"), rule="6.6")
    return min(missions, key=lambda m: m.priority)


class SheetStatus(StrEnum):
    UNIMPLEMENTED = "unimplemented"
    PRELIMS_ACTIVE = "prelims_active"
    IMPLEMENTED = "implemented"
    SUCCEEDED = "succeeded"
    FAILED = "failed"

    @property
    def in_prep(self) -> bool:
        """Still in Command Prep, accumulating weighted turns [6.9, 6.14.a]."""
        return self in (SheetStatus.UNIMPLEMENTED, SheetStatus.PRELIMS_ACTIVE)

    @property
    def closed(self) -> bool:
        """Declared succeeded or failed: no longer counts toward 6.7.c."""
        return self in (SheetStatus.SUCCEEDED, SheetStatus.FAILED)


class EntryStatus(StrEnum):
    ACTIVE = "active"
    STRUCK = "struck"  # 6.13.b
    REASSIGNED = "reassigned"  # 6.10.a, 6.11.a, 6.13.a
    SUCCEEDED = "succeeded"  # 6.11.a, 6.13.a: keeps its rally point
    FAILED = "failed"  # 6.11.b, 6.11.d, 17.8.c: executes failure instructions
    ELIMINATED = "eliminated"


class C2Status(StrEnum):
    """A unit's standing under command and control [6.3, 6.14]."""

    UNASSIGNED = "unassigned"
    PRELIMS = "prelims"  # unassigned, executing preliminary instructions
    ASSIGNED = "assigned"


@dataclass
class TaskOrgEntry(Serializable):
    """One unit on a sheet; `mission` is None for a reserve not (yet) committed [6.14.b]."""

    unit: str
    mission: OpSheetType | None
    status: EntryStatus = EntryStatus.ACTIVE


@dataclass
class CheckGroup(Serializable):
    """Reserves being committed, or units choosing an alternative [6.14.b–d]."""

    id: str
    units: tuple[str, ...]
    order: OpSheetType | None = None
    alternative: str | None = None
    passed: bool = False
    rolls: list[RollRecord] = field(default_factory=list)


@dataclass
class Addition(Serializable):
    """Units added to an implemented sheet, with their own Command Prep [6.13.c]."""

    id: str
    missions: dict[str, OpSheetType]
    row: OpSheetType
    raw_size: int
    size: int
    weighted_turns: int = 0
    status: SheetStatus = SheetStatus.UNIMPLEMENTED
    preliminary_instructions: bool = False

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(self.missions)


@dataclass
class OpSheet(Serializable):
    id: str
    type: OpSheetType
    entries: list[TaskOrgEntry]
    raw_size: int
    size: int
    status: SheetStatus = SheetStatus.UNIMPLEMENTED
    weighted_turns: int = 0
    drawn_turn: int = 0
    pregame: bool = False
    preliminary_instructions: bool = False
    reinforcement: bool = False  # written for reinforcements [6.13.e, 27.2.d-e]
    alternatives: dict[str, tuple[str, ...]] = field(default_factory=dict)
    check_groups: list[CheckGroup] = field(default_factory=list)
    additions: list[Addition] = field(default_factory=list)

    def entry(self, unit: str) -> TaskOrgEntry | None:
        return next((e for e in reversed(self.entries) if e.unit == unit), None)

    def active(self, unit: str) -> TaskOrgEntry | None:
        entry = self.entry(unit)
        return entry if entry is not None and entry.status is EntryStatus.ACTIVE else None

    @property
    def active_units(self) -> list[str]:
        return [e.unit for e in self.entries if e.status is EntryStatus.ACTIVE]

    @property
    def uncommitted_reserves(self) -> list[str]:
        pending = {u for g in self.check_groups if g.order is not None for u in g.units}
        return [
            e.unit
            for e in self.entries
            if e.status is EntryStatus.ACTIVE and e.mission is None and e.unit not in pending
        ]

    @property
    def missions(self) -> set[OpSheetType]:
        return {
            e.mission
            for e in self.entries
            if e.status is EntryStatus.ACTIVE and e.mission is not None
        }

    @property
    def pending_additions(self) -> list[Addition]:
        return [a for a in self.additions if a.status.in_prep]

    def acting_mission(self, unit: str) -> OpSheetType | None:
        """The mission a unit executes under this sheet, if it is assigned to it [6.3]."""
        entry = self.active(unit)
        if self.status is not SheetStatus.IMPLEMENTED or entry is None:
            return None
        return entry.mission

    @property
    def discardable(self) -> bool:
        """No listed unit still depends on the sheet [6.11.a]."""
        holding = (EntryStatus.ACTIVE, EntryStatus.SUCCEEDED, EntryStatus.FAILED)
        return not self.pending_additions and all(e.status not in holding for e in self.entries)


@dataclass
class SheetResult:
    """What a state change did: the units it touched and units struck from other sheets."""

    sheet: OpSheet
    units: tuple[str, ...] = ()
    released: dict[str, tuple[str, ...]] = field(default_factory=dict)
    size: SizeResult | None = None
    explanation: Explanation = field(default_factory=Explanation)


# ---------------------------------------------------------------------------------------------
# Queries


def c2_status(unit: str, sheets: Iterable[OpSheet]) -> C2Status:
    """Assigned, executing preliminary instructions, or unassigned [6.3, 6.14.a–b]."""
    status = C2Status.UNASSIGNED
    for sheet in sheets:
        if sheet.acting_mission(unit) is not None:
            return C2Status.ASSIGNED
        # a prelims-active sheet, or a reserve on an implemented sheet [6.14.a–b]
        listed = sheet.active(unit) is not None and sheet.status in (
            SheetStatus.PRELIMS_ACTIVE,
            SheetStatus.IMPLEMENTED,
        )
        in_addition = any(
            a.status is SheetStatus.PRELIMS_ACTIVE and unit in a.missions for a in sheet.additions
        )
        if listed or in_addition:
            status = C2Status.PRELIMS
    return status


def listings(unit: str, sheets: Iterable[OpSheet]) -> list[tuple[str, OpSheetType, bool]]:
    """Live listings of a unit as (sheet id, type, implemented) for 6.7.c.

    Closed sheets do not count; a pending addition counts as an unimplemented listing of
    its Command Prep row.
    """
    found = []
    for sheet in sheets:
        if sheet.status.closed:
            continue
        if sheet.active(unit) is not None:
            implemented = sheet.status is SheetStatus.IMPLEMENTED
            found.append((sheet.id, sheet.type, implemented))
        found.extend(
            (sheet.id, a.row, False) for a in sheet.pending_additions if unit in a.missions
        )
    return found


def check_assignment(
    unit: str, sheet_type: OpSheetType, sheets: Iterable[OpSheet], *, implemented: bool = False
) -> None:
    """At most two live sheets: one implemented and one not, or two unimplemented of
    different types [6.7.c]."""
    found = [*listings(unit, sheets), ("new", sheet_type, implemented)]
    if len(found) > 2:
        raise RuleError(
            msg("%(unit)s would be on more than two op sheets", unit=unit), rule="6.7.c"
        )
    if sum(imp for _, _, imp in found) > 1:
        raise RuleError(
            msg("%(unit)s would be on two implemented op sheets", unit=unit), rule="6.7.c"
        )
    unimplemented = [t for _, t, imp in found if not imp]
    if len(unimplemented) != len(set(unimplemented)):
        raise RuleError(
            msg(
                "%(unit)s would be on two unimplemented %(sheet_type)s op sheets",
                unit=unit,
                sheet_type=sheet_type.value,
            ),
            rule="6.7.c",
        )


def check_unique_units(units: Sequence[str], rule: str) -> None:
    if len(set(units)) != len(units):
        raise RuleError(msg("a unit is listed twice"), rule=rule)


# ---------------------------------------------------------------------------------------------
# Drawing


def draw_sheet(
    sheet_id: str,
    missions: Mapping[str, OpSheetType],
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
    *,
    rating: int,
    reserves: Iterable[str] = (),
    alternatives: Mapping[str, Iterable[str]] | None = None,
    turn: int = 0,
    pregame: bool = False,
    preliminary_instructions: bool = False,
    options: TcsOptions = DEFAULT_OPTIONS,
) -> SheetResult:
    """Draw a sheet [6.8]: `missions` maps each non-reserve unit to its group's mission;
    `preliminary_instructions` says whether any were written [6.14.a].

    Reserves are at most half the sheet's units [6.14.b]; each unit has at most one
    alternative [6.14.c]; a side rated 7 or worse can use neither [6.14.d]. With
    `reserves_count_as_attack` the reserves hold an Attack order for categorising the
    sheet (ambiguity 10).
    """
    exp = Explanation()
    reserves = list(reserves)
    alternatives = {k: tuple(v) for k, v in (alternatives or {}).items()}
    units = [*missions, *reserves]
    check_unique_units(units, "6.7.a")
    if not missions:
        raise RuleError(msg("an op sheet needs units with a mission"), rule="6.6")
    for unit in units:
        oob.unit(unit)
    if (reserves or alternatives) and rating >= 7:
        raise RuleError(
            msg(
                "Command Prep rating %(rating)s can never pass a check roll: no reserves or alternatives",
                rating=rating,
            ),
            rule="6.14.d",
        )
    if 2 * len(reserves) > len(units):
        raise RuleError(
            msg(
                "%(v)s reserves exceed half of the sheet's %(v2)s units",
                v=len(reserves),
                v2=len(units),
            ),
            rule="6.14.b",
        )
    alt_units = [u for us in alternatives.values() for u in us]
    check_unique_units(alt_units, "6.14.c")
    if not set(alt_units) <= set(units):
        raise RuleError(msg("an alternative names a unit not on the sheet"), rule="6.14.c")
    kinds = list(missions.values())
    if reserves and options.reserves_count_as_attack:
        kinds.append(OpSheetType.ATTACK)
        exp.add("6.14.b", msg("reserves hold an Attack order for categorising the sheet"))
    sheet_type = exp.add(
        "6.6", msg("categorised by its highest-priority mission"), categorise(kinds)
    )
    for unit in units:
        check_assignment(unit, sheet_type, sheets, implemented=pregame)
    size = sheet_size(units, oob)
    exp.extend(size.explanation)
    status = SheetStatus.IMPLEMENTED if pregame else SheetStatus.UNIMPLEMENTED
    exp.add("6.8" if not pregame else "27.1.f", msg("drawn"), status.value)
    entries = [TaskOrgEntry(u, m) for u, m in missions.items()]
    entries += [TaskOrgEntry(u, None) for u in reserves]
    sheet = OpSheet(
        sheet_id,
        sheet_type,
        entries,
        size.raw,
        size.size,
        status,
        drawn_turn=turn,
        pregame=pregame,
        preliminary_instructions=preliminary_instructions,
        alternatives=alternatives,
    )
    return SheetResult(sheet, tuple(units), size=size, explanation=exp)

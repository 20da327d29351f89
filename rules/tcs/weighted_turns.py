"""Weighted turns: ticks per Command Phase [6.9.d, 6.9.e, 26.1.a] and the 6.13.d reduction."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.tcs.clock import Turn
from rules.tcs.opsheet import (
    Addition,
    C2Status,
    OpSheet,
    OpSheetType,
    SheetStatus,
    c2_status,
)
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions
from rules.tcs.rounding import round_std
from rules.tcs.units import OrderOfBattle, UnitCategory

TRIPLE_RATE_TYPES = frozenset({OpSheetType.ATTACK, OpSheetType.HASTY_DEFENSE, OpSheetType.MOVE})


@dataclass(frozen=True)
class TickConditions:
    """The condition of a sheet's listed units this Command Phase [6.9.d]."""

    sheet_type: OpSheetType
    vehicle_only: bool
    assigned_or_prelims: bool = False
    fired_last_turn: bool = False
    night: bool = False


@dataclass
class Ticks:
    ticks: int
    base: int
    multiplier: int
    explanation: Explanation = field(default_factory=Explanation)


def weighted_turn_ticks(conditions: TickConditions) -> Ticks:
    """The worst applicable case [6.9.d], tripled for vehicle-only Attack, Hasty Defense and
    Move sheets [6.9.e]; night caps it at 2, 6 for vehicle sheets [26.1.a]."""
    exp = Explanation()
    cases = [(3, "6.9.d", "all listed units unassigned")]
    if conditions.assigned_or_prelims:
        cases.append((2, "6.9.d", "a listed unit is assigned or executing preliminary orders"))
    if conditions.night:
        cases.append((2, "26.1.a", "night turn: at most 2 (6 on vehicle sheets)"))
    if conditions.fired_last_turn:
        cases.append((1, "6.9.d", "a listed unit fired or was fired on last turn"))
    base, rule, why = min(cases, key=lambda c: c[0])
    exp.add(rule, msg("worst applicable case: %(why)s", why=why), base)
    multiplier = 1
    if conditions.vehicle_only:
        if conditions.sheet_type in TRIPLE_RATE_TYPES:
            multiplier = exp.add("6.9.e", msg("vehicle-only sheet accumulates at triple rate"), 3)
        else:
            exp.add("6.9.e", msg("a Prepared Defense sheet is never tripled"))
    ticks = exp.add("6.9.d", msg("weighted turns added"), base * multiplier)
    return Ticks(ticks, base, multiplier, exp)


def tick_conditions(
    units: Sequence[str],
    sheet_type: OpSheetType,
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
    fired_last_turn: Collection[str],
    night: bool,
) -> TickConditions:
    """Read the conditions off the board: `fired_last_turn` lists units that fired or were
    fired on (area fire, point fire, AT rolls; not spotting) in the previous turn [6.9.d]."""
    vehicle_only = bool(units) and all(oob.unit(u).category is UnitCategory.VEHICLE for u in units)
    return TickConditions(
        sheet_type,
        vehicle_only,
        any(c2_status(u, sheets) is not C2Status.UNASSIGNED for u in units),
        any(u in fired_last_turn for u in units),
        night,
    )


@dataclass
class CounterTicks:
    """One weighted-turn counter advanced: the sheet's, or an addition's [6.13.c]."""

    counter: str
    before: int
    ticks: int
    after: int


@dataclass
class AccumulationResult:
    sheet_id: str
    counters: list[CounterTicks]
    explanation: Explanation = field(default_factory=Explanation)


def accumulate_weighted_turns(
    sheet: OpSheet,
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
    turn: Turn,
    fired_last_turn: Collection[str] = (),
    options: TcsOptions = DEFAULT_OPTIONS,
) -> AccumulationResult:
    """Command Phase step 2: every counter still in Command Prep adds its ticks [6.9.d].

    With `own_prelims_slow_sheet` off, a counter's own preliminary instructions do not count
    as "executing preliminary instructions" for itself (ambiguity 17).
    """
    exp = Explanation()
    pool = [sheet, *(s for s in sheets if s.id != sheet.id)]
    counters = []
    targets: list[tuple[str, OpSheet | Addition, Sequence[str], OpSheetType, SheetStatus]] = []
    if sheet.status.in_prep:
        targets.append((sheet.id, sheet, sheet.active_units, sheet.type, sheet.status))
    for addition in sheet.pending_additions:
        name = f"{sheet.id}/{addition.id}"
        targets.append((name, addition, addition.units, addition.row, addition.status))
    if not targets:
        raise RuleError(msg("%(id)s has nothing in Command Prep", id=sheet.id), rule="6.9.d")
    for name, holder, units, row, status in targets:
        own_excluded = not options.own_prelims_slow_sheet and status is SheetStatus.PRELIMS_ACTIVE
        seen = pool[1:] if own_excluded else pool
        conditions = tick_conditions(units, row, oob, seen, fired_last_turn, turn.is_night)
        ticks = weighted_turn_ticks(conditions)
        exp.extend(ticks.explanation)
        before = holder.weighted_turns
        holder.weighted_turns += ticks.ticks
        exp.add(
            "6.9.d",
            msg("%(name)s: %(before)s + %(ticks)s", name=name, before=before, ticks=ticks.ticks),
            holder.weighted_turns,
        )
        counters.append(CounterTicks(name, before, ticks.ticks, holder.weighted_turns))
    return AccumulationResult(sheet.id, counters, exp)


@dataclass
class Reduction:
    before: int
    after: int
    raw_old: int
    raw_new: int
    explanation: Explanation = field(default_factory=Explanation)


def reduce_weighted_turns(
    weighted_turns: int, raw_old: int, raw_new: int, options: TcsOptions = DEFAULT_OPTIONS
) -> Reduction:
    """Units added to an unimplemented sheet: WT × old size ÷ new size, both counted without
    the staff modifier, rounded normally once [6.13.d, 1.4]."""
    exp = Explanation()
    if raw_new < raw_old:
        raise RuleError(msg("adding units cannot lower the element count"), rule="6.13.d")
    if raw_old == 0 and not options.reduce_from_zero_size:
        exp.add("6.13.d", msg("old size 0: no reduction (option)"), weighted_turns)
        return Reduction(weighted_turns, weighted_turns, raw_old, raw_new, exp)
    if raw_new == raw_old:
        exp.add("6.13.d", msg("no new element: weighted turns unchanged"), weighted_turns)
        return Reduction(weighted_turns, weighted_turns, raw_old, raw_new, exp)
    after = round_std(Fraction(weighted_turns * raw_old, raw_new))
    exp.add(
        "6.13.d",
        msg(
            "%(weighted_turns)s × %(raw_old)s/%(raw_new)s, rounded normally [1.4]",
            weighted_turns=weighted_turns,
            raw_old=raw_old,
            raw_new=raw_new,
        ),
        after,
    )
    return Reduction(weighted_turns, after, raw_old, raw_new, exp)

"""Adding units to existing op sheets [6.13.c, 6.13.d, 6.13.e]."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.tcs import labels
from rules.tcs.opsheet import (
    Addition,
    OpSheet,
    OpSheetType,
    SheetResult,
    SheetStatus,
    TaskOrgEntry,
    categorise,
    check_assignment,
)
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions
from rules.tcs.size import sheet_size
from rules.tcs.transitions import release_elsewhere
from rules.tcs.units import OrderOfBattle, UnitCategory
from rules.tcs.weighted_turns import reduce_weighted_turns


def add_units(
    sheet: OpSheet,
    missions: Mapping[str, OpSheetType],
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
    *,
    addition_id: str = "",
    row: OpSheetType | None = None,
    preliminary_instructions: bool = False,
    options: TcsOptions = DEFAULT_OPTIONS,
) -> SheetResult:
    """Command Phase step 5: add units, each with its group's mission.

    To an unimplemented sheet the size is recomputed and the weighted turns cut in
    proportion [6.13.d]. To an implemented sheet the units form an addition with its own
    size, weighted turns and Command Prep on `row`, by default the sheet's hardest (highest
    priority) mission [6.13.c; ambiguities 12, 13].
    """
    if not missions:
        raise RuleError(msg("no units to add"), rule="6.13")
    for unit in missions:
        oob.unit(unit)
        if sheet.active(unit) is not None or any(unit in a.missions for a in sheet.additions):
            raise RuleError(
                msg("%(unit)s is already on %(id)s", unit=unit, id=sheet.id), rule="6.13"
            )
    if sheet.status.in_prep:
        return _add_to_unimplemented(sheet, missions, oob, sheets, options)
    if sheet.status is SheetStatus.IMPLEMENTED:
        addition = Addition(
            addition_id,
            dict(missions),
            row or sheet.type,
            raw_size=0,
            size=0,
            preliminary_instructions=preliminary_instructions,
        )
        return _add_to_implemented(sheet, addition, oob, sheets, options)
    raise RuleError(
        msg("%(id)s is %(status)s", id=sheet.id, status=labels.sheet_state(sheet.status)),
        rule="6.13",
    )


def _add_to_unimplemented(
    sheet: OpSheet,
    missions: Mapping[str, OpSheetType],
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
    options: TcsOptions,
) -> SheetResult:
    exp = Explanation()
    kinds = [*sheet.missions, *missions.values()]
    if sheet.uncommitted_reserves and options.reserves_count_as_attack:
        kinds.append(OpSheetType.ATTACK)
    new_type = categorise(kinds)
    others = [s for s in sheets if s.id != sheet.id]
    checked = [*sheet.active_units, *missions] if new_type != sheet.type else list(missions)
    for unit in checked:
        check_assignment(unit, new_type, others)
    size = sheet_size([*(e.unit for e in sheet.entries), *missions], oob)
    exp.extend(size.explanation)
    reduction = reduce_weighted_turns(sheet.weighted_turns, sheet.raw_size, size.raw, options)
    exp.extend(reduction.explanation)
    sheet.entries.extend(TaskOrgEntry(u, m) for u, m in missions.items())
    sheet.type = exp.add("6.6", msg("categorised by its highest-priority mission"), new_type)
    sheet.raw_size, sheet.size, sheet.weighted_turns = size.raw, size.size, reduction.after
    return SheetResult(sheet, tuple(missions), size=size, explanation=exp)


def _add_to_implemented(
    sheet: OpSheet,
    addition: Addition,
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
    options: TcsOptions,
) -> SheetResult:
    exp = Explanation()
    if not addition.id or any(a.id == addition.id for a in sheet.additions):
        raise RuleError(msg("an addition needs a new, unique id"), rule="6.13.c")
    is_vehicle = [oob.unit(u).category is UnitCategory.VEHICLE for u in addition.units]
    host_vehicle_only = all(
        oob.unit(u).category is UnitCategory.VEHICLE for u in sheet.active_units
    )
    if options.vehicles_only_join_vehicle_sheets and any(is_vehicle) and not host_vehicle_only:
        raise RuleError(msg("vehicles may only be added to a vehicle op sheet"), rule="6.13.c")
    exp.add(
        "6.13.c",
        msg("Command Prep row of the hardest mission on %(id)s", id=sheet.id),
        addition.row,
    )
    for unit in addition.units:
        check_assignment(unit, addition.row, sheets)
    size = sheet_size(addition.units, oob)
    exp.extend(size.explanation)
    exp.add("6.13.c", msg("the added force has its own size and weighted turns from 0"), size.size)
    addition.raw_size, addition.size = size.raw, size.size
    sheet.additions.append(addition)
    return SheetResult(sheet, addition.units, size=size, explanation=exp)


def implement_addition(
    sheet: OpSheet, addition: Addition, sheets: Iterable[OpSheet], explanation: Explanation
) -> SheetResult:
    """The added units pass Command Prep and join the Task Organization [6.13.c]."""
    addition.status = SheetStatus.IMPLEMENTED
    sheet.entries.extend(TaskOrgEntry(u, m) for u, m in addition.missions.items())
    explanation.add(
        "6.13.c", msg("%(id)s/%(id2)s implemented", id=sheet.id, id2=addition.id), addition.units
    )
    released = release_elsewhere(addition.units, sheet.id, sheets, explanation)
    return SheetResult(sheet, addition.units, released, explanation=explanation)


def start_addition_prelims(
    sheet: OpSheet, addition: Addition, sheets: Iterable[OpSheet], explanation: Explanation
) -> SheetResult:
    """The added units start preliminary instructions [6.13.c, 6.14.a]."""
    addition.status = SheetStatus.PRELIMS_ACTIVE
    explanation.add(
        "6.14.a",
        msg("%(id)s/%(id2)s: preliminary instructions start", id=sheet.id, id2=addition.id),
    )
    released = release_elsewhere(addition.units, sheet.id, sheets, explanation)
    return SheetResult(sheet, addition.units, released, explanation=explanation)

"""What implementing a Prepared Defense sheet does at that instant [6.16, 21.1]."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs import labels
from rules.tcs.opsheet import OpSheet, OpSheetType, SheetStatus
from rules.tcs.units import OrderOfBattle, UnitCategory


@dataclass
class PreparedDefenseResult:
    dug_in: tuple[str, ...]
    not_dug_in: tuple[str, ...]
    minefields: int
    explanation: Explanation = field(default_factory=Explanation)


def prepared_defense(
    sheet: OpSheet,
    fire_mode: Collection[str],
    oob: OrderOfBattle,
    units: Iterable[str] | None = None,
) -> PreparedDefenseResult:
    """Units on the Prepared Defense mission that are in Fire mode dig in; those in Move mode
    lose the chance [6.16.a]; reserves never dig in [6.14.b]. One minefield per two infantry
    platoons on the sheet, rounded down, placed now within 4 hexes of them and at least 5
    hexes from the nearest enemy [21.1]. `units`: the units just implemented (default all)."""
    exp = Explanation()
    if (
        sheet.type is not OpSheetType.PREPARED_DEFENSE
        or sheet.status is not SheetStatus.IMPLEMENTED
    ):
        raise RuleError(
            msg("%(id)s is not an implemented Prepared Defense sheet", id=sheet.id), rule="6.16"
        )
    listed = list(sheet.active_units if units is None else units)
    defending = [u for u in listed if sheet.acting_mission(u) is OpSheetType.PREPARED_DEFENSE]
    dug_in = tuple(u for u in defending if u in fire_mode)
    not_dug_in = tuple(u for u in defending if u not in fire_mode)
    exp.add("6.16.a", msg("in Fire mode at implementation: dug in"), dug_in)
    if not_dug_in:
        exp.add("6.16.a", msg("in Move mode: not dug in"), not_dug_in)
    platoons = sum(oob.unit(u).category is UnitCategory.INFANTRY for u in listed)
    minefields = exp.add(
        "21.1",
        msg("%(platoons)s infantry platoons ÷ 2, rounded down", platoons=platoons),
        platoons // 2,
    )
    return PreparedDefenseResult(dug_in, not_dug_in, minefields, exp)


def keeps_dug_in(unit: str, sheets: Iterable[OpSheet], *, mode: str = "fire") -> Msg | None:
    """Why a dug-in unit loses Dug In now, or None when it keeps it.

    It loses it on changing to Move mode [6.16.c]; on starting preliminary instructions,
    on becoming unassigned (struck, its sheet succeeded or failed, destroyed) or on being
    assigned to a mission other than Prepared Defense [6.16.d]. An uncommitted reserve has
    no mission, so it is not dug in either [6.14.b]. Pure: both the op-sheet services and
    the unit-state service (mode changes) call it.
    """
    if mode != "fire":
        return msg("changed to Move mode")
    sheets = list(sheets)
    for sheet in sheets:
        entry = sheet.active(unit)
        if entry is not None and sheet.status is SheetStatus.PRELIMS_ACTIVE:
            return msg("started executing the preliminary instructions of %(id)s", id=sheet.id)
    acting = [
        (sheet, sheet.acting_mission(unit))
        for sheet in sheets
        if sheet.status is SheetStatus.IMPLEMENTED and sheet.active(unit) is not None
    ]
    if not acting:
        return msg("unassigned")
    for sheet, mission in acting:
        if mission is None:
            return msg("an uncommitted reserve on %(id)s", id=sheet.id)
        if mission is not OpSheetType.PREPARED_DEFENSE:
            return msg(
                "assigned to a %(mission)s mission on %(id)s",
                mission=labels.sheet_type(mission),
                id=sheet.id,
            )
    return None


def dug_in_losses(
    dug_in: Iterable[str], sheets: Iterable[OpSheet], modes: dict[str, str] | None = None
) -> tuple[dict[str, Msg], Explanation]:
    """Every dug-in unit that loses the status now, with the reason [6.16.c-d]."""
    sheets = list(sheets)
    modes = modes or {}
    exp = Explanation()
    lost: dict[str, Msg] = {}
    for unit in dug_in:
        why = keeps_dug_in(unit, sheets, mode=modes.get(unit, "fire"))
        if why is not None:
            lost[unit] = why
            rule = "6.16.c" if modes.get(unit, "fire") != "fire" else "6.16.d"
            exp.add(rule, msg("%(unit)s is no longer dug in: %(why)s", unit=unit, why=why))
    return lost, exp

"""What implementing a Prepared Defense sheet does at that instant [6.16, 21.1]."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
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

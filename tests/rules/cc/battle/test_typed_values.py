"""3.1: a unit whose current FP or Morale the players read off the table is explained as read,
never as a printed side of zeros, and its markers are not applied a second time."""

from __future__ import annotations

from rules.cc.battle.units import UnitKind
from rules.cc.battle.values import Printed, Unit, current_values


def _typed(reads: str, number: int, **markers) -> Unit:
    side = Printed(number, 0, 0, 0) if reads == "fp" else Printed(0, 0, 0, number)
    return Unit("Rifle Squad", UnitKind.SQUAD, side, side, typed=reads, **markers)


def test_3_1_a_typed_morale_is_shown_as_read_and_keeps_its_markers_once():
    values = current_values(unit=_typed("morale", 7, suppressed=True, veteran=True), cover=2)
    assert values.morale == 9  # 7 as read (markers in it) + Cover 2
    lines = [str(s.text) for s in values.explanation.steps]
    assert lines[0] == "Rifle Squad: Morale 7 as read at the table"
    assert not any("printed" in line or "Suppressed" in line for line in lines)


def test_3_1_a_typed_fp_with_wire_loses_one():
    values = current_values(unit=_typed("fp", 5), wire=True)
    assert values.fp == 4
    assert str(values.explanation.steps[0].text) == "Rifle Squad: FP 5 as read at the table"


def test_3_1_a_printed_unit_still_applies_its_markers():
    side = Printed(5, 6, 4, 7)
    unit = Unit("Rifle Squad", UnitKind.SQUAD, side, side, suppressed=True)
    assert current_values(unit=unit).morale == 6

"""Op sheet size and staff modifier [6.9.b, 6.9.c]: digest cases T10–T15, seed examples."""

import pytest

from rules.tcs.size import sheet_size
from rules.tcs.units import Formation, MoraleKind, Unit

from .helpers import HW, battalion, oob_of, tank_battalion, units_of

BN1, BN2, BN3 = (battalion(n) for n in ("1-123", "2-123", "3-123"))
TANKS = tank_battalion("A-58")
REGT_GUNS = Formation("123-HW", MoraleKind.NONE)
GUN = Unit("123-HW/1", HW, "123-HW")
OOB = oob_of(BN1, BN2, BN3, TANKS, (REGT_GUNS, [GUN]))


def company(name, which):
    """Three platoons of a nine-platoon battalion: company 1, 2 or 3."""
    start = 3 * (which - 1) + 1
    return [f"{name}/{i}" for i in range(start, start + 3)]


@pytest.mark.parametrize(
    ("case", "listed", "raw", "size"),
    [
        # T10: three companies, each of a different formation → 3, no complete battalion
        ("t10", company("1-123", 1) + company("2-123", 1) + company("3-123", 1), 3, 3),
        # T11: three companies of the same battalion (all of it) → 1, staff → 0
        ("t11", company("1-123", 1) + company("1-123", 2) + company("1-123", 3), 1, 0),
        # T12: a battalion + two tank platoons of one company + a regimental gun → 2 → 1
        ("t12", [*units_of("1-123", OOB), "A-58/1", "A-58/2", "123-HW/1"], 2, 1),
        # T13: one complete battalion alone → 1 → 0
        ("t13", units_of("1-123", OOB), 1, 0),
        # T14 (6.9.f example): a regiment of three complete battalions → 3 − 1 = 2
        ("t14", units_of("1-123", OOB) + units_of("2-123", OOB) + units_of("3-123", OOB), 3, 2),
        # T15: infantry battalion + part of an armoured battalion (sample sheets) → 1
        ("t15", [*units_of("1-123", OOB), "A-58/1", "A-58/2", "A-58/3"], 2, 1),
    ],
)
def test_6_9_b_c_sheet_size_with_staff_modifier(case, listed, raw, size):
    result = sheet_size(listed, OOB)
    assert (result.raw, result.size) == (raw, size), case


def test_6_9_c_staff_modifier_applies_once_per_sheet():
    listed = units_of("1-123", OOB) + units_of("2-123", OOB)
    result = sheet_size(listed, OOB)
    assert result.staff_modifier == -1 and result.complete_battalions == ("1-123", "2-123")
    assert result.size == 1


def test_6_9_c_eliminated_parts_do_not_spoil_a_complete_battalion():
    oob = oob_of(battalion("1-123"))
    oob.eliminate("1-123/9")
    assert sheet_size([f"1-123/{i}" for i in range(1, 9)], oob).size == 0
    assert sheet_size([f"1-123/{i}" for i in range(1, 8)], oob).size == 1


def test_6_9_b_units_outside_morale_formations_add_nothing():
    result = sheet_size(["123-HW/1"], OOB)
    assert (result.raw, result.size) == (0, 0)
    assert any(s.rule == "6.9.b" and "add 0" in str(s.text) for s in result.explanation)


def test_6_9_c_ambiguity_15_complete_heavy_weapons_battalion_gives_no_staff_modifier():
    hw_bn = battalion("HW-Bn", 3, HW, MoraleKind.NONE)
    oob = oob_of(BN1, hw_bn)
    result = sheet_size(units_of("HW-Bn", oob) + company("1-123", 1), oob)
    assert (result.raw, result.staff_modifier, result.size) == (1, 0, 1)

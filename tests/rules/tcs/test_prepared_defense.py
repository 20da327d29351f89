"""Prepared Defense implementation effects [6.16.a, 21.1]: digest cases T26, T27."""

import pytest

from rules.errors import RuleError
from rules.tcs.opsheet import OpSheetType, draw_sheet
from rules.tcs.prepared_defense import prepared_defense
from rules.tcs.units import Unit

from .helpers import HW, battalion, oob_of, units_of

PD = OpSheetType.PREPARED_DEFENSE
OOB = oob_of(battalion("1-123", 5), loose=[Unit("mg", HW)])
PLATOONS = units_of("1-123", OOB)


def test_t26_t27_6_16_a_21_1_fire_mode_digs_in_and_two_platoons_per_minefield():
    sheet = draw_sheet(
        "PD", dict.fromkeys([*PLATOONS, "mg"], PD), OOB, [], rating=3, pregame=True
    ).sheet
    result = prepared_defense(sheet, fire_mode={*PLATOONS[:3], "mg"}, oob=OOB)
    assert set(result.dug_in) == {*PLATOONS[:3], "mg"}
    assert set(result.not_dug_in) == set(PLATOONS[3:])
    assert result.minefields == 2  # 5 platoons → floor(5/2)


def test_6_14_b_reserves_never_dig_in():
    sheet = draw_sheet(
        "PD",
        dict.fromkeys(PLATOONS[:3], PD),
        OOB,
        [],
        rating=3,
        reserves=PLATOONS[3:],
        pregame=True,
    ).sheet
    result = prepared_defense(sheet, fire_mode=set(PLATOONS), oob=OOB)
    assert set(result.dug_in) == set(PLATOONS[:3])


def test_6_16_only_implemented_prepared_defense_sheets():
    sheet = draw_sheet("PD", dict.fromkeys(PLATOONS, PD), OOB, [], rating=3).sheet
    with pytest.raises(RuleError):
        prepared_defense(sheet, fire_mode=set(), oob=OOB)

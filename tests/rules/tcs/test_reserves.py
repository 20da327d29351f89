"""Reserves, alternatives and the check die roll [6.14.b–d]: digest cases T23, T24."""

import pytest

from rules.errors import RuleError
from rules.tcs.clock import Phase
from rules.tcs.opsheet import EntryStatus, OpSheetType, draw_sheet
from rules.tcs.options import TcsOptions
from rules.tcs.reserves import (
    check_roll,
    choose_alternative,
    commit_reserves,
    forced_commitment,
    roll_check,
)
from rules.tcs.transitions import declare_failure

from .helpers import battalion, dice, oob_of, units_of

A, HD, MV = OpSheetType.ATTACK, OpSheetType.HASTY_DEFENSE, OpSheetType.MOVE
OOB = oob_of(battalion("1-123", 10))
UNITS = units_of("1-123", OOB)


def sheet_with_reserves(reserves, **kw):
    kw.setdefault("pregame", True)
    kw.setdefault("rating", 3)
    missions = {u: A for u in UNITS if u not in reserves}
    return draw_sheet("S", missions, OOB, [], reserves=reserves, **kw).sheet


@pytest.mark.parametrize(
    ("rating", "roll", "success"),
    [(3, 3, True), (3, 2, False), (3, 6, True), (1, 1, True)]
    + [(7, r, False) for r in range(1, 7)],
)
def test_t23_6_14_d_check_roll_is_d6_at_least_the_rating(rating, roll, success):
    result = check_roll(rating, dice(roll), purpose="test")
    assert result.success is success
    assert result.roll.kind == "d6" and result.explanation.steps[0].rule == "6.14.d"


def test_t23_6_14_d_rating_7_cannot_use_reserves_or_alternatives():
    with pytest.raises(RuleError) as err:
        sheet_with_reserves(UNITS[:2], rating=7)
    assert err.value.rule == "6.14.d"
    with pytest.raises(RuleError):
        draw_sheet("S", dict.fromkeys(UNITS, A), OOB, [], rating=7, alternatives={"x": UNITS[:1]})


def test_t24_6_14_b_up_to_half_the_units_in_reserve():
    assert len(sheet_with_reserves(UNITS[:5]).uncommitted_reserves) == 5
    with pytest.raises(RuleError) as err:
        sheet_with_reserves(UNITS[:6])
    assert err.value.rule == "6.14.b"


def test_t24_6_14_b_forced_commitment_after_losses():
    sheet = sheet_with_reserves(UNITS[:3])
    assert forced_commitment(sheet) is None
    declare_failure(sheet, Phase.OWN_ACTION, UNITS[3:9])  # 4 units left, 3 of them reserves
    decision = forced_commitment(sheet)
    assert decision.rule == "6.14.b" and set(decision.options) == set(UNITS[:3])
    assert "at least 1" in str(decision.prompt)
    commit_reserves(sheet, "g", UNITS[:1], HD, rating=3)
    assert forced_commitment(sheet) is None  # committed units stop counting at once


def test_6_14_b_commitment_rolls_each_phase_until_it_passes():
    sheet = sheet_with_reserves(UNITS[:4])
    commit_reserves(sheet, "flank", UNITS[:2], A, rating=4)
    first = roll_check(sheet, "flank", rating=4, dice=dice(3))
    assert not first.success and sheet.acting_mission(UNITS[0]) is None
    second = roll_check(sheet, "flank", rating=4, dice=dice(4))
    assert second.success and sheet.acting_mission(UNITS[0]) is A
    assert [r.value for r in sheet.check_groups[0].rolls] == [3, 4]
    with pytest.raises(RuleError):
        roll_check(sheet, "flank", rating=4, dice=dice(6))


@pytest.mark.parametrize(
    ("units", "order"),
    [
        (UNITS[4:5], A),  # not a reserve
        (UNITS[:1], OpSheetType.PREPARED_DEFENSE),  # committed reserves never dig in
        ((), A),
    ],
)
def test_6_14_b_illegal_commitments(units, order):
    sheet = sheet_with_reserves(UNITS[:4])
    with pytest.raises(RuleError):
        commit_reserves(sheet, "g", units, order, rating=3)


def test_6_14_b_unimplemented_sheet_cannot_commit():
    sheet = sheet_with_reserves(UNITS[:4], pregame=False)
    with pytest.raises(RuleError):
        commit_reserves(sheet, "g", UNITS[:1], A, rating=3)


def test_6_14_b_ambiguity_10_reading_b_keeps_the_drawn_type():
    sheet = sheet_with_reserves(UNITS[:4], options=TcsOptions(reserves_count_as_attack=False))
    assert sheet.type is A
    hasty = draw_sheet(
        "H",
        {u: HD for u in UNITS[4:]},
        OOB,
        [],
        rating=3,
        reserves=UNITS[:4],
        options=TcsOptions(reserves_count_as_attack=False),
    ).sheet
    assert hasty.type is HD
    assert sheet_with_reserves(UNITS[:4]).type is A


def test_6_14_c_alternatives_one_per_unit_and_irreversible():
    with pytest.raises(RuleError) as err:
        draw_sheet(
            "S",
            dict.fromkeys(UNITS, A),
            OOB,
            [],
            rating=3,
            alternatives={"maple": UNITS[:2], "oak": UNITS[1:3]},
        )
    assert err.value.rule == "6.14.c"
    sheet = draw_sheet(
        "S",
        dict.fromkeys(UNITS, A),
        OOB,
        [],
        rating=3,
        pregame=True,
        alternatives={"maple": UNITS[:2]},
    ).sheet
    choose_alternative(sheet, "maple", rating=3)
    with pytest.raises(RuleError, match="already chosen"):
        choose_alternative(sheet, "maple", rating=3)
    assert roll_check(sheet, "alt:maple", rating=3, dice=dice(5)).success
    assert sheet.check_groups[0].passed and sheet.entry(UNITS[0]).status is EntryStatus.ACTIVE

"""Weighted turns [6.9.d, 6.9.e, 26.1.a] and the 6.13.d reduction: T16–T18, T22."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.explain import Explanation
from rules.tcs.additions import add_units
from rules.tcs.clock import Light, Turn
from rules.tcs.opsheet import OpSheetType, draw_sheet
from rules.tcs.options import TcsOptions
from rules.tcs.transitions import start_prelims
from rules.tcs.units import Unit
from rules.tcs.weighted_turns import (
    TickConditions,
    accumulate_weighted_turns,
    reduce_weighted_turns,
    weighted_turn_ticks,
)

from .helpers import TRN, battalion, oob_of, tank_battalion, units_of

A, HD, PD, MV = (
    OpSheetType.ATTACK,
    OpSheetType.HASTY_DEFENSE,
    OpSheetType.PREPARED_DEFENSE,
    OpSheetType.MOVE,
)
DAY = Turn(2, 8 * 60 + 20)
NIGHT = Turn(2, 22 * 60, Light.NIGHT)


@pytest.mark.parametrize(
    ("conditions", "ticks"),
    [
        # T18: infantry sheet, all unassigned, day → 3
        (TickConditions(A, False), 3),
        # T18: one listed unit assigned on another implemented sheet → 2
        (TickConditions(A, False, assigned_or_prelims=True), 2),
        # T18: a listed unit fired or was fired on last turn → 1 (worst case wins)
        (TickConditions(A, False, assigned_or_prelims=True, fired_last_turn=True), 1),
        # T18: night, all unassigned → 2
        (TickConditions(A, False, night=True), 2),
        # T18: vehicle-only Attack at night, no contact → 6
        (TickConditions(A, True, night=True), 6),
        # T18: vehicle-only Prepared Defense, day, unassigned → 3 (never tripled)
        (TickConditions(PD, True), 3),
        # T16 (6.9.e example): unassigned tank battalion out of combat → 9
        (TickConditions(A, True), 9),
        # 6.9.e: Hasty Defense and Move vehicle sheets triple too; fire → 1 × 3
        (TickConditions(HD, True, fired_last_turn=True), 3),
        (TickConditions(MV, True, assigned_or_prelims=True), 6),
        # night and fire: the worst case is still 1
        (TickConditions(A, False, fired_last_turn=True, night=True), 1),
    ],
)
def test_6_9_d_weighted_turns_worst_condition(conditions, ticks):
    assert weighted_turn_ticks(conditions).ticks == ticks


def test_t17_6_14_a_sherman_sheet_gets_9_at_the_next_command_phase():
    oob = oob_of(tank_battalion("Sherman"))
    sheet = draw_sheet(
        "S1", dict.fromkeys(units_of("Sherman", oob), A), oob, [], rating=3, turn=1
    ).sheet
    result = accumulate_weighted_turns(sheet, oob, [sheet], DAY)
    assert sheet.weighted_turns == 9 and result.counters[0].ticks == 9


def test_6_9_e_transports_spoil_the_vehicle_rate():
    tanks = tank_battalion("Sherman", 3)
    oob = oob_of(tanks, loose=[Unit("truck", TRN)])
    sheet = draw_sheet(
        "S1", dict.fromkeys([*units_of("Sherman", oob), "truck"], A), oob, [], rating=3
    ).sheet
    accumulate_weighted_turns(sheet, oob, [sheet], DAY)
    assert sheet.weighted_turns == 3


def test_6_9_d_assigned_unit_and_fire_read_off_the_board():
    oob = oob_of(battalion("1-123"), battalion("2-123"))
    old = draw_sheet(
        "old", dict.fromkeys(units_of("1-123", oob), HD), oob, [], rating=3, pregame=True
    ).sheet
    new = draw_sheet(
        "new", dict.fromkeys(["1-123/1", *units_of("2-123", oob)], A), oob, [old], rating=3
    ).sheet
    accumulate_weighted_turns(new, oob, [old, new], DAY)
    assert new.weighted_turns == 2
    accumulate_weighted_turns(new, oob, [old, new], DAY, fired_last_turn={"2-123/4"})
    assert new.weighted_turns == 3


def test_6_9_d_ambiguity_17_own_prelims_count_by_default():
    oob = oob_of(tank_battalion("Sherman"))
    options = [TcsOptions(), TcsOptions(own_prelims_slow_sheet=False)]
    gained = []
    for opt in options:
        sheet = draw_sheet(
            "S1",
            dict.fromkeys(units_of("Sherman", oob), A),
            oob,
            [],
            rating=3,
            preliminary_instructions=True,
        ).sheet
        start_prelims(sheet, [sheet], Explanation())
        gained.append(accumulate_weighted_turns(sheet, oob, [sheet], DAY, options=opt))
    assert [g.counters[0].ticks for g in gained] == [6, 9]


def test_t22_6_13_d_adding_a_battalion_cuts_weighted_turns_27_to_18():
    oob = oob_of(battalion("1-123"), battalion("2-123"), battalion("3-123"))
    listed = units_of("1-123", oob) + units_of("2-123", oob)
    sheet = draw_sheet("R", dict.fromkeys(listed, A), oob, [], rating=3).sheet
    assert (sheet.raw_size, sheet.size) == (2, 1)
    sheet.weighted_turns = 27
    result = add_units(sheet, dict.fromkeys(units_of("3-123", oob), A), oob, [sheet])
    assert (sheet.raw_size, sheet.size, sheet.weighted_turns) == (3, 2, 18)
    assert any(s.rule == "6.13.d" and s.value == 18 for s in result.explanation)


def test_t03_6_13_d_rounds_once_normally():
    # 25 × 1/2 = 12.5 → 13; 26 × 2/3 = 17.33 → 17; 10 × 2/3 = 6.67 → 7
    assert reduce_weighted_turns(25, 1, 2).after == 13
    assert reduce_weighted_turns(26, 2, 3).after == 17
    assert reduce_weighted_turns(10, 2, 3).after == 7


def test_6_13_d_ambiguity_16_zero_old_size():
    assert reduce_weighted_turns(12, 0, 1).after == 0
    assert reduce_weighted_turns(12, 0, 1, TcsOptions(reduce_from_zero_size=False)).after == 12


def test_26_0_twilight_is_not_night_for_weighted_turns():
    oob = oob_of(battalion("1-123"))
    sheet = draw_sheet("S", dict.fromkeys(units_of("1-123", oob), A), oob, [], rating=3).sheet
    accumulate_weighted_turns(sheet, oob, [sheet], Turn(3, 19 * 60, Light.DUSK))
    accumulate_weighted_turns(sheet, oob, [sheet], NIGHT)
    assert sheet.weighted_turns == 3 + 2


conditions = st.builds(
    TickConditions,
    st.sampled_from(list(OpSheetType)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@given(conditions)
def test_26_1_a_night_never_exceeds_the_cap(c):
    ticks = weighted_turn_ticks(c).ticks
    vehicle_rate = c.vehicle_only and c.sheet_type is not OpSheetType.PREPARED_DEFENSE
    assert 1 <= ticks <= (9 if vehicle_rate else 3)
    if c.night:
        assert ticks <= (6 if vehicle_rate else 2)


@given(st.integers(0, 500), st.integers(0, 12), st.integers(0, 12))
def test_6_13_d_reduction_never_increases_weighted_turns(wt, raw_old, extra):
    after = reduce_weighted_turns(wt, raw_old, raw_old + extra).after
    assert 0 <= after <= wt
    if raw_old + extra:
        assert abs(after - Fraction(wt * raw_old, raw_old + extra)) <= Fraction(1, 2)


def test_6_13_d_6_6_added_attack_group_recategorises_a_hasty_defense_sheet():
    oob = oob_of(battalion("1-123"), battalion("2-123"))
    sheet = draw_sheet("S", dict.fromkeys(units_of("1-123", oob), HD), oob, [], rating=3).sheet
    sheet.weighted_turns = 9
    add_units(sheet, {"2-123/1": A}, oob, [sheet])
    # raw 1 → 2 (the complete 1-123 keeps the staff modifier): 9 × 1/2 = 4.5 → 5
    assert (sheet.type, sheet.size, sheet.weighted_turns) == (A, 1, 5)

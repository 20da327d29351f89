"""Vehicle morale [17.8]: digest cases T67, T68, failure on op sheets, recovery."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.tcs.clock import Light, Turn
from rules.tcs.opsheet import EntryStatus, OpSheetType, SheetStatus, draw_sheet
from rules.tcs.options import TcsOptions
from rules.tcs.vehicle_morale import (
    Box,
    BoxShape,
    VehicleMoraleTrack,
    vehicle_recovery,
    vehicle_step_losses,
)

from .helpers import battalion, dice, oob_of, tank_battalion, units_of

CIRCLE, SQUARE1 = Box(BoxShape.CIRCLE), Box(BoxShape.SQUARE, 1)
T34_TRACK = (CIRCLE, SQUARE1, SQUARE1)
OOB = oob_of(tank_battalion("T34"), battalion("inf"))
T34 = units_of("T34", OOB)


def test_t67_17_8_example_nine_t34s_lose_three_steps():
    attack = draw_sheet(
        "A", dict.fromkeys(T34, OpSheetType.ATTACK), OOB, [], rating=3, pregame=True
    ).sheet
    later = draw_sheet("B", dict.fromkeys(T34, OpSheetType.MOVE), OOB, [attack], rating=3).sheet
    track = VehicleMoraleTrack("T34", T34_TRACK, total_steps=9)
    result = vehicle_step_losses(track, 3, dice(3, 2), formation_units=T34, sheets=[attack, later])
    assert [r.value for r in result.checks] == [3, 2]
    steps = [s for s in result.explanation if s.rule == "17.8.b"]
    assert [s.value for s in steps] == ["pass", "fail"]
    assert "against 1" in str(steps[0].text) and "against 2" in str(steps[1].text)
    assert result.failed and result.gained == 2 and track.value == 2
    assert track.recorded == [2] and track.filled == 0 and track.steps_lost == 3
    assert attack.status is SheetStatus.FAILED
    assert {attack.entry(u).status for u in T34} == {EntryStatus.FAILED}
    assert later.status is SheetStatus.UNIMPLEMENTED and later.active_units == T34  # ambiguity 7


@pytest.mark.parametrize(
    ("lost_before", "options", "gained"),
    [
        (5, TcsOptions(), 2),  # T68: 5 of 9 lost (≥ 4.5) → the square adds 2
        (4, TcsOptions(), 1),  # T68: only 4 lost → adds 1
        (4, TcsOptions(vehicle_doubling_counts_current_loss=True), 2),
    ],
)
def test_t68_17_8_e_doubling_after_half_the_steps(lost_before, options, gained):
    track = VehicleMoraleTrack("T34", (SQUARE1,) * 9, 9, steps_lost=lost_before, filled=lost_before)
    result = vehicle_step_losses(track, 1, dice(6, 6), options=options)
    assert result.gained == gained and len(result.checks) == gained and not result.failed


def test_17_8_b_one_roll_per_point_against_the_running_value():
    # a square worth 3 adds 1, 2, 3 in turn: rolls 2 (> 1), 3 (> 2), 3 (≤ 3) → fail
    track = VehicleMoraleTrack("x", (Box(BoxShape.SQUARE, 3), CIRCLE), 4)
    result = vehicle_step_losses(track, 1, dice(2, 3, 3))
    steps = [s for s in result.explanation if s.rule == "17.8.b"]
    assert [s.value for s in steps] == ["pass", "pass", "fail"]
    assert track.value == 3 and result.failed


@pytest.mark.parametrize(
    ("each_point", "checks", "failed"),
    [
        (True, 3, False),  # 3 > 1, 4 > 2, 4 > 3
        (False, 1, True),  # ambiguity 6 alternative: 3 ≤ 3 at once; no rolls after failing
    ],
)
def test_17_8_b_ambiguity_6_reading_of_several_points(each_point, checks, failed):
    track = VehicleMoraleTrack("x", (Box(BoxShape.SQUARE, 3), CIRCLE), 4)
    options = TcsOptions(vehicle_check_after_each_point=each_point)
    result = vehicle_step_losses(track, 1, dice(3, 4, 4), options=options)
    assert (len(result.checks), result.failed) == (checks, failed)


def test_17_8_a_losses_beyond_the_formation_are_refused():
    track = VehicleMoraleTrack("x", T34_TRACK, 3)
    with pytest.raises(RuleError):
        vehicle_step_losses(track, 4, dice())


def test_17_8_a_box_shapes_validated():
    with pytest.raises(RuleError):
        Box(BoxShape.CIRCLE, 1)
    with pytest.raises(RuleError):
        Box(BoxShape.SQUARE, 0)


@pytest.mark.parametrize(
    ("turn", "options", "rolled"),
    [
        (Turn(1, 9 * 60), TcsOptions(), True),
        (Turn(1, 21 * 60, Light.NIGHT), TcsOptions(), False),  # ambiguity 9
        (
            Turn(1, 21 * 60, Light.NIGHT),
            TcsOptions(vehicle_recovery_even_hours_at_night=False),
            True,
        ),
    ],
)
def test_17_8_d_vehicle_recovery(turn, options, rolled):
    track = VehicleMoraleTrack("T34", T34_TRACK, 9, value=2)
    result = vehicle_recovery(track, turn, dice(1), formation_units=T34, sheets=[], options=options)
    assert (result.roll is not None) is rolled and track.value == (1 if rolled else 2)


def test_17_8_d_attacking_formation_cannot_recover():
    attack = draw_sheet(
        "A", dict.fromkeys(T34, OpSheetType.ATTACK), OOB, [], rating=3, pregame=True
    ).sheet
    track = VehicleMoraleTrack("T34", T34_TRACK, 9, value=2)
    result = vehicle_recovery(track, Turn(1, 600), dice(1), formation_units=T34, sheets=[attack])
    assert result.roll is None and track.value == 2


def test_17_8_track_round_trips():
    track = VehicleMoraleTrack("T34", T34_TRACK, 9)
    vehicle_step_losses(track, 2, dice(6))
    data = json.loads(json.dumps(track.to_dict()))
    assert VehicleMoraleTrack.from_dict(data) == track


boxes = st.lists(
    st.one_of(st.just(CIRCLE), st.builds(Box, st.just(BoxShape.SQUARE), st.integers(1, 3))),
    min_size=1,
    max_size=8,
)


@given(boxes, st.integers(1, 12), st.data())
def test_17_8_value_never_negative_and_track_consistent(track_boxes, total, data):
    track = VehicleMoraleTrack("x", tuple(track_boxes), total)
    while track.steps_lost < total:
        steps = data.draw(st.integers(1, total - track.steps_lost))
        rolls = dice(
            *data.draw(st.lists(st.integers(1, 6), min_size=36 * steps, max_size=36 * steps))
        )
        before = track.value
        result = vehicle_step_losses(track, steps, rolls)
        assert track.value == before + result.gained >= 0
        assert 0 <= track.filled < len(track.boxes)
        if data.draw(st.booleans()):
            vehicle_recovery(
                track,
                Turn(1, 600),
                dice(data.draw(st.integers(1, 6))),
                formation_units=[],
                sheets=[],
            )
            assert track.value >= 0

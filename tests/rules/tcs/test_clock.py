"""The turn clock [1.3, 2.0, 26.1.d] and standard rounding [1.4: T03]."""

import json
from fractions import Fraction

import pytest

from rules.explain import Explanation
from rules.tcs.clock import Light, Turn, morale_recovery_due, next_turn, turn_minutes
from rules.tcs.options import TcsOptions
from rules.tcs.rounding import round_std


@pytest.mark.parametrize(
    ("value", "rounded"),
    [(Fraction(249, 100), 2), (Fraction(5, 2), 3), (Fraction(7, 2), 4), (18, 18), (0, 0)],
)
def test_t03_1_4_standard_rounding(value, rounded):
    assert round_std(value) == rounded


def test_1_3_day_turns_last_20_minutes_and_night_turns_an_hour():
    turn = Turn(1, 8 * 60)
    labels = []
    for _ in range(4):
        labels.append(turn.clock)
        turn = next_turn(turn, Light.DAY)
    assert labels == ["0800", "0820", "0840", "0900"]
    night = Turn(30, 20 * 60, Light.NIGHT)
    assert [night.clock, next_turn(night, Light.NIGHT).clock] == ["2000", "2100"]
    assert turn_minutes(Light.DUSK) == 20 and turn_minutes(Light.NIGHT) == 60
    assert turn_minutes(Light.NIGHT, TcsOptions(night_turn_minutes=30)) == 30


@pytest.mark.parametrize(
    ("turn", "due"),
    [
        (Turn(1, 8 * 60), True),
        (Turn(1, 11 * 60), True),
        (Turn(1, 8 * 60 + 40), False),
        (Turn(1, 21 * 60, Light.NIGHT), False),
        (Turn(1, 20 * 60, Light.NIGHT), True),
        (Turn(1, 24 * 60, Light.NIGHT), True),
        (Turn(1, 23 * 60, Light.TWILIGHT), True),
    ],
)
def test_2_0_26_1_d_recovery_on_whole_hours_and_even_night_hours(turn, due):
    assert morale_recovery_due(turn, Explanation()) is due


def test_1_3_turn_and_options_round_trip():
    turn = Turn(7, 26 * 60 + 20, Light.DAWN)
    assert turn.clock == "0220"
    assert Turn.from_dict(json.loads(json.dumps(turn.to_dict()))) == turn
    assert TcsOptions.from_dict(json.loads(json.dumps(TcsOptions().to_dict()))) == TcsOptions()

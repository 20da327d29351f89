"""The medic (§8.3.2)."""

import itertools
from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.errors import DiceError, RuleError
from rules.parabellum.activation import new_side_turn, set_state, stand_up, start_activation
from rules.parabellum.medic import end_of_turn_removals, falls, tend, tend_check, tend_odds
from rules.parabellum.roster import new_roster


def test_8_3_2_falls_downed_within_20_cm_of_a_living_medic():
    assert falls(medic_alive=True, medic_distance_cm=20) == "downed"
    assert falls(medic_alive=True, medic_distance_cm=20.5) == "eliminated"
    assert falls(medic_alive=False, medic_distance_cm=5) == "eliminated"
    assert falls(medic_alive=True, medic_distance_cm=None) == "eliminated"


def test_8_3_2_tend_odds_vs_brute_force():
    faces = list(itertools.product(range(1, 7), repeat=3))
    brute = Fraction(sum(sum(f) >= 11 for f in faces), len(faces))
    assert tend_odds() == brute == Fraction(1, 2)


@pytest.mark.parametrize(
    ("faces", "up"), [((3, 4, 4), True), ((6, 4, 1), True), ((3, 3, 4), False)]
)
def test_8_3_2_tend_roll(faces, up):
    result = tend(EnteredDice([list(faces)]))
    assert result.stands_up is up and result.roll.value == sum(faces)
    assert result.odds == Fraction(1, 2)
    assert result.explanation.steps[0].rule == "8.3.2"


def test_8_3_2_tend_needs_three_faces():
    with pytest.raises(DiceError):
        tend(EnteredDice([11]))


@pytest.mark.parametrize(
    "blocked",
    [
        {"medic_touching": False},
        {"medic_attacked_this_activation": True},
        {"enemy_threat": True},
        {"tended_this_turn": True},
    ],
)
def test_8_3_2_tend_check_refusals(blocked):
    ok = {
        "medic_touching": True,
        "medic_attacked_this_activation": False,
        "enemy_threat": False,
        "tended_this_turn": False,
    }
    assert tend_check(**ok).steps[0].rule == "8.3.2"
    with pytest.raises(RuleError) as err:
        tend_check(**{**ok, **blocked})
    assert err.value.rule == "8.3.2"


def test_8_3_2_end_of_turn_removals():
    downed = {"rifleman-1": 12.0, "rifleman-2": 20.0, "rifleman-3": 20.1, "rifleman-4": None}
    assert end_of_turn_removals(downed) == ["rifleman-3", "rifleman-4"]
    assert end_of_turn_removals({}) == []


def test_8_3_2_stood_up_soldier_is_suppressed_and_rests():
    r = new_roster("GER/grenadier")
    side = set_state(new_side_turn(r), "rifleman-1", out=True)
    side = stand_up(side, "rifleman-1")
    rec = side.soldiers["rifleman-1"]
    assert rec.suppressed and rec.rests and not rec.out
    with pytest.raises(RuleError) as err:
        start_activation(side, r, "rifleman-1", via="blue")
    assert err.value.rule == "8.3.2"
    with pytest.raises(RuleError):
        stand_up(side, "rifleman-2")
    fresh = new_side_turn(r, suppressed={"rifleman-1"})  # next turn: may activate
    assert start_activation(fresh, r, "rifleman-1", via="blue").side.active is not None

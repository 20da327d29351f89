"""Scenario-design guidance ("Consejos") formulas, checked against the seed's statements."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cc.common import Faction, Nation, Posture, Quality
from rules.cc.generator.design import (
    DesignPiece,
    formation_guide,
    initial_vp,
    max_unarmed_teams,
    orders_limit,
    point_total,
    recon_depths_may_touch,
    reinforcement_cost,
    setup_depths,
    sudden_death_space,
    surrender_level,
    troop_quality,
)
from rules.cc.generator.state import Orientation
from rules.cc.generator.tables import FormationSize
from rules.cc.generator_tables import GeneratorData
from rules.errors import RuleError

AXIS, ALLIES = Faction.AXIS, Faction.ALLIES
SIZES = (FormationSize.COMPANY, FormationSize.PLATOON, FormationSize.PATROL)


def test_consejos_reinforcement_cost_seed_example():
    # digest §6 #1: German Rifle squad 100 points, Time space 3, Sudden Death 7 → 400/7 → 57
    assert reinforcement_cost(100, sudden_death=7, time_space=3).value == 57


@pytest.mark.parametrize(
    ("base", "x", "y", "cost"), [(100, 7, 7, 0), (100, 8, 4, 50), (60, 9, 1, 53), (45, 5, 2, 27)]
)
def test_consejos_reinforcement_cost_rounds_down(base, x, y, cost):
    assert reinforcement_cost(base, sudden_death=x, time_space=y).value == cost


@pytest.mark.parametrize("y", [0, 8, -1])
def test_consejos_reinforcement_time_space_must_be_on_the_track(y):
    with pytest.raises(RuleError):
        reinforcement_cost(100, sudden_death=7, time_space=y)


def test_consejos_troop_quality_seed_example():
    # digest §6 #2: 5 SS (Elite) + 6 Rifle (Line) squads → Line
    assert troop_quality({Quality.ELITE: 5, Quality.LINE: 6}).value is Quality.LINE


def test_consejos_troop_quality_tie_is_a_decision():
    result = troop_quality({Quality.ELITE: 4, Quality.GREEN: 4})
    assert result.value is None and set(result.decision.options) == {Quality.ELITE, Quality.GREEN}


@pytest.mark.parametrize(
    ("size", "leaders", "squads", "teams", "level"),
    [
        (FormationSize.COMPANY, 3, 9, 2, 10),  # digest §6 #43: 0.70 × 14 = 9.8 → 10
        (FormationSize.PLATOON, 2, 6, 2, 8),  # 0.75 × 10 = 7.5 → 8 (a half up)
        (FormationSize.PATROL, 1, 3, 0, 3),  # 0.80 × 4 = 3.2 → 3
        (FormationSize.COMPANY, 3, 12, 0, 11),  # 0.70 × 15 = 10.5 → 11
    ],
)
def test_consejos_surrender_level(size, leaders, squads, teams, level):
    assert surrender_level(size, leaders=leaders, squads=squads, teams=teams).value == level


@given(st.sampled_from(SIZES), st.integers(0, 60), st.integers(0, 10))
def test_consejos_surrender_level_monotone_in_units(size, units, more):
    low = surrender_level(size, leaders=0, squads=units, teams=0).value
    high = surrender_level(size, leaders=0, squads=units + more, teams=0).value
    assert low <= high <= units + more


@given(st.integers(0, 60))
def test_consejos_surrender_level_grows_as_formations_shrink(units):
    levels = [surrender_level(s, leaders=0, squads=units, teams=0).value for s in SIZES]
    assert levels == sorted(levels)


def test_consejos_initial_vp_point_totals_apart():
    # digest §6 #44: Point Totals 12.5 (Axis) vs 9.8 → the smaller side starts with 2 VP
    result = initial_vp(Fraction(1250, 100), Fraction(980, 100))
    assert result.vp_axis == -2
    assert result.initiative is AXIS
    assert result.postures == {AXIS: Posture.ATTACK, ALLIES: Posture.DEFEND}


def test_consejos_initial_vp_less_than_one_apart_is_recon():
    # digest §6 #45: 10.4 vs 9.9 → both Recon, Initiative to 9.9, VP on 0
    result = initial_vp(Fraction(104, 10), Fraction(99, 10))
    assert result.vp_axis == 0 and result.initiative is ALLIES
    assert set(result.postures.values()) == {Posture.RECON}


def test_consejos_initial_vp_equal_totals_ask_for_initiative():
    result = initial_vp(10, 10)
    assert result.initiative is None and result.decision.options == (AXIS, ALLIES)


totals = st.fractions(min_value=0, max_value=40, max_denominator=100)


@given(totals, totals)
def test_consejos_initial_vp_symmetry_and_sign(a, b):
    one, two = initial_vp(a, b), initial_vp(b, a)
    assert one.vp_axis == -two.vp_axis
    assert abs(one.vp_axis) == (int(abs(a - b)) if abs(a - b) >= 1 else 0)
    if a > b + 1:
        assert one.vp_axis < 0 and one.initiative is AXIS  # the smaller (Allied) side starts ahead


def test_consejos_point_total_with_reduced_reinforcements():
    data = GeneratorData.from_raw(
        {"unit_points": [{"unit": "Rifle", "points": 100}, {"unit": "LMG", "points": 15}]}
    )
    pieces = [DesignPiece("Rifle", 3), DesignPiece("LMG"), DesignPiece("Rifle", time_space=3)]
    # 300 + 15 + 57 = 372 → 3.72
    assert point_total(pieces, data, sudden_death=7).value == Fraction(372, 100)
    with pytest.raises(RuleError):
        point_total([DesignPiece("Tiger")], data, sudden_death=7)


@given(st.integers(0, 6), st.integers(0, 6))
def test_consejos_sudden_death_equals_sum_of_orders_limits(a, b):
    # 2 + leaders equals RS.14's Orders sum when each side's Orders = leaders + 1
    assert sudden_death_space(a, b).value == orders_limit(a).value + orders_limit(b).value


def test_consejos_orders_and_sudden_death_example():
    assert orders_limit(3).value == 4
    assert sudden_death_space(3, 2).value == 7


@pytest.mark.parametrize(
    ("nation", "size", "squads", "leaders", "ratio"),
    [
        (Nation.GERMANY, FormationSize.COMPANY, 9, 3, 3),
        (Nation.BRITAIN, FormationSize.PLATOON, 6, 2, 3),
        (Nation.USA, FormationSize.COMPANY, 12, 3, 4),
        (Nation.FRANCE, FormationSize.PATROL, 4, 1, 4),
        (Nation.RUSSIA, FormationSize.PLATOON, 10, 2, 5),
        (Nation.ITALY, FormationSize.PATROL, 6, 1, 6),
    ],
)
def test_consejos_formation_guide(nation, size, squads, leaders, ratio):
    guide = formation_guide(nation, size)
    assert (guide.squads, guide.leaders, guide.squads_per_leader) == (squads, leaders, ratio)


@pytest.mark.parametrize(("squads", "teams"), [(9, 2), (12, 3), (3, 0)])
def test_consejos_unarmed_teams_a_quarter_of_squads(squads, teams):
    assert max_unarmed_teams(squads).value == teams


@pytest.mark.parametrize(
    ("orientation", "defender", "attacker"), [(Orientation.WIDE, 8, 2), (Orientation.LONG, 12, 3)]
)
def test_consejos_setup_depths(orientation, defender, attacker):
    assert setup_depths(orientation).value == {Posture.DEFEND: defender, Posture.ATTACK: attacker}


@pytest.mark.parametrize(
    ("a", "b", "orientation", "touch"),
    [
        (5, 5, Orientation.WIDE, True),
        (4, 4, Orientation.WIDE, False),
        (6, 6, Orientation.LONG, False),
        (8, 7, Orientation.LONG, True),
    ],
)
def test_consejos_recon_depths_warning(a, b, orientation, touch):
    assert recon_depths_may_touch(a, b, orientation).value is touch

"""Minefields [21.0–21.3, 9.3.b]: digest case T76, crossing, breaching, markers, placement.

FICTIONAL TEST DATA: the Fire Table and stacking bands come from tests/rules/tcs/test_fire.py
(`CHARTS`, invented numbers except the few the seed's examples give). The constants under
test (AF 18, 8+ on two dice, the "9" column, +2 MP, 4 and 5 hexes) are printed in the seed.
"""

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import D66, TWO_D6, EnteredDice
from rules.errors import RuleError
from rules.explain import DecisionRequired, Explanation
from rules.tcs.fire_tables import MORALE_CHECK, NO_EFFECT, FireCharts
from rules.tcs.minefields import (
    BREACH_AF,
    FOOT_AF,
    PREGAME,
    STEP_KILL_P,
    BreachCandidate,
    BreacherAfter,
    Contact,
    MinefieldMarker,
    MineTarget,
    Movement,
    Placement,
    breach_attack,
    breach_outcome,
    check_breach,
    crossing,
    minefield_attack,
    place_pregame,
    place_sheet_minefields,
    vehicle_loss_odds,
)
from rules.tcs.prepared_defense import PreparedDefenseResult
from rules.tcs.units import UnitCategory
from tests.rules.tcs.test_fire import CHARTS, CHARTS_DATA

FICTIONAL_CHARTS = CHARTS  # FICTIONAL Fire Table and stacking bands (see test_fire.py)
FICTIONAL_FIRE_ONLY = FireCharts.from_data({"fire": CHARTS_DATA["fire"]})  # no stacking chart
MINES = MinefieldMarker("0712")
BREACHED = MinefieldMarker("0712", breached=True)
FOOT, VEHICLE = Movement.FOOT, Movement.VEHICLE


def dice(*values):
    return EnteredDice(values)


def enumerated_odds(column):
    """Independent enumeration of the 36 d66 readings of one FICTIONAL column."""
    out = {}
    for faces in D66.outcomes():
        cell = FICTIONAL_CHARTS.fire.cell(column, D66.value(faces))
        out[cell] = out.get(cell, 0) + Fraction(1, 36)
    return out


# --- T76 [21.0.b] ---------------------------------------------------------------------------


def test_T76_21_0_b_two_tanks_roll_two_dice_each_8_plus_kills_a_step():
    roller = dice(8, 7)
    result = minefield_attack(MINES, [MineTarget("tanks", 2, VEHICLE)], FICTIONAL_CHARTS, roller)
    assert result.attacked and result.foot is None
    assert result.vehicle_rolls == {"tanks": (8, 7)}
    assert result.vehicle_losses == {"tanks": 1}
    assert not result.morale_check
    assert [r.kind for r in result.explanation.rolls] == ["2d6", "2d6"]
    assert roller.remaining == 0


def test_T76_21_0_b_two_one_step_tanks_both_destroyed_on_12_and_8():
    result = minefield_attack(
        MINES,
        [MineTarget("t1", 1, VEHICLE), MineTarget("t2", 1, VEHICLE)],
        FICTIONAL_CHARTS,
        dice(12, 8),
    )
    assert result.vehicle_losses == {"t1": 1, "t2": 1}


def test_T76_21_0_b_foot_infantry_af_18_with_only_the_stacking_shift():
    result = minefield_attack(MINES, [MineTarget("inf", 5, FOOT)], FICTIONAL_CHARTS, dice(65))
    fire = result.foot
    assert FOOT_AF == 18
    assert FICTIONAL_CHARTS.fire.columns[fire.base_column].label == "17-20"
    assert [(s.name, s.value) for s in fire.shifts] == [("stacking", 0)]
    assert fire.column == fire.base_column
    assert fire.result == 3 and fire.steps == 3 and fire.split.first_step == "inf"
    assert result.morale_check
    assert "9.3.b" in [s.rule for s in result.explanation]
    assert result.vehicle_losses == {}


def test_21_0_b_stacking_of_the_foot_units_shifts_the_column():
    # 4 + 4 = 8 steps: FICTIONAL band 7-8 → +1, column 21-25
    result = minefield_attack(
        MINES,
        [MineTarget("a", 4), MineTarget("b", 4)],
        FICTIONAL_CHARTS,
        dice(11),
    )
    fire = result.foot
    assert [(s.name, s.value) for s in fire.shifts] == [("stacking", 1)]
    assert FICTIONAL_CHARTS.fire.columns[fire.column].label == "21-25"
    assert fire.result == MORALE_CHECK and result.morale_check and fire.steps == 0


def test_21_0_b_mixed_stack_foot_d66_first_then_vehicle_steps():
    roller = dice(66, 2, 11)
    result = minefield_attack(
        MINES,
        [MineTarget("inf", 5), MineTarget("tank", 2, VEHICLE)],
        FICTIONAL_CHARTS,
        roller,
    )
    assert result.foot.result == 4 and result.foot.steps == 4
    assert result.vehicle_rolls == {"tank": (2, 11)} and result.vehicle_losses == {"tank": 1}
    assert [r.kind for r in result.explanation.rolls] == ["d66", "2d6", "2d6"]


def test_21_0_b_stacking_steps_option_overrides_the_count():
    result = minefield_attack(
        MINES, [MineTarget("inf", 5)], FICTIONAL_CHARTS, dice(11), stacking_steps=9
    )
    assert [(s.name, s.value) for s in result.foot.shifts] == [("stacking", 2)]


# --- odds ----------------------------------------------------------------------------------


def test_21_0_b_vehicle_step_odds_are_15_in_36():
    assert Fraction(15, 36) == STEP_KILL_P
    assert Fraction(sum(1 for f in TWO_D6.outcomes() if sum(f) >= 8), 36) == STEP_KILL_P
    two = vehicle_loss_odds(2)
    assert two == {
        0: Fraction(21, 36) ** 2,
        1: 2 * Fraction(15, 36) * Fraction(21, 36),
        2: Fraction(15, 36) ** 2,
    }
    assert sum(two.values()) == 1
    # enumerate both dice pairs of a 2-step unit: 36 × 36 throws
    throws = [(a, b) for a in TWO_D6.outcomes() for b in TWO_D6.outcomes()]
    both = sum(1 for a, b in throws if sum(a) >= 8 and sum(b) >= 8)
    assert two[2] == Fraction(both, len(throws))


def test_21_0_b_foot_odds_without_dice_by_enumeration():
    roller = dice()
    result = minefield_attack(
        MINES,
        [MineTarget("inf", 5), MineTarget("tank", 1, VEHICLE)],
        FICTIONAL_CHARTS,
        None,
    )
    fire = result.foot
    assert fire.result is None and fire.roll is None and not result.morale_check
    assert fire.odds == enumerated_odds(fire.column)
    # FICTIONAL column 17-20 by hand: 18 readings MC, 12 → 1, 4 → 2, 65 → 3, 66 → 4
    assert fire.odds == {
        MORALE_CHECK: Fraction(1, 2),
        1: Fraction(1, 3),
        2: Fraction(1, 9),
        3: Fraction(1, 36),
        4: Fraction(1, 36),
    }
    assert result.vehicle_odds == {"tank": {0: Fraction(21, 36), 1: Fraction(15, 36)}}
    assert result.vehicle_rolls == {} and roller.remaining == 0


# --- only on entering; breaches [21.0.c, 21.3.d, 17.4.h, 22.0] ------------------------------


@pytest.mark.parametrize("contact", [Contact.LEAVE, Contact.STAY])
def test_21_0_c_no_attack_on_leaving_or_staying(contact):
    roller = dice(66, 12)
    result = minefield_attack(
        MINES,
        [MineTarget("inf", 5), MineTarget("tank", 1, VEHICLE)],
        FICTIONAL_CHARTS,
        roller,
        contact=contact,
    )
    assert not result.attacked and result.foot is None and result.vehicle_losses == {}
    assert roller.remaining == 2
    assert result.explanation.steps[-1].rule == "21.0.c"


def test_21_3_d_breach_entered_from_any_side_without_attack_still_2_mp():
    roller = dice(66)
    result = minefield_attack(BREACHED, [MineTarget("inf", 5)], FICTIONAL_CHARTS, roller)
    assert not result.attacked and roller.remaining == 1
    assert crossing(BREACHED).extra_mp == 2 and not crossing(BREACHED).attacked
    assert crossing(MINES).extra_mp == 2 and crossing(MINES).attacked


def test_17_4_h_retreat_through_a_breach_is_attacked_normally():
    result = minefield_attack(
        BREACHED, [MineTarget("inf", 5)], FICTIONAL_CHARTS, dice(65), retreat=True
    )
    assert result.attacked and result.foot.result == 3
    assert crossing(BREACHED, retreat=True).attacked


def test_22_0_step_5_assaulters_cannot_use_the_breach():
    result = minefield_attack(
        BREACHED, [MineTarget("inf", 5)], FICTIONAL_CHARTS, dice(11), assault=True
    )
    assert result.attacked and result.foot.result == MORALE_CHECK
    assert "22.0" in [s.rule for s in result.explanation]


# --- entered results and missing charts ---------------------------------------------------


def test_21_0_b_without_a_fire_table_the_read_result_is_asked_before_any_roll():
    roller = dice(12)
    with pytest.raises(DecisionRequired) as need:
        minefield_attack(
            MINES, [MineTarget("inf", 5), MineTarget("tank", 1, VEHICLE)], None, roller
        )
    assert need.value.decision.key == "minefield_result"
    assert need.value.decision.options[:3] == (NO_EFFECT, MORALE_CHECK, 1)
    assert roller.remaining == 1


def test_21_0_b_entered_result_applies_losses_and_morale_check():
    result = minefield_attack(MINES, [MineTarget("inf", 5)], None, dice(), result=2)
    assert result.foot.steps == 2 and result.morale_check
    calm = minefield_attack(MINES, [MineTarget("inf", 5)], None, dice(), result=NO_EFFECT)
    assert calm.foot.steps == 0 and not calm.morale_check


def test_11_3_e_missing_stacking_chart_asks_then_takes_the_entered_shift():
    with pytest.raises(DecisionRequired) as need:
        minefield_attack(MINES, [MineTarget("inf", 5)], FICTIONAL_FIRE_ONLY, dice(11))
    assert need.value.decision.key == "shift:stacking"
    result = minefield_attack(
        MINES, [MineTarget("inf", 5)], FICTIONAL_FIRE_ONLY, dice(11), entered={"stacking": -1}
    )
    assert FICTIONAL_CHARTS.fire.columns[result.foot.column].label == "14-16"


def test_21_0_b_refusals():
    with pytest.raises(RuleError) as err:
        minefield_attack(MINES, [], FICTIONAL_CHARTS, dice())
    assert err.value.rule == "21.0.b"
    with pytest.raises(RuleError):
        minefield_attack(MINES, [MineTarget("inf", 0)], FICTIONAL_CHARTS, dice())


# --- breaching [21.3] ---------------------------------------------------------------------


def candidate(**kw):
    base = {"id": "inf", "category": UnitCategory.INFANTRY, "start_distance": 1}
    return BreachCandidate(**{**base, **kw})


def test_21_3_eligible_breacher_moves_in_as_an_overwatch_event():
    exp = check_breach(
        MINES, [candidate(), candidate(id="b", start_distance=0)], enemy_in_hex=False
    )
    assert isinstance(exp, Explanation)
    assert exp.steps[0].rule == "21.3.b" and exp.steps[0].value == ["inf", "b"]


@pytest.mark.parametrize(
    ("kw", "rule", "words"),
    [
        ({"category": UnitCategory.HEAVY_WEAPON}, "3.1.a", "only infantry"),
        ({"category": UnitCategory.VEHICLE}, "3.1.a", "only infantry"),
        ({"mounted": True}, "21.3.a", "dismounted"),
        ({"suppressed": True}, "21.3.a", "Suppressed"),
        ({"paralyzed": True}, "21.3.a", "Paralyzed"),
        ({"start_distance": 2}, "21.3.a", "adjacent"),
        ({"moved": True}, "21.3", "moved"),
        ({"changed_mode": True}, "21.3", "changed mode"),
        ({"made_sfa": True}, "21.3", "SFA"),
        ({"made_at_roll": True}, "21.3", "AT roll"),
    ],
)
def test_21_3_a_every_unit_refusal(kw, rule, words):
    with pytest.raises(RuleError) as err:
        check_breach(MINES, [candidate(**kw)], enemy_in_hex=False)
    assert err.value.rule == "21.3"
    assert f"inf [{rule}]" in str(err.value) and words in str(err.value)


@pytest.mark.parametrize(
    ("marker", "units", "enemy", "rule"),
    [
        (BREACHED, [candidate()], False, "21.3.c"),
        (MINES, [candidate()], True, "21.3"),
        (MINES, [], False, "21.3"),
    ],
)
def test_21_3_hex_refusals(marker, units, enemy, rule):
    with pytest.raises(RuleError) as err:
        check_breach(marker, units, enemy_in_hex=enemy)
    assert err.value.rule == rule


def test_21_3_c_breach_attack_on_the_9_column_with_stacking_only():
    result = breach_attack(MINES, [MineTarget("inf", 5)], FICTIONAL_CHARTS, dice(66))
    fire = result.foot
    assert BREACH_AF == 9
    assert FICTIONAL_CHARTS.fire.columns[fire.base_column].label == "9-10"
    assert [(s.name, s.value) for s in fire.shifts] == [("stacking", 0)]
    assert fire.result == 3 and result.morale_check
    # FICTIONAL column 9-10 by hand: 18 → "-", 6 → MC, 8 → 1, 3 → 2, 66 → 3
    assert (
        fire.odds
        == enumerated_odds(fire.column)
        == {
            NO_EFFECT: Fraction(1, 2),
            MORALE_CHECK: Fraction(1, 6),
            1: Fraction(2, 9),
            2: Fraction(1, 12),
            3: Fraction(1, 36),
        }
    )


def test_21_3_c_breach_success_flips_the_marker():
    attack = breach_attack(MINES, [MineTarget("inf", 5)], FICTIONAL_CHARTS, dice(11))
    assert attack.foot.result == NO_EFFECT and not attack.morale_check
    outcome = breach_outcome(MINES, [BreacherAfter("inf")])
    assert outcome.made and outcome.marker == MinefieldMarker("0712", breached=True)
    assert not MINES.breached


@pytest.mark.parametrize(
    "after",
    [
        BreacherAfter("inf", suppressed=True),
        BreacherAfter("inf", paralyzed=True),
        BreacherAfter("inf", in_hex=False),
    ],
)
def test_21_3_c_breach_fails_when_suppressed_paralyzed_or_gone(after):
    attack = breach_attack(MINES, [MineTarget("inf", 5)], FICTIONAL_CHARTS, dice(41))
    assert attack.foot.result == MORALE_CHECK and attack.morale_check
    outcome = breach_outcome(MINES, [after])
    assert not outcome.made and outcome.marker is MINES


def test_21_3_c_two_breachers_one_fit_is_enough_unless_every_unit():
    units = [BreacherAfter("a"), BreacherAfter("b", suppressed=True)]
    assert breach_outcome(MINES, units).made
    assert not breach_outcome(MINES, units, every_unit=True).made


def test_21_3_c_no_breacher_left_no_attack():
    roller = dice(66)
    result = breach_attack(MINES, [], FICTIONAL_CHARTS, roller)
    assert not result.attacked and roller.remaining == 1
    with pytest.raises(RuleError):
        breach_attack(BREACHED, [MineTarget("inf", 5)], FICTIONAL_CHARTS, roller)


# --- marker and placement [21.1] ----------------------------------------------------------


def test_21_0_marker_round_trips_through_json():
    marker = MinefieldMarker("1004", True, "PD-3")
    data = json.loads(json.dumps(marker.to_dict()))
    assert data == {"hex": "1004", "breached": True, "source": "PD-3"}
    assert MinefieldMarker.from_dict(data) == marker
    assert MinefieldMarker.from_dict({"hex": "0101", "source": PREGAME}) == MinefieldMarker("0101")


@pytest.mark.parametrize(
    "data",
    [
        {"hex": "", "source": PREGAME},
        {"hex": "0101", "breached": "yes", "source": PREGAME},
        {"hex": "0101", "source": ""},
    ],
)
def test_21_0_marker_refuses_bad_data(data):
    with pytest.raises(RuleError):
        MinefieldMarker.from_dict(data)


def test_T27_21_1_prepared_defense_lays_its_count_within_the_limits():
    defense = PreparedDefenseResult((), (), 2)
    ok = [Placement("0506", (4, 3), 5), Placement("0507", (1, 2), 9)]
    markers, exp = place_sheet_minefields(defense, "PD-1", ok)
    assert markers == (
        MinefieldMarker("0506", False, "PD-1"),
        MinefieldMarker("0507", False, "PD-1"),
    )
    assert exp.steps[-1].value == ["0506", "0507"]
    with pytest.raises(RuleError, match="2 minefields"):
        place_sheet_minefields(defense, "PD-1", [*ok, Placement("0508", (1, 1), 9)])
    with pytest.raises(RuleError, match="more than 4 hexes"):
        place_sheet_minefields(defense, "PD-1", [Placement("0508", (5, 1), 9)])
    with pytest.raises(RuleError, match="closer than 5"):
        place_sheet_minefields(defense, "PD-1", [Placement("0508", (1, 1), 4)])
    with pytest.raises(RuleError, match="one minefield per hex"):
        place_sheet_minefields(defense, "PD-1", [ok[0], ok[0]])


def test_21_1_pregame_not_where_the_enemy_may_deploy():
    assert place_pregame("0303", enemy_may_deploy=False) == MinefieldMarker("0303")
    with pytest.raises(RuleError):
        place_pregame("0303", enemy_may_deploy=True)
    assert place_pregame("0303", enemy_may_deploy=True, placing_first=False).source == PREGAME


# --- properties ---------------------------------------------------------------------------


@given(
    roll=st.sampled_from([10 * r + w for r in range(1, 7) for w in range(1, 7)]),
    steps=st.integers(1, 12),
    tank_rolls=st.lists(st.integers(2, 12), min_size=1, max_size=4),
)
def test_21_0_b_property_foot_cell_and_vehicle_kills(roll, steps, tank_rolls):
    result = minefield_attack(
        MINES,
        [MineTarget("inf", steps), MineTarget("tank", len(tank_rolls), VEHICLE)],
        FICTIONAL_CHARTS,
        dice(roll, *tank_rolls),
    )
    fire = result.foot
    table = FICTIONAL_CHARTS.fire
    assert fire.base_column == table.column_for(18)
    assert fire.column == min(fire.base_column + fire.shifts[0].value, len(table.columns) - 1)
    assert fire.result == table.cell(fire.column, roll)
    assert fire.steps == (min(fire.result, steps) if isinstance(fire.result, int) else 0)
    assert result.morale_check == (fire.result != NO_EFFECT)
    assert result.vehicle_losses["tank"] == sum(r >= 8 for r in tank_rolls)

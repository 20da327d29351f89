"""Artillery missions [18, 24.6]: digest case T73, adjustment, scatter, point targets.

FICTIONAL TEST DATA: the seed prints neither the Artillery Adjustment Table nor the
Artillery Point Fire Table; ADJ_FICTIONAL and every kill number below are invented only to
exercise the procedures. The scatter distances (1–3 → 1, 4–5 → 2, 6 → opponent places) and
the on-map factors are the seed's.
"""

from fractions import Fraction

import pytest

from rules.dice import D66, EnteredDice
from rules.errors import RuleError, TableDataError
from rules.explain import DecisionRequired, Explanation
from rules.tcs.ammo import (
    AmmoRecord,
    AmmoType,
    Battery,
    Stock,
    check_on_map_mission,
    continuous_stays,
    on_map_default_factor,
)
from rules.tcs.artillery import (
    AdjustmentTable,
    BarrageHit,
    MissionKind,
    Shoot,
    adjust,
    barrage_attack,
    check_observer,
    fire_mission,
    ig_point_attack,
    mission_factors,
    point_target_attack,
)
from rules.tcs.fire import TargetUnit
from rules.tcs.fire_tables import Terrain
from tests.rules.tcs.test_fire import CHARTS

ADJ_FICTIONAL = {
    "columns": ["≤1", "2-3", "4+"],
    "rows": [
        {"rolls": "11-26", "results": ["No Shoot", "No Shoot", "Scatter"]},
        {"rolls": "31-46", "results": ["Scatter", "Bad Shoot", "Bad Shoot"]},
        {"rolls": "51-66", "results": ["Bad Shoot", "Good Shoot", "Good Shoot"]},
    ],
}
TABLE = AdjustmentTable.from_data(ADJ_FICTIONAL)


def dice(*values):
    return EnteredDice(values)


def test_T73_18_6_mission_factors():
    he = mission_factors(MissionKind.HE, 10)
    assert (he.zone_af, he.adjacent_af, he.volleys, he.zone_hexes) == (20, 10, 1, 1)
    rapid = mission_factors(MissionKind.HE, 10, rapid=True, calibre_mm=105)
    assert (rapid.zone_af, rapid.volleys) == (40, 3)
    cont = mission_factors(MissionKind.CONTINUOUS, 10)
    assert (cont.zone_af, cont.volleys, cont.blocks_los) == (10, 1, True)
    big = mission_factors(MissionKind.CONTINUOUS, 10, battalion=True, rapid=True, calibre_mm=122)
    assert (big.zone_af, big.volleys, big.zone_hexes, big.ammo) == (20, 9, 7, AmmoType.HE)


def test_18_5_b_battalion_fire_costs_three_or_one_per_battery():
    assert mission_factors(MissionKind.HE, 8, battalion=True).volleys == 3
    assert mission_factors(MissionKind.HE, 8, battalion=True, batteries=4).volleys == 4


def test_18_5_smoke_illum_and_rockets():
    smoke = mission_factors(MissionKind.SMOKE)
    assert (smoke.ammo, smoke.volleys, smoke.zone_af) == (AmmoType.SMOKE, 1, None)
    assert mission_factors(MissionKind.ILLUM).ammo is AmmoType.ILLUM
    rocket = mission_factors(MissionKind.ROCKET, 40)
    assert (rocket.zone_af, rocket.adjacent_af) == (40, None)


@pytest.mark.parametrize(
    "kind, kwargs, rule",
    [
        (MissionKind.HE, {"rapid": True, "calibre_mm": 155}, "18.6.a"),
        (MissionKind.HE, {"rapid": True}, "18.6.a"),
        (MissionKind.SMOKE, {"battalion": True}, "18.5.c"),
        (MissionKind.ROCKET, {"rapid": True, "calibre_mm": 100}, "18.6.c"),
    ],
)
def test_mission_refusals(kind, kwargs, rule):
    with pytest.raises(RuleError) as err:
        mission_factors(kind, 10, **kwargs)
    assert err.value.rule == rule


def test_observer_refusals():
    ok = {"fire_mode": True, "suppressed": False, "paralyzed": False, "los": True}
    check_observer(**ok, within_visibility=True)
    for key, value in [("fire_mode", False), ("suppressed", True), ("los", False)]:
        with pytest.raises(RuleError) as err:
            check_observer(**{**ok, key: value}, within_visibility=True)
        assert err.value.rule == "18.4.b"


def test_adjustment_table_round_trip_and_csv():
    assert AdjustmentTable.from_data(TABLE.to_data()) == TABLE
    text = "rolls,≤1,2-3,4+\n11-26,ns,ns,scatter\n31-46,scatter,bad,bad\n51-66,bad,good,good\n"
    assert AdjustmentTable.from_csv(text) == TABLE


def test_adjustment_table_names_every_bad_cell():
    bad = {
        "columns": ["2-3", "4+"],
        "rows": [
            {"rolls": "11-36", "results": ["No Shoot", "maybe"]},
            {"rolls": "41-65", "results": ["Scatter", "Good Shoot"]},
        ],
    }
    with pytest.raises(TableDataError) as err:
        AdjustmentTable.from_data(bad)
    text = str(err.value)
    assert "open below" in text and "maybe" in text and "66" in text


def test_adjustment_odds_enumerate_the_36_readings():
    for value in (0, 2, 5):
        chances = TABLE.odds(value)
        counts = {s: 0 for s in Shoot}
        for faces in D66.outcomes():
            counts[TABLE.result(value, D66.value(faces))] += 1
        assert chances == {s: Fraction(n, 36) for s, n in counts.items()}
        assert sum(chances.values()) == 1
    assert TABLE.odds(2)[Shoot.GOOD_SHOOT] == Fraction(1, 3)
    assert TABLE.odds(2)[Shoot.NO_SHOOT] == Fraction(1, 3)


def test_adjust_reads_the_table_with_column_modifiers():
    result = adjust(MissionKind.HE, dice(55), table=TABLE, value=1, modifiers=[("spotted", 1)])
    assert result.shoot is Shoot.GOOD_SHOOT and result.fires_as is Shoot.GOOD_SHOOT
    assert result.odds[Shoot.GOOD_SHOOT] == Fraction(1, 3)


def test_adjust_without_dice_gives_only_odds():
    result = adjust(MissionKind.HE, None, table=TABLE, value=5)
    assert result.shoot is None and result.odds[Shoot.SCATTER] == Fraction(1, 3)


def test_T74_18_7_b_no_shoot_refunds_the_volley():
    record = AmmoRecord(
        "Allies", [Stock(AmmoType.HE, "105", 4, 4)], [Battery("A/1", "105", good_af=10)]
    )
    change = fire_mission(record, ["A/1"], mission_factors(MissionKind.HE, 10))
    assert record.stocks[0].remaining == 3
    result = adjust(MissionKind.HE, dice(11), table=TABLE, value=2)
    assert result.shoot is Shoot.NO_SHOOT and result.refund
    record.refund(change.spent)
    assert record.stocks[0].remaining == 4


def test_18_3_no_observer_los_is_no_shoot():
    result = adjust(MissionKind.HE, None, table=TABLE, value=5, observer_los=False)
    assert result.shoot is Shoot.NO_SHOOT and result.refund


@pytest.mark.parametrize(
    "roll, distance, places", [(1, 1, False), (3, 1, False), (4, 2, False), (5, 2, False)]
)
def test_18_7_c_scatter_distance_then_direction_fires_as_bad_shoot(roll, distance, places):
    result = adjust(MissionKind.HE, dice(33, roll, 4), table=TABLE, value=0)
    assert result.shoot is Shoot.SCATTER and result.fires_as is Shoot.BAD_SHOOT
    assert (result.scatter.distance, result.scatter.direction) == (distance, 4)


def test_18_7_c_scatter_six_lets_the_opponent_place_it():
    result = adjust(MissionKind.HE, dice(6), entered="scatter")
    assert result.scatter.opponent_places and result.fires_as is Shoot.BAD_SHOOT


def test_18_5_c_smoke_succeeds_unless_no_shoot_or_water():
    assert not adjust(MissionKind.SMOKE, None, entered="bad shoot").refund
    water = adjust(MissionKind.SMOKE, dice(2, 3), entered="scatter", all_water=True)
    assert water.shoot is Shoot.NO_SHOOT and water.refund


def test_18_6_c_rockets_skip_adjustment():
    result = adjust(MissionKind.ROCKET, dice(34))
    assert result.fires_as is Shoot.GOOD_SHOOT
    assert (result.scatter.direction, result.scatter.distance) == (3, 4)


def test_adjust_asks_for_the_result_without_a_table():
    with pytest.raises(DecisionRequired) as need:
        adjust(MissionKind.HE, dice(11))
    assert need.value.decision.rule == "18.7.a"
    with pytest.raises(RuleError):
        adjust(MissionKind.ILLUM, None)
    with pytest.raises(RuleError):
        adjust(MissionKind.HE, None, entered="maybe")


def test_18_3_barrage_attack_uses_the_fire_table():
    he = mission_factors(MissionKind.HE, 10)
    targets = [TargetUnit("inf", 4), TargetUnit("inf2", 2)]
    result = barrage_attack([BarrageHit(he, True)], targets, Terrain.OPEN, CHARTS, dice(65))
    assert result.steps == 3 and result.morale_check
    with pytest.raises(RuleError):
        barrage_attack(
            [BarrageHit(mission_factors(MissionKind.ROCKET, 40), False)],
            targets,
            Terrain.OPEN,
            CHARTS,
            None,
        )


def test_18_9_b_point_targets_two_dice_per_step():
    result = point_target_attack(2, dice((4, 4), (1, 2)), kill_number=8)  # FICTIONAL number
    assert result.destroyed == 1 and result.chance == Fraction(15, 36)
    rapid = point_target_attack(1, None, kill_number=8, modifiers=[("rapid fire", 1)])
    assert rapid.chance == Fraction(21, 36)
    d66 = point_target_attack(1, dice(46), kill_number=45, summed=False)
    assert d66.destroyed == 1
    with pytest.raises(DecisionRequired):
        point_target_attack(1, dice(7), kill_number=None)
    with pytest.raises(RuleError):
        point_target_attack(0, None, kill_number=8)


def test_24_5_b_ig_point_fire_range_and_modifier():
    far = ig_point_attack(105, 10, dice(8), kill_number=8)
    assert far.destroyed == 0 and far.chance == Fraction(10, 36)
    assert ig_point_attack(105, 7, dice(8), kill_number=8).destroyed == 1
    with pytest.raises(RuleError):
        ig_point_attack(105, 15, None, kill_number=8)
    with pytest.raises(RuleError):
        ig_point_attack(75, 3, None, kill_number=8)


def test_24_6_on_map_artillery():
    assert on_map_default_factor(75) == (4, 14)
    assert on_map_default_factor(105) == (6, 24)
    assert on_map_default_factor(130) == (6, 24)
    assert on_map_default_factor(155) == (8, 40)
    ready = {"fire_mode": True, "fired": False, "suppressed": False, "paralyzed": False}
    check_on_map_mission(steps=2, **ready)
    with pytest.raises(RuleError):
        check_on_map_mission(steps=1, **ready)
    with pytest.raises(RuleError):
        check_on_map_mission(steps=3, **{**ready, "fired": True})
    assert continuous_stays(2, Explanation()) and not continuous_stays(1, Explanation())


def test_18_5_b_battalion_mission_needs_its_batteries():
    record = AmmoRecord("Axis", [Stock(AmmoType.HE, "105", 9, 9)], [Battery("I/1", "105")])
    with pytest.raises(RuleError):
        fire_mission(record, ["I/1"], mission_factors(MissionKind.HE, 8, battalion=True))

"""The Targeting Roll [O20.2.3], Artillery Weapons [11.5], Artillery Request numbers [O18.2]."""

import itertools
from fractions import Fraction

import pytest

from rules.cc.battle.artillery import (
    ArtilleryResult,
    Shot,
    accuracy,
    artillery_fire,
    artillery_odds,
    drift,
    hit_odds,
    impact_roll,
    targeting_roll,
)
from rules.cc.battle.fire import Attack, Piece, Target, TargetUnit
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.terrain import HINDRANCE, Fortification, HexCover, Hexside, Terrain, smoke
from rules.cc.battle.values import Outcome, Weapon, WeaponKind
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RuleError
from rules.serial import from_data, to_data
from tests.rules.cc.battle.test_values import squad

FACES = list(itertools.product(range(1, 7), repeat=2))


def hits(faces, distance, hindrance=0):
    return targeting_roll(distance=distance, dice=EnteredDice([faces]), hindrance=hindrance).hit


def test_WE16_one_by_six_O20_2_3():
    assert not hits((1, 6), 6) and hits((1, 6), 5)


def test_WE17_thirty_six_always_hits_one_never_O20_2_3():
    assert hits((6, 6), 35) and not hits((1, 1), 1)


def test_WE18_hindrance_raises_the_product_needed_10_3_1():
    assert min(w * c for w, c in FACES if hits((w, c), 5, HINDRANCE["brush"])) == 9
    assert min(w * c for w, c in FACES if hits((w, c), 5)) == 6


def test_WE26_smoke_hindrance_makes_a_miss_O20_2_3():
    assert not hits((6, 1), 3, smoke(3))
    assert hits((6, 1), 3, smoke(2)) and hits((6, 1), 3)


def test_jammed_has_no_effect_on_targeting_1_9_1_2():
    t = targeting_roll(distance=2, dice=EnteredDice([(3, 3)]), trigger=Trigger.JAMMED)
    assert t.hit and any(s.rule == "1.9.1.2" for s in t.explanation)


def test_targeting_needs_both_dice_O20_2_3():
    with pytest.raises(RuleError):
        targeting_roll(distance=2, dice=EnteredDice([9]))


@pytest.mark.parametrize(("distance", "hindrance"), [(1, 0), (5, 3), (3, 3), (12, 0), (20, 4)])
def test_hit_odds_match_brute_force_O20_2_3(distance, hindrance):
    count = sum(hits(f, distance, hindrance) for f in FACES)
    assert hit_odds(distance=distance, hindrance=hindrance) == Fraction(count, 36)


@pytest.mark.parametrize(
    ("faces", "distance", "shot"),
    [
        ((5, 2), 12, Shot.SHORT),
        ((2, 5), 12, Shot.LONG),
        ((3, 3), 12, Shot.MISS),
        ((1, 2), 1, Shot.LONG),
        ((2, 1), 1, Shot.MISS),  # short of an adjacent target: no effect
    ],
)
def test_short_or_long_misses_V7(faces, distance, shot):
    kw = {"distance": distance, "hindrance": 3 if distance == 1 else 0}
    t = targeting_roll(dice=EnteredDice([faces]), v7_short_long=True, weapon_range=14, **kw)
    assert t.shot is shot
    assert targeting_roll(dice=EnteredDice([faces]), **kw).shot is Shot.MISS


def test_v7_range_read_as_distance_V7():
    t = targeting_roll(
        distance=1,
        hindrance=3,
        dice=EnteredDice([(1, 2)]),
        v7_short_long=True,
        weapon_range=14,
        v7_by_distance=True,
    )
    assert t.shot is Shot.MISS


def mortar(fp=6, distance=3, range_=12, **kw):
    weapon = Weapon("Mortar", WeaponKind.MORTAR, fp, range_, 2, artillery=True)
    return Piece(squad("Crew"), distance, weapon, leader_commands=(2,), **kw)


def woods(*units, **kw):
    return Target(tuple(TargetUnit(u) for u in units), HexCover(Terrain.WOODS, **kw))


def test_WE48_airburst_against_woods_T99():
    out = artillery_fire(
        attack=Attack((mortar(),), woods(squad("US"))), dice=EnteredDice([(6, 6), (3, 4), (6, 6)])
    )
    assert out.attack.fp == 6  # no Leader's Command through a white band
    assert out.attack.total == 15


def test_artillery_ignores_hindrance_after_the_hit_10_3_1():
    out = artillery_fire(
        attack=Attack((mortar(hindrances=(smoke(2),)),), Target((TargetUnit(squad("US")),))),
        dice=EnteredDice([(6, 6), (3, 4), (6, 6)]),
    )
    assert out.targeting.modified == 34
    assert out.attack.fp == 6 and out.attack.total == 13


def test_a_miss_makes_no_attack_WE26():
    out = artillery_fire(
        attack=Attack((mortar(hindrances=(smoke(3),)),), woods(squad("US"))),
        dice=EnteredDice([(6, 1)]),
    )
    assert out.attack is None and out.defense is None and not out.targeting.hit


def test_smoke_declared_places_smoke_on_a_hit_O20_2_1():
    out = artillery_fire(
        attack=Attack((mortar(),), Target(())), dice=EnteredDice([(4, 4)]), smoke=True
    )
    assert out.smoke_placed and out.attack is None


def test_mortar_minimum_range_O20_2_2():
    with pytest.raises(RuleError) as err:
        artillery_fire(
            attack=Attack((mortar(distance=1),), woods(squad("US"))), dice=EnteredDice([])
        )
    assert err.value.rule == "O20.2.2"
    with pytest.raises(RuleError) as err:
        artillery_fire(
            attack=Attack((Piece(squad(), 2),), woods(squad("US"))), dice=EnteredDice([])
        )
    assert err.value.rule == "O20.2"


def test_fortification_plus_one_and_no_wall_vs_artillery_F102_T97():
    ground = HexCover(
        Terrain.OPEN_GROUND, fortification=Fortification.FOXHOLES, hexside_crossed=Hexside.WALL
    )
    tgt = Target((TargetUnit(squad("US", morale=7)),), ground)
    out = artillery_fire(
        attack=Attack((mortar(),), tgt), dice=EnteredDice([(6, 6), (3, 4), (1, 1)])
    )
    assert out.defense.units[0].morale == 7 + 4


def test_drift_on_a_hit_and_a_miss_O18_2_2():
    assert drift(hit=True, dice=EnteredDice([(2, 5)])).moves == ((2, 1), (5, 1))
    assert drift(hit=False, dice=EnteredDice([(4, 3)])).moves == ((4, 3),)
    with pytest.raises(RuleError):
        drift(hit=False, dice=EnteredDice([7]))


def test_accuracy_then_drift_O18_2_2():
    out = accuracy(distance=6, hindrance=2, dice=EnteredDice([(2, 4), (1, 6)]))
    assert not out.targeting.hit and out.drift.moves == ((1, 6),)
    assert "direction 1 (toward the top edge of the map)" in str(out.explanation)


def test_impact_roll_airburst_and_jammed_O18_2_3_2():
    out = impact_roll(
        radio_fp=10,
        target=woods(squad("US", morale=7)),
        dice=EnteredDice([(2, 3), (1, 1)]),
        trigger=Trigger.JAMMED,
    )
    assert out.total == 10 + 5 + 2
    assert out.defense.units[0].outcome is Outcome.BROKEN
    assert any("not a Weapon" in str(s.text) for s in out.explanation)


def test_fortification_vulnerability_destroys_before_defense_O18_2_3_3():
    tgt = Target((TargetUnit(squad("US", morale=7)),), HexCover(fortification=Fortification.TRENCH))
    out = impact_roll(radio_fp=8, target=tgt, dice=EnteredDice([(3, 4), (6, 6)]), vulnerability=7)
    assert out.fortification_destroyed and out.defense.units[0].morale == 7
    kept = impact_roll(radio_fp=8, target=tgt, dice=EnteredDice([(3, 3), (6, 6)]), vulnerability=7)
    assert not kept.fortification_destroyed and kept.defense.units[0].morale == 7 + 5
    empty = impact_roll(
        radio_fp=8, target=Target((), tgt.ground), dice=EnteredDice([(3, 4)]), vulnerability=7
    )
    assert empty.fortification_destroyed and empty.defense.units == ()


def test_impact_needs_a_unit_or_fortification_and_radio_fp_12_O18_2_3_2():
    with pytest.raises(RuleError) as err:
        impact_roll(radio_fp=9, target=Target(()), dice=EnteredDice([(1, 1)]))
    assert err.value.rule == "O18.2.3.2"
    with pytest.raises(RuleError) as err:
        impact_roll(radio_fp=14, target=woods(squad("US")), dice=EnteredDice([(1, 1)]))
    assert err.value.rule == "12"


def test_water_dampening_V6():
    marsh = Target((TargetUnit(squad("US")),), HexCover(Terrain.MARSH))
    out = impact_roll(radio_fp=8, target=marsh, dice=EnteredDice([(2, 2), (6, 6)]), v6_water=True)
    assert out.total == 8 + 4 - 2


@pytest.mark.parametrize("dice", [SeededDice(seed=3), ServerDice()])
def test_targeting_with_site_dice_O20_2_3(dice):
    t = targeting_roll(distance=7, dice=dice, hindrance=1)
    w, c = t.roll.record.faces
    assert t.product == w * c and t.hit == (w * c - 1 > 7)


def test_artillery_result_round_trip_serial():
    out = artillery_fire(
        attack=Attack((mortar(),), woods(squad("US"))), dice=EnteredDice([(6, 6), (3, 4), (6, 6)])
    )
    assert from_data(ArtilleryResult, to_data(out)) == out


def test_artillery_odds_match_brute_force_O20_2_3_T99():
    tally = dict.fromkeys(Outcome, 0)
    for t in FACES:  # distance 20: only 6 of 36 products hit
        for a, d in itertools.product(FACES, FACES) if hits(t, 20) else [((1, 1), (1, 1))]:
            weight = 1 if hits(t, 20) else 1296
            out = artillery_fire(
                attack=Attack((mortar(distance=20, range_=24),), woods(squad("US", morale=8))),
                dice=EnteredDice([t, a, d]),
            )
            result = out.defense.units[0].outcome if out.defense else Outcome.NO_EFFECT
            tally[result] += weight
    odds = artillery_odds(distance=20, fp=6, morale=8 + 2, attack_modifier=2)
    assert {o: getattr(odds, o.value) for o in Outcome} == {
        o: Fraction(n, 36**3) for o, n in tally.items()
    }

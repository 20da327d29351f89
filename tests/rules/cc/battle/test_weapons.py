"""Weapon breakdown and repair [11.4, 1.9.1.2, A41, E63]: WE-02, WE-53, exact odds."""

import itertools
from fractions import Fraction

import pytest

from rules.cc.battle.rolls import Trigger, roll
from rules.cc.battle.weapons import (
    BreakdownResult,
    BrokenWeapon,
    RepairOutcome,
    Weapon,
    WeaponKind,
    breakdown_odds,
    fire_breakdowns,
    malfunction,
    random_hex_check,
)
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import DiceError, RuleError
from rules.explain import DecisionRequired
from rules.serial import from_data, to_data

MG = Weapon("hmg", WeaponKind.MG)
LMG = Weapon("lmg", WeaponKind.MG)
FT = Weapon("flamethrower")
FACES = list(itertools.product(range(1, 7), repeat=2))


def fire_roll(faces, trigger=Trigger.NONE):
    return roll(EnteredDice([faces]), purpose="fire", rule="O20.3.3", trigger=trigger)


def states(result):
    return {
        w.name: ("eliminated" if w.eliminated else "broken" if w.broken else "ok")
        for w in result.weapons
    }


def test_WE02_jammed_breaks_every_firing_weapon_and_attack_stands_1_9_1_2():
    rolled = fire_roll((4, 1), Trigger.JAMMED)
    result = fire_breakdowns(roll=rolled, firing=(MG, FT))
    assert states(result) == {"hmg": "broken", "flamethrower": "broken"}
    assert rolled.value == 5  # the attack's roll is untouched
    assert any("attack stands" in str(s.text) for s in result.explanation)


def test_1_9_1_2_no_jam_no_break():
    assert states(fire_breakdowns(roll=fire_roll((4, 1)), firing=(MG,))) == {"hmg": "ok"}


def test_A41_sustained_fire_breaks_on_doubles_only():
    assert states(fire_breakdowns(roll=fire_roll((3, 3)), firing=(MG,), sustained_fire=1)) == {
        "hmg": "broken"
    }
    assert states(fire_breakdowns(roll=fire_roll((3, 4)), firing=(MG,), sustained_fire=1)) == {
        "hmg": "ok"
    }


def test_WE53_two_sustained_fires_on_doubles_eliminate_the_weapon_A41():
    assert states(fire_breakdowns(roll=fire_roll((2, 2)), firing=(MG,), sustained_fire=2)) == {
        "hmg": "eliminated"
    }


def test_WE53_sustained_fire_plus_jammed_on_doubles_eliminates_A41():
    result = fire_breakdowns(
        roll=fire_roll((5, 5), Trigger.JAMMED), firing=(MG, FT), sustained_fire=1
    )
    assert states(result) == {"hmg": "eliminated", "flamethrower": "broken"}
    rules = [s.rule for s in result.explanation]
    assert rules.index("1.9.1.2") < rules.index("A41")


def test_A41_firer_chooses_which_mg_or_mortar_breaks():
    with pytest.raises(DecisionRequired) as asked:
        fire_breakdowns(roll=fire_roll((1, 1)), firing=(MG, LMG, FT), sustained_fire=1)
    assert set(asked.value.decision.options) == {"hmg", "lmg"}
    result = fire_breakdowns(
        roll=fire_roll((1, 1)), firing=(MG, LMG), sustained_fire=2, choices=("lmg", "hmg")
    )
    assert states(result) == {"hmg": "broken", "lmg": "broken"}
    with pytest.raises(RuleError, match="not a firing MG or mortar"):
        fire_breakdowns(
            roll=fire_roll((1, 1)), firing=(MG, FT), sustained_fire=1, choices=("flamethrower",)
        )


def test_A41_needs_an_mg_or_mortar_and_both_dice():
    with pytest.raises(RuleError, match="needs a firing MG or mortar"):
        fire_breakdowns(roll=fire_roll((1, 1)), firing=(FT,), sustained_fire=1)
    total_only = roll(EnteredDice([6]), purpose="fire", rule="O20.3.3")
    with pytest.raises(DiceError):
        fire_breakdowns(roll=total_only, firing=(MG,), sustained_fire=1)


def test_11_4_a_broken_weapon_cannot_fire():
    with pytest.raises(RuleError, match="broken Weapon cannot fire"):
        fire_breakdowns(roll=fire_roll((1, 2)), firing=(Weapon("x", broken=True),))


@pytest.mark.parametrize(
    ("sf", "jammed"), [(1, False), (2, False), (1, True), (0, True), (3, False)]
)
def test_A41_odds_equal_brute_force(sf, jammed):
    firing = (MG, FT)
    trigger = Trigger.JAMMED if jammed else Trigger.NONE
    counts = {}
    for faces in FACES:
        end = fire_breakdowns(
            roll=fire_roll(faces, trigger), firing=firing, sustained_fire=sf
        ).weapons
        counts[end] = counts.get(end, 0) + 1
    odds = breakdown_odds(firing=firing, sustained_fire=sf, jammed=jammed)
    assert {k: v * 36 for k, v in odds.items() if v} == counts


def test_A41_chance_of_a_break_is_one_in_six():
    odds = breakdown_odds(firing=(MG,), sustained_fire=1)
    assert odds[(Weapon("hmg", WeaponKind.MG, broken=True),)] == Fraction(1, 6)


def test_A41_seeded_and_server_dice():
    for dice in (SeededDice(2), ServerDice()):
        for _ in range(20):
            r = roll(dice, purpose="fire", rule="O20.3.3")
            end = fire_breakdowns(roll=r, firing=(MG,), sustained_fire=1)
            assert end.weapons[0].broken is (r.record.faces[0] == r.record.faces[1])


@pytest.mark.parametrize(
    ("number", "outcome"),
    [
        (1, RepairOutcome.FIXED),
        (2, RepairOutcome.FIXED),
        (5, RepairOutcome.STILL_BROKEN),
        (6, RepairOutcome.ELIMINATED),
    ],
)
def test_11_4_random_hex_number_against_fix_and_elim(number, outcome):
    result = random_hex_check(hex_number=number, weapons=(BrokenWeapon("lmg", (1, 2), (6, 6)),))
    assert result.outcomes == {"lmg": outcome}


def test_11_4_overlapping_ranges_refused():
    with pytest.raises(RuleError, match="overlap"):
        random_hex_check(hex_number=3, weapons=(BrokenWeapon("x", (1, 3), (3, 6)),))


def test_E63_malfunction_nearest_unbroken_weapon_breaks_receiver_breaks_ties():
    assert malfunction(nearest=(MG, Weapon("b", broken=True))).weapons[0].broken
    with pytest.raises(DecisionRequired):
        malfunction(nearest=(MG, LMG))
    assert malfunction(nearest=(MG, LMG), chosen="lmg").weapons[0].name == "lmg"
    assert malfunction(nearest=()).weapons == ()
    with pytest.raises(RuleError, match="not an unbroken Weapon"):
        malfunction(nearest=(MG, LMG), chosen="zz")


def test_11_4_breakdown_result_round_trips():
    result = fire_breakdowns(roll=fire_roll((5, 5), Trigger.JAMMED), firing=(MG,), sustained_fire=1)
    assert from_data(BreakdownResult, to_data(result)) == result

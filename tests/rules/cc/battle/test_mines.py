"""Mine attacks [F103, A35.2] and their exact odds."""

import itertools
from fractions import Fraction

import pytest

from rules.cc.battle.fire import Target, TargetUnit
from rules.cc.battle.mines import MineResult, mine_attack, mine_odds
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.terrain import HexCover, Terrain
from rules.cc.battle.values import Outcome
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RuleError
from rules.serial import from_data, to_data
from tests.rules.cc.battle.test_values import leader, squad, team

FACES = list(itertools.product(range(1, 7), repeat=2))


BUILDING = HexCover(Terrain.BUILDING)


def movers(*units, ground=BUILDING, **kw):
    return Target(tuple(TargetUnit(u, moving=True) for u in units), ground, **kw)


def test_WE54_a_tie_suppresses_a_moving_unit_F103_2():
    out = mine_attack(target=movers(squad("Rifle", morale=7)), dice=EnteredDice([(3, 4), (3, 3)]))
    d = out.attacks[0].defense.units[0]
    assert (out.attacks[0].total, d.morale, d.total) == (13, 7, 13)
    assert d.outcome is Outcome.SUPPRESSED and not d.unit.broken


def test_WE54_tie_breaks_movers_under_the_O20_3_4_reading():
    out = mine_attack(
        target=movers(squad("Rifle", morale=7)),
        dice=EnteredDice([(3, 4), (3, 3)]),
        tie_breaks_movers=True,
    )
    assert out.attacks[0].defense.units[0].outcome is Outcome.BROKEN


def test_cover_is_zero_whatever_the_hex_F103_2():
    out = mine_attack(
        target=movers(squad("Rifle", morale=7), ground=HexCover(Terrain.WOODS, road=True)),
        dice=EnteredDice([(1, 1), (1, 1)]),
    )
    assert out.attacks[0].defense.units[0].morale == 7


def test_units_moving_together_share_one_roll_with_their_leader_F103_1():
    out = mine_attack(
        target=movers(squad("Rifle", morale=7), leader("Lt", command=1, morale=8)),
        dice=EnteredDice([(2, 2), (3, 3), (3, 3)]),
        fp=8,
    )
    assert len(out.attacks) == 1 and out.attacks[0].total == 12
    rifle, lt = out.attacks[0].defense.units
    assert (rifle.morale, lt.morale) == (8, 8)


def test_hidden_mines_attack_each_unit_A35_2():
    out = mine_attack(
        target=movers(squad("Rifle", morale=7), leader("Lt", command=1, morale=8)),
        dice=EnteredDice([(2, 2), (3, 3), (2, 2), (3, 3)]),
        hidden=True,
    )
    assert [a.total for a in out.attacks] == [10, 10]
    assert out.attacks[0].defense.units[0].morale == 8  # the Lt is in the hex too


def test_immune_units_lend_their_leader_F103_1():
    tgt = movers(team("Team", morale=6), other_leader_commands=(2,))
    out = mine_attack(target=tgt, dice=EnteredDice([(6, 6), (1, 1)]))
    assert out.attacks[0].defense.units[0].morale == 8


def test_jammed_breaks_nothing_1_9_1_2():
    out = mine_attack(
        target=movers(squad("Rifle")), dice=EnteredDice([(1, 1), (6, 6)]), triggers=[Trigger.JAMMED]
    )
    assert any(s.rule == "1.9.1.2" for s in out.explanation)


@pytest.mark.parametrize("fp", [5, 9])
def test_minefield_fp_is_6_7_or_8_F103_2(fp):
    with pytest.raises(RuleError) as err:
        mine_attack(target=movers(squad()), dice=EnteredDice([]), fp=fp)
    assert err.value.rule == "F103.2"
    with pytest.raises(RuleError):
        mine_odds(morale=7, fp=fp)


def test_no_mover_no_attack_F103_1():
    with pytest.raises(RuleError) as err:
        mine_attack(target=Target(()), dice=EnteredDice([]))
    assert err.value.rule == "F103.1"


@pytest.mark.parametrize(
    ("fp", "morale", "broken", "flag"),
    [(6, 7, False, False), (7, 8, True, True), (8, 5, False, True)],
)
def test_mine_odds_match_brute_force_F103_2(fp, morale, broken, flag):
    tally = dict.fromkeys(Outcome, 0)
    unit = squad("Rifle", morale=morale, broken_morale=morale, broken=broken)
    for a, d in itertools.product(FACES, FACES):
        out = mine_attack(
            target=movers(unit), dice=EnteredDice([a, d]), fp=fp, tie_breaks_movers=flag
        )
        tally[out.attacks[0].defense.units[0].outcome] += 1
    odds = mine_odds(morale=morale, fp=fp, broken=broken, tie_breaks_movers=flag)
    assert {o: getattr(odds, o.value) for o in Outcome} == {
        o: Fraction(n, 1296) for o, n in tally.items()
    }


@pytest.mark.parametrize("dice", [SeededDice(seed=11), ServerDice()])
def test_mine_attack_with_site_dice_F103_2(dice):
    out = mine_attack(target=movers(squad("Rifle", morale=7)), dice=dice, fp=7)
    attack = out.attacks[0]
    d = attack.defense.units[0]
    assert attack.total == 7 + attack.roll.value and d.total == 7 + d.roll.value


def test_mine_result_round_trip_serial():
    out = mine_attack(target=movers(squad("Rifle")), dice=EnteredDice([(3, 4), (3, 3)]))
    assert from_data(MineResult, to_data(out)) == out

"""Assaults (§6.3, §8.1.3): the rulebook's two worked examples and the triple / MG team rules."""

import itertools
import re
from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.parabellum.assault import Assailant, Defender, bout_odds, resolve_assault

FACES = list(itertools.product(range(1, 7), repeat=3))


def test_ex_6_3a_loser_with_11_plus_takes_the_winner_along():
    s4 = Assailant("S4", "cautious", assault_weapon=True)
    s3 = Defender("S3", heavy_cover=True)
    result = resolve_assault(s4, [s3], EnteredDice([(2, 3, 4), (3, 4, 4)]))
    (bout,) = result.bouts
    assert (bout.attacker_total, bout.defender_total) == (12, 13)  # 9+2+1, 11+2
    assert sorted(result.eliminated) == ["S3", "S4"]


def test_ex_6_3b_consecutive_assaults_non_suppressed_first():
    s5 = Assailant("S5", "double_time")
    s1 = Defender("S1", suppressed=True)
    s2 = Defender("S2", heavy_cover=True)
    dice = EnteredDice([(4, 4, 5), (1, 2, 3), (3, 4, 5), (4, 5, 6)])
    result = resolve_assault(s5, [s1, s2], dice)
    first, second = result.bouts
    assert first.defender == "S2"
    assert (first.attacker_total, first.defender_total) == (14, 10)  # 13+2-1; 6+2+2
    assert (first.attacker_eliminated, first.defender_eliminated) == (False, True)
    assert second.defender == "S1"
    assert (second.attacker_total, second.defender_total) == (12, 12)  # 12+2-2; 15-3
    assert (second.attacker_eliminated, second.defender_eliminated) == (True, True)
    assert result.eliminated == ["S2", "S1", "S5"]


def test_6_3_c_a_triple_kills_outright_and_two_triples_kill_both():
    attacker, defender = Assailant("A", "cautious"), Defender("D", heavy_cover=True)
    one = resolve_assault(attacker, [defender], EnteredDice([(1, 1, 1), (6, 6, 5)]))
    assert one.eliminated == ["D"]  # the defender's 19 does not matter (DECISIONS D-8)
    both = resolve_assault(attacker, [defender], EnteredDice([(2, 2, 2), (3, 3, 3)]))
    assert sorted(both.eliminated) == ["A", "D"]


def test_8_2_2_veteran_bonus_survives_suppression_and_recruit_penalty():
    attacker = Assailant("A", "cautious", experience="recruit")
    defender = Defender("D", experience="veteran", suppressed=True, assault_weapon=True)
    result = resolve_assault(attacker, [defender], EnteredDice([(2, 3, 4), (2, 3, 5)]))
    (bout,) = result.bouts
    assert (bout.attacker_total, bout.defender_total) == (10, 8)  # 9+2-1; 10-3+1 (no Assault)


def test_8_1_3_mg_team_single_assault_both_fall():
    attacker = Assailant("A", "cautious", assault_weapon=True)
    team = Defender("MG", mg_assistant="Assistant")
    result = resolve_assault(attacker, [team], EnteredDice([(5, 5, 6), (1, 2, 4)]))
    (bout,) = result.bouts
    assert (bout.attacker_total, bout.defender_total) == (19, 9)  # 16+3; 7+2
    assert result.eliminated == ["MG", "Assistant"]
    with pytest.raises(RuleError, match=re.escape("[8.1.3]")):
        resolve_assault(attacker, [team, Defender("X")], EnteredDice([]))
    with pytest.raises(RuleError, match=re.escape("[8.1.3]")):
        resolve_assault(
            attacker, [Defender("MG", suppressed=True, mg_assistant="As")], EnteredDice([])
        )


def test_6_3_d_assault_stops_when_the_assailant_falls():
    attacker = Assailant("A", "cautious")
    result = resolve_assault(
        attacker, [Defender("B"), Defender("C")], EnteredDice([(1, 2, 3), (4, 5, 6)])
    )
    assert result.attacker_eliminated and result.unfought == ["C"]


@pytest.mark.parametrize(("att_mod", "dfn_mod"), [(2, 4), (3, -3), (1, 0)])
def test_6_3_bout_odds_match_brute_force(att_mod, dfn_mod):
    a = d = both = 0
    for af in FACES:
        for df in FACES:
            at, dt = sum(af) + att_mod, sum(df) + dfn_mod
            a_trip, d_trip = len(set(af)) == 1, len(set(df)) == 1
            if a_trip or d_trip:
                a_dies, d_dies = d_trip, a_trip
            else:
                a_dies = dt > at or dt == at or dt >= 11
                d_dies = at > dt or at == dt or at >= 11
            a += a_dies
            d += d_dies
            both += a_dies and d_dies
    odds = bout_odds(att_mod, dfn_mod)
    total = 216 * 216
    assert odds.attacker_eliminated == Fraction(a, total)
    assert odds.defender_eliminated == Fraction(d, total)
    assert odds.both_eliminated == Fraction(both, total)

"""Initiative (M36-VI.1) and the phases of a turn (M36-V.1, V.6)."""

import itertools
from fractions import Fraction

import pytest

from rules.dice import EnteredDice, SeededDice
from rules.errors import RollNeeded, RuleError
from rules.m1936.turn import (
    InitiativeResult,
    Phase,
    TurnState,
    end_of_turn_steps,
    initiative,
    initiative_odds,
    next_phase,
    who_acts,
)


def test_M36_VI_1_higher_total_wins_without_dice():
    assert initiative(total_a=7, total_b=5, dice=None).winner == 0
    assert initiative(total_a=3, total_b=5, dice=None).winner == 1


def test_M36_VI_1_tie_d10_rerolls_equal_rolls():
    dice = EnteredDice([4, 4, 2, 9])
    result = initiative(total_a=6, total_b=6, dice=dice)
    assert (result.winner, result.tie, dice.remaining) == (1, True, 0)
    assert len(result.explanation.rolls) == 4
    assert InitiativeResult.from_dict(result.to_dict()) == result


def test_M36_VI_1_tie_needs_dice_or_scenario():
    with pytest.raises(RollNeeded):
        initiative(total_a=6, total_b=6, dice=None)
    pending = initiative(total_a=6, total_b=6, dice=None, tie_method="scenario")
    assert pending.winner is None and pending.decision.options == (0, 1)
    assert (
        initiative(total_a=6, total_b=6, dice=None, tie_method="scenario", scenario_winner=1).winner
        == 1
    )
    with pytest.raises(RuleError):
        initiative(total_a=6, total_b=6, dice=None, tie_method="coin")
    with pytest.raises(RuleError):
        initiative(total_a=6.5, total_b=6, dice=None)


def test_M36_VI_1_tie_odds_against_brute_force():
    pairs = list(itertools.product(range(1, 11), repeat=2))
    a_wins = sum(a > b for a, b in pairs)
    decided = sum(a != b for a, b in pairs)
    assert initiative_odds(4, 4) == Fraction(a_wins, decided) == Fraction(1, 2)
    assert (initiative_odds(5, 4), initiative_odds(4, 5)) == (1, 0)
    wins = sum(
        initiative(total_a=1, total_b=1, dice=SeededDice(seed)).winner == 0 for seed in range(400)
    )
    assert 140 < wins < 260


def test_M36_V_1_phases_cycle():
    s = TurnState()
    assert (s.turn, s.phase) == (1, Phase.ATTACK)
    assert who_acts(s, attacker_index=1) == 1
    s = next_phase(s)
    assert s.phase is Phase.DEFENCE and who_acts(s, attacker_index=1) == 0
    s = next_phase(s)
    assert s.phase is Phase.END
    with pytest.raises(RuleError):
        who_acts(s, attacker_index=0)
    s = next_phase(s)
    assert (s.turn, s.phase) == (2, Phase.ATTACK)
    assert TurnState.from_dict(s.to_dict()) == s
    with pytest.raises(RuleError):
        who_acts(s, attacker_index=2)


def test_M36_V_6_end_of_turn_order():
    rules = [step.rule for step in end_of_turn_steps()]
    assert rules[0] == "M36-V.6" and rules[-1] == "M36-XV.4"
    assert rules.index("M36-V.5") < rules.index("M36-XI.4") < rules.index("M36-XI.7")

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import (
    D66,
    KINDS,
    DiceError,
    Distribution,
    EnteredDice,
    SeededDice,
    ServerDice,
    entered_roll,
    kind,
)
from rules.errors import RollNeeded


@pytest.mark.parametrize(
    ("kind_name", "bad"),
    [
        ("2d6", 13),
        ("2d6", 1),
        ("d6", 0),
        ("d6", 7),
        ("3d6", 19),
        ("3d6", 2),
        ("d66", 17),
        ("d66", 70),
        ("d66", 6),
        ("d10", 11),
        ("2d6", (7, 1)),
        ("2d6", (3,)),
        ("3d6", (1, 2, 3, 4)),
        ("d6", True),
        ("2d6", "seven"),
    ],
)
def test_entered_values_out_of_range_are_refused(kind_name, bad):
    with pytest.raises(DiceError) as err:
        entered_roll(kind_name, bad, purpose="test", rule="X.1")
    assert err.value.rule == "X.1"
    assert kind_name.lstrip("1") in str(err.value)


def test_2d6_entry_of_13_names_the_range():
    with pytest.raises(DiceError, match="2 to 12, not 13"):
        entered_roll("2d6", 13, purpose="Sudden death", rule="6.4")


def test_entered_dice_keep_white_and_coloured_apart():
    dice = EnteredDice([(2, 5)])
    record = dice.roll("2d6", purpose="leader", rule="RS.6")
    assert (record.value, record.die("white"), record.die("coloured")) == (7, 2, 5)
    assert record.source == "entered" and dice.remaining == 0


def test_white_die_of_a_total_only_entry_is_refused_clearly():
    record = entered_roll("2d6", 7, purpose="leader")
    with pytest.raises(DiceError, match="only its total"):
        record.die("white")


def test_d66_reads_red_as_tens_and_white_as_units():
    record = entered_roll("d66", 34, purpose="command prep", rule="6.9.f")
    assert record.faces == (3, 4) and record.die("red") == 3 and record.die("white") == 4
    assert entered_roll("d66", (3, 4), purpose="x").value == 34


def test_an_empty_entered_queue_says_what_roll_is_missing():
    with pytest.raises(RollNeeded, match="no entered roll left for morale") as err:
        EnteredDice().roll("d6", purpose="morale", rule="17.1.d")
    assert (err.value.kind, err.value.purpose, err.value.rule) == ("d6", "morale", "17.1.d")


def test_a_refused_entry_is_not_consumed():
    dice = EnteredDice([13])
    with pytest.raises(DiceError):
        dice.roll("2d6", purpose="x")
    assert dice.remaining == 1 and dice.history == []


def test_seeded_replay_is_deterministic_and_server_rolls_stay_in_range():
    a = [SeededDice(seed=7).roll("3d6", purpose="p").faces for _ in range(3)]
    b = [SeededDice(seed=7).roll("3d6", purpose="p").faces for _ in range(3)]
    assert a == b
    server = ServerDice()
    values = {server.roll("d66", purpose="p").value for _ in range(400)}
    assert values <= {10 * a + b for a in range(1, 7) for b in range(1, 7)}
    assert len(values) > 20 and server.history[0].source == "server"


def test_record_round_trips_through_a_dict():
    record = SeededDice(seed=1).roll("2d6", purpose="fire", rule="O.1")
    assert type(record).from_dict(record.as_dict()) == record


def test_triples_are_detected_for_parabellum():
    assert entered_roll("3d6", (4, 4, 4), purpose="shot").is_triple
    assert not entered_roll("3d6", (4, 4, 3), purpose="shot").is_triple


@pytest.mark.parametrize("name", ["5d6", "2d10", "d20"])
def test_generic_expressions_resolve(name):
    spec = kind(name)
    assert spec.minimum == len(spec.sides) and spec.maximum == sum(spec.sides)


def test_unknown_kind_is_refused():
    with pytest.raises(DiceError, match="unknown roll kind"):
        kind("banana")


def _brute(kind_name, predicate):
    spec = kind(kind_name)
    outcomes = list(spec.outcomes())
    return Fraction(sum(1 for f in outcomes if predicate(spec.value(f))), len(outcomes))


@given(
    st.sampled_from(sorted(KINDS)),
    st.integers(min_value=-5, max_value=80),
    st.integers(-3, 3),
)
def test_exact_odds_agree_with_a_brute_force_count(kind_name, k, modifier):
    dist = Distribution.of(kind_name, modifier=modifier)
    assert dist.p_at_least(k) == _brute(kind_name, lambda v: v + modifier >= k)
    assert sum(p for _, p in dist.probs) == 1


@given(st.integers(-4, 4), st.integers(-4, 4))
def test_attack_beats_defense_odds_match_enumeration(att_mod, def_mod):
    att = Distribution.of("3d6", modifier=att_mod)
    dfn = Distribution.of("3d6", modifier=def_mod)
    faces = list(itertools.product(range(1, 7), repeat=3))
    wins = sum(1 for a in faces for d in faces if sum(a) + att_mod > sum(d) + def_mod)
    assert att.p_greater_than(dfn) == Fraction(wins, len(faces) ** 2)


@pytest.mark.parametrize(("a", "b"), [(1, 1), (3, 4), (6, 6), (2, 6), (5, 1)])
def test_tcs_1_6_d66_at_least_formula(a, b):
    """TCS 1.6: P(roll ≥ 10a+b) = ((6−a)·6 + (7−b)) / 36."""
    assert Distribution.of(D66).p_at_least(10 * a + b) == Fraction((6 - a) * 6 + (7 - b), 36)


def test_white_die_only_distribution_is_uniform():
    dist = Distribution.of("2d6", read=lambda faces: faces[0])
    assert dist.probs == tuple((v, Fraction(1, 6)) for v in range(1, 7))


def test_sum_of_distributions_is_the_convolution():
    assert Distribution.of("d6") + Distribution.of("d6") == Distribution.of("2d6")
    assert Distribution.of("2d6").p_at_least(8) == Fraction(15, 36)

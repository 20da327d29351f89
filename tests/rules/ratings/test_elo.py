"""Elo against updates computed by hand, and its zero-sum and symmetry properties."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.ratings import EloConfig, Game, Outcome, elo_run, elo_update, expected_score
from rules.ratings.elo import Period, game_deltas

FLAT = EloConfig(k_bands=((0.0, 32.0),))


def test_equal_ratings_win():
    assert elo_update(1500, 1500, 1.0, FLAT) == (1516.0, 1484.0)


def test_favourite_wins_and_draws():
    # E = 1 / (1 + 10^(-200/400)) = 0.7597469
    assert expected_score(1600, 1400) == pytest.approx(0.7597469, abs=1e-7)
    a, b = elo_update(1600, 1400, 1.0, FLAT)
    assert a == pytest.approx(1607.6881, abs=1e-4) and b == pytest.approx(1392.3119, abs=1e-4)
    a, b = elo_update(1600, 1400, 0.5, FLAT)
    assert a == pytest.approx(1591.6881, abs=1e-4) and b == pytest.approx(1408.3119, abs=1e-4)


def test_k_by_rating_band():
    config = EloConfig(k_bands=((0.0, 32.0), (2100.0, 24.0)))
    assert config.k_for(2099.9) == 32 and config.k_for(2100) == 24 and config.k_for(-5) == 32
    a, b = elo_update(2200, 2000, 0.0, config)  # the 2200 player (K 24) loses
    assert a == pytest.approx(2200 - 24 * 0.7597469, abs=1e-4)
    assert b == pytest.approx(2000 + 32 * 0.7597469, abs=1e-4)


def test_bad_bands_and_scores_are_refused():
    with pytest.raises(RuleError):
        EloConfig(k_bands=((2100.0, 24.0), (0.0, 32.0)))
    with pytest.raises(RuleError):
        EloConfig(k_bands=((0.0, -1.0),))
    with pytest.raises(RuleError):
        elo_update(1500, 1500, 0.7)


DAY = date(2026, 3, 1)
GAMES = [
    Game(1, ("A",), ("B",), Outcome.A, played_on=DAY),
    Game(2, ("A",), ("C",), Outcome.A, played_on=DAY),
]


def test_per_result_periods():
    run = elo_run(GAMES, FLAT)
    # game 2: A 1516 vs C 1500: E = 1/(1 + 10^-0.04) = 0.5230096, +32 × 0.4769904 = 15.2637
    assert run.ratings["A"] == pytest.approx(1531.2637, abs=1e-4)
    assert run.ratings["C"] == pytest.approx(1484.7363, abs=1e-4)
    assert [(p.player, p.game_id) for p in run.history] == [
        ("A", 1), ("B", 1), ("A", 2), ("C", 2)
    ]  # fmt: skip


def test_daily_periods_rate_against_start_of_day():
    run = elo_run(GAMES, EloConfig(k_bands=((0.0, 32.0),), period=Period.DAY))
    assert run.ratings == {"A": 1532.0, "B": 1484.0, "C": 1484.0}
    a = [p for p in run.history if p.player == "A"]
    assert len(a) == 1 and a[0].delta == 32.0 and a[0].game_id == 2 and run.games["A"] == 2


def test_team_game_uses_team_means():
    run = elo_run([Game(1, ("A", "B"), ("C", "D"), Outcome.A)], FLAT)
    assert run.ratings == {"A": 1516.0, "B": 1516.0, "C": 1484.0, "D": 1484.0}
    ratings = {"A": 1500.0, "B": 1500.0, "C": 1600.0, "D": 1400.0}
    deltas = game_deltas(Game(2, ("A", "B"), ("C", "D"), Outcome.DRAW), ratings, FLAT)
    assert deltas == {"A": 0.0, "B": 0.0, "C": 0.0, "D": 0.0}  # means are equal


ratings = st.floats(min_value=100, max_value=3000, allow_nan=False)
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(ratings, ratings, scores)
def test_zero_sum_with_one_k(ra, rb, s):
    a, b = elo_update(ra, rb, s, FLAT)
    assert a + b == pytest.approx(ra + rb, abs=1e-9)


@given(ratings, ratings, scores)
def test_symmetry(ra, rb, s):
    a, b = elo_update(ra, rb, s, FLAT)
    b2, a2 = elo_update(rb, ra, 1.0 - s, FLAT)
    assert a == pytest.approx(a2, abs=1e-9) and b == pytest.approx(b2, abs=1e-9)
    assert expected_score(ra, rb) + expected_score(rb, ra) == pytest.approx(1.0)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), scores), max_size=30))
def test_a_league_run_is_zero_sum_with_one_k(games):
    played = [
        Game(i, (f"p{a}",), (f"p{b}",), {1.0: Outcome.A, 0.5: Outcome.DRAW, 0.0: Outcome.B}[s])
        for i, (a, b, s) in enumerate(games)
        if a != b
    ]
    run = elo_run(played, FLAT)
    assert sum(run.ratings.values()) == pytest.approx(1500.0 * len(run.ratings), abs=1e-6)

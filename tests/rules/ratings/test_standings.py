"""Standings and every tie-break against a table computed by hand.

Four players, 3/1/0 points:
  g1 A beats B · g2 C beats D · g3 A draws C · g4 B beats D · g5 D beats A
  A: W1 D1 L1 = 4 pts (opponents B, C, D) · C: W1 D1 = 4 (D, A)
  B: W1 L1 = 3 (A, D) · D: W1 L2 = 3 (C, B, A)
Win % (draw ½): A 1/2, B 1/2, C 3/4, D 1/3.
"""

from fractions import Fraction

import pytest

from rules.errors import RuleError
from rules.ratings import CCDetail, Game, Outcome, PointsScheme, compute_standings
from rules.ratings.standings import METRICS

A, B, C, D = "A", "B", "C", "D"
GAMES = [
    Game(1, (A,), (B,), Outcome.A),
    Game(2, (C,), (D,), Outcome.A),
    Game(3, (A,), (C,), Outcome.DRAW),
    Game(4, (B,), (D,), Outcome.A),
    Game(5, (D,), (A,), Outcome.A),
]


def table(criteria, games=GAMES, **kw):
    s = compute_standings(games, criteria=criteria, **kw)
    return [(r.player, r.rank) for r in s.rows], {r.player: r for r in s.rows}


def test_points_and_record():
    order, rows = table(["points"])
    assert order == [(A, 1), (C, 1), (B, 3), (D, 3)]
    assert (rows[A].wins, rows[A].draws, rows[A].losses, rows[A].points) == (1, 1, 1, 4)
    assert rows[D].played == 3 and rows[D].points == 3
    assert rows[A].tied and rows[D].tied


def test_wins_leave_everyone_level():
    order, _ = table(["points", "wins"])
    assert order == [(A, 1), (C, 1), (B, 3), (D, 3)]


def test_head_to_head_splits_b_and_d_but_not_the_drawn_pair():
    order, rows = table(["points", "h2h"])
    assert order == [(A, 1), (C, 1), (B, 3), (D, 4)]
    assert rows[B].values["h2h"] == 3 and rows[D].values["h2h"] == 0
    assert rows[A].values["h2h"] == rows[C].values["h2h"] == 1


def test_buchholz_after_head_to_head():
    order, rows = table(["points", "h2h", "buchholz"])
    assert order == [(A, 1), (C, 2), (B, 3), (D, 4)]
    assert rows[A].values["buchholz"] == 3 + 4 + 3 and rows[C].values["buchholz"] == 3 + 4


def test_median_buchholz_reverses_a_and_c():
    order, rows = table(["points", "median_buchholz"])
    # A's opponents 3, 3, 4 -> drop best and worst -> 3; C has two opponents: 3 + 4 = 7.
    # B: A 4 + D 3 = 7; D's opponents 4, 3, 4 -> 4.
    assert order == [(C, 1), (A, 2), (B, 3), (D, 4)]
    assert [rows[p].values["median_buchholz"] for p in (A, B, C, D)] == [3, 7, 7, 4]


def test_opponents_win_percentage():
    order, rows = table(["points", "owp"])
    assert order == [(A, 1), (C, 2), (D, 3), (B, 4)]
    expected = {A: Fraction(19, 36), B: Fraction(5, 12), C: Fraction(5, 12), D: Fraction(7, 12)}
    for p, value in expected.items():
        assert rows[p].values["owp"] == pytest.approx(float(value))


def test_strength_of_schedule():
    order, rows = table(["points", "sos"])
    assert order == [(A, 1), (C, 2), (D, 3), (B, 4)]
    expected = {A: Fraction(55, 108), C: Fraction(50, 108), B: Fraction(50, 108)}
    expected[D] = Fraction(175, 324)
    for p, value in expected.items():
        assert rows[p].values["sos"] == pytest.approx(float(value))


def test_points_scheme_is_configurable():
    _, rows = table(["points"], scheme=PointsScheme(win=1, draw=0.5, loss=0))
    assert [rows[p].points for p in (A, B, C, D)] == [1.5, 1, 1.5, 1]
    order, _ = table(["wins", "points"], scheme=PointsScheme(win=2, draw=3, loss=0))
    assert order[0] == (A, 1) and order[1] == (C, 1)


def test_participant_without_games_is_last_with_zero():
    order, rows = table(["points"], players=[A, B, C, D, "E"])
    assert order[-1] == ("E", 5) and rows["E"].played == 0


def test_team_games_count_each_opponent():
    games = [Game(1, (A, B), (C, D), Outcome.A), Game(2, (A,), (C,), Outcome.B)]
    _, rows = table(["points", "buchholz"], games=games)
    assert rows[A].points == 3 and rows[C].points == 3 and rows[B].points == 3
    assert rows[A].values["buchholz"] == 3 + 0 + 3  # C, D in game 1, then C


def test_unknown_or_repeated_tie_break_is_refused():
    with pytest.raises(RuleError):
        compute_standings(GAMES, criteria=["points", "coin"])
    with pytest.raises(RuleError):
        compute_standings(GAMES, criteria=["points", "points"])


def test_registry_holds_the_documented_metrics():
    assert set(METRICS) == {
        "points", "wins", "owp", "sos", "buchholz", "median_buchholz", "h2h",
        "cc_torneos", "cc_vp",
    }  # fmt: skip


# TORNEOS: round 1: A beats B by surrender (Time 5 + 1 casualty); C beats D on VP (12, 2 cas.)
# -> A, C, D, B: 3, 2, 1, 0. Round 2: B beats C on VP 10 (0 cas.), D beats A on VP 10 (0 cas.)
# -> B and D tie, then C and A tie: 2.5, 2.5, 0.5, 0.5. Totals A 3.5, D 3.5, B 2.5, C 2.5.
CC_GAMES = [
    Game(1, (A,), (B,), Outcome.A, round=1, cc=CCDetail("surrender", 5, casualties_a=1)),
    Game(2, (C,), (D,), Outcome.A, round=1, cc=CCDetail("vp", 9, vp_a=12, casualties_a=2)),
    Game(3, (B,), (C,), Outcome.A, round=2, cc=CCDetail("vp", 9, vp_a=10, casualties_a=0)),
    Game(4, (D,), (A,), Outcome.A, round=2, cc=CCDetail("vp", 9, vp_a=10, casualties_a=0)),
]


def test_cc_tournament_points():
    order, rows = table(["cc_torneos"], games=CC_GAMES)
    assert order == [(A, 1), (D, 1), (B, 3), (C, 3)]
    assert [rows[p].values["cc_torneos"] for p in (A, B, C, D)] == [3.5, 2.5, 2.5, 3.5]


def test_cc_handicap_boosts_the_less_experienced_players_vp():
    # D's 10 VP become 13 (12.5 rounded half up): D beats B's 10 in round 2 -> D 3, B 2,
    # C 1, A 0 (A lost to the round's best winner). Totals D 4, A 3, C 3, B 2.
    order, rows = table(["cc_torneos", "cc_vp"], games=CC_GAMES, handicapped=[D])
    # not applied unless the league chooses it: A and D level on 3.5, D ahead on VP (10 to 0)
    assert order == [(D, 1), (A, 2), (C, 3), (B, 4)]
    assert rows[D].values["cc_torneos"] == 3.5 and rows[D].values["cc_vp"] == 10
    order, rows = table(
        ["cc_torneos", "cc_vp"], games=CC_GAMES, handicapped=[D], apply_handicap=True
    )
    assert order == [(D, 1), (C, 2), (A, 3), (B, 4)]  # C 12 VP ahead of A 0 VP
    assert rows[D].values["cc_torneos"] == 4 and rows[D].values["cc_vp"] == 13


def test_unrankable_round_scores_nothing_and_warns():
    games = [*CC_GAMES, Game(5, (A,), (C,), Outcome.DRAW, round=3)]
    s = compute_standings(games, criteria=["cc_torneos"])
    assert any("round 3" in w for w in s.warnings)
    assert {r.player: r.values["cc_torneos"] for r in s.rows}[A] == 3.5

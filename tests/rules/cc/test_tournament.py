"""TORNEOS round ranking and EQUILIBRIO handicap, computed by hand from the seed."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cc.tournament import (
    GameResult,
    TournamentOptions,
    UnitCounting,
    WinType,
    handicap,
    handicap_vp,
    rank_round,
    standings,
)
from rules.errors import RuleError

W = WinType


def test_torneos_surrender_beats_vp_and_losers_reverse():
    # digest §6 #46: P1 beats P2 by surrender, P3 beats P4 on VP → P1, P3, P4, P2 = 3, 2, 1, 0
    ranking = rank_round(
        [
            GameResult("P1", "P2", W.SURRENDER, time_space=5, casualties=3),
            GameResult("P3", "P4", W.VP, vp=6, casualties=2),
        ]
    )
    assert ranking.tiers == tuple(frozenset({p}) for p in ("P1", "P3", "P4", "P2"))
    assert ranking.points == {"P1": 3, "P3": 2, "P4": 1, "P2": 0}


def test_torneos_forfeit_winners_tie_and_halves():
    # digest §6 #47: P1 and P3 both win by forfeit → 2.5 each; their opponents 0.5 each
    ranking = rank_round([GameResult("P1", "P2", W.FORFEIT), GameResult("P3", "P4", W.FORFEIT)])
    assert ranking.points == {"P1": 2.5, "P3": 2.5, "P2": 0.5, "P4": 0.5}


def test_torneos_category_order():
    results = [
        GameResult("F", "f", W.FORFEIT),
        GameResult("I", "i", W.INITIATIVE, time_space=1, casualties=0),
        GameResult("V", "v", W.VP, vp=20, casualties=0),
        GameResult("O", "o", W.OBJECTIVE_5, time_space=9, casualties=9, objective_5_in_play=True),
        GameResult("S", "s", W.SURRENDER, time_space=9, casualties=9),
    ]
    order = [next(iter(t)) for t in rank_round(results).tiers]
    assert order == ["S", "O", "V", "I", "F", "f", "i", "v", "o", "s"]


def test_torneos_surrender_tie_break_time_plus_casualties():
    ranking = rank_round(
        [
            GameResult("A", "a", W.SURRENDER, time_space=6, casualties=1),  # 7
            GameResult("B", "b", W.SURRENDER, time_space=2, casualties=3),  # 5: better
            GameResult("C", "c", W.SURRENDER, time_space=4, casualties=1),  # 5: tied with B
        ]
    )
    assert ranking.tiers[:2] == (frozenset({"B", "C"}), frozenset({"A"}))
    assert ranking.points["B"] == ranking.points["C"] == 4.5
    assert ranking.points["a"] == 2  # the loser to the lowest winner heads the losers
    assert ranking.points["b"] == ranking.points["c"] == 0.5


def test_torneos_vp_wins_more_vp_then_fewer_casualties():
    ranking = rank_round(
        [
            GameResult("A", "a", W.VP, vp=5, casualties=0),
            GameResult("B", "b", W.VP, vp=8, casualties=6),
            GameResult("C", "c", W.VP, vp=8, casualties=2),
        ]
    )
    assert [next(iter(t)) for t in ranking.tiers[:3]] == ["C", "B", "A"]


def test_torneos_concession_is_not_allowed():
    with pytest.raises(RuleError) as err:
        rank_round([GameResult("A", "a", W.CONCESSION)])
    assert err.value.rule == "TORNEOS"


def test_torneos_objective_5_must_be_in_play():
    with pytest.raises(RuleError):
        rank_round([GameResult("A", "a", W.OBJECTIVE_5, time_space=3, casualties=1)])


def test_torneos_last_unit_eliminated_ranks_as_surrender_by_default():
    results = [
        GameResult("E", "e", W.LAST_UNIT_ELIMINATED, time_space=3, casualties=1),
        GameResult("S", "s", W.SURRENDER, time_space=3, casualties=1),
        GameResult("V", "v", W.VP, vp=3, casualties=1),
    ]
    assert rank_round(results).tiers[0] == frozenset({"E", "S"})
    as_vp = rank_round(
        [results[1], GameResult("E", "e", W.LAST_UNIT_ELIMINATED, vp=9, casualties=0)],
        TournamentOptions(last_unit_eliminated_as=W.VP),
    )
    assert as_vp.tiers[0] == frozenset({"S"})


def test_torneos_missing_tie_break_data_is_refused():
    with pytest.raises(RuleError):
        rank_round([GameResult("A", "a", W.VP, casualties=1)])


def test_torneos_standings_sum_rounds_and_report_ties():
    r1 = rank_round(
        [
            GameResult("P1", "P2", W.SURRENDER, time_space=5, casualties=3),
            GameResult("P3", "P4", W.VP, vp=6, casualties=2),
        ]
    )
    r2 = rank_round(
        [
            GameResult("P2", "P1", W.SURRENDER, time_space=5, casualties=3),
            GameResult("P4", "P3", W.VP, vp=6, casualties=2),
        ]
    )
    table = standings([r1, r2])
    assert table.totals == {"P1": 3, "P2": 3, "P3": 3, "P4": 3}
    assert table.tied == (frozenset({"P1", "P2", "P3", "P4"}),)


@given(
    st.lists(st.sampled_from([W.SURRENDER, W.VP, W.INITIATIVE, W.FORFEIT]), min_size=1, max_size=6),
    st.lists(st.integers(0, 12), min_size=18, max_size=18),
)
def test_torneos_points_sum_to_pairs_of_players(wins, numbers):
    results = [
        GameResult(
            f"W{i}",
            f"L{i}",
            win,
            time_space=numbers[3 * i],
            casualties=numbers[3 * i + 1],
            vp=numbers[3 * i + 2],
        )
        for i, win in enumerate(wins)
    ]
    ranking = rank_round(results)
    n = 2 * len(results)
    assert sum(ranking.points.values()) == n * (n - 1) / 2
    assert min(ranking.points[f"W{i}"] for i in range(len(wins))) > max(
        ranking.points[f"L{i}"] for i in range(len(wins))
    )


@pytest.mark.parametrize("counting", list(UnitCounting))
def test_equilibrio_handicap_example(counting):
    # digest §6 #48: 3 leaders, 8 squads, 2 teams, surrender 9 → +1 leader, +3 units, +2 → 11
    result = handicap(leaders=3, squads=8, teams=2, surrender=9, counting=counting)
    assert (result.extra_leaders, result.extra_squads_and_teams) == (1, 3)
    assert (result.surrender_bonus, result.surrender) == (2, 11)


def test_equilibrio_counting_together_or_apart_can_differ():
    # 25 % of 5 + 2 = 1.75 → 2; apart 1.25 → 2 and 0.5 → 1 = 3
    assert handicap(leaders=2, squads=5, teams=2, surrender=6).extra_squads_and_teams == 2
    apart = handicap(leaders=2, squads=5, teams=2, surrender=6, counting=UnitCounting.SEPARATELY)
    assert apart.extra_squads_and_teams == 3
    assert apart.surrender == 6 + 2  # 1 leader + 3 units = 4 → +2


@pytest.mark.parametrize(("vp", "boosted"), [(4, 5), (2, 3), (1, 1), (0, 0), (10, 13)])
def test_equilibrio_vp_bonus(vp, boosted):
    assert handicap_vp(vp).vp == boosted

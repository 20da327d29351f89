"""The league table from its aggregates (`StandingMatchup`): one query however many results.

Only two cases read the results themselves: the CC TORNEOS criterion (it ranks each round
among that round's games) and a criterion without an aggregate form."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from campaigns.models import League
from campaigns.models.leagues import StandingMatchup
from rules.ratings import PointsScheme, Standings, compute_standings
from rules.ratings.games import Game
from rules.ratings.tables import AGGREGATE_METRICS, Matchup, standings_from_matchups


def league_matchups(league: League) -> list[Matchup]:
    """Every player's aggregates against every opposing team he met (1 query)."""
    rows = StandingMatchup.objects.filter(league=league, games__gt=0).values_list(
        "user_id", "team", "opponents", "games", "wins", "draws", "losses", "vp", "vp_boosted"
    )
    teams: dict[str, tuple[int, ...]] = {}  # a team's key appears in many rows: parse it once

    def ids(text: str) -> tuple[int, ...]:
        found = teams.get(text)
        if found is None:
            found = teams[text] = tuple(int(v) for v in text.split(",") if v)
        return found

    return [Matchup(u, ids(t), ids(o), *counts) for u, t, o, *counts in rows]


def league_table(
    league: League,
    criteria: Sequence[str],
    *,
    players: Iterable[int],
    handicapped: Iterable[int],
    scheme: PointsScheme,
    sort_key: Callable[[int], object],
    load_games: Callable[[], list[Game]],
) -> Standings:
    """The standings `compute_standings` gives from every result, read from the aggregates;
    `load_games` gives every counting result, for the two cases above."""
    options = {
        "players": players,
        "scheme": scheme,
        "criteria": criteria,
        "handicapped": handicapped,
        "apply_handicap": league.apply_cc_handicap,
        "sort_key": sort_key,
    }
    if any(c not in AGGREGATE_METRICS for c in criteria):
        return compute_standings(load_games(), **options)
    rounds: list[Game] = []
    if "cc_torneos" in criteria:
        rounds = [g for g in load_games() if g.round is not None]
    return standings_from_matchups(league_matchups(league), round_games=rounds, **options)

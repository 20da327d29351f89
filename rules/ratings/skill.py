"""OpenSkill (the `openskill` package) over the same game tuples: two players or two teams."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from rules.ratings.elo import RatingPoint, RatingRun
from rules.ratings.games import Game, Outcome

RANKS = {Outcome.A: [0, 1], Outcome.B: [1, 0], Outcome.DRAW: [0, 0]}


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate the package shows: mu − 3 sigma."""
    return mu - 3.0 * sigma


def openskill_run(games: Sequence[Game], model=None) -> RatingRun:
    """Rate games in order with a Plackett-Luce model (the package default).

    `ratings` holds each player's ordinal; history points carry mu and sigma.
    """
    model = model or PlackettLuce()
    current: dict = {}
    run = RatingRun()
    for game in games:
        teams = [
            [current.get(p) or model.rating(name=str(p)) for p in game.team_a],
            [current.get(p) or model.rating(name=str(p)) for p in game.team_b],
        ]
        rated = model.rate(teams, ranks=RANKS[game.outcome])
        for team_players, team_ratings in ((game.team_a, rated[0]), (game.team_b, rated[1])):
            for player, rating in zip(team_players, team_ratings, strict=True):
                before = current.get(player)
                old = ordinal(before.mu, before.sigma) if before else ordinal(model.mu, model.sigma)
                current[player] = rating
                new = ordinal(rating.mu, rating.sigma)
                run.ratings[player] = new
                run.games[player] = run.games.get(player, 0) + 1
                run.history.append(
                    RatingPoint(
                        player, game.id, game.played_on, new, new - old, rating.mu, rating.sigma
                    )
                )
    return run

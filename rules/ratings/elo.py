"""A hand-written Elo with K by rating band, rated per result or per day.

Team games (four-player battles): each team's rating is the mean of its players' ratings;
every player moves by his own K × (score − expected team score). With one K for everybody
and teams of equal size the updates sum to zero.

Daily periods: every game of one day is scored against the ratings at the start of that
day; each player's changes are added up and applied at the end of the day.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from itertools import groupby

from rules.errors import RuleError
from rules.ratings.games import Game, Outcome, Player

RULE = "ELO"


class Period(StrEnum):
    RESULT = "result"
    DAY = "day"


@dataclass(frozen=True)
class EloConfig:
    """`k_bands` are (lowest rating of the band, K), ascending; below the first band its K."""

    initial: float = 1500.0
    k_bands: tuple[tuple[float, float], ...] = ((0.0, 32.0), (2100.0, 24.0), (2400.0, 16.0))
    period: Period = Period.RESULT
    scale: float = 400.0

    def __post_init__(self) -> None:
        if not self.k_bands:
            raise RuleError("give at least one K band", rule=RULE)
        floors = [b for b, _k in self.k_bands]
        if floors != sorted(floors) or len(set(floors)) != len(floors):
            raise RuleError("K bands must be in ascending order of rating", rule=RULE)
        if any(k <= 0 for _b, k in self.k_bands):
            raise RuleError("each K must be positive", rule=RULE)
        if self.scale <= 0:
            raise RuleError("the scale must be positive", rule=RULE)

    def k_for(self, rating: float) -> float:
        k = self.k_bands[0][1]
        for floor, band_k in self.k_bands:
            if rating >= floor:
                k = band_k
        return k


def expected_score(rating_a: float, rating_b: float, scale: float = 400.0) -> float:
    """The expected score of A against B: 1 / (1 + 10^((Rb − Ra) / scale))."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / scale))


def elo_update(
    rating_a: float, rating_b: float, score_a: float, config: EloConfig | None = None
) -> tuple[float, float]:
    """New ratings of A and B after one game; `score_a` is 1, ½ or 0."""
    config = config or EloConfig()
    if score_a not in (0.0, 0.5, 1.0):
        raise RuleError(f"a score is 1, 0.5 or 0, not {score_a}", rule=RULE)
    e_a = expected_score(rating_a, rating_b, config.scale)
    return (
        rating_a + config.k_for(rating_a) * (score_a - e_a),
        rating_b + config.k_for(rating_b) * ((1.0 - score_a) - (1.0 - e_a)),
    )


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one period (a result, or a day)."""

    player: Player
    game_id: object
    played_on: date | None
    rating: float
    delta: float
    mu: float | None = None
    sigma: float | None = None


@dataclass
class RatingRun:
    ratings: dict[Player, float] = field(default_factory=dict)
    games: dict[Player, int] = field(default_factory=dict)
    history: list[RatingPoint] = field(default_factory=list)


def game_deltas(game: Game, ratings: dict[Player, float], config: EloConfig) -> dict[Player, float]:
    """Each player's change from one game, from the ratings given (missing = initial)."""

    def rating(p: Player) -> float:
        return ratings.get(p, config.initial)

    mean_a = sum(rating(p) for p in game.team_a) / len(game.team_a)
    mean_b = sum(rating(p) for p in game.team_b) / len(game.team_b)
    e_a = expected_score(mean_a, mean_b, config.scale)
    s_a = {Outcome.A: 1.0, Outcome.B: 0.0, Outcome.DRAW: 0.5}[game.outcome]
    deltas = {p: config.k_for(rating(p)) * (s_a - e_a) for p in game.team_a}
    deltas.update({p: config.k_for(rating(p)) * ((1 - s_a) - (1 - e_a)) for p in game.team_b})
    return deltas


def _periods(games: Sequence[Game], period: Period) -> Iterable[list[Game]]:
    if period is Period.RESULT:
        for g in games:
            yield [g]
        return
    for day, group in groupby(games, key=lambda g: g.played_on):
        if day is None:  # undated games are rated one by one
            for g in group:
                yield [g]
        else:
            yield list(group)


def elo_run(games: Sequence[Game], config: EloConfig | None = None) -> RatingRun:
    """Rate games in the order given (the caller sorts them by date, then id)."""
    config = config or EloConfig()
    run = RatingRun()
    for period in _periods(games, config.period):
        total: dict[Player, float] = {}
        last_game: dict[Player, object] = {}
        for game in period:
            for player, delta in game_deltas(game, run.ratings, config).items():
                total[player] = total.get(player, 0.0) + delta
                last_game[player] = game.id
                run.games[player] = run.games.get(player, 0) + 1
        for player, delta in total.items():
            new = run.ratings.get(player, config.initial) + delta
            run.ratings[player] = new
            run.history.append(
                RatingPoint(player, last_game[player], period[0].played_on, new, delta)
            )
    return run

"""Elo and OpenSkill as streams: rate games one at a time from a saved state.

`elo_run` and `openskill_run` rate a whole history and keep it in memory; these streams take
each player's state before the first game fed (the last rating saved for him) and give back
the same rating points, in the same order, as the whole run would from that game on. A caller
can thus replay only the tail of a history, or a long history in bounded memory.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from openskill.models import PlackettLuce
from openskill.models.weng_lin.common import _unwind
from openskill.models.weng_lin.plackett_luce import PlackettLuceRating

from rules.ratings.elo import EloConfig, Period, game_deltas
from rules.ratings.games import Game, Player
from rules.ratings.skill import RANKS, ordinal


@dataclass(slots=True)
class PlayerState:
    """A player's rating after his last rated period, and how many games it counts."""

    value: float
    mu: float | None = None
    sigma: float | None = None
    games: int = 0


class Point(NamedTuple):
    """A player's rating after one period, as a snapshot row stores it."""

    player: Player
    game_id: object
    played_on: object
    value: float
    delta: float
    mu: float | None
    sigma: float | None
    games: int


class EloStream:
    """Elo by result or by day (`config.period`); a day is rated when the next day starts or
    at `close()`, exactly as `elo_run` does."""

    def __init__(self, config: EloConfig, state: dict[Player, PlayerState] | None = None):
        self.config = config
        self.state = dict(state or {})
        self._ratings = {p: s.value for p, s in self.state.items()}
        self._period: list[Game] = []

    def feed(self, game: Game) -> list[Point]:
        out: list[Point] = []
        if self._period and (
            self.config.period is Period.RESULT
            or game.played_on is None
            or game.played_on != self._period[0].played_on
        ):
            out = self.close()
        self._period.append(game)
        return out

    def close(self) -> list[Point]:
        period, self._period = self._period, []
        if not period:
            return []
        total: dict[Player, float] = {}
        last_game: dict[Player, object] = {}
        for game in period:
            for player, delta in game_deltas(game, self._ratings, self.config).items():
                total[player] = total.get(player, 0.0) + delta
                last_game[player] = game.id
                st = self.state.get(player)
                if st is None:
                    st = self.state[player] = PlayerState(self.config.initial)
                st.games += 1
        points = []
        for player, delta in total.items():
            st = self.state[player]
            new = self._ratings.get(player, self.config.initial) + delta
            self._ratings[player] = st.value = new
            points.append(
                Point(
                    player, last_game[player], period[0].played_on, new, delta, None, None, st.games
                )
            )
        return points


def rate(
    model: PlackettLuce, teams: list[list], ranks: list[float], *, in_place: bool = False
) -> list[list]:
    """`model.rate(teams, ranks=ranks)` without its argument checks and deep copy (a third of
    its time), the same steps in the same order: the same numbers to the last bit (a test
    holds it to the package). With `in_place` the given ratings (the caller's own, not used
    afterwards) get the widened sigma instead of copies."""
    if model.limit_sigma or type(model) is not PlackettLuce:
        return model.rate(teams, ranks=ranks)
    tau_squared = model.tau * model.tau
    if in_place:
        for team in teams:
            for p in team:
                p.sigma = math.sqrt(p.sigma * p.sigma + tau_squared)
    else:
        teams = [
            [PlackettLuceRating(p.mu, math.sqrt(p.sigma * p.sigma + tau_squared)) for p in team]
            for team in teams
        ]
    ordered, tenet = _unwind(ranks, teams)
    result = model._compute(teams=ordered, ranks=sorted(ranks), scores=None, weights=None)
    return _unwind(tenet, result)[0]


class OpenSkillStream:
    """OpenSkill (Plackett-Luce, the package default) one game at a time."""

    def __init__(self, state: dict[Player, PlayerState] | None = None, model=None):
        self.model = model or PlackettLuce()
        self.state = dict(state or {})
        self._current = {
            p: self.model.rating(mu=s.mu, sigma=s.sigma, name=str(p))
            for p, s in self.state.items()
            if s.mu is not None and s.sigma is not None
        }

    def _rating(self, player: Player):
        return self._current.get(player) or self.model.rating(name=str(player))

    def feed(self, game: Game) -> list[Point]:
        model, current = self.model, self._current
        fresh = ordinal(model.mu, model.sigma)
        old = {p: ordinal(r.mu, r.sigma) for p in game.players if (r := current.get(p))}
        teams = [
            [current.get(p) or model.rating(name=str(p)) for p in game.team_a],
            [current.get(p) or model.rating(name=str(p)) for p in game.team_b],
        ]
        # the stream's own rating objects are replaced below: widen them in place
        rated = rate(model, teams, list(RANKS[game.outcome]), in_place=True)
        points = []
        for team_players, team_ratings in ((game.team_a, rated[0]), (game.team_b, rated[1])):
            for player, rating in zip(team_players, team_ratings, strict=True):
                current[player] = rating
                new = ordinal(rating.mu, rating.sigma)
                st = self.state.get(player)
                if st is None:
                    st = self.state[player] = PlayerState(new)
                st.value, st.mu, st.sigma = new, rating.mu, rating.sigma
                st.games += 1
                points.append(
                    Point(
                        player, game.id, game.played_on, new, new - old.get(player, fresh),
                        rating.mu, rating.sigma, st.games,
                    )
                )  # fmt: skip
        return points

    def close(self) -> list[Point]:
        return []


def stream_points(stream: EloStream | OpenSkillStream, games: Iterable[Game]) -> Iterator[Point]:
    """Every point of `games` fed to `stream` in order, the last period included."""
    for game in games:
        yield from stream.feed(game)
    yield from stream.close()

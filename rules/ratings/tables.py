"""League standings from aggregates: per player, per own team and opposing team, counts of
games, wins, draws, losses and VP. The table equals `compute_standings` over the games the
aggregates were summed from, whatever the number of games: every metric but the CC TORNEOS
one reads only the aggregates (that one ranks each round and is handed the round games).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rules.cc.tournament import handicap_vp
from rules.ratings.games import Game, Player
from rules.ratings.standings import (
    Context,
    PointsScheme,
    Standings,
    build_context,
    check_criteria,
    rank_rows,
    torneos_points,
)

RULE = "LEAGUE"


@dataclass
class Matchup:
    """One player's games in one team (`team`, him included) against one opposing team."""

    player: Player
    team: tuple[Player, ...]
    opponents: tuple[Player, ...]
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    vp: int = 0
    vp_boosted: int = 0


def key(players: Iterable[Player]) -> tuple[Player, ...]:
    return tuple(sorted(players))


def boosted(vp: int) -> int:
    """VP with the CC handicap bonus (EQUILIBRIO)."""
    return handicap_vp(vp).vp if vp >= 0 else vp


def contributions(game: Game) -> list[Matchup]:
    """What one game adds to each of its players' matchups (subtract it to take it away)."""
    out = []
    for team in ("a", "b"):
        own = game.team_a if team == "a" else game.team_b
        opp = game.team_b if team == "a" else game.team_a
        vp = getattr(game.cc, f"vp_{team}", None) if game.cc else None
        for p in own:
            s = game.score(p)
            out.append(
                Matchup(
                    p, key(own), key(opp), 1, int(s == 1.0), int(s == 0.5), int(s == 0.0),
                    vp or 0, boosted(vp) if vp is not None else 0,
                )
            )  # fmt: skip
    return out


def aggregate(games: Iterable[Game]) -> dict[tuple, Matchup]:
    """The matchups of many games, keyed by (player, team, opponents)."""
    rows: dict[tuple, Matchup] = {}
    for game in games:
        for c in contributions(game):
            k = (c.player, c.team, c.opponents)
            row = rows.get(k)
            if row is None:
                rows[k] = c
                continue
            for name in ("games", "wins", "draws", "losses", "vp", "vp_boosted"):
                setattr(row, name, getattr(row, name) + getattr(c, name))
    return rows


@dataclass
class Totals:
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    opponents: dict = field(default_factory=dict)  # opponent -> games against him
    matchups: list = field(default_factory=list)


@dataclass
class _Ctx:
    totals: dict[Player, Totals]
    scheme: PointsScheme
    handicapped: frozenset
    apply_handicap: bool
    torneos: Callable[[], dict[Player, float]]
    cache: dict = field(default_factory=dict)

    def memo(self, k, fn):
        if k not in self.cache:
            self.cache[k] = fn()
        return self.cache[k]


def _pts(scheme: PointsScheme, m) -> float:
    return m.wins * scheme.win + m.draws * scheme.draw + m.losses * scheme.loss


def _win_pct(ctx: _Ctx, p: Player) -> float:
    t = ctx.totals[p]
    return (t.wins + 0.5 * t.draws) / t.played if t.played else 0.0


def _mean_over_opponents(ctx: _Ctx, p: Player, fn) -> float:
    opps = ctx.totals[p].opponents
    n = sum(opps.values())
    return sum(c * fn(o) for o, c in opps.items()) / n if n else 0.0


def _owp(ctx: _Ctx, p: Player, group=frozenset()) -> float:
    return ctx.memo(("owp", p), lambda: _mean_over_opponents(ctx, p, lambda o: _win_pct(ctx, o)))


def _sos(ctx: _Ctx, p: Player, group) -> float:
    if not ctx.totals[p].opponents:
        return 0.0
    oowp = _mean_over_opponents(ctx, p, lambda o: _owp(ctx, o))
    return (2 * _owp(ctx, p) + oowp) / 3


def _buchholz(ctx: _Ctx, p: Player, group) -> float:
    return sum(c * ctx.totals[o].points for o, c in ctx.totals[p].opponents.items())


def _median_buchholz(ctx: _Ctx, p: Player, group) -> float:
    opps = ctx.totals[p].opponents
    if not opps:
        return 0.0
    total = _buchholz(ctx, p, group)
    if sum(opps.values()) >= 3:
        scores = [ctx.totals[o].points for o in opps]
        total -= min(scores) + max(scores)
    return total


def _h2h(ctx: _Ctx, p: Player, group) -> float:
    return sum(
        _pts(ctx.scheme, m) for m in ctx.totals[p].matchups if any(o in group for o in m.opponents)
    )


def _cc_vp(ctx: _Ctx, p: Player, group) -> float:
    def vp(m: Matchup) -> int:
        hc = ctx.apply_handicap and any(t in ctx.handicapped for t in m.team)
        return m.vp_boosted if hc else m.vp

    return sum(vp(m) for m in ctx.totals[p].matchups)


AGGREGATE_METRICS: dict[str, Callable[[_Ctx, Player, frozenset], float]] = {
    "points": lambda ctx, p, g: ctx.totals[p].points,
    "wins": lambda ctx, p, g: ctx.totals[p].wins,
    "owp": _owp,
    "sos": _sos,
    "buchholz": _buchholz,
    "median_buchholz": _median_buchholz,
    "h2h": _h2h,
    "cc_vp": _cc_vp,
    "cc_torneos": lambda ctx, p, g: ctx.memo("torneos", ctx.torneos).get(p, 0.0),
}
NEEDS_MATCHUPS = {"owp", "sos", "buchholz", "median_buchholz", "h2h", "cc_vp"}


def standings_from_matchups(
    matchups: Iterable[Matchup],
    *,
    players: Iterable[Player] = (),
    scheme: PointsScheme | None = None,
    criteria: Sequence[str] = ("points",),
    handicapped: Iterable[Player] = (),
    apply_handicap: bool = False,
    sort_key: Callable[[Player], object] = str,
    round_games: Sequence[Game] = (),
) -> Standings:
    """The table `compute_standings` gives, from matchups; `round_games` (only read for
    cc_torneos) are the games that have a round."""
    check_criteria(criteria, AGGREGATE_METRICS)
    scheme = scheme or PointsScheme()
    handicapped = frozenset(handicapped)
    totals: dict[Player, Totals] = {p: Totals() for p in players}
    for m in matchups:
        if m.games <= 0:
            continue
        t = totals.setdefault(m.player, Totals())
        t.played += m.games
        t.wins += m.wins
        t.draws += m.draws
        t.losses += m.losses
        t.matchups.append(m)
        for o in m.opponents:
            t.opponents[o] = t.opponents.get(o, 0) + m.games
    for t in totals.values():
        t.points = _pts(scheme, t)
    warnings: list[str] = []

    def torneos() -> dict[Player, float]:
        ctx: Context = build_context(
            round_games, (), scheme, handicapped=handicapped, apply_handicap=apply_handicap
        )
        points = torneos_points(ctx)
        warnings.extend(ctx.warnings)
        return points

    ctx = _Ctx(totals, scheme, handicapped, apply_handicap, torneos)
    rows = rank_rows(
        totals, criteria, lambda key, p, group: AGGREGATE_METRICS[key](ctx, p, group), sort_key
    )
    return Standings(rows, tuple(criteria), tuple(warnings))

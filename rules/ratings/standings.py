"""League standings: points, then an ordered choice of tie-breaks from a registry of metrics.

Every metric is a small function `(context, player, group) -> number`, higher is better.
`group` is the set of players still level when the metric is applied; only head-to-head
reads it. Players are ordered by the first criterion; each group still level is split by
the next one, and so on. Players level on every criterion share a rank.

Definitions (team games count each opponent faced):
- points: win/draw/loss points of the league's scheme.
- wins: games won.
- owp (opponents' win %): the mean, over opponents faced, of their (wins + ½ draws) / games.
- sos (strength of schedule): (2 × OWP + OOWP) / 3, OOWP being the mean OWP of opponents.
- buchholz: the sum of the points of every opponent faced.
- median_buchholz: Buchholz without the best and worst opponent (with three or more).
- h2h (head-to-head): points scored in games against players of the level group.
- cc_torneos: Combat Commander tournament points (TORNEOS), round by round.
- cc_vp: VP scored (Combat Commander), with the EQUILIBRIO +25 % when the handicap applies.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.cc.tournament import GameResult, WinType, handicap_vp, rank_round
from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.ratings.games import Game, Outcome, Player

RULE = "LEAGUE"


@dataclass(frozen=True)
class PointsScheme:
    win: float = 3.0
    draw: float = 1.0
    loss: float = 0.0


@dataclass
class Record:
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    opponents: list = field(default_factory=list)
    games: list = field(default_factory=list)


@dataclass
class Context:
    games: Sequence[Game]
    scheme: PointsScheme
    records: dict[Player, Record]
    handicapped: frozenset = frozenset()
    apply_handicap: bool = False
    warnings: list[str] = field(default_factory=list)
    cache: dict = field(default_factory=dict)

    def memo(self, key, fn: Callable[[], float]) -> float:
        if key not in self.cache:
            self.cache[key] = fn()
        return self.cache[key]


MetricFn = Callable[[Context, Player, frozenset], float]


@dataclass(frozen=True)
class Metric:
    key: str
    label: Msg  # a message id: the site renders it in the reader's language
    fn: MetricFn
    group_dependent: bool = False


METRICS: dict[str, Metric] = {}


def metric(key: str, label: Msg, *, group_dependent: bool = False):
    def register(fn: MetricFn) -> MetricFn:
        METRICS[key] = Metric(key, label, fn, group_dependent)
        return fn

    return register


@metric("points", msg("Points"))
def _points(ctx: Context, p: Player, group: frozenset) -> float:
    return ctx.records[p].points


@metric("wins", msg("Wins"))
def _wins(ctx: Context, p: Player, group: frozenset) -> float:
    return ctx.records[p].wins


def win_pct(ctx: Context, p: Player) -> float:
    r = ctx.records[p]
    return (r.wins + 0.5 * r.draws) / r.played if r.played else 0.0


@metric("owp", msg("Opponents' win %"))
def owp(ctx: Context, p: Player, group: frozenset = frozenset()) -> float:
    def compute() -> float:
        opps = ctx.records[p].opponents
        return sum(win_pct(ctx, o) for o in opps) / len(opps) if opps else 0.0

    return ctx.memo(("owp", p), compute)


@metric("sos", msg("Strength of schedule"))
def _sos(ctx: Context, p: Player, group: frozenset) -> float:
    opps = ctx.records[p].opponents
    if not opps:
        return 0.0
    oowp = sum(owp(ctx, o) for o in opps) / len(opps)
    return (2 * owp(ctx, p) + oowp) / 3


@metric("buchholz", msg("Buchholz"))
def _buchholz(ctx: Context, p: Player, group: frozenset) -> float:
    return sum(ctx.records[o].points for o in ctx.records[p].opponents)


@metric("median_buchholz", msg("Median-Buchholz"))
def _median_buchholz(ctx: Context, p: Player, group: frozenset) -> float:
    scores = sorted(ctx.records[o].points for o in ctx.records[p].opponents)
    if len(scores) >= 3:
        scores = scores[1:-1]
    return sum(scores)


@metric("h2h", msg("Head-to-head"), group_dependent=True)
def _h2h(ctx: Context, p: Player, group: frozenset) -> float:
    total = 0.0
    for g in ctx.records[p].games:
        if any(o in group for o in g.opponents(p)):
            total += points_for(ctx.scheme, g, p)
    return total


def _vp(ctx: Context, g: Game, team: str) -> int | None:
    vp = getattr(g.cc, f"vp_{team}", None) if g.cc else None
    players = g.team_a if team == "a" else g.team_b
    if vp is not None and ctx.apply_handicap and any(p in ctx.handicapped for p in players):
        vp = handicap_vp(vp).vp
    return vp


@metric("cc_vp", msg("VP (Combat Commander)"))
def _cc_vp(ctx: Context, p: Player, group: frozenset) -> float:
    return sum(_vp(ctx, g, g.team_of(p)) or 0 for g in ctx.records[p].games)


@metric("cc_torneos", msg("Tournament points (CC TORNEOS)"))
def _cc_torneos(ctx: Context, p: Player, group: frozenset) -> float:
    return ctx.memo("torneos", lambda: torneos_points(ctx)).get(p, 0.0)


def torneos_points(ctx: Context) -> dict[Player, float]:
    """TORNEOS points per player summed over rounds; a round that cannot be ranked (missing
    figures, a draw, a team game) scores nothing and leaves a warning."""
    rounds: dict[int, list[Game]] = defaultdict(list)
    for g in ctx.games:
        if g.round is not None:
            rounds[g.round].append(g)
    totals: dict[Player, float] = {}
    for number in sorted(rounds):
        try:
            results = [_game_result(ctx, g) for g in rounds[number]]
            ranking = rank_round(results)
        except RuleError as err:
            ctx.warnings.append(f"round {number}: {err.message}")
            continue
        for player, pts in ranking.points.items():
            totals[player] = totals.get(player, 0.0) + pts
    return totals


def _game_result(ctx: Context, g: Game) -> GameResult:
    if len(g.team_a) != 1 or len(g.team_b) != 1:
        raise RuleError("tournament rounds are two-player games", rule="TORNEOS")
    if g.outcome is Outcome.DRAW or g.cc is None or not g.cc.win_type:
        raise RuleError(f"game {g.id} needs a winner and a win type", rule="TORNEOS")
    try:
        win = WinType(g.cc.win_type)
    except ValueError:
        raise RuleError(f"unknown win type {g.cc.win_type!r}", rule="TORNEOS") from None
    w, lo = ("a", "b") if g.outcome is Outcome.A else ("b", "a")
    return GameResult(
        winner=(g.team_a if w == "a" else g.team_b)[0],
        loser=(g.team_a if lo == "a" else g.team_b)[0],
        win=win,
        time_space=g.cc.time_space,
        casualties=getattr(g.cc, f"casualties_{w}"),
        vp=_vp(ctx, g, w),
        objective_5_in_play=g.cc.objective_5_in_play,
    )


def points_for(scheme: PointsScheme, g: Game, p: Player) -> float:
    s = g.score(p)
    return scheme.win if s == 1.0 else scheme.draw if s == 0.5 else scheme.loss


@dataclass(frozen=True)
class Row:
    player: Player
    rank: int
    played: int
    wins: int
    draws: int
    losses: int
    points: float
    values: dict[str, float]
    tied: bool


@dataclass(frozen=True)
class Standings:
    rows: tuple[Row, ...]
    criteria: tuple[str, ...]
    warnings: tuple[str, ...] = ()


def build_context(
    games: Sequence[Game],
    players: Iterable[Player] = (),
    scheme: PointsScheme | None = None,
    *,
    handicapped: Iterable[Player] = (),
    apply_handicap: bool = False,
) -> Context:
    scheme = scheme or PointsScheme()
    records: dict[Player, Record] = {p: Record() for p in players}
    for g in games:
        for p in g.players:
            r = records.setdefault(p, Record())
            r.played += 1
            s = g.score(p)
            if s == 1.0:
                r.wins += 1
            elif s == 0.5:
                r.draws += 1
            else:
                r.losses += 1
            r.points += points_for(scheme, g, p)
            r.opponents.extend(g.opponents(p))
            r.games.append(g)
    return Context(games, scheme, records, frozenset(handicapped), apply_handicap)


def check_criteria(criteria: Sequence[str], known) -> None:
    unknown = [c for c in criteria if c not in known]
    if unknown or not criteria:
        raise RuleError(f"unknown tie-break {', '.join(unknown) or '(none)'}", rule=RULE)
    if len(set(criteria)) != len(criteria):
        raise RuleError("a tie-break is listed twice", rule=RULE)


def rank_rows(
    records: Mapping[Player, Any],
    criteria: Sequence[str],
    value: Callable[[str, Player, frozenset], float],
    sort_key: Callable[[Player], object],
) -> tuple[Row, ...]:
    """The table's rows: players split by each criterion in turn (a group-dependent one is
    computed within the group still tied); players still tied after the last share a rank.
    ``records`` give played, wins, draws, losses and points per player."""
    values: dict[Player, dict[str, float]] = {p: {} for p in records}
    groups: list[list[Player]] = [sorted(records, key=sort_key)]
    for key in criteria:
        split: list[list[Player]] = []
        for group in groups:
            members = frozenset(group)
            for p in group:
                values[p][key] = round(float(value(key, p, members)), 9)
            if len(group) == 1:
                split.append(group)
                continue
            for v in sorted({values[p][key] for p in group}, reverse=True):
                split.append([p for p in group if values[p][key] == v])
        groups = split
    rows, rank = [], 1
    for group in groups:
        for p in group:
            r = records[p]
            rows.append(
                Row(
                    p,
                    rank,
                    r.played,
                    r.wins,
                    r.draws,
                    r.losses,
                    r.points,
                    values[p],
                    len(group) > 1,
                )
            )
        rank += len(group)
    return tuple(rows)


def compute_standings(
    games: Sequence[Game],
    *,
    players: Iterable[Player] = (),
    scheme: PointsScheme | None = None,
    criteria: Sequence[str] = ("points",),
    handicapped: Iterable[Player] = (),
    apply_handicap: bool = False,
    sort_key: Callable[[Player], object] = str,
) -> Standings:
    """The league table; `players` adds participants who have not played yet."""
    check_criteria(criteria, METRICS)
    ctx = build_context(
        games, players, scheme, handicapped=handicapped, apply_handicap=apply_handicap
    )
    rows = rank_rows(
        ctx.records, criteria, lambda key, p, group: METRICS[key].fn(ctx, p, group), sort_key
    )
    return Standings(rows, tuple(criteria), tuple(ctx.warnings))

"""Tournament scoring [TORNEOS] and the handicap for a less experienced player [EQUILIBRIO].

TORNEOS: each round, winners rank above losers, by the magnitude of their win (Surrender,
control of Objective 5, VP, Initiative card, forfeit) and the tie-break of each category;
losers rank in reverse order of their opponents. A player scores 1 point per player ranked
below him and ½ per player tied with him. Concession is not allowed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.cc.generator.design import round_half_up
from rules.errors import RuleError
from rules.explain import Explanation
from rules.tables import Table

RULE = "TORNEOS"
BALANCE = "EQUILIBRIO"


class WinType(StrEnum):
    """How a game was won, as the tournament sorts it."""

    SURRENDER = "surrender"
    LAST_UNIT_ELIMINATED = "last_unit_eliminated"
    OBJECTIVE_5 = "objective_5"
    VP = "vp"
    INITIATIVE = "initiative"
    FORFEIT = "forfeit"
    CONCESSION = "concession"


WIN_CATEGORY = Table(
    id="torneos_win_category",
    rule=RULE,
    title="Magnitude of victory (1 = best)",
    rows={
        WinType.SURRENDER: 1,
        WinType.OBJECTIVE_5: 2,
        WinType.VP: 3,
        WinType.INITIATIVE: 4,
        WinType.FORFEIT: 5,
    },
)


@dataclass(frozen=True)
class GameResult:
    """One game of a round, from the winner's side.

    `time_space` is the Time marker's space at the end; `casualties` the winner's own units on
    the Casualty Track; `vp` the VP he obtained (VP wins); `objective_5_in_play` says
    Objective 5 was worth VP in this game (required for an Objective 5 win).
    """

    winner: str
    loser: str
    win: WinType
    time_space: int | None = None
    casualties: int | None = None
    vp: int | None = None
    objective_5_in_play: bool = False


@dataclass(frozen=True)
class TournamentOptions:
    """Readings of gaps in TORNEOS: the loss of the last unit on the map ends the game
    whatever the VP, like a surrender, so it ranks as one by default."""

    last_unit_eliminated_as: WinType = WinType.SURRENDER


@dataclass(frozen=True)
class RoundRanking:
    """Tiers best first (players in one tier are tied) and each player's points."""

    tiers: tuple[frozenset[str], ...]
    points: dict[str, float]
    explanation: Explanation


def _category(result: GameResult, options: TournamentOptions, exp: Explanation) -> WinType:
    win = result.win
    if win is WinType.CONCESSION:
        raise RuleError("abandoning a game is not allowed in a tournament", rule=RULE)
    if win is WinType.LAST_UNIT_ELIMINATED:
        win = exp.add(
            RULE,
            f"{result.winner}: last enemy unit eliminated ranks as",
            options.last_unit_eliminated_as,
        )
    if win is WinType.OBJECTIVE_5 and not result.objective_5_in_play:
        raise RuleError("an Objective 5 win needs Objective 5 in play (worth some VP)", rule=RULE)
    return win


def _tie_break(result: GameResult, win: WinType, exp: Explanation) -> tuple[int, ...]:
    """Lower is better: Time + own casualties; for VP wins, more VP then fewer casualties."""
    if win is WinType.FORFEIT:
        return ()
    needed = ("vp", "casualties") if win is WinType.VP else ("time_space", "casualties")
    missing = [name for name in needed if getattr(result, name) is None]
    if missing:
        raise RuleError(f"{result.winner}'s {win} win needs {', '.join(missing)}", rule=RULE)
    if win is WinType.VP:
        exp.add(RULE, f"{result.winner}: VP {result.vp}, own casualties {result.casualties}")
        return (-result.vp, result.casualties)
    total = exp.add(
        RULE,
        f"{result.winner}: Time {result.time_space} + own casualties {result.casualties}",
        result.time_space + result.casualties,
    )
    return (total,)


def rank_round(
    results: Sequence[GameResult], options: TournamentOptions | None = None
) -> RoundRanking:
    """Rank one round and give each player his points."""
    options = options or TournamentOptions()
    players = [p for r in results for p in (r.winner, r.loser)]
    if len(players) != len(set(players)):
        raise RuleError("each player plays one game per round", rule=RULE)
    exp = Explanation()
    keyed: dict[tuple[int, ...], list[GameResult]] = {}
    for result in results:
        win = _category(result, options, exp)
        key = (WIN_CATEGORY.lookup(win, exp), *_tie_break(result, win, exp))
        keyed.setdefault(key, []).append(result)
    winner_tiers = [keyed[key] for key in sorted(keyed)]
    tiers = [frozenset(r.winner for r in tier) for tier in winner_tiers]
    tiers += [frozenset(r.loser for r in tier) for tier in reversed(winner_tiers)]
    exp.add(RULE, "losers rank below all winners, in reverse order of their opponents")
    points: dict[str, float] = {}
    below = len(players)
    for tier in tiers:
        below -= len(tier)
        for player in sorted(tier):
            points[player] = exp.add(
                RULE,
                f"{player}: {below} ranked below, {len(tier) - 1} tied (½ each)",
                below + 0.5 * (len(tier) - 1),
            )
    return RoundRanking(tuple(tiers), points, exp)


@dataclass(frozen=True)
class Standings:
    """Total points, best first; `tied` groups players level on points (no tie-break given)."""

    totals: dict[str, float]
    order: tuple[str, ...]
    tied: tuple[frozenset[str], ...]
    explanation: Explanation = field(default_factory=Explanation)


def standings(rounds: Sequence[RoundRanking]) -> Standings:
    """The tournament winner has the most points after all rounds."""
    exp = Explanation()
    totals: dict[str, float] = {}
    for number, ranking in enumerate(rounds, start=1):
        for player, pts in ranking.points.items():
            totals[player] = totals.get(player, 0.0) + pts
        exp.add(RULE, f"after round {number}", dict(totals))
    order = tuple(sorted(totals, key=lambda p: (-totals[p], p)))
    groups: dict[float, set[str]] = {}
    for player, total in totals.items():
        groups.setdefault(total, set()).add(player)
    tied = tuple(frozenset(g) for _, g in sorted(groups.items(), reverse=True) if len(g) > 1)
    return Standings(totals, order, tied, exp)


# EQUILIBRIO ------------------------------------------------------------------------------------


class UnitCounting(StrEnum):
    """Whether "+25 % squads and teams" is taken over both together or each separately."""

    TOGETHER = "together"
    SEPARATELY = "separately"


@dataclass(frozen=True)
class Handicap:
    extra_leaders: int
    extra_squads_and_teams: int
    surrender_bonus: int
    surrender: int
    explanation: Explanation


def handicap(
    *,
    leaders: int,
    squads: int,
    teams: int,
    surrender: int,
    counting: UnitCounting = UnitCounting.TOGETHER,
) -> Handicap:
    """The less experienced player gets 50 % more similar leaders (rounded down), 25 % more
    squads and teams (rounded up), and half the added counters (rounded up) on his Surrender
    level."""
    for name, value in (
        ("leaders", leaders),
        ("squads", squads),
        ("teams", teams),
        ("surrender", surrender),
    ):
        if value < 0:
            raise RuleError(f"{name} cannot be negative ({value})", rule=BALANCE)
    exp = Explanation()
    extra_leaders = exp.add(BALANCE, f"50 % of {leaders} leaders, rounded down", leaders // 2)
    if counting is UnitCounting.TOGETHER:
        extra_units = exp.add(
            BALANCE,
            f"25 % of {squads} squads + {teams} teams, rounded up",
            math.ceil(Fraction(squads + teams, 4)),
        )
    else:
        extra_units = exp.add(
            BALANCE, f"25 % of {squads} squads, rounded up", math.ceil(Fraction(squads, 4))
        )
        extra_units += exp.add(
            BALANCE, f"25 % of {teams} teams, rounded up", math.ceil(Fraction(teams, 4))
        )
    added = extra_leaders + extra_units
    bonus = exp.add(
        BALANCE, f"50 % of {added} added counters, rounded up", math.ceil(Fraction(added, 2))
    )
    total = exp.add(BALANCE, f"Surrender {surrender} + {bonus}", surrender + bonus)
    return Handicap(extra_leaders, extra_units, bonus, total, exp)


@dataclass(frozen=True)
class HandicapVP:
    vp: int
    explanation: Explanation


def handicap_vp(vp: int) -> HandicapVP:
    """The less experienced player receives 25 % more VP: each VP gain he scores × 1.25, to the
    nearest whole number (a half up)."""
    if vp < 0:
        raise RuleError(f"the bonus applies to VP scored, not {vp}", rule=BALANCE)
    exp = Explanation()
    boosted = round_half_up(Fraction(vp) * Fraction(5, 4))
    return HandicapVP(
        exp.add(BALANCE, f"{vp} VP × 1.25, to the nearest whole number", boosted), exp
    )

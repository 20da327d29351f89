"""Scenario balance: each side's record per scenario with a Wilson 95 % interval."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import RuleError
from rules.ratings.games import Game, Outcome

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when nothing was observed."""
    if n < 0 or successes < 0 or successes > n:
        raise RuleError(f"{successes} successes out of {n} is not a proportion", rule="BALANCE")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class BalanceRow:
    scenario: str
    side: str
    plays: int
    wins: int
    losses: int
    draws: int
    win_pct: float
    low: float
    high: float
    few_plays: bool


def scenario_balance(games: Sequence[Game], *, min_plays: int = 10) -> list[BalanceRow]:
    """Wins, losses and draws per scenario and side; win % counts wins only (a draw is not a
    win) and its Wilson interval is over all plays. Rows with fewer than `min_plays` plays are
    flagged."""
    tally: dict[tuple[str, str], list[int]] = {}
    for g in games:
        for side, team in ((g.side_a or "A", "a"), (g.side_b or "B", "b")):
            wins, losses, draws = tally.setdefault((g.scenario, side), [0, 0, 0])
            if g.outcome is Outcome.DRAW:
                draws += 1
            elif g.outcome.value == team:
                wins += 1
            else:
                losses += 1
            tally[(g.scenario, side)] = [wins, losses, draws]
    rows = []
    for (scenario, side), (wins, losses, draws) in sorted(tally.items()):
        plays = wins + losses + draws
        low, high = wilson_interval(wins, plays)
        rows.append(
            BalanceRow(
                scenario,
                side,
                plays,
                wins,
                losses,
                draws,
                wins / plays,
                low,
                high,
                plays < min_plays,
            )
        )
    return rows

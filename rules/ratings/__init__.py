"""League arithmetic: standings with tie-break metrics, Elo, OpenSkill, scenario balance.

Pure Python (no Django): plain result tuples in, plain results out. The site's selectors
turn database rows into `Game` tuples and call these functions.
"""

from rules.ratings.balance import BalanceRow, scenario_balance, wilson_interval
from rules.ratings.elo import EloConfig, elo_run, elo_update, expected_score
from rules.ratings.games import CCDetail, Game, Outcome
from rules.ratings.skill import openskill_run
from rules.ratings.standings import METRICS, PointsScheme, Standings, compute_standings

__all__ = [
    "METRICS",
    "BalanceRow",
    "CCDetail",
    "EloConfig",
    "Game",
    "Outcome",
    "PointsScheme",
    "Standings",
    "compute_standings",
    "elo_run",
    "elo_update",
    "expected_score",
    "openskill_run",
    "scenario_balance",
    "wilson_interval",
]

"""The plain result tuple every computation in this package reads."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from rules.errors import RuleError

RULE = "LEAGUE"
Player = Hashable


class Outcome(StrEnum):
    """Which team won: team A, team B, or neither."""

    A = "a"
    B = "b"
    DRAW = "draw"


@dataclass(frozen=True)
class CCDetail:
    """What the Combat Commander tournament criteria (TORNEOS) read from a game.

    `win_type` is a `rules.cc.tournament.WinType` value; casualties are each team's own units
    on its Casualty Track; VP are the points each team obtained.
    """

    win_type: str = ""
    time_space: int | None = None
    vp_a: int | None = None
    vp_b: int | None = None
    casualties_a: int | None = None
    casualties_b: int | None = None
    objective_5_in_play: bool = False


@dataclass(frozen=True)
class Game:
    """One finished game between team A and team B (one or more players each)."""

    id: Hashable
    team_a: tuple[Player, ...]
    team_b: tuple[Player, ...]
    outcome: Outcome
    played_on: date | None = None
    round: int | None = None
    scenario: str = ""
    side_a: str = ""
    side_b: str = ""
    cc: CCDetail | None = None

    def __post_init__(self) -> None:
        if not self.team_a or not self.team_b:
            raise RuleError("a game needs at least one player on each team", rule=RULE)
        if set(self.team_a) & set(self.team_b):
            raise RuleError("a player cannot be on both teams", rule=RULE)
        if len(set(self.team_a)) != len(self.team_a) or len(set(self.team_b)) != len(self.team_b):
            raise RuleError("a player appears twice on one team", rule=RULE)

    @property
    def players(self) -> tuple[Player, ...]:
        return self.team_a + self.team_b

    def team_of(self, player: Player) -> str:
        return "a" if player in self.team_a else "b"

    def opponents(self, player: Player) -> tuple[Player, ...]:
        return self.team_b if player in self.team_a else self.team_a

    def score(self, player: Player) -> float:
        """1 for a win, ½ for a draw, 0 for a loss, from this player's point of view."""
        if self.outcome is Outcome.DRAW:
            return 0.5
        return 1.0 if self.outcome.value == self.team_of(player) else 0.0

"""What a battle procedure is to the site: its inputs, how it runs on the tracked state and
the exact odds of its rolls before they are made."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from campaigns.cc.battle.fields import Field
from rules.cc.battle.counters import CounterTable
from rules.cc.battle.state import BattleState
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import Msg


@dataclass(frozen=True)
class Context:
    """Who acts and what the procedure may read beside its inputs."""

    side: Faction
    state: BattleState
    counters: CounterTable | None = None
    this_turn: frozenset[tuple[str, str]] = frozenset()
    """(procedure, side) already resolved since the turn began (once-per-turn limits)."""
    names_side: bool = False
    """A game master or organiser, who says which side each action is for."""


@dataclass(frozen=True)
class Done:
    """A procedure's outcome: the new state, why, and one line for the log."""

    state: BattleState
    explanation: Explanation
    summary: Msg
    shown: tuple[Msg, ...] = ()  # the result in a few words, shown where the button was


@dataclass(frozen=True)
class Odds:
    label: Msg
    p: Fraction


@dataclass(frozen=True)
class Procedure:
    key: str
    title: Msg
    rule: str
    fields: tuple[Field, ...]
    run: Callable[[Mapping[str, Any], DiceSource, Context], Done]
    odds: Callable[[Mapping[str, Any], Context], list[Odds]] | None = None
    rolls: int = 0
    """At most this many Fate-card rolls (white and coloured die) it reads."""
    help: Msg | None = None

    @property
    def has_odds(self) -> bool:
        """Whether it rolls with odds to show (a template would call `odds` itself)."""
        return self.odds is not None

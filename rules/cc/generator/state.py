"""The scenario being generated [RS.1–RS.17]: one immutable state, updated step by step.

VP are one signed number, `vp_axis` (positive: the marker sits on the Axis side of "0").
A player who "pays" N VP moves the marker N spaces toward his opponent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rules.cc.common import Faction, Nation, Posture, Quality
from rules.cc.generator_tables import OrderOfBattle, SupportEntry
from rules.dice import RollRecord
from rules.explain import Decision, Explanation

OBJECTIVES = (1, 2, 3, 4, 5)


class MapEdge(StrEnum):
    """The map side nearest a player, from the compass direction pointing at him [RS.1]."""

    TOP = "top"
    RIGHT = "right"
    BOTTOM = "bottom"
    LEFT = "left"

    @property
    def opposite(self) -> MapEdge:
        return {
            MapEdge.TOP: MapEdge.BOTTOM,
            MapEdge.BOTTOM: MapEdge.TOP,
            MapEdge.LEFT: MapEdge.RIGHT,
            MapEdge.RIGHT: MapEdge.LEFT,
        }[self]


class Orientation(StrEnum):
    """ "Ancho" (wide: players across the 10-hex side) or "largo" (long: across 15 hexes)."""

    WIDE = "wide"
    LONG = "long"


@dataclass(frozen=True)
class SideState:
    """What one side has accumulated so far."""

    player: str = ""
    nation: Nation | None = None
    quality: Quality | None = None
    ob: OrderOfBattle | None = None
    leaders: tuple[str, ...] = ()
    support: tuple[SupportEntry, ...] = ()
    radio: SupportEntry | None = None
    fortifications: tuple[str, ...] = ()
    posture: Posture | None = None
    secret_objective: str | None = None
    setup_depth: int | None = None
    surrender: int | None = None
    hand_size: int | None = None
    deck: str | None = None


@dataclass(frozen=True)
class ScenarioState:
    """A random scenario in the making; every RS step returns an updated copy."""

    players: tuple[str, str]
    map_chooser: str | None = None
    map_id: str | None = None
    edges: Mapping[str, MapEdge] = field(default_factory=dict)
    orientation: Orientation | None = None
    year: int | None = None
    vp_axis: int = 0
    axis: SideState = field(default_factory=SideState)
    allies: SideState = field(default_factory=SideState)
    known_objective: str | None = None
    known_values: Mapping[int, int] = field(default_factory=dict)
    control: Mapping[int, Faction] = field(default_factory=dict)
    pending: Mapping[str, RollRecord] = field(default_factory=dict)
    done: frozenset[str] = frozenset()
    first_buyer: Faction | None = None
    time_space: int | None = None
    sudden_death: int | None = None
    mine_strength: int = 6
    initiative: Faction | None = None
    first_turn: Faction | None = None

    def side(self, faction: Faction) -> SideState:
        return self.axis if faction is Faction.AXIS else self.allies

    def with_side(self, faction: Faction, **changes: Any) -> ScenarioState:
        key = "axis" if faction is Faction.AXIS else "allies"
        return replace(self, **{key: replace(self.side(faction), **changes)})

    def faction_of(self, player: str) -> Faction:
        for faction in Faction:
            if self.side(faction).player == player:
                return faction
        raise KeyError(player)

    def other_player(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def vp(self, faction: Faction) -> int:
        """This side's VP: positive when the marker is on its side of "0"."""
        return self.vp_axis if faction is Faction.AXIS else -self.vp_axis

    def pay(self, faction: Faction, amount: int) -> ScenarioState:
        """Move the VP marker `amount` spaces toward the opponent of `faction`."""
        delta = -amount if faction is Faction.AXIS else amount
        return replace(self, vp_axis=self.vp_axis + delta)

    def ahead(self) -> Faction | None:
        """The side on whose side of "0" the VP marker sits, None on "0"."""
        if self.vp_axis == 0:
            return None
        return Faction.AXIS if self.vp_axis > 0 else Faction.ALLIES

    def known_vp(self, control: Mapping[int, Faction]) -> int:
        """The Known chit's VP under `control`, signed as `vp_axis` [7.3.3]."""
        total = 0
        for objective, value in self.known_values.items():
            owner = control.get(objective)
            if owner is not None:
                total += value if owner is Faction.AXIS else -value
        return total

    def with_roll(self, key: str, record: RollRecord) -> ScenarioState:
        return replace(self, pending={**self.pending, key: record})

    def finish(self, key: str, **changes: Any) -> ScenarioState:
        """Mark step `key` done and drop its stored roll."""
        pending = {k: v for k, v in self.pending.items() if k != key}
        return replace(self, pending=pending, done=self.done | {key}, **changes)


@dataclass(frozen=True)
class StepResult:
    """What one step returns: the new state, why, and any choice still owed."""

    state: ScenarioState
    explanation: Explanation
    decision: Decision | None = None

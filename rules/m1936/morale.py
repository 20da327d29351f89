"""Morale states and battalion morale (Section XI)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.serial import Serializable

STATE_RULE = "M36-XI.2"
BATTALION_RULE = "M36-XI.7"
PINNED_AT_MOST = 4


class UnitState(StrEnum):
    NORMAL = "Normal"
    PINNED = "Pinned"
    PANICKED = "Panicked"
    DESTROYED = "Destroyed"


def morale_state(morale: int) -> UnitState:
    """> 4 Normal, ≤ 4 Pinned, 0 Panicked; morale never goes below 0 (XI.1–2)."""
    if isinstance(morale, bool) or not isinstance(morale, int) or morale < 0:
        raise RuleError(
            msg("morale is a whole number ≥ 0, not %(morale)s", morale=str(morale)), rule=STATE_RULE
        )
    if morale == 0:
        return UnitState.PANICKED
    return UnitState.PINNED if morale <= PINNED_AT_MOST else UnitState.NORMAL


@dataclass(frozen=True)
class BattalionMorale(Serializable):
    total: int
    destroyed: int
    panicked: int
    broken: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def battalion_morale(states: Sequence[UnitState]) -> BattalionMorale:
    """The side breaks — its remaining forces retreat and the battle ends — when more than
    half of its units are destroyed or Panicked (XI.7). Pass every unit of the side."""
    states = [UnitState(s) for s in states]
    if not states:
        raise RuleError(msg("a side with no units has no battalion morale"), rule=BATTALION_RULE)
    exp = Explanation()
    destroyed = exp.add(BATTALION_RULE, msg("units destroyed"), states.count(UnitState.DESTROYED))
    panicked = exp.add(BATTALION_RULE, msg("units Panicked"), states.count(UnitState.PANICKED))
    broken = exp.add(
        BATTALION_RULE,
        msg(
            "%(v)s of %(v2)s out: more than half breaks the side",
            v=destroyed + panicked,
            v2=len(states),
        ),
        (destroyed + panicked) * 2 > len(states),
    )
    return BattalionMorale(len(states), destroyed, panicked, broken, exp)

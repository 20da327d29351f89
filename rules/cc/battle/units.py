"""The unit vocabulary shared by every battle procedure [2.3, 3.2, 13, E44, E58.1].

One `UnitKind` for all counters a battle names, its labels and figures, the side names, and
the unit changes the procedures return as plain data: which unit `Change`s how
(`UnitChange`), told in words by `change_text` and applied by `apply_change`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.cc.common import Faction
from rules.i18n import Msg, msg, nmsg


class UnitKind(StrEnum):
    SQUAD = "squad"
    TEAM = "team"
    LEADER = "leader"
    HERO = "hero"  # a Leader that gives no VP and never goes to the Casualty track [E58.1]
    WEAPON = "weapon"
    RADIO = "radio"


FIGURES: dict[UnitKind, int] = {
    UnitKind.SQUAD: 4,  # 2.3
    UnitKind.TEAM: 2,
    UnitKind.LEADER: 1,
    UnitKind.HERO: 1,  # E58.1: a Hero is a Leader in every other respect
}
SOLDIERS = frozenset(FIGURES)
"""Kinds that are units (they have soldier figures); Weapons and Radios are markers [glossary]."""
LEADERS = frozenset({UnitKind.LEADER, UnitKind.HERO})  # E58.1

KIND_LABELS: dict[UnitKind, Msg] = {
    UnitKind.SQUAD: msg("Squad"),
    UnitKind.TEAM: msg("Team"),
    UnitKind.LEADER: msg("Leader"),
    UnitKind.HERO: msg("Hero"),
    UnitKind.WEAPON: msg("Weapon"),
    UnitKind.RADIO: msg("Radio"),
}
SIDE_LABELS: dict[Faction, Msg] = {Faction.AXIS: msg("Axis"), Faction.ALLIES: msg("Allies")}


@dataclass(frozen=True)
class Unit:
    """A unit as the players describe it: counter name, owner, hex and markers [3.2, 13, E44]."""

    name: str
    owner: Faction
    kind: UnitKind = UnitKind.SQUAD
    broken: bool = False
    suppressed: bool = False
    veteran: bool = False
    eliminated: bool = False
    hex: str = ""
    weapon: str = ""


class Change(StrEnum):
    BREAK = "break"  # good order → broken; broken → eliminated [3.2.4]
    SUPPRESS = "suppress"  # [13.1]
    UNSUPPRESS = "unsuppress"  # [13.3]
    RALLY = "rally"  # broken → good order, markers kept [3.2.2, 3.2.5]
    ELIMINATE = "eliminate"
    VETERAN = "veteran"  # [E44.1]
    RETREAT = "retreat"  # `hexes` hexes toward the friendly edge [O23.3]


CHANGE_WORDS: dict[Change, Msg] = {
    Change.BREAK: msg("breaks"),
    Change.SUPPRESS: msg("is suppressed"),
    Change.UNSUPPRESS: msg("loses its Suppressed marker"),
    Change.RALLY: msg("rallies"),
    Change.ELIMINATE: msg("is eliminated"),
    Change.VETERAN: msg("becomes Veteran"),
    Change.RETREAT: msg("retreats"),
}


@dataclass(frozen=True)
class UnitChange:
    unit: str
    change: Change
    rule: str
    hexes: int = 0


def change_text(change: UnitChange) -> Msg:
    if change.change is Change.RETREAT:
        return nmsg(
            "%(unit)s retreats %(n)s hex",
            "%(unit)s retreats %(n)s hexes",
            change.hexes,
            unit=change.unit,
        )
    return msg("%(unit)s %(what)s", unit=change.unit, what=CHANGE_WORDS[change.change])


def apply_change(unit: Unit, change: Change, *, v19: bool = False) -> Unit:
    """A unit after one change [2.20]; a retreat moves it and leaves its state alone.

    Elimination drops the Veteran and Suppressed markers [13.3, E44.1]. With V19 a Suppressed
    unit suppressed again loses the marker and breaks [13.2]."""
    if unit.eliminated:
        return unit
    if change is Change.BREAK:
        if unit.broken:
            return replace(unit, eliminated=True, suppressed=False, veteran=False)
        return replace(unit, broken=True)
    if change is Change.SUPPRESS:
        if unit.suppressed and v19:
            return apply_change(replace(unit, suppressed=False), Change.BREAK)
        return replace(unit, suppressed=True)
    if change is Change.ELIMINATE:
        return replace(unit, eliminated=True, suppressed=False, veteran=False)
    fields = {
        Change.UNSUPPRESS: {"suppressed": False},
        Change.RALLY: {"broken": False},
        Change.VETERAN: {"veteran": True},
        Change.RETREAT: {},
    }[change]
    return replace(unit, **fields)

"""Vocabulary shared by every Combat Commander procedure."""

from __future__ import annotations

from enum import StrEnum

from rules.dice import DiceSource, RollRecord


class Quality(StrEnum):
    ELITE = "elite"
    LINE = "line"
    GREEN = "green"


class Posture(StrEnum):
    """Posture and its hand size [1.1, RS.15, PA-17]."""

    ATTACK = "attack"
    RECON = "recon"
    DEFEND = "defend"
    BANZAI = "banzai"
    INVADER = "invader"

    @property
    def hand_size(self) -> int:
        return {"attack": 6, "recon": 5, "defend": 4, "banzai": 3, "invader": 7}[self.value]


class Faction(StrEnum):
    AXIS = "axis"
    ALLIES = "allies"

    @property
    def other(self) -> Faction:
        return Faction.ALLIES if self is Faction.AXIS else Faction.AXIS


class Nation(StrEnum):
    """The six nationalities of RS.2 (Mediterranean ones stand for several nations)."""

    GERMANY = "germany"
    ITALY = "italy"
    USA = "usa"
    BRITAIN = "britain"
    FRANCE = "france"
    RUSSIA = "russia"

    @property
    def faction(self) -> Faction:
        return Faction.AXIS if self in (Nation.GERMANY, Nation.ITALY) else Faction.ALLIES


def roll(dice: DiceSource, *, purpose: str, rule: str) -> RollRecord:
    """A Combat Commander roll: the two dice of a Fate card, white and coloured, summed."""
    return dice.roll("2d6", purpose=purpose, rule=rule)


def white_die(dice: DiceSource, *, purpose: str, rule: str) -> tuple[int, RollRecord]:
    """A roll read on the white die only ("sólo dado blanco")."""
    record = dice.roll("2d6", purpose=purpose, rule=rule)
    return record.die("white"), record

"""HOUSE RULES — not in the "1936" rulebook, which does not say what carries over between the
battles of a campaign. Every option is off by default: by the rulebook alone each battle
starts with units as bought. Explanation steps carry the rule id "HOUSE-…".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.explain import Explanation
from rules.serial import Serializable

RULE = "HOUSE-M36-carry-over"


@dataclass(frozen=True)
class HouseRules(Serializable):
    """Campaign house rules for carrying unit and vehicle condition between battles."""

    carry_casualties: bool = False
    carry_decimation: bool = False
    carry_vehicle_damage: bool = False
    carry_destroyed: bool = False

    label: str = field(default="House rules (not in the 1936 rulebook)", init=False)


@dataclass(frozen=True)
class UnitCondition(Serializable):
    """A unit's condition at the end of a battle (or at the start of the next)."""

    casualties: int = 0
    decimated: bool = False
    destroyed: bool = False
    structure_lost: int = 0
    armour_degraded: dict[str, int] = field(default_factory=dict)
    damage: tuple[str, ...] = ()


@dataclass(frozen=True)
class CarryOver(Serializable):
    condition: UnitCondition
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def carry_over(after: UnitCondition, house: HouseRules = HouseRules()) -> CarryOver:
    """The condition a unit starts its next battle with under the chosen house rules."""
    exp = Explanation()

    def keep(option: bool, what: str, value: object, fresh: object) -> object:
        kept = value if option else fresh
        exp.add(f"{RULE}:{what}", f"{what} {'carried over' if option else 'reset'}", kept)
        return kept

    condition = UnitCondition(
        casualties=keep(house.carry_casualties, "casualties", after.casualties, 0),
        decimated=keep(house.carry_decimation, "decimation", after.decimated, False),
        destroyed=keep(house.carry_destroyed, "destroyed", after.destroyed, False),
        structure_lost=keep(house.carry_vehicle_damage, "structure lost", after.structure_lost, 0),
        armour_degraded=keep(
            house.carry_vehicle_damage, "armour degraded", dict(after.armour_degraded), {}
        ),
        damage=keep(house.carry_vehicle_damage, "vehicle damage", after.damage, ()),
    )
    return CarryOver(condition, exp)

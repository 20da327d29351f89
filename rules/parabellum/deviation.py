"""Deviation of an explosive marker: distance by dice, direction on a clock face (§2, §6.4, §7.2).

The seed leaves the random-direction method free and recommends a clock-face template with a
D12; the engine rolls that D12. A 3D6 deviation (artillery, STONK) that rolls a triple does not
deviate at all (§7.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice import DiceSource, Distribution, RollRecord
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum.rolls import roll_3d6

DeviationDice = Literal["3d6", "2d6", "1d6", "1d6+2"]


def deviation_distribution(expr: DeviationDice) -> Distribution:
    """Exact distribution of the deviation distance in cm."""
    if expr == "3d6":
        return Distribution.of("3d6", read=lambda f: 0 if len(set(f)) == 1 else sum(f))
    if expr == "1d6+2":
        return Distribution.of("d6", modifier=2)
    return Distribution.of("2d6" if expr == "2d6" else "d6")


@dataclass
class Deviation:
    dice: DeviationDice
    distance_cm: int
    direction: int | None
    odds: Distribution
    explanation: Explanation
    roll: RollRecord


def roll_deviation(
    expr: DeviationDice, dice: DiceSource, *, rule: str, ex: Explanation
) -> Deviation:
    """Roll how far (and, when it moves, which clock hour) the marker deviates."""
    purpose = f"deviation {expr} cm"
    if expr == "3d6":
        record = roll_3d6(dice, purpose=purpose, rule=rule)
    else:
        record = dice.roll("d6" if expr == "1d6+2" else expr, purpose=purpose, rule=rule)
    distance = record.value + (2 if expr == "1d6+2" else 0)
    if expr == "3d6" and record.is_triple:
        distance = ex.add(
            "7.2", msg("triple on the 3D6 deviation: the marker does not move"), 0, roll=record
        )
    else:
        ex.add(rule, msg("deviation %(dice)s cm", dice=expr.upper()), distance, roll=record)
    direction = None
    if distance:
        d12 = dice.roll("d12", purpose=msg("deviation direction (clock hour)"), rule="2")
        direction = ex.add("2", msg("direction: D12 on a clock-face template"), d12.value, roll=d12)
    return Deviation(expr, distance, direction, deviation_distribution(expr), ex, record)

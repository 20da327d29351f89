"""The medic (§8.3.2): downed soldiers, tending the wounded, and the end-of-turn clean-up.

A friend eliminated within 20 cm of the medic is laid down ("tumbado") instead of removed; it
counts as eliminated. The medic, touching it, having made and making no attack, with no
non-suppressed enemy within 20 cm in LoS, tends one soldier a turn (0 PA): 3D6, 11+ stands it
up suppressed (it rests until next turn), 10- removes it. At the end of each turn, downed
soldiers more than 20 cm from the medic are removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource, Distribution, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum.rolls import roll_3d6
from rules.serial import Serializable

MEDIC_REACH_CM = 20
TEND_NEEDED = 11
Fall = Literal["downed", "eliminated"]


def falls(*, medic_alive: bool, medic_distance_cm: float | None) -> Fall:
    """What becomes of an eliminated friend: downed within 20 cm of a living medic."""
    if medic_alive and medic_distance_cm is not None and medic_distance_cm <= MEDIC_REACH_CM:
        return "downed"
    return "eliminated"


def tend_check(
    *,
    medic_touching: bool,
    medic_attacked_this_activation: bool,
    enemy_threat: bool,
    tended_this_turn: bool,
) -> Explanation:
    """Whether the medic may tend now; `enemy_threat`: a non-suppressed enemy within 20 cm of
    the medic and in its LoS."""
    if tended_this_turn:
        raise RuleError(msg("the medic tends one soldier per turn"), rule="8.3.2")
    if not medic_touching:
        raise RuleError(msg("the medic must touch the downed soldier"), rule="8.3.2")
    if medic_attacked_this_activation:
        raise RuleError(msg("a medic who tends the wounded makes no attack"), rule="8.3.2")
    if enemy_threat:
        raise RuleError(
            msg("no tending with a non-suppressed enemy within 20 cm in line of sight"),
            rule="8.3.2",
        )
    ex = Explanation()
    ex.add("8.3.2", msg("the medic may tend the downed soldier (0 PA)"))
    return ex


@dataclass(frozen=True)
class MedicResult(Serializable):
    """`stands_up`: the soldier is back, suppressed, and rests until next turn; else removed."""

    roll: RollRecord
    stands_up: bool
    odds: Fraction
    explanation: Explanation = field(default_factory=Explanation)


def tend_odds() -> Fraction:
    """P(3D6 ≥ 11)."""
    return Distribution.of("3d6").p_at_least(TEND_NEEDED)


def tend(dice: DiceSource) -> MedicResult:
    ex = Explanation()
    record = roll_3d6(dice, purpose=msg("medic tends the wounded"), rule="8.3.2")
    ex.add("8.3.2", msg("tending roll (11+)"), record.value, roll=record)
    up = record.value >= TEND_NEEDED
    ex.add(
        "8.3.2",
        msg("superficial wound: the soldier stands up suppressed and rests until next turn")
        if up
        else msg("grave wound: the soldier is removed"),
        up,
    )
    return MedicResult(record, up, tend_odds(), ex)


def end_of_turn_removals(downed: dict[str, float | None]) -> list[str]:
    """Downed soldiers to remove at the end of the turn: more than 20 cm from the medic, or
    with no medic left (distance None)."""
    return [sid for sid, d in downed.items() if d is None or d > MEDIC_REACH_CM]

"""The Parabellum roll: 3D6 summed, where a triple matters (§2, §6.2.3, §6.2.4, §6.3 C).

`roll_3d6` insists on the three faces, since a bare total cannot tell 2-2-2 from 1-2-3.
`outcomes()` is the exact distribution of (sum, is_triple), built with `Distribution`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Literal

from rules.dice import DiceSource, Distribution, RollRecord
from rules.errors import DiceError
from rules.i18n import Msg, msg

Outcome = Literal["unharmed", "suppressed", "eliminated"]
OUTCOMES: tuple[Outcome, ...] = ("unharmed", "suppressed", "eliminated")


def roll_3d6(dice: DiceSource, *, purpose: str | Msg, rule: str) -> RollRecord:
    record = dice.roll("3d6", purpose=purpose, rule=rule)
    if not record.faces:
        raise DiceError(
            msg(
                "enter the three dice of the %(purpose)s roll, not only the total: a triple "
                "changes the result",
                purpose=purpose,
            ),
            rule=rule,
        )
    return record


@cache
def outcomes() -> tuple[tuple[int, bool, Fraction], ...]:
    """Every 3D6 result as (sum, is_triple, probability); the triple flag rides in the low bit."""
    dist = Distribution.of("3d6", read=lambda f: sum(f) * 2 + (len(set(f)) == 1))
    return tuple((v // 2, bool(v % 2), p) for v, p in dist.probs)


def tally(pairs: list[tuple[Outcome, Fraction]]) -> dict[Outcome, Fraction]:
    """Sum probabilities per outcome, listing every outcome (zero when impossible)."""
    acc = dict.fromkeys(OUTCOMES, Fraction(0))
    for outcome, p in pairs:
        acc[outcome] += p
    return acc


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"

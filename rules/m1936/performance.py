"""The performance roll ("Tirada de Desempeño").

The rulebook never says which dice it uses nor how Ventaja (advantage, including quality's
Ventaja ±) changes it, so the engine never rolls it: the player enters the result R, already
including any advantage, and procedures take R as an input.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg


def performance_result(
    value: object, *, purpose: str | Msg, rule: str, explanation: Explanation
) -> int:
    """Check an entered R (a signed whole number) and record it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            msg(
                "the performance roll for %(purpose)s is a whole number entered by the player, not %(value)s",
                purpose=purpose,
                value=str(value),
            ),
            rule=rule,
        )
    return explanation.add(
        rule,
        msg(
            "performance roll for %(purpose)s, entered by the player (R, advantage included)",
            purpose=purpose,
        ),
        value,
    )

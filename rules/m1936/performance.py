"""The performance roll ("Tirada de Desempeño").

The rulebook never says which dice it uses nor how Ventaja (advantage, including quality's
Ventaja ±) changes it, so the engine never rolls it: the player enters the result R, already
including any advantage, and procedures take R as an input.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.explain import Explanation


def performance_result(value: object, *, purpose: str, rule: str, explanation: Explanation) -> int:
    """Check an entered R (a signed whole number) and record it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            f"the performance roll for {purpose} is a whole number entered by the player, "
            f"not {value!r}",
            rule=rule,
        )
    return explanation.add(
        rule,
        f"performance roll for {purpose}, entered by the player (R, advantage included)",
        value,
    )

"""Domain errors raised by the rules engine. Each names the rule it enforces."""

from __future__ import annotations

from rules.i18n import Msg


class RuleError(ValueError):
    """An input breaks a rule; `rule` is the rule id (for example "ST-C3.3")."""

    def __init__(self, message: str, *, rule: str = "") -> None:
        self.rule = rule
        super().__init__(f"[{rule}] {message}" if rule else message)
        self.message = message


class DiceError(RuleError):
    """A roll value entered by a player is impossible for the roll kind."""


class RollNeeded(DiceError):
    """Players roll at the table and have not yet entered this roll: ask them for it."""

    def __init__(self, kind: str, purpose: str | Msg, rule: str = "") -> None:
        self.kind = kind
        self.purpose = purpose
        super().__init__(f"no entered roll left for {purpose} ({kind})", rule=rule)


class TableDataError(RuleError):
    """User-supplied table data does not match the table's schema.

    `problems` lists every violation as (path, message) so a form can show them all.
    """

    def __init__(self, problems: list[tuple[str, str]], *, rule: str = "") -> None:
        self.problems = problems
        text = "; ".join(f"{path}: {msg}" if path else str(msg) for path, msg in problems)
        super().__init__(text, rule=rule)

"""Explanations and pending decisions returned by every procedure."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules.dice import RollRecord
from rules.i18n import Msg


@dataclass(frozen=True)
class Step:
    """One reason in an explanation: the rule applied, what happened, the value it gave.

    `text` is a message (`rules.i18n.msg`) the site renders in the reader's language; a
    plain string is shown as it is."""

    rule: str
    text: str | Msg
    value: Any = None
    roll: RollRecord | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        roll = data.get("roll")
        return cls(
            data["rule"],
            Msg.from_dict(data["msg"]) if data.get("msg") else data["text"],
            data.get("value"),
            RollRecord.from_dict(roll) if roll else None,
        )

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"rule": self.rule, "text": str(self.text)}
        if isinstance(self.text, Msg):
            data["msg"] = self.text.as_dict()
        if self.value is not None:
            data["value"] = self.value
        if self.roll is not None:
            data["roll"] = self.roll.as_dict()
        return data


@dataclass
class Explanation:
    """An ordered list of steps; procedures append to it as they work."""

    steps: list[Step] = field(default_factory=list)

    def add(
        self, rule: str, text: str | Msg, value: Any = None, roll: RollRecord | None = None
    ) -> Any:
        """Record a step and return `value`, so look-ups can be written inline."""
        self.steps.append(Step(rule, text, value, roll))
        return value

    def extend(self, other: Explanation | Iterable[Step]) -> None:
        self.steps.extend(other.steps if isinstance(other, Explanation) else other)

    @property
    def rolls(self) -> list[RollRecord]:
        return [s.roll for s in self.steps if s.roll is not None]

    def as_list(self) -> list[dict[str, Any]]:
        return [s.as_dict() for s in self.steps]

    @classmethod
    def from_list(cls, data: Iterable[dict[str, Any]]) -> Explanation:
        return cls([Step.from_dict(s) for s in data])

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __str__(self) -> str:
        lines = []
        for s in self.steps:
            val = "" if s.value is None else f" → {s.value}"
            lines.append(f"[{s.rule}] {s.text}{val}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Decision:
    """A choice the engine will not guess: who must choose, among which legal options.

    A procedure that needs a player's choice returns (or raises `DecisionRequired` with) one
    of these when the choice is missing; the caller asks exactly that player and calls again.
    A multiple choice (several options at once) sets `min_choices` and/or `max_choices`.
    """

    key: str
    rule: str
    prompt: str | Msg
    options: tuple[Any, ...]
    chooser: str = ""
    min_choices: int | None = None
    max_choices: int | None = None

    @property
    def is_multiple(self) -> bool:
        """Answered with a list of options (between min_choices and max_choices of them)."""
        return self.min_choices is not None or self.max_choices is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rule": self.rule,
            "prompt": str(self.prompt),
            **({"prompt_msg": self.prompt.as_dict()} if isinstance(self.prompt, Msg) else {}),
            "options": list(self.options),
            "chooser": self.chooser,
            "min_choices": self.min_choices,
            "max_choices": self.max_choices,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        """Rebuild from `as_dict` output (JSON turns option tuples into lists)."""
        options = tuple(tuple(o) if isinstance(o, list) else o for o in data["options"])
        return cls(
            data["key"],
            data["rule"],
            Msg.from_dict(data["prompt_msg"]) if data.get("prompt_msg") else data["prompt"],
            options,
            data.get("chooser", ""),
            data.get("min_choices"),
            data.get("max_choices"),
        )


class DecisionRequired(Exception):
    """Raised when a procedure cannot continue without `decision` being answered."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        super().__init__(f"[{decision.rule}] {decision.prompt}")

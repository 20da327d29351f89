"""Dice: roll kinds, three interchangeable sources, roll records and exact odds.

A `RollKind` says which dice are thrown and how they are read: summed (2d6, 3d6 …) or read
as tens and units (TCS's d66: red die tens, white die units, 11..66). Dice carry labels so a
procedure can read one die alone (Combat Commander's "white die only").

Sources share one method, `roll(kind, purpose=..., rule=...)`, and return a `RollRecord`:

- `ServerDice` rolls with the operating system's cryptographic RNG;
- `EnteredDice` replays values players rolled at the table, validated per kind;
- `SeededDice` is a deterministic replay for tests and simulations.

`Distribution` enumerates outcomes exactly (fractions, no sampling) so odds can be shown
before a roll: `Distribution.of("2d6").p_at_least(8)`, or
`Distribution.of("3d6", modifier=2).p_greater_than(Distribution.of("3d6"))`.
"""

from __future__ import annotations

import itertools
import random
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Literal, Protocol

from rules.errors import DiceError, RollNeeded
from rules.i18n import Msg

Reading = Literal["sum", "tens_units"]


@dataclass(frozen=True)
class RollKind:
    """Which dice are thrown and how their faces become a value."""

    name: str
    sides: tuple[int, ...]
    labels: tuple[str, ...]
    reading: Reading = "sum"

    def value(self, faces: Sequence[int]) -> int:
        if self.reading == "tens_units":
            return faces[0] * 10 + faces[1]
        return sum(faces)

    @property
    def minimum(self) -> int:
        return self.value([1] * len(self.sides))

    @property
    def maximum(self) -> int:
        return self.value(self.sides)

    def outcomes(self) -> Iterable[tuple[int, ...]]:
        """Every equiprobable tuple of faces."""
        return itertools.product(*(range(1, s + 1) for s in self.sides))

    def faces_for(self, value: int) -> tuple[int, ...] | None:
        """The faces an entered value stands for, when they are determined by it."""
        if len(self.sides) == 1:
            return (value,)
        if self.reading == "tens_units":
            return divmod(value, 10)
        return None

    def check_faces(self, faces: Sequence[int]) -> tuple[int, ...]:
        if len(faces) != len(self.sides):
            raise DiceError(
                f"{self.name} needs {len(self.sides)} dice ({', '.join(self.labels)}), "
                f"got {len(faces)}"
            )
        for face, sides, label in zip(faces, self.sides, self.labels, strict=True):
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
                die = label if label.startswith("die") else f"{label} die"  # "die 3", "red die"
                raise DiceError(
                    f"{die} of the {self.name} must show 1 to {sides}; {face!r} is not on it"
                )
        return tuple(faces)

    def check_value(self, value: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DiceError(f"a {self.name} roll is a whole number, not {value!r}")
        if self.reading == "tens_units":
            tens, units = divmod(value, 10)
            if not (1 <= tens <= self.sides[0] and 1 <= units <= self.sides[1]):
                raise DiceError(
                    f"a {self.name} roll reads two dice as tens and units (11 to 66, each digit "
                    f"1 to 6), not {value}"
                )
        elif not self.minimum <= value <= self.maximum:
            raise DiceError(
                f"a {self.name} roll totals {self.minimum} to {self.maximum}, not {value}"
            )
        return value


def _kind(name: str, sides: int, count: int, labels: Sequence[str] = ()) -> RollKind:
    labels = tuple(labels) or tuple(f"die {i + 1}" if count > 1 else "die" for i in range(count))
    return RollKind(name, (sides,) * count, labels)


D3 = _kind("d3", 3, 1)
D6 = _kind("d6", 6, 1)
D8 = _kind("d8", 8, 1)
D10 = _kind("d10", 10, 1)
D12 = _kind("d12", 12, 1)
D20 = _kind("d20", 20, 1)
TWO_D6 = _kind("2d6", 6, 2, ("white", "coloured"))
THREE_D6 = _kind("3d6", 6, 3)
FOUR_D6 = _kind("4d6", 6, 4)
D66 = RollKind("d66", (6, 6), ("red", "white"), "tens_units")

KINDS: dict[str, RollKind] = {
    k.name: k for k in (D3, D6, D8, D10, D12, D20, TWO_D6, THREE_D6, FOUR_D6, D66)
}
_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")


@cache
def kind(name: str | RollKind) -> RollKind:
    """Resolve a kind by name: the named kinds above, or any `NdS` (for example "5d6")."""
    if isinstance(name, RollKind):
        return name
    key = name.strip().lower()
    if key in KINDS:
        return KINDS[key]
    match = _EXPR.match(key)
    if not match:
        raise DiceError(f"unknown roll kind {name!r}; use forms like d6, 2d6, 3d6 or d66")
    count, sides = int(match.group(1) or 1), int(match.group(2))
    if not (1 <= count <= 20 and 2 <= sides <= 100):
        raise DiceError(f"roll kind {name!r} is out of range (1-20 dice of 2-100 sides)")
    return _kind(f"{count}d{sides}" if count > 1 else f"d{sides}", sides, count)


Source = Literal["server", "entered", "replay"]


@dataclass(frozen=True)
class RollRecord:
    """One roll, ready to be logged: what it was for, under which rule, faces and value.

    `faces` is empty when a player entered only the total of a summed roll.
    """

    kind: str
    purpose: str | Msg
    rule: str
    faces: tuple[int, ...]
    value: int
    source: Source

    def die(self, label: str) -> int:
        """The face of one labelled die (for example `die("white")` in Combat Commander)."""
        spec = kind(self.kind)
        if label not in spec.labels:
            raise DiceError(f"a {self.kind} has no {label} die (dice: {', '.join(spec.labels)})")
        if not self.faces:
            raise DiceError(f"the {label} die of this {self.kind} was not entered, only its total")
        return self.faces[spec.labels.index(label)]

    @property
    def is_triple(self) -> bool:
        """All of three dice show the same face (Parabellum's critical and heroic evasion)."""
        return len(self.faces) == 3 and len(set(self.faces)) == 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "purpose": str(self.purpose),
            **({"purpose_msg": self.purpose.as_dict()} if isinstance(self.purpose, Msg) else {}),
            "rule": self.rule,
            "faces": list(self.faces),
            "value": self.value,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollRecord:
        return cls(
            kind=data["kind"],
            purpose=(
                Msg.from_dict(data["purpose_msg"]) if data.get("purpose_msg") else data["purpose"]
            ),
            rule=data["rule"],
            faces=tuple(data.get("faces") or ()),
            value=data["value"],
            source=data["source"],
        )


class DiceSource(Protocol):
    def roll(self, kind: str | RollKind, *, purpose: str | Msg, rule: str = "") -> RollRecord: ...


@dataclass
class _FaceRoller:
    """Shared body of the sources that draw faces from a random integer function."""

    source: Source = field(init=False)
    history: list[RollRecord] = field(default_factory=list, init=False)

    def _face(self, sides: int) -> int:
        raise NotImplementedError

    def roll(self, kind_: str | RollKind, *, purpose: str | Msg, rule: str = "") -> RollRecord:
        spec = kind(kind_)
        faces = tuple(self._face(s) for s in spec.sides)
        record = RollRecord(spec.name, purpose, rule, faces, spec.value(faces), self.source)
        self.history.append(record)
        return record


@dataclass
class ServerDice(_FaceRoller):
    """The server rolls, with the operating system's cryptographic RNG."""

    def __post_init__(self) -> None:
        self.source = "server"

    def _face(self, sides: int) -> int:
        return secrets.randbelow(sides) + 1


@dataclass
class SeededDice(_FaceRoller):
    """A deterministic replay from a seed, for tests and what-if simulations."""

    seed: int = 0

    def __post_init__(self) -> None:
        self.source = "replay"
        self._rng = random.Random(self.seed)

    def _face(self, sides: int) -> int:
        return self._rng.randint(1, sides)


Entry = int | Sequence[int]


class EnteredDice:
    """Values rolled at the table, consumed in order and validated against each roll's kind.

    An entry is either the faces (`(3, 4)`) or a single value: a d6 face, a summed total, or
    a d66 reading such as 34. A procedure that must read one die of a summed roll refuses a
    bare total with a clear error when it asks for that die.
    """

    source: Source = "entered"

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self._entries: list[Entry] = list(entries)
        self.history: list[RollRecord] = []

    def push(self, *entries: Entry) -> None:
        self._entries.extend(entries)

    @property
    def remaining(self) -> int:
        return len(self._entries)

    def roll(self, kind_: str | RollKind, *, purpose: str | Msg, rule: str = "") -> RollRecord:
        spec = kind(kind_)
        if not self._entries:
            raise RollNeeded(spec.name, purpose, rule)
        record = entered_roll(spec, self._entries[0], purpose=purpose, rule=rule)
        self._entries.pop(0)
        self.history.append(record)
        return record


def parse_entry(text: str | int | Sequence[int]) -> Entry:
    """A roll as a player types it: "7" → 7, "3,4" or "3 4" → [3, 4]; numbers pass through."""
    if isinstance(text, int | list | tuple):
        return text
    parts = str(text).replace(",", " ").split()
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise DiceError(f"enter the dice as numbers, for example 7 or 3,4 (not {text!r})") from None
    if not numbers:
        raise DiceError("enter the roll")
    return numbers[0] if len(numbers) == 1 else numbers


def entered_roll(
    kind_: str | RollKind, entry: Entry, *, purpose: str | Msg, rule: str = ""
) -> RollRecord:
    """Validate one value a player rolled at the table and make its record."""
    spec = kind(kind_)
    try:
        if isinstance(entry, int | str) and not isinstance(entry, bool):
            value = spec.check_value(int(entry))
            faces = spec.faces_for(value) or ()
        else:
            faces = spec.check_faces(list(entry))
            value = spec.value(faces)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, DiceError):
            raise DiceError(exc.message, rule=rule) from None
        raise DiceError(f"{entry!r} is not a {spec.name} roll", rule=rule) from None
    return RollRecord(spec.name, purpose, rule, tuple(faces), value, "entered")


@dataclass(frozen=True)
class Distribution:
    """An exact probability distribution over integer results, as fractions."""

    probs: tuple[tuple[int, Fraction], ...]

    @classmethod
    def of(
        cls,
        kind_: str | RollKind,
        *,
        modifier: int = 0,
        read: Callable[[tuple[int, ...]], int] | None = None,
    ) -> Distribution:
        """The distribution of a roll plus a modifier, by enumerating every face tuple.

        `read` replaces the kind's own reading (for example the white die only).
        """
        spec = kind(kind_)
        counts: dict[int, int] = {}
        total = 0
        for faces in spec.outcomes():
            v = (read(faces) if read else spec.value(faces)) + modifier
            counts[v] = counts.get(v, 0) + 1
            total += 1
        return cls(tuple(sorted((v, Fraction(c, total)) for v, c in counts.items())))

    def __add__(self, other: int | Distribution) -> Distribution:
        if isinstance(other, int):
            return Distribution(tuple((v + other, p) for v, p in self.probs))
        acc: dict[int, Fraction] = {}
        for (a, pa), (b, pb) in itertools.product(self.probs, other.probs):
            acc[a + b] = acc.get(a + b, Fraction(0)) + pa * pb
        return Distribution(tuple(sorted(acc.items())))

    def p(self, predicate: Callable[[int], bool]) -> Fraction:
        return sum((p for v, p in self.probs if predicate(v)), Fraction(0))

    def p_at_least(self, k: int) -> Fraction:
        return self.p(lambda v: v >= k)

    def p_at_most(self, k: int) -> Fraction:
        return self.p(lambda v: v <= k)

    def p_exactly(self, k: int) -> Fraction:
        return self.p(lambda v: v == k)

    def p_greater_than(self, other: Distribution) -> Fraction:
        """P(self > other) for independent rolls, e.g. attack total beats defense total."""
        return self._compare(other, lambda a, b: a > b)

    def p_at_least_other(self, other: Distribution) -> Fraction:
        """P(self ≥ other) for independent rolls."""
        return self._compare(other, lambda a, b: a >= b)

    def _compare(self, other: Distribution, op: Callable[[int, int], bool]) -> Fraction:
        return sum(
            (
                pa * pb
                for (a, pa), (b, pb) in itertools.product(self.probs, other.probs)
                if op(a, b)
            ),
            Fraction(0),
        )

    @property
    def mean(self) -> Fraction:
        return sum((v * p for v, p in self.probs), Fraction(0))

    def as_percentages(self) -> dict[int, float]:
        return {v: round(float(p) * 100, 2) for v, p in self.probs}

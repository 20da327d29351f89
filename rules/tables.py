"""Tables as data, each with its rule reference and where its numbers come from.

Two kinds of table exist:

- `Table`: transcribed from a seed rulebook; the module that defines it states the rule id.
- user-supplied tables, which a seed only references (Command Prep Table, Campaign Forces
  Table …). Their numbers are never invented here: a campaign supplies them, validated by a
  `TableSchema`, and anything not supplied is `MISSING`.

JSON data files shipped with the engine are read once (`load_json`) and cached.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from rules.errors import RuleError, TableDataError
from rules.explain import Explanation
from rules.i18n import Msg, msg

Provenance = Literal["seed", "user", "derived"]


class _Missing:
    """Marks a value the seeds do not give: the campaign must supply it."""

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Table:
    """A look-up table with its rule reference and provenance."""

    id: str
    rule: str
    title: str
    rows: Mapping[Hashable, Any]
    provenance: Provenance = "seed"
    note: str = ""

    def lookup(self, key: Hashable, explanation: Explanation | None = None) -> Any:
        """Read one row; when an explanation is given, record the look-up in it."""
        if key not in self.rows:
            raise RuleError(f"{self.title} has no row {key!r}", rule=self.rule)
        value = self.rows[key]
        if value is MISSING:
            raise RuleError(
                f"{self.title} row {key!r} is not given by the rulebook; enter it in the "
                "campaign's tables",
                rule=self.rule,
            )
        if explanation is not None:
            explanation.add(self.rule, f"{self.title}: {key}", value)
        return value

    def lookup_range(self, value: int, explanation: Explanation | None = None) -> Any:
        """Read the row whose (low, high) range key contains `value` (die-roll tables)."""
        for key, row in self.rows.items():
            low, high = key if isinstance(key, tuple) else (key, key)
            if low <= value <= high:
                if explanation is not None:
                    explanation.add(
                        self.rule, f"{self.title}: roll {value} → row {low}-{high}", row
                    )
                return row
        raise RuleError(f"{self.title} has no row for {value}", rule=self.rule)


# ---------------------------------------------------------------------------------------------
# Schemas for user-supplied tables


@dataclass(frozen=True)
class Field:
    """One field of a user-supplied record."""

    name: str
    type: type | tuple[type, ...]
    required: bool = True
    check: Callable[[Any], Msg | None] | None = None
    help: str = ""
    label: str | Msg = ""
    """How a person calls the field; its name with spaces when empty."""

    @property
    def words(self) -> str | Msg:
        return self.label or self.name.replace("_", " ")


TYPE_WORDS: dict[type, Msg] = {
    int: msg("a whole number"),
    float: msg("a number"),
    str: msg("words"),
    bool: msg("yes or no"),
    list: msg("a list"),
    dict: msg("a set of named values"),
}


def int_range(low: int | None = None, high: int | None = None) -> Callable[[Any], Msg | None]:
    def check(value: Any) -> Msg | None:
        if low is not None and value < low:
            return msg("enter %(low)s or more", low=low)
        if high is not None and value > high:
            return msg("enter %(high)s or less", high=high)
        return None

    return check


def one_of(*choices: Any) -> Callable[[Any], Msg | None]:
    def check(value: Any) -> Msg | None:
        if value in choices:
            return None
        return msg("choose one of: %(choices)s", choices=", ".join(map(str, choices)))

    return check


@dataclass(frozen=True)
class TableSchema:
    """Validates a user-supplied table: a list of records or a mapping of key → record.

    `validate` returns every problem as (path, message); `clean` raises `TableDataError` with
    all of them, so a form can show each next to its field.
    """

    id: str
    rule: str
    title: str | Msg
    fields: tuple[Field, ...]
    keyed_by: str | None = None
    description: str = ""
    extra_ok: bool = False
    record_check: Callable[[Mapping[str, Any]], list[Msg]] | None = field(default=None)

    def validate(self, data: Any) -> list[tuple[str | Msg, Msg]]:
        """Every problem as (where, what to do), both in words."""
        problems: list[tuple[str | Msg, Msg]] = []
        if not isinstance(data, list):
            return [("", msg("%(table)s is a list of rows", table=self.title))]
        if not data:
            problems.append(("", msg("%(table)s has no rows", table=self.title)))
        seen: set[Any] = set()
        for i, record in enumerate(data, start=1):
            problems.extend(self._validate_record(i, record))
            if self.keyed_by and isinstance(record, Mapping) and self.keyed_by in record:
                key = _hashable(record[self.keyed_by])
                if key in seen:
                    where = self._where(i, self._field(self.keyed_by).words)
                    problems.append((where, msg("%(key)s appears twice", key=str(key))))
                seen.add(key)
        return problems

    def _field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def _where(self, row: int, field_words: str | Msg = "") -> Msg:
        if field_words:
            return msg(
                "%(table)s, row %(n)s, %(field)s", table=self.title, n=row, field=field_words
            )
        return msg("%(table)s, row %(n)s", table=self.title, n=row)

    def _validate_record(self, row: int, record: Any) -> list[tuple[str | Msg, Msg]]:
        if not isinstance(record, Mapping):
            return [(self._where(row), msg("each row is a set of named values"))]
        problems: list[tuple[str | Msg, Msg]] = []
        known = {f.name for f in self.fields}
        for name in record:
            if name not in known and not self.extra_ok:
                problems.append(
                    (self._where(row), msg("%(name)s is not a column of this table", name=name))
                )
        for f in self.fields:
            where = self._where(row, f.words)
            if f.name not in record or record[f.name] is None:
                if f.required:
                    problems.append((where, msg("fill this in")))
                continue
            value = record[f.name]
            types = f.type if isinstance(f.type, tuple) else (f.type,)
            ok = (bool in types) if isinstance(value, bool) else isinstance(value, types)
            if not ok:
                problems.append((where, msg("enter %(what)s", what=_type_words(types))))
                continue
            if f.check and (problem := f.check(value)):
                problems.append((where, problem))
        if self.record_check and not problems:
            problems.extend((self._where(row), problem) for problem in self.record_check(record))
        return problems

    def clean(self, data: Any) -> list[dict[str, Any]]:
        problems = self.validate(data)
        if problems:
            raise TableDataError(problems, rule=self.rule)
        return [dict(r) for r in data]

    def describe(self) -> dict[str, Any]:
        """A plain description of the schema, for forms and API documentation."""
        return {
            "id": self.id,
            "rule": self.rule,
            "title": self.title,
            "description": self.description,
            "keyed_by": self.keyed_by,
            "fields": [
                {
                    "name": f.name,
                    "type": " or ".join(
                        t.__name__ for t in (f.type if isinstance(f.type, tuple) else (f.type,))
                    ),
                    "label": str(f.words),
                    "required": f.required,
                    "help": f.help,
                }
                for f in self.fields
            ],
        }


def _type_words(types: tuple[type, ...]) -> Msg | list[Msg]:
    """What a field takes, in words (\"a whole number\")."""
    words = [TYPE_WORDS.get(t, msg("a value")) for t in types]
    if len(words) == 2:
        return msg("%(a)s or %(b)s", a=words[0], b=words[1])
    return words[0] if len(words) == 1 else words


def _hashable(value: Any) -> Hashable:
    return tuple(value) if isinstance(value, list) else value


@cache
def load_json(path: str | Path) -> Any:
    """Read a JSON data file once per process."""
    return json.loads(Path(path).read_text(encoding="utf-8"))

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
    check: Callable[[Any], str | None] | None = None
    help: str = ""


def int_range(low: int | None = None, high: int | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if low is not None and value < low:
            return f"must be at least {low}"
        if high is not None and value > high:
            return f"must be at most {high}"
        return None

    return check


def one_of(*choices: Any) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in choices else f"must be one of {', '.join(map(str, choices))}"

    return check


@dataclass(frozen=True)
class TableSchema:
    """Validates a user-supplied table: a list of records or a mapping of key → record.

    `validate` returns every problem as (path, message); `clean` raises `TableDataError` with
    all of them, so a form can show each next to its field.
    """

    id: str
    rule: str
    title: str
    fields: tuple[Field, ...]
    keyed_by: str | None = None
    description: str = ""
    extra_ok: bool = False
    record_check: Callable[[Mapping[str, Any]], list[str]] | None = field(default=None)

    def validate(self, data: Any) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        if not isinstance(data, list):
            return [("", f"{self.title} must be a list of rows")]
        if not data:
            problems.append(("", f"{self.title} has no rows"))
        seen: set[Any] = set()
        for i, record in enumerate(data):
            problems.extend(self._validate_record(f"row {i + 1}", record))
            if self.keyed_by and isinstance(record, Mapping) and self.keyed_by in record:
                key = _hashable(record[self.keyed_by])
                if key in seen:
                    problems.append((f"row {i + 1}.{self.keyed_by}", f"duplicate {key!r}"))
                seen.add(key)
        return problems

    def _validate_record(self, path: str, record: Any) -> list[tuple[str, str]]:
        if not isinstance(record, Mapping):
            return [(path, "must be an object with named fields")]
        problems = []
        known = {f.name for f in self.fields}
        for name in record:
            if name not in known and not self.extra_ok:
                problems.append((f"{path}.{name}", "is not a field of this table"))
        for f in self.fields:
            if f.name not in record or record[f.name] is None:
                if f.required:
                    problems.append((f"{path}.{f.name}", "is required"))
                continue
            value = record[f.name]
            types = f.type if isinstance(f.type, tuple) else (f.type,)
            if isinstance(value, bool) and bool not in types:
                ok = False
            else:
                ok = isinstance(value, types)
            if not ok:
                names = " or ".join(t.__name__ for t in types)
                problems.append((f"{path}.{f.name}", f"must be {names}, not {value!r}"))
                continue
            if f.check and (msg := f.check(value)):
                problems.append((f"{path}.{f.name}", msg))
        if self.record_check and not problems:
            problems.extend((path, msg) for msg in self.record_check(record))
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
                    "required": f.required,
                    "help": f.help,
                }
                for f in self.fields
            ],
        }


def _hashable(value: Any) -> Hashable:
    return tuple(value) if isinstance(value, list) else value


@cache
def load_json(path: str | Path) -> Any:
    """Read a JSON data file once per process."""
    return json.loads(Path(path).read_text(encoding="utf-8"))

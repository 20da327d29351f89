"""A chart entered as user data whose columns are ranges of a value and whose rows are d66
ranges [17.2 Morale Table, 18.7.a Artillery Adjustment Table]: reading and validating the
grid, CSV entry, lookup and exact odds. Subclasses name the rule, the cell words and the
messages; nothing here invents a cell."""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar, Generic, Self, TypeVar

from rules.dice import D66
from rules.errors import TableDataError
from rules.i18n import Msg, msg

D66_READINGS = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))
_RANGE = re.compile(r"^\s*(?:(≤|<=)\s*(-?\d+)|(-?\d+)\s*(\+)|(-?\d+)(?:\s*-\s*(-?\d+))?)\s*$")

R = TypeVar("R", bound=StrEnum)


def parse_range(text: Any) -> tuple[int | None, int | None] | None:
    """ "≤3" → (None, 3), "7+" → (7, None), "4-5" → (4, 5), "6" → (6, 6); None if unreadable."""
    match = _RANGE.match(str(text))
    if not match:
        return None
    at_most, open_low, plus_low, _plus, low, high = match.groups()
    if at_most:
        return None, int(open_low)
    if plus_low is not None:
        return int(plus_low), None
    return int(low), int(high if high is not None else low)


def column_problems(columns: Any) -> tuple[list[Msg], list[tuple[int | None, int | None]]]:
    """Column headings must cover every value once: open below, contiguous, open above."""
    if not isinstance(columns, list) or not columns:
        return [msg("give the column headings (totals), at least one")], []
    ranges, problems = [], []
    for i, text in enumerate(columns, start=1):
        found = parse_range(text)
        if found is None or (None not in found and found[0] > found[1]):
            problems.append(
                msg(
                    "column %(n)s (%(text)s) is not a total range like ≤3, 4-5, 6 or 7+",
                    n=i,
                    text=text,
                )
            )
        else:
            ranges.append(found)
    if problems:
        return problems, []
    if ranges[0][0] is not None:
        problems.append(msg("the first column must be open below (≤n): every total needs one"))
    if ranges[-1][1] is not None:
        problems.append(msg("the last column must be open above (n+): every total needs one"))
    for i, (left, right) in enumerate(itertools.pairwise(ranges), start=1):
        if left[1] is None or right[0] is None or right[0] != left[1] + 1:
            problems.append(
                msg(
                    "columns %(a)s and %(b)s: totals must follow on without gap or overlap",
                    a=columns[i - 1],
                    b=columns[i],
                )
            )
    return problems, ranges


def row_problems(
    rows: Any, width: int, cell_problem: Callable[[int, int, Any], Msg | None]
) -> tuple[list[Msg], list[tuple[int, int]]]:
    """Rows must cover every d66 reading once, each with one readable cell per column;
    `cell_problem(row, column, cell)` says what is wrong with a cell (None: nothing)."""
    if not isinstance(rows, list) or not rows:
        return [msg("give the rows (d66 ranges), at least one")], []
    problems, spans, seen = [], [], {}
    for i, row in enumerate(rows, start=1):
        rolls = row.get("rolls") if isinstance(row, Mapping) else None
        span = parse_range(rolls)
        if span is None or None in span or span[0] not in D66_READINGS:
            problems.append(msg("row %(n)s: give the d66 range, like 11-36 or 41", n=i))
            continue
        low, high = span
        if high not in D66_READINGS or high < low:
            problems.append(msg("row %(n)s: %(rolls)s is not a d66 range", n=i, rolls=rolls))
            continue
        spans.append((low, high))
        for reading in (r for r in D66_READINGS if low <= r <= high):
            if reading in seen:
                problems.append(
                    msg(
                        "roll %(roll)s is in rows %(a)s and %(b)s",
                        roll=reading,
                        a=seen[reading],
                        b=i,
                    )
                )
            seen[reading] = i
        cells = row.get("results")
        if not isinstance(cells, list) or len(cells) != width:
            problems.append(msg("row %(n)s: give one result per column (%(w)s)", n=i, w=width))
            continue
        problems.extend(
            p for j, cell in enumerate(cells, start=1) if (p := cell_problem(i, j, cell))
        )
    missing = [r for r in D66_READINGS if r not in seen]
    if missing:
        problems.append(msg("no row covers roll(s) %(rolls)s", rolls=", ".join(map(str, missing))))
    return problems, spans


def blank(cell: Any) -> Any:
    """A cell as named in a problem: "(blank)" when empty."""
    return "(blank)" if cell in (None, "") else cell


@dataclass(frozen=True)
class D66Grid(Generic[R]):
    """A validated grid: column value ranges, sorted d66 spans and the cells."""

    headings: tuple[str, ...]
    columns: tuple[tuple[int | None, int | None], ...]
    spans: tuple[tuple[int, int], ...]
    cells: tuple[tuple[R, ...], ...]

    RULE: ClassVar[str]
    RESULTS: ClassVar[type[StrEnum]]

    @classmethod
    def parse_cell(cls, word: Any) -> R | None:
        raise NotImplementedError

    @classmethod
    def cell_problem(cls, row: int, column: int, cell: Any) -> Msg | None:
        raise NotImplementedError

    @classmethod
    def not_a_grid(cls) -> tuple[str | Msg, Msg]:
        """The problem raised when the data is not a mapping."""
        raise NotImplementedError

    @classmethod
    def title(cls) -> Msg:
        raise NotImplementedError

    @classmethod
    def empty_csv(cls) -> Msg:
        raise NotImplementedError

    @classmethod
    def from_data(cls, data: Any) -> Self:
        """Validate JSON-like data; raises `TableDataError` naming every bad cell."""
        if not isinstance(data, Mapping):
            raise TableDataError([cls.not_a_grid()], rule=cls.RULE)
        problems, columns = column_problems(data.get("columns"))
        width = len(data["columns"]) if isinstance(data.get("columns"), list) else 0
        more, spans = row_problems(data.get("rows"), width, cls.cell_problem)
        problems += more
        if problems:
            raise TableDataError([(cls.title(), p) for p in problems], rule=cls.RULE)
        cells = [tuple(cls.parse_cell(c) for c in r["results"]) for r in data["rows"]]
        order = sorted(range(len(spans)), key=lambda i: spans[i])
        return cls(
            tuple(str(c) for c in data["columns"]),
            tuple(columns),
            tuple(spans[i] for i in order),
            tuple(cells[i] for i in order),
        )

    @classmethod
    def from_csv(cls, text: str) -> Self:
        """A header row (``rolls`` then one heading per column), one line per d66 range."""
        lines = [r for r in csv.reader(io.StringIO(text.strip())) if any(c.strip() for c in r)]
        if not lines:
            raise TableDataError([("", cls.empty_csv())], rule=cls.RULE)
        rows = [{"rolls": x[0].strip(), "results": [c.strip() for c in x[1:]]} for x in lines[1:]]
        return cls.from_data({"columns": [c.strip() for c in lines[0][1:]], "rows": rows})

    def to_data(self) -> dict[str, Any]:
        return {
            "columns": list(self.headings),
            "rows": [
                {"rolls": f"{lo}-{hi}" if lo != hi else str(lo), "results": [c.value for c in r]}
                for (lo, hi), r in zip(self.spans, self.cells, strict=True)
            ],
        }

    def column(self, value: int) -> int:
        """Index of the column whose range holds the value (every value has one)."""
        return next(
            i
            for i, (lo, hi) in enumerate(self.columns)
            if (lo is None or lo <= value) and (hi is None or value <= hi)
        )

    def result(self, value: int, roll: int) -> R:
        """The cell for a column value and a d66 reading."""
        D66.check_value(roll)
        row = next(i for i, (lo, hi) in enumerate(self.spans) if lo <= roll <= hi)
        return self.cells[row][self.column(value)]

    def odds(self, value: int) -> dict[R, Fraction]:
        """Exact chance of each result for a value, over the 36 equally likely d66 outcomes."""
        counts = dict.fromkeys(self.RESULTS, 0)
        for faces in D66.outcomes():
            counts[self.result(value, D66.value(faces))] += 1
        return {r: Fraction(n, 36) for r, n in counts.items()}

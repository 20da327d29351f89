"""The Morale Table [17.2] as user data: the seed prints the procedure, never the chart.

A grid: columns are ranges of the morale check total, rows are ranges of the d66 roll, each
cell a result. JSON-like data::

    {"columns": ["≤3", "4-5", "6", "7+"],
     "rows": [{"rolls": "11-36", "results": ["none", "none", "suppressed", "suppressed"]},
              {"rolls": "41-66", "results": ["suppressed", "paralyzed", "syr", "surrender"]}]}

or CSV with the same content (`MoraleTable.from_csv`): a header row ``rolls,≤3,4-5,…`` and
one line per d66 range. A chart whose columns print their own d66 bands is entered by
splitting rows until every band is a row. Every total must fall in exactly one column (the
first open below, "≤n", the last open above, "n+") and every d66 reading 11..66 in exactly
one row; every cell is a known result word. Nothing here invents a cell.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules.dice import D66, RollRecord
from rules.errors import TableDataError
from rules.explain import Explanation
from rules.i18n import Msg, msg

RULE = "17.2"
D66_READINGS = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))


class MoraleResult(StrEnum):
    """Morale Table results, from least to most severe (see SEVERITY)."""

    NO_EFFECT = "none"
    SUPPRESSED = "suppressed"
    PARALYZED = "paralyzed"
    SYR = "syr"
    SURRENDER = "surrender"


SEVERITY: dict[MoraleResult, int] = {r: i for i, r in enumerate(MoraleResult)}
RESULT_WORDS: dict[MoraleResult, Msg] = {
    MoraleResult.NO_EFFECT: msg("No effect"),
    MoraleResult.SUPPRESSED: msg("Suppressed (17.3)"),
    MoraleResult.PARALYZED: msg("Paralyzed (17.5)"),
    MoraleResult.SYR: msg("SYR (retreat, 17.4)"),
    MoraleResult.SURRENDER: msg("Surrender (17.6)"),
}
_ALIASES = {
    "none": MoraleResult.NO_EFFECT,
    "no effect": MoraleResult.NO_EFFECT,
    "ne": MoraleResult.NO_EFFECT,
    "-": MoraleResult.NO_EFFECT,
    "suppressed": MoraleResult.SUPPRESSED,
    "paralyzed": MoraleResult.PARALYZED,
    "syr": MoraleResult.SYR,
    "surrender": MoraleResult.SURRENDER,
}
_RANGE = re.compile(r"^\s*(?:(≤|<=)\s*(-?\d+)|(-?\d+)\s*(\+)|(-?\d+)(?:\s*-\s*(-?\d+))?)\s*$")


def parse_result(word: Any) -> MoraleResult | None:
    """A cell's word (case and spaces ignored; "-" and "no effect" mean none)."""
    return _ALIASES.get(" ".join(str(word).lower().split())) if word is not None else None


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


def _column_problems(columns: Any) -> tuple[list[Msg], list[tuple[int | None, int | None]]]:
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


def _row_problems(rows: Any, width: int) -> tuple[list[Msg], list[tuple[int, int]]]:
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
        for j, cell in enumerate(cells, start=1):
            if parse_result(cell) is None:
                problems.append(
                    msg(
                        "row %(n)s, column %(c)s: %(cell)s is not a result (none, suppressed, "
                        "paralyzed, syr, surrender)",
                        n=i,
                        c=j,
                        cell="(blank)" if cell in (None, "") else cell,
                    )
                )
    missing = [r for r in D66_READINGS if r not in seen]
    if missing:
        problems.append(msg("no row covers roll(s) %(rolls)s", rolls=", ".join(map(str, missing))))
    return problems, spans


@dataclass(frozen=True)
class MoraleTable:
    """A validated Morale Table: total ranges, d66 spans and the result grid."""

    headings: tuple[str, ...]
    columns: tuple[tuple[int | None, int | None], ...]
    spans: tuple[tuple[int, int], ...]
    cells: tuple[tuple[MoraleResult, ...], ...]

    @classmethod
    def from_data(cls, data: Any) -> MoraleTable:
        """Validate JSON-like data; raises `TableDataError` naming every bad cell."""
        if not isinstance(data, Mapping):
            raise TableDataError(
                [("", msg("the Morale Table is a set of columns and rows"))], rule=RULE
            )
        title = msg("Morale Table")
        problems, columns = _column_problems(data.get("columns"))
        width = len(data["columns"]) if isinstance(data.get("columns"), list) else 0
        row_problems, spans = _row_problems(data.get("rows"), width)
        problems += row_problems
        if problems:
            raise TableDataError([(title, p) for p in problems], rule=RULE)
        cells = tuple(tuple(parse_result(c) for c in r["results"]) for r in data["rows"])
        order = sorted(range(len(spans)), key=lambda i: spans[i])
        return cls(
            tuple(str(c) for c in data["columns"]),
            tuple(columns),
            tuple(spans[i] for i in order),
            tuple(cells[i] for i in order),
        )

    @classmethod
    def from_csv(cls, text: str) -> MoraleTable:
        """A header row (``rolls`` then one heading per column), one line per d66 range."""
        lines = [r for r in csv.reader(io.StringIO(text.strip())) if any(c.strip() for c in r)]
        if not lines:
            raise TableDataError([("", msg("the Morale Table CSV is empty"))], rule=RULE)
        header = [c.strip() for c in lines[0]]
        return cls.from_data(
            {
                "columns": header[1:],
                "rows": [
                    {"rolls": line[0].strip(), "results": [c.strip() for c in line[1:]]}
                    for line in lines[1:]
                ],
            }
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "columns": list(self.headings),
            "rows": [
                {"rolls": f"{lo}-{hi}" if lo != hi else str(lo), "results": [c.value for c in r]}
                for (lo, hi), r in zip(self.spans, self.cells, strict=True)
            ],
        }

    def column(self, total: int) -> int:
        """Index of the column whose range holds the total (every total has one)."""
        return next(
            i
            for i, (lo, hi) in enumerate(self.columns)
            if (lo is None or lo <= total) and (hi is None or total <= hi)
        )

    def result(self, total: int, roll: int) -> MoraleResult:
        """The cell for a total and a d66 reading."""
        D66.check_value(roll)
        row = next(i for i, (lo, hi) in enumerate(self.spans) if lo <= roll <= hi)
        return self.cells[row][self.column(total)]

    def read(self, total: int, roll: RollRecord, explanation: Explanation) -> MoraleResult:
        """Look the roll up in the total's column and record it [17.2]."""
        result = self.result(total, roll.value)
        explanation.add(
            RULE,
            msg(
                "Morale Table column %(column)s (total %(total)s), roll %(roll)s: %(result)s",
                column=self.headings[self.column(total)],
                total=total,
                roll=roll.value,
                result=RESULT_WORDS[result],
            ),
            result.value,
            roll=roll,
        )
        return result

    def odds(self, total: int) -> dict[MoraleResult, Fraction]:
        """Exact chance of each result for a total, over the 36 equally likely d66 outcomes."""
        counts = dict.fromkeys(MoraleResult, 0)
        for faces in D66.outcomes():
            counts[self.result(total, D66.value(faces))] += 1
        return {r: Fraction(n, 36) for r, n in counts.items()}


def at_least_as_bad(odds: Mapping[MoraleResult, Fraction]) -> dict[MoraleResult, Fraction]:
    """P(result at least as severe as r) for each r: the curve used to compare two totals."""
    return {
        r: sum((p for s, p in odds.items() if SEVERITY[s] >= SEVERITY[r]), Fraction(0))
        for r in MoraleResult
    }

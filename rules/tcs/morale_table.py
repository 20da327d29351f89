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

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from rules.dice import RollRecord
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs.d66_grid import D66_READINGS, D66Grid, blank, parse_range

RULE = "17.2"
__all__ = ["D66_READINGS", "RULE", "MoraleResult", "MoraleTable", "parse_range", "parse_result"]


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


def parse_result(word: Any) -> MoraleResult | None:
    """A cell's word (case and spaces ignored; "-" and "no effect" mean none)."""
    return _ALIASES.get(" ".join(str(word).lower().split())) if word is not None else None


@dataclass(frozen=True)
class MoraleTable(D66Grid[MoraleResult]):
    """A validated Morale Table: total ranges, d66 spans and the result grid."""

    RULE: ClassVar[str] = RULE
    RESULTS: ClassVar[type[StrEnum]] = MoraleResult

    @classmethod
    def parse_cell(cls, word: Any) -> MoraleResult | None:
        return parse_result(word)

    @classmethod
    def cell_problem(cls, row: int, column: int, cell: Any) -> Msg | None:
        if parse_result(cell) is not None:
            return None
        return msg(
            "row %(n)s, column %(c)s: %(cell)s is not a result (none, suppressed, "
            "paralyzed, syr, surrender)",
            n=row,
            c=column,
            cell=blank(cell),
        )

    @classmethod
    def not_a_grid(cls) -> tuple[str | Msg, Msg]:
        return "", msg("the Morale Table is a set of columns and rows")

    @classmethod
    def title(cls) -> Msg:
        return msg("Morale Table")

    @classmethod
    def empty_csv(cls) -> Msg:
        return msg("the Morale Table CSV is empty")

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


def at_least_as_bad(odds: Mapping[MoraleResult, Fraction]) -> dict[MoraleResult, Fraction]:
    """P(result at least as severe as r) for each r: the curve used to compare two totals."""
    return {
        r: sum((p for s, p in odds.items() if SEVERITY[s] >= SEVERITY[r]), Fraction(0))
        for r in MoraleResult
    }

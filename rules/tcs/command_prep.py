"""Implementation through the Command Prep Table [6.9.f] and preliminary instructions [6.14.a].

The seed does not print the table: a campaign supplies it (`CommandPrepTable.from_data`,
validated by `COMMAND_PREP_SCHEMA`) or the player enters each threshold read off the chart.
Nothing here invents a cell.

Data format, one record per op sheet type::

    {"type": "attack", "columns": [0, 4, 8, 22, 28], "rows": {"3": [66, 61, 55, 44, 36],
     "5": [66, 64, 60, 52, 45]}}

`columns` are the weighted-turn headers in increasing order; `rows` maps Command Prep rating
+ size to one d66 threshold per column (null where the chart shows no number).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.dice import D66, DiceSource, RollRecord
from rules.errors import DiceError, RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg
from rules.tables import Field, TableSchema, one_of
from rules.tcs import labels
from rules.tcs.additions import implement_addition, start_addition_prelims
from rules.tcs.opsheet import Addition, OpSheet, OpSheetType, SheetStatus
from rules.tcs.options import DEFAULT_OPTIONS, KeyOffTable, TcsOptions
from rules.tcs.transitions import implement, start_prelims

D66_READINGS = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))


def _check_record(record: Mapping[str, Any]) -> list[Msg]:
    problems = []
    columns = record["columns"]
    if not columns or any(isinstance(c, bool) or not isinstance(c, int) for c in columns):
        problems.append(msg("the column headings are whole numbers, at least one"))
    elif any(c < 0 for c in columns) or list(columns) != sorted(set(columns)):
        problems.append(msg("the column headings go up from 0, each different"))
    if not record["rows"]:
        problems.append(msg("give at least one row (Command Prep rating + size)"))
    for key, cells in record["rows"].items():
        if not str(key).lstrip("-").isdigit():
            problems.append(
                msg("row %(key)s: a row is named by a whole number (rating + size)", key=key)
            )
        elif not isinstance(cells, list) or len(cells) != len(columns):
            problems.append(
                msg("row %(key)s: give one threshold per column (%(n)s)", key=key, n=len(columns))
            )
        elif any(c is not None and c not in D66_READINGS for c in cells):
            problems.append(
                msg("row %(key)s: a threshold is a d66 reading from 11 to 66, or empty", key=key)
            )
    return problems


COMMAND_PREP_SCHEMA = TableSchema(
    "tcs-command-prep",
    "6.9.f",
    msg("Command Prep Table"),
    (
        Field(
            "type",
            str,
            check=one_of(*(t.value for t in OpSheetType)),
            help="op sheet type",
            label=msg("op sheet type"),
        ),
        Field(
            "columns",
            list,
            help="weighted-turn column headers, increasing",
            label=msg("column headings"),
        ),
        Field(
            "rows",
            dict,
            help="rating + size → one d66 threshold (or null) per column",
            label=msg("rows"),
        ),
    ),
    keyed_by="type",
    description="Read off the game's Command Prep Table; the series rules do not print it.",
    record_check=_check_record,
)


@dataclass(frozen=True)
class Threshold:
    """The roll a sheet needs: the cell read [6.9.f], or the value the player entered."""

    type: OpSheetType
    key: int
    value: int | None
    column: int | None = None
    source: str = "table"


@dataclass(frozen=True)
class PrepRow:
    columns: tuple[int, ...]
    cells: dict[int, tuple[int | None, ...]]


@dataclass(frozen=True)
class CommandPrepTable:
    rows: dict[OpSheetType, PrepRow]

    @classmethod
    def from_data(cls, data: Any) -> CommandPrepTable:
        """Validate user data with `COMMAND_PREP_SCHEMA` (raises `TableDataError`)."""
        records = COMMAND_PREP_SCHEMA.clean(data)
        return cls(
            {
                OpSheetType(r["type"]): PrepRow(
                    tuple(r["columns"]), {int(k): tuple(v) for k, v in r["rows"].items()}
                )
                for r in records
            }
        )

    def to_data(self) -> list[dict[str, Any]]:
        return [
            {
                "type": t.value,
                "columns": list(row.columns),
                "rows": {str(k): list(v) for k, v in row.cells.items()},
            }
            for t, row in self.rows.items()
        ]

    def lookup(
        self,
        sheet_type: OpSheetType,
        weighted_turns: int,
        key: int,
        explanation: Explanation,
        options: TcsOptions = DEFAULT_OPTIONS,
    ) -> Threshold | None:
        """Rightmost column not above the weighted turns, crossed with rating + size [6.9.f].

        None when the table lacks the row. Weighted turns below the first column read no
        cell; a key beyond the rows is clamped or refused (`options.key_off_table`).
        """
        row = self.rows.get(sheet_type)
        if row is None:
            return None
        fitting = [c for c in row.columns if c <= weighted_turns]
        if not fitting:
            explanation.add(
                "6.9.f",
                msg(
                    "%(sheet_type)s row: %(weighted_turns)s WT is below the first column (%(v)s): cannot implement yet",
                    sheet_type=labels.sheet_type(sheet_type),
                    weighted_turns=weighted_turns,
                    v=row.columns[0],
                ),
            )
            return Threshold(sheet_type, key, None)
        column = fitting[-1]
        read_key = key
        if key not in row.cells:
            if options.key_off_table is KeyOffTable.ERROR:
                raise RuleError(
                    msg("the Command Prep Table has no row %(key)s", key=key), rule="6.9.f"
                )
            read_key = min(row.cells, key=lambda k: (abs(k - key), k))
            explanation.add(
                "6.9.f",
                msg(
                    "key %(key)s is off the table: read row %(read_key)s",
                    key=key,
                    read_key=read_key,
                ),
            )
        value = row.cells[read_key][row.columns.index(column)]
        explanation.add(
            "6.9.f",
            msg(
                "Command Prep Table, %(sheet_type)s row, column %(column)s (≤ %(weighted_turns)s WT), rating + size %(read_key)s",
                sheet_type=labels.sheet_type(sheet_type),
                column=column,
                weighted_turns=weighted_turns,
                read_key=read_key,
            ),
            value,
        )
        return Threshold(sheet_type, key, value, column)


def read_threshold(
    sheet_type: OpSheetType,
    weighted_turns: int,
    key: int,
    explanation: Explanation,
    table: CommandPrepTable | None,
    entered: Mapping[OpSheetType, int | None],
    options: TcsOptions,
) -> Threshold:
    """A threshold the player entered, else from the table, else ask for it [6.9.f]."""
    if sheet_type in entered:
        value = entered[sheet_type]
        if value is not None:
            try:
                D66.check_value(value)
            except DiceError as exc:
                raise RuleError(
                    msg("threshold %(message)s", message=exc.message), rule="6.9.f"
                ) from None
        explanation.add(
            "6.9.f",
            msg(
                "%(sheet_type)s threshold entered by the player",
                sheet_type=labels.sheet_type(sheet_type),
            ),
            value,
        )
        return Threshold(sheet_type, key, value, source="entered")
    found = table.lookup(sheet_type, weighted_turns, key, explanation, options) if table else None
    if found is None:
        raise DecisionRequired(
            Decision(
                f"threshold:{sheet_type.value}",
                "6.9.f",
                msg(
                    "Read the Command Prep Table: %(sheet_type)s row, rightmost column not "
                    "above %(weighted_turns)s weighted turns, rating + size %(key)s; enter the "
                    "threshold (“-” when the cell shows no number)",
                    sheet_type=labels.sheet_type(sheet_type),
                    weighted_turns=weighted_turns,
                    key=key,
                ),
                (*D66_READINGS, None),
            )
        )
    return found


class AttemptMode(StrEnum):
    """What the player declares before rolling [6.14.a]."""

    FULL = "full"
    PRELIMS_ONLY = "prelims_only"


class PrepOutcome(StrEnum):
    IMPLEMENTED = "implemented"
    PRELIMS_STARTED = "prelims_started"
    NOT_IMPLEMENTED = "not_implemented"


@dataclass
class ImplementationResult:
    sheet_id: str
    addition_id: str | None
    outcome: PrepOutcome
    thresholds: dict[OpSheetType, Threshold]
    roll: RollRecord | None = None
    released: dict[str, tuple[str, ...]] = field(default_factory=dict)
    explanation: Explanation = field(default_factory=Explanation)


def attempt_implementation(
    sheet: OpSheet,
    sheets: Sequence[OpSheet],
    *,
    rating: int,
    dice: DiceSource,
    mode: AttemptMode = AttemptMode.FULL,
    table: CommandPrepTable | None = None,
    entered: Mapping[OpSheetType, int | None] | None = None,
    addition_id: str | None = None,
    options: TcsOptions = DEFAULT_OPTIONS,
) -> ImplementationResult:
    """Command Phase step 3: one d66 roll for a sheet (or an addition to it) [6.9.f].

    Roll ≥ the sheet's row threshold implements it; otherwise, or when only preliminary
    instructions were declared, a roll ≥ the Move row threshold (same key and weighted
    turns) starts the sheet's preliminary instructions, if it has any [6.14.a].
    Thresholds come from `entered` (type → value the player read), else `table`; a missing
    one raises `DecisionRequired` before anything is rolled.
    """
    exp = Explanation()
    addition: Addition | None = None
    if addition_id is not None:
        addition = next((a for a in sheet.pending_additions if a.id == addition_id), None)
        if addition is None:
            raise RuleError(
                msg(
                    "%(id)s has no addition %(addition_id)s in prep",
                    id=sheet.id,
                    addition_id=addition_id,
                ),
                rule="6.13.c",
            )
    elif not sheet.status.in_prep:
        raise RuleError(
            msg("%(id)s is %(status)s", id=sheet.id, status=labels.sheet_state(sheet.status)),
            rule="6.9.f",
        )
    holder: OpSheet | Addition = addition or sheet
    row = sheet.type if addition is None else addition.row
    name = sheet.id if addition_id is None else f"{sheet.id}/{addition_id}"
    can_start_prelims = (
        holder.preliminary_instructions and holder.status is SheetStatus.UNIMPLEMENTED
    )
    if mode is AttemptMode.PRELIMS_ONLY and not can_start_prelims:
        raise RuleError(
            msg("%(name)s has no preliminary instructions to start", name=name), rule="6.14.a"
        )
    key = exp.add(
        "6.9.f",
        msg("Command Prep rating %(rating)s + size %(size)s", rating=rating, size=holder.size),
        rating + holder.size,
    )
    needed = [row] if mode is AttemptMode.FULL else []
    if can_start_prelims and OpSheetType.MOVE not in needed:
        needed.append(OpSheetType.MOVE)
    thresholds = {
        t: read_threshold(t, holder.weighted_turns, key, exp, table, entered or {}, options)
        for t in needed
    }
    if all(t.value is None for t in thresholds.values()):
        exp.add("6.9.f", msg("%(name)s: no threshold can be reached yet, no roll", name=name))
        return ImplementationResult(
            sheet.id, addition_id, PrepOutcome.NOT_IMPLEMENTED, thresholds, explanation=exp
        )
    roll = dice.roll("d66", purpose=msg("Command Prep for %(name)s", name=name), rule="6.9.f")
    exp.add(
        "6.9.f",
        msg("Command Prep roll for %(name)s (%(mode)s)", name=name, mode=mode.value),
        roll.value,
        roll=roll,
    )

    def passes(sheet_type: OpSheetType) -> bool:
        value = thresholds[sheet_type].value if sheet_type in thresholds else None
        return value is not None and roll.value >= value

    released: dict[str, tuple[str, ...]] = {}
    if mode is AttemptMode.FULL and passes(row):
        outcome = PrepOutcome.IMPLEMENTED
        if addition is None:
            released = implement(sheet, sheets, exp).released
        else:
            released = implement_addition(sheet, addition, sheets, exp).released
    elif can_start_prelims and passes(OpSheetType.MOVE):
        outcome = PrepOutcome.PRELIMS_STARTED
        exp.add(
            "6.14.a",
            msg(
                "%(roll)s ≥ Move row %(value)s",
                roll=roll.value,
                value=thresholds[OpSheetType.MOVE].value,
            ),
        )
        if addition is None:
            released = start_prelims(sheet, sheets, exp).released
        else:
            released = start_addition_prelims(sheet, addition, sheets, exp).released
    else:
        outcome = PrepOutcome.NOT_IMPLEMENTED
        exp.add("6.9.f", msg("%(name)s not implemented; it may try again next turn", name=name))
    return ImplementationResult(sheet.id, addition_id, outcome, thresholds, roll, released, exp)

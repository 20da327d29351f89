"""The campaign tables as forms: a grid per table (one input per cell) and a file upload.

An empty cell means "not known yet": it is kept as null (the campaign stops with a message
where the rules need it) when the row already held that column or the rules read it, and left
out otherwise, so saving the grid unchanged changes nothing.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.cc.engines import CCTemplate
from campaigns.cc.labels import example_words
from campaigns.i18n import say
from campaigns.jsontext import JSONTextError, loads_checked
from rules.cc.campaign_tables import (
    TABLE_NOTES,
    TABLES,
    CampaignTable,
    Column,
    Problem,
    check,
)

MAX_ROWS = 60
"""Rows a table may show in the grid (the longest printed table has 18)."""
CELL_MAX = 160
_WHOLE = re.compile(r"[+-]?\d{1,9}")


def cell_value(column: Column, raw: str) -> Any:
    """A cell's text as table data: a whole number for a number column when it reads as one
    (otherwise the text, which `check` then refuses in words), None when empty."""
    raw = raw.strip()
    if not raw:
        return None
    if column.kind == "number" and _WHOLE.fullmatch(raw):
        return int(raw)
    return raw


def build_row(
    table: CampaignTable, cells: Mapping[str, str], original: Mapping[str, Any] | None
) -> dict[str, Any]:
    """One row from its cells' text; an empty cell stays "not known yet" (null) when the
    original row held the column, or for a new row when the rules need the column."""
    row: dict[str, Any] = {}
    for column in table.columns:
        raw = cells.get(column.name, "")
        kept = (original or {}).get(column.name)
        if isinstance(kept, str) and raw.strip() == shown(column, kept):
            raw = kept  # the example's words, shown in the reader's language: unchanged
        value = cell_value(column, raw)
        if value is not None:
            row[column.name] = value
        elif original is not None:
            if column.name in original:
                row[column.name] = None
        elif column.needed or column.required:
            row[column.name] = None
    return row


def with_rows(tables: Mapping[str, Any], rows: Mapping[str, list[dict[str, Any]]]) -> dict:
    """A copy of the campaign's tables with the given tables' rows replaced (an optional
    table without rows is stored as not entered yet)."""
    data = copy.deepcopy(dict(tables))
    for table in TABLES:
        if table.key in rows:
            section = data.get(table.key)
            section = dict(section) if isinstance(section, Mapping) else {}
            section["rows"] = rows[table.key] or (None if table.optional else [])
            data[table.key] = section
    return data


def _original_rows(tables: Mapping[str, Any], table: CampaignTable) -> list[Mapping[str, Any]]:
    section = tables.get(table.key)
    rows = section.get("rows") if isinstance(section, Mapping) else None
    return [r for r in rows if isinstance(r, Mapping)] if isinstance(rows, list) else []


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def shown(column: Column, value: Any) -> str:
    """A cell as the grid shows it: the example tables' words in the reader's language."""
    text = _text(value)
    return text if column.kind in ("number", "side") else example_words(text)


class TablesGridForm(forms.Form):
    """Every campaign table as rows and columns; `cleaned_data["tables"]` is the new data.

    `add` names a table to show one more empty row for (the "Add a row" button): the form
    then only redraws, it saves nothing."""

    def __init__(
        self,
        tables: Mapping[str, Any],
        template: CCTemplate,
        data: Mapping[str, Any] | None = None,
        *,
        add: str = "",
    ):
        super().__init__(data)
        self.tables = tables
        self.template = template
        self.originals = {t.key: _original_rows(tables, t) for t in TABLES}
        self.sides = [("", "—"), *((f.value, gettext(name)) for name, f in template.sides)]
        self.counts: dict[str, int] = {}
        for table in TABLES:
            count = len(self.originals[table.key]) + 1  # one empty row to fill in
            if data is not None:
                count = _posted_count(data.get(f"{table.key}-count"), count)
            if add == table.key:
                count += 1
            self.counts[table.key] = min(count, MAX_ROWS)
            self.fields[f"{table.key}-count"] = forms.IntegerField(
                widget=forms.HiddenInput, initial=self.counts[table.key], required=False
            )
            for i in range(self.counts[table.key]):
                self._row_fields(table, i)
        if data is not None:
            # The redrawn grid shows the new row count, not the posted one.
            self.data = data.copy() if hasattr(data, "copy") else dict(data)
            for key, count in self.counts.items():
                self.data[f"{key}-count"] = str(count)

    def _row_fields(self, table: CampaignTable, i: int) -> None:
        original = self.originals[table.key][i] if i < len(self.originals[table.key]) else {}
        where = {"table": say(table.title), "n": i + 1}
        for column in table.columns:
            label = gettext("%(table)s, row %(n)s, %(column)s") % {
                **where,
                "column": say(column.label),
            }
            attrs = {"aria-label": label}
            if column.kind == "side":
                field: forms.Field = forms.ChoiceField(
                    choices=self.sides, required=False, widget=forms.Select(attrs=attrs)
                )
            else:
                if column.kind == "number":
                    attrs |= {"inputmode": "numeric", "class": "num"}
                field = forms.CharField(
                    required=False,
                    max_length=CELL_MAX,
                    strip=False,
                    widget=forms.TextInput(attrs={**attrs, "placeholder": "?"}),
                )
            field.initial = shown(column, original.get(column.name))
            self.fields[self.cell(table, i, column.name)] = field
        self.fields[self.cell(table, i, "remove")] = forms.BooleanField(
            required=False,
            label=_("Remove"),
            widget=forms.CheckboxInput(
                attrs={"aria-label": gettext("Remove %(table)s, row %(n)s") % where}
            ),
        )

    @staticmethod
    def cell(table: CampaignTable, i: int, column: str) -> str:
        return f"{table.key}-{i}-{column}"

    def clean(self):
        data = super().clean()
        if self.errors:  # a cell longer than any value: its own message says so
            return data
        rows: dict[str, list[dict[str, Any]]] = {}
        numbers: dict[str, list[int]] = {}  # the row numbers the grid shows
        for table in TABLES:
            rows[table.key], numbers[table.key] = [], []
            originals = self.originals[table.key]
            for i in range(self.counts[table.key]):
                cells = {c.name: data.get(self.cell(table, i, c.name)) or "" for c in table.columns}
                if data.get(self.cell(table, i, "remove")) or not any(
                    v.strip() for v in cells.values()
                ):
                    continue
                rows[table.key].append(
                    build_row(table, cells, originals[i] if i < len(originals) else None)
                )
                numbers[table.key].append(i + 1)
        data["tables"] = tables = with_rows(self.tables, rows)
        for problem in check(tables, numbers):
            self._add_problem(problem)
        return data

    def _add_problem(self, problem: Problem) -> None:
        """A cell's problem beside the cell; a table's or a row's above the grid."""
        table = next((t for t in TABLES if t.key == problem.table), None)
        if table is None or problem.row is None or not problem.column:
            self.add_error(None, say(problem.text))
        else:
            name = self.cell(table, problem.row - 1, problem.column)
            self.fields[name].widget.attrs["aria-describedby"] = f"{name}-error"
            self.add_error(name, say(problem.text))

    def grid(self) -> list[dict[str, Any]]:
        """Per table: its words, columns and rows of bound cells, for the template."""
        sides = dict(self.sides)
        found = []
        for table in TABLES:
            rows = []
            for i in range(self.counts[table.key]):
                cells = []
                for c in table.columns:
                    bound = self[self.cell(table, i, c.name)]
                    value = bound.value() or ""
                    shown = sides.get(value, value) if c.kind == "side" else value
                    cells.append({"field": bound, "kind": c.kind, "shown": shown})
                rows.append(
                    {
                        "number": i + 1,
                        "cells": cells,
                        "remove": self[self.cell(table, i, "remove")],
                        "blank": i >= len(self.originals[table.key]),
                    }
                )
            found.append(
                {
                    "key": table.key,
                    "title": say(table.title),
                    "rule": table.rule,
                    "note": say(TABLE_NOTES.get((self.template.key, table.key))),
                    "columns": [
                        {"label": say(c.label), "help": say(c.help), "kind": c.kind}
                        for c in table.columns
                    ],
                    "rows": rows,
                    "count": self[f"{table.key}-count"],
                    "full": self.counts[table.key] >= MAX_ROWS,
                }
            )
        return found


def _posted_count(raw: Any, default: int) -> int:
    try:
        return max(0, int(raw))
    except (TypeError, ValueError):
        return default


class TablesUploadForm(forms.Form):
    """The tables from a file: the whole set as JSON, or one table as CSV (a header row
    naming the columns, as in the grid's data, then one line per row)."""

    upload = forms.FileField(
        label=_("File (JSON or CSV)"),
        help_text=_(
            "JSON: every table, as the API gives it. CSV: one table, its first line naming the "
            "columns (<code>formation, side, cost …</code> or "
            "<code>side, roll_low, roll_high, formation</code>)."
        ),
    )

    def __init__(self, tables: Mapping[str, Any], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tables = tables

    def clean_upload(self):
        upload = self.cleaned_data["upload"]
        raw = upload.read().decode("utf-8-sig", "replace")
        if upload.name.lower().endswith(".csv"):
            return self._from_csv(raw)
        try:
            return loads_checked(raw)
        except JSONTextError as exc:
            cause = exc.__cause__
            if isinstance(cause, json.JSONDecodeError):
                raise forms.ValidationError(
                    _("This is not valid JSON (line %(line)s, column %(col)s: %(msg)s).")
                    % {"line": cause.lineno, "col": cause.colno, "msg": cause.msg}
                ) from None
            raise forms.ValidationError(str(exc)) from None

    def _from_csv(self, raw: str) -> dict[str, Any]:
        reader = csv.DictReader(io.StringIO(raw))
        header = [h.strip() for h in reader.fieldnames or []]
        table = _table_for(header)
        if table is None:
            raise forms.ValidationError(
                _("The first line must name the table's columns, for example: %(example)s.")
                % {"example": ", ".join(c.name for c in TABLES[0].columns[:5])}
            )
        rows = [
            build_row(table, {k.strip(): v or "" for k, v in line.items() if k}, None)
            for line in reader
            if any((v or "").strip() for v in line.values() if isinstance(v, str))
        ]
        return with_rows(self.tables, {table.key: rows})


def _table_for(header: Sequence[str]) -> CampaignTable | None:
    """The table whose required columns the CSV header names, all of its names known."""
    for table in TABLES:
        names = {c.name for c in table.columns}
        required = {c.name for c in table.columns if c.required}
        if header and required <= set(header) <= names:
            return table
    return None

"""Chart tables typed as rows and columns, never as JSON.

A `Grid` describes one or more tables (e.g. one per op sheet type): their rows and columns are
either fixed and named in words, or headers the organiser types (a few blank ones are always
offered beyond the filled ones, so a table grows by saving it; clearing a row or column removes
it). `GridField` renders them as a table of inputs, one input per cell, posted as
``<field>-<table>-<row>-<column>``, and cleans them into the structure the existing code takes
(`Grid.pack`). A problem is shown next to its cell, naming the table, row and column in words.
An all-blank table is "not given". The JSON text stays available inside "Paste JSON instead"
(posted under the field's own name, as the REST API posts it); when given it wins.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.jsontext import JSONTextError, loads_checked

MAX_LINES = 40  # rows or columns a posted table may claim
MORE = {"rows": (4, 0), "cols": (0, 2)}  # what a "more rows" / "more columns" submit adds


class CellError(ValueError):
    """A cell (or header) that cannot be read; ``str(error)`` is the problem in words."""


class GridError(ValueError):
    """Problems `Grid.pack` finds across cells: (table key, row index, column index, words)."""

    def __init__(self, problems: Sequence[tuple[str, int, int, str]]):
        super().__init__(problems)
        self.problems = list(problems)


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A header or cell reader: a whole number from `low` to `high`."""

    def read(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise CellError(_("write a whole number")) from None
        if not low <= number <= high:
            raise CellError(_("a whole number from %(a)s to %(b)s") % {"a": low, "b": high})
        return number

    return read


@dataclass(frozen=True)
class Axis:
    """The rows (or columns) of a table: fixed ones as (key, words), or headers typed by the
    organiser and read with `read`; `label` names them in words ("Weighted turns")."""

    label: Any
    fixed: tuple[tuple[str, Any], ...] = ()
    read: Callable[[str], Any] = str
    blank: int = 2
    least: int = 4

    def count(self, filled: int) -> int:
        return len(self.fixed) or max(filled + self.blank, self.least)


@dataclass(frozen=True)
class Table:
    """One table of a grid; `named`: the organiser writes its name (e.g. a sector type)."""

    key: str
    title: Any
    rows: Axis
    columns: Axis
    named: bool = False


@dataclass
class TableInput:
    """A table as typed: the name, the headers and the cells, all text (a fixed row or
    column has a blank header: nothing is typed there)."""

    name: str = ""
    rows: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    cells: list[list[str]] = field(default_factory=list)

    def cell(self, i: int, j: int) -> str:
        try:
            return self.cells[i][j]
        except IndexError:
            return ""

    def is_blank(self) -> bool:
        return not (
            self.name or any(self.rows) or any(self.columns) or any(any(r) for r in self.cells)
        )


@dataclass(frozen=True)
class TableValue:
    """A table read: its name, the row and column keys and the cells' values."""

    name: str
    rows: list[Any]
    columns: list[Any]
    cells: list[list[Any]]


@dataclass
class GridInput:
    """What was posted: the tables and the pasted JSON text."""

    tables: dict[str, TableInput]
    json: str = ""
    more: bool = False


class Grid:
    """A chart's shape and how its cells read; subclasses give `tables`, `read_cell`,
    `pack` and, to show a saved chart, `unpack`."""

    tables: Sequence[Table] = ()
    json_help: Any = ""

    def read_cell(self, text: str) -> Any:
        raise NotImplementedError

    def pack(self, tables: Mapping[str, TableValue]) -> Any:
        """The structure the rest of the site takes, from the tables given (None: none)."""
        raise NotImplementedError

    def unpack(self, data: Any) -> dict[str, TableInput]:
        """A saved chart as text in the cells (nothing saved: empty tables)."""
        return {}

    def from_json(self, data: Any) -> Any:
        """The pasted JSON, checked only as far as the page must (the service checks the rest)."""
        return data


def _text(value: Any) -> str:
    return str(value if value is not None else "").strip()[:40]


class GridWidget(forms.Widget):
    template_name = "grid/grid.html"

    def __init__(self, grid: Grid, attrs=None):
        super().__init__(attrs)
        self.grid = grid
        self.cell_errors: dict[str, str] = {}

    def value_from_datadict(self, data, files, name) -> GridInput:
        tables, more = {}, False
        for t in self.grid.tables:
            base = f"{name}-{t.key}"
            rows = len(t.rows.fixed) or _count(data.get(f"{base}-rows"))
            cols = len(t.columns.fixed) or _count(data.get(f"{base}-cols"))
            add_rows, add_cols = MORE.get(str(data.get(f"{base}-more") or ""), (0, 0))
            add_rows, add_cols = (
                (0 if t.rows.fixed else add_rows),
                (0 if t.columns.fixed else add_cols),
            )
            more = more or bool(add_rows or add_cols)
            tables[t.key] = TableInput(
                name=_text(data.get(f"{base}-name")) if t.named else "",
                rows=[_text(data.get(f"{base}-r{i}")) for i in range(rows)]
                + [""] * min(add_rows, MAX_LINES - rows),
                columns=[_text(data.get(f"{base}-c{j}")) for j in range(cols)]
                + [""] * min(add_cols, MAX_LINES - cols),
                cells=[
                    [_text(data.get(f"{base}-{i}-{j}")) for j in range(cols)] for i in range(rows)
                ],
            )
        return GridInput(tables, str(data.get(name) or ""), more)

    def value_omitted_from_data(self, data, files, name) -> bool:
        return False

    def id_for_label(self, id_):
        t = self.grid.tables[0]
        return f"{id_}-{t.key}-{_first(t)}" if id_ else None

    def as_input(self, value) -> GridInput:
        if isinstance(value, GridInput):
            return value
        return GridInput(self.grid.unpack(value) if value else {})

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        given = self.as_input(value)
        base_id = context["widget"]["attrs"].get("id") or f"id_{name}"
        context["widget"]["tables"] = [
            self._table(t, given.tables.get(t.key, TableInput()), name, base_id)
            for t in self.grid.tables
        ]
        context["widget"]["json"] = given.json
        context["widget"]["json_id"] = f"{base_id}-json"
        context["widget"]["json_help"] = self.grid.json_help
        return context

    def _table(self, t: Table, given: TableInput, name: str, base_id: str) -> dict:
        nrows = max(t.rows.count(_filled(given.rows)), len(given.rows))
        ncols = max(t.columns.count(_filled(given.columns)), len(given.columns))
        title = given.name or t.title

        def box(suffix, value, label):
            return {
                "name": f"{name}-{t.key}-{suffix}",
                "id": f"{base_id}-{t.key}-{suffix}",
                "value": value,
                "label": label,
                "error": self.cell_errors.get(f"{t.key}-{suffix}", ""),
            }

        if t.columns.fixed:
            columns = [{"words": words} for _key, words in t.columns.fixed]
        else:
            columns = [
                box(
                    f"c{j}",
                    _at(given.columns, j),
                    _("%(t)s: %(axis)s, heading of column %(n)s")
                    % {"t": title, "axis": t.columns.label, "n": j + 1},
                )
                for j in range(ncols)
            ]
        rows = []
        for i in range(nrows):
            if t.rows.fixed:
                head = {"words": t.rows.fixed[i][1]}
            else:
                head = box(
                    f"r{i}",
                    _at(given.rows, i),
                    _("%(t)s: %(axis)s, heading of row %(n)s")
                    % {"t": title, "axis": t.rows.label, "n": i + 1},
                )
            cells = [
                box(f"{i}-{j}", given.cell(i, j), _cell_words(t, title, given, i, j))
                for j in range(ncols)
            ]
            rows.append({"head": head, "cells": cells})
        has_errors = any(k.startswith(f"{t.key}-") for k in self.cell_errors)
        return {
            "key": t.key,
            "title": t.title,
            "named": box("name", given.name, _("Name of %(t)s") % {"t": t.title})
            if t.named
            else None,
            "corner": f"{t.rows.label} ↓ · {t.columns.label} →",
            "columns": columns,
            "rows": rows,
            "filled": sum(
                1
                for i in range(nrows)
                if _at(given.rows, i) or any(given.cell(i, j) for j in range(ncols))
            ),
            "more": {
                "name": f"{name}-{t.key}-more",
                "rows": not t.rows.fixed and nrows < MAX_LINES,
                "cols": not t.columns.fixed and ncols < MAX_LINES,
            },
            "counts": {
                "rows": None if t.rows.fixed else (f"{name}-{t.key}-rows", nrows),
                "cols": None if t.columns.fixed else (f"{name}-{t.key}-cols", ncols),
            },
            "blank": given.is_blank(),
            "open": not given.is_blank() or has_errors,
        }

    def render(self, name, value, attrs=None, renderer=None):
        context = self.get_context(name, value, attrs)
        return mark_safe(render_to_string(self.template_name, context))


def _count(text: Any) -> int:
    try:
        return max(0, min(int(text), MAX_LINES))
    except (TypeError, ValueError):
        return 0


def _first(t: Table) -> str:
    """The suffix of a table's first input (where the field's label points)."""
    if t.named:
        return "name"
    if not t.columns.fixed:
        return "c0"
    return "0-0" if t.rows.fixed else "r0"


def _filled(headers: list[str]) -> int:
    return max((i + 1 for i, h in enumerate(headers) if h), default=0)


def _at(items: list[str], i: int) -> str:
    return items[i] if i < len(items) else ""


def _where(axis: Axis, headers: list[str], i: int, unnamed: str) -> str:
    """A row or column in words: its fixed name, its typed heading, or `unnamed` numbered."""
    if axis.fixed:
        return str(axis.fixed[i][1])
    if _at(headers, i):
        return f"{axis.label} {headers[i]}"
    return unnamed % {"n": i + 1}


def _cell_words(t: Table, title, given: TableInput, i: int, j: int) -> str:
    return _("%(t)s: %(row)s, %(column)s") % {
        "t": title,
        "row": _where(t.rows, given.rows, i, _("row %(n)s")),
        "column": _where(t.columns, given.columns, j, _("column %(n)s")),
    }


class GridField(forms.Field):
    """A chart typed cell by cell (see the module's docstring); cleans to `grid.pack(...)`."""

    def __init__(self, grid: Grid, **kwargs):
        self.grid = grid
        kwargs.setdefault("required", False)
        super().__init__(widget=GridWidget(grid), **kwargs)

    def clean(self, value):
        value = value if isinstance(value, GridInput) else self.widget.as_input(value)
        self.widget.cell_errors = {}
        if value.json.strip():
            return self._clean_json(value.json)
        if value.more:  # nothing is saved: the page comes back with the blank lines added
            raise forms.ValidationError(_("Blank rows and columns added: fill them in, then save."))
        problems: dict[str, str] = {}
        empty: dict[str, str] = {}  # cell → its table's title
        tables = {}
        for t in self.grid.tables:
            given = value.tables.get(t.key, TableInput())
            if not given.is_blank():
                tables[t.key] = self._read(t, given, problems, empty)
        if not problems:
            try:
                packed = self.grid.pack(tables) if tables else None
            except GridError as exc:
                shapes = {t.key: t for t in self.grid.tables}
                for key, i, j, words in exc.problems:
                    t, given = shapes[key], value.tables[key]
                    problems[f"{key}-{i}-{j}"] = (
                        f"{_cell_words(t, given.name or t.title, given, i, j)}: {words}"
                    )
            else:
                return packed
        self.widget.cell_errors = problems
        raise forms.ValidationError(_summary(problems, empty))

    def _read(self, t: Table, given: TableInput, problems: dict, empty: dict) -> TableValue:
        title = given.name or t.title
        if t.named and not given.name:
            problems[f"{t.key}-name"] = _("%(t)s: write its name.") % {"t": t.title}
        nrows, ncols = (
            len(t.rows.fixed) or len(given.rows),
            len(t.columns.fixed) or len(given.columns),
        )
        used_rows = [
            i
            for i in range(nrows)
            if t.rows.fixed or _at(given.rows, i) or any(given.cell(i, j) for j in range(ncols))
        ]
        used_cols = [
            j
            for j in range(ncols)
            if t.columns.fixed
            or _at(given.columns, j)
            or any(given.cell(i, j) for i in range(nrows))
        ]
        row_keys = self._headers(t, t.rows, given.rows, used_rows, "r", title, problems)
        col_keys = self._headers(t, t.columns, given.columns, used_cols, "c", title, problems)
        cells = []
        for i in used_rows:
            line = []
            for j in used_cols:
                text = given.cell(i, j)
                try:
                    if not text:
                        empty[f"{t.key}-{i}-{j}"] = str(title)
                        raise CellError(_("empty"))
                    line.append(self.grid.read_cell(text))
                except CellError as exc:
                    line.append(None)
                    problems[f"{t.key}-{i}-{j}"] = f"{_cell_words(t, title, given, i, j)}: {exc}"
            cells.append(line)
        return TableValue(given.name, row_keys, col_keys, cells)

    def _headers(self, t, axis: Axis, headers, used, mark, title, problems) -> list:
        if axis.fixed:
            return [k for k, _w in axis.fixed]
        keys, seen = [], set()
        for n in used:
            name = f"{t.key}-{mark}{n}"
            where = _("%(t)s: %(axis)s, heading %(n)s") % {
                "t": title,
                "axis": axis.label,
                "n": n + 1,
            }
            try:
                if not _at(headers, n):
                    raise CellError(_("write it, or clear the cells under it"))
                key = axis.read(headers[n])
                if key in seen:
                    raise CellError(_("%(k)s is given twice") % {"k": headers[n]})
            except CellError as exc:
                problems[name] = f"{where}: {exc}"
                key = None
            seen.add(key)
            keys.append(key)
        return keys

    def _clean_json(self, text: str) -> Any:
        try:
            data = loads_checked(text)
        except JSONTextError as exc:
            cause = exc.__cause__
            if isinstance(cause, json.JSONDecodeError):
                raise forms.ValidationError(
                    _("not valid JSON (line %(l)s, column %(c)s)")
                    % {"l": cause.lineno, "c": cause.colno}
                ) from None
            raise forms.ValidationError(str(exc)) from None
        return self.grid.from_json(data)


def _summary(problems: dict[str, str], empty: dict[str, str]) -> list[str]:
    """The messages above the grid: each problem, but empty cells counted per table (each is
    also marked next to its cell)."""
    found = [words for key, words in problems.items() if key not in empty]
    counts: dict[str, int] = {}
    for title in empty.values():
        counts[title] = counts.get(title, 0) + 1
    found += [
        ngettext(
            "%(t)s: %(n)s cell is empty (marked in the table).",
            "%(t)s: %(n)s cells are empty (marked in the table).",
            n,
        )
        % {"t": title, "n": n}
        for title, n in counts.items()
    ]
    return found

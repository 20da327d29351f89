"""A battle's counter table as a grid, like the campaign tables: one row per unit type or
Weapon, one input per printed value, each problem beside its cell in words; the rules
(`rules.cc.battle.counters.table_from_data`) check it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from rules.cc.battle.counters import FIELD_LABELS, YES, CounterTableError, table_from_data
from rules.cc.battle.units import FIGURES, KIND_LABELS
from rules.i18n import Msg

MAX_ROWS = 60
CELL_MAX = 40
_WHOLE = re.compile(r"[+-]?\d{1,3}")


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # "text", "number", "kind" (a select), "flag" (a checkbox)

    @property
    def label(self) -> str:
        """Its heading: the rules' word for it, "Broken: …" for the broken side."""
        if self.name.startswith("broken_"):
            field = say(FIELD_LABELS[self.name.removeprefix("broken_")])
            return gettext("Broken: %(field)s") % {"field": field}
        return say(FIELD_LABELS[self.name])


def _columns(spec: str) -> tuple[Column, ...]:
    return tuple(Column(*part.split(":")) for part in spec.split())


SIDE = "fp:number range:number move:number morale:number command:number boxed:text"
SECTIONS: dict[str, tuple[Any, tuple[Column, ...]]] = {
    "units": (
        _("Units"),
        _columns(
            "nationality:text name:text kind:kind vp:number "
            + SIDE
            + " "
            + " ".join(f"broken_{c}" for c in SIDE.split())
        ),
    ),
    "weapons": (
        _("Weapons"),
        _columns(
            "nationality:text name:text fp:number range:text move:number boxed:text "
            "artillery:flag smoke:flag fix:text elim:text"
        ),
    ),
}


def cell_text(value: Any) -> str:
    """A saved value as its cell shows it: lists as "2-12" (spans) or "fp range" (boxed)."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, list):
        joiner = " " if all(isinstance(v, str) for v in value) else "-"
        return joiner.join(str(v) for v in value)
    return str(value)


def cell_value(column: Column, raw: Any) -> Any:
    """A cell as table data: whole numbers as numbers, a tick as yes/no, words stripped."""
    if column.kind == "flag":
        return bool(raw)
    text = str(raw or "").strip()
    return int(text) if column.kind == "number" and _WHOLE.fullmatch(text) else text


class CountersGridForm(forms.Form):
    """The counter table typed cell by cell; `cleaned_data["counters"]` is the checked data.

    `add` names a section ("units", "weapons") to show one more empty row for: the form then
    only redraws, it saves nothing."""

    def __init__(self, counters: Mapping[str, Any] | None, data=None, *, add: str = "") -> None:
        super().__init__(data)
        saved = counters or {}
        self.originals = {
            key: [r for r in saved.get(key) or [] if isinstance(r, Mapping)] for key in SECTIONS
        }
        self.counts: dict[str, int] = {}
        for key, (_title, columns) in SECTIONS.items():
            count = len(self.originals[key]) + 1  # one empty row to fill in
            if data is not None:
                count = _posted_count(data.get(f"{key}-count"), count)
            count = min(count + (add == key), MAX_ROWS)
            self.counts[key] = count
            self.fields[f"{key}-count"] = forms.IntegerField(
                widget=forms.HiddenInput, initial=count, required=False
            )
            for i in range(count):
                self._row_fields(key, columns, i)
        if data is not None:  # the redrawn grid shows the new row count
            self.data = data.copy() if hasattr(data, "copy") else dict(data)
            for key, count in self.counts.items():
                self.data[f"{key}-count"] = str(count)

    @staticmethod
    def cell(key: str, i: int, column: str) -> str:
        return f"{key}-{i}-{column}"

    def _row_fields(self, key: str, columns: tuple[Column, ...], i: int) -> None:
        original = self.originals[key][i] if i < len(self.originals[key]) else {}
        title = SECTIONS[key][0]
        for column in columns:
            attrs = {
                "aria-label": gettext("%(table)s, row %(n)s, %(column)s")
                % {"table": title, "n": i + 1, "column": column.label}
            }
            field: forms.Field
            if column.kind == "kind":
                choices = [("", "—"), *((k.value, say(KIND_LABELS[k])) for k in FIGURES)]
                field = forms.ChoiceField(
                    choices=choices, required=False, widget=forms.Select(attrs=attrs)
                )
            elif column.kind == "flag":
                field = forms.BooleanField(required=False, widget=forms.CheckboxInput(attrs=attrs))
            else:
                if column.kind == "number":
                    attrs |= {"inputmode": "numeric"}
                field = forms.CharField(
                    required=False,
                    max_length=CELL_MAX,
                    widget=forms.TextInput(attrs=attrs),
                )
            value = original.get(column.name)
            field.initial = str(value).lower() in YES if column.kind == "flag" else cell_text(value)
            self.fields[self.cell(key, i, column.name)] = field
        self.fields[self.cell(key, i, "remove")] = forms.BooleanField(
            required=False,
            widget=forms.CheckboxInput(
                attrs={
                    "aria-label": gettext("Remove %(table)s, row %(n)s")
                    % {"table": title, "n": i + 1}
                }
            ),
        )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        table: dict[str, list[dict[str, Any]]] = {}
        shown: dict[str, list[int]] = {}  # the grid's row index of each data row
        for key, (_title, columns) in SECTIONS.items():
            table[key], shown[key] = [], []
            for i in range(self.counts[key]):
                cells = {c.name: data.get(self.cell(key, i, c.name)) for c in columns}
                if data.get(self.cell(key, i, "remove")) or not any(cells.values()):
                    continue
                row = {c.name: cell_value(c, cells[c.name]) for c in columns}
                table[key].append({k: v for k, v in row.items() if v != ""})
                shown[key].append(i)
        try:
            table_from_data(table)
        except CounterTableError as exc:
            for problem in exc.cells:
                self._add_problem(problem.section, shown, problem.row, problem.column, problem.text)
            return data
        data["counters"] = table
        return data

    def _add_problem(self, key: str, shown, row: int, column: str, text: Msg) -> None:
        """A cell's problem beside the cell; a row's above the grid, naming the row."""
        i = shown[key][row - 1]
        name = self.cell(key, i, column)
        if column and name in self.fields:
            self.fields[name].widget.attrs["aria-describedby"] = f"{name}-error"
            self.add_error(name, say(text))
        else:
            self.add_error(
                None,
                gettext("%(table)s, row %(n)s: %(problem)s")
                % {"table": SECTIONS[key][0], "n": i + 1, "problem": say(text)},
            )

    def grid(self) -> list[dict[str, Any]]:
        """Per section: its title, columns and rows of bound cells, for the template."""
        found = []
        for key, (title, columns) in SECTIONS.items():
            rows = [
                {
                    "number": i + 1,
                    "cells": [
                        {"field": self[self.cell(key, i, c.name)], "kind": c.kind} for c in columns
                    ],
                    "remove": self[self.cell(key, i, "remove")],
                    "blank": i >= len(self.originals[key]),
                }
                for i in range(self.counts[key])
            ]
            found.append(
                {
                    "key": key,
                    "title": title,
                    "columns": [{"label": c.label, "kind": c.kind} for c in columns],
                    "rows": rows,
                    "count": self[f"{key}-count"],
                    "full": self.counts[key] >= MAX_ROWS,
                }
            )
        return found


def _posted_count(raw: Any, default: int) -> int:
    try:
        return max(0, min(int(raw), MAX_ROWS))
    except (TypeError, ValueError):
        return default

"""The Command Prep Table [6.9.f] typed as grids (campaigns/grid.py), one per op sheet type."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaigns.grid import Axis, CellError, Grid, Table, TableInput, whole_number
from campaigns.models.tcs import SHEET_TYPES


class PrepTableGrid(Grid):
    """The Command Prep Table [6.9.f] as `COMMAND_PREP_SCHEMA` records, one table per op
    sheet type: weighted-turn columns, rating + size rows, d66 thresholds (None: "-")."""

    tables = tuple(
        Table(
            key=value,
            title=label,
            rows=Axis(_("Rating + size"), read=whole_number(0, 99), least=6),
            columns=Axis(_("Weighted turns"), read=whole_number(0, 999), least=5),
        )
        for value, label in SHEET_TYPES.items()
    )
    json_help = _(
        'One record per op sheet type: [{"type": "attack", "columns": [0, 4, 8], '
        '"rows": {"5": [66, 61, 55]}}], null where the chart shows no number.'
    )

    def read_cell(self, text):
        if text in ("-", "0"):
            return None
        value = whole_number(11, 66)(text)
        if value % 10 not in range(1, 7):
            raise CellError(_("a d66 reading: 11–16, 21–26 … 61–66"))
        return value

    def pack(self, tables):
        records = []
        for key, table in tables.items():
            order = sorted(range(len(table.columns)), key=lambda j: table.columns[j])
            records.append(
                {
                    "type": key,
                    "columns": [table.columns[j] for j in order],
                    "rows": {
                        str(k): [cells[j] for j in order]
                        for k, cells in sorted(zip(table.rows, table.cells, strict=True))
                    },
                }
            )
        return records

    def unpack(self, data):
        found = {}
        for record in data if isinstance(data, list) else []:
            rows = record.get("rows") or {}
            found[record.get("type")] = TableInput(
                rows=list(rows),
                columns=[str(c) for c in record.get("columns") or []],
                cells=[["-" if v is None else str(v) for v in cells] for cells in rows.values()],
            )
        return found

"""The 1936 Costa / Ciudad scenery table (M36-I.2) typed as grids (campaigns/grid.py)."""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from campaigns.grid import Axis, Grid, GridError, Table, whole_number
from campaigns.i18n import say
from campaigns.models import bounds as b
from rules.i18n import msg
from rules.m1936 import labels as m36_labels
from rules.m1936 import scenario as m36s


class SectorTableGrid(Grid):
    """The Costa / Ciudad scenery table (M36-I.2) as `SECTOR_TABLE_SCHEMA` rows: 4 sector
    types, each naming the minimum and maximum count of every element."""

    tables = tuple(
        Table(
            key=f"s{n}",
            title=lazy(say, str)(msg("Sector type %(n)s", n=n)),
            rows=Axis(
                _("Element"),
                fixed=tuple((e, lazy(say, str)(m36_labels.ELEMENTS[e])) for e in m36s.ELEMENTS),
            ),
            columns=Axis(_("Count"), fixed=(("min", _("Minimum")), ("max", _("Maximum")))),
            named=True,
        )
        for n in m36s.SECTORS
    )
    json_help = _('A list of {"sector", "element", "min", "max"} rows.')
    read_cell = staticmethod(whole_number(*b.ELEMENT_COUNT))

    def pack(self, tables):
        rows, problems = [], []
        for key, table in tables.items():
            for i, (element, (low, high)) in enumerate(zip(table.rows, table.cells, strict=True)):
                if low > high:
                    problems.append((key, i, 1, _("the maximum is below the minimum")))
                rows.append({"sector": table.name, "element": element, "min": low, "max": high})
        if problems:
            raise GridError(problems)
        return rows

    def from_json(self, data):
        if not isinstance(data, list):
            raise forms.ValidationError(_("A list of rows."))
        return data

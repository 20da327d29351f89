"""TCS operation pages: set-up, sides and order of battle, op sheets, the Command Phase
assistant, losses and morale, the timeline, and a privacy-aware JSON export.

A side's pages answer 404 to anyone who may not see its secrets; writes go through
`campaigns.services.tcs` and show its errors on the form that caused them. One module per
screen; `campaigns/urls_tcs.py` routes to the names re-exported here.
"""

from campaigns.views.tcs.artillery import tcs_artillery
from campaigns.views.tcs.assault import tcs_assault
from campaigns.views.tcs.charts import tcs_charts_view
from campaigns.views.tcs.choices import tcs_decisions, tcs_readings
from campaigns.views.tcs.command import tcs_command
from campaigns.views.tcs.history import tcs_export, tcs_timeline_view
from campaigns.views.tcs.minefields import tcs_minefield_preview, tcs_minefields
from campaigns.views.tcs.operation import (
    tcs_advance,
    tcs_end,
    tcs_end_withdraw,
    tcs_new,
    tcs_operation_view,
    tcs_start,
)
from campaigns.views.tcs.resolve import tcs_fire_preview, tcs_resolve
from campaigns.views.tcs.sheets import (
    tcs_sheet_defense,
    tcs_sheet_delete,
    tcs_sheet_edit,
    tcs_sheet_fail,
    tcs_sheet_graphic,
    tcs_sheet_implement,
    tcs_sheet_new,
    tcs_sheet_reveal,
    tcs_sheet_units,
    tcs_sheet_view,
)
from campaigns.views.tcs.side import tcs_side_view

__all__ = [
    "tcs_advance",
    "tcs_artillery",
    "tcs_assault",
    "tcs_charts_view",
    "tcs_command",
    "tcs_decisions",
    "tcs_end",
    "tcs_end_withdraw",
    "tcs_export",
    "tcs_fire_preview",
    "tcs_minefield_preview",
    "tcs_minefields",
    "tcs_new",
    "tcs_operation_view",
    "tcs_readings",
    "tcs_resolve",
    "tcs_sheet_defense",
    "tcs_sheet_delete",
    "tcs_sheet_edit",
    "tcs_sheet_fail",
    "tcs_sheet_graphic",
    "tcs_sheet_implement",
    "tcs_sheet_new",
    "tcs_sheet_reveal",
    "tcs_sheet_units",
    "tcs_sheet_view",
    "tcs_side_view",
    "tcs_start",
    "tcs_timeline_view",
]

"""An operation's TCS charts, parsed for the procedures that read them (None: not entered,
the player gives the value read off the printed chart)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.models import Campaign
from rules.tcs.fire_tables import FireCharts
from rules.tcs.morale_table import MoraleTable

KEY = "tcs_charts"


@dataclass(frozen=True)
class OperationCharts:
    """`fire` carries the shift and AT Roll tables entered with it (`FireCharts`)."""

    morale: MoraleTable | None
    fire: FireCharts | None
    data: dict[str, Any]


def charts_data(campaign: Campaign) -> dict[str, Any]:
    """The stored charts as entered (the rules' data form), by chart name."""
    return dict((campaign.tables or {}).get(KEY) or {})


def operation_charts(campaign: Campaign) -> OperationCharts:
    """The operation's charts parsed by the rules modules (each None when not entered)."""
    data = charts_data(campaign)
    morale = MoraleTable.from_data(data["morale"]) if data.get("morale") else None
    fire = None
    if data.get("fire"):
        fire = FireCharts.from_data(
            {"fire": data["fire"], **(data.get("shifts") or {}), "at_roll": data.get("at")}
        )
    return OperationCharts(morale, fire, data)

"""Reads for the artillery page: a side's batteries and ammunition record [18.2] (private to
the side [1.5]), the operation's Artillery Adjustment Table, its public Smoke and Illum
markers [19, 26.2] and the side's latest missions (a fixed window)."""

from __future__ import annotations

from campaigns.models import Campaign, Side
from campaigns.models.tcs import TcsCombat, TcsSide
from campaigns.selectors.tcs_charts import charts_data
from campaigns.tcs.state import current_turn
from rules.tcs.ammo import AmmoRecord
from rules.tcs.artillery_adjust import AdjustmentTable
from rules.tcs.smoke import Markers

WINDOW = 10
MARKERS_KEY = "tcs_markers"
MISSION_KIND = "artillery_mission"
ATTACK_KIND = "artillery"


def ammo_record(side: Side, turn: int | None = None) -> AmmoRecord:
    """The side's record; from another turn than `turn`, every battery may fire again
    [18.1.b] (the stored flags belong to the turn they were set in)."""
    settings = TcsSide.objects.filter(side=side).first()
    data = dict(settings.artillery or {}) if settings else {}
    record = AmmoRecord.from_dict({"side": side.name, **data})
    if turn is not None and data.get("turn") not in (None, turn):
        record.new_turn()
    return record


def adjustment_table(campaign: Campaign) -> AdjustmentTable | None:
    data = charts_data(campaign).get("adjustment")
    return AdjustmentTable.from_data(data) if data else None


def markers(campaign: Campaign) -> Markers:
    return Markers.from_dict((campaign.tables or {}).get(MARKERS_KEY) or {"markers": []})


def missions(side: Side) -> list[TcsCombat]:
    """The side's latest missions, newest first (1 query, at most WINDOW)."""
    return list(
        TcsCombat.objects.filter(side=side, kind=MISSION_KIND).order_by("-created_at", "-id")[
            :WINDOW
        ]
    )


def missions_this_turn(campaign: Campaign, side) -> list:
    """This turn's missions of the side that an attack may use (1 query)."""
    turn = current_turn(campaign).number
    return [c for c in missions(side) if c.turn == turn and c.result.get("factors")]

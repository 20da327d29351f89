"""A TCS operation as JSON, as one viewer may see it (the page's download and the API)."""

from __future__ import annotations

from campaigns.models import Campaign
from campaigns.models.tcs import OpSheetRecord, TcsUnit
from campaigns.permissions import Viewer
from campaigns.selectors.campaigns import campaign_log
from campaigns.selectors.tcs import tcs_operation


def tcs_operation_export(campaign: Campaign, viewer: Viewer) -> dict:
    """The operation as JSON, as this viewer may see it: another side's unrevealed sheets,
    order of battle and morale are left out, as are private log entries."""
    op = tcs_operation(campaign, viewer)
    sides = []
    for sv in op.sides:
        item = {"name": sv.side.name, "rating": sv.settings.rating if sv.settings else None}
        if sv.can_see:
            item["prep_table"] = sv.settings.prep_table if sv.settings else None
            item["formations"] = [
                {
                    "id": f.formation.code,
                    "name": f.formation.name,
                    "morale": f.formation.morale,
                    "battalion": f.formation.is_battalion,
                    "state": f.formation.state,
                    "history": f.formation.history,
                    "units": [_unit_data(u) for u in f.units],
                }
                for f in sv.formations
            ]
            item["units"] = [_unit_data(u) for u in sv.loose_units]
        item["op_sheets"] = [_sheet_data(s) for s in sv.sheets]
        sides.append(item)
    log = [
        {"number": e.number, "kind": e.kind, "rule": e.rule, "summary": e.summary, "data": e.data}
        for e in campaign_log(campaign, viewer)
    ]
    return {
        "format": "campaign-ledger/tcs-operation",
        "version": 1,
        "name": campaign.name,
        "status": campaign.status,
        "turn": op.turn.to_dict(),
        "sides": sides,
        "log": log,
    }


def _unit_data(u: TcsUnit) -> dict:
    return {
        "id": u.code,
        "category": u.category,
        "steps": u.steps,
        "steps_lost": u.steps_lost,
        "eliminated_turn": u.eliminated_turn,
    }


def _sheet_data(s: OpSheetRecord) -> dict:
    return {
        "code": s.code,
        "state": s.state,
        "history": s.history,
        "time_drawn": s.time_drawn,
        "size_note": s.size_note,
        "task_organization": s.task_organization,
        "written_notes": s.written_notes,
        "failure_instructions": s.failure_instructions,
        "rally_points": s.rally_points,
        "preliminary_instructions": s.preliminary_text,
        "reserves": s.reserves_text,
        "alternatives": s.alternatives_text,
        "has_graphic": bool(s.graphic),
        "revealed": s.revealed_at is not None,
    }

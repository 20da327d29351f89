"""Reads for minefields [21]: the operation's markers (public once on the map) and what a
Prepared Defense sheet granted [21.1]. Bounded: the markers of one operation and the sheets
of one side."""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, Side
from campaigns.models.tcs import OpSheetRecord, TcsCombat

KEY = "tcs_minefields"
MINE_KINDS = ("minefield", "breach")
WINDOW = 10


def markers(campaign: Campaign) -> list[dict[str, Any]]:
    """The operation's markers as stored: MinefieldMarker dicts with an `id` and the `side`
    that placed them."""
    return [dict(r) for r in ((campaign.tables or {}).get(KEY) or [])]


def granted(record: OpSheetRecord) -> int:
    """Minefields the sheet's Prepared Defense implementations granted [21.1]."""
    return sum(int(p.get("minefields", 0) or 0) for p in record.prepared_defense or [])


def sheet_grants(campaign: Campaign, side: Side) -> list[dict[str, Any]]:
    """The side's sheets that granted minefields: granted, placed, left."""
    rows = markers(campaign)
    out = []
    for record in OpSheetRecord.objects.filter(side=side).order_by("created_at", "id"):
        given = granted(record)
        if not given:
            continue
        placed = sum(1 for r in rows if r.get("source") == f"sheet:{record.pk}")
        out.append(
            {
                "sheet": record,
                "granted": given,
                "placed": placed,
                "left": max(given - placed, 0),
            }
        )
    return out


def recent_attacks(side: Side) -> list[TcsCombat]:
    """The side's latest minefield attacks and breach attempts (1 query, a fixed window)."""
    return list(
        TcsCombat.objects.filter(side=side, kind__in=MINE_KINDS).order_by("-created_at", "-id")[
            :WINDOW
        ]
    )

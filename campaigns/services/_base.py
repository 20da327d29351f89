"""Shared plumbing for services: the campaign row lock and the append-only log."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from campaigns.models import Campaign, LogEntry, Side


def lock_campaign(campaign_id: int) -> Campaign:
    """Lock the campaign row for the rest of the transaction (call inside `atomic`)."""
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def append_log(
    campaign: Campaign,
    *,
    kind: str,
    summary: str,
    actor=None,
    rule: str = "",
    data: dict[str, Any] | None = None,
    private_to: Side | None = None,
    battle=None,
) -> LogEntry:
    """Append one entry to the campaign log; the caller holds the campaign lock.

    `seq` orders every entry; `number`, the one people see, counts public entries only, so
    nobody can tell from the numbering that another side wrote a private entry."""
    last = LogEntry.objects.filter(campaign=campaign).aggregate(seq=Max("seq"), n=Max("number"))
    return LogEntry.objects.create(
        campaign=campaign,
        battle=battle,
        seq=(last["seq"] or 0) + 1,
        number=None if private_to is not None else (last["n"] or 0) + 1,
        kind=kind,
        summary=summary[:300],
        actor=actor if actor is not None and actor.is_authenticated else None,
        rule=rule,
        data=data or {},
        private_to=private_to,
    )

"""Recovering battle resolutions whose worker died: find them and queue them again.

A battle whose result was entered stays "resolving" until the engine has applied its
consequences (`campaigns.resolve_campaign`, which runs under the campaign row lock). If the
worker running it dies, its transaction is rolled back and nothing is written; the broker
hands the message out again only later. The periodic sweep (`campaigns.sweep_stuck_resolutions`,
run by beat every minute) queues such a resolution again once nothing has been written for a
minute. Running it again is safe: the engine state says what is done, so a second run (even
one running at the same time, which waits for the lock) applies nothing twice.

A campaign is *not* stuck when it waits for a player (an open decision) or when the rules
stopped on purpose (`Campaign.stopped_reason`, logged for everyone: fixing the tables or
"Resume" runs it again). Those are never re-queued by the sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from campaigns.models import Battle, Campaign, Decision, GameSystem, LogEntry
from campaigns.services.enqueue import resolve_campaign_later

logger = logging.getLogger(__name__)

#: Nothing written for this long while a battle is resolving: its worker is gone.
STUCK_AFTER = timedelta(minutes=1)
#: How often beat runs the sweep (CELERY_BEAT_SCHEDULE in the settings says the same).
SWEEP_EVERY = timedelta(minutes=1)


def stuck_resolutions(
    *,
    quiet_for: timedelta = STUCK_AFTER,
    now: datetime | None = None,
    every: timedelta = SWEEP_EVERY,
    lock: bool = False,
) -> list[Campaign]:
    """Combat Commander campaigns whose battle resolution should be queued again (one query).

    Stuck means: a battle is "resolving", no decision is open, the rules did not stop on
    purpose, and nothing was written (campaign row or log) for `quiet_for`. A campaign that
    stays stuck is returned again when its quiet time doubles (1, 2, 4, 8 … minutes), not at
    every sweep, so a resolution that keeps failing is not queued every minute forever.

    `lock` (inside a transaction) locks the rows returned and skips campaigns whose row is
    locked right now: their resolution is running.
    """
    now = now or timezone.now()
    latest_log = LogEntry.objects.filter(campaign=OuterRef("pk")).order_by("-seq")
    campaigns = (
        Campaign.objects.filter(
            system=GameSystem.COMBAT_COMMANDER,
            status__in=[Campaign.Status.SETUP, Campaign.Status.ACTIVE],
            stopped_reason="",
        )
        .filter(
            Exists(Battle.objects.filter(campaign=OuterRef("pk"), status=Battle.Status.RESOLVING))
        )
        .exclude(
            Exists(Decision.objects.filter(campaign=OuterRef("pk"), status=Decision.Status.OPEN))
        )
        .annotate(last_log_at=Subquery(latest_log.values("created_at")[:1]))
        .annotate(last_write=Greatest("updated_at", Coalesce("last_log_at", "updated_at")))
        .filter(last_write__lte=now - quiet_for)
        .order_by("last_write", "pk")
    )
    if lock:
        campaigns = campaigns.select_for_update(skip_locked=True, of=("self",))
    return [c for c in campaigns if _due(now - c.last_write, quiet_for, every)]


def _due(quiet: timedelta, first: timedelta, every: timedelta) -> bool:
    """Whether the quiet time passed `first`, 2·`first`, 4·`first` … since the last sweep."""
    if first <= timedelta(0):
        return True
    threshold = first
    while threshold <= quiet:
        if quiet - every < threshold:
            return True
        threshold *= 2
    return False


def resolution_sweep(
    *, quiet_for: timedelta = STUCK_AFTER, now: datetime | None = None
) -> list[int]:
    """Queue the resolution of every stuck campaign again; the ids queued (beat, every minute).

    Writes nothing itself: the resolution it queues writes the log. The rows are locked (and
    those being resolved right now skipped) only while they are chosen.
    """
    with transaction.atomic():
        stuck = stuck_resolutions(quiet_for=quiet_for, now=now, lock=True)
        for campaign in stuck:
            logger.warning(
                "Campaign %s has had a battle resolving with nothing written since %s: "
                "its resolution is queued again.",
                campaign.pk,
                campaign.last_write.isoformat(),
            )
            resolve_campaign_later(campaign.pk)
    return [c.pk for c in stuck]

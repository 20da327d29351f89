"""Celery tasks. Each is thin: it loads rows and calls a service."""

from datetime import timedelta

from celery import shared_task
from django.core.exceptions import ValidationError
from django.db import connection

from campaigns.models import Campaign, League
from campaigns.selectors.leagues import league_get, league_standings
from campaigns.services.cc_engine import cc_resolve
from campaigns.services.leagues import league_ratings_recompute
from campaigns.services.notices import notices_send
from campaigns.services.resolution import STUCK_AFTER, SWEEP_EVERY, resolution_sweep


@shared_task(name="campaigns.ping")
def ping(payload: str) -> dict[str, str]:
    """Round-trip check used by the health tooling and the real-worker test."""
    return {"echo": payload, "database": connection.vendor}


# A resolution takes well under a second; the limits (shorter than the broker's visibility
# timeout, see the settings) only stop one that hangs. A worker that dies mid-way loses nothing:
# the transaction is rolled back and the message goes back to the queue (acks late, reject on
# worker lost), or the sweep below queues the campaign again.
@shared_task(name="campaigns.resolve_campaign", soft_time_limit=45, time_limit=60)
def resolve_campaign(campaign_id: int) -> str:
    """Run a campaign's post-battle procedure until it needs a player (idempotent).

    It runs under the campaign row lock and the engine state says what is done, so running it
    twice, or twice at once, applies each consequence once. A rules problem (a table value
    the campaign has not entered yet) stops it: the engine keeps and logs the reason, and
    saving the tables or "Resume" on the campaign page runs this again.
    """
    try:
        cc_resolve(campaign_id=campaign_id)
    except ValidationError:
        return "stopped"
    except Campaign.DoesNotExist:
        return "gone"
    return "done"


@shared_task(name="campaigns.sweep_stuck_resolutions", expires=SWEEP_EVERY.total_seconds())
def sweep_stuck_resolutions(quiet_for_seconds: float = STUCK_AFTER.total_seconds()) -> list[int]:
    """Queue again the resolutions whose worker died (beat runs this every minute).

    A sweep not started within a minute expires: the next one does its work.
    """
    return resolution_sweep(quiet_for=timedelta(seconds=quiet_for_seconds))


@shared_task(name="campaigns.recompute_league_ratings")
def recompute_league_ratings(league_id: int) -> dict[str, int] | str:
    """Bring a league's ratings up to date after a result or a correction, from the earliest
    change only (idempotent; a settings change rebuilds them all)."""
    try:
        report = league_ratings_recompute(league_id=league_id, full=False)
        # the table with the league's tie-breaks, cached for the next request to find
        league_standings(league_get(league_id))
    except League.DoesNotExist:
        return "gone"
    return report


@shared_task(name="campaigns.send_notices")
def send_notices(kind: str, pk: int) -> int:
    """E-mail the players a new decision, seat, invitation or reported result waits for,
    if they asked for it (the settings page); returns how many mails went out."""
    return notices_send(kind=kind, pk=pk)

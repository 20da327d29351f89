"""Celery tasks. Each is thin: it loads rows and calls a service."""

from celery import shared_task


@shared_task(name="campaigns.ping")
def ping(payload: str) -> dict[str, str]:
    """Round-trip check used by the health tooling and the real-worker test."""
    from django.db import connection

    return {"echo": payload, "database": connection.vendor}


@shared_task(name="campaigns.resolve_campaign")
def resolve_campaign(campaign_id: int) -> str:
    """Run a campaign's post-battle procedure until it needs a player (idempotent).

    A rules problem (a table value the campaign has not entered yet) stops the resolution
    with a log entry saying what to fix; "Resume" on the campaign page runs this again.
    """
    from django.core.exceptions import ValidationError

    from campaigns.models import Campaign, LogEntry
    from campaigns.services._base import append_log, lock_campaign
    from campaigns.services.cc_engine import cc_advance

    try:
        cc_advance(campaign_id=campaign_id)
    except ValidationError as exc:
        from django.db import transaction

        with transaction.atomic():
            campaign = lock_campaign(campaign_id)
            append_log(
                campaign,
                kind=LogEntry.Kind.RULE,
                summary="Resolution stopped: " + " ".join(exc.messages),
            )
        return "stopped"
    except Campaign.DoesNotExist:
        return "gone"
    return "done"


@shared_task(name="campaigns.recompute_league_ratings")
def recompute_league_ratings(league_id: int) -> dict[str, int] | str:
    """Rebuild a league's ratings after a result or a correction (idempotent)."""
    from campaigns.models import League
    from campaigns.services.leagues import league_ratings_recompute

    try:
        return league_ratings_recompute(league_id=league_id)
    except League.DoesNotExist:
        return "gone"

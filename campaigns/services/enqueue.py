"""The one place services hand work to Celery: after their transaction commits.

Tasks are looked up by name in the Celery app's registry when the work is queued, so this
module imports no task module: tasks import services, never the other way round.
"""

from __future__ import annotations

from celery import current_app
from django.db import transaction

RESOLVE_CAMPAIGN = "campaigns.resolve_campaign"
RECOMPUTE_LEAGUE_RATINGS = "campaigns.recompute_league_ratings"
SEND_NOTICES = "campaigns.send_notices"


def enqueue(name: str, *args) -> None:
    """Queue task `name` with `args` once the current transaction commits (now if none)."""
    transaction.on_commit(lambda: current_app.tasks[name].delay(*args))


def resolve_campaign_later(campaign_id: int) -> None:
    enqueue(RESOLVE_CAMPAIGN, campaign_id)


def recompute_ratings_later(league_id: int) -> None:
    enqueue(RECOMPUTE_LEAGUE_RATINGS, league_id)

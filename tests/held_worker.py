"""The Celery app of a test worker that must be caught in the middle of a resolution.

`celery -A tests.held_worker worker` runs the project's app, except that each battle
resolution keeps its transaction open for `HOLD_SECONDS` (environment variable) after the
engine ran, before it commits: long enough for tests/test_worker_loss.py to kill the worker
while the campaign row is locked and nothing is committed. Production code has no such hook.
"""

import logging
import os
import sys
import time

from celery.signals import task_prerun
from django.db import transaction

from config.celery import app

__all__ = ["HOLD_SECONDS", "app", "holding"]

HOLD_SECONDS = "LEDGER_TEST_HOLD_RESOLUTION_SECONDS"
logger = logging.getLogger(__name__)


def holding(resolve, seconds: float):
    """`resolve` (cc_resolve) run in a transaction held open `seconds` before it commits."""

    def held(*, campaign_id: int):
        with transaction.atomic():
            result = resolve(campaign_id=campaign_id)
            logger.warning(
                "holding the resolution of campaign %s open for %s s before it commits",
                campaign_id,
                seconds,
            )
            time.sleep(seconds)
        return result

    held.held = True
    return held


@task_prerun.connect
def _hold_resolutions(sender=None, **_kwargs) -> None:
    """Before the worker's first resolution, wrap the engine call its task module makes (the
    module is loaded by then, once Django is set up)."""
    seconds = float(os.environ.get(HOLD_SECONDS) or 0)
    if not seconds or sender is None or sender.name != "campaigns.resolve_campaign":
        return
    tasks = sys.modules[sender.run.__module__]
    if not getattr(tasks.cc_resolve, "held", False):
        tasks.cc_resolve = holding(tasks.cc_resolve, seconds)

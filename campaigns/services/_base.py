"""Shared plumbing for services: row locks in one order, retries, and the append-only log.

Lock order
==========
A write that locks more than one row takes its locks in this order, parents before children,
and rows of one kind by primary key ascending, so that concurrent writes queue behind each
other instead of deadlocking:

0. ``Club``              (``club_admin``: role changes; invitations are locked alone)
1. ``League``            (``lock_league``; ``FOR NO KEY UPDATE``, so results may still be
                           inserted against it while it is held)
2. ``Campaign``          (``lock_campaign``; its sides, CC battles, decisions, TCS rows and
                           the campaign log hang under it and are written under its lock
                           without a lock of their own)
3. ``SkirmishBattle``    (``skirmish.common.lock_battle``)
4. ``Roster`` rows       (``rosters.lock_roster`` / ``rosters.lock_rosters``: by id ascending)
5. ``Result`` rows       (``lock_result``: ``FOR NO KEY UPDATE``, by id ascending)

So: a league result write locks league → (its battle's campaign) → result; a skirmish write
locks the battle → its sides' rosters, all at once by id; a roster write locks the roster
alone; campaign and TCS writes lock the campaign alone.

Rules that go with it:

* Take every lock the write will need at its start, in the order above; never lock a parent
  after one of its children (a result correction locks its league, then the battle's
  campaign, then the result).
* Several rows of one kind: ``lock_in_order`` (one query, ``ORDER BY pk``), never a loop in
  whatever order the caller happens to hold them.
* Rows that are only updated and never re-keyed are locked ``FOR NO KEY UPDATE`` where other
  transactions insert children pointing at them (their foreign-key checks take ``KEY SHARE``,
  which that mode does not block).
* Long work that must not run twice at once (the league ratings recompute) takes a
  transaction-level advisory lock (``advisory_lock``) instead of a row lock, so it never
  blocks result entry for its duration.
* A service whose transaction PostgreSQL rolls back with a serialization failure or a
  deadlock is run again a bounded number of times (``retry_on_conflict``).
"""

from __future__ import annotations

import functools
import random
import time
import zlib
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.db import OperationalError, connection
from django.db.models import Max, Model

from campaigns.models import Campaign, League, LogEntry, Result, Side
from rules.i18n import Msg

T = TypeVar("T")
M = TypeVar("M", bound=Model)

# SQLSTATEs for which PostgreSQL asks the client to run the transaction again.
RETRY_SQLSTATES = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected
RETRY_ATTEMPTS = 5


def is_retryable(exc: BaseException) -> bool:
    """A serialization failure or deadlock (from psycopg, wrapped by Django)."""
    cause = exc.__cause__ or exc.__context__
    return getattr(cause, "sqlstate", None) in RETRY_SQLSTATES or (
        getattr(exc, "sqlstate", None) in RETRY_SQLSTATES
    )


def retry_on_conflict(
    func: Callable[..., T] | None = None, *, attempts: int = RETRY_ATTEMPTS
) -> Any:
    """Run a service again (at most `attempts` times in all) when PostgreSQL rolls its
    transaction back with a serialization failure or a deadlock.

    Only the outermost transaction can be retried: inside a caller's `atomic` block the error
    is raised to that caller unchanged."""

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> T:
            for attempt in range(1, attempts + 1):
                try:
                    return fn(*args, **kwargs)
                except OperationalError as exc:
                    if attempt == attempts or connection.in_atomic_block or not is_retryable(exc):
                        raise
                    time.sleep(random.uniform(0.005, 0.03) * attempt)
            raise AssertionError("unreachable")  # pragma: no cover

        return wrapper

    return decorate(func) if func is not None else decorate


def lock_in_order(model: type[M], ids: Iterable[int], *, no_key: bool = False) -> list[M]:
    """Lock the rows of `model` with these ids, by id ascending, in one query (inside
    `atomic`); answers them in that order."""
    wanted = sorted({int(i) for i in ids if i is not None})
    if not wanted:
        return []
    rows = model.objects.select_for_update(no_key=no_key).filter(pk__in=wanted).order_by("pk")
    return list(rows)


def lock_league(league_id: int) -> League:
    """Lock the league row (first in the lock order) for the rest of the transaction."""
    return League.objects.select_for_update(no_key=True).get(pk=league_id)


def lock_campaign(campaign_id: int) -> Campaign:
    """Lock the campaign row for the rest of the transaction (call inside `atomic`)."""
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def lock_result(result_id: int) -> Result:
    """Lock one league result (last in the lock order) without blocking rows that refer to it."""
    return Result.objects.select_for_update(no_key=True).get(pk=result_id)


def advisory_lock(namespace: str, key: int) -> None:
    """Serialise a long job per `key` until the transaction ends, without locking any row
    (PostgreSQL; elsewhere the database serialises writers itself)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [zlib.crc32(namespace.encode()) & 0x7FFFFFFF, int(key)],
            )


def append_log(
    campaign: Campaign,
    *,
    kind: str,
    summary: str | Msg,
    actor=None,
    rule: str = "",
    data: dict[str, Any] | None = None,
    private_to: Side | None = None,
    battle=None,
) -> LogEntry:
    """Append one entry to the campaign log; the caller holds the campaign lock.

    `seq` orders every entry; `number`, the one people see, counts public entries only, so
    nobody can tell from the numbering that another side wrote a private entry.

    A `summary` given as a message (`rules.i18n.msg`) is kept with its parameters and drawn
    in each reader's language (`campaigns.i18n.say_entry`); the stored text is English."""
    if isinstance(summary, Msg):
        data = {**(data or {}), "msg": summary.as_dict()}
    last = LogEntry.objects.filter(campaign=campaign).aggregate(seq=Max("seq"), n=Max("number"))
    return LogEntry.objects.create(
        campaign=campaign,
        battle=battle,
        seq=(last["seq"] or 0) + 1,
        number=None if private_to is not None else (last["n"] or 0) + 1,
        kind=kind,
        summary=str(summary)[:300],
        actor=actor if actor is not None and actor.is_authenticated else None,
        rule=rule,
        data=data or {},
        private_to=private_to,
    )

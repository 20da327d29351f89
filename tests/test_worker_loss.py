"""A battle resolution whose worker dies finishes by itself, and applies everything once.

Fast (eager, any database): which campaigns the sweep queues again, beat's schedule, and a
resolution run twice. With PostgreSQL: two resolutions and the sweep at once. With a broker
(marker `worker`): a real worker killed in the middle of a resolution.
"""

import json
import threading
import time
from contextlib import nullcontext
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from campaigns.models import Battle, Campaign, LogEntry
from campaigns.services import side_join
from campaigns.services.battles import battle_result_submit
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import (
    cc_advance,
    cc_resolution_stopped,
    cc_resolve,
    decision_answer,
)
from campaigns.services.resolution import SWEEP_EVERY, resolution_sweep, stuck_resolutions
from campaigns.tasks import resolve_campaign, sweep_stuck_resolutions
from config.celery import app
from rules.dice import kind
from tests.conftest import require_service
from tests.held_worker import HOLD_SECONDS, holding
from tests.rules.cc.campaign_helpers import NORMANDY_DATA
from tests.test_celery_worker import start_worker, stop_worker, wait_for_result

# --- helpers ---------------------------------------------------------------------------------


def _last_write(campaign: Campaign):
    campaign.refresh_from_db()
    last_log = campaign.log.aggregate(m=Max("created_at"))["m"]
    return max(campaign.updated_at, last_log or campaign.updated_at)


def _last_seq(campaign: Campaign) -> int:
    return campaign.log.aggregate(m=Max("seq"))["m"] or 0


def _entries(campaign: Campaign, after: int) -> list[tuple]:
    """What the campaign log holds after entry `after`, as comparable tuples."""
    return [
        (e.seq, e.kind, e.rule, e.summary, e.battle.number if e.battle else None, e.data)
        for e in LogEntry.objects.filter(campaign=campaign, seq__gt=after)
        .select_related("battle")
        .order_by("seq")
    ]


def _answer_for(decision, user, other_user):
    actor = user if decision.chooser is None or decision.chooser.order == 0 else other_user
    if decision.is_roll:
        answer = [2 + i % 2 for i in range(len(kind(decision.roll_kind).sides))]
    elif decision.is_multiple:
        answer = []
    elif decision.is_number:
        answer = 0
    else:
        answer = decision.options[0]
    return actor, answer


def _normandy(user, other_user) -> Campaign:
    """Every roll entered at the table, so a resolution logs the same thing whenever it runs."""
    c = cc_campaign_create(
        creator=user, name="St-Lô", template="normandy", creator_side=0, dice_mode="entered"
    )
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=NORMANDY_DATA)
    return c


def _dry_run(campaign, decision, actor, answer) -> tuple[bool, list[tuple]]:
    """Answer and resolve in a transaction that is rolled back: does it finish the battle,
    and what does it log?"""
    with transaction.atomic():
        decision_answer(decision=decision, actor=actor, answer=answer)
        after = _last_seq(campaign)
        resolve_campaign(campaign.pk)
        finished = not campaign.battles.filter(status=Battle.Status.RESOLVING).exists()
        logged = _entries(campaign, after)
        transaction.set_rollback(True)
    return finished, logged


def _play_to_the_last_resolution(campaign, user, other_user, settle):
    """Set up and fight battle 1, answer the post-battle decisions (each resolution runs
    inside `settle()`) up to the answer whose resolution finishes the battle.

    Returns that decision, who answers what, and what its resolution logs (from a dry run).
    """
    with settle():
        cc_advance(campaign_id=campaign.pk, actor=user)
    for _ in range(60):
        decision = campaign.decisions.filter(status="open").select_related("chooser").first()
        if decision is None:
            break
        actor, answer = _answer_for(decision, user, other_user)
        with settle():
            decision_answer(decision=decision, actor=actor, answer=answer)
    battle = Battle.objects.get(campaign=campaign, number=1)
    assert battle.status == Battle.Status.PLAYING
    with settle():
        battle_result_submit(battle=battle, actor=user, winner=campaign.sides.get(order=0))
    for _ in range(30):
        decision = campaign.decisions.filter(status="open").select_related("chooser").first()
        assert decision is not None, "the battle was resolved without a last answer"
        actor, answer = _answer_for(decision, user, other_user)
        finished, logged = _dry_run(campaign, decision, actor, answer)
        if finished:
            assert len(logged) >= 5 and any(e[2] == "NO-C3.3" for e in logged)
            return decision, actor, answer, logged
        with settle():
            decision_answer(decision=decision, actor=actor, answer=answer)
    raise AssertionError("the campaign kept asking")


# --- which campaigns the sweep queues again (eager, fast) -----------------------------------


@pytest.fixture
def stuck(user, other_user):
    """A Gastadores battle whose result was entered and whose resolution never ran."""
    c = cc_campaign_create(creator=user, name="Cotentin", template="gastadores", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    battle = Battle.objects.get(campaign=c, number=1)
    # on_commit callbacks do not run here: the resolution is never queued, as if its worker died
    battle_result_submit(
        battle=battle,
        actor=user,
        winner=c.sides.get(order=0),
        details={"method": "vp", "vp_margin": 10},
    )
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.RESOLVING
    return c


def _in(seconds: float, campaign: Campaign):
    return _last_write(campaign) + timedelta(seconds=seconds)


@pytest.mark.django_db
def test_a_resolving_battle_with_nothing_written_for_a_minute_is_stuck(stuck):
    assert stuck_resolutions() == []  # the result was entered just now
    assert stuck_resolutions(now=_in(50, stuck)) == []
    assert stuck_resolutions(now=_in(61, stuck)) == [stuck]


@pytest.mark.django_db
def test_a_campaign_waiting_for_a_player_is_not_stuck(stuck):
    resolve_campaign(stuck.pk)  # the winner is asked to pick the next scenario
    assert stuck.decisions.filter(status="open").exists()
    assert Battle.objects.get(campaign=stuck, number=1).status == Battle.Status.RESOLVING
    assert stuck_resolutions(now=_in(3600, stuck)) == []


@pytest.mark.django_db
def test_a_resolution_stopped_on_purpose_waits_for_resume(stuck):
    cc_resolution_stopped(campaign_id=stuck.pk, messages=["no cost for Pionier (ST-C1.5.5)"])
    assert stuck_resolutions(now=_in(61, stuck)) == []
    assert stuck_resolutions(now=_in(3600, stuck)) == []
    Campaign.objects.filter(pk=stuck.pk).update(stopped_reason="")  # fixed, then its worker died
    assert stuck_resolutions(now=_in(61, stuck)) == [stuck]


@pytest.mark.django_db
def test_finished_battles_and_campaigns_are_not_stuck(stuck):
    Campaign.objects.filter(pk=stuck.pk).update(status=Campaign.Status.FINISHED)
    assert stuck_resolutions(now=_in(61, stuck)) == []
    Campaign.objects.filter(pk=stuck.pk).update(status=Campaign.Status.ACTIVE)
    stuck.battles.update(status=Battle.Status.RESOLVED)
    assert stuck_resolutions(now=_in(61, stuck)) == []


@pytest.mark.django_db
def test_a_campaign_that_stays_stuck_is_queued_again_less_and_less_often(stuck):
    sweeps = [61, 121, 181, 241, 301, 361, 421, 481]  # a sweep every minute
    assert [bool(stuck_resolutions(now=_in(s, stuck))) for s in sweeps] == [
        True,  # quiet for 1 minute
        True,  # 2
        False,
        True,  # 4
        False,
        False,
        False,
        True,  # 8
    ]


@pytest.mark.django_db
def test_choosing_the_stuck_campaigns_is_one_query(stuck, django_assert_num_queries):
    now = _in(61, stuck)
    with django_assert_num_queries(1):
        assert stuck_resolutions(now=now) == [stuck]


@pytest.mark.django_db
def test_the_sweep_queues_the_resolution_which_then_runs_once(
    stuck, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        assert resolution_sweep(quiet_for=timedelta(0)) == [stuck.pk]
    assert len(queued) == 1
    # it ran (eagerly here): the German resource roll once, then a player is asked
    assert stuck.log.filter(rule="GAS.resources", kind=LogEntry.Kind.ROLL).count() == 1
    assert stuck.decisions.filter(status="open").count() == 1
    with django_capture_on_commit_callbacks(execute=True) as queued:
        assert sweep_stuck_resolutions(quiet_for_seconds=0) == []
    assert queued == []


# transaction=True: beat closes a connection that is not in autocommit (PostgreSQL would lose
# the test's connection inside the usual per-test transaction).
@pytest.mark.django_db(transaction=True)
def test_beat_installs_the_sweep_every_minute_and_a_disabled_sweep_stays_disabled():
    def start_beat():
        scheduler = DatabaseScheduler(app=app)  # what `celery beat` builds when it starts
        scheduler._finalize.cancel()  # no sync at garbage collection, after the test
        return scheduler

    assert not PeriodicTask.objects.filter(task="campaigns.sweep_stuck_resolutions").exists()
    start_beat()
    sweep = PeriodicTask.objects.get(task="campaigns.sweep_stuck_resolutions")
    assert sweep.enabled
    assert timedelta(**{sweep.interval.period: sweep.interval.every}) == SWEEP_EVERY
    sweep.enabled = False
    sweep.save()
    start_beat()
    assert not PeriodicTask.objects.get(pk=sweep.pk).enabled


# --- a resolution run again applies nothing twice --------------------------------------------


@pytest.mark.django_db
def test_a_resolution_run_twice_logs_each_consequence_once(
    user, other_user, django_capture_on_commit_callbacks
):
    c = _normandy(user, other_user)
    decision, actor, answer, expected = _play_to_the_last_resolution(
        c, user, other_user, lambda: django_capture_on_commit_callbacks(execute=True)
    )
    with django_capture_on_commit_callbacks() as queued:  # queued, not run: its worker died
        decision_answer(decision=decision, actor=actor, answer=answer)
    assert len(queued) == 1
    answered = _last_seq(c)
    assert resolve_campaign(c.pk) == "done"  # the sweep's retry
    assert resolve_campaign(c.pk) == "done"  # the broker's late redelivery
    assert _entries(c, answered) == expected
    assert Battle.objects.get(campaign=c, number=1).status == Battle.Status.RESOLVED
    assert stuck_resolutions(now=timezone.now() + timedelta(hours=1)) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_resolutions_and_the_sweep_at_once_log_each_consequence_once(
    user, other_user, monkeypatch
):
    if connection.vendor != "postgresql":
        require_service("needs PostgreSQL (DATABASE_URL=postgres://…) for concurrent writers")
    c = _normandy(user, other_user)
    # each resolution here runs eagerly when its transaction commits
    decision, actor, answer, expected = _play_to_the_last_resolution(
        c, user, other_user, nullcontext
    )
    with monkeypatch.context() as m:
        m.setattr("campaigns.services.cc_engine.resolve_campaign_later", lambda pk: None)
        decision_answer(decision=decision, actor=actor, answer=answer)  # its worker died
    answered = _last_seq(c)
    # the first to take the lock keeps its transaction open for 1 s
    monkeypatch.setattr("campaigns.tasks.cc_resolve", holding(cc_resolve, 1))
    start = threading.Barrier(3)
    outcomes: dict[str, object] = {}

    def run(name, work):
        try:
            start.wait()
            outcomes[name] = work()
        except Exception as exc:
            outcomes[name] = exc
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=("first", lambda: resolve_campaign(c.pk))),
        threading.Thread(target=run, args=("second", lambda: resolve_campaign(c.pk))),
        threading.Thread(
            target=run, args=("sweep", lambda: resolution_sweep(quiet_for=timedelta(0)))
        ),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert outcomes["first"] == outcomes["second"] == "done"
    assert isinstance(outcomes["sweep"], list)  # skipped the locked row, or queued a no-op
    assert _entries(c, answered) == expected
    assert Battle.objects.get(campaign=c, number=1).status == Battle.Status.RESOLVED


# --- a real worker killed in the middle of a resolution -----------------------------------


def _wait_for(condition, seconds: float, what: str, worker=None, output=None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        if worker is not None and worker.poll() is not None:
            break
        time.sleep(0.2)
    log = output.read_text()[-4000:] if output is not None else ""
    raise AssertionError(f"timed out waiting for {what}\n{log}")


def _row_locked(campaign_id: int) -> bool:
    try:
        with transaction.atomic():
            list(Campaign.objects.select_for_update(nowait=True).filter(pk=campaign_id))
    except DatabaseError:
        return True
    return False


def _unacked(broker, campaign_id: int) -> dict[bytes, dict]:
    """Messages a worker took but never acknowledged: resolutions of this campaign."""
    found = {}
    for tag, raw in broker.hgetall("unacked").items():
        message = json.loads(raw)[0]
        headers = message.get("headers") or {}
        if headers.get("task") == "campaigns.resolve_campaign" and headers.get("argsrepr") == (
            f"({campaign_id},)"
        ):
            found[tag] = message
    return found


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_resolution_whose_worker_is_killed_finishes_by_itself_once(user, other_user, tmp_path):
    if not settings.CELERY_BROKER_URL:
        require_service("no CELERY_BROKER_URL: set it to a Redis URL to run a real worker")
    if connection.vendor != "postgresql":
        require_service(
            "needs PostgreSQL (DATABASE_URL=postgres://…): a worker process cannot see the "
            "in-memory SQLite test database"
        )
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True  # the set-up resolves in this process
    try:
        c = _normandy(user, other_user)
        decision, actor, answer, expected = _play_to_the_last_resolution(
            c, user, other_user, nullcontext
        )
    finally:
        app.conf.task_always_eager = before

    killed_log, second_log = tmp_path / "killed.log", tmp_path / "second.log"
    killed = start_worker("killed", killed_log, env={HOLD_SECONDS: "30"}, app="tests.held_worker")
    second = None
    orphans: dict[bytes, dict] = {}
    try:
        known = set(broker.hkeys("unacked"))
        decision_answer(decision=decision, actor=actor, answer=answer)  # queued on the broker
        answered = _last_seq(c)
        _wait_for(
            lambda: f"holding the resolution of campaign {c.pk} " in killed_log.read_text(),
            30,
            "the worker to run the resolution",
            killed,
            killed_log,
        )
        assert _row_locked(c.pk), "the engine ran in a transaction not yet committed"
        killed.kill()  # SIGKILL: no clean-up of any kind
        killed.wait(timeout=10)
        _wait_for(lambda: not _row_locked(c.pk), 10, "PostgreSQL to roll the transaction back")
        assert _last_seq(c) == answered, "nothing of the killed resolution was kept"
        assert Battle.objects.get(campaign=c, number=1).status == Battle.Status.RESOLVING
        orphans = {t: m for t, m in _unacked(broker, c.pk).items() if t not in known}
        assert len(orphans) == 1, "acks late: the broker keeps the message for a later retry"

        second = start_worker("second", second_log, pool="prefork", concurrency=2)
        # what beat does every minute (here without waiting a minute of quiet)
        swept = sweep_stuck_resolutions.apply_async(kwargs={"quiet_for_seconds": 1})
        assert wait_for_result(swept, 30) == [c.pk]
        _wait_for(
            lambda: Battle.objects.get(campaign=c, number=1).status == Battle.Status.RESOLVED,
            30,
            "the queued resolution",
            second,
            second_log,
        )
        assert _entries(c, answered) == expected

        # the broker's own redelivery of the killed worker's message (after its visibility
        # timeout) runs the resolution once more: it changes nothing
        ((tag, message),) = orphans.items()
        with broker.pipeline() as pipe:
            pipe.zrem("unacked_index", tag).hdel("unacked", tag)
            pipe.lpush("celery", json.dumps(message)).execute()
        orphans = {}
        task_id = message["headers"]["id"]
        _wait_for(
            lambda: f"campaigns.resolve_campaign[{task_id}] succeeded" in second_log.read_text(),
            30,
            "the redelivered message",
            second,
            second_log,
        )
        assert _entries(c, answered) == expected
        assert wait_for_result(sweep_stuck_resolutions.apply_async(), 30) == []
    finally:
        stop_worker(killed)
        if second is not None:
            stop_worker(second)
        for tag in orphans:  # never left for a later run's worker to pick up
            broker.zrem("unacked_index", tag)
            broker.hdel("unacked", tag)
    assert "Traceback" not in second_log.read_text()

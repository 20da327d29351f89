"""Concurrent writes against a live server on PostgreSQL: no server error, exactly-once.

Each test fires 50 requests at once from threads (a barrier releases them together) at the
live server, which answers each on its own thread and database connection, with Celery
eager: every commit runs its rating recompute at once, concurrently with the other writes —
the situation in which corrections used to deadlock (campaigns/services/_base.py documents the
lock order that prevents it). Run with
`DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_lock`; skipped on SQLite.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection
from rest_framework.authtoken.models import Token

from campaigns import tasks
from campaigns.models import (
    ClubMembership,
    League,
    LogEntry,
    Result,
    ResultCorrection,
    RosterChange,
)
from campaigns.services import club_create, club_join
from campaigns.services.campaigns import side_join
from campaigns.services.cc_campaigns import cc_campaign_create
from campaigns.services.leagues import league_create, result_enter
from campaigns.services.rosters import roster_create
from tests.conftest import require_service
from tests.web.roster_helpers import m1936_list

N = 50
DAY = dt.date(2026, 3, 1)

pytestmark = pytest.mark.django_db(transaction=True)

# The live server accepts 5 waiting connections by default (socketserver's backlog): 50 at
# once would be reset before Django sees them, which is not what these tests measure.
ThreadedWSGIServer.request_queue_size = 4 * N


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        require_service(
            "concurrency needs PostgreSQL's row locks: set "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> (SQLite serialises writers)"
        )


@pytest.fixture
def recomputes(monkeypatch):
    """Counts the rating recomputes the worker (eager here) actually ran."""
    ran = []
    lock = threading.Lock()
    real = tasks.league_ratings_recompute

    def counting(**kwargs):
        out = real(**kwargs)
        with lock:
            ran.append(kwargs["league_id"])
        return out

    monkeypatch.setattr(tasks, "league_ratings_recompute", counting)
    return ran


@pytest.fixture
def setup(make_user):
    organiser = make_user("olga")
    club = club_create(creator=organiser, name="Kampfgruppe Madrid")
    for name in ("ann", "ben"):
        club_join(user=make_user(name), club=club, role=ClubMembership.Role.MEMBER)
    league = league_create(
        club=club, actor=organiser, name="Winter League", season="2026", system="cc"
    )
    return organiser, league, Token.objects.create(user=organiser).key


def post(url: str, token: str, body: dict, key: str | None = None):
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null"), dict(response.headers)
    except urllib.error.HTTPError as err:
        text = err.read()
        try:
            return err.code, json.loads(text or b"null"), dict(err.headers)
        except ValueError:
            return err.code, text.decode(errors="replace"), dict(err.headers)


def fire(calls):
    """Run the calls at once; answers (their results, the seconds it took)."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        answers = list(pool.map(run, calls))
    return answers, time.monotonic() - start


def statuses(answers) -> dict[int, int]:
    out: dict[int, int] = {}
    for status, *_rest in answers:
        out[status] = out.get(status, 0) + 1
    return out


def report(name, answers, seconds, applied):
    errors = sum(1 for a in answers if a[0] >= 500)
    print(
        f"\n{name}: sent {len(answers)}, applied {applied}, 5xx {errors}, "
        f"statuses {statuses(answers)}, {seconds:.2f}s"
    )


def test_concurrent_corrections_of_one_result_queue_without_deadlock(
    live_server, setup, recomputes
):
    organiser, league, token = setup
    result = result_enter(
        league=league, actor=organiser, played_on=DAY, team_a=["ann"], team_b=["ben"], outcome="a"
    )
    version = League.objects.get(pk=league.pk).ratings_version
    recomputes.clear()
    url = f"{live_server.url}/api/v1/results/{result.pk}/correct/"
    calls = [
        (lambda i=i: post(url, token, {"reason": f"typo {i}", "notes": f"correction {i}"}))
        for i in range(N)
    ]
    answers, seconds = fire(calls)
    corrections = ResultCorrection.objects.filter(result=result, action="correct").count()
    report("corrections", answers, seconds, corrections)
    assert [a for a in answers if a[0] >= 500] == []
    assert statuses(answers) == {200: N}
    assert corrections == N
    league.refresh_from_db()
    assert league.ratings_version == version + N  # one recompute scheduled per correction
    assert len(recomputes) == N
    assert league.ratings_computed_version == league.ratings_version  # the last one won
    assert seconds < 30


def test_concurrent_corrections_and_voids_mixed(live_server, setup, recomputes):
    organiser, league, token = setup
    result = result_enter(
        league=league, actor=organiser, played_on=DAY, team_a=["ann"], team_b=["ben"], outcome="a"
    )
    base = f"{live_server.url}/api/v1/results/{result.pk}"
    calls = []
    for i in range(N):
        if i % 3 == 0:
            calls.append(lambda i=i: post(f"{base}/void/", token, {"reason": f"void {i}"}))
        elif i % 3 == 1:
            calls.append(lambda i=i: post(f"{base}/restore/", token, {"reason": f"back {i}"}))
        else:
            calls.append(
                lambda i=i: post(f"{base}/correct/", token, {"reason": "x", "notes": f"n{i}"})
            )
    answers, seconds = fire(calls)
    report("corrections/voids/restores", answers, seconds, ResultCorrection.objects.count() - 1)
    assert [a for a in answers if a[0] >= 500] == []
    assert set(statuses(answers)) == {200}


def test_identical_result_entries_with_one_key_apply_once(live_server, setup, recomputes):
    _organiser, league, token = setup
    version = League.objects.get(pk=league.pk).ratings_version
    body = {
        "league": league.pk,
        "played_on": DAY.isoformat(),
        "team_a": ["ann"],
        "team_b": ["ben"],
        "outcome": "a",
    }
    url = f"{live_server.url}/api/v1/results/"
    answers, seconds = fire([lambda: post(url, token, body, key="enter-1")] * N)
    created = Result.objects.filter(league=league).count()
    report("result entries, one key", answers, seconds, created)
    assert statuses(answers) == {201: N}
    assert created == 1
    assert {a[1]["id"] for a in answers} == {Result.objects.get(league=league).pk}
    assert sum(1 for a in answers if a[2].get("Idempotent-Replayed") == "true") == N - 1
    assert ResultCorrection.objects.filter(action="enter").count() == 1
    league.refresh_from_db()
    assert league.ratings_version == version + 1
    assert recomputes == [league.pk]
    # The same key with another body is refused; nothing more is created.
    status, data, _h = post(url, token, {**body, "outcome": "b"}, key="enter-1")
    assert status == 422 and "Idempotency-Key" in data["detail"][0]
    assert Result.objects.filter(league=league).count() == 1


def test_identical_result_entries_without_key_never_fail(live_server, setup, recomputes):
    _organiser, league, token = setup
    body = {
        "league": league.pk,
        "played_on": DAY.isoformat(),
        "team_a": ["ann"],
        "team_b": ["ben"],
        "outcome": "a",
    }
    url = f"{live_server.url}/api/v1/results/"
    answers, seconds = fire([lambda: post(url, token, body)] * N)
    created = Result.objects.filter(league=league).count()
    report("result entries, no key", answers, seconds, created)
    assert statuses(answers) == {201: N}
    assert created == N  # without a key each request is a new result, as asked
    assert ResultCorrection.objects.filter(action="enter").count() == N
    assert len(recomputes) == N


def test_identical_roster_edits_with_one_key_apply_once(live_server, make_user):
    owner = make_user("rosa")
    roster = m1936_list(owner)
    token = Token.objects.create(user=owner).key
    before = RosterChange.objects.filter(roster=roster).count()
    units = len(roster.data.get("entries", []))
    url = f"{live_server.url}/api/v1/rosters/{roster.pk}/edit/"
    body = {"op": "add_unit", "profile": "Oficial"}
    answers, seconds = fire([lambda: post(url, token, body, key="add-officer")] * N)
    roster.refresh_from_db()
    changes = RosterChange.objects.filter(roster=roster).count() - before
    report("roster edits, one key", answers, seconds, changes)
    assert statuses(answers) == {200: N}
    assert changes == 1
    assert len(roster.data.get("entries", [])) == units + 1
    assert len({json.dumps(a[1], sort_keys=True) for a in answers}) == 1  # the same answer


def test_identical_roster_edits_without_key_never_fail(live_server, make_user):
    """A repeated Parabellum field edit changes nothing after the first: refused, not logged."""
    owner = make_user("pablo")
    roster = roster_create(
        owner=owner, system="parabellum", name="Pelotón", squad_type="GER/grenadier"
    )
    token = Token.objects.create(user=owner).key
    before = RosterChange.objects.filter(roster=roster).count()
    url = f"{live_server.url}/api/v1/rosters/{roster.pk}/edit/"
    body = {"soldier_id": "nco", "field": "experience", "value": "veteran"}
    answers, seconds = fire([lambda: post(url, token, body)] * N)
    changes = RosterChange.objects.filter(roster=roster).count() - before
    report("roster field edits, no key", answers, seconds, changes)
    assert [a for a in answers if a[0] >= 500] == []
    assert changes == 1
    assert statuses(answers) == {200: 1, 400: N - 1}


def test_identical_battle_events_with_one_key_are_logged_once(live_server, make_user):
    organiser, player = make_user("gm"), make_user("pia")
    campaign = cc_campaign_create(creator=organiser, name="Cotentin", template="gastadores")
    us, germans = campaign.sides.order_by("order")
    side_join(user=player, side=us)
    side_join(user=make_user("gerd"), side=germans)
    token = Token.objects.create(user=player).key
    before = LogEntry.objects.filter(campaign=campaign).count()
    url = f"{live_server.url}/api/v1/campaigns/{campaign.pk}/battles/1/events/"
    body = {"category": "vp", "text": "objective 3 taken", "vp_delta": 2}
    answers, seconds = fire([lambda: post(url, token, body, key="vp-obj-3")] * N)
    logged = LogEntry.objects.filter(campaign=campaign).count() - before
    report("battle events, one key", answers, seconds, logged)
    assert statuses(answers) == {201: N}
    assert logged == 1
    assert len({json.dumps(a[1], sort_keys=True) for a in answers}) == 1

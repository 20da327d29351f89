"""Measuring: the pages, the interleaved rounds of requests, nearest-rank percentiles, one
appended result's time, and the full rating recompute in a subprocess (time, peak memory).

`requests` is imported inside the functions that use it, so that the recompute subprocess
(which imports this module through run.py) does not carry it in the memory it measures; Django's
and the project's modules are imported inside the functions, after `setup_django()`."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import (
    ENV,
    SLOW_SAMPLES,
    SLOW_SECONDS,
    VERY_SLOW_SECONDS,
    log,
    setup_django,
)

CLIENT_TIMEOUT = 90
RUN_SCRIPT = Path(__file__).resolve().parent / "run.py"  # its --recompute-league is the child


@dataclass
class Page:
    key: str  # row name
    size: str  # "S", "L" or "" (size-independent)
    url: str
    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    slow: bool = False
    very_slow: bool = False

    def p(self, q: float) -> float | None:
        if not self.times:
            return None
        xs = sorted(self.times)
        # nearest-rank percentile
        k = max(0, min(len(xs) - 1, math.ceil(q / 100 * len(xs)) - 1))
        return xs[k]


def pages_for(sizes, built: dict) -> tuple[list[Page], dict[str, Page]]:
    """The pages measured every round, and per size the league page requested right after an
    appended result."""
    pages = [Page("base", "", "/accounts/password/"), Page("trivial", "", "/healthz")]
    after: dict[str, Page] = {}
    for size in sizes:
        b = built[size.key]
        c, n, lg = b["campaign"], b["battle"], b["league"]
        k = size.key
        pages += [
            Page("dashboard", k, f"/campaigns/{c}/"),
            Page("battle", k, f"/campaigns/{c}/battles/{n}/"),
            Page("log", k, f"/campaigns/{c}/log/"),
            Page("history", k, f"/history/campaigns/{c}/"),
            Page("battle_history", k, f"/history/campaigns/{c}/battles/{n}/"),
            Page("standings", k, f"/leagues/{lg}/"),
            Page("player", k, f"/players/{b['player']}/"),
            Page("api_log", k, f"/api/v1/campaigns/{c}/log/"),
            Page("api_standings", k, f"/api/v1/leagues/{lg}/standings/"),
            Page("api_results", k, f"/api/v1/results/?league={lg}"),
        ]
        after[k] = Page("standings_after", k, f"/leagues/{lg}/")
    return pages, after


def fetch(session, base_url: str, page: Page) -> None:
    import requests  # here, not at the top: see the module's docstring

    start = time.perf_counter()
    try:
        r = session.get(base_url + page.url, timeout=CLIENT_TIMEOUT, allow_redirects=False)
        body = r.content
        elapsed = time.perf_counter() - start
    except requests.RequestException as exc:
        page.failures.append(f"{exc.__class__.__name__} after {time.perf_counter() - start:.1f} s")
        return
    if r.status_code != 200:
        page.failures.append(f"HTTP {r.status_code} after {elapsed:.2f} s")
        return
    page.times.append(elapsed)
    page.sizes.append(len(body))


def measure(
    base_url: str,
    cookie: str,
    pages: list[Page],
    after: dict[str, Page],
    append_result,
    rounds: int,
    after_rounds: int,
    rng: random.Random,
) -> list[dict]:
    import requests  # here, not at the top: see the module's docstring

    session = requests.Session()
    session.cookies.set("sessionid", cookie, domain="127.0.0.1")
    session.headers["Accept-Language"] = "en"
    # warm-up: every page once per worker (2 workers). A page slower than VERY_SLOW_SECONDS
    # at its first visit keeps that visit as a sample and gets one more; one slower than
    # SLOW_SECONDS at both visits (the first may fill a cache) is sampled SLOW_SAMPLES times.
    for visit in range(2):
        for page in pages:
            if page.very_slow:
                continue
            before = len(page.times)
            fetch(session, base_url, page)
            took = page.times[-1] if len(page.times) > before else CLIENT_TIMEOUT
            if visit == 0 and took > VERY_SLOW_SECONDS:
                page.slow = page.very_slow = True
                log(f"  {page.size} {page.key}: {took:.1f} s, sampled once more only")
                continue
            del page.times[before:], page.sizes[before:]
            if visit == 0:
                page.slow = took > SLOW_SECONDS
            elif page.slow and took > SLOW_SECONDS:
                log(f"  {page.size} {page.key}: {took:.1f} s, sampled {SLOW_SAMPLES}× only")
            else:
                page.slow = False
    slow_rounds = {round(i * (rounds - 1) / max(1, SLOW_SAMPLES - 1)) for i in range(SLOW_SAMPLES)}
    after_at = {round(i * (rounds - 1) / max(1, after_rounds - 1)) for i in range(after_rounds)}
    appended = []
    for r in range(rounds):
        if r in after_at:
            for key, page in after.items():
                appended.append(append_result(key))
                fetch(session, base_url, page)
        order = [
            p
            for p in pages
            if not p.slow or (r == rounds // 2 if p.very_slow else r in slow_rounds)
        ]
        rng.shuffle(order)
        for page in order:
            fetch(session, base_url, page)
        if r % 5 == 4 or r == rounds - 1:
            log(f"  round {r + 1}/{rounds}")
    return appended


def make_appender(leagues: dict, rng: random.Random):
    """`append(key)`: one result through `result_enter` with the Celery tasks it queues run
    eagerly here; answers the entry's total time and the part spent in Celery tasks."""
    from celery.signals import task_postrun, task_prerun
    from django.contrib.auth import get_user_model

    from campaigns.services.leagues import result_enter

    demo = get_user_model().objects.get(username="demo")
    spent: dict[str, float] = {}
    started: dict[str, float] = {}

    def pre(task_id=None, **_kw):
        started[task_id] = time.perf_counter()

    def post(task_id=None, **_kw):
        if task_id in started:
            spent["tasks"] = spent.get("tasks", 0.0) + time.perf_counter() - started.pop(task_id)

    task_prerun.connect(pre, weak=False)
    task_postrun.connect(post, weak=False)

    # Time the rating update alone inside the task (the task then also computes and caches
    # the standings table): bench-only instrumentation of the name the task calls.
    import campaigns.tasks as tasks_module

    rate = tasks_module.league_ratings_recompute

    def timed_rating(**kwargs):
        begun = time.perf_counter()
        try:
            return rate(**kwargs)
        finally:
            spent["rating"] = spent.get("rating", 0.0) + time.perf_counter() - begun

    tasks_module.league_ratings_recompute = timed_rating
    day = dt.date(2030, 1, 1)

    def append(key: str) -> dict:
        league, usernames = leagues[key]
        a, b = rng.sample(usernames, 2)
        spent.clear()
        start = time.perf_counter()
        result_enter(
            league=league,
            actor=demo,
            played_on=day.isoformat(),
            scenario="Scenario 1",
            side_a="Germans",
            side_b="Soviets",
            outcome=rng.choice(["a", "b", "draw"]),
            team_a=a,
            team_b=b,
        )
        total = time.perf_counter() - start
        league.refresh_from_db()
        return {
            "size": key,
            "total": total,
            "tasks": spent.get("tasks", 0.0),
            "rating": spent.get("rating", 0.0),
        }

    return append


def recompute_in_subprocess(league_id: int) -> dict:
    out = subprocess.run(
        [sys.executable, str(RUN_SCRIPT), "--recompute-league", str(league_id)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def recompute_all(sizes, built: dict) -> dict:
    """The full rating recompute of each size's league, each in a subprocess, by size key."""
    recomputes = {}
    for size in sizes:
        log(f"size {size.key}: full rating recompute in a subprocess")
        recomputes[size.key] = recompute_in_subprocess(built[size.key]["league"])
        log(
            f"  {recomputes[size.key]['seconds']:.2f} s, "
            f"peak RSS {recomputes[size.key]['peak_rss_mb']:.0f} MB"
        )
    return recomputes


def _memory_mb(field_name: str) -> float:
    """VmHWM (peak) or VmRSS (now) of this process from /proc, in MB. Unlike
    getrusage's ru_maxrss, VmHWM starts afresh at exec: it does not count the parent's memory
    at the fork. Falls back to ru_maxrss where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def recompute_child(league_id: int) -> None:
    """Subprocess: one full recompute, its wall time and peak resident memory."""
    setup_django()
    # the subprocess's entry: Django's and the project's modules only import after setup
    from django.db import connection

    from campaigns.models import League
    from campaigns.services.leagues import league_ratings_recompute

    League.objects.get(pk=league_id)  # connect, load the models
    connection.ensure_connection()
    base = _memory_mb("VmRSS")
    start = time.perf_counter()
    report = league_ratings_recompute(league_id=league_id)
    seconds = time.perf_counter() - start
    peak = _memory_mb("VmHWM")
    print(
        json.dumps(
            {
                "seconds": seconds,
                "peak_rss_mb": peak,
                "baseline_rss_mb": base,
                "report": report if isinstance(report, dict) else str(report),
            }
        )
    )

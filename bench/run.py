#!/usr/bin/env python
"""`make bench`: what users feel at 10× and 100× a real campaign's history (issue 16, item 5).

Reported, not asserted. One run:

1. drops and creates the PostgreSQL database `ledger_bench` (127.0.0.1:5432, user postgres),
   migrates it and loads the demo (`manage.py load_demo`);
2. plays the demo's Stalingrad campaign for real through the services (set-up decisions,
   events, rolls, results and the post-battle procedure) for a few battles, then scales it
   with COPY of plain rows into one campaign per size (battles, their state records, the log
   with a consistent `seq` and public `number`, as `append_log` writes them), the last battle
   being played with exactly `--battle-entries` log entries;
3. builds one league per size (plain rows by COPY: results, seats, memberships) and runs the
   full rating recompute of each in a subprocess (time and peak RSS), which also leaves the
   ratings in place for the pages;
4. serves it with gunicorn (deploy/gunicorn.conf.py, 2 workers, DJANGO_DEBUG=false over plain
   HTTP, Redis cache) and measures every page signed in, sequentially, in interleaved rounds
   (each round visits every page of both sizes in a shuffled order, so all pages see the same
   machine noise); in a few rounds a result is first appended through `result_enter` (Celery
   eager: its rating task runs in this process and is timed) and the league page is requested
   right after it ("standings after a result");
5. prints a table per size (p50, p95, p95 ÷ the signed-in base page's p95, L/S growth) and
   writes it to bench/last-report.md (or --report).

The signed-in base page is the password-change page (`/accounts/password/`): the base
template for a signed-in user plus a three-field form, the cheapest signed-in page there is.

Usage: .venv/bin/python bench/run.py [--rounds 40] [--after-rounds 3] [--quick] [--keep-db]
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import io
import json
import math
import os
import platform
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

DB_NAME = os.environ.get("BENCH_DB_NAME", "ledger_bench")
PG = os.environ.get("BENCH_PG", "host=127.0.0.1 port=5432 user=postgres")
PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")

ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DJANGO_DEBUG": "false",
    "DJANGO_INSECURE_HTTP": "true",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DJANGO_PROXY_COUNT": "0",
    "DATABASE_URL": f"{PG_URL}/{DB_NAME}",
    "REDIS_CACHE_URL": REDIS_URL,
    # No broker: the pages queue nothing; the appended results run their task eagerly here.
    "CELERY_BROKER_URL": "",
    "DJANGO_LOG_LEVEL": "ERROR",
    "DJANGO_SECRET_KEY": os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
}


@dataclass
class Size:
    key: str
    label: str
    battles: int
    entries: int
    results: int
    players: int = 200


SIZES = [
    Size(
        "S",
        "10× history (10 battles, 10,000 log entries; 10,000 league results)",
        10,
        10_000,
        10_000,
    ),
    Size(
        "L",
        "100× history (100 battles, 100,000 log entries; 100,000 league results)",
        100,
        100_000,
        100_000,
    ),
]
QUICK_SIZES = [
    Size("S", "quick S (4 battles, 1,000 log entries; 1,000 results)", 4, 1_000, 1_000, 40),
    Size("L", "quick L (10 battles, 4,000 log entries; 4,000 results)", 10, 4_000, 4_000, 40),
]

REAL_BATTLES = 3  # battles played for real through the services before scaling
EVENTS_PER_BATTLE = 12
ROLLS_PER_BATTLE = 6
SLOW_SECONDS = 3.0  # a page slower than this (first sample) is sampled only SLOW_SAMPLES times
SLOW_SAMPLES = 3
VERY_SLOW_SECONDS = 15.0  # slower still: its first visit counts, plus one more sample
CLIENT_TIMEOUT = 90


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --- database --------------------------------------------------------------------------------


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(PG + " dbname=postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def drop_database() -> None:
    import psycopg

    with psycopg.connect(PG + " dbname=postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def setup_django() -> None:
    os.environ.update(ENV)
    import django

    django.setup()
    import campaigns

    here = Path(campaigns.__file__).resolve().parent.parent
    if here != ROOT:
        sys.exit(f"bench: imported the project from {here}, expected {ROOT}")


def copy_rows(model, rows) -> int:
    """COPY plain rows (dicts by attname; missing fields get their default) into `model`."""
    from django.db import connection
    from django.db.models import JSONField
    from django.utils import timezone

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    cols = ", ".join(f'"{f.column}"' for f in fields)
    now = timezone.now()
    n = 0
    sql = f'COPY "{model._meta.db_table}" ({cols}) FROM STDIN'
    with connection.cursor() as cursor, cursor.copy(sql) as cp:
        for row in rows:
            values = []
            for f in fields:
                if f.attname in row:
                    v = row[f.attname]
                elif getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                    v = now
                else:
                    v = f.get_default()
                if isinstance(f, JSONField) and v is not None:
                    v = json.dumps(v)
                values.append(v)
            cp.write_row(values)
            n += 1
    return n


# --- a real Stalingrad campaign, played through the services -----------------------------------


def answer_all(campaign, demo, rival) -> None:
    from campaigns.services.cc_engine import decision_answer

    for _ in range(60):
        open_ = list(campaign.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            return
        d = open_[0]
        actor = demo if d.chooser is None or d.chooser.order == 0 else rival
        if d.is_roll:
            answer = None
        elif d.is_multiple:
            answer = []
        elif d.is_number:
            answer = 0
        else:
            answer = d.options[0]
        decision_answer(decision=d, actor=actor, answer=answer)
    raise RuntimeError("the campaign kept asking")


def play_real_campaign(rng: random.Random):
    """The demo's Stalingrad campaign, played for REAL_BATTLES battles and set up for the next."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Battle, Campaign
    from campaigns.services.battles import battle_event_record, battle_result_submit, battle_roll
    from campaigns.services.cc_engine import cc_advance

    User = get_user_model()
    demo, rival = User.objects.get(username="demo"), User.objects.get(username="rival")
    campaign = Campaign.objects.get(name="Stalingrad: Mamayev Kurgan")
    germans, soviets = campaign.sides.order_by("order")
    categories = ["time", "vp", "casualty", "casualty", "other", "hero", "battle_harden", "kia"]
    for number in range(1, REAL_BATTLES + 2):
        cc_advance(campaign_id=campaign.pk, actor=demo)
        answer_all(campaign, demo, rival)
        campaign.refresh_from_db()
        battle = Battle.objects.get(campaign=campaign, number=campaign.state["battle"])
        for i in range(EVENTS_PER_BATTLE):
            actor = demo if i % 2 == 0 else rival
            category = rng.choice(categories)
            battle_event_record(
                battle=battle,
                actor=actor,
                category=category,
                text=f"{category} near the grain elevator, turn {i // 2 + 1}",
                vp_delta=rng.choice([1, -1, 2]) if category == "vp" else None,
            )
            if i % 2 == 1 and i // 2 < ROLLS_PER_BATTLE:
                battle_roll(battle=battle, actor=actor, roll_kind="2d6", purpose="Fire attack")
        if number > REAL_BATTLES:
            break  # the last one stays in play
        winner = germans if number % 2 else soviets  # alternate: the campaign goes on
        survivors = {
            "axis": [
                {
                    "id": "g1",
                    "kind": "Rifle squad",
                    "weapon": None,
                    "veteran": False,
                    "leader_of": None,
                }
            ],
            "allies": [
                {
                    "id": "r1",
                    "kind": "Rifle squad",
                    "weapon": None,
                    "veteran": False,
                    "leader_of": None,
                }
            ],
        }
        battle_result_submit(
            battle=battle, actor=demo, winner=winner, details={"survivors": survivors}
        )
        battle_result_submit(
            battle=battle, actor=rival, winner=winner, details={"survivors": survivors}
        )
        answer_all(campaign, demo, rival)
    campaign.refresh_from_db()
    return campaign


def real_stats(campaign) -> str:
    from django.db.models import Count

    from campaigns.models import LogEntry

    entries = LogEntry.objects.filter(campaign=campaign)
    per_battle = dict(
        entries.filter(battle__isnull=False)
        .values_list("battle__number")
        .annotate(n=Count("id"))
        .order_by("battle__number")
    )
    return (
        f"{entries.count()} log entries ({entries.filter(private_to__isnull=False).count()} "
        f"private), {entries.filter(battle__isnull=True).count()} of them outside a battle; "
        f"entries per battle {per_battle}"
    )


def scale_campaign(source, size: Size, battle_entries: int, rng: random.Random):
    """A copy of `source` with `size.battles` battles and `size.entries` log entries, the last
    battle in play with exactly `battle_entries` entries of its own."""
    from django.db import transaction

    from campaigns.models import Battle, Campaign, LogEntry, Side, SidePlayer

    real_battles = list(Battle.objects.filter(campaign=source).order_by("number"))
    real_log = list(
        LogEntry.objects.filter(campaign=source)
        .order_by("seq")
        .values("battle_id", "kind", "actor_id", "private_to_id", "summary", "rule", "data")
    )
    playing = real_battles[-1]
    resolved = real_battles[:-1]
    # chunk k: the entries up to and including battle k's own (procedure entries that have no
    # battle belong to the next battle-linked entry's chunk)
    index = {b.pk: i for i, b in enumerate(real_battles)}
    chunks: list[list[dict]] = [[] for _ in real_battles]
    pending: list[dict] = []
    last = 0
    for e in real_log:
        if e["battle_id"] is None:
            pending.append(e)
            continue
        last = index[e["battle_id"]]
        chunks[last] += [*pending, e]
        pending = []
    chunks[last] += pending

    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=f"Stalingrad at {size.key} ({size.battles} battles, {size.entries} entries)",
            system=source.system,
            template=source.template,
            description=source.description,
            status=source.status,
            visibility=source.visibility,
            club=source.club,
            created_by=source.created_by,
            options=source.options,
            tables=source.tables,
            state={},
        )
        sides = {}
        for side in source.sides.order_by("order"):
            new = Side.objects.create(
                campaign=campaign, name=side.name, faction=side.faction, order=side.order
            )
            sides[side.pk] = new
            for seat in SidePlayer.objects.filter(side=side):
                SidePlayer.objects.create(side=new, user_id=seat.user_id)

        # battles 1..B: 1 and B are the real first and in-play battles, the rest cycle through
        # the real resolved ones after the first
        templates = [resolved[0]] + [
            resolved[1 + (k % max(1, len(resolved) - 1))] if len(resolved) > 1 else resolved[0]
            for k in range(size.battles - 2)
        ]
        templates.append(playing)
        day0 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
        new_battles = []
        for number, tpl in enumerate(templates, start=1):
            new_battles.append(
                Battle(
                    campaign=campaign,
                    number=number,
                    position=tpl.position,
                    status=tpl.status,
                    winner=sides.get(tpl.winner_id),
                    result=tpl.result,
                    state_before=tpl.state_before,
                    result_submitted_by_id=tpl.result_submitted_by_id,
                    finished_at=tpl.finished_at and day0 + dt.timedelta(days=number),
                )
            )
        new_battles = Battle.objects.bulk_create(new_battles)

        # the engine state: one record per battle, like a campaign that really got that far
        state = copy.deepcopy(source.state)
        records = state.get("battles", [])
        by_number = {r["number"]: r for r in records}
        new_records = []
        for number, tpl in enumerate(templates, start=1):
            r = copy.deepcopy(by_number.get(tpl.number, records[-1]))
            r["number"] = number
            new_records.append(r)
        state["battles"] = new_records
        state["battle"] = size.battles
        Campaign.objects.filter(pk=campaign.pk).update(state=state)

        # the log: chunk per battle, then padded with that battle's own events and rolls
        plan: list[list[dict]] = []
        for tpl in templates:
            plan.append([dict(e) for e in chunks[index[tpl.pk]]])
        own_last = sum(1 for e in plan[-1] if e["battle_id"] == playing.pk)
        total = sum(len(c) for c in plan)
        pad_last = max(0, battle_entries - own_last)
        pad_rest = max(0, size.entries - total - pad_last)
        per_battle = [pad_rest // max(1, size.battles - 1)] * (size.battles - 1)
        for i in range(pad_rest - sum(per_battle)):
            per_battle[i % len(per_battle)] += 1
        per_battle.append(pad_last)
        rows = []
        seq = number_public = 0
        t = day0
        for chunk, extra, battle, tpl in zip(plan, per_battle, new_battles, templates, strict=True):
            play = [e for e in chunk if e["battle_id"] == tpl.pk and e["kind"] in ("event", "roll")]
            if extra and play:
                # insert the padding after the chunk's last play entry (before the result)
                at = max(i for i, e in enumerate(chunk) if e in play) + 1
                filler = [dict(play[i % len(play)]) for i in range(extra)]
                chunk[at:at] = filler
            for e in chunk:
                seq += 1
                t += dt.timedelta(seconds=rng.randint(20, 200))
                private = sides[e["private_to_id"]].pk if e["private_to_id"] else None
                if private is None:
                    number_public += 1
                rows.append(
                    {
                        "campaign_id": campaign.pk,
                        "battle_id": battle.pk if e["battle_id"] is not None else None,
                        "seq": seq,
                        "number": None if private else number_public,
                        "kind": e["kind"],
                        "actor_id": e["actor_id"],
                        "private_to_id": private,
                        "summary": e["summary"],
                        "rule": e["rule"],
                        "data": e["data"],
                        "created_at": t,
                    }
                )
        copy_rows(LogEntry, rows)
    counts = {
        "entries": len(rows),
        "battle_entries": LogEntry.objects.filter(battle=new_battles[-1]).count(),
        "public": number_public,
    }
    return campaign, new_battles[-1].number, counts


# --- leagues ---------------------------------------------------------------------------------


def build_league(size: Size, rng: random.Random):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db.models import Count
    from django.utils import timezone

    from campaigns.models import Club, ClubMembership, LeagueParticipant, Result, ResultPlayer
    from campaigns.services.leagues import league_create

    User = get_user_model()
    demo = User.objects.get(username="demo")
    club = Club.objects.get(slug="demo-wargames-club")
    password = make_password("bench")
    prefix = size.key.lower()
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i:03d}", password=password) for i in range(size.players)]
    )
    ClubMembership.objects.bulk_create([ClubMembership(club=club, user=u) for u in users])
    league = league_create(
        club=club,
        actor=demo,
        name=f"Bench {size.key}",
        season="1942",
        system="cc",
        tiebreaks=["points", "h2h", "buchholz", "median_buchholz", "owp", "sos", "wins"],
    )
    LeagueParticipant.objects.bulk_create([LeagueParticipant(league=league, user=u) for u in users])
    day0 = dt.date(2020, 1, 1)
    per_day = max(1, size.results // 1000)
    scenarios = [f"Scenario {n}" for n in range(1, 21)]
    now = timezone.now()
    copy_rows(
        Result,
        (
            {
                "league_id": league.pk,
                "played_on": day0 + dt.timedelta(days=i // per_day),
                "scenario": rng.choice(scenarios),
                "side_a": "Germans",
                "side_b": "Soviets",
                "outcome": rng.choice(["a", "a", "b", "b", "draw"]),
                "entered_by_id": demo.pk,
                "created_at": now,
                "updated_at": now,
            }
            for i in range(size.results)
        ),
    )
    ids = list(Result.objects.filter(league=league).order_by("id").values_list("id", flat=True))

    def seats():
        for rid in ids:
            a, b = rng.sample(users, 2)
            yield {"result_id": rid, "user_id": a.pk, "team": "a"}
            yield {"result_id": rid, "user_id": b.pk, "team": "b"}

    copy_rows(ResultPlayer, seats())
    # what the project does after a bulk import of results, where it has such a step (issue 16
    # keeps per-player standings aggregates up to date by the result writes, which COPY skips)
    hooks = []
    try:
        from campaigns.services.standings import standings_rebuild
    except ImportError:
        pass
    else:
        standings_rebuild(league.pk)
        hooks.append("standings_rebuild")
    player = (
        ResultPlayer.objects.filter(result__league=league)
        .values("user__username")
        .annotate(n=Count("id"))
        .order_by("-n", "user__username")
        .first()
    )
    return league, player["user__username"], player["n"], [u.username for u in users], hooks


def recompute_in_subprocess(league_id: int) -> dict:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--recompute-league", str(league_id)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


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


# --- serving ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def collectstatic(static_root: Path) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        check=True,
        env={**os.environ, **ENV, "DJANGO_STATIC_ROOT": str(static_root)},
    )


RUNNING: dict[str, subprocess.Popen] = {}  # stopped by main's `finally`, however it ends


def start_gunicorn(port: int, workdir: Path, static_root: Path) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    logfile = open(workdir / "gunicorn.log", "w")  # noqa: SIM115 (closed with the process)
    env = {
        **os.environ,
        **ENV,
        "DJANGO_STATIC_ROOT": str(static_root),
        "GUNICORN_WORKERS": "2",
        "PYTHONPATH": str(ROOT),
    }
    proc = RUNNING["gunicorn"] = subprocess.Popen(
        [
            str(gunicorn),
            "-c",
            "deploy/gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--chdir",
            str(ROOT),
            "--access-logfile",
            str(workdir / "access.log"),
        ],
        cwd=ROOT,
        env=env,
        stdout=logfile,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    import requests

    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                "gunicorn exited:\n" + (workdir / "gunicorn.log").read_text()[-3000:]
            )
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc
        except requests.RequestException:
            pass
        time.sleep(0.3)
    stop_gunicorn(proc)
    raise RuntimeError("gunicorn did not answer /healthz within 60 s")


def stop_gunicorn(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- measuring -------------------------------------------------------------------------------


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


PAGE_ROWS = [
    ("base", "signed-in base page (/accounts/password/)"),
    ("trivial", "trivial view (/healthz)"),
    ("dashboard", "campaign dashboard"),
    ("battle", "battle page (battle in play, {be} entries)"),
    ("log", "full log"),
    ("history", "campaign history"),
    ("battle_history", "battle history ({be} entries)"),
    ("standings_after", "league standings, first request after a new result"),
    ("standings", "league standings, warm"),
    ("player", "player page ({pn} results)"),
    ("api_log", "API log /api/v1/campaigns/{{id}}/log/"),
    ("api_standings", "API standings /api/v1/leagues/{{id}}/standings/"),
    ("api_results", "API results /api/v1/results/?league={{id}}"),
]


def fetch(session, base_url: str, page: Page) -> None:
    import requests

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
    import requests

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
        return {"size": key, "total": total, "tasks": spent.get("tasks", 0.0)}

    return append


# --- report ----------------------------------------------------------------------------------


def ms(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x * 1000:,.1f}" if x < 10 else f"{x * 1000:,.0f}"


def kb(xs: list[int]) -> str:
    if not xs:
        return "—"
    v = statistics.median(xs)
    return f"{v / 1024:,.0f} KB" if v < 10 * 1024 * 1024 else f"{v / 1024 / 1024:,.1f} MB"


def report(args, sizes, built, pages_by, appended, recomputes, runtime, started_at) -> str:
    base = pages_by[("base", "")]
    base95 = base.p(95)
    lines = []
    out = lines.append
    out(f"# `make bench` report ({started_at:%Y-%m-%d %H:%M} UTC)")
    out("")
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%h %s"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    changed = sorted({line[3:].strip() for line in dirty.splitlines() if line.strip()})
    note = (
        f" with uncommitted changes to {', '.join(changed)}"
        if 0 < len(changed) <= 8
        else f" with uncommitted changes to {len(changed)} files"
        if changed
        else ""
    )
    out(f"- code: `{ROOT}` at {commit or '?'}{note}")
    out(
        f"- machine: {platform.node()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        "shared with other work, so the figures are noisy: every round visits all pages of both "
        "sizes in a shuffled order, so they all see the same noise"
    )
    out(
        "- served by gunicorn (deploy/gunicorn.conf.py: 2 workers × 2 threads), DJANGO_DEBUG=false, "
        "DJANGO_INSECURE_HTTP=true, PostgreSQL 127.0.0.1:5432/ledger_bench, Redis cache "
        f"({REDIS_URL}); no Celery broker (so /healthz checks the database only)"
    )
    out(
        f"- {args.rounds} rounds of sequential requests signed in as `demo` (session cookie), "
        "after 2 warm-up rounds; p50/p95 are nearest-rank over the samples (n); time is until "
        "the whole body is read"
    )
    out(
        f"- to keep the run short, pages slower than {SLOW_SECONDS:.0f} s at both warm-up visits "
        f"are sampled only {SLOW_SAMPLES} times (their p95 is then the slowest sample), and "
        f"pages slower than {VERY_SLOW_SECONDS:.0f} s at the first visit twice (that visit "
        "and one more)"
    )
    out(
        f'- "first request after a new result": in {args.after_rounds} rounds a result is '
        "first appended with `result_enter` (Celery eager, so the rating task it queues runs "
        "before the request), then the league page is requested"
    )
    out(
        f"- the source: the demo Stalingrad campaign played through the services for "
        f"{REAL_BATTLES} battles and set up for the next ({EVENTS_PER_BATTLE} events and "
        f"{ROLLS_PER_BATTLE} rolls a battle): {built['real']}; each size copies its rows (battle "
        "rows, engine-state records, log chunks per battle, padded with that battle's own events "
        "and rolls) with COPY, `seq` and public `number` renumbered as `append_log` numbers them; "
        "the league rows (results, two seats each, 200 players) by COPY; then VACUUM ANALYZE"
    )
    if built.get("hooks"):
        out(f"- after the league rows were copied: {', '.join(built['hooks'])}")
    out(f"- bench runtime: {runtime / 60:.1f} min (build {built['build_seconds']:.0f} s)")
    out("")
    for size in sizes:
        b = built[size.key]
        out(f"## {size.key}: {size.label}")
        out("")
        out(
            f"Campaign #{b['campaign']}: {b['counts']['entries']:,} log entries "
            f"({b['counts']['public']:,} public), {size.battles} battles, battle {b['battle']} "
            f"in play with {b['counts']['battle_entries']:,} entries. League #{b['league']}: "
            f"{size.results:,} results, {size.players} players; player `{b['player']}` has "
            f"{b['player_results']:,} results."
        )
        out("")
        urls = [
            f"{key} `{page.url}`"
            for (key, sz), page in pages_by.items()
            if sz == size.key and key != "standings_after"
        ]
        out("URLs: " + ", ".join(urls) + ".")
        out("")
        head = "| page | n | p50 ms | p95 ms | × base p95 | size |"
        sep = "|---|---:|---:|---:|---:|---:|"
        if size.key == sizes[-1].key and len(sizes) > 1:
            head += " L/S p95 |"
            sep += "---:|"
        out(head)
        out(sep)
        for key, label in PAGE_ROWS:
            page = pages_by.get((key, "" if key in ("base", "trivial") else size.key))
            if page is None:
                continue
            label = label.format(be=b["counts"]["battle_entries"], pn=b["player_results"])
            p50, p95 = page.p(50), page.p(95)
            ratio = f"{p95 / base95:.1f}×" if p95 and base95 else "—"
            n = f"{len(page.times)}"
            if page.failures:
                n += f" (+{len(page.failures)} failed: {page.failures[0]})"
            row = f"| {label} | {n} | {ms(p50)} | {ms(p95)} | {ratio} | {kb(page.sizes)} |"
            if size.key == sizes[-1].key and len(sizes) > 1:
                small = pages_by.get((key, "" if key in ("base", "trivial") else sizes[0].key))
                s95 = small.p(95) if small else None
                row += f" {p95 / s95:.2f}× |" if p95 and s95 else " — |"
            out(row)
        out("")
        rc = recomputes[size.key]
        out(
            f"- full rating recompute ({size.results:,} results, subprocess): "
            f"**{rc['seconds']:.2f} s**, peak RSS **{rc['peak_rss_mb']:.0f} MB** "
            f"(VmHWM; resident before the call {rc['baseline_rss_mb']:.0f} MB, so "
            f"+{rc['peak_rss_mb'] - rc['baseline_rss_mb']:.0f} MB); {rc['report']}"
        )
        mine = [a for a in appended if a["size"] == size.key]
        if mine:
            totals = sorted(a["total"] for a in mine)
            tasks = sorted(a["tasks"] for a in mine)
            out(
                f"- one appended result (`result_enter`, {len(mine)} times): median "
                f"**{statistics.median(totals) * 1000:,.0f} ms** in all, of which "
                f"{statistics.median(tasks) * 1000:,.0f} ms in the Celery tasks it queued "
                f"(rating work); max {totals[-1] * 1000:,.0f} ms. (Deployed with a broker, "
                "the task runs in a Celery worker after the request has answered.)"
            )
        out("")
    missing = [p for p in pages_by.values() if not p.times]
    if missing:
        out("## Not measured")
        out("")
        for p in missing:
            out(
                f"- {p.size} {p.key} `{p.url}`: {'; '.join(sorted(set(p.failures))) or 'no sample'}"
            )
        out("")
    return "\n".join(lines)


# --- main ------------------------------------------------------------------------------------


def _interrupted(signum, _frame) -> None:
    raise SystemExit(f"bench: interrupted by signal {signum}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--after-rounds", type=int, default=3)
    parser.add_argument("--battle-entries", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to try the bench")
    parser.add_argument("--keep-db", action="store_true", help="leave ledger_bench in place")
    parser.add_argument("--report", default=str(ROOT / "bench" / "last-report.md"))
    parser.add_argument("--seed", type=int, default=1942)
    parser.add_argument("--recompute-league", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.recompute_league:
        recompute_child(args.recompute_league)
        return
    # SIGTERM (and SIGINT, even in a background job) unwind through `finally`: gunicorn is
    # stopped and the database dropped
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _interrupted)
    if args.quick:
        args.battle_entries = min(args.battle_entries, 200)
    sizes = QUICK_SIZES if args.quick else SIZES
    started_at = dt.datetime.now(dt.UTC)
    t0 = time.perf_counter()
    rng = random.Random(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    try:
        log(f"database {DB_NAME}: drop, create, migrate, demo data; project {ROOT}")
        recreate_database()
        setup_django()
        from django.core.cache import cache
        from django.core.management import call_command
        from django.test import Client

        call_command("migrate", "--noinput", verbosity=0)
        call_command("load_demo", stdout=io.StringIO())
        cache.clear()  # its own Redis database (BENCH_REDIS_URL)
        log(f"playing the demo Stalingrad campaign for {REAL_BATTLES} battles through the services")
        source = play_real_campaign(rng)
        built: dict = {"real": real_stats(source)}
        log(f"  real campaign: {built['real']}")
        for size in sizes:
            log(f"size {size.key}: campaign of {size.battles} battles, {size.entries:,} entries")
            campaign, battle_no, counts = scale_campaign(source, size, args.battle_entries, rng)
            log(f"size {size.key}: league of {size.results:,} results")
            league, player, player_n, usernames, hooks = build_league(size, rng)
            built["hooks"] = hooks
            built[size.key] = {
                "campaign": campaign.pk,
                "battle": battle_no,
                "counts": counts,
                "league": league.pk,
                "league_obj": league,
                "usernames": usernames,
                "player": player,
                "player_results": player_n,
            }
        log("VACUUM ANALYZE")
        from django.db import connection

        connection.close()
        import psycopg

        with psycopg.connect(PG + f" dbname={DB_NAME}", autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
        recomputes = {}
        for size in sizes:
            log(f"size {size.key}: full rating recompute in a subprocess")
            recomputes[size.key] = recompute_in_subprocess(built[size.key]["league"])
            log(
                f"  {recomputes[size.key]['seconds']:.2f} s, "
                f"peak RSS {recomputes[size.key]['peak_rss_mb']:.0f} MB"
            )
        built["build_seconds"] = time.perf_counter() - t0
        from django.contrib.auth import get_user_model

        client = Client()
        client.force_login(get_user_model().objects.get(username="demo"))
        cookie = client.cookies["sessionid"].value

        log("collectstatic (manifest storage, as deployed)")
        static_root = workdir / "static"
        collectstatic(static_root)
        port = free_port()
        log(f"gunicorn on 127.0.0.1:{port}")
        start_gunicorn(port, workdir, static_root)
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
        append = make_appender(
            {s.key: (built[s.key]["league_obj"], built[s.key]["usernames"]) for s in sizes}, rng
        )
        log(f"measuring: {args.rounds} interleaved rounds of {len(pages)} pages")
        appended = measure(
            f"http://127.0.0.1:{port}",
            cookie,
            pages,
            after,
            append,
            args.rounds,
            args.after_rounds,
            rng,
        )
        stop_gunicorn(RUNNING.pop("gunicorn"))
        pages_by = {(p.key, p.size): p for p in pages + list(after.values())}
        text = report(
            args,
            sizes,
            built,
            pages_by,
            appended,
            recomputes,
            time.perf_counter() - t0,
            started_at,
        )
        print()
        print(text)
        Path(args.report).write_text(text + "\n", encoding="utf-8")
        log(f"written to {args.report}")
    finally:
        if RUNNING.get("gunicorn") is not None:
            stop_gunicorn(RUNNING.pop("gunicorn"))
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django may not be set up yet
            pass
        if not args.keep_db:
            drop_database()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()

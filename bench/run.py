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
import datetime as dt
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

# this checkout first on sys.path, before the imports below (setup_django checks that the
# project is imported from it)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    DB_NAME,
    QUICK_SIZES,
    ROOT,
    SIZES,
    log,
    setup_django,
)
from bench.data import build, close_connections, drop_database, recreate_database
from bench.measure import (
    make_appender,
    measure,
    pages_for,
    recompute_all,
    recompute_child,
)
from bench.report import report
from bench.server import RUNNING, serve, session_cookie, stop_gunicorn

os.chdir(ROOT)


def _interrupted(signum, _frame) -> None:
    raise SystemExit(f"bench: interrupted by signal {signum}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--after-rounds", type=int, default=3)
    parser.add_argument("--battle-entries", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to try the bench")
    parser.add_argument("--keep-db", action="store_true", help="leave ledger_bench in place")
    parser.add_argument("--report", default=str(ROOT / "bench" / "last-report.md"))
    parser.add_argument("--seed", type=int, default=1942)
    parser.add_argument("--recompute-league", type=int, help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
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
        built = build(sizes, args.battle_entries, rng)
        recomputes = recompute_all(sizes, built)
        built["build_seconds"] = time.perf_counter() - t0
        cookie = session_cookie("demo")
        port = serve(workdir)
        pages, after = pages_for(sizes, built)
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
        close_connections()
        if not args.keep_db:
            drop_database()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()

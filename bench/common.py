"""What the bench's modules share: where the project is, the database, the environment the
project runs with, the sizes, the sampling limits, `log` and `setup_django`."""

from __future__ import annotations

import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parent.parent

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


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def setup_django() -> None:
    os.environ.update(ENV)
    django.setup()
    import campaigns  # where the project was imported from (after setup, like any app module)

    here = Path(campaigns.__file__).resolve().parent.parent
    if here != ROOT:
        sys.exit(f"bench: imported the project from {here}, expected {ROOT}")

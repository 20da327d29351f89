"""A real Celery worker process against the configured broker round-trips a task.

`start_worker` and `stop_worker` are shared with tests/test_worker_loss.py.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from celery.result import allow_join_result
from django.conf import settings

from campaigns.tasks import ping
from tests.conftest import require_service

ROOT = Path(__file__).resolve().parent.parent


def session_database_url() -> str | None:
    """The URL of the database this test session uses (pytest-django's test database).

    A worker process started with it sees what the test writes (in a `transaction=True`
    test). None for SQLite: its test database lives in this process's memory.
    """
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        return None
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else f"{user}@" if user else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{db.get('HOST') or ''}{port}/{quote(db['NAME'], safe='')}"


def start_worker(
    name: str,
    output: Path,
    *,
    pool: str = "solo",
    concurrency: int = 1,
    env: dict | None = None,
    app: str = "config",
) -> subprocess.Popen:
    """A `celery worker` process on the configured broker and the test database.

    Its log goes to `output` (read it while it runs).
    """
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})}
    if url := session_database_url():
        environ["DATABASE_URL"] = url
    with output.open("w") as log:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                app,
                "worker",
                f"--pool={pool}",
                f"--concurrency={concurrency}",
                "--loglevel=INFO",
                f"--hostname=pytest-{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )


def wait_for_result(result, timeout: float):
    """The task's answer. Celery's eager mode keeps a process-wide "inside a task" flag that
    eager tasks run on several threads at once (the live-server tests) can leave set; this
    process is not a worker, so waiting for a result is allowed."""
    with allow_join_result():
        return result.get(timeout=timeout)


def stop_worker(worker: subprocess.Popen) -> None:
    """Warm shutdown (SIGTERM); killed if it takes longer than 20 s."""
    if worker.poll() is not None:
        return
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


@pytest.mark.worker
def test_a_real_worker_round_trips_a_task(tmp_path):
    if not settings.CELERY_BROKER_URL:
        require_service("no CELERY_BROKER_URL: set it to a Redis URL to run a real worker")
    output = tmp_path / "worker.log"
    worker = start_worker("worker", output)
    try:
        result = ping.apply_async(args=["over the wire"])
        deadline = time.monotonic() + 60
        while not result.ready() and time.monotonic() < deadline and worker.poll() is None:
            time.sleep(0.2)
        assert worker.poll() is None, "the worker died before answering"
        assert wait_for_result(result, 5) == {
            "echo": "over the wire",
            "database": settings.DATABASES["default"]["ENGINE"]
            .rsplit(".", 1)[-1]
            .replace("sqlite3", "sqlite"),
        }
    finally:
        stop_worker(worker)
    out = output.read_text()
    assert "campaigns.ping" in out and "succeeded" in out

"""A real Celery worker process against the configured broker round-trips a task."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from campaigns.tasks import ping
from tests.conftest import require_service

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.worker
def test_a_real_worker_round_trips_a_task():
    if not settings.CELERY_BROKER_URL:
        require_service("no CELERY_BROKER_URL: set it to a Redis URL to run a real worker")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=INFO",
            "--hostname=pytest-worker@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        result = ping.apply_async(args=["over the wire"])
        deadline = time.monotonic() + 60
        while not result.ready() and time.monotonic() < deadline and worker.poll() is None:
            time.sleep(0.2)
        assert worker.poll() is None, "the worker died before answering"
        assert result.get(timeout=5) == {
            "echo": "over the wire",
            "database": settings.DATABASES["default"]["ENGINE"]
            .rsplit(".", 1)[-1]
            .replace("sqlite3", "sqlite"),
        }
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            out, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            out, _ = worker.communicate()
    assert "campaigns.ping" in out and "succeeded" in out

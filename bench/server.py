"""Serving the bench database as deployed: collectstatic, gunicorn started and stopped, the
signed-in session cookie.

`requests` is imported where it is used, so that the recompute subprocess (which imports this
module through run.py) does not carry it in the memory it measures; Django's modules are
imported inside the functions, after `setup_django()`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.common import ENV, ROOT, log


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
    import requests  # here, not at the top: see the module's docstring

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


def serve(workdir: Path) -> int:
    """collectstatic into `workdir` and gunicorn on a free port (in RUNNING); answers the port."""
    log("collectstatic (manifest storage, as deployed)")
    static_root = workdir / "static"
    collectstatic(static_root)
    port = free_port()
    log(f"gunicorn on 127.0.0.1:{port}")
    start_gunicorn(port, workdir, static_root)
    return port


def session_cookie(username: str) -> str:
    """A session cookie for `username`, made by Django's session engine (after setup_django)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client.cookies["sessionid"].value

"""deploy/ cannot be run here (no Docker engine); keep it consistent with the settings."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = (ROOT / "config" / "settings.py").read_text()


def _variables(text: str) -> set[str]:
    return set(re.findall(r"^\s*((?:DJANGO|DATABASE|CELERY|REDIS)_[A-Z_]+)\s*[=:]", text, re.M))


def test_every_deploy_variable_is_read_by_the_settings():
    names = _variables((ROOT / "deploy" / "env.example").read_text())
    names |= _variables((ROOT / "deploy" / "docker-compose.yml").read_text())
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL"} <= names
    assert sorted(n for n in names if f'"{n}"' not in SETTINGS) == []


def test_units_and_compose_run_the_same_processes():
    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    for unit, command in [
        ("ledger-web.service", "gunicorn -c deploy/gunicorn.conf.py"),
        ("ledger-worker.service", "celery -A config worker"),
        ("ledger-beat.service", "celery -A config beat"),
    ]:
        assert command in (ROOT / "deploy" / "systemd" / unit).read_text()
        assert command in compose
    assert (ROOT / "deploy" / "gunicorn.conf.py").exists()
    assert "config.wsgi:application" in (ROOT / "deploy" / "gunicorn.conf.py").read_text()

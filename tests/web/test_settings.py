"""Settings come from the environment: database choice, eager Celery, production checks."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT = (
    "import django, json; from django.conf import settings as s; "
    "db = s.DATABASES['default']; "
    "print(json.dumps({'engine': db['ENGINE'], 'name': str(db['NAME']), "
    "'conn_max_age': db.get('CONN_MAX_AGE'), 'eager': s.CELERY_TASK_ALWAYS_EAGER}))"
)


def _env(**extra):
    keep = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_"))
    }
    return {**keep, "DJANGO_SETTINGS_MODULE": "config.settings", **extra}


def _settings(**extra):
    out = subprocess.run(
        [sys.executable, "-c", PRINT], cwd=ROOT, env=_env(**extra), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_no_database_url_means_a_sqlite_file_in_the_project():
    s = _settings()
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(ROOT / "db.sqlite3")
    assert s["eager"] is True


def test_postgres_url_uses_psycopg_with_persistent_connections():
    s = _settings(
        DATABASE_URL="postgres://u:p@db.example:5432/ledger", CELERY_BROKER_URL="redis://r:6379/0"
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["name"] == "ledger" and s["conn_max_age"] == 60
    assert s["eager"] is False


def test_check_deploy_passes_with_production_environment():
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(
            DJANGO_DEBUG="false",
            DJANGO_SECRET_KEY="x" * 20 + "production-secret-with-enough-entropy-9f8e7d6c5b4a",
            DJANGO_ALLOWED_HOSTS="ledger.example.org",
        ),
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_production_refuses_to_start_without_a_secret():
    out = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="ledger.example.org"),
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "DJANGO_SECRET_KEY" in out.stderr

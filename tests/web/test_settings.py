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


def _env_file(path: Path) -> dict[str, str]:
    pairs = (
        line.split("=", 1)
        for line in path.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )
    return {name.strip(): value.strip() for name, value in pairs}


def test_deploy_env_example_passes_check_deploy():
    """README, "Running with PostgreSQL…": `check --deploy` passes with deploy/env.example."""
    example = _env_file(ROOT / "deploy" / "env.example")
    assert example["DJANGO_DEBUG"] == "false" and example["DJANGO_INSECURE_HTTP"] == "false"
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(**example),
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


SECURITY = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps({'session': s.SESSION_COOKIE_SECURE, 'csrf': s.CSRF_COOKIE_SECURE, "
    "'redirect': s.SECURE_SSL_REDIRECT, 'hsts': s.SECURE_HSTS_SECONDS, 'debug': s.DEBUG}))"
)


def _security(**extra):
    return subprocess.run(
        [sys.executable, "-c", SECURITY],
        cwd=ROOT,
        env=_env(**extra),
        capture_output=True,
        text=True,
    )


PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "k" * 30 + "-local-http-test-0123456789",
}


def test_production_is_https_only_by_default():
    out = _security(**PRODUCTION, DJANGO_ALLOWED_HOSTS="ledger.example.org")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "session": True,
        "csrf": True,
        "redirect": True,
        "hsts": 31536000,
        "debug": False,
    }


def test_insecure_http_switch_allows_local_production_mode_over_http():
    out = _security(
        **PRODUCTION, DJANGO_INSECURE_HTTP="true", DJANGO_ALLOWED_HOSTS="localhost,127.0.0.1"
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "session": False,
        "csrf": False,
        "redirect": False,
        "hsts": 0,
        "debug": False,
    }
    # Even an explicit redirect or HSTS setting cannot turn HTTPS back on half-way.
    out = _security(
        **PRODUCTION,
        DJANGO_INSECURE_HTTP="true",
        DJANGO_ALLOWED_HOSTS="localhost",
        DJANGO_SECURE_SSL_REDIRECT="true",
        DJANGO_HSTS_SECONDS="600",
    )
    assert json.loads(out.stdout)["redirect"] is False and json.loads(out.stdout)["hsts"] == 0


def test_insecure_http_switch_is_refused_with_a_public_host():
    out = _security(
        **PRODUCTION,
        DJANGO_INSECURE_HTTP="true",
        DJANGO_ALLOWED_HOSTS="localhost,ledger.example.org",
    )
    assert out.returncode != 0
    assert "DJANGO_INSECURE_HTTP" in out.stderr and "ledger.example.org" in out.stderr

import pytest
from django.db import OperationalError

from campaigns.views import health
from tests.conftest import require_service

pytestmark = pytest.mark.django_db


def test_healthz_reports_the_database(client, settings):
    settings.CELERY_BROKER_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_healthz_is_503_when_the_database_is_down(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = ""

    class Broken:
        def __enter__(self):
            raise OperationalError("connection refused")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: Broken())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "error: OperationalError"}


def test_healthz_reports_an_unreachable_broker(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok" and body["broker"].startswith("error")


def test_healthz_reports_a_live_broker(client, settings):
    if not settings.CELERY_BROKER_URL:
        require_service("no CELERY_BROKER_URL: the broker check needs a real broker")
    body = client.get("/healthz").json()
    assert body == {"status": "ok", "database": "ok", "broker": "ok"}

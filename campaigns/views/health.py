"""Liveness and readiness for load balancers and CI: database and broker status as JSON."""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _broker() -> str:
    try:
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # kombu raises many kinds; all mean "down"
        return f"error: {exc.__class__.__name__}"
    return "ok"


@never_cache
def healthz(request):
    checks = {"database": _database()}
    if settings.CELERY_BROKER_URL:
        checks["broker"] = _broker()
    healthy = all(v == "ok" for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )

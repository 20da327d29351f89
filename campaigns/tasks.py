"""Celery tasks. Each is thin: it loads rows and calls a service."""

from celery import shared_task


@shared_task(name="campaigns.ping")
def ping(payload: str) -> dict[str, str]:
    """Round-trip check used by the health tooling and the real-worker test."""
    from django.db import connection

    return {"echo": payload, "database": connection.vendor}

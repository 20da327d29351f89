"""Planner statistics after a bulk write (a campaign import, a CSV results import)."""

from __future__ import annotations

from django.db import connection, transaction


def analyze_later(*models) -> None:
    """ANALYZE these tables once the current transaction commits, so the planner knows their
    new size (PostgreSQL and SQLite both have the statement)."""
    tables = [m._meta.db_table for m in models]

    def run() -> None:
        with connection.cursor() as cursor:
            for table in tables:
                cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")

    transaction.on_commit(run)

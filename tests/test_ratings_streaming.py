"""The full rating rebuild on PostgreSQL reads the results on a second connection and
streams the snapshots through one COPY (issue 16): it must write exactly what the chunked
path writes, charts included."""

import datetime as dt

import pytest
from django.db import connection, transaction

from campaigns.models import Rating, RatingSnapshot
from campaigns.services import ratings
from campaigns.services.ratings import league_ratings_update
from tests.conftest import require_service
from tests.web.leagues_helpers import club, enter, league, members, organiser  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def written(of) -> tuple:
    snaps = RatingSnapshot.objects.filter(league=of).order_by("method", "seq")
    rows = Rating.objects.filter(league=of).order_by("method", "user_id")
    return (
        list(snaps.values_list("user_id", "method", "seq", "result_id", "value", "mu", "games")),
        list(rows.values_list("user_id", "method", "value", "sigma", "games", "chart")),
    )


def test_streamed_rebuild_equals_the_chunked_one(league, organiser, members, monkeypatch):  # noqa: F811
    if connection.vendor != "postgresql":
        require_service("the streamed rebuild is PostgreSQL's (COPY and a second connection)")
    ann, ben, cat, dan = (members[n] for n in ("ann", "ben", "cat", "dan"))
    for i in range(40):
        day = dt.date(2026, 1, 1) + dt.timedelta(days=i // 3)
        if i % 5 == 0:
            enter(league, organiser, [ann, dan], [ben, cat], "draw", day=day)
        else:
            enter(league, organiser, ann if i % 2 else cat, ben, "a" if i % 3 else "b", day=day)
    streamed = []
    real = ratings._games_on_own_connection
    monkeypatch.setattr(
        ratings,
        "_games_on_own_connection",
        lambda *a: streamed.append(a) or real(*a),
    )
    league_ratings_update(league_id=league.pk, full=True)
    assert streamed, "outside a transaction the rebuild streams"
    once = written(league)
    assert len(once[0]) == 2 * (8 * 4 + 32 * 2)  # every seat rated by both methods
    with transaction.atomic():
        league_ratings_update(league_id=league.pk, full=True)
    assert len(streamed) == 1, "inside a transaction it reads on the main connection"
    assert written(league) == once

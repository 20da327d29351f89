"""A league of 100 000 results: full rating recompute time and standings page time.

Reported, not asserted. Run on demand: `make bench` (the default suite ignores this folder).
"""

import datetime as dt
import random
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from campaigns.models import ClubMembership, LeagueParticipant, Result, ResultPlayer
from campaigns.services import club_create
from campaigns.services.leagues import league_create, league_ratings_recompute

RESULTS = 100_000
PLAYERS = 200

pytestmark = pytest.mark.django_db


def test_league_of_100000_results(client, django_user_model):
    rng = random.Random(1944)
    password = make_password("x")
    users = get_user_model().objects.bulk_create(
        [django_user_model(username=f"p{i:03d}", password=password) for i in range(PLAYERS)]
    )
    club = club_create(creator=users[0], name="Bench Club")
    ClubMembership.objects.bulk_create([ClubMembership(club=club, user=u) for u in users[1:]])
    league = league_create(
        club=club,
        actor=users[0],
        name="Bench",
        season="1944",
        system="cc",
        tiebreaks=["points", "h2h", "buchholz", "median_buchholz", "owp", "sos", "wins"],
    )
    LeagueParticipant.objects.bulk_create([LeagueParticipant(league=league, user=u) for u in users])
    start = time.perf_counter()
    day0 = dt.date(2020, 1, 1)
    results = Result.objects.bulk_create(
        [
            Result(
                league=league,
                played_on=day0 + dt.timedelta(days=i // 60),
                scenario=f"S{rng.randrange(20)}",
                side_a="Germans",
                side_b="Soviets",
                outcome=rng.choice(["a", "a", "b", "b", "draw"]),
            )
            for i in range(RESULTS)
        ],
        batch_size=5000,
    )
    seats = []
    for r in results:
        a, b = rng.sample(users, 2)
        seats += [
            ResultPlayer(result=r, user=a, team="a"),
            ResultPlayer(result=r, user=b, team="b"),
        ]
    ResultPlayer.objects.bulk_create(seats, batch_size=10000)
    generated = time.perf_counter() - start

    start = time.perf_counter()
    report = league_ratings_recompute(league_id=league.pk)
    recompute = time.perf_counter() - start

    start = time.perf_counter()
    response = client.get(league.get_absolute_url())
    page = time.perf_counter() - start
    start = time.perf_counter()
    again = client.get(league.get_absolute_url())
    cached = time.perf_counter() - start
    assert response.status_code == again.status_code == 200 and report["results"] == RESULTS

    print(
        f"\nleague benchmark: {RESULTS} results, {PLAYERS} players\n"
        f"  generate rows:            {generated:7.2f} s\n"
        f"  full rating recompute:    {recompute:7.2f} s "
        f"(Elo + OpenSkill, {report['snapshots']} snapshots)\n"
        f"  standings page, 7 tie-breaks: {page:7.2f} s (computed), {cached:5.2f} s (cached)"
    )

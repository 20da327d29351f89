"""A league of 100 000 results: full rating recompute (time, peak memory), one appended
result's rating update, and the standings page (first request after a result, and warm).

Reported, not asserted. Run on demand: `make bench` (the default suite ignores this folder).
"""

import datetime as dt
import random
import time
import tracemalloc

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from campaigns.models import ClubMembership, LeagueParticipant, Result, ResultPlayer
from campaigns.selectors.leagues import league_get, league_standings
from campaigns.services import club_create
from campaigns.services.leagues import league_create, league_ratings_recompute, result_enter
from campaigns.services.standings import standings_rebuild

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
    standings_rebuild(league.pk)  # the rows above bypassed the services
    generated = time.perf_counter() - start

    start = time.perf_counter()
    report = league_ratings_recompute(league_id=league.pk)
    recompute = time.perf_counter() - start
    tracemalloc.start()
    league_ratings_recompute(league_id=league.pk)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()

    start = time.perf_counter()
    assert client.get(league.get_absolute_url()).status_code == 200  # a warm server
    cold = time.perf_counter() - start
    result_enter(
        league=league,
        actor=users[0],
        played_on=day0 + dt.timedelta(days=RESULTS // 60),
        team_a=[users[1].username],
        team_b=[users[2].username],
        outcome="a",
    )  # its on-commit task does not run inside the test's transaction: run its steps here
    start = time.perf_counter()
    appended = league_ratings_recompute(league_id=league.pk, full=False)
    append = time.perf_counter() - start
    start = time.perf_counter()  # the task's second step: the table from the aggregates
    league_standings(league_get(league.pk))
    table = time.perf_counter() - start

    start = time.perf_counter()
    response = client.get(league.get_absolute_url())
    page = time.perf_counter() - start
    start = time.perf_counter()
    again = client.get(league.get_absolute_url())
    cached = time.perf_counter() - start
    assert response.status_code == again.status_code == 200 and report["results"] == RESULTS
    assert appended == {"results": 1, "snapshots": 4}

    print(
        f"\nleague benchmark: {RESULTS} results, {PLAYERS} players\n"
        f"  generate rows:            {generated:7.2f} s\n"
        f"  full rating recompute:    {recompute:7.2f} s "
        f"(Elo + OpenSkill, {report['snapshots']} snapshots), peak {peak:.1f} MB traced\n"
        f"  one appended result:      {append * 1000:7.1f} ms (rating update)\n"
        f"  standings from aggregates: {table * 1000:6.1f} ms (7 tie-breaks, in the task)\n"
        f"  standings page, 7 tie-breaks: {cold:7.2f} s (first request of the run), "
        f"{page:5.2f} s (first after a result), {cached:5.2f} s (again)"
    )

"""Issue 16, item 1: every list that grows with history is read one window at a time, newest
first, by a seek (no OFFSET, no COUNT); "Older" fetches the next window; the API's log and
results page by cursor; charts draw from bounded series; private entries stay hidden."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import (
    Battle,
    LeagueParticipant,
    LogEntry,
    RatingSnapshot,
    Result,
    ResultPlayer,
)
from campaigns.paging import seal, unseal
from campaigns.selectors.history import (
    BATTLES_WINDOW,
    HISTORY_WINDOW,
    LOG_WINDOW,
    RESULTS_WINDOW,
    rating_charts,
)
from campaigns.services import side_join
from campaigns.services._base import append_log
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.leagues import result_correct
from campaigns.services.ratings import CHART_POINTS, league_ratings_update
from campaigns.services.standings import standings_rebuild
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA
from tests.web.leagues_helpers import enter
from tests.web.test_cc_pages import _setup_battle

pytest_plugins = ["tests.web.leagues_helpers"]

WINDOWS = 3


def _fill(campaign, n, *, private_every=0, battle=None, side=None):
    """n public entries ``entry <i>``; with ``private_every``, a private entry of ``side``
    (``SECRET <i>``) after every that many public ones."""
    for i in range(n):
        append_log(campaign, kind=LogEntry.Kind.EVENT, summary=f"entry {i}", battle=battle)
        if private_every and i % private_every == 0:
            append_log(
                campaign, kind=LogEntry.Kind.EVENT, summary=f"SECRET {i}", private_to=side,
                battle=battle,
            )  # fmt: skip


def _entries(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"entry (\d+)\b", html)]


def _older(html: str) -> tuple[str, str] | None:
    """(href, hx-get) of the "Older" link, or None."""
    m = re.search(
        r'class="older"[^>]*>(?:<td[^>]*>)?<a href="([^"]+)" rel="next" hx-get="([^"]+)"', html
    )
    return (m.group(1).replace("&amp;", "&"), m.group(2).replace("&amp;", "&")) if m else None


def _walk(client, url, size, total, *, htmx=True):
    """Follow "Older" from ``url`` to the end: each window ``size`` rows, newest first, no gap,
    no overlap; returns the windows."""
    page = client.get(url)
    assert page.status_code == 200
    windows = [_entries(page.text)]
    link = _older(page.text)
    while link:
        href, hx = link
        if htmx:
            page = client.get(hx, headers={"HX-Request": "true"})
            assert "<html" not in page.text  # only the rows and the next "Older"
        else:
            page = client.get(href)
            assert "<html" in page.text
        assert page.status_code == 200
        windows.append(_entries(page.text))
        link = _older(page.text)
    seen = [n for w in windows for n in w]
    assert seen == list(range(total - 1, -1, -1))  # newest first, each exactly once
    assert all(len(w) == size for w in windows[:-1]) and 0 < len(windows[-1]) <= size
    return windows


@pytest.fixture
def sides(campaign):
    return campaign.sides.order_by("order")


def test_the_campaign_page_shows_one_window_and_older_fetches_the_next(
    client, campaign, user, other_user, sides
):
    germans, _soviets = sides
    total = WINDOWS * LOG_WINDOW + 5
    _fill(campaign, total, private_every=7, side=germans)
    client.force_login(other_user)  # plays the Soviets: never sees a German private entry
    url = campaign.get_absolute_url()
    windows = _walk(client, url, LOG_WINDOW, total)
    assert len(windows) == WINDOWS + 1
    page = client.get(url)
    assert "SECRET" not in page.text
    # without JavaScript: the plain link shows the next window as a whole page
    _walk(client, url, LOG_WINDOW, total, htmx=False)
    client.force_login(user)  # the Germans see their own private entries in the windows
    assert "SECRET" in client.get(url).text


def test_windows_never_reveal_hidden_entries_nor_the_writing_order(
    client, campaign, other_user, sides
):
    germans, _soviets = sides
    _fill(campaign, 2 * HISTORY_WINDOW, private_every=3, side=germans)
    client.force_login(other_user)
    for url in (
        reverse("campaign-log", args=[campaign.pk]),
        reverse("campaign-history", args=[campaign.pk]),
        campaign.get_absolute_url(),
    ):
        page = client.get(url)
        assert "SECRET" not in page.text
        href, hx = _older(page.text)
        token = re.search(r"before=([^&]+)", href).group(1)
        # the cursor is sealed: it holds neither seq nor number in clear, and cannot be forged
        seqs = set(LogEntry.objects.filter(campaign=campaign).values_list("seq", flat=True))
        assert not any(str(s) == token for s in seqs)
        assert unseal(token, "log:0") is None
        older = client.get(hx, headers={"HX-Request": "true"})
        assert "SECRET" not in older.text
        # a tampered cursor is refused, not read
        tampered = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
        assert client.get(url + "?before=" + tampered).status_code == 404
        assert client.get(url + "?before=not-a-cursor").status_code == 404
        assert client.get(url + "?before=" + seal([1], "log:999999")).status_code == 404


@pytest.mark.parametrize("total", [LOG_WINDOW + 5, WINDOWS * HISTORY_WINDOW + 5])
def test_query_count_and_rows_do_not_grow_with_history(
    client, campaign, other_user, sides, total, django_assert_max_num_queries
):
    germans, _soviets = sides
    _fill(campaign, total, private_every=9, side=germans)
    client.force_login(other_user)
    for url, size, most in (
        (campaign.get_absolute_url(), LOG_WINDOW, 14),
        (reverse("campaign-log", args=[campaign.pk]), HISTORY_WINDOW, 10),
        (reverse("campaign-history", args=[campaign.pk]), HISTORY_WINDOW, 10),
    ):
        with django_assert_max_num_queries(most):
            page = client.get(url)
        assert len(_entries(page.text)) == min(size, total)
        if total < size:
            continue
        _href, hx = _older(page.text)
        with django_assert_max_num_queries(most):
            older = client.get(hx, headers={"HX-Request": "true"})
        assert 0 < len(_entries(older.text)) <= size


def test_battle_log_and_timeline_are_windows_with_bounded_charts(
    client, campaign, other_user, sides, django_assert_max_num_queries
):
    germans, _soviets = sides
    battle = Battle.objects.create(campaign=campaign, number=1, position="A")
    total = WINDOWS * HISTORY_WINDOW + 5
    append_log(campaign, kind=LogEntry.Kind.EVENT, summary="odd", battle=battle,
               data={"vp_delta": "lots"})  # fmt: skip
    for i in range(total):
        data = {"vp_delta": 1} if i % 2 else {"category": "casualty"}
        append_log(
            campaign, kind=LogEntry.Kind.EVENT, summary=f"entry {i}", battle=battle, data=data
        )
        if i % 10 == 0:
            append_log(
                campaign, kind=LogEntry.Kind.EVENT, summary=f"SECRET {i}", battle=battle,
                private_to=germans, data={"vp_delta": 100, "category": "casualty"},
            )  # fmt: skip
    client.force_login(other_user)
    url = reverse("battle-history", args=[campaign.pk, 1])
    with django_assert_max_num_queries(11):
        page = client.get(url)
    assert "SECRET" not in page.text
    # the totals count the public entries only; the charts hold at most CHART_POINTS steps
    assert f"VP (net): {total // 2}" in page.text
    assert f"Casualties: {(total + 1) // 2}" in page.text
    for svg in re.findall(r"<svg.*?</svg>", page.text, re.S):
        points = re.search(r'points="([^"]*)"', svg)
        assert points is None or len(points.group(1).split()) <= 2 * CHART_POINTS + 4
    page_entries = _entries(page.text)
    assert len(page_entries) == HISTORY_WINDOW and page_entries[0] == total - 1
    _walk(client, url, HISTORY_WINDOW, total)


def first_page(api, campaign):
    return api.get(f"/api/v1/campaigns/{campaign.pk}/log/?page_size=200").json()


def test_api_log_pages_by_cursor_without_count(campaign, other_user, sides):
    germans, _soviets = sides
    total = 3 * 50 + 7
    _fill(campaign, total, private_every=4, side=germans)
    api = APIClient()
    api.force_authenticate(other_user)
    url, seen, pages = f"/api/v1/campaigns/{campaign.pk}/log/", [], 0
    with CaptureQueriesContext(connection) as queries:
        while url:
            body = api.get(url).json()
            assert set(body) == {"next", "previous", "results"}
            seen += [e["summary"] for e in body["results"] if "entry" in e["summary"]]
            url, pages = body["next"], pages + 1
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    assert not any("OFFSET" in q["sql"].upper() for q in queries.captured_queries)
    assert pages == 4 and seen == [f"entry {i}" for i in range(total)]  # writing order, once
    assert not any("SECRET" in str(body) for body in (first_page(api, campaign),))
    # previous goes back to the page before
    first = api.get(f"/api/v1/campaigns/{campaign.pk}/log/").json()
    second = api.get(first["next"]).json()
    back = api.get(second["previous"]).json()
    assert back["results"] == first["results"]
    assert api.get(f"/api/v1/campaigns/{campaign.pk}/log/?cursor=bm9wZQ==").status_code == 404


@pytest.fixture
def many_results(league, organiser, members):
    """WINDOWS windows of results (plus a few), several on the same day, ann in every one."""
    total = WINDOWS * RESULTS_WINDOW + 4
    day = dt.date(2026, 1, 1)
    rows = Result.objects.bulk_create(
        Result(
            league=league,
            played_on=day + dt.timedelta(days=i // 3),
            scenario=f"S{i}",
            outcome="a",
            entered_by=organiser,
        )
        for i in range(total)
    )
    ResultPlayer.objects.bulk_create(
        p
        for i, r in enumerate(rows)
        for p in (
            ResultPlayer(result=r, user=members["ann"], team="a"),
            ResultPlayer(result=r, user=members["ben" if i % 2 else "cat"], team="b"),
        )
    )
    standings_rebuild(league.pk)  # rows written past the services: sum the aggregates again
    return total


def _scenarios(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"\bS(\d+)\b", html)]


def test_api_results_page_by_cursor_without_count(league, many_results):
    api = APIClient()
    url, seen = f"/api/v1/results/?league={league.pk}&page_size=20", []
    with CaptureQueriesContext(connection) as queries:
        while url:
            body = api.get(url).json()
            assert set(body) == {"next", "previous", "results"}
            seen += [int(r["scenario"][1:]) for r in body["results"]]
            url = body["next"]
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    # latest played first, ties latest entered first: each result exactly once
    assert seen == list(range(many_results - 1, -1, -1))


def test_league_and_profile_results_are_windows(
    client, league, members, many_results, django_assert_max_num_queries
):
    url = reverse("league-detail", args=[league.pk])
    with django_assert_max_num_queries(14):
        page = client.get(url)
    assert _scenarios(page.text) == list(range(many_results - 1, many_results - 1 - 25, -1))
    windows, link = [_scenarios(page.text)], _older(page.text)
    while link:
        page = client.get(link[1], headers={"HX-Request": "true"})
        windows.append(_scenarios(page.text))
        link = _older(page.text)
    assert [n for w in windows for n in w] == list(range(many_results - 1, -1, -1))
    profile = reverse("player-profile", args=["ann"])
    with django_assert_max_num_queries(10):
        page = client.get(profile)
    assert page.status_code == 200
    _href, hx = _older(page.text)
    older = client.get(hx, headers={"HX-Request": "true"})
    rows = re.findall(r"<li><time", page.text) + re.findall(r"<li><time", older.text)
    assert len(re.findall(r"<li><time", page.text)) == RESULTS_WINDOW
    assert len(rows) == 2 * RESULTS_WINDOW
    assert "ben" in page.text and "cat" in page.text  # opponents tallied in the database
    body = APIClient().get("/api/v1/players/ann/").json()
    assert len(body["results"]) == RESULTS_WINDOW
    assert body["by_system"][0]["played"] == many_results


def test_rating_charts_are_thinned_by_the_rating_update(
    league, organiser, members, django_capture_on_commit_callbacks
):
    ann, ben = members["ann"], members["ben"]
    with django_capture_on_commit_callbacks(execute=False):  # rated once, below
        for i in range(5 * CHART_POINTS):
            enter(league, organiser, ann, ben, "a" if i % 2 else "b", day=dt.date(2026, 1, 1))
    league_ratings_update(league_id=league.pk, full=True)

    def line():
        svg = rating_charts(ann)[0]["svg"]
        return re.search(r'points="([^"]*)"', svg).group(1).split()

    full = line()
    assert CHART_POINTS <= len(full) <= 2 * CHART_POINTS + 1
    snaps = RatingSnapshot.objects.filter(user=ann, method="elo").count()
    assert snaps == 5 * CHART_POINTS
    # an appended result updates the chart from the database's thinned history
    with django_capture_on_commit_callbacks(execute=True):
        enter(league, organiser, ann, ben, "a", day=dt.date(2026, 1, 2))
    after = line()
    assert CHART_POINTS <= len(after) <= 2 * CHART_POINTS + 1 and after != full
    league_ratings_update(league_id=league.pk, full=True)
    assert line() == after  # carrying the stored chart on equals thinning it all again
    # a correction replays from the middle: the touched charts are thinned again
    early = league.results.order_by("id").first()
    with django_capture_on_commit_callbacks(execute=True):
        result_correct(result=early, actor=organiser, reason="other winner", outcome="a")
    corrected = line()
    league_ratings_update(league_id=league.pk, full=True)
    assert line() == corrected
    history = APIClient().get("/api/v1/players/ann/rating-history/").json()
    assert len(history["results"]) == 50 and history["next"]


def test_dashboard_and_history_battles_are_windows(client, campaign, user):
    Battle.objects.bulk_create(
        Battle(campaign=campaign, number=n, position=f"P{n}")
        for n in range(1, WINDOWS * BATTLES_WINDOW + 3)
    )
    client.force_login(user)
    url = reverse("campaign-history", args=[campaign.pk])
    page = client.get(url)
    numbers = [int(n) for n in re.findall(r"Battle (\d+)</a>", page.text)]
    assert numbers == list(range(WINDOWS * BATTLES_WINDOW + 2, 2 * BATTLES_WINDOW + 2, -1))
    link = re.search(r'<li class="older"><a href="([^"]+)" rel="next" hx-get="([^"]+)"', page.text)
    assert "battles_before=" in link.group(1)
    older = client.get(link.group(2).replace("&amp;", "&"), headers={"HX-Request": "true"})
    numbers = [int(n) for n in re.findall(r"Battle (\d+)</a>", older.text)]
    assert numbers == list(range(2 * BATTLES_WINDOW + 2, BATTLES_WINDOW + 2, -1))


def test_api_player_results_page_by_cursor(members, many_results):
    api, url, seen = APIClient(), "/api/v1/players/ann/results/?page_size=10", []
    with CaptureQueriesContext(connection) as queries:
        while url:
            body = api.get(url).json()
            seen += [int(r["scenario"][1:]) for r in body["results"]]
            url = body["next"]
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    assert seen == list(range(many_results - 1, -1, -1))
    assert api.get("/api/v1/players/ben/results/").json()["results"][0]["team_b"] == ["ben"]


@pytest.fixture
def kurgan(user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    return c


def test_battle_page_log_is_a_window_also_after_a_play_action(
    client, kurgan, user, other_user, django_assert_max_num_queries
):
    battle = _setup_battle(kurgan, user, other_user)
    axis, _allies = kurgan.sides.order_by("order")
    total = WINDOWS * LOG_WINDOW
    _fill(kurgan, total, private_every=5, side=axis, battle=battle)
    client.force_login(other_user)  # plays the allies
    url = battle.get_absolute_url()
    with django_assert_max_num_queries(20):
        page = client.get(url)
    assert _entries(page.text) == list(range(total - 1, total - 1 - LOG_WINDOW, -1))
    assert "SECRET" not in page.text
    windows, link = [], _older(page.text)
    while link:
        more = client.get(link[1], headers={"HX-Request": "true"})
        assert "SECRET" not in more.text
        windows.append(_entries(more.text))
        link = _older(more.text)
    assert [n for w in windows for n in w] == list(range(total - 1 - LOG_WINDOW, -1, -1))
    ev = client.post(
        reverse("battle-event", args=[kurgan.pk, battle.number]),
        {"category": "hero", "text": "Sgt Esser becomes a Hero"},
        headers={"HX-Request": "true"},
    )
    assert ev.text.lstrip().startswith('<ol id="battle-log"')
    assert ev.text.count('<li class="log-') == LOG_WINDOW and "Sgt Esser" in ev.text
    href, _hx = _older(ev.text)
    assert href.startswith(url + "?before=")


def test_club_battles_are_windows(client, campaign, user, club):
    campaign.club = club
    campaign.save(update_fields=["club"])
    total = 2 * 25 + 3
    Battle.objects.bulk_create(
        Battle(campaign=campaign, number=n, position=f"P{n}") for n in range(1, total + 1)
    )
    client.force_login(user)
    url = reverse("club-battles", args=[club.slug])
    page = client.get(url)
    numbers = [int(n) for n in re.findall(r"/battles/(\d+)/\">", page.text)]
    windows, link = [numbers], _older(page.text)
    assert len(numbers) == 25
    while link:
        more = client.get(link[1], headers={"HX-Request": "true"})
        assert more.text.lstrip().startswith("<tr")
        windows.append([int(n) for n in re.findall(r"/battles/(\d+)/\">", more.text)])
        link = _older(more.text)
    # bulk-created in one statement: same created_at order as ids, latest first
    assert sorted(n for w in windows for n in w) == list(range(1, total + 1))
    assert len([n for w in windows for n in w]) == total


def test_the_standings_table_shows_fifty_places_at_a_time(client, league, organiser, make_user):
    """A league of 120 players: the page lists places 1–50, 'lower places' the next 50 (by
    htmx or as a link), and the last window the remaining 20; the CSV keeps the whole table."""
    users = [make_user(f"p{i:03d}") for i in range(120)]
    LeagueParticipant.objects.bulk_create([LeagueParticipant(league=league, user=u) for u in users])
    url = league.get_absolute_url()
    first = client.get(url).content.decode()
    assert first.count('href="/players/p') == 50 and "Places 1–50 of 120" in first
    assert "from=51" in first and "Higher places" not in first
    second = client.get(f"{url}?from=51&partial=standings", HTTP_HX_REQUEST="true").content.decode()
    assert second.count('href="/players/p') == 50 and "Places 51–100 of 120" in second
    last = client.get(f"{url}?from=999").content.decode()
    assert last.count('href="/players/p') == 20 and "Places 101–120 of 120" in last
    assert "from=51" in last and "Lower places" not in last
    csv = client.get(f"{url}standings.csv").content.decode()
    assert csv.count("\n") >= 121

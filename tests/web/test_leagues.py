"""Leagues: standings and tie-breaks on the page, results with corrections and voiding, the
rating recompute on commit, balance, profile, and query-count bounds."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import (
    LeagueParticipant,
    Rating,
    RatingSnapshot,
    Result,
    ResultCorrection,
)
from campaigns.services.leagues import (
    league_ratings_recompute,
    league_update,
    result_correct,
    result_restore,
    result_void,
    results_import_csv,
)
from rules.ratings import EloConfig, Game, Outcome, elo_run

pytest_plugins = ["tests.web.leagues_helpers"]
pytestmark = pytest.mark.django_db


def standings_order(client, league, tb=None):
    url = reverse("league-detail", args=[league.pk]) + (f"?tb={tb}" if tb else "")
    page = client.get(url).text
    start = page.index("<tbody>")
    names = []
    for name in ("ann", "ben", "cat", "dan"):
        names.append((page.index(f">{name}</a>", start), name))
    return [n for _i, n in sorted(names)]


def test_standings_page_applies_the_league_tie_breaks(client, league, played):
    # points: ann 4, cat 4, ben 3, dan 3; h2h: ann-cat drew, ben beat dan; Buchholz ann 10, cat 7
    assert standings_order(client, league) == ["ann", "cat", "ben", "dan"]
    page = client.get(league.get_absolute_url()).text
    assert "Head-to-head" in page and "Buchholz" in page


def test_tie_break_preview_and_htmx_partial(client, league, played):
    assert standings_order(client, league, "points,median_buchholz") == ["cat", "ann", "ben", "dan"]
    partial = client.get(
        league.get_absolute_url() + "?tb=points,owp&partial=standings", HTTP_HX_REQUEST="true"
    )
    assert partial.status_code == 200 and "<html" not in partial.text
    assert 'id="standings"' in partial.text and "preview" in partial.text
    bad = client.get(league.get_absolute_url() + "?tb=points,coin")
    assert bad.status_code == 200 and "preview" not in bad.text  # unknown keys ignored


def test_organiser_saves_the_previewed_order(client, league, played, organiser, members):
    url = reverse("league-tiebreaks", args=[league.pk])
    client.force_login(members["ann"])
    assert client.post(url, {"tb": "points,median_buchholz"}).status_code == 404
    client.force_login(organiser)
    response = client.post(url, {"tb": "points,median_buchholz"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "<html" not in response.text
    league.refresh_from_db()
    assert league.tiebreaks == ["points", "median_buchholz"]
    client.post(url, {"tb": "points,points"})
    league.refresh_from_db()
    assert league.tiebreaks == ["points", "median_buchholz"]


def test_results_recompute_ratings_on_commit(league, played):
    # the on-commit task ran after each result: the Elo matches a direct run on the same games
    ids = {r.pk: r for r in played}
    expected = elo_run(
        [
            Game(
                r.pk,
                tuple(p.user_id for p in ids[r.pk].players.filter(team="a")),
                tuple(p.user_id for p in ids[r.pk].players.filter(team="b")),
                Outcome(r.outcome),
                played_on=r.played_on,
            )
            for r in sorted(played, key=lambda r: r.pk)
        ],
        EloConfig(k_bands=((0.0, 32.0),)),
    )
    got = dict(Rating.objects.filter(league=league, method="elo").values_list("user_id", "value"))
    assert got == pytest.approx(expected.ratings)
    assert RatingSnapshot.objects.filter(league=league, method="elo").count() == 10
    assert RatingSnapshot.objects.filter(league=league, method="openskill").count() == 10
    league.refresh_from_db()
    assert league.ratings_computed_version == league.ratings_version == 5


def test_recompute_is_idempotent(league, played):
    before = list(
        RatingSnapshot.objects.filter(league=league).order_by("method", "seq")
        .values_list("user_id", "method", "seq", "value", "delta", "mu", "sigma")
    )  # fmt: skip
    league_ratings_recompute(league_id=league.pk)
    league_ratings_recompute(league_id=league.pk)
    after = list(
        RatingSnapshot.objects.filter(league=league).order_by("method", "seq")
        .values_list("user_id", "method", "seq", "value", "delta", "mu", "sigma")
    )  # fmt: skip
    assert before == after and Rating.objects.filter(league=league).count() == 8


def test_daily_elo_period(league, played, organiser, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        league_update(league=league, actor=organiser, elo_period="day")
    # all five games on one day: each rated against 1500: ann +16 +0 -16 = 0; ben -16+16 = 0;
    # cat +16 +0 = 16; dan -16 -16 +16 = -16
    got = {
        r.user.username: r.value
        for r in Rating.objects.filter(league=league, method="elo").select_related("user")
    }
    assert got == {"ann": 1500.0, "ben": 1500.0, "cat": 1516.0, "dan": 1484.0}
    assert RatingSnapshot.objects.filter(league=league, method="elo").count() == 4


def test_correction_keeps_a_trace_and_changes_the_table(
    league, played, organiser, client, django_capture_on_commit_callbacks
):
    last = played[-1]  # dan beat ann
    with django_capture_on_commit_callbacks(execute=True):
        result_correct(result=last, actor=organiser, reason="score sheet misread", outcome="b")
    trace = list(ResultCorrection.objects.filter(result=last).order_by("id"))
    assert [t.action for t in trace] == ["enter", "correct"]
    assert trace[1].before["outcome"] == "a" and trace[1].after["outcome"] == "b"
    assert trace[1].reason == "score sheet misread" and trace[1].actor == organiser
    # now ann 7, cat 4, ben 3, dan 0
    assert standings_order(client, league) == ["ann", "cat", "ben", "dan"]
    ann = Rating.objects.get(league=league, method="elo", user__username="ann")
    assert ann.value > 1500 + 16


def test_correction_needs_a_reason_and_a_change(league, played, organiser):
    with pytest.raises(ValidationError) as err:
        result_correct(result=played[0], actor=organiser, reason=" ", outcome="b")
    assert "reason" in err.value.message_dict
    with pytest.raises(ValidationError):
        result_correct(result=played[0], actor=organiser, reason="x", outcome="a")
    with pytest.raises(ValidationError) as err:
        result_correct(result=played[0], actor=organiser, reason="x", team_b=["zed"])
    assert "team_b" in err.value.message_dict
    assert ResultCorrection.objects.filter(result=played[0]).count() == 1
    assert list(played[0].players.values_list("user__username", flat=True)) == ["ann", "ben"]


def test_void_and_restore(league, played, organiser, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        result_void(result=played[0], actor=organiser, reason="played with wrong rules")
    played[0].refresh_from_db()
    assert played[0].status == Result.Status.VOID
    # without ann's win over ben: ann 1 pt... ann D1 L1 = 1, cat 4, ben 3, dan 3
    assert standings_order(client, league)[0] == "cat"
    assert Rating.objects.get(league=league, method="elo", user__username="ann").games == 2
    with django_capture_on_commit_callbacks(execute=True):
        result_restore(result=played[0], actor=organiser, reason="rules were fine")
    assert standings_order(client, league)[0] == "ann"
    assert [t.action for t in played[0].trace.order_by("id")] == ["enter", "void", "restore"]


def test_only_organisers_write(client, league, played, members):
    client.force_login(members["ann"])
    for url in (
        reverse("result-new", args=[league.pk]),
        reverse("result-correct", args=[league.pk, played[0].pk]),
        reverse("results-import", args=[league.pk]),
        reverse("league-settings", args=[league.pk]),
        reverse("result-battle", args=[league.pk]),
    ):
        assert client.get(url).status_code == 404, url
    response = client.post(
        reverse("result-status", args=[league.pk, played[0].pk, "void"]), {"reason": "x"}
    )
    assert response.status_code == 404
    played[0].refresh_from_db()
    assert played[0].status == "active"
    client.logout()
    assert client.get(reverse("result-new", args=[league.pk])).status_code == 302


def test_result_form_errors_change_nothing(client, league, organiser, members):
    client.force_login(organiser)
    url = reverse("result-new", args=[league.pk])
    response = client.post(
        url,
        {"played_on": "2026-03-01", "team_a": "ann", "team_b": "ben", "outcome": "a",
         "vp_a": "-1000"},
    )  # fmt: skip
    assert response.status_code == 200 and not Result.objects.exists()
    assert 'id="id_vp_a_error"' in response.text  # the form refuses a VP out of range first
    response = client.post(
        url, {"played_on": "2026-03-01", "team_a": "ann", "team_b": "zed", "outcome": "a"}
    )
    assert response.status_code == 200 and not Result.objects.exists()
    assert 'id="id_team_b_error"' in response.text  # zed is not in the picker
    response = client.post(
        url, {"played_on": "2026-03-01", "team_a": "ann", "team_b": "ann", "outcome": "a"}
    )
    assert response.status_code == 200 and not Result.objects.exists()
    assert "A player cannot be on both sides." in response.text
    ok = client.post(
        url,
        {"played_on": "2026-03-01", "team_a": "ann", "team_b": "ben", "outcome": "a",
         "win_type": "vp", "vp_a": "12", "time_space": "7", "casualties_a": "2"},
    )  # fmt: skip
    assert ok.status_code == 302
    result = Result.objects.get()
    assert result.details == {"win_type": "vp", "vp_a": 12, "time_space": 7, "casualties_a": 2}
    assert set(LeagueParticipant.objects.values_list("user__username", flat=True)) == {
        "ann", "ben"
    }  # fmt: skip


def test_correct_page_and_void_through_the_page(client, league, played, organiser):
    client.force_login(organiser)
    url = reverse("result-correct", args=[league.pk, played[0].pk])
    page = client.get(url)
    assert page.status_code == 200 and 'value="ann"' in page.text
    response = client.post(
        url,
        {"played_on": "2026-03-02", "team_a": "ann", "team_b": "ben", "outcome": "a",
         "reason": "wrong date"},
    )  # fmt: skip
    assert response.status_code == 302
    played[0].refresh_from_db()
    assert played[0].played_on == dt.date(2026, 3, 2)
    void = reverse("result-status", args=[league.pk, played[0].pk, "void"])
    client.post(void, {"reason": ""})
    played[0].refresh_from_db()
    assert played[0].status == "active"
    client.post(void, {"reason": "duplicate"})
    played[0].refresh_from_db()
    assert played[0].status == "void"
    assert (
        client.post(reverse("result-status", args=[league.pk, played[0].pk, "x"])).status_code
        == 404
    )


def test_ratings_and_balance_pages(client, league, played):
    page = client.get(reverse("league-ratings", args=[league.pk])).text
    assert "OpenSkill" in page and ">cat</a>" in page
    balance = client.get(reverse("league-balance", args=[league.pk])).text
    # Fat Lipki: Germans won 2 of 3 (ann, cat; dan lost as Germans) -> 67 %, Wilson 21–94 %
    assert "Fat Lipki" in balance and "67 %" in balance and "21–94 %" in balance
    assert "too few plays" in balance


def test_profile_page(client, league, played, members):
    page = client.get(reverse("player-profile", args=["ann"])).text
    assert "<svg" in page and "Hill 400" in page and ">dan<" in page.replace("<td>", ">")
    assert client.get(reverse("player-profile", args=["nobody"])).status_code == 404


def _bulk_results(league, organiser, members, n):
    names = list(members)
    lines = ["played_on,scenario,team_a,team_b,outcome"]
    for i in range(n):
        a, b = names[i % 4], names[(i + 1) % 4]
        lines.append(f"2026-01-{1 + i % 28:02d},S{i % 3},{a},{b},{'a' if i % 3 else 'draw'}")
    results_import_csv(league=league, actor=organiser, text="\n".join(lines))


@pytest.mark.parametrize("n", [5, 60])
def test_standings_page_query_count_is_bounded(
    client, league, organiser, members, n, django_assert_max_num_queries
):
    _bulk_results(league, organiser, members, n)
    with django_assert_max_num_queries(12):
        response = client.get(league.get_absolute_url())
    assert response.status_code == 200


@pytest.mark.parametrize("n", [5, 60])
def test_profile_page_query_count_is_bounded(
    client, league, organiser, members, n, django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        _bulk_results(league, organiser, members, n)
    assert RatingSnapshot.objects.filter(user=members["ann"]).count() >= n // 2
    with django_assert_max_num_queries(10):
        response = client.get(reverse("player-profile", args=["ann"]))
    assert response.status_code == 200 and "<svg" in response.text

"""Incremental ratings and precomputed standings equal what a full computation gives.

Random histories of results (two-player and team games, several days, entered in any date
order), corrections, voids and restores go through the services, each followed by the rating
task as after a commit. Then: the ratings and their history equal a full rebuild (Elo per
result and per day, OpenSkill), and the standings from the aggregates equal
`compute_standings` over every result, for every tie-break.
"""

import datetime as dt
import itertools

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import ClubMembership, League, LeagueParticipant, Rating, RatingSnapshot
from campaigns.models.leagues import StandingMatchup
from campaigns.selectors.leagues import league_games, league_standings, points_scheme
from campaigns.services import club_join, ratings
from campaigns.services.leagues import (
    league_create,
    league_participant_add,
    result_correct,
    result_enter,
    result_restore,
    result_void,
    results_import_csv,
)
from campaigns.services.ratings import league_ratings_update
from campaigns.services.standings import standings_rebuild
from rules.ratings import compute_standings
from rules.ratings.standings import METRICS

pytest_plugins = ["tests.web.leagues_helpers"]
pytestmark = pytest.mark.django_db

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")
DAY = dt.date(2026, 3, 1)
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_leagues = itertools.count()


@st.composite
def teams(draw):
    size = draw(st.sampled_from([1, 1, 2]))
    players = draw(st.permutations(NAMES))
    return list(players[:size]), list(players[size : 2 * size])


def details():
    vp = st.one_of(st.none(), st.integers(0, 40))
    return st.fixed_dictionaries({"vp_a": vp, "vp_b": vp})


OPS = st.one_of(
    st.tuples(st.just("enter"), teams(), st.sampled_from(["a", "b", "draw"]),
              st.integers(0, 4), details(), st.sampled_from([None, 1, 2])),
    st.tuples(st.just("correct"), st.integers(0, 50), st.sampled_from(["a", "b", "draw"]),
              st.integers(0, 4), teams()),
    st.tuples(st.just("void"), st.integers(0, 50)),
    st.tuples(st.just("restore"), st.integers(0, 50)),
)  # fmt: skip


def play(league, organiser, ops, capture):
    """Apply the operations through the services, each committed (the task runs)."""
    results = []
    for op in ops:
        with capture(execute=True):
            if op[0] == "enter":
                _k, (a, b), outcome, day, extra, rnd = op
                details = {k: v for k, v in extra.items() if v is not None}
                results.append(
                    result_enter(
                        league=league, actor=organiser, played_on=DAY + dt.timedelta(days=day),
                        team_a=a, team_b=b, outcome=outcome, details=details, round=rnd,
                    )
                )  # fmt: skip
            elif results:
                result = results[op[1] % len(results)]
                result.refresh_from_db()
                try:
                    if op[0] == "correct":
                        _k, _i, outcome, day, (a, b) = op
                        result_correct(
                            result=result, actor=organiser, reason="fix", outcome=outcome,
                            played_on=(DAY + dt.timedelta(days=day)).isoformat(),
                            team_a=a, team_b=b,
                        )  # fmt: skip
                    elif op[0] == "void":
                        result_void(result=result, actor=organiser, reason="void")
                    else:
                        result_restore(result=result, actor=organiser, reason="back")
                except ValidationError:  # "nothing was changed"
                    pass
    return results


def new_league(club, organiser, members, **settings_):
    league = league_create(
        club=club, actor=organiser, name=f"L{next(_leagues)}", season="2026", system="cc",
        tiebreaks=["points", "h2h", "buchholz", "wins"], elo_k_bands=[[0, 32], [1510, 16]],
        **settings_,
    )  # fmt: skip
    for user in members.values():
        league_participant_add(league=league, actor=organiser, user=user)
    return league


def ratings_state(league):
    snaps = list(
        RatingSnapshot.objects.filter(league=league)
        .order_by("method", "seq")
        .values_list("method", "seq", "user_id", "result_id", "played_on", "value", "delta",
                     "mu", "sigma", "games")
    )  # fmt: skip
    ratings = sorted(
        Rating.objects.filter(league=league).values_list(
            "method", "user_id", "value", "mu", "sigma", "games"
        )
    )
    return snaps, ratings


@pytest.fixture
def six(club, make_user):
    users = {}
    for name in NAMES:
        users[name] = make_user(name)
        club_join(user=users[name], club=club, role=ClubMembership.Role.MEMBER)
    return users


@SETTINGS
@given(ops=st.lists(OPS, min_size=1, max_size=12), period=st.sampled_from(["result", "day"]))
def test_incremental_ratings_equal_a_full_rebuild(
    club, organiser, six, django_capture_on_commit_callbacks, ops, period
):
    league = new_league(club, organiser, six, elo_period=period)
    play(league, organiser, ops, django_capture_on_commit_callbacks)
    league.refresh_from_db()
    assert league.ratings_computed_version == league.ratings_version
    assert league.ratings_dirty_on is None
    incremental = ratings_state(league)
    league_ratings_update(league_id=league.pk, full=True)
    assert ratings_state(league) == incremental


@SETTINGS
@given(ops=st.lists(OPS, min_size=1, max_size=12), handicap=st.booleans())
def test_standings_from_aggregates_equal_those_from_every_result(
    club, organiser, six, django_capture_on_commit_callbacks, ops, handicap
):
    league = new_league(club, organiser, six, apply_cc_handicap=handicap)
    LeagueParticipant.objects.filter(league=league, user__username__in=["ann", "dan"]).update(
        handicapped=True
    )
    play(league, organiser, ops, django_capture_on_commit_callbacks)
    league = League.objects.get(pk=league.pk)
    kept = sorted(StandingMatchup.objects.filter(league=league).values_list(
        "user_id", "team", "opponents", "games", "wins", "draws", "losses", "vp", "vp_boosted"
    ))  # fmt: skip
    standings_rebuild(league.pk)
    rebuilt = sorted(StandingMatchup.objects.filter(league=league).values_list(
        "user_id", "team", "opponents", "games", "wins", "draws", "losses", "vp", "vp_boosted"
    ))  # fmt: skip
    assert kept == rebuilt
    entries = list(LeagueParticipant.objects.filter(league=league).select_related("user"))
    names = {e.user_id: e.user.username for e in entries}
    for criteria in (list(METRICS), ["points", "h2h", "buchholz", "wins"], ["points", "sos"]):
        got = league_standings(league, criteria).standings
        want = compute_standings(
            league_games(league),
            players=list(names),
            scheme=points_scheme(league),
            criteria=criteria,
            handicapped={e.user_id for e in entries if e.handicapped},
            apply_handicap=league.apply_cc_handicap,
            sort_key=lambda p: names[p],
        )
        assert got.warnings == want.warnings
        assert [
            (r.player, r.rank, r.played, r.wins, r.draws, r.losses, r.tied) for r in got.rows
        ] == [(r.player, r.rank, r.played, r.wins, r.draws, r.losses, r.tied) for r in want.rows]
        for g, w in zip(got.rows, want.rows, strict=True):
            assert g.points == pytest.approx(w.points)
            assert g.values == pytest.approx(w.values)


def test_an_appended_result_touches_only_its_players(
    club, organiser, six, django_capture_on_commit_callbacks
):
    league = new_league(club, organiser, six)
    ops = [("enter", (["ann"], ["ben"]), "a", 0, {}, None),
           ("enter", (["cat"], ["dan"]), "b", 1, {}, None)]  # fmt: skip
    play(league, organiser, ops, django_capture_on_commit_callbacks)
    before = {s.pk: s.value for s in RatingSnapshot.objects.filter(league=league)}
    play(league, organiser, [("enter", (["ann"], ["eve"]), "draw", 2, {}, None)],
         django_capture_on_commit_callbacks)  # fmt: skip
    after = RatingSnapshot.objects.filter(league=league)
    assert {s.pk: s.value for s in after if s.pk in before} == before  # nothing rewritten
    new = [s for s in after if s.pk not in before]
    assert sorted((s.method, s.user.username) for s in new) == [
        ("elo", "ann"), ("elo", "eve"), ("openskill", "ann"), ("openskill", "eve")
    ]  # fmt: skip
    assert {s.seq for s in new} == {5, 6}


def test_a_csv_import_updates_the_aggregates_and_analyses_the_tables(
    club, organiser, six, django_capture_on_commit_callbacks
):
    league = new_league(club, organiser, six)
    text = (
        "played_on,team_a,team_b,outcome\n2026-03-01,ann,ben,a\n2026-02-01,cat+dan,eve+fay,draw\n"
    )
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        results_import_csv(league=league, actor=organiser, text=text)
    analysed = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("ANALYZE")]
    assert any("campaigns_result" in sql for sql in analysed)
    assert StandingMatchup.objects.filter(league=league).count() == 6
    league.refresh_from_db()
    assert league.ratings_computed_version == league.ratings_version
    assert Rating.objects.filter(league=league, method="elo").count() == 6


def test_a_result_entered_during_an_update_is_not_lost(
    club, organiser, six, django_capture_on_commit_callbacks
):
    league = new_league(club, organiser, six)
    play(league, organiser, [("enter", (["ann"], ["ben"]), "a", 2, {}, None)],
         django_capture_on_commit_callbacks)  # fmt: skip
    seen = League.objects.get(pk=league.pk).ratings_version  # an update starts, reads this
    result_enter(  # meanwhile a back-dated result commits (its own update queued behind)
        league=league, actor=organiser, played_on=DAY, team_a=["cat"], team_b=["dan"], outcome="b"
    )
    ratings._done(league.pk, seen)  # the first update ends: it must keep the newer mark
    league.refresh_from_db()
    assert league.ratings_computed_version == seen < league.ratings_version
    assert (league.ratings_dirty_on, league.ratings_dirty_result) == (DAY, league.results.last().pk)
    league_ratings_update(league_id=league.pk)  # the queued update
    incremental = ratings_state(league)
    league_ratings_update(league_id=league.pk, full=True)
    assert ratings_state(league) == incremental
    assert Rating.objects.filter(league=league, method="elo").count() == 4

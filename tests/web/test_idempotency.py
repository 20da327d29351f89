"""Idempotent writes (campaigns/idempotency.py), the lock helpers and the retry of
campaigns/services/_base.py, and no-op roster edits. Fast, on any database; the concurrent
versions against a live PostgreSQL server are in tests/test_concurrency.py."""

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.db import OperationalError, transaction
from django.template import Context, Template
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns import idempotency
from campaigns.models import (
    ClubMembership,
    League,
    LogEntry,
    Result,
    Roster,
    RosterChange,
)
from campaigns.services import club_create, club_join
from campaigns.services._base import is_retryable, lock_in_order, retry_on_conflict
from campaigns.services.campaigns import side_join
from campaigns.services.cc_campaigns import cc_campaign_create
from campaigns.services.leagues import league_create
from campaigns.services.rosters import roster_create, roster_edit
from tests.web.roster_helpers import m1936_list

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 1)
TOKEN = re.compile(r'name="idempotency_token" value="([^"]+)"')


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def league(make_user, django_capture_on_commit_callbacks):
    organiser = make_user("olga")
    club = club_create(creator=organiser, name="Kampfgruppe Madrid")
    for name in ("ann", "ben"):
        club_join(user=make_user(name), club=club, role=ClubMembership.Role.MEMBER)
    return league_create(club=club, actor=organiser, name="Winter", season="2026", system="cc")


def result_body(league, **extra):
    return {
        "league": league.pk,
        "played_on": DAY.isoformat(),
        "team_a": ["ann"],
        "team_b": ["ben"],
        "outcome": "a",
        **extra,
    }


# --- the store ---------------------------------------------------------------------------------


def test_claim_store_replay_release():
    assert idempotency.claim("k", "body-1") is None  # the first owns it
    with pytest.raises(idempotency.InProgress):
        idempotency.claim("k", "body-1", wait=0)
    with pytest.raises(idempotency.KeyReused):
        idempotency.claim("k", "body-2", wait=0)
    idempotency.store("k", "body-1", {"status": 201, "data": {"id": 7}, "headers": {}})
    kept = idempotency.claim("k", "body-1")
    assert kept["status"] == 201 and kept["data"] == {"id": 7}
    idempotency.release("k")
    assert idempotency.claim("k", "body-2") is None


def test_run_once_releases_the_key_when_the_request_fails():
    def boom():
        raise ValueError("no")

    with pytest.raises(ValueError):
        idempotency.run_once("k2", "d", boom, lambda r: {"r": r})
    assert idempotency.run_once("k2", "d", lambda: 5, lambda r: {"r": r}) == (False, 5)
    assert idempotency.run_once("k2", "d", lambda: 6, lambda r: {"r": r}) == (
        True,
        {"state": idempotency.DONE, "digest": "d", "r": 5},
    )


def test_fingerprint_ignores_key_order_and_keys_are_checked():
    assert idempotency.fingerprint({"a": 1, "b": [1, 2]}) == idempotency.fingerprint(
        {"b": [1, 2], "a": 1}
    )
    assert idempotency.fingerprint({"a": 1}) != idempotency.fingerprint({"a": 2})
    assert idempotency.valid_key("3f2a-retry_1")
    assert not idempotency.valid_key("") and not idempotency.valid_key("a b")
    assert not idempotency.valid_key("x" * 256) and not idempotency.valid_key("a\x00")


def test_form_token_tag_renders_a_fresh_token_each_time():
    template = Template("{% load idempotency %}{% idempotency_field %}{% idempotency_field %}")
    first, second = TOKEN.findall(template.render(Context()))
    assert first != second and idempotency.valid_key(first)
    oob = Template('{% load idempotency %}{% idempotency_field id="t" oob=True %}')
    assert 'id="t" hx-swap-oob="true"' in oob.render(Context())


# --- the API header ----------------------------------------------------------------------------


def test_result_entry_with_a_key_applies_once_and_replays_the_answer(
    league, django_capture_on_commit_callbacks
):
    client = api(league.club.memberships.get(role="organiser").user)
    headers = {"Idempotency-Key": "enter-1"}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first = client.post("/api/v1/results/", result_body(league), format="json", headers=headers)
        again = client.post("/api/v1/results/", result_body(league), format="json", headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Result.objects.filter(league=league).count() == 1
    assert len(callbacks) == 1  # one rating recompute queued
    assert League.objects.get(pk=league.pk).ratings_version == 1
    other = client.post(
        "/api/v1/results/", result_body(league, outcome="b"), format="json", headers=headers
    )
    assert other.status_code == 422 and "different request body" in other.json()["detail"][0]
    bad = client.post(
        "/api/v1/results/", result_body(league), format="json", headers={"Idempotency-Key": "a b"}
    )
    assert bad.status_code == 400 and "printable ASCII" in bad.json()["Idempotency-Key"][0]
    plain = client.post("/api/v1/results/", result_body(league), format="json")
    assert plain.status_code == 201 and Result.objects.filter(league=league).count() == 2


def test_a_refused_request_keeps_no_answer(league):
    client = api(league.club.memberships.get(role="organiser").user)
    headers = {"Idempotency-Key": "enter-2"}
    body = result_body(league, team_b=["nobody"])
    refused = client.post("/api/v1/results/", body, format="json", headers=headers)
    assert refused.status_code == 400
    assert (
        idempotency.claim(
            idempotency.cache_key("api", refused.wsgi_request, "enter-2"), "x", wait=0
        )
        is None
    )  # released: the key may be used again


def test_keys_belong_to_their_user(league, make_user):
    organiser = league.club.memberships.get(role="organiser").user
    other = make_user("otto")
    club_join(user=other, club=league.club, role=ClubMembership.Role.ORGANISER)
    headers = {"Idempotency-Key": "same"}
    for user in (organiser, other):
        response = api(user).post(
            "/api/v1/results/", result_body(league), format="json", headers=headers
        )
        assert response.status_code == 201 and "Idempotent-Replayed" not in response
    assert Result.objects.filter(league=league).count() == 2


def test_battle_event_with_a_key_is_logged_once(user, other_user, make_user):
    campaign = cc_campaign_create(creator=user, name="Cotentin", template="gastadores")
    us, germans = campaign.sides.order_by("order")
    side_join(user=other_user, side=us)
    side_join(user=make_user("gerd"), side=germans)
    url = f"/api/v1/campaigns/{campaign.pk}/battles/1/events/"
    event = {"category": "vp", "text": "objective 3 taken", "vp_delta": 2}
    client = api(other_user)
    answers = [
        client.post(url, event, format="json", headers={"Idempotency-Key": "ev-1"})
        for _ in range(3)
    ]
    assert {a.status_code for a in answers} == {201}
    assert answers[1].json() == answers[2].json() == answers[0].json()
    assert answers[2]["Idempotent-Replayed"] == "true"
    assert LogEntry.objects.filter(campaign=campaign, kind=LogEntry.Kind.EVENT).count() == 1


def test_roster_edit_with_a_key_applies_once(make_user):
    owner = make_user("rosa")
    roster = m1936_list(owner)
    url = f"/api/v1/rosters/{roster.pk}/edit/"
    body = {"op": "add_unit", "profile": "Oficial"}
    client = api(owner)
    first = client.post(url, body, format="json", headers={"Idempotency-Key": "add-1"})
    again = client.post(url, body, format="json", headers={"Idempotency-Key": "add-1"})
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert RosterChange.objects.filter(roster=roster, kind="edit").count() == 1
    new = client.post(url, body, format="json", headers={"Idempotency-Key": "add-2"})
    assert new.status_code == 200
    assert RosterChange.objects.filter(roster=roster, kind="edit").count() == 2


# --- the page token ----------------------------------------------------------------------------


def test_roster_page_edit_with_the_same_token_does_nothing_the_second_time(client, make_user):
    owner = make_user("rosa")
    roster = m1936_list(owner)
    client.force_login(owner)
    page = client.get(roster.get_absolute_url())
    token = TOKEN.search(page.text).group(1)
    body = {"op": "add_unit", "profile": "Oficial", "idempotency_token": token}
    first = client.post(reverse("roster-edit", args=[roster.pk]), body)
    again = client.post(reverse("roster-edit", args=[roster.pk]), body)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"] and again["Idempotent-Replayed"] == "true"
    assert RosterChange.objects.filter(roster=roster, kind="edit").count() == 1


def test_result_page_token_enters_once(client, league):
    organiser = league.club.memberships.get(role="organiser").user
    client.force_login(organiser)
    url = reverse("result-new", args=[league.pk])
    token = TOKEN.search(client.get(url).text).group(1)
    body = {
        "played_on": DAY.isoformat(),
        "team_a": "ann",
        "team_b": "ben",
        "outcome": "a",
        "idempotency_token": token,
    }
    first = client.post(url, body)
    again = client.post(url, body)
    assert first.status_code == 302, first.text
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert Result.objects.filter(league=league).count() == 1


# --- no-op roster edits (issue 15, item 9) -----------------------------------------------------


def test_a_roster_edit_that_changes_nothing_is_refused_and_not_recorded(user):
    roster = roster_create(
        owner=user, system="parabellum", name="Kampfgruppe", squad_type="GER/grenadier"
    )
    edit = {"soldier_id": "nco", "field": "experience", "value": "veteran"}
    roster_edit(roster=roster, actor=user, edit=edit)
    count = RosterChange.objects.filter(roster=roster).count()
    with pytest.raises(Exception, match="Nothing changed"):
        roster_edit(roster=roster, actor=user, edit=edit)
    assert RosterChange.objects.filter(roster=roster).count() == count
    response = api(user).post(f"/api/v1/rosters/{roster.pk}/edit/", edit, format="json")
    assert response.status_code == 400 and response.json() == {"detail": ["Nothing changed."]}
    assert RosterChange.objects.filter(roster=roster).count() == count


# --- lock order and retry ----------------------------------------------------------------------


def test_lock_in_order_answers_rows_by_id(user):
    rosters = [m1936_list(user, name=f"R{i}") for i in range(3)]
    with transaction.atomic():
        locked = lock_in_order(Roster, [rosters[2].pk, rosters[0].pk, None, rosters[1].pk])
    assert [r.pk for r in locked] == sorted(r.pk for r in rosters)
    assert lock_in_order(Roster, []) == []


class FakeCause(Exception):
    def __init__(self, sqlstate):
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def conflict(sqlstate="40P01") -> OperationalError:
    try:
        raise OperationalError("deadlock detected") from FakeCause(sqlstate)
    except OperationalError as exc:
        return exc


def test_retry_on_conflict_runs_the_service_again_outside_a_transaction(monkeypatch):
    monkeypatch.setattr("campaigns.services._base.connection.in_atomic_block", False)
    calls = []

    @retry_on_conflict(attempts=3)
    def flaky(*, fail: int):
        calls.append(1)
        if len(calls) <= fail:
            raise conflict()
        return "done"

    assert flaky(fail=2) == "done" and len(calls) == 3
    calls.clear()
    with pytest.raises(OperationalError):
        flaky(fail=5)
    assert len(calls) == 3  # bounded
    assert is_retryable(conflict("40001")) and not is_retryable(conflict("23505"))


def test_retry_on_conflict_leaves_an_outer_transaction_alone():
    calls = []

    @retry_on_conflict
    def flaky():
        calls.append(1)
        raise conflict()

    with pytest.raises(OperationalError):
        flaky()  # pytest-django's test transaction is the outer block
    assert len(calls) == 1

"""Fixtures shared by the club and league tests (imported by test_leagues*.py, test_clubs*.py)."""

import datetime as dt

import pytest

from campaigns.models import ClubMembership
from campaigns.services import club_create, club_join
from campaigns.services.leagues import league_create, result_enter

DAY = dt.date(2026, 3, 1)


@pytest.fixture
def organiser(make_user):
    return make_user("olga")


@pytest.fixture
def club(organiser):
    return club_create(creator=organiser, name="Kampfgruppe Madrid")


@pytest.fixture
def members(club, make_user):
    """Four members: ann, ben, cat, dan."""
    users = {}
    for name in ("ann", "ben", "cat", "dan"):
        users[name] = make_user(name)
        club_join(user=users[name], club=club, role=ClubMembership.Role.MEMBER)
    return users


@pytest.fixture
def league(club, organiser):
    return league_create(
        club=club,
        actor=organiser,
        name="Winter League",
        season="2026",
        system="cc",
        tiebreaks=["points", "h2h", "buchholz"],
        elo_k_bands=[[0, 32]],
    )


def enter(league, actor, a, b, outcome, day=DAY, **extra):
    return result_enter(
        league=league,
        actor=actor,
        played_on=day,
        team_a=a if isinstance(a, list) else [a],
        team_b=b if isinstance(b, list) else [b],
        outcome=outcome,
        **extra,
    )


@pytest.fixture
def played(league, organiser, members, django_capture_on_commit_callbacks):
    """The hand-computed table of tests/rules/ratings/test_standings.py, with usernames:
    ann beats ben, cat beats dan, ann draws cat, ben beats dan, dan beats ann."""
    with django_capture_on_commit_callbacks(execute=True):
        results = [
            enter(league, organiser, "ann", "ben", "a", scenario="Fat Lipki", side_a="Germans",
                  side_b="Soviets"),
            enter(league, organiser, "cat", "dan", "a", scenario="Fat Lipki", side_a="Germans",
                  side_b="Soviets"),
            enter(league, organiser, "ann", "cat", "draw", scenario="Hill 400", side_a="Germans",
                  side_b="Americans"),
            enter(league, organiser, "ben", "dan", "a", scenario="Fat Lipki", side_a="Soviets",
                  side_b="Germans"),
            enter(league, organiser, "dan", "ann", "a", scenario="Hill 400", side_a="Americans",
                  side_b="Germans"),
        ]  # fmt: skip
    return results

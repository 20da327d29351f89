"""The league page on a 390 px phone: the standings table scrolls inside its own box with a
visible cue, the page itself never scrolls sideways, the tie-break buttons are 44 px tap
targets set apart, and a previewed order lands in the address (issue 17, findings 10, 32)."""

import datetime as dt

import pytest

from campaigns.models import ClubMembership
from campaigns.services import club_create, club_join
from campaigns.services.leagues import league_create, result_enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def league(django_user_model):
    olga = django_user_model.objects.create_user("olga", password="Kurgan-1942!")
    club = club_create(creator=olga, name="Kampfgruppe Madrid")
    players = []
    for name in ("annemarie", "benedikt", "catalina", "dimitrios"):
        user = django_user_model.objects.create_user(name, password="Kurgan-1942!")
        club_join(user=user, club=club, role=ClubMembership.Role.MEMBER)
        players.append(user)
    league = league_create(
        club=club,
        actor=olga,
        name="Winter League",
        season="2026",
        system="cc",
        tiebreaks=["points", "h2h", "buchholz", "median_buchholz", "owp", "sos", "wins"],
    )
    for i, (a, b) in enumerate(zip(players, players[1:] + players[:1], strict=True)):
        result_enter(
            league=league,
            actor=olga,
            played_on=dt.date(2026, 3, 1 + i),
            team_a=[a.username],
            team_b=[b.username],
            outcome="a",
        )
    return league


def test_standings_fit_a_phone_and_tiebreaks_are_tap_targets(browser, live_server, league):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"/leagues/{league.pk}/")
        page.locator(".standings-box").wait_for()
        widths = page.evaluate(
            """() => ({page: document.documentElement.scrollWidth,
                       view: document.documentElement.clientWidth,
                       box: document.querySelector('.standings-box').clientWidth,
                       table: document.querySelector('.standings-box table').scrollWidth})"""
        )
        assert widths["page"] <= widths["view"], widths  # the page never scrolls sideways
        assert widths["table"] > widths["box"], widths  # the table scrolls in its box
        assert page.get_by_text("Swipe sideways to see every column.").is_visible()
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('.tiebreaks a.move')].map(a => {
                const r = a.getBoundingClientRect(); return [r.width, r.height]; })"""
        )
        assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes
        page.get_by_role("link", name="Move Head-to-head up").click()
        page.wait_for_url("**?tb=h2h,points,*")
        assert page.locator(".tiebreaks .criterion").first.inner_text() == "Head-to-head"
        assert "This preview order is in the page address" in page.content()
    finally:
        context.close()

"""Issue 17 fixes made while integrating the helpers' work (one test per finding)."""

import re

import pytest
from django.urls import reverse

from campaigns.models import SkirmishEvent
from campaigns.selectors.rosters import EVENTS_WINDOW
from tests.web.roster_helpers import m1936_battle

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.leagues_helpers"]


def test_finding_30_the_club_page_names_the_role_in_a_sentence(client, club, organiser, members):
    client.force_login(organiser)
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert "You are an organiser of this club." in page
    client.force_login(members["ann"])
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert "You are a member of this club." in page
    client.cookies["django_language"] = "es"
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert "Eres miembro de este club." in page


def test_the_skirmish_log_comes_a_window_at_a_time_newest_first(client, make_user):
    """Issue 16 item 1 and issue 17 item 7: a skirmish battle's log is windowed like the
    campaign logs; the other side's private entries are not in any window."""
    alice, bob = make_user("alice"), make_user("bob")
    battle = m1936_battle(alice, bob, ("Oficial",))
    first = SkirmishEvent.objects.filter(battle=battle).count()
    total = 2 * EVENTS_WINDOW + 5
    rows, number = [], first
    for i in range(total):
        private = i % 10 == 9
        if not private:
            number += 1
        rows.append(
            SkirmishEvent(
                battle=battle, seq=first + i + 1, number=None if private else number,
                kind="event", summary=f"SECRET {i}" if private else f"E{i:03d}",
                private_to=battle.sides.get(index=0) if private else None,
            )
        )  # fmt: skip
    SkirmishEvent.objects.bulk_create(rows)
    client.force_login(bob)
    page = client.get(battle.get_absolute_url()).text
    shown = re.findall(r"\bE(\d{3})\b", page)
    assert len(shown) <= EVENTS_WINDOW and shown[0] == f"{total - 1:03d}"
    assert shown == sorted(shown, reverse=True) and "SECRET" not in page
    seen, link = list(shown), re.search(r'hx-get="([^"]*more=log[^"]*)"', page)
    while link:
        older = client.get(link.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
        assert older.status_code == 200 and "SECRET" not in older.text
        seen += re.findall(r"\bE(\d{3})\b", older.text)
        link = re.search(r'hx-get="([^"]*more=log[^"]*)"', older.text)
    public = [f"{i:03d}" for i in range(total) if i % 10 != 9]
    assert seen == public[::-1]

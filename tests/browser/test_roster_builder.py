"""The live roster builders in a real browser: every select change is saved, checked and the
validation panel (an aria-live region) is swapped in place by htmx, without a page load.

Parabellum (Grenadier, 10 PM, §8.2.1/§8.2.4): an STG-44 costs 0.5 PM and at most 2 soldiers
may take one. Officer + NCO with STG-44 → 9.0 PM left, PO floor(9.0) = 9; a third one →
8.5 PM left, PO 8 and a violation; back to the rifle → 9.0 / 9 and valid again.
1936 (Nacionales, attacker, Pequeña: 1200 points): going over budget is shown the same way.
"""

import re

import pytest
from playwright.sync_api import expect

from campaigns.models import Roster
from campaigns.services.rosters import roster_create, roster_edit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Grenadier-1944!"


@pytest.fixture
def hans(django_user_model):
    return django_user_model.objects.create_user("hans", password=PASSWORD)


SETTLED = """() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')
    && [...document.querySelectorAll('[hx-post]')].every((el) => el['htmx-internal-data'])"""


def settled(page):
    """Wait until htmx has swapped, settled and wired the new builder (a change fired on a
    select htmx has not processed yet would be lost)."""
    page.wait_for_function(SETTLED)


def choose(page, select, value):
    settled(page)
    page.locator(select).select_option(value)


def log_in(page, username):
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()


def test_parabellum_builder_shows_violation_and_points_live(page, hans):
    log_in(page, "hans")
    page.goto("/rosters/new/")
    page.locator("#id_system").select_option("parabellum")
    page.locator("#id_name").fill("Kampfgruppe Peiper")
    page.locator("#id_squad_type").select_option("GER/grenadier")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("heading", name="Kampfgruppe Peiper").wait_for()

    panel = page.locator("#validation")
    expect(panel).to_have_attribute("aria-live", "polite")
    expect(panel).to_contain_text("PM left: 10 of 10 · starting PO: 10")
    expect(panel).to_contain_text("Valid: ready to field.")
    url = page.url

    choose(page, "#officer-weapon", "assault_rifle")
    expect(panel).to_contain_text("PM left: 9.5 of 10 · starting PO: 9")
    choose(page, "#nco-weapon", "assault_rifle")
    expect(panel).to_contain_text("PM left: 9.0 of 10 · starting PO: 9")
    expect(panel).to_contain_text("Valid: ready to field.")

    # a third STG-44 breaks §8.2.1: saved, and the panel says why at once
    choose(page, "#rifleman-1-weapon", "assault_rifle")
    expect(panel).to_contain_text("PM left: 8.5 of 10 · starting PO: 8")
    expect(panel.locator(".violations li")).to_have_count(1)
    expect(panel.locator(".violations")).to_contain_text("allows 2 soldiers")
    expect(panel.locator(".violations")).to_contain_text("this roster has 3")
    expect(panel).not_to_contain_text("Valid: ready to field.")
    expect(panel).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#rifleman-1-weapon")).to_have_value("assault_rifle")

    # fixed: back to the rifle
    choose(page, "#rifleman-1-weapon", "rifle")
    expect(panel).to_contain_text("PM left: 9.0 of 10 · starting PO: 9")
    expect(panel).to_contain_text("Valid: ready to field.")
    expect(panel.locator(".violations")).to_have_count(0)
    expect(panel).to_have_class(re.compile(r"\bok\b"))
    assert page.url == url  # every edit answered in place

    roster = Roster.objects.get(name="Kampfgruppe Peiper")
    weapons = {s["id"]: s["weapon"] for s in roster.data["soldiers"]}
    assert weapons["officer"] == weapons["nco"] == "assault_rifle"
    assert weapons["rifleman-1"] == "rifle"
    assert list(roster.changes.values_list("kind", flat=True)) == ["edit"] * 4 + ["created"]

    # a reload shows the same saved state
    page.reload()
    expect(panel).to_contain_text("PM left: 9.0 of 10 · starting PO: 9")


def test_1936_army_builder_over_budget_live(page, hans):
    """Seven 8,8 cm Flak 18 (7 × 160 = 1120) leave 80; an Oficial (60) leaves 20; a
    Schneider 155/17 (140) puts the list 120 over budget; removing it makes it valid again."""
    roster = roster_create(
        owner=hans,
        system="m1936",
        name="Columna Yagüe",
        faction="Nacionales",
        role="Atacante",
        quality="Regulares",
        size="Pequeña",
    )
    for _ in range(7):
        roster = roster_edit(
            roster=roster, actor=hans, edit={"op": "add_unit", "profile": "8,8 cm Flak 18"}
        )
    log_in(page, "hans")
    page.goto(roster.get_absolute_url())
    panel = page.locator("#validation")
    expect(panel).to_have_attribute("aria-live", "polite")
    expect(panel).to_contain_text("points left: 80 of 1200")
    url = page.url

    choose(page, "#add-unit", "Oficial")
    page.get_by_role("button", name="Add unit").click()
    expect(panel).to_contain_text("points left: 20 of 1200")
    expect(panel).to_contain_text("Valid: ready to field.")

    choose(page, "#add-unit", "Schneider 155/17 155mm")
    page.get_by_role("button", name="Add unit").click()
    expect(panel).to_contain_text("points left: -120 of 1200")
    expect(panel.locator(".violations")).to_contain_text(
        "the list costs 1320, over the budget of 1200"
    )
    expect(panel).not_to_contain_text("Valid: ready to field.")

    settled(page)
    page.once("dialog", lambda dialog: dialog.accept())  # "Remove this unit?"
    page.locator("ol.units > li").nth(8).get_by_role("button", name="Remove unit").click()
    expect(panel).to_contain_text("points left: 20 of 1200")
    expect(panel).to_contain_text("Valid: ready to field.")
    assert page.url == url
    roster.refresh_from_db()
    assert [e["profile"] for e in roster.data["entries"]] == ["8,8 cm Flak 18"] * 7 + ["Oficial"]

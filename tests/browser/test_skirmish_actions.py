"""A Parabellum battle played from a phone: each action answers in place (htmx) — the
battle log and the state panel update, refused input shows its error in the form."""

import pytest
from playwright.sync_api import expect

from campaigns.services.rosters import roster_create
from campaigns.services.skirmish import skirmish_create, skirmish_join
from tests.browser.test_roster_builder import SETTLED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Vernon-1944!"


@pytest.fixture
def battle(django_user_model):
    hans = django_user_model.objects.create_user("hans", password=PASSWORD)
    joe = django_user_model.objects.create_user("joe", password=PASSWORD)
    ger = roster_create(owner=hans, system="parabellum", name="Gren", squad_type="GER/grenadier")
    usa = roster_create(owner=joe, system="parabellum", name="Easy", squad_type="USA/rifleman")
    battle = skirmish_create(creator=hans, roster=ger, role="attacker", opponent=joe, mode="simple")
    skirmish_join(battle=battle, actor=joe, roster=usa)
    return battle


def test_shot_answers_in_place_and_errors_show_in_the_form(browser, live_server, battle):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("hans")
        page.locator("#id_password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.goto(battle.get_absolute_url())
        url = page.url

        # tactical phase: 4 / 4 on turn 1 → hans (the attacker) has the initiative, +2 PO each
        tactical = page.locator("#action-tactical")
        tactical.locator("summary").click()
        tactical.get_by_label("Blue tokens hans showed").fill("4")
        tactical.get_by_label("Blue tokens joe showed").fill("4")
        tactical.get_by_role("button", name="Record the tokens").click()
        expect(page.locator("#battle-log")).to_contain_text("initiative hans; PO +2 / +2")
        expect(page.locator("#battle-state")).to_contain_text("PO: 12 (started with 10)")

        page.wait_for_function(SETTLED)
        shoot = page.locator("#action-shoot")
        shoot.locator("summary").click()
        shoot.get_by_label("Shooter").select_option("0:rifleman-1")
        shoot.locator("select[name=target]").select_option("1:rifleman-3")
        shoot.get_by_label("Distance (cm)").fill("30")
        shoot.get_by_label("Target cover").select_option("heavy")
        shoot.locator("select[name=dice_mode]").select_option("entered")
        shoot.get_by_label("Rolls from the table, in order").fill("14; 10")
        shoot.get_by_role("button", name="Roll the shot").click()
        expect(page.locator("#action-shoot")).to_contain_text("enter the three dice")

        page.wait_for_function(SETTLED)
        shoot = page.locator("#action-shoot")  # swapped: the bound form, still open
        shoot.get_by_label("Rolls from the table, in order").fill("3 5 6; 2 3 5")
        shoot.get_by_role("button", name="Roll the shot").click()
        expect(page.locator("#battle-log")).to_contain_text("success → suppressed")
        expect(page.locator("#battle-messages")).to_contain_text("Done — see the battle log.")
        assert page.url == url
    finally:
        context.close()

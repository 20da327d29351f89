"""A "1936" battle from a phone: the fire form's outcome table follows the fields as they are
typed (no button), the shot answers in place with its result where the button was, and the
summary at the top of the page follows."""

import pytest
from playwright.sync_api import expect

from campaigns.services.skirmish import m36_units_setup
from tests.browser.test_roster_builder import SETTLED
from tests.web.m36_play_helpers import ATTACKER, DEFENDER
from tests.web.roster_helpers import m1936_battle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Teruel-1937!"


@pytest.fixture
def battle(django_user_model):
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    bob = django_user_model.objects.create_user("bob", password=PASSWORD)
    b = m1936_battle(alice, bob, ATTACKER, DEFENDER)
    m36_units_setup(battle=b, actor=alice, bases={"0": 3, "3": 2}, tokens={}, decoys=[])
    m36_units_setup(battle=b, actor=bob, bases={"0": 3, "3": 3}, tokens={}, decoys=[])
    return b


def test_fire_odds_follow_the_fields_and_the_shot_answers_in_place(browser, live_server, battle):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("alice")
        page.locator("#id_password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.goto(battle.get_absolute_url())
        expect(page.locator("#battle-summary")).to_contain_text("Turn 1")
        page.wait_for_function(SETTLED)
        fire = page.locator("#action-m36fire")
        fire.locator("summary").click()
        fire.get_by_label("Bases that fire").fill("3")
        fire.get_by_label("Performance result R").fill("1")
        fire.get_by_label("Range").select_option("corta")  # a change: the table comes
        expect(page.locator("#odds-m36fire")).to_contain_text("FA 6: suppression 6, casualties 3")
        fire.get_by_label("Range").select_option("media")
        expect(page.locator("#odds-m36fire")).to_contain_text("FA 5: suppression 5, casualties 2")
        fire.get_by_role("button", name="Fire").click()
        expect(page.locator("#action-m36fire .result")).to_contain_text("fires at")
        expect(page.locator("#battle-summary")).to_contain_text("suppression 5")
    finally:
        context.close()

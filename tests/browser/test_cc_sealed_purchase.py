"""Two players set up a Stalingrad battle in two browsers: each sees only their own sealed
choice until both are in, then both are revealed together."""

import pytest

from campaigns.services import side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def kurgan(django_user_model):
    german = django_user_model.objects.create_user("hans", password="Kurgan-1942!")
    soviet = django_user_model.objects.create_user("ivan", password="Kurgan-1942!")
    c = cc_campaign_create(creator=german, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=soviet, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=german, data=STALINGRAD_DATA)
    return c


def _login(browser, live_server, username):
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill("Kurgan-1942!")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()
    return context, page


def test_sealed_purchases_are_revealed_together(browser, live_server, kurgan, page):
    # `page` is hans's browser; ivan gets a second, independent one.
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("hans")
    page.locator("#id_password").fill("Kurgan-1942!")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Kurgan").click()
    page.get_by_role("button", name="Set up battle 1").click()
    german_card = page.locator("article.decision", has_text="Germans: secretly choose")
    german_card.get_by_label("Pionier").check()
    german_card.get_by_role("button", name="Submit").click()
    page.get_by_text("Answer recorded.").wait_for()
    assert page.get_by_text("Your sealed choice: Pionier").is_visible()

    ivan_context, ivan = _login(browser, live_server, "ivan")
    try:
        ivan.get_by_role("link", name="Kurgan").click()
        assert ivan.get_by_text("Germans submitted a sealed choice").first.is_visible()
        assert ivan.get_by_text("Your sealed choice: Pionier").count() == 0
        soviet_card = ivan.locator("article.decision", has_text="Soviets: secretly choose")
        soviet_card.get_by_label("B (costs", exact=False).first.check()
        soviet_card.get_by_role("button", name="Submit").click()
        ivan.get_by_text("Answer recorded.").wait_for()
        ivan.get_by_role("link", name="The whole log, by battle and kind").click()
        revealed = ivan.get_by_text(
            "Sealed choices revealed together — Germans: Pionier; Soviets: B"
        )
        revealed.wait_for()
    finally:
        ivan_context.close()

"""The campaign tables page on a 390 px phone: the page never scrolls sideways (each table
scrolls in its own box), every cell input is a 44 px tap target, and a wrong cell shows its
message beside it (issue 17, finding 7)."""

import pytest

from campaigns.services.cc_campaigns import cc_campaign_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "Kurgan-1942!"


@pytest.fixture
def kurgan(django_user_model):
    hans = django_user_model.objects.create_user("hans", password=PASSWORD)
    return cc_campaign_create(creator=hans, name="Kurgan", template="stalingrad", creator_side=0)


def _page_overflow(page) -> int:
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def test_tables_page_fits_a_phone_and_shows_cell_errors(browser, live_server, kurgan):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("hans")
        page.locator("#id_password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("heading", name="My campaigns").wait_for()
        page.goto(f"/campaigns/{kurgan.pk}/tables/")
        assert _page_overflow(page) <= 0
        boxes = page.locator(".grid-box")
        assert boxes.count() == 2
        first = boxes.first
        # the wide table scrolls inside its own box instead
        assert first.evaluate("b => b.scrollWidth > b.clientWidth")
        heights = page.locator("table.grid input:not([type=hidden]), table.grid select")
        assert (
            min(heights.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")) >= 44
        )

        cost = page.get_by_label("Campaign Forces Table, row 3, Cost")
        cost.fill("three")
        page.get_by_role("button", name="Check and save the tables").first.click()
        error = page.locator("td.has-error .cell-error").first
        error.wait_for()
        assert error.inner_text() == "Campaign Forces Table, row 3 (C), Cost: enter a whole number"
        assert _page_overflow(page) <= 0
    finally:
        context.close()

"""The CC battle page on a 390 px phone: after tapping Roll the result is in the viewport,
right by the button; the score follows a logged VP change; the position track's labels stay
legible (issue 17, findings 3 and 27)."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from campaigns.services import side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from tests.web.test_ux_cctable import _set_up, _tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def playing(django_user_model):
    german = django_user_model.objects.create_user("hans", password="Kurgan-1942!")
    soviet = django_user_model.objects.create_user("ivan", password="Kurgan-1942!")
    c = cc_campaign_create(creator=german, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=soviet, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=german, data=_tables())
    _set_up(c, german, soviet)
    return c


def _phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("ivan")
    page.locator("#id_password").fill("Kurgan-1942!")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()
    return context, page


IN_VIEWPORT = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight + 1; }"""


def _in_viewport(page, selector: str) -> bool:
    """True once `selector` is wholly in the viewport (htmx scrolls it there as the swap
    settles, a few milliseconds after the new content is in)."""
    try:
        page.wait_for_function(IN_VIEWPORT, arg=selector, timeout=2_000)
    except PlaywrightTimeout:
        return False
    return True


def test_roll_result_is_in_the_phone_viewport_after_the_tap(browser, live_server, playing):
    context, page = _phone(browser, live_server)
    try:
        page.goto(f"/campaigns/{playing.pk}/battles/1/")
        page.locator("#id_purpose").fill("Fire on 2-1")
        page.locator("#id_entered").fill("3,4")
        page.get_by_role("button", name="Roll", exact=True).click()
        result = page.locator("#roll-result")
        result.get_by_text("Fire on 2-1").wait_for()
        assert "7" in result.locator(".roll-value").inner_text()
        assert _in_viewport(page, "#roll-result")
        assert _in_viewport(page, "#roll-result .roll-value")
        # the log got the roll too, newest first
        assert "Fire on 2-1" in page.locator("#battle-log li").first.inner_text()
        # the page never scrolls sideways on the phone
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # a VP change moves the score without a reload
        page.locator("#id_category").select_option("vp")
        page.locator("#id_vp_delta").fill("3")
        page.get_by_role("button", name="Log it").click()
        start = playing.state["battles"][0]["vp_axis"]
        vp = start + 3
        expected = "0 (level)" if vp == 0 else (f"Germans +{vp}" if vp > 0 else f"Soviets +{-vp}")
        page.locator("#score strong", has_text=expected).wait_for()
    finally:
        context.close()


def test_position_track_labels_stay_legible_on_a_phone(browser, live_server, playing):
    context, page = _phone(browser, live_server)
    try:
        page.goto(f"/campaigns/{playing.pk}/")
        label = page.locator("svg.track text", has_text="map").first
        assert label.bounding_box()["height"] >= 12
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()

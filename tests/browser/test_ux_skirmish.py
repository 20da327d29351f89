"""The Parabellum roster builder on a 390 px phone, in English and Spanish: no sideways
scroll, every soldier's choices (Experience, Specialist, Scout) on screen, and a choice made
there is saved (issue 17, finding 10)."""

import pytest

from campaigns.services.rosters import roster_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "Easy-Company-1944!"


@pytest.fixture
def easy(django_user_model):
    owner = django_user_model.objects.create_user("winters", password=PASSWORD)
    return roster_create(
        owner=owner, system="parabellum", name="Easy Company", squad_type="USA/rifleman"
    )


def _phone(browser, live_server, locale):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale=locale)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("winters")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return context, page


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_builder_fits_a_phone_in_both_languages(browser, live_server, easy, locale):
    context, page = _phone(browser, live_server, locale)
    try:
        page.goto(easy.get_absolute_url())
        assert page.locator("html").get_attribute("lang") == locale[:2]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the builder is {width} px wide"
        for field in ("experience", "specialist", "scout"):
            select = page.locator(f"#rifleman-1-{field}")
            box = select.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, field
            assert box["height"] >= 44, f"{field} is a {box['height']} px tap target"
        page.locator("#rifleman-3-experience").select_option("veteran")
        page.wait_for_function(
            "() => document.querySelector('#rifleman-3-experience').value === 'veteran'"
            " && !document.querySelector('.htmx-request')"
        )
        page.locator("#roster-history li").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_roster_card_fits_the_page_and_prints(browser, live_server, easy):
    context, page = _phone(browser, live_server, "en-GB")
    try:
        page.goto(f"/rosters/{easy.pk}/print/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.emulate_media(media="print")
        assert not page.locator("[data-print]").is_visible()
        assert page.get_by_text("MG assistant 1").is_visible()
    finally:
        context.close()

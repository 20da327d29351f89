"""Live pages (issue 17, item 3): one player answers a Combat Commander decision and the
other player's open campaign page shows it without a reload; the inbox badge follows."""

import pytest

from tests.browser.test_cc_sealed_purchase import _login, kurgan  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_other_players_page_follows_without_reload(browser, live_server, kurgan):  # noqa: F811
    hans_context, hans = _login(browser, live_server, "hans")
    ivan_context, ivan = _login(browser, live_server, "ivan")
    try:
        hans.get_by_role("link", name="Kurgan").click()
        hans.get_by_role("button", name="Set up battle 1").click()
        german_card = hans.locator("article.decision", has_text="Germans decide.")
        german_card.wait_for()

        ivan.goto(f"/campaigns/{kurgan.pk}/")
        ivan.evaluate("window.stillTheSamePage = true")
        log = ivan.locator("#log")
        assert log.get_by_text("Germans submitted a sealed choice").count() == 0
        # his own sealed choice, and the seat hans's campaign gave him
        assert ivan.locator("#inbox-count").inner_text() == "2"

        german_card.get_by_label("Pionier", exact=False).check()
        german_card.get_by_role("button", name="Submit").click()
        hans.get_by_text("Answer recorded.").wait_for()

        # within a poll or two (every 10 s), without any navigation on ivan's side
        log.get_by_text("Germans submitted a sealed choice").wait_for(timeout=30_000)
        assert ivan.evaluate("window.stillTheSamePage") is True
        assert ivan.get_by_text("Your sealed choice: Pionier", exact=False).count() == 0
        # his own decision is still there to answer
        assert ivan.locator("article.decision", has_text="Soviets decide.").count() == 1
    finally:
        hans_context.close()
        ivan_context.close()


def test_inbox_lists_the_waiting_choice_and_favicon_loads(browser, live_server, kurgan):  # noqa: F811
    context, page = _login(browser, live_server, "hans")
    try:
        page.get_by_role("link", name="Kurgan").click()
        page.get_by_role("button", name="Set up battle 1").click()
        page.locator("#inbox-link").click()
        page.get_by_role("heading", name="Your move").wait_for()
        page.get_by_role("link", name="Your sealed choice", exact=False).click()
        page.locator("article.decision", has_text="Germans decide.").wait_for()
        assert page.request.get("/favicon.ico").status == 200
    finally:
        context.close()


def _no_overflow(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def test_phone_checkbox_beside_its_label_and_no_overflow(browser, live_server, kurgan):  # noqa: F811
    context, page = _login(browser, live_server, "hans")
    try:
        page.set_viewport_size({"width": 390, "height": 800})
        page.goto("/accounts/notices/")
        box = page.locator("input[name=email_seats]").bounding_box()
        text = page.get_by_text("I am seated on a side of a campaign").bounding_box()
        assert box["x"] + box["width"] <= text["x"]  # before the text …
        assert abs((box["y"] + box["height"] / 2) - (text["y"] + text["height"] / 2)) < 12
        assert _no_overflow(page)
        for url in ("/inbox/", "/"):
            page.goto(url)
            assert _no_overflow(page), url
    finally:
        context.close()


def test_signed_out_phone_home_invites_to_browse(page):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto("/")
    page.get_by_role("heading", name="Browse without an account").wait_for()
    assert page.get_by_role("link", name="Clubs, leagues and players").is_visible()
    assert _no_overflow(page)

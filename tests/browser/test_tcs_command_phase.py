"""A player runs a TCS Command Phase on a phone: each step answers in place (htmx), with the
thresholds read off the printed chart and the d66 rolled at the table [6.9.f, 6.14.a]."""

import pytest

from campaigns.services import side_join
from campaigns.services.tcs import tcs_operation_start, tcs_sheet_draw
from tests.web.test_tcs_pages import SHERMANS, make_operation, with_oob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def operation(django_user_model):
    hans = django_user_model.objects.create_user("hans", password="Omaha-1944!")
    joe = django_user_model.objects.create_user("joe", password="Omaha-1944!")
    op, germans, americans = make_operation(hans, None)
    side_join(user=joe, side=americans)
    with_oob(op, germans, americans, (hans, joe))
    tcs_operation_start(campaign=op, actor=hans)
    tcs_sheet_draw(
        side=americans,
        actor=joe,
        code="S",
        missions=dict.fromkeys(SHERMANS, "attack"),
        texts={"preliminary_text": "Assemble behind the ridge"},
    )
    return op, americans


def test_sherman_sheet_starts_its_preliminary_instructions(browser, live_server, operation):
    op, _ = operation
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("joe")
        page.locator("#id_password").fill("Omaha-1944!")
        page.get_by_role("button", name="Log in").click()
        page.goto(f"/campaigns/{op.pk}/tcs/")
        page.get_by_role("link", name="Command Phase assistant").first.click()
        page.get_by_role("button", name="Start the Command Phase").click()
        page.get_by_role("button", name="Add the weighted turns").click()
        page.get_by_text("Weighted turns added: S +9.").wait_for()
        attempt = page.locator("article.attempt", has_text="S ·")
        attempt.get_by_label("Threshold read off the chart").fill("55")
        attempt.get_by_label("Move row threshold").fill("44")
        attempt.get_by_label("We rolled at the table").check()
        attempt.get_by_label("Your d66 roll").fill("46")
        url_before = page.url
        attempt.get_by_role("button", name="Roll Command Prep").click()
        page.get_by_text("rolled 46 — prelims started").wait_for()
        assert page.url == url_before  # answered in place
        page.get_by_role("button", name="Complete the Command Phase").click()
        page.get_by_text("Completed.").first.wait_for()
        page.goto(f"/campaigns/{op.pk}/tcs/timeline/")
        assert page.locator("svg.timeline title#tl-title").count() == 1
    finally:
        context.close()

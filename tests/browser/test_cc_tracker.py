"""The battle assistant on a 390 px phone (issue 12): the tracks at the top, a procedure's
odds shown live as its values are typed, its result where the button was, in the viewport,
and the tracks redrawn without a reload."""

import pytest

from campaigns.services.cc_battle import battle_tracker_start
from tests.browser.test_ux_cctable import PHONE, _in_viewport, _phone, playing  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tracked(playing):  # noqa: F811
    battle = playing.battles.get(number=1)
    battle_tracker_start(
        battle=battle,
        actor=playing.created_by,
        mode="light",
        time=0,
        sudden_death=3,
        initiative="axis",
        first_player="axis",
        postures={"axis": "attack", "allies": "defend"},
        surrender={"axis": 4, "allies": 4},
    )
    return battle


def test_recover_on_a_phone_odds_live_result_by_the_button(browser, live_server, tracked):
    context, page = _phone(browser, live_server)
    try:
        page.goto(tracked.get_absolute_url())
        assert page.locator("#tracks").get_by_text("Sudden Death on 3").is_visible()
        card = page.locator("#proc-recover")
        card.locator("summary").click()  # each procedure is folded until it is wanted
        card.locator("#id_recover-units").fill("Guards Squad; 7\nLt. Petrov; leader; 9")
        card.locator("#id_recover-units").dispatch_event("change")
        card.locator(".odds").get_by_text("Guards Squad rallies").wait_for()
        assert "41.7 %" in card.locator(".odds").inner_text()  # 15 of 36 totals below 7
        assert "Lt. Petrov rallies" in card.locator(".odds").inner_text()
        card.locator("#id_recover-dice").fill("3 3; 1 2")  # the Leader rolls first
        card.get_by_role("button", name="Roll and apply").click()
        result = page.locator("#proc-recover-result")
        result.get_by_text("Guards Squad: 3, rallied").wait_for()
        assert "Lt. Petrov: 6, rallied" in result.inner_text()
        assert _in_viewport(page, "#proc-recover-result")
        assert (
            "Recover: Lt. Petrov: 6, rallied; Guards Squad"
            in page.locator("#battle-log li").first.inner_text()
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # a second action in another card: the VP marker moves in the tracks at once
        vp = page.locator("#proc-vp")
        vp.locator("summary").click()
        vp.locator("#id_vp-side").select_option("axis")
        vp.locator("#id_vp-vp").fill("2")
        vp.locator("#id_vp-reason").fill("No Quarter")
        vp.get_by_role("button", name="Apply").click()
        page.locator("#tracks").get_by_text("VP marker 2 on the side of the Germans").wait_for()
    finally:
        context.close()

"""The battle assistant on a 390 px phone (issue 12): the tracks at the top, a procedure's
odds shown live as its values are typed, its result where the button was, in the viewport,
and the tracks redrawn without a reload."""

from dataclasses import replace

import pytest
from django.urls import reverse

from campaigns.models import BattleTracker
from campaigns.services.cc_battle import battle_act, battle_tracker_start
from rules.cc.battle.state import BattleState, Cards
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


def test_the_full_tracks_card_fits_a_phone(browser, live_server, playing):  # noqa: F811
    """Chits, decks, Melee markers, readings and units on the tracks card, every fold open,
    and the counter grid: no sideways scroll at 390 px."""
    battle = playing.battles.get(number=1)
    hans, ivan = playing.created_by, playing.sides.get(order=1).seats.get().user
    battle_tracker_start(
        battle=battle,
        actor=hans,
        mode="full",
        time=0,
        sudden_death=3,
        initiative="axis",
        first_player="axis",
        postures={"axis": "attack", "allies": "defend"},
        surrender={"axis": 4, "allies": 4},
        readings={"retroactive_doubling": False, "tie_by_last_sole_occupant": True},
    )
    for actor, inputs in (
        (ivan, {"letter": "K", "placed": "secret", "kind": "objective", "objective": "3", "vp": 3}),
        (hans, {"letter": "Q", "placed": "secret", "kind": "elimination_doubled"}),
        (hans, {"letter": "C", "placed": "open", "kind": "all_objectives", "vp": 1}),
    ):
        battle_act(battle=battle, actor=actor, procedure="chit", inputs=inputs)
    for n in range(6):
        unit = {"unit_id": f"s{n}", "name": f"Guards Rifle Squad number {n}", "kind": "squad"}
        battle_act(battle=battle, actor=ivan, procedure="register", inputs=unit)
    tracker = BattleTracker.objects.get(battle=battle)
    now = BattleState.from_data(tracker.state)
    tracker.state = replace(
        now,
        cards={s: Cards(deck=38, discard=12) for s in now.cards},
        melee_hexes=("G5", "H6", "I7"),
    ).as_data()
    tracker.save()
    context, page = _phone(browser, live_server)
    try:
        page.goto(battle.get_absolute_url())
        tracks = page.locator("#tracks")
        for fold in tracks.locator("details").all():
            fold.locator("summary").click()
        tracks.get_by_text("chit K: Objective 3 is worth 3 VP").wait_for()
        assert "Germans: secret" in tracks.inner_text()
        assert "deck 38, discard 12" in tracks.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.goto(reverse("tracker-counters", args=[playing.pk, battle.number]))
        page.get_by_role("heading", name="Counter table").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()

"""Skirmish battle pages, continued: htmx actions answered in place, the tactical phase from
tokens, the M7, grenade projectors, the British STONK, the MG team in an assault, result
corrections with the roster undo, and 1936 weather applied to bogging."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Roster, SkirmishBattle, SkirmishEvent
from campaigns.models.rosters import SkirmishCorrection
from campaigns.services.rosters import (
    roster_create,
    roster_edit,
    roster_house_rules_set,
    roster_revert,
)
from campaigns.services.skirmish import log_event, skirmish_create, skirmish_join
from tests.web.roster_helpers import m1936_battle

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def act(client, battle, name, data, **kw):
    return client.post(reverse("skirmish-action", args=[battle.pk, name]), data, **kw)


def hx(client, battle, name, data):
    return act(client, battle, name, data, headers=HX)


def battle_of(user, other_user, ger_edits=(), other="USA/rifleman", other_edits=(), mode="simple"):
    ger = roster_create(
        owner=user, system="parabellum", name="Grenadiers", squad_type="GER/grenadier"
    )
    for soldier, field, value in ger_edits:
        ger = roster_edit(
            roster=ger, actor=user, edit={"soldier_id": soldier, "field": field, "value": value}
        )
    opp = roster_create(owner=other_user, system="parabellum", name="Easy", squad_type=other)
    for soldier, field, value in other_edits:
        opp = roster_edit(
            roster=opp,
            actor=other_user,
            edit={"soldier_id": soldier, "field": field, "value": value},
        )
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode=mode
    )
    skirmish_join(battle=battle, actor=other_user, roster=opp)
    return battle


@pytest.fixture
def simple(user, other_user):
    return battle_of(user, other_user)


SHOT = {  # EX-6.1: 3,5,6 = 14, heavy cover −2 → 12; evasion 2,3,5 = 10 → suppressed
    "turn": "1",
    "shooter": "0:rifleman-1",
    "target": "1:rifleman-3",
    "distance_cm": "30",
    "cover": "heavy",
    "dice_mode": "entered",
}


# --- htmx: the actions, state and log panels swap in place ------------------------------------


def test_htmx_shot_swaps_actions_and_updates_state_and_log_out_of_band(client, user, simple):
    client.force_login(user)
    response = hx(client, simple, "shoot", {**SHOT, "dice": "3 5 6; 2 3 5"})
    assert response.status_code == 200
    body = response.text
    assert body.lstrip().startswith('<section id="battle-actions"')
    assert '<div id="battle-state" class="battle-state" hx-swap-oob="true">' in body
    assert '<ol id="battle-log" class="log" aria-live="polite" hx-swap-oob="true">' in body
    assert "success → suppressed" in body and "Done — see the battle log." in body
    assert 'id="action-shoot" open' in body  # the form stays open for the next shot
    assert "<html" not in body


def test_htmx_bad_dice_show_the_error_in_the_partial_and_change_nothing(client, user, simple):
    client.force_login(user)
    before = SkirmishEvent.objects.filter(battle=simple).count()
    response = hx(client, simple, "shoot", {**SHOT, "dice": "14; 10"})
    assert response.status_code == 400
    assert response.text.lstrip().startswith('<section id="battle-actions"')
    assert "enter the three dice" in response.text and 'id="action-shoot" open' in response.text
    assert SkirmishEvent.objects.filter(battle=simple).count() == before
    # an action without a form (finish) shows its refusal in the messages area
    response = hx(client, simple, "finish", {})
    assert response.status_code == 400
    assert '<p class="error" role="alert">Record the positions at the end of turn 5' in (
        response.text
    )
    simple.refresh_from_db()
    assert simple.status == "playing"


def test_htmx_casualty_updates_the_state_panel(client, user, simple):
    client.force_login(user)
    response = hx(
        client, simple, "casualty", {"soldier": "1:officer", "turn": "2", "cause": "shot"}
    )
    state = response.text.split('id="battle-state"')[1].split('id="battle-log"')[0]
    assert "eliminated turn 2 (shot)" in state
    # the no-JS post still redirects
    response = act(client, simple, "casualty", {"soldier": "1:nco", "turn": "3", "cause": "shot"})
    assert response.status_code == 302


def test_htmx_answers_never_carry_the_other_sides_sealed_orders(client, user, other_user):
    battle = battle_of(user, other_user, mode="orders")
    client.force_login(user)
    act(client, battle, "orders", {"priority_order": "1", "directives": ["1", "6"]})
    client.force_login(other_user)
    for name, data in [
        ("casualty", {"soldier": "0:officer", "turn": "1", "cause": "shot"}),
        ("shoot", {**SHOT, "shooter": "1:rifleman-1", "target": "0:rifleman-3", "dice": "x"}),
        ("tactical", {"turn": "1", "blue_0": "4", "blue_1": "4"}),
    ]:
        body = hx(client, battle, name, data).text
        assert "Your sealed orders: priority 1" not in body, name
        assert 'class="sealed-orders"' not in body and "directives 1 " not in body, name
        assert "alice sealed their orders." in body  # the public fact only


def test_htmx_action_query_count_does_not_grow_with_the_log(client, user, simple):
    client.force_login(user)

    def count():
        with CaptureQueriesContext(connection) as ctx:
            hx(client, simple, "casualty", {"soldier": "1:nco", "turn": "1", "cause": "shot"})
            hx(client, simple, "casualty", {"soldier": "1:nco", "turn": "1", "remove": "on"})
        return len(ctx.captured_queries)

    count()  # warm up (session, first casualty)
    few = count()
    for i in range(60):
        log_event(simple, kind="event", summary=f"filler {i}")
    assert count() == few


# --- the tactical phase from tokens (§4.1) ----------------------------------------------------


def test_tactical_phase_from_tokens_sets_initiative_and_po(client, user, other_user, simple):
    """Both start with 10 PO. T1 4/4: tie → the attacker (alice); 2 yellow each ×1 → 12/12.
    T2 6/3: alice; alice no yellow → bob's 3 yellow ×2 = 6 → 12/18. T3 2/5: bob; 4×1 and
    1×1 → 16/19. T4 4/4: tie → last turn's holder (bob); +2/+2 → 18/21."""
    client.force_login(other_user)
    for turn, a, b in [(1, 4, 4), (2, 6, 3), (3, 2, 5), (4, 4, 4)]:
        response = hx(client, simple, "tactical", {"turn": turn, "blue_0": a, "blue_1": b})
        assert response.status_code == 200, response.text
    simple.refresh_from_db()
    assert [(t["initiative"], t["po_gained"]) for t in simple.tactical] == [
        (0, [2, 2]),
        (0, [0, 6]),
        (1, [4, 1]),
        (1, [2, 2]),
    ]
    assert [s.po for s in simple.sides.order_by("index")] == [18, 21]
    page = client.get(simple.get_absolute_url()).text
    assert "Tactical phases" in page and "PO gained or corrected" not in page
    # refused, nothing changed: twice the same turn, a skipped turn, 7 blue tokens
    for data, text in [
        ({"turn": 4, "blue_0": 3, "blue_1": 3}, "turn 4 is already recorded"),
        ({"turn": 5, "blue_0": 7, "blue_1": 3}, "less than or equal to 6"),
    ]:
        response = hx(client, simple, "tactical", data)
        assert response.status_code == 400 and text in response.text
    simple.refresh_from_db()
    assert len(simple.tactical) == 4 and [s.po for s in simple.sides.order_by("index")] == [18, 21]


def test_tactical_phase_turns_come_in_order(client, user, simple):
    client.force_login(user)
    response = hx(client, simple, "tactical", {"turn": 2, "blue_0": 4, "blue_1": 4})
    assert response.status_code == 400 and "turn 1 first" in response.text
    assert act(client, simple, "po", {"amount": "5", "reason": "x"}).status_code == 404


# --- M7, grenade projector, STONK, MG team -----------------------------------------------------


def test_m7_launcher_from_a_us_soldier_carrying_one(client, user, other_user):
    """M7 at 30 cm: deviation 2D6 3+4 = 7 cm, direction 5; rifleman-1 evades 1+2+3 = 6 < 9:
    eliminated; rifleman-2 4+4+5 = 13: suppressed (everyone caught is suppressed)."""
    battle = battle_of(user, other_user, other_edits=[("rifleman-3", "extras", "grenade_launcher")])
    client.force_login(other_user)
    shot = {
        "turn": "1",
        "thrower": "1:rifleman-3",
        "launcher": "on",
        "distance_cm": "30",
        "los_to_marker": "on",
        "targets": ["0:rifleman-1", "0:rifleman-2"],
        "dice_mode": "entered",
    }
    response = hx(client, battle, "grenade", {**shot, "distance_cm": "15", "dice": "3 4; 5"})
    assert response.status_code == 400 and "the M7 reaches 20 to 40 cm" in response.text
    response = hx(client, battle, "grenade", {**shot, "thrower": "1:rifleman-4", "dice": "3 4; 5"})
    assert response.status_code == 400 and "carries no M7" in response.text
    response = hx(client, battle, "grenade", {**shot, "dice": "3 4; 5; 1 2 3; 4 4 5"})
    assert response.status_code == 200, response.text
    event = battle.events.get(rule="10 ESTADOS UNIDOS")
    assert event.summary == (
        "Turn 1: bob's Rifleman 3 fires the M7 launcher (deviation 7 cm): "
        "alice's Rifleman 1 eliminated; alice's Rifleman 2 suppressed"
    )
    ger = battle.sides.get(index=0)
    assert ger.casualties == [{"soldier_id": "rifleman-1", "turn": 1, "cause": "grenade_launcher"}]


def test_panzerfaust_projector_hits_splashes_and_fires_once(client, user, other_user):
    """15 cm needs 9+: 3+3+4 = 10 hits. The NCO evades 11+ with 2+3+4 = 9: eliminated;
    rifleman-1 within 3 cm 5+5+6 = 16: suppressed. The Panzerfaust is single use."""
    battle = battle_of(user, other_user, ger_edits=[("rifleman-3", "extras", "panzerfaust")])
    client.force_login(user)
    shot = {
        "turn": "2",
        "firer": "0:rifleman-3",
        "distance_cm": "15",
        "target": "1:nco",
        "nearby": ["1:rifleman-1"],
        "dice_mode": "entered",
    }
    odds = client.post(reverse("skirmish-odds", args=[battle.pk, "projector"]), shot, headers=HX)
    # P(3D6 ≥ 9) = 160/216 = 74.1 %
    assert "Hit: 3D6 needs 9+" in odds.text and "74.1%" in odds.text
    response = hx(client, battle, "projector", {**shot, "firer": "0:rifleman-4", "dice": "3 3 4"})
    assert response.status_code == 400 and "carries no grenade projector" in response.text
    response = hx(client, battle, "projector", {**shot, "dice": "3 3 4; 2 3 4; 5 5 6"})
    assert response.status_code == 200, response.text
    event = battle.events.get(rule="6.6")
    assert event.summary == (
        "Turn 2: alice's Rifleman 3 fires the Panzerfaust at 15.0 cm: 10 vs 9+ → "
        "bob's NCO eliminated; bob's Rifleman 1 suppressed"
    )
    assert battle.sides.get(index=1).casualties == [
        {"soldier_id": "nco", "turn": 2, "cause": "projector"}
    ]
    response = hx(client, battle, "projector", {**shot, "target": "1:officer", "dice": "3 3 4"})
    assert response.status_code == 400 and "already fired the Panzerfaust" in response.text


def test_british_stonk_once_before_turn_1(client, user, other_user):
    """STONK: deviation 6,6,6 (a triple: none); the officer evades 9+ with 1+3+4 = 8:
    suppressed; the NCO with 2+3+4 = 9: unharmed. Never eliminated."""
    battle = battle_of(user, other_user, other="GBR/riflemen")
    client.force_login(user)
    assert "Preliminary bombardment" not in client.get(battle.get_absolute_url()).text
    response = hx(client, battle, "bombardment", {"targets": ["1:nco"], "dice_mode": "server"})
    assert response.status_code == 400 and "Only British squads" in response.text
    client.force_login(other_user)
    assert "Preliminary bombardment (STONK" in client.get(battle.get_absolute_url()).text
    data = {"targets": ["0:officer", "0:nco"], "dice_mode": "entered"}
    response = hx(client, battle, "bombardment", {**data, "dice": "6 6 6; 1 3 4; 2 3 4"})
    assert response.status_code == 200, response.text
    event = battle.events.get(rule="10 GRAN BRETAÑA")
    assert event.summary == (
        "Preliminary bombardment (STONK, radius 15 cm, deviation 0 cm): "
        "alice's Officer suppressed; alice's NCO unharmed"
    )
    assert battle.sides.get(index=0).casualties == []
    response = hx(client, battle, "bombardment", {**data, "dice": "6 6 6; 1 3 4; 2 3 4"})
    assert response.status_code == 400 and "already fired" in response.text


def test_stonk_comes_before_turn_1(client, user, other_user):
    battle = battle_of(user, other_user, other="GBR/riflemen")
    client.force_login(other_user)
    hx(client, battle, "tactical", {"turn": 1, "blue_0": 4, "blue_1": 4})
    response = hx(client, battle, "bombardment", {"targets": ["0:nco"], "dice_mode": "server"})
    assert response.status_code == 400 and "comes before turn 1" in response.text


def test_assault_on_an_mg_team(client, user, other_user, simple):
    """rifleman-1 (cautious, +2) vs the MG42 gunner with his assistant (+2): 5+5+6 + 2 = 18
    against 1+2+4 + 2 = 9 → the gunner and the assistant fall together (§8.1.3)."""
    client.force_login(other_user)
    data = {
        "turn": "2",
        "attacker": "1:rifleman-1",
        "movement": "cautious",
        "defender": "0:mg_gunner",
        "mg_assistant": "0:mg_assistant-1",
        "dice_mode": "entered",
    }
    response = hx(client, simple, "assault", {**data, "second_defender": "0:nco", "dice": "1 1 2"})
    assert response.status_code == 400 and "single assault" in response.text
    response = hx(client, simple, "assault", {**data, "defender": "0:nco", "dice": "1 1 2"})
    assert response.status_code == 400 and "nco does not hold the MG" in response.text
    response = hx(client, simple, "assault", {**data, "dice": "5 5 6; 1 2 4"})
    assert response.status_code == 200, response.text
    assert [c["soldier_id"] for c in simple.sides.get(index=0).casualties] == [
        "mg_gunner",
        "mg_assistant-1",
    ]
    event = simple.events.get(rule="6.3")
    assert any("MG gunner with assistant" in s["text"] for s in event.data["explanation"])


# --- result corrections -------------------------------------------------------------------------


@pytest.fixture
def finished(client, user, other_user):
    """Simple game (§9.1): both Take the enemy line; nobody reached the enemy half, 0 – 0 VP:
    a draw. Bob's officer fell on turn 2; his HR-1 roll 1+2+3 = 6 < 11: he dies of wounds."""
    battle = battle_of(user, other_user)
    bob_roster = Roster.objects.get(name="Easy")
    roster_house_rules_set(
        roster=bob_roster,
        actor=other_user,
        options={"casualties_carry_over": True, "recovery_target": 11},
    )
    client.force_login(user)
    act(client, battle, "casualty", {"soldier": "1:officer", "turn": "2", "cause": "shot"})
    act(client, battle, "turn", {"turn": "5", "po_0": "0", "po_1": "0"})
    act(client, battle, "finish", {})
    battle.refresh_from_db()
    client.force_login(other_user)
    act(client, battle, "apply", {"dice_mode": "entered", "dice": "1 2 3"})
    return battle


def officer_status(name="Easy"):
    roster = Roster.objects.get(name=name)
    return next(s for s in roster.data["soldiers"] if s["id"] == "officer")["status"]


def test_players_agree_on_a_correction_and_the_house_rules_are_undone(
    client, user, other_user, finished
):
    battle = finished
    assert battle.winner_index is None  # a draw
    assert officer_status() == "dead"
    client.force_login(user)
    response = hx(client, battle, "correct", {"winner": "draw", "reason": ""})
    assert response.status_code == 400 and "This field is required" in response.text
    response = hx(client, battle, "correct", {"winner": "draw", "reason": "x"})
    assert response.status_code == 400 and "already the result" in response.text
    response = hx(client, battle, "correct", {"winner": "1", "reason": "alice conceded"})
    assert response.status_code == 200
    battle.refresh_from_db()
    assert battle.winner_index is None  # only proposed
    proposal = SkirmishCorrection.objects.get(status="proposed")

    # bob edits his roster after the house rules: the undo would lose it → refused
    client.force_login(other_user)
    easy = Roster.objects.get(name="Easy")
    roster_edit(
        roster=easy,
        actor=other_user,
        edit={"soldier_id": "nco", "field": "experience", "value": "veteran"},
    )
    response = hx(client, battle, "agree", {"correction": proposal.pk})
    assert response.status_code == 400
    assert "“Easy” changed after the house rules were applied" in response.text
    battle.refresh_from_db()
    proposal.refresh_from_db()
    assert battle.winner_index is None and proposal.status == "proposed"
    assert officer_status() == "dead"

    # undoing that edit through the history makes the correction possible
    roster_revert(change=easy.changes.get(kind="edit"), actor=other_user)
    response = hx(client, battle, "agree", {"correction": proposal.pk})
    assert response.status_code == 200, response.text
    battle.refresh_from_db()
    assert battle.winner_index == 1 and battle.score["winner"] == 1
    assert officer_status() == "active"  # HR-1 death undone
    side = battle.sides.get(index=1)
    assert side.applied_at is None  # the house rules can be applied again
    log = list(battle.events.filter(kind="correction").values_list("summary", flat=True))
    assert log[-1].startswith("Result corrected: was “a draw”, now “bob wins” — alice conceded")
    assert "proposed by alice, agreed by bob" in log[-1]
    history = list(Roster.objects.get(name="Easy").changes.values_list("summary", flat=True))
    assert history[0].startswith(f"Result of {battle} corrected: now won (alice conceded)")
    assert any("the result of" in h and h.startswith("Undid change") for h in history)
    # applying twice cannot happen: the proposal is no longer pending
    response = hx(client, battle, "agree", {"correction": proposal.pk})
    assert response.status_code == 400 and "no longer pending" in response.text
    page = client.get(battle.get_absolute_url()).text
    assert "Result corrected: alice conceded" in page and "bob wins." in page


def test_organiser_corrects_alone_and_strangers_cannot(client, make_user, finished):
    battle = finished
    client.force_login(make_user("carol"))
    assert act(client, battle, "correct", {"winner": "0", "reason": "x"}).status_code == 404
    client.force_login(make_user("umpire", is_staff=True))
    response = hx(client, battle, "correct", {"winner": "0", "reason": "Umpire ruling"})
    assert response.status_code == 200, response.text
    battle.refresh_from_db()
    assert battle.winner_index == 0
    last = battle.events.order_by("-seq").first()
    assert "applied by the organiser umpire" in last.summary and last.data["undone"]
    assert officer_status() == "active"


def test_a_correction_of_an_unfinished_battle_is_refused(client, user, simple):
    client.force_login(user)
    response = act(client, simple, "correct", {"winner": "0", "reason": "x"})
    assert response.status_code == 400
    assert "Only a finished battle&#x27;s result is corrected." in response.text
    assert not SkirmishCorrection.objects.exists()
    assert SkirmishBattle.objects.get(pk=simple.pk).winner_index is None


# --- 1936: the weather decides where vehicles must check for bogging ---------------------------


@pytest.fixture
def convoy(user, other_user):
    return m1936_battle(user, other_user, ("Oficial", "Camión"), ("Oficial",))


def test_snow_makes_a_truck_check_off_road(client, user, convoy):
    """Winter 2d6 = 11 → Nevada: vehicles may bog anywhere except on roads (XV.2).
    The Camión on open ground must check; R = −2 bogs it down; on the road, no check."""
    client.force_login(user)
    response = hx(client, convoy, "bog", {"unit": "1", "ground": "campo abierto"})
    assert response.status_code == 400  # no weather yet: the form is not even offered
    act(client, convoy, "weather", {"season": "Invierno", "dice_mode": "entered", "dice": "11"})
    page = client.get(convoy.get_absolute_url()).text
    assert "Bog checks due in Nevada weather" in page
    row = page.split('<th scope="row">2. Camión')[1].split("</tr>")[0]
    assert row.count("check") == 3  # town, open ground and woods; not the road
    response = hx(client, convoy, "bog", {"unit": "1", "ground": "campo abierto"})
    assert response.status_code == 400
    assert "A bog check is due (Nevada: vehicles may bog anywhere except on roads)" in (
        response.text
    )
    response = hx(client, convoy, "bog", {"unit": "1", "ground": "carretera", "value": "-2"})
    assert response.status_code == 400 and "No bog check is due here" in response.text
    assert hx(client, convoy, "bog", {"unit": "1", "ground": "carretera"}).status_code == 200
    response = hx(client, convoy, "bog", {"unit": "1", "ground": "campo abierto", "value": "-2"})
    assert response.status_code == 200
    summaries = list(convoy.events.filter(rule="M36-IV.7").values_list("summary", flat=True))
    assert summaries == [
        "2. Camión moves over carretera (Nevada): no bog check",
        "2. Camión moves over campo abierto (Nevada): bog check R = -2 → bogged down",
    ]
    response = hx(client, convoy, "bog", {"unit": "9", "ground": "bosque", "value": "1"})
    assert response.status_code == 400 and "Select a valid choice" in response.text


def test_api_tactical_phase_and_corrections(client, user, other_user, finished):
    simple = battle_of(user, other_user)
    client.force_login(other_user)
    url = f"/api/v1/skirmishes/{simple.pk}/actions/tactical/"
    bad = client.post(url, {"turn": 1, "blue": [4]}, content_type="application/json")
    assert bad.status_code == 400 and "blue" in bad.json()
    ok = client.post(url, {"turn": 1, "blue": [4, 4]}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["tactical"][0]["initiative"] == 0
    url = f"/api/v1/skirmishes/{finished.pk}/actions/correct/"
    bad = client.post(url, {"winner": 2, "reason": "x"}, content_type="application/json")
    assert bad.status_code == 400 and "winner" in bad.json()
    bad = client.post(url, {"winner": 0, "reason": " "}, content_type="application/json")
    assert bad.status_code == 400 and "reason" in bad.json()
    ok = client.post(url, {"winner": 0, "reason": "bob concedes"}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["status"] == "finished"
    proposal = SkirmishCorrection.objects.get(status="proposed")
    client.force_login(user)
    url = f"/api/v1/skirmishes/{finished.pk}/actions/agree/"
    ok = client.post(url, {"correction": proposal.pk}, content_type="application/json")
    assert ok.status_code == 200
    finished.refresh_from_db()
    assert finished.winner_index == 0

"""Skirmish battles: Parabellum sealed orders, shooting with entered dice, VP and winner,
house rules applied after the battle; the 1936 scenario sheet, weather and construction."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Roster, SealedOrders, SkirmishBattle
from campaigns.services.rosters import roster_create, roster_house_rules_set
from campaigns.services.skirmish import skirmish_create, skirmish_join
from tests.web.roster_helpers import m1936_battle

pytestmark = pytest.mark.django_db


def act(client, battle, name, data, **kw):
    return client.post(reverse("skirmish-action", args=[battle.pk, name]), data, **kw)


@pytest.fixture
def squads(user, other_user):
    ger = roster_create(
        owner=user, system="parabellum", name="Grenadiers", squad_type="GER/grenadier"
    )
    usa = roster_create(
        owner=other_user, system="parabellum", name="Easy", squad_type="USA/rifleman"
    )
    roster_house_rules_set(
        roster=usa, actor=other_user, options={"casualties_carry_over": True, "recovery_target": 11}
    )
    return ger, usa


@pytest.fixture
def orders_battle(client, user, other_user, squads):
    ger, usa = squads
    client.force_login(user)
    response = client.post(
        reverse("skirmish-new"),
        {
            "roster": ger.pk,
            "role": "attacker",
            "mode": "orders",
            "opponent": "bob",
            "title": "Vernon",
        },
    )
    battle = SkirmishBattle.objects.get(title="Vernon")
    assert response.status_code == 302 and battle.status == "setup"
    client.force_login(other_user)
    assert act(client, battle, "join", {"roster": usa.pk}).status_code == 302
    battle.refresh_from_db()
    assert battle.status == "playing"
    return battle


def test_opponent_must_field_a_valid_roster_of_the_same_game(user, other_user, squads):
    ger, _usa = squads
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode="simple"
    )
    lists = roster_create(
        owner=other_user,
        system="m1936",
        name="L",
        faction="Republicanos",
        role="Defensor",
        quality="Regulares",
        size="Pequeña",
    )
    with pytest.raises(ValidationError) as err:
        skirmish_join(battle=battle, actor=other_user, roster=lists)
    assert "roster" in err.value.message_dict
    battle.refresh_from_db()
    assert battle.status == "setup"


def test_9_2_a_priority_card_typed_twice_is_redrawn_for_both_without_telling_which(
    client, user, other_user, orders_battle
):
    """Refusing the second player's card would tell him the first player's: both sealed
    cards are redrawn by the server instead, each player reading only his own."""
    battle = orders_battle
    client.force_login(user)
    act(client, battle, "orders", {"priority_order": "1", "directives": ["1", "6"]})
    client.force_login(other_user)
    response = act(client, battle, "orders", {"priority_order": "1", "directives": ["3", "4"]})
    assert response.status_code == 302
    cards = dict(
        SealedOrders.objects.filter(side__battle=battle).values_list(
            "side__index", "priority_order"
        )
    )
    assert sorted(cards) == [0, 1] and cards[0] != cards[1]
    assert set(cards.values()) <= {1, 2, 3}
    public = battle.events.filter(private_to=None, rule="9.2").last()
    assert "typed twice" in public.summary and not any(ch.isdigit() for ch in public.summary)
    for index, player in ((0, user), (1, other_user)):
        client.force_login(player)
        body = client.get(f"/api/v1/skirmishes/{battle.pk}/log/").text
        mine = f"redrawn by the server: {cards[index]} "
        theirs = f"redrawn by the server: {cards[1 - index]} "
        assert mine in body and theirs not in body


def test_sealed_orders_stay_private_until_the_end_then_are_revealed_together(
    client, user, other_user, orders_battle
):
    battle = orders_battle
    client.force_login(user)
    act(client, battle, "orders", {"priority_order": "1", "directives": ["1", "6"]})
    mine = client.get(battle.get_absolute_url()).text
    assert "Your sealed orders: priority 1" in mine
    client.force_login(other_user)
    secret = "Your sealed orders: priority 1"
    for url, headers in [
        (battle.get_absolute_url(), {}),
        (battle.get_absolute_url() + "?partial=log", {"HX-Request": "true"}),
        (f"/api/v1/skirmishes/{battle.pk}/", {}),
        (f"/api/v1/skirmishes/{battle.pk}/log/", {}),
    ]:
        body = client.get(url, headers=headers).text
        assert secret not in body and "Tomar la línea enemiga; " not in body, url
    api = client.get(f"/api/v1/skirmishes/{battle.pk}/").json()
    assert api["orders"] == [] and api["sealed"] == {"0": True, "1": False}
    assert "sealed their orders" in client.get(battle.get_absolute_url()).text
    act(client, battle, "orders", {"priority_order": "2", "directives": ["3", "4"]})
    # still sealed while the battle goes on
    assert client.get(f"/api/v1/skirmishes/{battle.pk}/").json()["orders"][0]["side"] == 1

    # EX-6.1: shot 3,5,6 = 14, heavy cover −2 → 12; evasion 2,3,5 = 10 → difference 2: suppressed
    client.force_login(user)
    shot = {
        "turn": "1",
        "shooter": "0:rifleman-1",
        "target": "1:rifleman-3",
        "distance_cm": "30",
        "cover": "heavy",
        "dice_mode": "entered",
    }
    response = act(client, battle, "shoot", {**shot, "dice": "14; 10"})
    assert response.status_code == 400 and "enter the three dice" in response.text
    odds = client.post(
        reverse("skirmish-odds", args=[battle.pk, "shoot"]), shot, headers={"HX-Request": "true"}
    )
    assert "Shot succeeds (11+ or a triple)" in odds.text and "%" in odds.text
    act(client, battle, "shoot", {**shot, "dice": "3 5 6; 2 3 5"})
    event = battle.events.filter(rule="6.1").get()
    assert event.summary.endswith("success → suppressed")
    assert [r["faces"] for r in event.data["rolls"]] == [[3, 5, 6], [2, 3, 5]]

    # bob's officer falls on turn 2; end positions on turn 5
    act(client, battle, "casualty", {"soldier": "1:officer", "turn": "2", "cause": "shot"})
    act(
        client,
        battle,
        "turn",
        {
            "turn": "5",
            "po_0": "3",
            "po_1": "0",
            "m_0__rifleman-1": ["wholly_in_enemy_deployment"],
            "m_0__rifleman-2": ["wholly_in_enemy_half"],
            "m_1__nco": ["near_centre_line"],
        },
    )
    act(client, battle, "finish", {})
    battle.refresh_from_db()
    # alice: Take the enemy line 2 + 1 = 3; directive 1 (0 lost ≤ 4) 3; directive 6 (3 PO) 3/2
    # bob: Defend the position +1 − 1 = 0; directive 3 (none killed) −1; directive 4 −1
    assert [s["total"] for s in battle.score["sides"]] == ["15/2", "-2"]
    assert battle.winner_index == 0 and battle.status == "finished"
    client.force_login(other_user)
    page = client.get(battle.get_absolute_url()).text
    assert "Sealed orders revealed together" in page and "alice wins." in page
    assert len(client.get(f"/api/v1/skirmishes/{battle.pk}/").json()["orders"]) == 2

    # house rules after the battle: bob's HR-1 recovery roll 1,2,3 = 6 < 11 → the officer dies
    response = act(client, battle, "apply", {"dice_mode": "entered", "dice": "1 2 3"})
    assert response.status_code == 302
    usa = Roster.objects.get(name="Easy")
    officer = next(s for s in usa.data["soldiers"] if s["id"] == "officer")
    assert officer["status"] == "dead"
    change = usa.changes.get(kind="post_battle")
    assert change.battle == battle and "Officer dies of wounds (6 < 11)" in change.summary
    assert change.before["data"]["soldiers"][0]["status"] == "active"
    assert act(client, battle, "apply", {"dice_mode": "server"}).status_code == 400
    history = client.get(reverse("roster-history", args=[usa.pk])).text
    assert "Fought Vernon as the defender: lost" in history and "dies of wounds" in history


def test_finishing_needs_both_orders_and_positions(client, user, orders_battle):
    client.force_login(user)
    act(client, orders_battle, "finish", {})
    orders_battle.refresh_from_db()
    assert orders_battle.status == "playing"


def test_reinforcement_ledger_refuses_artillery_twice_in_a_row(client, user, other_user, squads):
    ger, usa = squads
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode="simple"
    )
    skirmish_join(battle=battle, actor=other_user, roster=usa)
    client.force_login(user)
    call = {
        "turn": "1",
        "kind": "artillery",
        "po": "1",
        "targets": ["1:nco"],
        "dice_mode": "entered",
    }
    # deviation 4,4,4 (D-6 triple: no deviation), then the NCO evades 9+ with 5,5,6 → suppressed
    assert act(client, battle, "support", {**call, "dice": "4 4 4; 5 5 6"}).status_code == 302
    side = battle.sides.get(index=0)
    assert side.po == 10 - 1 and side.calls == [{"turn": 1, "kind": "artillery", "po": 1}]
    response = act(client, battle, "support", {**call, "turn": "2", "dice": "4 4 4; 5 5 6"})
    assert response.status_code == 400 and "not again on turn 2" in response.text  # D-12
    assert battle.sides.get(index=0).po == 9


@pytest.fixture
def m36_battle(user, other_user):
    return m1936_battle(user, other_user, ("Oficial",))


def test_1936_scenario_sheet_weather_and_construction(client, user, other_user, m36_battle):
    battle = m36_battle
    client.force_login(user)
    # T30: Llanura, rolls 4, 2, 2, 5 → Campo B and Pueblo tie; the attacker orders them
    act(
        client,
        battle,
        "scenario",
        {"terrain": "Llanura", "dice_mode": "entered", "dice": "4;2;2;5"},
    )
    battle.refresh_from_db()
    assert battle.scenario["pending"]["chooser"] == "Atacante"
    act(client, battle, "tie", {"order": "Sector de Pueblo|Sector de Campo B"})
    page = client.get(battle.get_absolute_url()).text
    assert "Scenario sheet" in page and "Village sector" in page and "Sector de Pueblo" not in page
    battle.refresh_from_db()
    assert battle.scenario["sectors"] == {
        "1": "Sector de Pueblo",
        "2": "Sector de Campo B",
        "3": "Sector de Campo A",
        "4": "Sector de Río",
    }
    # XV.1 summer 8 → Soleado; XV.4 turn 10: 10 changes, re-roll 12 → Vendaval
    act(client, battle, "weather", {"season": "Verano", "dice_mode": "entered", "dice": "8"})
    response = act(
        client, battle, "weather_change", {"turn": "7", "dice_mode": "entered", "dice": "10"}
    )
    assert response.status_code == 400 and "every 10 turns" in response.text
    act(client, battle, "weather_change", {"turn": "10", "dice_mode": "entered", "dice": "10; 12"})
    battle.refresh_from_db()
    assert battle.weather["current"]["weather"] == "Vendaval"
    assert battle.weather["changes"] == [
        {"turn": 10, "roll": 10, "changed": True, "weather": "Vendaval"}
    ]
    # performance roll: entered, never rolled
    response = act(client, battle, "performance", {"purpose": "assault", "value": "x"})
    assert response.status_code == 400
    act(client, battle, "performance", {"purpose": "assault", "value": "4"})
    assert battle.events.filter(summary__contains="R = 4 (entered)").exists()
    # construction: the attacker cannot; the defender gets 16 (Zapadores' tools) + 4 (shovels)
    # + 4 per day of waiting
    assert act(client, battle, "construction", {"waiting_days": "1"}).status_code == 400
    client.force_login(other_user)
    act(client, battle, "construction", {"waiting_days": "1"})
    act(client, battle, "fortify", {"kind": "Búnker", "count": "1"})
    act(client, battle, "fortify", {"kind": "Trinchera", "count": "2"})
    response = act(client, battle, "fortify", {"kind": "Blocao", "count": "1"})
    assert response.status_code == 400 and "only 4 left" in response.text
    battle.refresh_from_db()
    assert [e["amount"] for e in battle.construction["entries"]] == [16, 4, 4, -12, -8]
    # battalion morale XI.7: 2 of 3 out breaks the side
    act(client, battle, "morale", {"u0": "Destroyed", "u1": "Panicked", "u2": "Normal"})
    assert battle.events.filter(summary__contains="the side breaks").exists()


def test_1936_costa_needs_a_valid_user_table(client, user, m36_battle):
    client.force_login(user)
    response = act(
        client,
        m36_battle,
        "scenario",
        {
            "terrain": "Costa",
            "dice_mode": "server",
            "user_table": '[{"sector": "Playa", "element": "Muro", "min": 3, "max": 1}]',
        },
    )
    assert response.status_code == 400 and "min must not exceed max" in response.text
    m36_battle.refresh_from_db()
    assert m36_battle.scenario == {}


def test_1936_carry_over_is_off_by_default(client, user, other_user, m36_battle):
    client.force_login(user)
    act(client, m36_battle, "m36finish", {"winner": "0"})
    act(client, m36_battle, "conditions", {"c0": "2", "d0": "on"})
    roster = Roster.objects.get(name="Columna")
    assert roster.condition == {}  # no house rule on: the unit starts the next battle as bought
    change = roster.changes.get(kind="post_battle")
    assert change.battle == m36_battle
    assert any("casualties reset" in s["text"] for s in change.explanation)


def test_battle_page_is_private_to_its_players(client, make_user, orders_battle):
    client.force_login(make_user("carol"))
    assert client.get(orders_battle.get_absolute_url()).status_code == 404
    assert client.get(f"/api/v1/skirmishes/{orders_battle.pk}/").status_code == 404

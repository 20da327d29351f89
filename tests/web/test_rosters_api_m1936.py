"""The REST API for 1936 battles: the same forms, services and permissions as the battle page
(scenario, weather, construction, morale, performance, bogging, result), a 400 naming the
field on bad input with nothing changed, and the performance result always entered."""

import pytest

from campaigns.models import Roster, SkirmishBattle, SkirmishEvent
from campaigns.views.rosters.battle_actions import ACTIONS, M1936_ACTIONS
from tests.web.roster_helpers import m1936_battle

pytestmark = pytest.mark.django_db


def act(client, battle, name, data=None):
    return client.post(
        f"/api/v1/skirmishes/{battle.pk}/actions/{name}/",
        data or {},
        content_type="application/json",
    )


def snapshot(battle) -> tuple:
    """Everything an action could change: the battle's sheets and status, and the log."""
    battle = SkirmishBattle.objects.get(pk=battle.pk)
    return (
        battle.status,
        battle.winner_index,
        battle.scenario,
        battle.weather,
        battle.construction,
        SkirmishEvent.objects.filter(battle=battle).count(),
    )


@pytest.fixture
def battle(user, other_user):
    """alice attacks with Nacionales (an Oficial and a Camión); bob defends with Republicanos
    (Zapadores, line infantry, an Oficial)."""
    return m1936_battle(user, other_user, ("Oficial", "Camión"))


def test_a_1936_battle_driven_through_the_api(client, user, other_user, battle):
    client.force_login(user)
    # I.4 Llanura, entered 4, 2, 2, 5: Campo B and Pueblo tie on 2; the attacker orders them
    response = act(
        client,
        battle,
        "scenario",
        {"terrain": "Llanura", "dice_mode": "entered", "dice": "4;2;2;5"},
    )
    assert response.status_code == 200, response.json()
    assert response.json()["scenario"]["pending"]["chooser"] == "Atacante"
    response = act(client, battle, "tie", {"order": "Sector de Pueblo|Sector de Campo B"})
    assert response.status_code == 200
    assert response.json()["scenario"]["sectors"] == {
        "1": "Sector de Pueblo",
        "2": "Sector de Campo B",
        "3": "Sector de Campo A",
        "4": "Sector de Río",
    }
    # XV.1 winter, 2d6 entered 11 → Nevada
    response = act(
        client, battle, "weather", {"season": "Invierno", "dice_mode": "entered", "dice": "11"}
    )
    assert response.status_code == 200
    assert response.json()["weather"]["current"]["weather"] == "Nevada"
    assert response.json()["weather"]["season"] == "Invierno"
    # XV.4 turn 10: 2d6 = 10 changes the weather; the winter re-roll 7 → Lluvia
    response = act(
        client, battle, "weather_change", {"turn": 10, "dice_mode": "entered", "dice": "10; 7"}
    )
    assert response.status_code == 200
    assert response.json()["weather"]["current"]["weather"] == "Lluvia"
    assert response.json()["weather"]["changes"] == [
        {"turn": 10, "roll": 10, "changed": True, "weather": "Lluvia"}
    ]

    # VIII.5: the defender counts 16 (the Zapadores' tools) + 4 (shovels) + 4 for one day
    client.force_login(other_user)
    response = act(client, battle, "construction", {"waiting_days": 1})
    assert response.status_code == 200
    assert [e["amount"] for e in response.json()["construction"]["entries"]] == [16, 4, 4]
    assert act(client, battle, "fortify", {"kind": "Búnker", "count": 1}).status_code == 200
    response = act(client, battle, "fortify", {"kind": "Trinchera", "count": 2})
    assert response.status_code == 200
    assert [e["amount"] for e in response.json()["construction"]["entries"]] == [
        16,
        4,
        4,
        -12,
        -8,
    ]
    before = snapshot(battle)
    response = act(client, battle, "fortify", {"kind": "Blocao", "count": 1})
    assert response.status_code == 400 and "only 4 left" in str(response.json()["kind"])
    assert snapshot(battle) == before

    # XI.7: 2 of the defender's 3 units out (1 destroyed, 1 panicked) break the side
    response = act(client, battle, "morale", {"u0": "Destroyed", "u1": "Panicked", "u2": "Normal"})
    assert response.status_code == 200
    event = battle.events.get(rule="M36-XI.7")
    assert event.actor == other_user and event.data["broken"] is True
    assert "1 destroyed, 1 panicked of 3" in event.summary and "breaks" in event.summary

    # V: the performance result is entered; a request to roll it is refused
    before = snapshot(battle)
    response = act(client, battle, "performance", {"purpose": "assault", "dice_mode": "server"})
    assert response.status_code == 400 and "value" in response.json()
    assert snapshot(battle) == before
    response = act(client, battle, "performance", {"purpose": "assault", "value": 4})
    assert response.status_code == 200
    event = battle.events.get(rule="M36-V")
    assert event.summary == "Performance roll for assault: R = 4 (entered)"
    assert event.actor == other_user

    # IV.7 in the rain: alice's Camión on the road needs no check; the weather stays rolled
    client.force_login(user)
    response = act(client, battle, "weather", {"season": "Verano", "dice": "8"})
    assert response.status_code == 400 and "season" in response.json()
    response = act(client, battle, "bog", {"unit": 1, "ground": "carretera"})
    assert response.status_code == 200
    event = battle.events.get(rule="M36-IV.7")
    assert event.summary == "2. Camión moves over carretera (Lluvia): no bog check"
    assert event.data["bogged"] is False

    # the result: a draw on the page's form (a side's index or "draw")
    response = act(client, battle, "m36finish", {"winner": "draw"})
    assert response.status_code == 200
    assert response.json()["status"] == "finished" and response.json()["winner_index"] is None
    log = client.get(f"/api/v1/skirmishes/{battle.pk}/log/").json()
    assert any(e["summary"] == "Battle over: a draw." for e in log["results"])
    assert act(client, battle, "performance", {"purpose": "x", "value": 1}).status_code == 400
    # after the battle, each player's units' conditions go back to their roster
    response = act(client, battle, "conditions", {"c0": "many"})
    assert response.status_code == 400 and "c0" in response.json()
    response = act(client, battle, "conditions", {"c0": 2, "d0": True, "c1": 0})
    assert response.status_code == 200
    change = Roster.objects.get(name="Columna").changes.get(kind="post_battle")
    assert change.battle_id == battle.pk and change.actor == user


def test_every_1936_action_of_the_api_is_in_the_pages_table():
    assert set(M1936_ACTIONS) <= set(ACTIONS)


def test_bogging_in_snow_needs_an_entered_result(client, user, battle):
    """Winter 2d6 = 11 → Nevada: a vehicle off the road must check (XV.2); R = −2 bogs it
    down (IV.7); an R where no check is due is refused."""
    client.force_login(user)
    before = snapshot(battle)
    response = act(client, battle, "bog", {"unit": 1, "ground": "campo abierto", "value": -2})
    assert response.status_code == 400 and "ground" in response.json()  # no weather yet
    assert snapshot(battle) == before
    act(client, battle, "weather", {"season": "Invierno", "dice_mode": "entered", "dice": "11"})
    before = snapshot(battle)
    response = act(client, battle, "bog", {"unit": 1, "ground": "campo abierto"})
    assert response.status_code == 400
    assert "A bog check is due (Nevada" in response.json()["value"][0]
    response = act(client, battle, "bog", {"unit": 1, "ground": "carretera", "value": -2})
    assert response.status_code == 400 and "No bog check is due" in response.json()["value"][0]
    response = act(client, battle, "bog", {"unit": 9, "ground": "bosque", "value": 1})
    assert response.status_code == 400 and "unit" in response.json()
    response = act(client, battle, "bog", {"unit": 1, "ground": "pantano", "value": 1})
    assert response.status_code == 400 and "ground" in response.json()
    assert snapshot(battle) == before
    response = act(client, battle, "bog", {"unit": 1, "ground": "campo abierto", "value": -2})
    assert response.status_code == 200
    event = battle.events.get(rule="M36-IV.7")
    assert event.summary == (
        "2. Camión moves over campo abierto (Nevada): bog check R = -2 → bogged down"
    )
    assert event.data["bogged"] is True
    act(client, battle, "bog", {"unit": 1, "ground": "bosque", "value": -1})
    assert battle.events.filter(rule="M36-IV.7").last().data["bogged"] is False


def test_strangers_and_the_opponent_cannot_act(client, user, other_user, make_user, battle):
    before = snapshot(battle)
    # anonymous: refused by the API's authentication
    response = act(client, battle, "performance", {"purpose": "x", "value": 1})
    assert response.status_code in (401, 403)
    # a stranger does not see the battle at all
    client.force_login(make_user("carol"))
    for name in ("scenario", "weather", "construction", "performance", "m36finish"):
        response = act(client, battle, name, {"terrain": "Llanura", "winner": "0", "value": 1})
        assert response.status_code == 404, name
    assert client.get(f"/api/v1/skirmishes/{battle.pk}/").status_code == 404
    assert snapshot(battle) == before

    # the attacker cannot spend the defender's construction points…
    client.force_login(user)
    response = act(client, battle, "construction", {"waiting_days": 3})
    assert response.status_code == 400
    assert "Construction points belong to the defender." in str(response.json())
    assert act(client, battle, "objectives").status_code == 400  # …nor place its objectives
    # …and a morale check is always for the actor's own army: two states for alice's two
    # units, three would be bob's
    response = act(client, battle, "morale", {"u0": "Normal", "u1": "Normal", "u2": "Destroyed"})
    assert response.status_code == 200
    event = battle.events.get(rule="M36-XI.7")
    assert event.actor == user and "0 destroyed, 0 panicked of 2" in event.summary
    # …nor bog bob's units: unit 2 is not one of alice's
    act(client, battle, "weather", {"season": "Invierno", "dice_mode": "entered", "dice": "11"})
    response = act(client, battle, "bog", {"unit": 2, "ground": "campo abierto", "value": 0})
    assert response.status_code == 400 and "unit" in response.json()
    # a Parabellum-only action, or a name the table does not have
    assert act(client, battle, "finish").status_code == 400
    assert act(client, battle, "nonsense").status_code == 404


def test_bad_input_names_the_field_and_changes_nothing(client, user, other_user, battle):
    client.force_login(user)
    cases = [
        ("scenario", {"terrain": "Luna", "dice_mode": "server"}, "terrain"),
        ("scenario", {"terrain": "Llanura", "dice_mode": "maybe"}, "dice_mode"),
        ("scenario", {"terrain": "Llanura", "dice_mode": "entered", "dice": "4;2"}, "dice"),
        (
            "scenario",
            {
                "terrain": "Costa",
                "dice_mode": "server",
                "user_table": [{"sector": "Playa", "element": "Muro", "min": 3, "max": 1}],
            },
            "user_table",
        ),
        ("weather", {"season": "Monzón", "dice_mode": "server"}, "season"),
        ("weather", {"dice_mode": "server"}, "season"),
        ("performance", {"purpose": "assault", "value": "x"}, "value"),
        ("performance", {"purpose": "assault", "value": 2.5}, "value"),
        ("performance", {"purpose": " ", "value": 3}, "purpose"),
        ("morale", {"u0": "Normal"}, "u1"),
        ("morale", {"u0": "Normal", "u1": "Asleep"}, "u1"),
        ("m36finish", {"winner": 7}, "winner"),
        ("m36finish", {}, "winner"),
        ("plan", {"sector": 9}, "sector"),
    ]
    before = snapshot(battle)
    for name, body, field in cases:
        response = act(client, battle, name, body)
        assert response.status_code == 400, (name, body, response.content)
        assert field in response.json(), (name, body, response.json())
        assert snapshot(battle) == before, (name, body)
    client.force_login(other_user)
    for name, body, field in [
        ("construction", {"waiting_days": -1}, "waiting_days"),
        ("construction", {"waiting_days": "many"}, "waiting_days"),
        ("fortify", {"kind": "Búnker", "count": 1}, "kind"),  # the pool is not counted yet
    ]:
        response = act(client, battle, name, body)
        assert response.status_code == 400 and field in response.json(), (name, body)
    assert snapshot(battle) == before
    assert act(client, battle, "construction", {"waiting_days": 0}).status_code == 200
    for name, body, field in [
        ("fortify", {"kind": "Castillo", "count": 1}, "kind"),
        ("fortify", {"kind": "Búnker", "count": 0}, "count"),
        ("construction", {"waiting_days": 2}, "waiting_days"),  # already counted
    ]:
        before = snapshot(battle)
        response = act(client, battle, name, body)
        assert response.status_code == 400 and field in response.json(), (name, body)
        assert snapshot(battle) == before
    assert Roster.objects.get(name="Brigada").condition == {}

"""A whole small "1936" battle through HTTP only, with entered dice: the armies built, the
battle opened and joined, set-up, initiative, fire,
an assault, the end of turn, a side breaks (XI.7), the result and the post-battle change."""

import pytest

from campaigns.models import Roster, SkirmishBattle
from tests.web.m36_play_helpers import ATTACKER, DEFENDER, act, fire, set_up, units

pytestmark = pytest.mark.django_db


def ok(response):
    assert response.status_code == 200, response.json()
    return response.json()


def _army(client, name, faction, role, units_):
    """A "1936" list built through the API: created, then each unit added."""
    body = {
        "system": "m1936",
        "name": name,
        "faction": faction,
        "role": role,
        "quality": "Regulares",
        "size": "Pequeña",
    }
    created = client.post("/api/v1/rosters/", body, content_type="application/json")
    assert created.status_code == 201, created.json()
    roster = created.json()["id"]
    for profile in units_:
        added = client.post(
            f"/api/v1/rosters/{roster}/edit/",
            {"op": "add_unit", "profile": profile},
            content_type="application/json",
        )
        assert added.status_code == 200, added.json()
    return roster


def test_api_m36_whole_battle(client, user, other_user):
    client.force_login(user)
    nat = _army(client, "Columna", "Nacionales", "Atacante", ATTACKER)
    body = {"roster": nat, "role": "attacker", "opponent": other_user.username, "title": "Teruel"}
    created = client.post("/api/v1/skirmishes/", body, content_type="application/json")
    assert created.status_code == 201, created.json()
    battle = SkirmishBattle.objects.get(pk=created.json()["id"])
    client.force_login(other_user)
    rep = _army(client, "Brigada", "Republicanos", "Defensor", DEFENDER)
    ok(act(client, battle, "join", {"roster": rep}))
    set_up(client, battle, user, other_user)
    client.force_login(user)
    # VI.1: 9 against 9, entered 1d10 each: 3 and 8, bob resolves first
    ok(
        act(
            client,
            battle,
            "m36initiative",
            {"total_a": 9, "total_b": 9, "dice_mode": "entered", "dice": "3; 8"},
        )
    )
    # attack phase: alice's section shoots bob's Oficial (1 casualty point): destroyed
    ok(fire(client, battle, firer="0", target="2", performance=0))
    # the Panzer I's LMG, R 6 at the section: FA 9, 1 casualty, panics (+1 casualty)
    ok(fire(client, battle, firer="2", target="0", bases=1, performance=6))
    bob = units(battle, 1)
    assert (bob["2"]["state"], bob["0"]["state"]) == ("Destroyed", "Panicked")
    ok(act(client, battle, "m36phase"))  # defence phase
    client.force_login(other_user)
    # bob's Zapadores assault alice's section, R 0 each, 2 bases against 2
    assault = {
        "unit": "3",
        "target": "0",
        "bases": 2,
        "target_bases": 2,
        "performance": 0,
        "target_performance": 0,
        "in_command": True,
    }
    ok(act(client, battle, "m36assault", assault))
    assert units(battle, 0)["0"]["state"] == "Pinned"
    assert units(battle, 1)["3"]["casualties"] == 2
    ok(act(client, battle, "m36phase"))  # end of turn
    ok(act(client, battle, "m36recover", {}))
    client.force_login(user)
    ok(act(client, battle, "m36recover", {"leader_in_range": ["0"]}))
    ok(act(client, battle, "m36phase"))
    b = SkirmishBattle.objects.get(pk=battle.pk)
    assert (b.play["turn"], b.play["phase"], b.play.get("broken")) == (2, "attack", None)
    ok(
        act(
            client,
            battle,
            "m36initiative",
            {"total_a": 10, "total_b": 9, "dice_mode": "entered", "dice": ""},
        )
    )
    # turn 2: the Panzer finishes the Zapadores (its last casualty point)
    ok(fire(client, battle, firer="2", target="3", bases=1, performance=6))
    assert units(battle, 1)["3"]["state"] == "Destroyed"
    b = SkirmishBattle.objects.get(pk=battle.pk)
    assert b.play["broken"] == 1  # 3 of 4 units out: more than half (XI.7)
    log = client.get(f"/api/v1/skirmishes/{battle.pk}/log/").json()["results"]
    assert any("battalion breaks" in e["summary"] for e in log)
    r = fire(client, battle, firer="0", target="1")
    assert r.status_code == 400 and "battle is over" in str(r.json())
    assert act(client, battle, "m36phase").status_code == 400
    # the result and the roster's post-battle conditions
    finished = ok(act(client, battle, "m36finish", {"winner": "0"}))
    assert (finished["status"], finished["winner_index"]) == ("finished", 0)
    mine = units(battle, 0)
    conditions = {f"c{i}": mine[str(i)].get("casualties", 0) for i in range(4)}
    assert conditions == {"c0": 2, "c1": 0, "c2": 0, "c3": 0}
    ok(act(client, battle, "conditions", conditions))
    change = Roster.objects.get(name="Columna").changes.get(kind="post_battle")
    assert change.battle_id == battle.pk and change.actor == user

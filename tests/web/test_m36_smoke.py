"""Smoke on a "1936" table (XIV.7): a bombardment's template smokes (1 turn to disperse, 2
to dissipate, VII.7), a destroyed vehicle burns (permanent), smoke bombs are placed by hand
(4 / 5 turns); the end of each turn ages the clouds, and the top of the page lists them."""

import pytest

from campaigns.models import SkirmishBattle, SkirmishEvent
from tests.web.m36_play_helpers import act, fire, new_battle, set_up
from tests.web.test_api_m36_battle import bombard

pytestmark = pytest.mark.django_db


def _smoke(battle):
    return SkirmishBattle.objects.get(pk=battle.pk).play.get("smoke", [])


def _end_turn(client, battle, alice, bob):
    """Attack → defence → end of turn → both recover → next turn."""
    client.force_login(alice)
    assert act(client, battle, "m36phase").status_code == 200
    assert act(client, battle, "m36phase").status_code == 200
    assert act(client, battle, "m36recover").status_code == 200
    client.force_login(bob)
    assert act(client, battle, "m36recover").status_code == 200
    assert act(client, battle, "m36phase").status_code == 200


def test_XIV_7_bombardment_smoke_disperses_then_goes(client, user, other_user):
    battle = new_battle(user, other_user)
    set_up(client, battle, user, other_user)
    client.force_login(user)
    assert bombard(client, battle).status_code == 200
    [cloud] = _smoke(battle)
    assert (cloud["origin"], cloud["disperse"], cloud["dissipate"]) == (
        "Bombardeo convencional",
        1,
        2,
    )
    state = client.get(f"/api/v1/skirmishes/{battle.pk}/state/").json()
    assert any("Smoke 1 (bombardment" in line for line in state["now"])
    _end_turn(client, battle, user, other_user)
    [cloud] = _smoke(battle)
    assert (cloud["disperse"], cloud["dissipate"]) == (0, 1)
    said = SkirmishEvent.objects.filter(battle=battle, rule="M36-XIV.7")
    assert said.filter(summary__contains="disperses").exists()
    _end_turn(client, battle, user, other_user)
    assert _smoke(battle) == []
    assert said.filter(summary__contains="is gone").exists()


def test_XIV_7_1_a_destroyed_vehicle_burns_for_good(client, user, other_user):
    """T9: the T-26 B's AP at R +2 destroys the Panzer I; its smoke never goes by itself."""
    battle = new_battle(user, other_user)
    set_up(client, battle, user, other_user)
    client.force_login(other_user)
    body = {"firer": "1", "target": "2", "band": "media", "performance": 2, "reaction": True}
    assert fire(client, battle, **body, dice_mode="entered", dice="").status_code == 200
    [cloud] = _smoke(battle)
    assert (cloud["origin"], cloud["dissipate"]) == ("Vehículo ardiendo", None)
    _end_turn(client, battle, user, other_user)
    assert len(_smoke(battle)) == 1


def test_smoke_bombs_by_hand_and_cleared_with_a_trace(client, user, other_user):
    battle = new_battle(user, other_user)
    set_up(client, battle, user, other_user)
    client.force_login(user)
    bad = act(client, battle, "m36smoke", {"origin": "Bombardeo de humo", "where": ""})
    assert bad.status_code == 400 and "where" in bad.json()
    ok = act(client, battle, "m36smoke", {"origin": "Bombardeo de humo", "where": "B4 wood"})
    assert ok.status_code == 200
    [cloud] = _smoke(battle)
    assert (cloud["disperse"], cloud["dissipate"]) == (4, 5)
    assert act(client, battle, "m36smoke", {"clear": 9}).status_code == 400
    assert act(client, battle, "m36smoke", {"clear": 1}).status_code == 200
    assert _smoke(battle) == []
    assert SkirmishEvent.objects.filter(battle=battle, summary__contains="cleared").exists()

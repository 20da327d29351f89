"""Issue 12 through HTTP: a Combat Commander battle tracked and played through the API with
every roll entered, ending by Sudden Death; its winner and VP then fill the campaign's result."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import product

import pytest
import yaml

from campaigns.models import BattleAction, BattleTracker
from rules.cc.battle.recover import rally_outcome
from rules.cc.battle.values import outcome
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db
START = {
    "mode": "light",
    "time": 0,
    "sudden_death": 1,
    "initiative": "allies",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "defend"},
    "surrender": {"axis": 5, "allies": 5},
}


@pytest.fixture
def battle(stalingrad, user, other_user):  # noqa: F811
    return _play_setup(stalingrad, user, other_user)


def url(battle, tail: str = "") -> str:
    return f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/tracker{tail}/"


def act(client, battle, procedure: str, inputs: dict, dice: str = "", **extra):
    body = {"procedure": procedure, "inputs": inputs, "dice": dice, **extra}
    return client.post(url(battle, "/actions"), body, format="json")


def test_a_small_battle_through_the_api_with_entered_dice_ends_by_sudden_death(
    battle, user, other_user, client, django_capture_on_commit_callbacks
):
    germans, soviets = client_for(user), client_for(other_user)
    assert germans.get(url(battle)).status_code == 404  # not tracked yet
    started = germans.post(url(battle, "/start"), START, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["vp_text"] == "VP marker on 0"

    # 7.1: two Soviet squads eliminated (VP value 2 each, read off the player aid)
    for n in (1, 2):
        r = act(
            germans, battle, "eliminate", {"side": "allies", "name": f"Squad {n}", "vp_value": 2}
        )
        assert r.status_code == 201, r.json()
    assert r.json()["tracks"]["vp_axis"] == 4
    # 7.3.1: Objective 2 taken by the Germans (its open chit unknown here: no VP)
    assert act(germans, battle, "objective", {"side": "axis", "objective": "2"}).status_code == 201
    # O22.3: the Soviets recover a broken squad, the roll typed from the card: 2+2 < 6
    r = act(soviets, battle, "recover", {"units": "Guards Squad; 6"}, "2 2")
    assert r.json()["action"]["shown"] == ["Guards Squad: 4, rallied"], r.json()
    assert r.json()["action"]["side"] == "allies"

    # 6.1.2 / 6.2: the Time marker reaches the SD marker (space 1): a roll below 1 never ends
    # it; space 2 with 6+6 goes on; space 3 with 1+1 (2 < 3) ends the battle
    for dice in ("3 3", "6 6"):
        r = act(germans, battle, "time", {"side": "axis", "cause": "trigger"}, dice)
        assert r.status_code == 201 and not r.json()["tracks"]["over"], r.json()
    r = act(soviets, battle, "time", {"side": "allies", "cause": "last_card"}, "1 1")
    tracks = r.json()["tracks"]
    assert tracks["over"] and tracks["time"] == 3
    # the Soviets defend: +1 VP for each advance that does not end the battle [6.1.2 step 3]
    assert tracks["outcome"] == "The Germans win (Sudden Death), VP marker +2."
    roll = r.json()["action"]["rolls"][0]
    assert roll["faces"] == [1, 1] and roll["source"] == "entered"
    assert any("6.2" in step["rule"] for step in r.json()["action"]["explanation"])

    # once over, nothing more is resolved
    late = act(germans, battle, "vp", {"side": "axis", "vp": 1, "reason": "late"})
    assert late.status_code == 400

    # the tracks fill the result: winner Germans, margin 2; the page's form is pre-filled
    draft = tracks["result"]
    germans_side = battle.campaign.sides.get(faction="axis")
    assert draft == {"winner": str(germans_side.pk), "vp_margin": 2}
    client.force_login(user)
    html = client.get(battle.get_absolute_url()).text
    assert re.search(rf'value="{germans_side.pk}"[^>]*checked', html)
    with django_capture_on_commit_callbacks(execute=True):
        result = germans.post(
            f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/result/",
            {"winner": int(draft["winner"]), "survivors_axis": "s1; Rifle squad"},
            format="json",
        )
    assert result.status_code == 200, result.json()
    battle.refresh_from_db()
    assert battle.winner == germans_side and battle.result["survivors"]["axis"][0]["id"] == "s1"
    assert battle.campaign.log.filter(summary="Battle 1 won by Germans.").exists()


def test_O22_3_odds_before_rolling_equal_every_card_enumerated(battle, user):
    """The odds endpoint's exact fractions against all 36 white/coloured pairs."""
    client = client_for(user)
    client.post(url(battle, "/start"), START, format="json")
    query = {"procedure": "recover", "inputs": {"units": "Squad; 7\nLt. Petrov; leader; 9"}}
    r = client.post(url(battle, "/odds"), query, format="json")
    assert r.status_code == 200, r.json()
    got = {o["label"]: Fraction(o["p"]) for o in r.json()}
    cards = list(product(range(1, 7), repeat=2))
    expected = {
        f"{name} rallies": Fraction(
            sum(rally_outcome(w + c, morale).value == "rallied" for w, c in cards), 36
        )
        for name, morale in (("Squad", 7), ("Lt. Petrov", 9))
    }
    assert got == expected


def test_refusals_are_clear_and_change_nothing(battle, user, other_user, make_user):
    germans = client_for(user)
    germans.post(url(battle, "/start"), START, format="json")
    version = germans.get(url(battle)).json()["version"]
    bad = act(germans, battle, "defense", {"attack_total": 12, "unit": "Squad", "morale": 99})
    assert bad.status_code == 400 and "morale" in bad.json()["inputs"]
    bad = act(germans, battle, "recover", {"units": "Squad; 7"}, "9 9")
    assert bad.status_code == 400 and "dice" in bad.json()
    assert act(germans, battle, "charge", {}).status_code == 400
    outsider = act(client_for(make_user("nobody")), battle, "initiative", {})
    assert outsider.status_code in (403, 404)
    act(client_for(other_user), battle, "initiative", {}, version=version)
    stale = act(germans, battle, "objective", {"side": "axis", "objective": "1"}, version=version)
    assert stale.status_code == 409 and "changed since you opened it" in str(stale.json())
    assert BattleAction.objects.count() == 1
    act(germans, battle, "vp", {"side": "axis", "vp": 1, "reason": "E45"})
    refused = client_for(other_user).post(url(battle, "/undo"))
    assert (
        refused.status_code == 403
    )  # the Soviets did not make it; only its player or the organiser
    undone = germans.post(url(battle, "/undo"))
    assert undone.json()["undone"] is True and undone.json()["procedure"] == "vp"


def test_the_openapi_schema_documents_every_procedures_inputs():
    schema = yaml.safe_load(client_for().get("/api/schema/").content)
    components = schema["components"]["schemas"]
    for key in ("Time", "Eliminate", "Recover", "Defense", "Melee", "Targeting"):
        assert f"{key}ActionRequest" in components and f"{key}InputsRequest" in components
    defense = components["DefenseInputsRequest"]["properties"]["morale"]
    assert (defense["minimum"], defense["maximum"]) == (1, 20)


def test_a_battle_tracked_fully_hands_its_survivors_to_the_campaign(
    battle, user, other_user, django_capture_on_commit_callbacks
):
    """Mode "full": counters registered, one eliminated by its id, the battle ended by
    Surrender [4.2]; the survivors go to the result as the campaign's post-battle reads them."""
    germans, soviets = client_for(user), client_for(other_user)
    start = {**START, "mode": "full", "surrender": {"axis": 5, "allies": 1}}
    assert germans.post(url(battle, "/start"), start, format="json").status_code == 201
    for client, side, unit_id, name, kind, weapon in (
        (germans, "axis", "w1", "LMG", "weapon", ""),
        (germans, "axis", "g1", "Rifle Squad", "squad", "w1"),
        (soviets, "allies", "r1", "Rifle Squad", "squad", ""),
        (soviets, "allies", "r2", "Guards Squad", "squad", ""),
    ):
        inputs = {"side": side, "unit_id": unit_id, "name": name, "kind": kind, "weapon": weapon}
        r = act(client, battle, "register", inputs)
        assert r.status_code == 201, r.json()
    r = act(germans, battle, "status", {"unit": "g1", "change": "veteran"})
    assert r.status_code == 201, r.json()
    r = act(germans, battle, "eliminate", {"side": "allies", "unit_id": "r1", "vp_value": 2})
    tracks = r.json()["tracks"]
    assert tracks["over"] and "Surrender" in tracks["outcome"], tracks
    draft = tracks["result"]
    assert draft["survivors_axis"] == "g1; Rifle Squad; LMG; veteran"
    assert draft["survivors_allies"] == "r2; Guards Squad"
    with django_capture_on_commit_callbacks(execute=True):
        result = germans.post(
            f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/result/",
            {k: (int(v) if k == "winner" else v) for k, v in draft.items() if k != "vp_margin"},
            format="json",
        )
    assert result.status_code == 200, result.json()
    battle.refresh_from_db()
    kept = battle.result["survivors"]
    assert [u["id"] for u in kept["axis"]] == ["g1"] and kept["axis"][0]["veteran"] is True
    assert [u["id"] for u in kept["allies"]] == ["r2"]


def test_O20_3_4_defense_odds_equal_every_card_enumerated(battle, user):
    client = client_for(user)
    client.post(url(battle, "/start"), START, format="json")
    query = {
        "procedure": "defense",
        "inputs": {"attack_total": 12, "unit": "Squad", "morale": 8},
    }
    answer = client.post(url(battle, "/odds"), query, format="json").json()
    got = {o["label"]: Fraction(o["p"]) for o in answer}
    counts: dict[str, int] = {}
    for w, c in product(range(1, 7), repeat=2):
        key = outcome(attack=12, defense=8 + w + c, broken=False, suppressed=False, moving=False)
        counts[key.value] = counts.get(key.value, 0) + 1
    words = {"no_effect": "no effect", "suppressed": "Suppressed", "broken": "broken"}
    assert got == {words[k]: Fraction(n, 36) for k, n in counts.items()}


def test_7_3_3_a_secret_chit_never_reaches_the_other_side(battle, user, other_user):
    """Only its owner (and a neutral game master) reads a secret Objective chit's face."""
    germans, soviets = client_for(user), client_for(other_user)
    germans.post(url(battle, "/start"), START, format="json")
    tracker = BattleTracker.objects.get(battle=battle)
    tracker.state = {
        **tracker.state,
        "chits": [{"letter": "K", "owner": "axis", "secret": True, "kind": "objective",
                   "objective": 3, "vp": 3}],
    }  # fmt: skip
    tracker.save()
    assert germans.get(url(battle)).json()["state"]["chits"][0]["letter"] == "K"
    seen = soviets.get(url(battle)).json()
    assert seen["state"]["chits"] == [{"owner": "axis", "secret": True}]
    assert '"K"' not in json.dumps(seen)

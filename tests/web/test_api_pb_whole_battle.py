"""A whole Parabellum battle through the REST API only, with entered dice: five turns of
tactical phases, reinforcements (an anticipation, an artillery call), activations with moves,
orders, shots and an assault spending the activations' PA, the medic, end-of-turn positions,
the finish with VP and winner, then the house rules changing a roster."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import Roster, SkirmishBattle, SkirmishSide

pytestmark = pytest.mark.django_db
API = "/api/v1"
PHASES = {
    "tactical phase": "tactical",
    "reinforcements phase": "reinforcements",
    "activations phase": "activations",
    "end of the turn": "end",
    "the battle is over": "over",
}


class Players:
    def __init__(self, a, b):
        self.c = []
        for u in (a, b):
            client = APIClient()
            client.force_authenticate(u)
            self.c.append(client)
        self.battle = None

    def post(self, who, url, body=None, status=(200, 201)):
        r = self.c[who].post(f"{API}{url}", body or {}, format="json")
        assert r.status_code in (status if isinstance(status, tuple) else (status,)), (
            url,
            r.status_code,
            r.content[:400],
        )
        return r

    def do(self, who, name, body=None, status=200):
        return self.post(who, f"/skirmishes/{self.battle}/actions/{name}/", body, status)

    def side(self, index):
        return SkirmishSide.objects.get(battle_id=self.battle, index=index)

    def ledger(self, index):
        return self.side(index).units["ledger"]

    def state(self):
        """The turn and phase as `GET …/state/` says them (the top of the battle page)."""
        r = self.c[0].get(f"{API}/skirmishes/{self.battle}/state/")
        assert r.status_code == 200, r.content[:400]
        return {"turn": r.json()["turn"], "phase": PHASES[r.json()["phase"]]}

    def phase_pass(self, holder, first):
        """The initiative holder picks `first`; both players finish the phase."""
        self.do(holder, "pb_first", {"first": first})
        self.do(first, "pb_finish")
        self.do(1 - first, "pb_finish")

    def end_turn(self, turn, po, models=None):
        self.do(0, "pb_finish")
        self.do(1, "pb_finish")
        self.do(0, "turn", {"turn": turn, "po": po, "models": models or {}})


def test_whole_battle_through_the_api_with_entered_dice(user, other_user):
    p = Players(user, other_user)
    ger = p.post(
        0,
        "/rosters/",
        {"system": "parabellum", "name": "Grenadiers", "squad_type": "GER/grenadier"},
    )
    ger_id = ger.json()["id"]
    p.post(
        0,
        f"/rosters/{ger_id}/edit/",
        {"soldier_id": "rifleman-4", "field": "specialist", "value": "medic"},
    )
    usa = p.post(
        1, "/rosters/", {"system": "parabellum", "name": "Easy", "squad_type": "USA/rifleman"}
    )
    usa_id = usa.json()["id"]
    p.post(
        1, f"/rosters/{usa_id}/house-rules/", {"casualties_carry_over": True, "recovery_target": 11}
    )
    created = p.post(
        0,
        "/skirmishes/",
        {
            "roster": ger_id,
            "role": "attacker",
            "opponent": other_user.username,
            "mode": "simple",
            "title": "Hill",
        },
    )
    p.battle = created.json()["id"]
    p.do(1, "join", {"roster": usa_id})

    # --- turn 1: the Germans hold the initiative; an anticipation, a missed shot
    p.do(0, "tactical", {"turn": 1, "blue": [4, 3]})
    assert p.state()["phase"] == "reinforcements"
    p.do(0, "pb_first", {"first": 0})
    po = p.side(0).po
    p.do(0, "pb_anticipate", {"soldiers": ["0:rifleman-5"]})
    assert p.side(0).po == po - 1
    p.do(0, "pb_activate", {"soldier": "0:rifleman-5", "via": "anticipation"})
    p.do(0, "pb_act", {"action": "crawl", "distance_cm": 6})
    p.do(0, "pb_end")
    p.do(0, "pb_finish")
    p.do(1, "pb_finish")
    assert p.state()["phase"] == "activations"
    p.do(0, "pb_first", {"first": 0})
    p.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    p.do(0, "pb_act", {"action": "double_time", "distance_cm": 20})
    shot = {
        "turn": 1,
        "shooter": "0:rifleman-1",
        "target": "1:rifleman-1",
        "distance_cm": 30,
        "cover": "none",
    }
    p.do(0, "shoot", {**shot, "dice_mode": "entered", "dice": "1 1 2"})
    assert p.ledger(0)["active"]["pa_left"] == 0
    bad = p.do(0, "shoot", {**shot, "dice_mode": "entered", "dice": "1 1 2"}, status=400)
    assert "shooter" in bad.json()
    bad = p.do(0, "pb_act", {"action": "fly"}, status=400)
    assert "action" in bad.json()
    p.do(0, "pb_end")
    p.do(0, "pb_finish")
    p.do(1, "pb_activate", {"soldier": "1:rifleman-2", "via": "blue"})
    p.do(1, "pb_act", {"action": "cautious", "distance_cm": 10})
    p.do(1, "pb_end")
    p.do(1, "pb_finish")
    assert p.state()["phase"] == "end"
    p.end_turn(1, [p.side(0).po, p.side(1).po])
    assert p.state()["turn"] == 2 and p.state()["phase"] == "tactical"

    # --- turn 2: US artillery suppresses the German NCO; a US shot drops a German next to
    # the medic; the NCO returns to action and orders; the medic stands the soldier up
    p.do(0, "tactical", {"turn": 2, "blue": [4, 3]})
    p.do(0, "pb_first", {"first": 0})
    p.do(0, "pb_finish")
    p.do(
        1,
        "support",
        {
            "turn": 2,
            "kind": "artillery",
            "po": 1,
            "targets": ["0:nco"],
            "dice_mode": "entered",
            "dice": "4 4 4; 5 5 6",
        },
    )
    assert p.ledger(0)["soldiers"]["nco"]["suppressed"] is True
    p.do(1, "pb_finish")
    p.do(0, "pb_first", {"first": 1})
    p.do(1, "pb_activate", {"soldier": "1:rifleman-1", "via": "blue"})
    p.do(
        1,
        "shoot",
        {
            "turn": 2,
            "shooter": "1:rifleman-1",
            "target": "0:rifleman-3",
            "distance_cm": 20,
            "cover": "none",
            "dice_mode": "entered",
            "dice": "6 5 4; 1 1 2",
        },
    )
    assert [c["soldier_id"] for c in p.side(0).casualties] == ["rifleman-3"]
    assert p.ledger(0)["soldiers"]["rifleman-3"]["out"] is True
    p.do(1, "pb_end")
    p.do(0, "pb_downed", {"soldier": "0:rifleman-3", "medic_distance_cm": 10})
    p.do(1, "pb_finish")
    p.do(0, "pb_activate", {"soldier": "0:nco", "via": "blue"})
    p.do(
        0,
        "pb_act",
        {"action": "order", "target": "0:rifleman-1", "target_distance_cm": 5},
        status=400,
    )
    p.do(0, "pb_act", {"action": "return_to_action"})
    p.do(0, "pb_act", {"action": "order", "target": "0:rifleman-1", "target_distance_cm": 5})
    p.do(0, "pb_end")
    p.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "order"})
    p.do(0, "pb_act", {"action": "cautious", "distance_cm": 10})
    p.do(0, "pb_end")
    p.do(0, "pb_activate", {"soldier": "0:rifleman-4", "via": "blue"})
    p.do(
        0,
        "pb_tend",
        {
            "soldier": "0:rifleman-3",
            "medic_touching": True,
            "dice_mode": "entered",
            "dice": "5 5 1",
        },
    )
    p.do(0, "pb_end")
    assert p.side(0).casualties[0]["healed_turn"] == 2
    p.do(0, "pb_finish")
    p.end_turn(2, [p.side(0).po, p.side(1).po])

    # --- turn 3: the Americans hold the initiative; a German assault after a cautious move
    p.do(0, "tactical", {"turn": 3, "blue": [3, 4]})
    p.phase_pass(1, 1)
    p.do(1, "pb_first", {"first": 0})
    p.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "blue"})
    p.do(0, "pb_act", {"action": "cautious", "distance_cm": 12})
    p.do(
        0,
        "assault",
        {
            "turn": 3,
            "attacker": "0:rifleman-2",
            "defender": "1:rifleman-2",
            "movement": "cautious",
            "dice_mode": "entered",
            "dice": "6 5 4; 1 1 2",
        },
    )
    assert [c["soldier_id"] for c in p.side(1).casualties] == ["rifleman-2"]
    assert p.ledger(1)["soldiers"]["rifleman-2"]["out"] is True
    p.do(0, "pb_end")
    p.do(0, "pb_finish")
    p.do(1, "pb_finish")
    p.end_turn(3, [p.side(0).po, p.side(1).po])

    # --- turns 4 and 5: nothing but the phases; positions at the end of turn 5
    for turn in (4, 5):
        p.do(0, "tactical", {"turn": turn, "blue": [4, 3]})
        p.phase_pass(0, 0)
        p.phase_pass(0, 0)
        models = {"0:nco": ["wholly_in_enemy_deployment"], "0:rifleman-1": ["wholly_in_enemy_half"]}
        p.end_turn(turn, [p.side(0).po, p.side(1).po], models if turn == 5 else None)
    assert p.state()["phase"] == "over"
    p.do(0, "pb_finish", status=400)

    p.do(0, "finish")
    battle = SkirmishBattle.objects.get(pk=p.battle)
    assert battle.status == "finished" and battle.winner_index == 0
    totals = [s["total"] for s in battle.score["sides"]]
    assert totals[0] != totals[1]

    # house rules after the battle: the US rifleman's recovery roll 1,2,3 = 6 < 11 → dies
    p.do(1, "apply", {"dice_mode": "entered", "dice": "1 2 3"})
    soldier = next(
        s for s in Roster.objects.get(pk=usa_id).data["soldiers"] if s["id"] == "rifleman-2"
    )
    assert soldier["status"] == "dead"

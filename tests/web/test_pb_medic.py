"""The medic on the battle page (§8.3.2): downed within 20 cm, tending with entered and
server dice, the stood-up soldier resting, and the end-of-turn removals."""

import pytest
from django.test import Client

from campaigns.models import SkirmishSide
from rules.dice import EnteredDice, parse_entry
from tests.web.pb_play_helpers import Table, pb_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, user, other_user):
    battle = pb_battle(user, other_user)
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    t = Table(client, rival, battle)
    t.to_activations()
    for sid in ("rifleman-1", "rifleman-2"):
        t.do(0, "casualty", {"soldier": f"0:{sid}", "turn": 1, "cause": "shot"})
    return t


def side(battle, index=0):
    return SkirmishSide.objects.get(battle=battle, index=index)


def errors(response):
    return {
        k: [str(e) for e in v]
        for f in response.context["forms"].values()
        for k, v in f.errors.items()
    }


def test_8_3_2_downed_only_within_20_cm_of_the_medic(table):
    t = table
    r = t.do(0, "pb_downed", {"soldier": "0:rifleman-1", "medic_distance_cm": "25"}, status=400)
    assert "20 cm" in errors(r)["medic_distance_cm"][0]
    t.do(0, "pb_downed", {"soldier": "0:rifleman-1", "medic_distance_cm": "12"})
    assert side(t.battle).units["downed"] == ["rifleman-1"]
    # an enemy cannot declare it, nor a soldier who is not a casualty
    t.do(1, "pb_downed", {"soldier": "0:rifleman-2", "medic_distance_cm": "5"}, status=400)
    t.do(0, "pb_downed", {"soldier": "0:rifleman-3", "medic_distance_cm": "5"}, status=400)


def test_8_3_2_tend_entered_3d6_11_stands_up_suppressed_and_rests(table):
    t = table
    t.do(0, "pb_downed", {"soldier": "0:rifleman-1", "medic_distance_cm": "3"})
    t.do(0, "pb_activate", {"soldier": "0:rifleman-4", "via": "blue"})
    tend = {
        "soldier": "0:rifleman-1",
        "medic_touching": "on",
        "dice_mode": "entered",
        "dice": "5 5 1",
    }
    r = t.do(0, "pb_tend", {**tend, "medic_touching": ""}, status=400)
    assert "[8.3.2]" in errors(r)["soldier"][0]
    t.do(0, "pb_tend", tend)
    s = side(t.battle)
    assert s.casualties[0] == {
        "soldier_id": "rifleman-1",
        "turn": 1,
        "cause": "shot",
        "healed_turn": 1,
    }
    rec = s.units["ledger"]["soldiers"]["rifleman-1"]
    assert (rec["out"], rec["suppressed"], rec["rests"]) == (False, True, True)
    assert s.units["downed"] == [] and s.units["ledger"]["tended"] is True
    assert "stands up suppressed" in t.battle.events.order_by("-seq").first().summary
    t.do(0, "pb_end")
    r = t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"}, status=400)
    assert "[8.3.2]" in errors(r)["soldier"][0]


def test_8_3_2_tend_with_server_dice_10_removes(table, monkeypatch):
    t = table
    monkeypatch.setattr(
        "campaigns.services.skirmish.common.ServerDice", lambda: EnteredDice([parse_entry("5 4 1")])
    )
    t.do(0, "pb_downed", {"soldier": "0:rifleman-1", "medic_distance_cm": "3"})
    t.do(0, "pb_activate", {"soldier": "0:rifleman-4", "via": "blue"})
    t.do(0, "pb_tend", {"soldier": "0:rifleman-1", "medic_touching": "on", "dice_mode": "server"})
    s = side(t.battle)
    assert s.casualties[0].get("healed_turn") is None and s.units["downed"] == []
    assert s.units["ledger"]["soldiers"]["rifleman-1"]["out"] is True
    # one tending a turn
    t.do(0, "pb_downed", {"soldier": "0:rifleman-2", "medic_distance_cm": "3"})
    r = t.do(
        0,
        "pb_tend",
        {"soldier": "0:rifleman-2", "medic_touching": "on", "dice_mode": "server"},
        status=400,
    )
    assert "one soldier per turn" in errors(r)["soldier"][0]


def test_8_3_2_end_of_turn_removes_downed_soldiers_far_from_the_medic(table):
    t = table
    t.do(0, "pb_downed", {"soldier": "0:rifleman-1", "medic_distance_cm": "3"})
    t.do(0, "pb_downed", {"soldier": "0:rifleman-2", "medic_distance_cm": "19"})
    t.do(0, "pb_finish")
    t.do(1, "pb_finish")
    assert t.battle.play["state"]["phase"] == "end"
    t.do(0, "pb_finish", {"near_medic": ["0:rifleman-3"]}, status=400)  # not downed
    t.do(0, "pb_finish", {"near_medic": ["0:rifleman-1"]})
    assert side(t.battle).units["downed"] == ["rifleman-1"]
    assert "removed (more than 20 cm from the medic): Rifleman 2" in (
        t.battle.events.order_by("-seq").first().summary
    )
    t.do(1, "pb_finish")
    s = side(t.battle)
    assert t.battle.play["state"]["turn"] == 2 and s.units["downed"] == ["rifleman-1"]
    assert s.units["ledger"]["soldiers"]["rifleman-1"]["out"] is True

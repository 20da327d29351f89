"""Minefields through the REST API only [21]: a set-up marker, T76 [21.0.b] resolved on the
side's own units in both dice modes (entered, and the site's dice replaced by a script),
the odds before rolling, a breach made, refusals named by rule id, another side kept out,
and a repeated request (same Idempotency-Key) applied once.

FICTIONAL TEST DATA: the charts are tests/rules/tcs fixtures, invented except the seed's
cells (Fire Table roll 65 → 3 [T41]; Morale Table 9 / 46 → SYR [T60]).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaigns.models.tcs import TcsCombat, TcsUnit
from tests.rules.tcs.test_fire import FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.tcs_turn_fixtures import call
from tests.web.test_api_tcs_turn import SHIFTS
from tests.web.test_tcs_minefields import MineDice, ScriptedDice

pytest_plugins = ["tests.web.tcs_api_fixtures"]
pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr("campaigns.services.tcs.common.ServerDice", MineDice)
    ScriptedDice.script.clear()
    return ScriptedDice.script


def started(op, alice):
    germans, americans = op.sides.order_by("order")
    panel = call(
        alice, "post", f"/minefields/{germans.pk}/place/", {"hex": "1510", "source": "pregame"}, 201
    )
    assert panel["minefields"][0]["hex"] == "1510"
    call(alice, "post", f"/operations/{op.pk}/start/")
    for chart, data in (("morale", FICTIONAL_DATA), ("fire", FIRE), ("shifts", SHIFTS)):
        call(alice, "put", f"/charts/{op.pk}/", {"chart": chart, "data": data})
    return germans, americans, panel["minefields"][0]["id"]


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_T76_21_0_b_through_the_api(op, alice, bob, scripted, mode):
    germans, americans, mine = started(op, alice)
    platoon = TcsUnit.objects.get(campaign=op, code="2-9/1")
    tank = TcsUnit.objects.get(campaign=op, code="Sherman/1")
    call(bob, "post", f"/units/{platoon.pk}/state/", {"morale": 4})
    body = {"minefield": mine, "units": {str(platoon.pk): "foot", str(tank.pk): "vehicle"}}
    shown = call(bob, "post", f"/minefields/{americans.pk}/preview/", body)
    tank_odds = [Fraction(o["chance"]) for o in shown["odds"] if o["unit"] == "Sherman/1"]
    assert tank_odds[-1] == Fraction(5, 12) ** 3 and sum(tank_odds) == 1
    foot = [Fraction(o["chance"]) for o in shown["odds"] if o["unit"] == ""]
    assert sum(foot) == 1
    if mode == "entered":
        body |= {"dice": "entered", "rolls": "65 8 7 5", "roll": "46"}
    else:
        scripted.extend([65, (4, 4), (3, 4), (1, 4), 46])
    key = {"headers": {"Idempotency-Key": f"t76-{mode}-{op.pk}"}}
    # the Germans may not enter the Americans' units (they cannot see that side)
    call(alice, "post", f"/minefields/{americans.pk}/enter/", body, 404)
    done = call(bob, "post", f"/minefields/{americans.pk}/enter/", body, 201, **key)
    again = bob.post(f"{API}/minefields/{americans.pk}/enter/", body, format="json", **key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert TcsCombat.objects.filter(kind="minefield").count() == 1
    attack = done["recent"][0]
    assert (attack["result"]["cell"], attack["result"]["steps"]) == (3, 3)
    assert attack["result"]["vehicle_losses"] == {"Sherman/1": 1}
    assert attack["applied"]["check"]["result"] == "syr"
    assert "21.0.b" in {s["rule"] for s in attack["explanation"]}
    platoon.refresh_from_db()
    tank.refresh_from_db()
    assert (platoon.steps_lost, tank.steps_lost) == (3, 1)
    assert not scripted
    # the markers are public: the Germans read them on their own side's panel
    assert call(alice, "get", f"/minefields/{germans.pk}/")["minefields"][0]["hex"] == "1510"
    assert call(alice, "get", f"/minefields/{germans.pk}/")["recent"] == []


def test_breach_made_and_refusals_named_by_rule(op, alice, bob):
    _germans, americans, mine = started(op, alice)
    tank = TcsUnit.objects.get(campaign=op, code="Sherman/1")
    platoon = TcsUnit.objects.get(campaign=op, code="2-9/2")
    base = {"minefield": mine, "began_adjacent": True, "idle": True, "dismounted": True}
    refused = call(
        bob, "post", f"/minefields/{americans.pk}/breach/", base | {"units": [tank.pk]}, 400
    )
    assert "[3.1.a]" in refused["units"][0]
    late = call(
        bob, "post", f"/minefields/{americans.pk}/place/", {"hex": "2", "source": "pregame"}, 400
    )
    assert "[21.1]" in late["source"][0]
    call(alice, "post", f"/minefields/{americans.pk}/breach/", base | {"units": [platoon.pk]}, 404)
    body = base | {"units": [platoon.pk], "dice": "entered", "rolls": "11"}
    done = call(bob, "post", f"/minefields/{americans.pk}/breach/", body, 201)
    assert done["minefields"][0]["breached"] is True
    assert done["recent"][0]["result"]["made"] is True
    again = call(bob, "post", f"/minefields/{americans.pk}/breach/", body, 400)
    assert "[21.3.c]" in again["units"][0]
    # through the breach: no attack, +2 MP [21.3.d]
    entered = call(
        bob,
        "post",
        f"/minefields/{americans.pk}/enter/",
        {"minefield": mine, "units": {str(tank.pk): "vehicle"}},
        201,
    )
    assert entered["recent"][0]["result"]["attacked"] is False
    bad = call(
        bob,
        "post",
        f"/minefields/{americans.pk}/enter/",
        {"minefield": mine, "units": {"999999": "vehicle"}},
        400,
    )
    assert "units" in bad
    assert call(alice, "get", f"/minefields/{americans.pk}/", status=404) is not None

"""A TCS turn's fighting played through the REST API only: the operation's charts entered, a
fire attack computed from them, the morale check it forces taken by the target's owner (SYR:
the stack retreats), a second attack whose check ends in Surrender, and the battalion morale
afterwards [11.0, 10.0.f, 17.0.b, 17.2, 17.4, 17.6, 17.1.a].

Played twice: once every roll is entered, once the site rolls (its dice replaced by a script
of the same faces). FICTIONAL TEST DATA: the charts are tests/rules/tcs fixtures, invented
except the seed's cells (Fire Table 14-16 / 65 → 3 [T41]; Morale Table 9 / 46 → SYR [T60]).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaigns.models.tcs import TcsUnit
from tests.rules.tcs.test_fire import CHARTS_DATA, FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.tcs_turn_fixtures import call
from tests.web.test_api_tcs_play import ScriptedDice
from tests.web.test_tcs_combat import T41_FIRERS, T41_TARGETS

pytest_plugins = ["tests.web.tcs_api_fixtures"]
pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"
SHIFTS = {k: CHARTS_DATA[k] for k in ("terrain_posture", "area_range", "stacking")}


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr("campaigns.services.tcs.fire.ServerDice", ScriptedDice)
    monkeypatch.setattr("campaigns.services.tcs.common.ServerDice", ScriptedDice)
    ScriptedDice.script.clear()
    return ScriptedDice.script


def fire_body(mode, roll):
    body = {
        "kind": "area",
        "firers": T41_FIRERS.splitlines(),
        "targets": T41_TARGETS.splitlines(),
        "terrain": "open",
        "spotted": True,
    }
    if mode == "entered":
        body |= {"dice": "entered", "rolls": str(roll)}
    return body


def check_body(mode, roll, **extra):
    return extra | ({"dice": "entered", "roll": str(roll)} if mode == "entered" else {})


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_fire_check_retreat_surrender_and_battalion_morale_through_the_api(
    op, alice, bob, scripted, mode
):
    germans, americans = op.sides.order_by("order")
    platoon = TcsUnit.objects.get(campaign=op, code="2-9/1")
    call(alice, "post", f"/operations/{op.pk}/start/")
    for chart, data in (("morale", FICTIONAL_DATA), ("fire", FIRE), ("shifts", SHIFTS)):
        call(alice, "put", f"/charts/{op.pk}/", {"chart": chart, "data": data})
    call(bob, "post", f"/units/{platoon.pk}/state/", {"morale": 4})
    if mode == "server":
        scripted.extend([65, 46, 11, 66])

    # the Germans see the column and the odds, then fire: 3 step losses and a check [T41]
    shown = call(alice, "post", f"/resolve/{germans.pk}/preview/", fire_body(mode, 65))
    assert shown["column"] == 10
    assert sum(Fraction(o["chance"]) for o in shown["odds"]) == 1
    fired = call(alice, "post", f"/resolve/{germans.pk}/fire/", fire_body(mode, 65), 201)
    combat = fired["combat"]
    assert (combat["status"], combat["result"]["steps"], combat["result"]["check"]) == (
        "open",
        3,
        True,
    )
    assert combat["result"]["split"] == {"first_step": "Platoon", "defender": 1, "attacker": 1}

    # only the target's owner sees his panel and applies the result
    call(alice, "get", f"/resolve/{americans.pk}/", status=404)
    panel = call(bob, "get", f"/resolve/{americans.pk}/")
    assert [c["id"] for c in panel["to_apply"]] == [combat["id"]]
    call(alice, "post", f"/combats/{combat['id']}/apply/", {"losses": {}}, status=404)
    applied = call(
        bob,
        "post",
        f"/combats/{combat['id']}/apply/",
        {"losses": {str(platoon.pk): 3}, "units": [platoon.pk]} | check_body(mode, 46),
    )
    # 4 + 3 lost + battalion 0 + unassigned 2 = 9, roll 46 → SYR: the stack retreats [T60]
    check = applied["applied"]["check"]
    assert (check["total"], check["roll"], check["result"]) == (9, 46, "syr")
    assert check["retreat_hexes"] == 3
    again = bob.post(
        f"{API}/combats/{combat['id']}/apply/",
        {"losses": {str(platoon.pk): 3}, "units": [platoon.pk]},
        format="json",
    )
    assert again.status_code == 400 and "already applied" in again.text

    # the firer reads the result, never the owner's total or units
    seen = call(alice, "get", f"/combats/{combat['id']}/")
    assert seen["applied"] == {} and seen["result_words"].startswith("3")
    listed = call(alice, "get", f"/combats/?campaign={op.pk}")
    assert all(c["kind"] != "morale_check" for c in listed["results"])

    # a second attack: Morale Check only; the platoon checks again and surrenders [17.6]
    second = call(alice, "post", f"/resolve/{germans.pk}/fire/", fire_body(mode, 11), 201)
    assert (second["combat"]["result"]["steps"], second["combat"]["result"]["check"]) == (0, True)
    done = call(
        bob,
        "post",
        f"/combats/{second['combat']['id']}/apply/",
        {"losses": {}, "units": [platoon.pk]} | check_body(mode, 66),
    )
    assert done["applied"]["check"]["result"] == "surrender"
    platoon.refresh_from_db()
    assert platoon.eliminated
    battalion = next(
        f
        for f in call(bob, "get", f"/formations/?campaign={op.pk}")["results"]
        if f["code"] == "2-9"
    )
    assert battalion["state"]["value"] == 1  # a platoon lost [17.1.a]
    assert not scripted  # every scripted face was rolled once


def test_steps_given_back_to_a_unit_that_lost_none_are_refused_in_words(op, alice, bob):
    platoon = TcsUnit.objects.get(campaign=op, code="2-9/1")
    call(alice, "post", f"/operations/{op.pk}/start/")
    refused = bob.post(
        f"{API}/units/{platoon.pk}/restore/", {"steps": 1, "reason": "typo"}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json() == {"steps": ["2-9/1 has lost no steps."]}

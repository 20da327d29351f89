"""An assault played through the REST API only, in both dice modes: declared by the Germans
with their own stack, the Americans' Final overwatch, the assault fire round (the side
firing first resolved alone, the other side's losses taken before its survivors fire), losses
and morale checks applied by each side to its own units, the Paralyzed defender's escalation
[22.0.c, T64], the minefield attack on the assaulters [22.0 step 5], the end; refusals named by rule, privacy, repeats.

FICTIONAL TEST DATA: the charts are tests/rules/tcs fixtures (invented except the seed's cells).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from campaigns.models.tcs import TcsCombat, TcsUnit
from tests.rules.tcs.test_fire import FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.test_api_tcs_play import ScriptedDice
from tests.web.test_api_tcs_turn import SHIFTS, call
from tests.web.test_tcs_assault import ATT_FIRERS, ATT_TARGETS, DEF_FIRERS, DEF_TARGETS

pytest_plugins = ["tests.web.tcs_api_fixtures"]
pytestmark = pytest.mark.django_db


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr("campaigns.services.tcs.common.ServerDice", ScriptedDice)
    ScriptedDice.script.clear()
    return ScriptedDice.script


@pytest.fixture
def playing(op, alice, bob):
    """Set up through HTTP only: the attackers' sheet, play started, the charts, the units'
    printed morale, mode and markers as on the map."""
    germans, americans = op.sides.order_by("order")
    missions = {"1-123/1": "attack", "1-123/2": "attack"}
    sheet = {"side": germans.pk, "code": "Hill", "missions": missions}
    call(alice, "post", "/op-sheets/", sheet, 201)
    call(alice, "post", f"/operations/{op.pk}/start/")
    for chart, data in (("morale", FICTIONAL_DATA), ("fire", FIRE), ("shifts", SHIFTS)):
        call(alice, "put", f"/charts/{op.pk}/", {"chart": chart, "data": data})
    for code in ("1-123/1", "1-123/2", "1-123/3"):
        call(alice, "post", f"/units/{pk(op, code)}/state/", {"mode": "move", "morale": 3})
    marker = {"morale": 4, "morale_state": "paralyzed", "reason": "as on the map"}
    call(bob, "post", f"/units/{pk(op, '2-9/1')}/state/", marker)
    return germans, americans


def pk(op, code):
    return TcsUnit.objects.get(campaign=op, code=code).pk


def declare_body(op, germans, codes=("1-123/1", "1-123/2"), **extra):
    return {"side": germans.pk, "units": [pk(op, c) for c in codes], "enter_cost": 1} | extra


def step(client, combat, side, status=200, **fields):
    seen = call(client, "get", f"/assaults/{combat}/?side={side.pk}")
    assert seen["my_move"], seen
    return call(
        client,
        "post",
        f"/assaults/{combat}/answer/",
        {"side": side.pk, "stage": seen["stage"], **fields},
        status,
    )


def dice(mode, field, value):
    """Entered dice for the fire (`fire_dice`/`fire_roll`) or a morale check (`dice`/`roll`)."""
    if mode != "entered":
        return {}
    if field == "fire":
        return {"fire_dice": "entered", "fire_roll": str(value)}
    return {"dice": "entered", "roll": str(value)}


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_whole_assault_through_the_api(op, alice, bob, playing, scripted, mode):
    germans, americans = playing
    if mode == "server":
        scripted.extend([11, 11, 11, 31])
    seen = call(alice, "post", "/assaults/declare/", declare_body(op, germans), 201)
    combat = seen["id"]
    assert (seen["whose"], seen["rule"], seen["my_move"]) == ("defender", "22.0", False)
    shown = call(bob, "get", f"/assaults/?side={americans.pk}")
    assert [a["id"] for a in shown] == [combat] and shown[0]["form"] == "hex"
    step(
        bob, combat, americans, units=[pk(op, "2-9/1")], choice="overwatch", attacker_result="none"
    )
    step(alice, combat, germans)
    step(bob, combat, americans, attacker_result="none")
    seen = step(bob, combat, americans, attacker_result="none")
    # the attacker fires first [22.0 step 6]: the defender writes its targets only
    assert (seen["step"], seen["whose"], seen["form"]) == (6, "both", "targets")
    assert seen["fire_order"] == ["attacker", "defender"]
    step(
        alice,
        combat,
        germans,
        firers=ATT_FIRERS.splitlines(),
        targets=ATT_TARGETS.splitlines(),
        **dice(mode, "fire", 11),
    )
    seen = step(bob, combat, americans, targets=[DEF_TARGETS])
    assert seen["fire"][0]["attacker"]["words"] == "Morale Check"
    assert "defender" not in seen["fire"][0] and seen["form"] == "fire"
    seen = step(bob, combat, americans, firers=[DEF_FIRERS], **dice(mode, "fire", 11))
    assert seen["fire"][0]["defender"]["words"] == "Morale Check"
    assert seen["whose"] == "attacker"
    seen = step(alice, combat, germans, losses={}, **dice(mode, "roll", 11))
    assert seen["own"][0]["check"]["total"] == 3
    seen = step(bob, combat, americans, losses={}, **dice(mode, "roll", 31))
    assert seen["own"][0]["check"]["result"] == "syr"
    assert seen["own"][0]["check"]["losses"][0]["steps"] == 3  # ceil(5/2) [22.0.c, T64]
    assert (seen["step"], seen["defenders"]) == (7, {})
    # the attacker never reads the defender's total
    mine = call(alice, "get", f"/assaults/{combat}/?side={germans.pk}")
    assert all("defender" not in str(o) for o in mine["own"])
    assert mine["own"][0]["check"]["total"] == 3 and len(mine["own"]) == 1
    seen = step(alice, combat, germans)
    assert (seen["step"], seen["winner"], seen["status"]) == (8, "attacker", "done")
    assert TcsCombat.objects.get(pk=combat).status == TcsCombat.Status.DONE
    assert not scripted


def test_declaration_refusals_are_named_by_rule(op, alice, playing):
    germans, _americans = playing
    for extra, rule in (
        ({"adjacent": False}, "[22.0]"),
        ({"codes": ("1-123/3",)}, "[22.0.j]"),
        ({"overrun": True}, "[23.0.a]"),
    ):
        codes = extra.pop("codes", ("1-123/1", "1-123/2"))
        answer = call(
            alice, "post", "/assaults/declare/", declare_body(op, germans, codes, **extra), 400
        )
        assert rule in str(answer["units"])
    call(alice, "post", f"/units/{pk(op, '1-123/1')}/state/", {"mode": "fire"})
    answer = call(alice, "post", "/assaults/declare/", declare_body(op, germans), 400)
    assert "[22.0.a]" in str(answer["units"])


def test_privacy_and_a_repeat_applies_once(op, alice, bob, playing, django_user_model):
    germans, americans = playing
    combat = call(alice, "post", "/assaults/declare/", declare_body(op, germans), 201)["id"]
    # alice may not read or answer for the Americans; a stranger sees nothing
    call(alice, "get", f"/assaults/{combat}/?side={americans.pk}", status=404)
    call(alice, "post", f"/assaults/{combat}/answer/", {"side": americans.pk, "stage": "2"}, 404)
    stranger = APIClient()
    stranger.force_authenticate(django_user_model.objects.create_user("eve", password="x"))
    call(stranger, "get", f"/assaults/{combat}/?side={germans.pk}", status=404)
    body = {
        "side": americans.pk,
        "stage": "2",
        "units": [pk(op, "2-9/1")],
        "attacker_result": "none",
    }
    call(bob, "post", f"/assaults/{combat}/answer/", body)
    again = call(bob, "post", f"/assaults/{combat}/answer/", body, 400)
    assert "already answered" in str(again)
    assert call(bob, "get", f"/assaults/{combat}/?side={americans.pk}")["step"] == 3


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_first_fire_losses_then_the_survivors_fire_through_the_api(
    op, alice, bob, playing, scripted, mode
):
    """[22.0 step 6] the attacker fires first; the defender takes the step, then fires."""
    germans, americans = playing
    if mode == "server":
        scripted.extend([51, 11])
    combat = call(alice, "post", "/assaults/declare/", declare_body(op, germans), 201)["id"]
    step(bob, combat, americans, units=[pk(op, "2-9/1")], attacker_result="none")
    step(alice, combat, germans)
    step(bob, combat, americans, attacker_result="none")
    step(bob, combat, americans, minefield=False)
    fired = {"firers": ATT_FIRERS.splitlines(), "targets": ATT_TARGETS.splitlines()}
    step(alice, combat, germans, **fired, **dice(mode, "fire", 51))
    seen = step(bob, combat, americans, targets=[DEF_TARGETS])
    assert (seen["stage"], seen["form"], seen["fire"][0]["attacker"]["steps"]) == (
        "6:early",
        "losses",
        1,
    )
    answer = step(bob, combat, americans, losses={}, status=400)
    assert "exactly 1" in str(answer["losses"])
    seen = step(bob, combat, americans, losses={str(pk(op, "2-9/1")): 1})
    assert seen["form"] == "fire" and seen["own"][0]["losses"][0]["steps"] == 1
    seen = step(
        bob, combat, americans, firers=["2-9/1; infantry; 4; 4; 0"], **dice(mode, "fire", 11)
    )
    assert (seen["fire"][0]["defender"]["cell"], seen["whose"]) == ("MC", "attacker")
    assert TcsUnit.objects.get(campaign=op, code="2-9/1").steps_left == 4
    assert not scripted


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_minefield_attacks_the_assaulters_through_the_api(op, alice, bob, playing, scripted, mode):
    """[22.0 step 5] the defender says the hex is mined; the attacker takes AF 18 and checks:
    roll 11 → 1 step (FICTIONAL table), the check 66 → SYR: the assault ends."""
    germans, americans = playing
    if mode == "server":
        scripted.extend([11, 66])
    combat = call(alice, "post", "/assaults/declare/", declare_body(op, germans), 201)["id"]
    step(bob, combat, americans, units=[pk(op, "2-9/1")], attacker_result="none")
    step(alice, combat, germans)
    step(bob, combat, americans, attacker_result="none")
    seen = step(bob, combat, americans, minefield=True, breached=True)
    assert (seen["stage"], seen["whose"]) == ("5:mine", "attacker")
    rolls = {"fire_dice": "entered", "rolls": "11", **dice(mode, "roll", 66)}
    seen = step(
        alice,
        combat,
        germans,
        first_step_choice="1-123/1",
        losses={str(pk(op, "1-123/1")): 1},
        **(rolls if mode == "entered" else {}),
    )
    assert seen["own"][0]["mine"]["steps"] == 1 and seen["own"][0]["check"]["result"] == "syr"
    assert (seen["step"], seen["ended"], seen["winner"]) == (8, "repulsed", "defender")
    assert TcsUnit.objects.get(campaign=op, code="1-123/1").steps_left == 4
    assert not scripted

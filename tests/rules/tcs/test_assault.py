"""Assaults [22.0]: declaration, who fires, assault fire shifts, morale, the step machine.

FICTIONAL TEST DATA: the charts are test_fire's fixture (only the values marked "seed" there
come from the seed: protective/fire −3, protective/dug in −5 are the 22.0.g example's).
"""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.tcs.assault import (
    ATTACKER,
    DEFENDER,
    SIMULTANEOUS,
    AssaultUnit,
    assault_fire,
    assault_morale,
    cancel_common,
    cancel_other,
    check_assault,
    check_assault_firers,
)
from rules.tcs.assault_steps import Assault, advance, fire_order, prompt, start
from rules.tcs.fire import Firer, FirerKind, TargetUnit
from rules.tcs.fire_tables import Posture, Terrain
from rules.tcs.morale_check import Mode, MoraleState, StackUnit
from rules.tcs.morale_table import MoraleResult
from rules.tcs.units import UnitCategory
from tests.rules.tcs.test_fire import CHARTS

INF, MG, MORTAR, VEH, TRN = (
    FirerKind.INFANTRY,
    FirerKind.MG,
    FirerKind.MORTAR,
    FirerKind.VEHICLE,
    FirerKind.TRANSPORT,
)
SUP, PAR = MoraleState.SUPPRESSED, MoraleState.PARALYZED


def unit(uid, kind=INF, **kw):
    kw.setdefault("mp", 4)
    kw.setdefault("hex", "0405")
    return AssaultUnit(uid, kind, **kw)


# --- declaration [22.0.a, 22.0.j, 20.0.h] -------------------------------------------------


def test_22_0_a_move_mode_stack_with_mp_may_assault():
    exp = check_assault([unit("a"), unit("b", VEH)], enter_cost=2)
    assert exp.steps[0].rule == "22.0"


@pytest.mark.parametrize(
    ("units", "kw", "rule"),
    [
        ([unit("a", mode=Mode.FIRE)], {}, "22.0.a"),
        ([unit("a", mp=1)], {}, "22.0.a"),
        ([unit("a")], {"adjacent": False}, "22.0"),
        ([unit("a"), unit("b", hex="0406")], {}, "22.0"),
        ([unit("a", in_stack_at_start=False)], {}, "20.0.h"),
        ([unit("a", unassigned=True)], {}, "22.0.j"),
        ([], {}, "22.0"),
    ],
)
def test_22_0_assault_refusals(units, kw, rule):
    with pytest.raises(RuleError) as err:
        check_assault(units, enter_cost=2, **kw)
    assert err.value.rule == rule


def test_22_0_refusal_lists_every_problem():
    with pytest.raises(RuleError) as err:
        check_assault([unit("a", mode=Mode.FIRE, mp=0), unit("b", unassigned=True)], enter_cost=2)
    text = str(err.value)
    assert err.value.rule == "22.0.a"
    assert "a [22.0.a] must be in Move mode" in text
    assert "a [22.0.a] 0 MP left, 2 to enter" in text
    assert "b [22.0.j]" in text


# --- who fires [22.0.b] -------------------------------------------------------------------


def test_22_0_b_infantry_vehicles_transports_either_mode_mounted_infantry_fire():
    check_assault_firers(
        [
            unit("i", mode=Mode.FIRE),
            unit("v", VEH),
            unit("t", TRN),
            unit("r", mounted=True),
            unit("mg", MG, mode=Mode.FIRE),
        ]
    )


@pytest.mark.parametrize(
    ("u", "kw", "rule"),
    [
        (unit("mg", MG, mode=Mode.MOVE), {}, "22.0.b"),
        (unit("m", MORTAR, mode=Mode.FIRE), {}, "22.0.b"),
        (unit("g", MG, mode=Mode.FIRE, towed=True), {}, "9.1.e"),
        (unit("p", VEH, state=PAR), {"overrun": True}, "23.0.e"),
    ],
)
def test_22_0_b_firing_refusals(u, kw, rule):
    with pytest.raises(RuleError) as err:
        check_assault_firers([u], **kw)
    assert err.value.rule == rule


def test_22_0_b_paralyzed_units_fire_in_an_assault():
    check_assault_firers([unit("p", state=PAR)])


# --- shifts [22.0.f, 22.0.g] --------------------------------------------------------------


def test_T72_22_0_g_fire_mode_minus_3_against_dug_in_minus_5():
    assert cancel_common(-3, -5) == (0, -2)


def test_T72_22_0_g_assault_fire_uses_the_cancelled_terrain_shifts():
    att = [Firer("a", INF, 1, 4, 0)]
    dfd = [Firer("d", INF, 1, 4, 0)]
    res = assault_fire(
        att,
        dfd,
        [TargetUnit("a", 4, posture=Posture.FIRE)],
        [TargetUnit("d", 4, posture=Posture.DUG_IN)],
        Terrain.PROTECTIVE,
        CHARTS,
        EnteredDice([11, 11]),
    )
    assert res.terrain_before == (-3, -5) and res.terrain_after == (0, -2)
    terrain = [s.value for s in res.by_attacker.shifts if s.name == "terrain/posture"]
    assert terrain == [-2]
    assert [s.value for s in res.by_defender.shifts if s.name == "terrain/posture"] == [0]
    assert any(s.rule == "22.0.g" for s in res.explanation)


def test_23_0_c_overrun_keeps_terrain_shifts():
    res = assault_fire(
        [Firer("a", VEH, 1, 1, 0)],
        [Firer("d", INF, 1, 4, 0)],
        [TargetUnit("a", 1, posture=Posture.FIRE)],
        [TargetUnit("d", 4, posture=Posture.DUG_IN)],
        Terrain.PROTECTIVE,
        CHARTS,
        None,
        overrun=True,
    )
    assert res.terrain_after == (-3, -5)
    assert [s.value for s in res.by_attacker.shifts if s.name == "terrain/posture"] == [-5]
    assert res.by_attacker.roll is None  # no dice: the column and its odds only


def test_22_0_h_all_area_fire_consolidated_into_one_attack():
    att = [Firer("a1", INF, 1, 4, 0), Firer("a2", INF, 1, 4, 0)]
    res = assault_fire(
        att,
        [],
        [TargetUnit("a1", 4), TargetUnit("a2", 4)],
        [TargetUnit("d", 4, posture=Posture.FIRE)],
        Terrain.OPEN,
        CHARTS,
        EnteredDice([66]),
    )
    assert res.by_defender is None
    assert len(res.by_attacker.explanation.rolls) == 1
    # 22.0.e: only enemy units count for stacking
    assert any(s.rule == "11.3.e" and s.value == 4 for s in res.by_attacker.explanation)


def test_22_0_f_common_negative_shifts_ignored():
    vs_att, vs_def = cancel_other([("night", -1), ("smoke", -2)], [("night", -1), ("x", -1)])
    assert vs_att == [("smoke", -2)] and vs_def == [("x", -1)]


@given(st.integers(-10, 10), st.integers(-10, 10))
def test_22_0_g_cancellation_never_more_negative_and_one_side_left(a, b):
    x, y = cancel_common(a, b)
    assert x >= a and y >= b
    assert not (x < 0 and y < 0)
    assert x - a == y - b  # the same number of shifts cancelled on both sides


# --- morale after assault fire [22.0 step 6, 22.0.c] ---------------------------------------


def platoon(uid, state=MoraleState.NORMAL, lost=0):
    return StackUnit(uid, UnitCategory.INFANTRY, 5, lost, 4, state=state)


def test_T64_22_0_c_paralyzed_platoon_suppressed_retreats_losing_3_and_defender_skips():
    out = assault_morale(
        [platoon("a", PAR)],
        [platoon("d")],
        EnteredDice([11]),
        attacker_checks=True,
        defender_checks=True,
        attacker_entered=MoraleResult.SUPPRESSED,
    )
    assert out.attacker.result is MoraleResult.SYR
    assert [(x.unit, x.steps) for x in out.attacker.losses] == [("a", 3)]
    assert out.defender is None and out.defender_skipped


def test_T64_22_0_c_paralyzed_again_surrenders():
    out = assault_morale(
        [platoon("a", PAR)],
        [],
        EnteredDice([11]),
        attacker_checks=True,
        defender_checks=False,
        attacker_entered=MoraleResult.PARALYZED,
    )
    assert out.attacker.result is MoraleResult.SURRENDER


def test_22_0_step_6_attacker_checks_first_then_defender():
    out = assault_morale(
        [platoon("a")],
        [platoon("d", SUP)],
        EnteredDice([11, 12]),
        attacker_checks=True,
        defender_checks=True,
        attacker_entered=MoraleResult.NO_EFFECT,
        defender_entered=MoraleResult.PARALYZED,
    )
    assert out.attacker.roll.value == 11 and out.defender.roll.value == 12
    assert out.defender.effects[0].state is PAR and not out.defender_skipped


# --- the step machine -----------------------------------------------------------------------


def _roundtrip(state):
    return Assault.from_dict(json.loads(json.dumps(state.to_dict())))


def test_22_0_whole_assault_attacker_wins():
    s = start([unit("a"), unit("b")], [unit("d", state=SUP), unit("e", state=PAR)])
    assert prompt(s).step == 2 and prompt(s).whose == DEFENDER
    s = _roundtrip(advance(s, {"choice": "overwatch", "attacker_result": "none"}))
    assert s.step == 3
    s = advance(s)  # enter: Suppressed removed, Paralyzed kept
    assert s.defenders == {"d": "normal", "e": "paralyzed"} and s.step == 4
    s = advance(s, {"attacker_result": "none"})
    s = _roundtrip(advance(s, {"attacker_result": "none"}))
    assert (s.step, s.round) == (6, 1)
    p = prompt(s)
    assert p.fire_order == (ATTACKER, DEFENDER) and p.asks == ("attackers", "defenders")
    assert json.loads(json.dumps(p.to_dict()))["msg"]["params"]["n"] == 1
    s = advance(s, {"attackers": {"a": "normal", "b": "normal"}, "defenders": {"d": "suppressed"}})
    assert s.step == 7 and prompt(s).whose == ATTACKER
    s = advance(s)
    assert (s.step, s.round) == (6, 2)
    assert fire_order(s) == (ATTACKER, DEFENDER)
    s = advance(s, {"attackers": {"a": "normal"}, "defenders": {}})
    assert s.step == 7  # dismounts and mode changes still happen
    s = _roundtrip(advance(s))
    assert (s.step, s.winner, s.ended) == (8, ATTACKER, "over")
    assert prompt(s).rule == "22.0.i"
    with pytest.raises(RuleError):
        advance(s)


def test_22_0_step_2_syr_ends_the_assault_attacker_returns():
    s = start([unit("a")], [unit("d")])
    s = advance(s, {"choice": "overwatch", "attacker_result": "syr"})
    assert (s.step, s.ended, s.winner) == (8, "repulsed", DEFENDER)
    assert "start hex" in str(prompt(s).text)


@pytest.mark.parametrize("step_result", ["suppressed", "paralyzed", "eliminated"])
def test_22_0_steps_4_5_hits_end_the_assault(step_result):
    s = advance(advance(start([unit("a")], [unit("d")]), {"attacker_result": "none"}))
    s = advance(s, {"attacker_result": "none"})
    s = advance(s, {"attacker_result": step_result})
    assert s.ended == "repulsed"


def test_22_0_step_2_all_attackers_eliminated_ends_the_assault():
    s = advance(start([unit("a")], [unit("d")]), {"attacker_result": "none", "attackers": {}})
    assert s.ended == "repulsed"


def test_22_0_step_6_simultaneous_fire():
    s = start([unit("a", state=SUP)], [unit("d", state=PAR)])
    assert fire_order(s) == (SIMULTANEOUS,)
    s = start([unit("a")], [unit("d")])
    assert fire_order(s) == (SIMULTANEOUS,)
    s = start([unit("a", state=SUP)], [unit("d")])
    assert fire_order(s) == (DEFENDER, ATTACKER)


def test_22_0_step_2_all_defenders_retreat_skip_to_step_7():
    s = advance(start([unit("a")], [unit("d"), unit("e")]), {"choice": "retreat"})
    assert s.step == 7 and s.defenders == {}
    s = advance(s)
    assert (s.step, s.winner) == (8, ATTACKER)


def test_22_0_step_2_suppressed_and_paralyzed_defenders_stay_behind():
    s = start([unit("a")], [unit("d"), unit("e", state=SUP), unit("f", state=PAR)])
    s = advance(s, {"choice": "retreat"})
    assert s.step == 3 and set(s.defenders) == {"e", "f"}


def test_22_0_defender_holds_when_the_attackers_are_gone():
    s = start([unit("a")], [unit("d")])
    for _ in range(3):
        s = advance(s, {"attacker_result": "none"})
    s = advance(s, {"attacker_result": "none"})
    s = advance(s, {"attackers": {}, "defenders": {"d": "normal"}})
    assert (s.step, s.winner) == (8, DEFENDER)


def test_22_0_step_6_needs_both_sides():
    s = Assault({"a": "normal"}, {"d": "normal"}, step=6, round=1)
    with pytest.raises(RuleError):
        advance(s, {"attackers": {}})


def test_22_0_step_6_context_passes_through_and_may_turn_escalation_off():
    stack = [platoon("a", PAR)]
    kw = {"attacker_checks": True, "defender_checks": False}
    kw["attacker_entered"] = MoraleResult.SUPPRESSED
    off = assault_morale(stack, [], EnteredDice([11]), attacker_context={"in_assault": False}, **kw)
    assert off.attacker.result is MoraleResult.SUPPRESSED and not off.attacker.losses


def test_22_0_step_6_no_check_without_infantry_or_heavy_weapons():
    tank = StackUnit("t", UnitCategory.VEHICLE, 1)
    out = assault_morale(
        [tank],
        [platoon("d")],
        EnteredDice([11]),
        attacker_checks=True,
        defender_checks=True,
        defender_entered=MoraleResult.NO_EFFECT,
    )
    assert out.attacker is None and out.defender.result is MoraleResult.NO_EFFECT


def test_22_0_g_cancellation_holds_when_only_one_side_has_area_fire():
    res = assault_fire(
        [Firer("a", INF, 1, 4, 0)],
        [],
        [TargetUnit("a", 4, posture=Posture.FIRE)],
        [TargetUnit("d", 4, posture=Posture.DUG_IN)],
        Terrain.PROTECTIVE,
        CHARTS,
        EnteredDice([11]),
    )
    assert res.terrain_after == (0, -2) and res.by_defender is None
    assert [s.value for s in res.by_attacker.shifts if s.name == "terrain/posture"] == [-2]

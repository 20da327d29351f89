"""Overruns [23.0]: declaration refusals, one round, no retreat, Suppressed kept, aftermath."""

import pytest

from rules.errors import RuleError
from rules.tcs.assault import AssaultUnit
from rules.tcs.assault_steps import ATTACKER, advance, prompt, start
from rules.tcs.fire import FirerKind
from rules.tcs.morale_check import Mode, MoraleState
from rules.tcs.overrun import aftermath, check_overrun

VEH, TRN, INF = FirerKind.VEHICLE, FirerKind.TRANSPORT, FirerKind.INFANTRY


def unit(uid, kind=VEH, **kw):
    kw.setdefault("mp", 6)
    kw.setdefault("hex", "0405")
    return AssaultUnit(uid, kind, **kw)


def test_23_0_a_vehicles_and_transports_with_riders_may_overrun():
    exp = check_overrun(
        [unit("v"), unit("t", TRN), unit("r", INF, mounted=True, mp=None)],
        enter_cost=2,
        leave_cost=1,
    )
    assert exp.steps[0].rule == "23.0"


def test_23_0_b_integrated_transport_units_may_overrun():
    check_overrun(
        [unit("hw", FirerKind.MG)], enter_cost=1, leave_cost=1, integrated_transport=["hw"]
    )


@pytest.mark.parametrize(
    ("units", "kw", "rule"),
    [
        ([unit("i", INF)], {}, "23.0.a"),
        ([unit("v", mp=2)], {}, "23.0.a"),  # enough to enter, not to leave
        ([unit("v", mode=Mode.FIRE)], {}, "23.0.a"),
        ([unit("v")], {"enter_cost": 4}, "23.0.b"),
        ([unit("v", unassigned=True)], {}, "23.0.l"),
        ([unit("v", in_stack_at_start=False)], {}, "20.0.h"),
        ([unit("v")], {"adjacent": False}, "22.0"),
    ],
)
def test_23_0_overrun_refusals(units, kw, rule):
    args = {"enter_cost": 2, "leave_cost": 1, **kw}
    with pytest.raises(RuleError) as err:
        check_overrun(units, **args)
    assert err.value.rule == rule


def test_23_0_f_no_retreat_instead_of_final_overwatch():
    s = start([unit("v")], [unit("d", INF)], overrun=True)
    assert prompt(s).rule == "23.0.f" and prompt(s).asks == ("attacker_result",)
    with pytest.raises(RuleError) as err:
        advance(s, {"choice": "retreat"})
    assert err.value.rule == "23.0.f"


def test_23_0_overrun_one_round_suppressed_kept_movers_go_on():
    s = start(
        [unit("v")], [unit("d", INF, state=MoraleState.SUPPRESSED), unit("e", INF)], overrun=True
    )
    s = advance(s, {"attacker_result": "none"})
    s = advance(s)  # 23.0.g: Suppressed kept
    assert s.defenders["d"] == "suppressed"
    s = advance(advance(s, {"attacker_result": "none"}), {"attacker_result": "none"})
    assert (s.step, s.round) == (6, 1)
    assert prompt(s).fire_order == (ATTACKER, "defender")
    s = advance(s, {"attackers": {"v": "normal"}, "defenders": {"d": "suppressed"}})
    assert s.step == 8 and s.ended == "over" and s.winner == ""
    assert prompt(s).rule == "23.0.h"
    after = aftermath(s)
    assert after.may_move and not after.may_sfa and after.leaving_is_movement_event
    assert not aftermath(s, next_overrun_adjacent=True).leaving_is_movement_event


def test_22_0_i_after_an_assault_no_sfa_pfa_or_move():
    s = start([unit("a", INF)], [unit("d", INF)])
    s = advance(s, {"choice": "retreat"})
    s = advance(s)
    after = aftermath(s)
    assert not (after.may_sfa or after.may_pfa or after.may_move)
    assert after.may_spot_and_overwatch and after.notes[0][0] == "22.0.i"

"""Orders and inspire courage (§4.3.3), political officer (§8.3.3), German Independence."""

import dataclasses

import pytest

from rules.errors import RuleError
from rules.parabellum.activation import (
    SideTurn,
    act,
    end_activation,
    legal_problems,
    new_side_turn,
    set_state,
    start_activation,
)
from rules.parabellum.roster import new_roster
from rules.parabellum.squad import Roster


def roster(squad="GER/grenadier", **changes) -> Roster:
    r = new_roster(squad)
    for sid, fields in changes.items():
        r = r.replace(dataclasses.replace(r.soldier(sid), **fields))
    return r


def refused(rule: str, fn, *args, **kwargs) -> None:
    with pytest.raises(RuleError) as err:
        fn(*args, **kwargs)
    assert err.value.rule == rule, err.value


def activate(side: SideTurn, r: Roster, sid: str, via="blue") -> SideTurn:
    return start_activation(side, r, sid, via=via).side


def order(side, r, target, cm=10, **kw) -> SideTurn:
    return act(side, r, "order", target=target, target_distance_cm=cm, **kw).side


def test_4_3_3_F_ordered_soldiers_activate_next_in_the_players_order():
    r = roster()
    side = activate(new_side_turn(r), r, "officer")
    side = order(order(side, r, "rifleman-1"), r, "rifleman-2")
    refused("4.3.2", start_activation, side, r, "rifleman-1", via="order")  # giver still active
    side = end_activation(side).side
    assert side.pending_orders == ("rifleman-1", "rifleman-2")
    refused("4.3.3 F", start_activation, side, r, "rifleman-3", via="blue")
    refused("4.3.3", start_activation, side, r, "rifleman-3", via="order")
    side = end_activation(activate(side, r, "rifleman-2", via="order")).side
    assert side.pending_orders == ("rifleman-1",)
    side = end_activation(activate(side, r, "rifleman-1", via="order")).side
    assert activate(side, r, "rifleman-3").active.via == "blue"
    assert side.soldiers["rifleman-1"].blue_tokens == 0
    assert side.soldiers["rifleman-1"].activations == 1


def test_4_3_3_target_limits():
    r = roster()
    side = activate(new_side_turn(r, suppressed={"rifleman-1"}), r, "officer")
    refused("4.3.3 A", order, side, r, "rifleman-1")  # suppressed
    refused("4.3.3", order, side, r, "rifleman-2", cm=21)
    refused("4.3.3", order, side, r, "rifleman-2", target_in_los=False)
    refused("4.3.3", order, side, r, "officer")  # himself
    side = order(side, r, "rifleman-2")
    refused("4.3.3 E", order, side, r, "rifleman-2")
    nco = activate(new_side_turn(r), r, "nco")
    refused("8.1.2", order, nco, r, "officer")
    assert order(activate(new_side_turn(r), r, "officer"), r, "nco").soldiers["nco"].order_received


def test_4_3_3_B_C_three_orders_per_activation_and_per_turn():
    r = roster()
    side = activate(new_side_turn(r), r, "officer")
    for sid in ("rifleman-1", "rifleman-2"):
        side = order(side, r, sid)
    side = act(side, r, "no_move").side
    side = order(side, r, "rifleman-3")  # PA: 3 used
    assert side.active.pa_left == 0 and side.orders_given == 3
    side = end_activation(side).side
    for sid in side.pending_orders:
        side = end_activation(activate(side, r, sid, via="order")).side
    nco = activate(side, r, "nco")
    refused("4.3.3 C", order, nco, r, "rifleman-4")
    assert legal_problems(side, r) == []


def test_4_3_3_B_three_orders_per_activation_by_PA_or_count():
    r = roster()
    side = activate(new_side_turn(r), r, "officer")
    for sid in ("rifleman-1", "rifleman-2", "rifleman-3"):
        side = order(side, r, sid)
    refused(
        "4.3.3 B",
        order,
        dataclasses.replace(side, active=dataclasses.replace(side.active, pa_left=3)),
        r,
        "rifleman-4",
    )


def test_4_3_2_A_order_to_a_soldier_activated_twice_is_refused():
    r = roster()
    side = new_side_turn(r)
    for _ in range(2):
        side = end_activation(activate(side, r, "rifleman-1")).side
    refused("4.3.2 A", order, activate(side, r, "officer"), r, "rifleman-1")


def test_4_3_3_only_leaders_order_and_inspire():
    r = roster("GBR/riflemen")
    side = activate(new_side_turn(r, suppressed={"rifleman-2"}), r, "rifleman-1")
    refused("4.3.3", order, side, r, "rifleman-3")
    refused("4.3.3", act, side, r, "inspire", target="rifleman-2", target_distance_cm=5)


def test_10_ALEMANIA_independence_once_per_turn_not_to_leaders():
    r = roster()
    side = activate(new_side_turn(r), r, "rifleman-1")
    refused("10 ALEMANIA", order, side, r, "nco")
    refused("10 ALEMANIA", order, side, r, "officer")
    side = order(side, r, "rifleman-2")
    assert side.independence_used and side.orders_given == 1
    side = end_activation(side).side
    side = end_activation(activate(side, r, "rifleman-2", via="order")).side
    refused("10 ALEMANIA", order, activate(side, r, "rifleman-3"), r, "rifleman-4")
    # the officer's orders are not Independence orders
    assert order(activate(side, r, "officer"), r, "rifleman-4").orders_given == 2


def test_8_3_3_political_officer_one_order_per_turn_may_order_officer():
    r = roster(
        "USSR/rifle_squad",
        **{"rifleman-1": {"specialist": "political_officer", "weapon": "pistol"}},
    )
    side = activate(new_side_turn(r), r, "rifleman-1")
    side = order(side, r, "officer")
    assert side.political_used
    refused("8.3.3", order, side, r, "nco")
    side = end_activation(side).side
    assert side.pending_orders == ("officer",)
    side = activate(side, r, "officer", via="order")
    assert side.active.via == "order"


def test_4_3_3_inspire_courage():
    r = roster()
    side = activate(
        new_side_turn(r, suppressed={"rifleman-1", "rifleman-2", "rifleman-3", "rifleman-4"}),
        r,
        "nco",
    )
    refused(
        "4.3.3", act, side, r, "inspire", target="rifleman-5", target_distance_cm=5
    )  # not suppressed
    refused("4.3.3", act, side, r, "inspire", target="rifleman-1", target_distance_cm=25)
    refused(
        "4.3.3",
        act,
        side,
        r,
        "inspire",
        target="rifleman-1",
        target_distance_cm=5,
        target_in_los=False,
    )
    for sid in ("rifleman-1", "rifleman-2", "rifleman-3"):
        side = act(side, r, "inspire", target=sid, target_distance_cm=10).side
        assert not side.soldiers[sid].suppressed
    assert side.active.inspires == 3 and side.active.pa_left == 0
    more = dataclasses.replace(side, active=dataclasses.replace(side.active, pa_left=3))
    refused("4.3.3", act, more, r, "inspire", target="rifleman-4", target_distance_cm=10)


def test_8_1_3_one_inspire_for_the_MG_team():
    r = roster()
    side = activate(new_side_turn(r, suppressed={"mg_gunner", "mg_assistant-1"}), r, "officer")
    side = act(
        side, r, "inspire", target="mg_gunner", target_distance_cm=10, team_with="mg_assistant-1"
    ).side
    assert (
        not side.soldiers["mg_gunner"].suppressed and not side.soldiers["mg_assistant-1"].suppressed
    )


def test_8_3_2_tend_medic_only_once_per_turn_and_no_attack():
    r = roster(**{"rifleman-1": {"specialist": "medic"}})
    side = set_state(new_side_turn(r), "rifleman-2", out=True)
    side = set_state(side, "rifleman-3", out=True)
    refused("8.3.2", act, activate(side, r, "rifleman-4"), r, "tend", target="rifleman-2")
    medic = activate(side, r, "rifleman-1")
    refused("8.3.2", act, medic, r, "tend", target="rifleman-4")  # not downed
    tended = act(medic, r, "tend", target="rifleman-2").side
    refused("8.3.2", act, tended, r, "shoot", target_distance_cm=20)
    shot = act(medic, r, "shoot", target_distance_cm=20).side
    refused("8.3.2", act, shot, r, "tend", target="rifleman-2")
    again = activate(end_activation(tended).side, r, "rifleman-1")
    refused("8.3.2", act, again, r, "tend", target="rifleman-3")


def test_set_state_out_drops_pending_orders():
    r = roster()
    side = end_activation(order(activate(new_side_turn(r), r, "officer"), r, "rifleman-1")).side
    side = set_state(side, "rifleman-1", out=True)
    assert side.pending_orders == ()
    assert activate(side, r, "rifleman-2").active.soldier_id == "rifleman-2"

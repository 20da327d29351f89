"""Activations (§4.3.2, §5, §6.2.6-6.2.10), anticipations (§7.4) and their limits."""

import dataclasses

import pytest

from rules.errors import RuleError
from rules.parabellum.activation import (
    ACTION_COSTS,
    Activation,
    ActivationOptions,
    SideTurn,
    act,
    anticipate,
    end_activation,
    legal_problems,
    may_react,
    new_side_turn,
    reaction_restricted,
    set_state,
    start_activation,
)
from rules.parabellum.roster import new_roster
from rules.parabellum.shooting import restricted_reaction_allowed
from rules.parabellum.squad import Roster


def roster(squad="GER/grenadier", **changes) -> Roster:
    """A basic squad; `changes` maps soldier id → field changes."""
    r = new_roster(squad)
    for sid, fields in changes.items():
        r = r.replace(dataclasses.replace(r.soldier(sid), **fields))
    return r


def started(r: Roster, sid: str, side: SideTurn | None = None, via="blue", **kw) -> SideTurn:
    side = side or new_side_turn(r, **kw)
    return start_activation(side, r, sid, via=via).side


def refused(rule: str, fn, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as err:
        fn(*args, **kwargs)
    assert err.value.rule == rule, err.value
    return err.value


def test_EX_4_3_2_double_time_then_shot_uses_all_PA():
    r = roster()
    side = started(r, "rifleman-1")
    side = act(side, r, "double_time", distance_cm=25).side
    step = act(side, r, "shoot", target_distance_cm=30)
    assert step.pa_cost == 1 and step.side.active.pa_left == 0
    refused("4.3.2", act, step.side, r, "shoot", target_distance_cm=30)  # no PA left
    assert end_activation(step.side).side.active is None


def test_EX_4_3_2_variant_no_shot_ends_by_choice_with_PA_lost():
    r = roster()
    side = act(started(r, "rifleman-1"), r, "double_time", distance_cm=25).side
    assert side.active.pa_left == 1
    step = end_activation(side)
    assert step.side.active is None
    assert step.explanation.steps[0].value == 1  # 1 PA lost
    assert step.side.soldiers["rifleman-1"].double_time


@pytest.mark.parametrize(
    ("action", "cost"),
    [("no_move", 0), ("cautious", 1), ("double_time", 2), ("crawl", 3)],
)
def test_T_ACTIONS_movement_costs(action, cost):
    r = roster()
    step = act(
        started(r, "rifleman-1"),
        r,
        action,
        distance_cm=0 if action == "no_move" else 10 if action != "double_time" else 20,
    )
    assert step.pa_cost == cost == ACTION_COSTS[action]
    assert step.side.active.pa_left == 3 - cost


def test_T_ACTIONS_table_matches_the_seed():
    assert ACTION_COSTS == {
        "return_to_action": 2, "covering_fire": 1, "no_move": 0, "cautious": 1,
        "double_time": 2, "crawl": 3, "aim": 2, "shoot": 1, "grenade": 2, "assault": 0,
        "inspire": 1, "order": 1, "tend": 0, "projector": 2, "launcher": 3,
    }  # fmt: skip


def test_T_ACTIONS_attack_and_other_costs():
    r = roster(
        **{"rifleman-1": {"extras": ("panzerfaust",)}, "rifleman-2": {"specialist": "medic"}}
    )
    side = started(r, "rifleman-1")
    assert act(side, r, "covering_fire").pa_cost == 1
    assert act(side, r, "aim").pa_cost == 2
    assert act(side, r, "shoot", target_distance_cm=20).pa_cost == 1
    assert act(side, r, "grenade", target_distance_cm=15).pa_cost == 2
    assert act(side, r, "projector", target_distance_cm=25).pa_cost == 2
    moved = act(side, r, "cautious", distance_cm=10).side
    assert act(moved, r, "assault", target_distance_cm=2).pa_cost == 0
    off = started(r, "officer")
    assert act(off, r, "order", target="rifleman-3", target_distance_cm=10).pa_cost == 1
    sup = set_state(off, "rifleman-3", suppressed=True)
    assert act(sup, r, "inspire", target="rifleman-3", target_distance_cm=10).pa_cost == 1
    medic = started(r, "rifleman-2", set_state(new_side_turn(r), "rifleman-4", out=True))
    assert act(medic, r, "tend", target="rifleman-4").pa_cost == 0


def test_T_ACTIONS_US_launcher_costs_3_and_restricts_reaction():
    r = roster("USA/rifleman", **{"rifleman-3": {"extras": ("grenade_launcher",)}})
    step = act(started(r, "rifleman-3"), r, "launcher", target_distance_cm=30)
    assert step.pa_cost == 3 and reaction_restricted(step.side.active)
    refused(
        "10 ESTADOS UNIDOS", act, started(r, "rifleman-3"), r, "launcher", target_distance_cm=15
    )
    refused("10 ESTADOS UNIDOS", act, started(r, "rifleman-4"), r, "launcher")


def test_6_5_return_to_action_first_and_costs():
    r = roster()
    side = started(r, "rifleman-1", suppressed={"rifleman-1", "officer"})
    refused("6.5", act, side, r, "cautious", distance_cm=5)
    step = act(side, r, "return_to_action")
    assert step.pa_cost == 2 and not step.side.soldiers["rifleman-1"].suppressed
    assert step.side.active.returned
    refused("6.5", act, step.side, r, "return_to_action")
    off = started(r, "officer", suppressed={"officer"})
    assert act(off, r, "return_to_action").pa_cost == 1


def test_8_4_2_tenacious_and_SISSU_return_for_1_PA():
    for squad in ("GER/waffen_ss", "FIN/jalkavaki"):
        r = roster(squad)
        side = started(r, "rifleman-1", suppressed={"rifleman-1"})
        assert act(side, r, "return_to_action").pa_cost == 1


def test_8_3_3_political_officer_returns_for_1_PA():
    r = roster(
        "USSR/rifle_squad",
        **{"rifleman-1": {"specialist": "political_officer", "weapon": "pistol"}},
    )
    side = started(r, "rifleman-1", suppressed={"rifleman-1"})
    assert act(side, r, "return_to_action").pa_cost == 1


def test_8_1_3_MG_team_returns_together():
    r = roster()
    side = started(r, "mg_gunner", suppressed={"mg_gunner", "mg_assistant-1"})
    side = act(side, r, "return_to_action", team_with="mg_assistant-1").side
    assert not side.soldiers["mg_assistant-1"].suppressed
    refused("8.1.3", act, started(r, "mg_gunner", suppressed={"mg_gunner"}), r,
            "return_to_action", team_with="rifleman-1")  # fmt: skip


def test_4_3_2_mandatory_order():
    r = roster()
    side = started(r, "rifleman-1")
    moved = act(side, r, "cautious", distance_cm=10).side
    refused("4.3.2", act, moved, r, "covering_fire")
    refused("5 A", act, moved, r, "crawl", distance_cm=5)
    shot = act(moved, r, "shoot", target_distance_cm=20).side
    refused("4.3.2", act, shot, r, "no_move")
    aimed = act(side, r, "aim").side
    refused("4.3.2", act, aimed, r, "cautious", distance_cm=5)
    refused("6.2.6", act, aimed, r, "grenade")
    covered = act(side, r, "covering_fire").side
    refused("6.2.10", act, covered, r, "covering_fire")


def test_4_3_2_C_one_attack_type():
    r = roster(**{"officer": {"weapon": "smg"}})
    side = act(started(r, "officer"), r, "shoot", target_distance_cm=10).side
    refused("4.3.2 C", act, side, r, "grenade")
    side = act(started(r, "officer"), r, "grenade", target_distance_cm=10).side
    refused("4.3.2 C", act, side, r, "shoot")


def test_6_6_shots_per_weapon_rule():
    r = roster(**{"rifleman-1": {"weapon": "assault_rifle"}})

    def max_shots(sid, move=None, dist=10):
        side = started(r, sid)
        if move:
            side = act(side, r, move, distance_cm=dist).side
        n = 0
        while True:
            try:
                side = act(side, r, "shoot", target_distance_cm=20).side
            except RuleError:
                return n
            n += 1

    assert max_shots("officer") == 3  # smg: Automatic
    assert max_shots("rifleman-2") == 1  # Bolt
    assert max_shots("mg_gunner") == 3
    assert max_shots("mg_gunner", "cautious") == 1  # Cumbersome
    assert max_shots("mg_gunner", "double_time", 20) == 0
    assert max_shots("rifleman-1", "cautious") == 2  # assault rifle ≤40 cm: Automatic, 2 PA
    us = roster("USA/rifleman")
    r = us
    assert max_shots("rifleman-1") == 2  # Semi-automatic, not moved
    assert max_shots("rifleman-1", "cautious") == 1


def test_6_2_6_aim_needs_the_Aim_rule_and_extends_bolt_range():
    r = roster()
    side = act(started(r, "rifleman-1"), r, "aim").side
    assert act(side, r, "shoot", target_distance_cm=58).pa_cost == 1
    refused("6.2.1", act, side, r, "shoot", target_distance_cm=61)
    refused("6.2.1", act, started(r, "rifleman-1"), r, "shoot", target_distance_cm=55)
    refused("6.2.6", act, started(r, "officer"), r, "aim")  # smg


def test_5_movement_caps_and_terrain():
    r = roster()
    side = started(r, "rifleman-1")
    refused("5", act, side, r, "cautious", distance_cm=16)
    refused("5", act, side, r, "crawl", distance_cm=11)
    refused("5", act, side, r, "double_time", distance_cm=31)
    refused("5", act, side, r, "double_time", distance_cm=12)  # 16-30 cm by the letter
    opts = ActivationOptions(any_double_time_distance=True)
    assert act(side, r, "double_time", distance_cm=12, options=opts).pa_cost == 2
    refused("5", act, side, r, "double_time", distance_cm=20, terrain="rough")
    refused("5", act, side, r, "double_time", distance_cm=20, started_in_rough=True)
    refused("5", act, side, r, "double_time", distance_cm=20, crosses_obstacle=True)
    refused("5", act, side, r, "double_time", distance_cm=16, crosses_obstacle=True,
            started_touching_obstacle=True)  # fmt: skip
    assert act(side, r, "double_time", distance_cm=15, crosses_obstacle=True,
               started_touching_obstacle=True).pa_cost == 2  # fmt: skip
    refused("3.1", act, side, r, "cautious", distance_cm=5, terrain="impassable")
    assert act(side, r, "cautious", distance_cm=15, terrain="rough").pa_cost == 1


def test_8_4_3_all_terrain_double_time_through_rough_up_to_25():
    r = roster("ITA/alpini")
    side = started(r, "rifleman-1")
    assert act(side, r, "double_time", distance_cm=25, terrain="rough").pa_cost == 2
    refused("5", act, side, r, "double_time", distance_cm=26, crosses_obstacle=True)
    assert act(side, r, "double_time", distance_cm=30).pa_cost == 2


def test_5_B_per_turn_movement_limits():
    r = roster()
    side = act(started(r, "rifleman-1"), r, "cautious", distance_cm=15).side
    side = end_activation(side).side
    side = start_activation(side, r, "rifleman-1", via="blue").side
    refused("5 B", act, side, r, "double_time", distance_cm=16)
    assert act(side, r, "crawl", distance_cm=10).side.soldiers["rifleman-1"].distance_cm == 25
    side = act(started(r, "rifleman-2"), r, "double_time", distance_cm=16).side
    side = start_activation(end_activation(side).side, r, "rifleman-2", via="blue").side
    refused("5 B", act, side, r, "cautious", distance_cm=1)
    assert act(side, r, "no_move").pa_cost == 0


def test_5_B_30_cm_per_turn():
    r = roster()
    side = act(started(r, "rifleman-1"), r, "cautious", distance_cm=15, terrain="rough").side
    side = start_activation(end_activation(side).side, r, "rifleman-1", via="blue").side
    refused("5", act, side, r, "cautious", distance_cm=15.5)  # the caps keep a turn ≤30 cm
    assert act(side, r, "cautious", distance_cm=15).side.soldiers["rifleman-1"].distance_cm == 30


def test_4_3_2_A_two_activations_per_turn():
    r = roster()
    side = end_activation(started(r, "rifleman-1")).side
    side = end_activation(start_activation(side, r, "rifleman-1", via="blue").side).side
    err = refused("4.3.2 A", start_activation, side, r, "rifleman-1", via="blue")
    assert "twice" in str(err)
    refused("4.3.2", start_activation, started(r, "rifleman-2"), r, "rifleman-3", via="blue")


def test_8_2_2_recruits_one_blue_token_USSR_two():
    r = roster(**{"rifleman-1": {"experience": "recruit"}})
    side = end_activation(started(r, "rifleman-1")).side
    refused("8.2.2", start_activation, side, r, "rifleman-1", via="blue")
    off = act(start_activation(side, r, "officer", via="blue").side, r, "order",
              target="rifleman-1", target_distance_cm=5).side  # fmt: skip
    side = end_activation(off).side
    assert (
        start_activation(side, r, "rifleman-1", via="order").side.soldiers["rifleman-1"].activations
        == 2
    )
    ussr = roster("USSR/rifle_squad", **{"rifleman-1": {"experience": "recruit"}})
    side = end_activation(started(ussr, "rifleman-1")).side
    step = start_activation(side, ussr, "rifleman-1", via="blue")
    assert step.side.soldiers["rifleman-1"].blue_tokens == 2
    assert any(s.rule == "10 UNIÓN SOVIÉTICA" for s in step.explanation)


def test_4_3_2_blue_tokens_chosen_limit_activations():
    r = roster()
    side = end_activation(started(r, "rifleman-1", blue_tokens=1)).side
    refused("4.3.2", start_activation, side, r, "rifleman-2", via="blue")


def test_8_3_2_rests_and_out_soldiers_do_not_activate():
    r = roster()
    refused(
        "8.3.2", start_activation, new_side_turn(r, out={"rifleman-1"}), r, "rifleman-1", via="blue"
    )
    refused(
        "8.3.2",
        start_activation,
        new_side_turn(r, rests={"rifleman-1"}),
        r,
        "rifleman-1",
        via="blue",
    )


def test_EX_5_crawl_restricts_reaction():
    r = roster()
    a = act(started(r, "rifleman-4"), r, "crawl", distance_cm=8).side.active
    assert reaction_restricted(a) and may_react(a)
    assert not restricted_reaction_allowed(25, target_in_cover=True)  # soldier 2
    assert restricted_reaction_allowed(18, target_in_cover=True)  # soldier 1
    assert restricted_reaction_allowed(25, target_in_cover=False)  # soldier 3


def test_6_2_6_aim_and_shot_restrict_reaction_but_aim_alone_not_a_shot():
    r = roster()
    side = act(started(r, "rifleman-1"), r, "aim").side
    assert not reaction_restricted(side.active)
    assert reaction_restricted(act(side, r, "shoot", target_distance_cm=20).side.active)
    plain = act(started(r, "rifleman-1"), r, "shoot", target_distance_cm=20).side.active
    assert not reaction_restricted(plain)


def test_EX_6_2_7_and_6_2_8_reaction_needs_move_or_attack():
    r = roster()
    side = started(r, "rifleman-4")
    assert not may_react(side.active)
    shot = act(side, r, "shoot", target_distance_cm=20).side.active
    assert may_react(shot) and shot.attack == "shoot"
    off = started(r, "officer", suppressed={"officer", "rifleman-1"})
    off = act(off, r, "return_to_action").side
    off = act(off, r, "inspire", target="rifleman-1", target_distance_cm=15).side
    off = act(off, r, "order", target="rifleman-2", target_distance_cm=15).side
    assert not may_react(off.active)  # 6.2.8 A: return, inspire, order only
    assert not may_react(act(off, r, "no_move").side.active)
    assert may_react(Activation("x", "blue", movement="cautious"))


def test_EX_6_2_10_covering_fire_before_the_move():
    r = roster()
    side = act(started(r, "rifleman-3"), r, "covering_fire").side
    step = act(side, r, "cautious", distance_cm=12)
    assert step.side.active.covering_called and step.side.active.pa_left == 1
    assert any(
        s.rule == "6.2.10" for s in act(started(r, "rifleman-3"), r, "covering_fire").explanation
    )


def test_6_3_assault_after_cautious_or_double_time_only():
    r = roster()
    side = started(r, "rifleman-1")
    refused("6.3", act, side, r, "assault", target_distance_cm=2)
    crawled = act(side, r, "crawl", distance_cm=5).side
    refused("6.3", act, crawled, r, "assault")
    moved = act(side, r, "double_time", distance_cm=20).side
    refused("6.3", act, moved, r, "assault", target_distance_cm=4)
    refused("6.3 B", act, moved, r, "assault", target_in_los=False)
    assert act(moved, r, "assault", target_distance_cm=3).side.active.attack == "assault"


def test_6_4_grenade_range_and_no_LOS_needed():
    r = roster()
    side = started(r, "rifleman-1")
    assert act(side, r, "grenade", target_distance_cm=20, target_in_los=False).pa_cost == 2
    refused("6.4", act, side, r, "grenade", target_distance_cm=21)
    refused("6.1", act, side, r, "shoot", target_distance_cm=10, target_in_los=False)


def test_6_6_projector_needs_a_panzerfaust():
    r = roster()
    refused("6.6", act, started(r, "rifleman-1"), r, "projector", target_distance_cm=20)


def test_10_FINLANDIA_MOTTI_rifle_shot_after_crawl():
    fin = roster("FIN/jalkavaki")
    side = act(started(fin, "rifleman-1"), fin, "crawl", distance_cm=10).side
    step = act(side, fin, "shoot", target_distance_cm=30)
    assert step.pa_cost == 0 and reaction_restricted(step.side.active)
    refused("6.6", act, step.side, fin, "shoot", target_distance_cm=30)
    ger = roster()
    side = act(started(ger, "rifleman-1"), ger, "crawl", distance_cm=10).side
    refused("4.3.2", act, side, ger, "shoot", target_distance_cm=30)


def test_7_4_anticipation_crawl_only_and_counts_as_activation():
    r = roster()
    side, cost, ex = anticipate(new_side_turn(r), r, ["rifleman-1", "rifleman-2"], po=3)
    assert cost == 2 and side.anticipations == ("rifleman-1", "rifleman-2")
    assert ex.steps[0].rule == "7.4"
    refused("7.4", start_activation, side, r, "rifleman-3", via="blue")
    side = start_activation(side, r, "rifleman-1", via="anticipation").side
    refused("7.4", act, side, r, "cautious", distance_cm=5)
    refused("7.4", act, side, r, "covering_fire")
    side = end_activation(act(side, r, "crawl", distance_cm=10).side).side
    side = end_activation(start_activation(side, r, "rifleman-2", via="anticipation").side).side
    rec = side.soldiers["rifleman-1"]
    assert rec.anticipated and rec.activations == 1 and rec.cautious_or_crawl_moves == 1
    side = end_activation(start_activation(side, r, "rifleman-1", via="blue").side).side
    refused("4.3.2 A", start_activation, side, r, "rifleman-1", via="blue")
    refused("7.4", anticipate, side, r, ["rifleman-1"], po=5)  # already anticipated


def test_7_4_anticipation_limits():
    r = roster()
    side = new_side_turn(r, suppressed={"rifleman-1"})
    refused("7.4", anticipate, side, r, ["rifleman-1"], po=3)
    refused("7.4", anticipate, side, r, ["rifleman-2", "rifleman-3"], po=1)
    _, cost, _ = anticipate(side, r, ["mg_gunner", "mg_assistant-1", "rifleman-2"], po=2)
    assert cost == 2  # the MG team anticipates for 1 PO
    refused("7.4", start_activation, side, r, "rifleman-2", via="anticipation")


def test_7_4_MOTTI_in_anticipation_is_an_option():
    fin = roster("FIN/jalkavaki")
    side, _, _ = anticipate(new_side_turn(fin), fin, ["rifleman-1"], po=1)
    side = start_activation(side, fin, "rifleman-1", via="anticipation").side
    side = act(side, fin, "crawl", distance_cm=10).side
    refused("7.4", act, side, fin, "shoot", target_distance_cm=20)
    opts = ActivationOptions(motti_in_anticipation=True)
    assert act(side, fin, "shoot", target_distance_cm=20, options=opts).pa_cost == 0


def test_state_json_round_trip():
    r = roster()
    side = act(started(r, "officer"), r, "order", target="rifleman-1", target_distance_cm=5).side
    assert SideTurn.from_dict(side.to_dict()) == side
    assert legal_problems(side, r) == []


def test_4_3_2_PA_budget_of_3():
    r = roster()
    side = act(act(started(r, "rifleman-1"), r, "cautious", distance_cm=5).side, r, "aim").side
    assert side.active.pa_left == 0
    refused("4.3.2", act, side, r, "shoot", target_distance_cm=20)
    crawled = act(started(r, "rifleman-1"), r, "crawl", distance_cm=5).side
    refused("4.3.2", act, crawled, r, "grenade", target_distance_cm=10)
    sup = act(started(r, "rifleman-1", suppressed={"rifleman-1"}), r, "return_to_action").side
    refused("4.3.2", act, sup, r, "double_time", distance_cm=20)


def test_every_action_has_a_label():
    from rules.parabellum.labels import ACTIONS

    assert set(ACTIONS) == set(ACTION_COSTS)


def test_step_json_round_trip_keeps_the_explanation():
    from rules.parabellum.activation import Step

    r = roster()
    step = act(started(r, "rifleman-1"), r, "cautious", distance_cm=12)
    back = Step.from_dict(step.to_dict())
    assert back.side == step.side and back.pa_cost == 1
    assert [s.rule for s in back.explanation] == [s.rule for s in step.explanation]

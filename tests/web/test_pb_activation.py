"""A Parabellum turn on the battle page: phases, activations and their actions checked by the
rules (PA, orders, movement limits, recruits' blue tokens), anticipation, reaction words,
the undo of an activation step, and the attack procedures spending the activation's PA."""

import pytest
from django.test import Client

from campaigns.models import SkirmishSide
from tests.web.pb_play_helpers import Table, pb_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, user, other_user):
    battle = pb_battle(user, other_user)
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    return Table(client, rival, battle)


def ledger(battle, index):
    return SkirmishSide.objects.get(battle=battle, index=index).units["ledger"]


def errors(response):
    return {
        k: [str(e) for e in v]
        for k, f in response.context["forms"].items()
        for k, v in f.errors.items()
    }


def test_turn_machine_phases_and_who_plays_first(table):
    t = table
    t.do(0, "tactical", {"turn": 1, "blue_0": 3, "blue_1": 5})  # the Americans take it
    assert t.battle.play == {} or t.battle.play.get("state") is None
    # only the initiative holder chooses; nobody finishes before that
    t.do(0, "pb_first", {"first": 0}, status=400)
    t.do(0, "pb_finish", status=400)
    t.do(1, "pb_first", {"first": 0})
    state = t.battle.play["state"]
    assert (state["phase"], state["initiative"], state["acting"]) == ("reinforcements", 1, 0)
    t.do(1, "pb_finish", status=400)  # not his turn to play
    t.do(0, "pb_finish")
    t.do(1, "pb_finish")
    assert t.battle.play["state"]["phase"] == "activations"
    t.do(1, "pb_first", {"first": 1})
    t.do(1, "pb_finish")
    t.do(0, "pb_finish")
    assert t.battle.play["state"]["phase"] == "end"
    t.do(0, "pb_finish")
    t.do(1, "pb_finish")
    state = t.battle.play["state"]
    assert (state["turn"], state["phase"], state["last_initiative"]) == (2, "tactical", 1)


def test_EX_4_3_2_blue_token_double_time_then_one_shot_spends_3_PA(table):
    """EX-4.3.2: a blue token (3 PA), a double-time move (2 PA), one shot (1 PA): 0 left;
    a second shot is refused; the shot procedure spent the PA of the activation."""
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    rec = ledger(t.battle, 0)
    assert rec["active"]["pa_left"] == 3 and rec["soldiers"]["rifleman-1"]["blue_tokens"] == 1
    t.do(0, "pb_act", {"action": "double_time", "distance_cm": "20", "terrain": "open"})
    assert ledger(t.battle, 0)["active"]["pa_left"] == 1
    shot = {
        "turn": 1,
        "shooter": "0:rifleman-1",
        "target": "1:rifleman-3",
        "distance_cm": "30",
        "cover": "none",
        "dice_mode": "entered",
        "dice": "1 1 2",
    }
    t.do(0, "shoot", shot)
    rec = ledger(t.battle, 0)
    assert rec["active"]["pa_left"] == 0 and rec["active"]["shots"] == 1
    refused = t.do(0, "shoot", shot, status=400)
    assert "[4.3.2]" in str(errors(refused)["shooter"]) or "[6.6]" in str(
        errors(refused)["shooter"]
    )
    t.do(0, "pb_end")
    assert ledger(t.battle, 0)["active"] is None
    last = t.battle.events.order_by("-seq").first().summary
    assert "ends the activation" in last and "enemies not suppressed" in last


def test_movement_limits_are_refused_with_the_rule_id(table):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "blue"})
    r = t.do(
        0, "pb_act", {"action": "double_time", "distance_cm": "12", "terrain": "open"}, status=400
    )
    assert "[5]" in errors(r)["distance_cm"][0] and "16" in errors(r)["distance_cm"][0]
    r = t.do(
        0, "pb_act", {"action": "cautious", "distance_cm": "20", "terrain": "open"}, status=400
    )
    assert "[5]" in errors(r)["distance_cm"][0]
    t.do(0, "pb_act", {"action": "cautious", "distance_cm": "15", "terrain": "open"})
    r = t.do(0, "pb_act", {"action": "crawl", "distance_cm": "5", "terrain": "open"}, status=400)
    assert "[5 A]" in errors(r)["distance_cm"][0]
    assert ledger(t.battle, 0)["active"]["pa_left"] == 2  # nothing changed on refusal


def test_reading_any_double_time_distance_allows_a_short_run(table):
    t = table
    t.do(0, "readings", {"any_double_time_distance": "on"})
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "blue"})
    t.do(0, "pb_act", {"action": "double_time", "distance_cm": "12", "terrain": "open"})
    assert ledger(t.battle, 0)["soldiers"]["rifleman-2"]["double_time"] is True


def test_orders_make_the_ordered_soldiers_activate_next(table):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:nco", "via": "blue"})
    t.do(0, "pb_act", {"action": "order", "target": "0:rifleman-1", "target_distance_cm": "10"})
    t.do(0, "pb_act", {"action": "order", "target": "0:rifleman-2", "target_distance_cm": "10"})
    t.do(0, "pb_end")
    rec = ledger(t.battle, 0)
    assert rec["pending_orders"] == ["rifleman-1", "rifleman-2"] and rec["orders_given"] == 2
    summary = t.battle.events.order_by("-seq").first().summary
    assert "ordered soldiers activate next: Rifleman 1; Rifleman 2" in summary
    r = t.do(0, "pb_activate", {"soldier": "0:rifleman-5", "via": "blue"}, status=400)
    assert "[4.3.3 F]" in errors(r)["soldier"][0]
    t.do(0, "pb_finish", status=400)  # they must activate first
    t.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "order"})
    assert ledger(t.battle, 0)["pending_orders"] == ["rifleman-1"]


def test_german_independence_order_by_a_rifleman_once_a_turn(table):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    t.do(0, "pb_act", {"action": "order", "target": "0:rifleman-2", "target_distance_cm": "5"})
    t.do(0, "pb_end")
    t.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "order"})
    t.do(
        0,
        "pb_act",
        {"action": "order", "target": "0:rifleman-3", "target_distance_cm": "5"},
        status=400,
    )
    assert ledger(t.battle, 0)["independence_used"] is True


def test_undo_of_an_activation_step_restores_the_ledger(table):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    before = ledger(t.battle, 0)
    t.do(0, "pb_act", {"action": "cautious", "distance_cm": "10", "terrain": "open"})
    assert ledger(t.battle, 0) != before
    t.do(0, "undo")
    assert ledger(t.battle, 0) == before


def test_anticipation_costs_PO_and_counts_as_the_turns_reinforcement(table):
    t = table
    t.do(0, "tactical", {"turn": 1, "blue_0": 4, "blue_1": 3})
    side = SkirmishSide.objects.get(battle=t.battle, index=0)
    po = side.po
    t.do(0, "pb_first", {"first": 0})
    t.do(0, "pb_anticipate", {"soldiers": ["0:rifleman-1", "0:rifleman-2"]})
    side.refresh_from_db()
    assert side.po == po - 2
    assert side.calls == [{"turn": 1, "kind": "anticipation", "po": 2}]
    r = t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "anticipation"})
    r = t.do(0, "pb_act", {"action": "cautious", "distance_cm": "5"}, status=400)
    assert "[7.4]" in str(errors(r))
    t.do(0, "pb_act", {"action": "crawl", "distance_cm": "8", "terrain": "open"})
    t.do(0, "pb_end")
    r = t.do(
        0,
        "support",
        {"turn": 1, "kind": "sniper", "targets": ["1:rifleman-1"], "dice_mode": "server"},
        status=400,
    )
    assert "[4.2.2 B]" in str(errors(r))


def test_recruits_take_one_blue_token_the_soviets_two(client, user, other_user):
    battle = pb_battle(user, other_user, home="USSR/rifle_squad", medic=False)
    side = SkirmishSide.objects.get(battle=battle, index=0)
    side.snapshot["soldiers"][4]["experience"] = "recruit"  # rifleman-1 fielded as a recruit
    side.save()
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    t = Table(client, rival, battle)
    recruit = next(
        s["id"]
        for s in SkirmishSide.objects.get(battle=battle, index=0).snapshot["soldiers"]
        if s["experience"] == "recruit"
    )
    t.to_activations(blue=(6, 3))
    for _ in range(2):
        t.do(0, "pb_activate", {"soldier": f"0:{recruit}", "via": "blue"})
        t.do(0, "pb_end")
    assert ledger(t.battle, 0)["soldiers"][recruit]["blue_tokens"] == 2


def test_reaction_words_after_a_crawl_are_restricted(table):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    t.do(0, "pb_act", {"action": "crawl", "distance_cm": "10"})
    t.do(0, "pb_end")
    assert "restricted reaction fire" in t.battle.events.order_by("-seq").first().summary
    t.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "blue"})
    t.do(0, "pb_end")
    assert "no reaction fire" in t.battle.events.order_by("-seq").first().summary


def test_10_finland_motti_shot_after_a_crawl_and_sissu_quick_return(client, user, other_user):
    battle = pb_battle(user, other_user, home="FIN/jalkavaki", medic=False)
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    t = Table(client, rival, battle)
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    t.do(0, "pb_act", {"action": "crawl", "distance_cm": "10", "terrain": "rough"})
    shot = {
        "turn": 1,
        "shooter": "0:rifleman-1",
        "target": "1:rifleman-1",
        "distance_cm": "20",
        "cover": "none",
        "dice_mode": "entered",
        "dice": "1 1 2",
    }
    t.do(0, "shoot", shot)
    assert ledger(t.battle, 0)["active"]["shots"] == 1
    t.do(0, "shoot", shot, status=400)  # one MOTTI shot
    t.do(0, "pb_end")
    # SISSU: tenacious, a suppressed soldier returns to action for 1 PA
    side = SkirmishSide.objects.get(battle=t.battle, index=0)
    side.units["ledger"]["soldiers"]["rifleman-2"]["suppressed"] = True
    side.save()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-2", "via": "blue"})
    t.do(0, "pb_act", {"action": "return_to_action"})
    assert ledger(t.battle, 0)["active"]["pa_left"] == 2
    t.do(0, "pb_end")
    # all-terrain (8.4.3): a double time through rough terrain, up to 25 cm
    t.do(0, "pb_activate", {"soldier": "0:rifleman-3", "via": "blue"})
    t.do(0, "pb_act", {"action": "double_time", "distance_cm": "25", "terrain": "rough"})
    assert ledger(t.battle, 0)["soldiers"]["rifleman-3"]["distance_cm"] == 25


def test_5_without_all_terrain_no_double_time_through_rough_ground(table):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-3", "via": "blue"})
    r = t.do(
        0, "pb_act", {"action": "double_time", "distance_cm": "25", "terrain": "rough"}, status=400
    )
    assert (
        "[5] a double-time move may not start in or go through rough terrain"
        in errors(r)["distance_cm"][0]
    )


def test_8_2_2_a_recruit_takes_one_blue_token(table):
    t = table
    side = SkirmishSide.objects.get(battle=t.battle, index=0)
    side.snapshot["soldiers"][9]["experience"] = "recruit"  # rifleman-5
    side.save()
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-5", "via": "blue"})
    t.do(0, "pb_end")
    r = t.do(0, "pb_activate", {"soldier": "0:rifleman-5", "via": "blue"}, status=400)
    assert "[8.2.2]" in errors(r)["soldier"][0]


def test_10_germany_mg42_bonus_only_for_the_activated_gunner(table):
    t = table
    t.to_activations()
    shot = {
        "turn": 1,
        "shooter": "0:mg_gunner",
        "target": "1:rifleman-1",
        "distance_cm": "30",
        "cover": "none",
        "mg42_assisted": "on",
        "dice_mode": "entered",
        "dice": "1 1 2",
    }
    r = t.do(0, "shoot", shot, status=400)
    assert "mg42_assisted" in errors(r)
    t.do(0, "pb_activate", {"soldier": "0:mg_gunner", "via": "blue"})
    t.do(0, "shoot", shot)
    event = t.battle.events.filter(rule="6.1").get()
    assert "MG42 gunner with assistant" in str(event.data["explanation"])


def test_9_1_role_roll_defence_of_the_homeland_italy_plus_2_must_defend(client, user, other_user):
    battle = pb_battle(user, other_user, home="ITA/fucilieri", medic=False)
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    t = Table(client, rival, battle)
    roles = lambda: list(t.battle.sides.order_by("index").values_list("role", flat=True))  # noqa: E731
    assert roles() == ["attacker", "defender"]
    # 2 + 2 = 4 ties the American 4: both roll again; 3 + 2 = 5 beats 4
    r = t.do(
        0,
        "pb_roles",
        {"winner_role": "attacker", "dice_mode": "entered", "dice": "2; 4; 3; 4"},
        status=400,
    )
    assert "[10 ITALIA (RSI)]" in errors(r)["winner_role"][0]
    assert roles() == ["attacker", "defender"]
    t.do(0, "pb_roles", {"dice_mode": "entered", "dice": "2; 4; 3; 4"})
    assert roles() == ["defender", "attacker"]
    event = t.battle.events.filter(rule="9.1", kind="roll").get()
    assert "+2 (Italy)" in str(event.data["explanation"])
    t.do(1, "pb_roles", {"dice_mode": "entered", "dice": "1; 6"}, status=400)  # once


def test_9_1_role_roll_winner_must_choose(client, user, other_user):
    battle = pb_battle(user, other_user, medic=False)
    client.force_login(user)
    t = Table(client, Client(), battle)
    r = t.do(0, "pb_roles", {"dice_mode": "entered", "dice": "6; 1"}, status=400)
    assert "ATTACKER or DEFENDER" in errors(r)["winner_role"][0]
    t.do(0, "pb_roles", {"winner_role": "defender", "dice_mode": "entered", "dice": "6; 1"})
    assert list(t.battle.sides.order_by("index").values_list("role", flat=True)) == [
        "defender",
        "attacker",
    ]
    # undone: the roles swap back (one role per battle, both saved in turn)
    t.do(0, "undo")
    assert list(t.battle.sides.order_by("index").values_list("role", flat=True)) == [
        "attacker",
        "defender",
    ]


def test_6_4_a_grenade_in_an_activation_costs_2_PA_and_suppresses_in_the_ledger(table):
    """Deviation 2D6 3+4 = 7 cm, direction 5; the caught rifleman evades 4+4+5 = 13 ≥ 9:
    suppressed — written to the enemy's ledger."""
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    t.do(0, "pb_act", {"action": "cautious", "distance_cm": "5"})
    grenade = {
        "turn": 1,
        "thrower": "0:rifleman-1",
        "distance_cm": "15",
        "moved": "on",
        "los_to_marker": "on",
        "targets": ["1:rifleman-2"],
        "dice_mode": "entered",
        "dice": "3 4; 5; 4 4 5",
    }
    t.do(0, "grenade", grenade)
    active = ledger(t.battle, 0)["active"]
    assert (active["pa_left"], active["attack"]) == (0, "grenade")
    assert ledger(t.battle, 1)["soldiers"]["rifleman-2"]["suppressed"] is True
    r = t.do(0, "grenade", grenade, status=400)  # one kind of attack, and no PA left
    assert "[4.3.2" in errors(r)["thrower"][0]

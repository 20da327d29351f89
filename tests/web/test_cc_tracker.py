"""Issue 12: a Combat Commander battle tracked by the rules through the services — the
tracks, Sudden Death against the Time space, surrender, undo, and no double apply."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import BattleAction, BattleTracker, LogEntry
from campaigns.services.cc_battle import battle_act, battle_action_undo, battle_tracker_start
from rules.cc.battle.clock import sudden_death_odds
from rules.cc.battle.state import BattleState
from rules.i18n import Msg
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db

START = {
    "mode": "light",
    "time": 0,
    "sudden_death": 2,
    "initiative": "axis",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "defend"},
    "surrender": {"axis": 3, "allies": 2},
}


@pytest.fixture
def tracked(stalingrad, user, other_user):  # noqa: F811
    battle = _play_setup(stalingrad, user, other_user)
    battle_tracker_start(battle=battle, actor=user, **START)
    return battle


def state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def test_6_1_1_tracking_starts_once_with_the_scenarios_markers(tracked, user):
    s = state(tracked)
    assert (s.time, s.sudden_death, s.vp_axis) == (0, 2, 0)
    assert str(s.sides[s.initiative]) == "Germans"
    with pytest.raises(ValidationError, match="already tracked"):
        battle_tracker_start(battle=tracked, actor=user, **START)


def test_7_1_elimination_moves_vp_and_the_surrender_marker_ends_the_battle(tracked, user):
    """Two Soviet units eliminated: +2 VP each to the Germans; the second lands on the
    Soviets' Surrender space 2 and they surrender [4.2, 6.3.1]."""
    for n in (1, 2):
        battle_act(
            battle=tracked,
            actor=user,
            procedure="eliminate",
            inputs={"side": "allies", "name": f"Rifle Squad {n}", "vp_value": 2},
        )
    s = state(tracked)
    assert s.vp_axis == 4 and s.outcome is not None
    assert s.outcome.winner.value == "axis"
    over = tracked.log.filter(summary__startswith="The battle is over").get()
    assert "the Germans win" in over.summary
    with pytest.raises(ValidationError, match="over"):
        battle_act(battle=tracked, actor=user, procedure="initiative", inputs={})


@pytest.mark.parametrize(("roll", "ends"), [((1, 1), True), ((2, 1), False), ((6, 6), False)])
def test_6_2_2_sudden_death_is_compared_with_the_time_space_entered_dice(tracked, user, roll, ends):
    """SD marker on 2. The advances to spaces 1 and 2 cannot end the battle (no roll is
    below 2); on space 3 a roll below 3 ends it: 1+1 ends, 2+1 does not."""
    for _ in range(2):
        battle_act(battle=tracked, actor=user, procedure="time", inputs={"cause": "trigger"})
    assert state(tracked).outcome is None
    action = battle_act(
        battle=tracked,
        actor=user,
        procedure="time",
        inputs={"cause": "trigger"},
        entered=" ".join(map(str, roll)),
    )
    s = state(tracked)
    assert s.time == 3 and action.rolls[0]["faces"] == list(roll)
    assert (s.outcome is not None) is ends
    assert sudden_death_odds(3) == Fraction(1, 36)


def test_6_1_2_time_advance_with_the_sites_dice_logs_the_roll(tracked, user):
    battle_act(battle=tracked, actor=user, procedure="time", inputs={"cause": "trigger"})
    battle_act(battle=tracked, actor=user, procedure="time", inputs={"cause": "trigger"})
    entry = tracked.log.filter(kind=LogEntry.Kind.ROLL).latest("seq")
    assert entry.data["explanation"] and state(tracked).time == 2
    assert sudden_death_odds(2) == 0  # no two dice total below 2


def test_a_refused_action_changes_nothing(tracked, user):
    before = BattleTracker.objects.get(battle=tracked)
    with pytest.raises(ValidationError):
        battle_act(
            battle=tracked,
            actor=user,
            procedure="exit",
            inputs={"side": "axis", "vp_value": 2, "time_space": 0},  # a space already passed
        )
    after = BattleTracker.objects.get(battle=tracked)
    assert (after.state, after.version) == (before.state, before.version)
    assert not BattleAction.objects.exists()


def test_a_stale_version_is_refused_so_two_players_cannot_both_apply(tracked, user, other_user):
    version = BattleTracker.objects.get(battle=tracked).version
    common = {"procedure": "objective", "inputs": {"side": "axis", "objective": "3"}}
    battle_act(battle=tracked, actor=user, version=version, **common)
    with pytest.raises(ValidationError, match="changed since you opened it"):
        battle_act(battle=tracked, actor=other_user, version=version, **common)
    assert BattleAction.objects.count() == 1


def test_undo_by_its_player_restores_the_tracks_and_keeps_a_trace(tracked, user, other_user):
    battle_act(
        battle=tracked,
        actor=user,
        procedure="vp",
        inputs={"side": "axis", "vp": 2, "reason": "E45"},
    )
    assert state(tracked).vp_axis == 2
    with pytest.raises(ValidationError, match="Only the player who made it"):
        battle_action_undo(battle=tracked, actor=other_user)
    battle_action_undo(battle=tracked, actor=user)
    assert state(tracked).vp_axis == 0
    assert tracked.log.filter(kind=LogEntry.Kind.CORRECTION, summary__startswith="Undone").exists()
    with pytest.raises(ValidationError, match="Nothing to undo"):
        battle_action_undo(battle=tracked, actor=user)


def test_9_1_each_player_acts_for_his_side_and_outsiders_not_at_all(
    tracked, user, other_user, make_user
):
    """The Soviets cannot give away the card the Germans hold; the Germans can."""
    with pytest.raises(ValidationError, match="only its holder gives the Initiative card"):
        battle_act(battle=tracked, actor=other_user, procedure="initiative", inputs={})
    battle_act(battle=tracked, actor=user, procedure="initiative", inputs={})
    assert BattleAction.objects.get().side == "axis"
    assert state(tracked).initiative.value == "allies"
    with pytest.raises(ValidationError, match="Only the battle's players"):
        battle_act(battle=tracked, actor=make_user("nobody"), procedure="initiative", inputs={})


@pytest.mark.parametrize(
    ("roll", "shown"),
    [((2, 3), "5, rallied"), ((3, 4), "7, Suppressed"), ((4, 5), "9, no effect")],
)
def test_WE38_O22_3_rally_rolls_against_morale_7_entered_dice(tracked, other_user, roll, shown):
    action = battle_act(
        battle=tracked,
        actor=other_user,
        procedure="recover",
        inputs={"units": "Rifle Squad 2; 7"},
        entered=f"{roll[0]} {roll[1]}",
    )
    assert str(Msg.from_dict(action.result["shown"][0])).startswith(f"Rifle Squad 2: {shown}")
    assert action.side == "allies"


def test_O22_2_recover_rolls_leaders_first_once_a_turn(tracked, user, other_user):
    """Leaders roll first, then Squads, then Teams; a player is activated for Recover (or
    Rout) once a Turn [O22.1]; after the turn ends he may recover again."""
    action = battle_act(
        battle=tracked,
        actor=other_user,
        procedure="recover",
        inputs={
            "units": "Team 1; team; 6\nSquad 1; 7\nLt. Petrov; leader; 9",
            "suppressed": "MG Team",
        },
        entered="1 1; 2 2; 3 3",
    )
    rolled = [str(Msg.from_dict(m)).split(":")[0] for m in action.result["shown"]]
    assert rolled == ["Lt. Petrov", "Squad 1", "Team 1"]
    assert any("MG Team" in step["text"] for step in action.result["explanation"])
    with pytest.raises(ValidationError, match="already activated for Recover or Rout"):
        battle_act(
            battle=tracked, actor=other_user, procedure="recover", inputs={"units": "Squad 1; 7"}
        )
    battle_act(battle=tracked, actor=user, procedure="end_turn", inputs={})
    battle_act(
        battle=tracked, actor=other_user, procedure="recover", inputs={"units": "Squad 1; 7"}
    )
    with pytest.raises(ValidationError, match="line 1"):
        battle_act(
            battle=tracked, actor=user, procedure="recover", inputs={"units": "Squad one; seven"}
        )


@pytest.mark.parametrize(("roll", "shown"), [((4, 5), "retreats 2 hexes"), ((3, 4), "Suppressed")])
def test_WE39_O23_2_rout_rolls_against_morale_7(tracked, user, roll, shown):
    action = battle_act(
        battle=tracked,
        actor=user,
        procedure="rout",
        inputs={"unit": "Rifle Squad", "kind": "squad", "morale": 7, "leader_command": 0},
        entered=f"{roll[0]} {roll[1]}",
    )
    assert shown in str(Msg.from_dict(action.result["summary"]))


def test_WE16_O20_2_3_targeting_roll_multiplies_the_dice(tracked, user):
    action = battle_act(
        battle=tracked,
        actor=user,
        procedure="targeting",
        inputs={"distance": 5, "hindrance": 0},
        entered="1 6",
    )
    assert str(Msg.from_dict(action.result["shown"][0])) == "6: hit"


def test_O16_4_melee_rolls_the_inactive_side_first_with_two_entered_cards(
    tracked, user, other_user
):
    """Stalingrad: the Melee in K5 waits for the next German turn [ST-7.2]; then the Soviets
    (inactive) roll 1+1 with FP 3 = 5, the Germans 6+6 with FP 4 = 16: the Soviets lose."""
    inputs = {"hex": "K5", "inactive_units": "Rifles; 3", "active_units": "Pioneers; 4"}
    battle_act(battle=tracked, actor=user, procedure="melee_marker", inputs={"hex": "K5"})
    for actor in (user, other_user):
        battle_act(battle=tracked, actor=actor, procedure="end_turn", inputs={})
    with pytest.raises(ValidationError, match="next roll"):
        battle_act(battle=tracked, actor=user, procedure="melee", inputs=inputs, entered="1 1")
    action = battle_act(
        battle=tracked, actor=user, procedure="melee", inputs=inputs, entered="1 1; 6 6"
    )
    assert "Soviets" in str(Msg.from_dict(action.result["summary"]))


def test_WE21_O20_3_3_attack_total_is_fp_plus_the_roll(tracked, user):
    action = battle_act(
        battle=tracked, actor=user, procedure="attack", inputs={"fp": 11}, entered="4 1"
    )
    assert str(Msg.from_dict(action.result["shown"][0])) == "Attack Total 16"


@pytest.mark.parametrize(
    ("inputs", "dice", "shown"),
    [
        # WE-22: US Squad Morale 6 with Road −1 = 5, roll 6·4 = 10 → 15 < 16: broken
        ({"attack_total": 16, "morale": 5}, "6 4", "15: broken"),
        # WE-25: broken Squad, 8 − 1 road − 1 suppressed = 6, roll 1·2 → 9 < 20: eliminated
        (
            {"attack_total": 20, "morale": 6, "broken": True, "suppressed": True},
            "1 2",
            "9: eliminated",
        ),
        # WE-32: Rifle Squad Morale 7 + 1 (Biermann) = 8, roll 6·2 → 16 > 12: no effect
        ({"attack_total": 12, "morale": 8}, "6 2", "16: no effect"),
        # O20.3.4: a tie suppresses, or breaks a unit activated for Move
        ({"attack_total": 12, "morale": 8}, "2 2", "12: Suppressed"),
        ({"attack_total": 12, "morale": 8, "moving": True}, "2 2", "12: broken"),
    ],
)
def test_O20_3_4_defense_rolls_of_the_worked_examples(tracked, other_user, inputs, dice, shown):
    action = battle_act(
        battle=tracked,
        actor=other_user,
        procedure="defense",
        inputs={"unit": "US Squad", **inputs},
        entered=dice,
    )
    assert str(Msg.from_dict(action.result["shown"][0])) == shown


def test_O23_3_retreat_two_hexes_toward_the_friendly_edge(tracked, other_user):
    action = battle_act(
        battle=tracked,
        actor=other_user,
        procedure="retreat",
        inputs={"unit": "Rifle Squad", "hexes": 2, "start_distance": 4, "path": "C5; 3\nC6; 2"},
    )
    assert str(Msg.from_dict(action.result["shown"][0])) == "Rifle Squad retreats to C6"
    assert state(tracked).vp_axis == 0


def test_O23_3_5_retreat_off_the_friendly_edge_eliminates_and_the_enemy_scores(tracked, other_user):
    action = battle_act(
        battle=tracked,
        actor=other_user,
        procedure="retreat",
        inputs={"unit": "Rifle Squad", "hexes": 1, "start_distance": 0, "vp_value": 2},
    )
    shown = str(Msg.from_dict(action.result["shown"][0]))
    assert shown == "Rifle Squad is eliminated: forced off its friendly edge"
    s = state(tracked)
    assert s.vp_axis == 2 and len(s.casualties[s.active.other]) == 1


def test_O23_3_5_a_blocked_retreat_surrenders_but_not_when_a_safe_hex_was_open(tracked, other_user):
    common = {"unit": "Rifle Squad", "hexes": 1, "start_distance": 3, "vp_value": 2}
    with pytest.raises(ValidationError):
        battle_act(
            battle=tracked,
            actor=other_user,
            procedure="retreat",
            inputs={**common, "path": "D4; 2; enemy; safe"},
        )
    action = battle_act(
        battle=tracked,
        actor=other_user,
        procedure="retreat",
        inputs={**common, "path": "D4; 2; enemy"},
    )
    assert "surrenders in an enemy-occupied hex" in str(Msg.from_dict(action.result["shown"][0]))
    assert state(tracked).vp_axis == 2


@pytest.mark.parametrize(
    ("hex_number", "result"), [(1, "fixed"), (3, "still broken"), (6, "eliminated")]
)
def test_11_4_a_broken_weapon_checks_the_random_hex(tracked, user, hex_number, result):
    """FICTIONAL printed ranges: Fix 1-2, Elim 5-6."""
    action = battle_act(
        battle=tracked,
        actor=user,
        procedure="repair",
        inputs={"weapon": "LMG", "fix": "1-2", "elim": "5-6", "hex_number": hex_number},
    )
    assert str(Msg.from_dict(action.result["summary"])) == f"LMG: {result}"
    with pytest.raises(ValidationError, match="write a number or a range"):
        battle_act(
            battle=tracked,
            actor=user,
            procedure="repair",
            inputs={"weapon": "LMG", "fix": "one", "elim": "5-6", "hex_number": 1},
        )

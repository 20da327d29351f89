"""The clock and the end of the battle [6.1.2, 6.2, 6.3, 9.1, 9.2] and worked example WE-04."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from rules.cc.battle import clock as ck
from rules.cc.battle import state as st
from rules.cc.battle import victory as vi
from rules.cc.battle.state import (
    BattleMode,
    Cards,
    ChitKind,
    EndCause,
    ObjectiveChit,
    Place,
    RegisteredUnit,
    VPSource,
)
from rules.cc.battle.units import UnitKind
from rules.cc.common import Faction, Posture
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RollNeeded, RuleError
from rules.i18n import msg
from rules.serial import from_data, to_data

AX, AL = Faction.AXIS, Faction.ALLIES
FACES = [(w, c) for w in range(1, 7) for c in range(1, 7)]


def battle(**kw):
    args = dict(
        time=0,
        sudden_death=3,
        initiative=AL,
        first_player=AX,
        postures={AX: Posture.ATTACK, AL: Posture.DEFEND},
        surrender={AX: 5, AL: 5},
        sides={AX: msg("Germans"), AL: msg("Americans")},
        cards={AX: Cards(0, 50), AL: Cards(30, 12)},
    )
    return st.new_battle(**(args | kw))


def no_dice():
    return EnteredDice([])


# --- 6.1.2: the advance -----------------------------------------------------------------------


def test_WE04_last_card_showing_time_advances_once_6_1_2():
    out = ck.advance_time(battle(), side=AX, dice=no_dice(), time_trigger=True, last_card=True)
    assert out.state.time == 1
    assert str(out.explanation.steps[0].text) == (
        "Germans: the last card of the deck was revealed for a roll showing Time!: one advance; "
        "the Time marker advances to space 1"
    )


def test_6_1_2_nothing_else_advances_the_time_marker():
    with pytest.raises(RuleError, match="Time! trigger or the last card") as err:
        ck.advance_time(battle(), side=AX, dice=no_dice())
    assert err.value.rule == "6.1.2"


def test_1_4_step_1_only_the_triggering_player_reshuffles():
    out = ck.advance_time(battle(), side=AL, dice=no_dice(), time_trigger=True)
    assert out.state.cards == {AX: Cards(0, 50, 0), AL: Cards(42, 0, 1)}


def test_6_1_2_steps_3_to_6_when_the_battle_goes_on():
    out = ck.advance_time(battle(), side=AX, dice=no_dice(), time_trigger=True, smoke_hex="C4")
    texts = [str(s.text) for s in out.explanation]
    assert out.state.vp_axis == -1 and out.state.ledger[-1].source is VPSource.DEFENDER
    assert "step 4: Germans remove the Smoke in C4" in texts
    assert "step 5: no reinforcements on space 1" in texts
    assert texts[-1] == "step 6: both players may play Dig In actions [A32]"
    assert out.sudden_death_roll is None and not out.ended


def test_6_1_2_step_3_only_a_defender_gains():
    recon = {AX: Posture.RECON, AL: Posture.RECON}
    assert (
        ck.advance_time(
            battle(postures=recon), side=AX, dice=no_dice(), last_card=True
        ).state.vp_axis
        == 0
    )
    both = {AX: Posture.DEFEND, AL: Posture.DEFEND}
    out = ck.advance_time(battle(postures=both), side=AX, dice=no_dice(), last_card=True)
    assert out.state.vp_axis == 0 and len(out.state.ledger) == 2


@pytest.mark.parametrize(
    ("kw", "text"),
    [
        ({}, "step 4: no Smoke marker on the map to remove"),
        (
            {"starshell_hex": "B2"},
            "step 4: Germans remove the Starshell in B2 instead of a Smoke [NO-6.3]",
        ),
        (
            {"pacific": True, "smoke_hex": "B2"},
            "step 4: in the Pacific no Smoke is removed on a Time advance [PA-13.2]",
        ),
    ],
)
def test_6_1_2_step_4_smoke_removal_variants(kw, text):
    out = ck.advance_time(battle(), side=AX, dice=no_dice(), time_trigger=True, **kw)
    assert text in [str(s.text) for s in out.explanation]


def test_6_1_2_step_5_light_mode_reinforcements_enter_inactive_player_first():
    s = st.put_on_time_track(st.put_on_time_track(battle(), AX, 1, "Rifle"), AL, 1, "Para")
    s = st.put_on_time_track(s, AL, 2, "Later")
    out = ck.advance_time(s, side=AX, dice=no_dice(), time_trigger=True)
    assert list(out.entering.items()) == [(AL, ("Para",)), (AX, ("Rifle",))]  # Germans active
    assert out.state.reinforcements == {AX: {}, AL: {2: ("Later",)}}


def test_6_1_2_step_5_full_mode_units_enter_the_map_radios_the_artillery_box():
    s = battle(mode=BattleMode.FULL)
    for unit in (
        RegisteredUnit(
            "r", AX, "germany", UnitKind.RADIO, "Radio", place=Place.TIME_TRACK, time_space=1
        ),
        RegisteredUnit(
            "s", AX, "germany", UnitKind.SQUAD, "Rifle", place=Place.TIME_TRACK, time_space=1
        ),
    ):
        s = st.register_unit(s, unit).state
    out = ck.advance_time(s, side=AX, dice=no_dice(), time_trigger=True)
    assert out.entering == {AX: ("r", "s")}
    assert st.get_unit(out.state, "r").place is Place.ARTILLERY_BOX
    assert (st.get_unit(out.state, "s").place, st.get_unit(out.state, "s").time_space) == (
        Place.MAP,
        None,
    )


# --- 6.2: Sudden Death ------------------------------------------------------------------------


def test_6_2_2_no_roll_before_the_sudden_death_space():
    out = ck.advance_time(battle(time=1), side=AX, dice=no_dice(), time_trigger=True)
    assert out.state.time == 2 and out.sudden_death_roll is None  # no roll asked for


def test_6_2_2_a_roll_at_the_sudden_death_space():
    with pytest.raises(RollNeeded):
        ck.advance_time(battle(time=2), side=AX, dice=no_dice(), time_trigger=True)


@pytest.mark.parametrize(("faces", "ends"), [((1, 3), True), ((2, 3), False), ((6, 6), False)])
def test_6_2_2_the_battle_ends_on_a_roll_less_than_the_time_space(faces, ends):
    # Time marker moves to 5, past the Sudden Death marker on 3: 4 < 5 ends, 5 does not
    out = ck.advance_time(battle(time=4), side=AX, dice=EnteredDice([faces]), time_trigger=True)
    assert out.ended is ends and (out.state.outcome is not None) is ends
    assert out.sudden_death_roll.rule == "6.2.2" and out.sudden_death_roll.faces == faces
    assert out.state.vp_axis == (0 if ends else -1)  # no Defender VP once it ended


def test_1_9_1_the_sudden_death_roll_triggers_nothing_and_the_number_is_locked():
    out = ck.advance_time(battle(time=4), side=AX, dice=EnteredDice([(1, 3)]), last_card=True)
    lock = next(s for s in out.explanation if s.rule == "6.2.2")
    assert lock.value == 5 and "the number 5 is locked" in str(lock.text)


def test_6_3_2_sudden_death_end_vp_decides_and_9_2_zero_goes_to_the_initiative_holder():
    ahead = battle(time=4, vp_axis=3)
    out = ck.advance_time(ahead, side=AX, dice=EnteredDice([(1, 1)]), time_trigger=True)
    assert out.state.outcome == st.Outcome(AX, EndCause.SUDDEN_DEATH, "6.3.2", 3, False)
    tied = ck.advance_time(battle(time=4), side=AX, dice=EnteredDice([(1, 1)]), time_trigger=True)
    assert tied.state.outcome == st.Outcome(AL, EndCause.SUDDEN_DEATH, "6.3.2", 0, True)


def test_6_3_2_secret_chits_revealed_before_the_vp_count():
    secret = ObjectiveChit("Q", owner=AL, secret=True)
    s = battle(time=4, vp_axis=1, objectives={2: AL}, chits=(secret,))
    out = ck.advance_time(s, side=AX, dice=EnteredDice([(1, 1)]), time_trigger=True)
    assert out.ended and out.state.outcome is None
    assert out.state.pending_end == (st.EndEvent(EndCause.SUDDEN_DEATH, AX),)
    face = ObjectiveChit("Q", kind=ChitKind.OBJECTIVE, objective=2, vp=3)
    done = ck.check_game_end(out.state, faces={"Q": face}).state
    assert done.outcome.winner is AL and done.vp_axis == -2


def test_7_3_2_all_five_objectives_win_just_before_the_sudden_death_roll():
    special = ObjectiveChit("S", kind=ChitKind.SUDDEN_DEATH_CONTROL)
    s = battle(time=4, vp_axis=9, objectives=dict.fromkeys(st.OBJECTIVES, AL), chits=(special,))
    out = ck.advance_time(s, side=AX, dice=no_dice(), time_trigger=True)
    assert out.sudden_death_roll is None
    assert out.state.outcome == st.Outcome(AL, EndCause.ALL_OBJECTIVES, "7.3.2", 9, False)


def test_7_3_2_all_five_objectives_holder():
    special = ObjectiveChit("S", owner=AX, secret=True, kind=ChitKind.SUDDEN_DEATH_CONTROL)
    five = dict.fromkeys(st.OBJECTIVES, AL)
    assert ck.all_objectives_holder(battle(objectives=five, chits=(special,))) is AL
    assert ck.all_objectives_holder(battle(objectives=five)) is None
    assert ck.all_objectives_holder(battle(objectives={**five, 5: AX}, chits=(special,))) is None
    assert ck.all_objectives_holder(battle(chits=(special,))) is None  # none controlled


def test_6_2_2_sudden_death_odds_known_values():
    assert ck.sudden_death_odds(2) == 0
    assert ck.sudden_death_odds(3) == Fraction(1, 36)
    assert ck.sudden_death_odds(8) == Fraction(21, 36)
    assert ck.sudden_death_odds(13) == 1


def _ends(time_space: int, faces) -> bool:
    s = battle(time=time_space - 1, sudden_death=min(time_space, 3))
    return ck.advance_time(s, side=AX, dice=EnteredDice([faces]), time_trigger=True).ended


@given(hs.integers(min_value=1, max_value=14))
def test_6_2_2_sudden_death_odds_equal_enumeration_of_the_36_faces(time_space):
    ended = sum(_ends(time_space, f) for f in FACES)
    assert ck.sudden_death_odds(time_space) == Fraction(ended, 36)


@pytest.mark.parametrize("dice", [SeededDice(seed=7), ServerDice()])
def test_6_2_2_site_dice_roll_the_sudden_death(dice):
    out = ck.advance_time(battle(time=6), side=AL, dice=dice, time_trigger=True)
    assert out.ended is (out.sudden_death_roll.value < 7)
    assert out.sudden_death_roll.source in ("replay", "server")


def test_9_1_an_initiative_reroll_replays_the_advance_from_before_it():
    before = battle(time=4)
    first = ck.advance_time(before, side=AX, dice=EnteredDice([(1, 1)]), time_trigger=True)
    assert first.ended  # the Americans hold the card and cancel that roll
    passed, why = ck.pass_initiative(before)
    again = ck.advance_time(passed, side=AX, dice=EnteredDice([(6, 6)]), time_trigger=True)
    assert not again.ended and again.state.initiative is AX and again.state.time == 5
    assert (
        str(why.steps[0].text)
        == "Americans cancel the last roll and give the Initiative card to the Germans"
    )


# --- 6.3: the end of the battle ---------------------------------------------------------------


def test_6_3_no_pending_end_nothing_changes():
    s = battle()
    assert ck.check_game_end(s).state == s


def test_6_3_1_surrender_loses_whatever_the_vp():
    s = battle(vp_axis=10, surrender={AX: 1, AL: 5})
    s = vi.eliminate_unit(s, side=AX, name="R", vp_value=1).state
    out = ck.check_game_end(s).state.outcome
    assert out == st.Outcome(AL, EndCause.SURRENDER, "6.3.1", 9, False)


def test_6_3_1_both_lose_at_once_the_initiative_holder_wins_9_2():
    s = battle(surrender={AX: 1, AL: 1})
    s = vi.eliminate_unit(s, side=AX, name="A", vp_value=1).state  # a Melee: both at once
    s = vi.eliminate_unit(s, side=AL, name="B", vp_value=1).state
    out = ck.check_game_end(s).state.outcome
    assert (out.winner, out.tie_break, out.rule) == (AL, True, "6.3.1")


def test_6_3_1_last_unit_eliminated_loses():
    s = vi.eliminate_unit(battle(vp_axis=-4), side=AL, name="L", vp_value=1, last_unit=True).state
    out = ck.check_game_end(s).state.outcome
    assert (out.winner, out.cause) == (AX, EndCause.LAST_UNIT_ELIMINATED)


def test_6_3_2_last_unit_exited_the_vp_decide():
    s = vi.exit_unit(
        battle(vp_axis=-4), side=AX, name="L", vp_value=2, time_space=3, last_unit=True
    ).state
    out = ck.check_game_end(s).state.outcome
    assert (out.winner, out.cause, out.vp_axis) == (AL, EndCause.LAST_UNIT_EXITED, -2)


def test_6_3_2_exit_ending_yields_to_a_surrender_at_the_same_time():
    s = vi.exit_unit(
        battle(surrender={AX: 5, AL: 1}),
        side=AX,
        name="L",
        vp_value=2,
        time_space=3,
        last_unit=True,
    ).state
    s = vi.eliminate_unit(s, side=AL, name="R", vp_value=1).state
    out = ck.check_game_end(s).state.outcome
    assert (out.winner, out.cause) == (AX, EndCause.SURRENDER)


def test_6_3_the_decided_battle_takes_no_more_changes():
    s = vi.eliminate_unit(battle(), side=AL, name="L", vp_value=1, last_unit=True).state
    over = ck.check_game_end(s).state
    assert over.pending_end == ()
    with pytest.raises(RuleError, match="the battle is over: Germans won"):
        ck.advance_time(over, side=AX, dice=no_dice(), time_trigger=True)


def test_E54_elan_moves_the_surrender_marker_one_space_up_4_2():
    s, why = ck.move_surrender_marker(battle(surrender={AX: 1, AL: 5}), side=AX)
    assert (
        str(why.steps[0].text)
        == "the Germans Surrender marker moves to space 2 of their Casualty track"
    )
    assert s.surrender == {AX: 2, AL: 5}
    s = vi.eliminate_unit(s, side=AX, name="R", vp_value=1).state
    assert s.pending_end == ()  # the cushion held
    with pytest.raises(RuleError, match="no Surrender marker") as err:
        ck.move_surrender_marker(battle(surrender={AX: None, AL: 5}), side=AX)
    assert err.value.rule == "E54"


# --- cards and turns --------------------------------------------------------------------------


def test_6_1_2_taking_the_last_card_calls_for_a_time_advance():
    (s, why), last = ck.take_cards(battle(), side=AL, n=29)
    assert not last and s.cards[AL] == Cards(1, 41)
    (s, why), last = ck.take_cards(s, side=AL, n=1, to_discard=False)  # drawn into the hand
    assert last and s.cards[AL] == Cards(0, 41) and why.steps[-1].rule == "6.1.2"
    with pytest.raises(RuleError, match="holds 0 cards"):
        ck.take_cards(s, side=AL)


def test_5_end_turn_and_9_initiative_pass():
    s, why = ck.end_turn(battle())
    assert s.active is AL and str(why.steps[0].text) == "the Americans take the turn"
    s, why = ck.pass_initiative(s, reroll=False)
    assert s.initiative is AX


def test_result_round_trips():
    out = ck.advance_time(battle(time=4), side=AX, dice=EnteredDice([(2, 5)]), time_trigger=True)
    assert from_data(ck.TimeAdvance, json.loads(json.dumps(to_data(out)))) == out

"""The turn loop (§4) state machine."""

import pytest

from rules.errors import RuleError
from rules.parabellum.turn import Phase, TurnState, choose_first, finish, next_steps, set_initiative


def play_turn(state: TurnState, holder: int, first: int) -> TurnState:
    state = finish(finish(state, 0), 1)
    assert state.phase == Phase.TACTICAL  # the initiative is still unknown
    state = set_initiative(state, holder)
    assert state.phase == Phase.REINFORCEMENTS
    for phase in (Phase.REINFORCEMENTS, Phase.ACTIVATIONS):
        assert state.phase == phase and state.first is None
        state = choose_first(state, holder, first)
        state = finish(state, first)
        assert state.acting == 1 - first
        state = finish(state, 1 - first)
    assert state.phase == Phase.END
    return finish(finish(state, 1), 0)


def test_4_turn_machine_runs_five_turns():
    state = TurnState()
    for turn in range(1, 6):
        assert state.turn == turn and state.phase == Phase.TACTICAL
        state = play_turn(state, holder=turn % 2, first=0)
        if turn < 5:
            assert state.last_initiative == turn % 2 and state.initiative is None
    assert state.phase == Phase.OVER and state.turn == 5
    assert str(next_steps(state, 0)[0]) == "the battle is over: count the victory points"
    with pytest.raises(RuleError):
        finish(state, 0)


def test_4_2_1_only_the_holder_chooses_and_only_the_acting_side_finishes():
    state = set_initiative(finish(finish(TurnState(), 1), 0), 1)
    assert next_steps(state, 1) and next_steps(state, 0) == []
    with pytest.raises(RuleError) as err:
        choose_first(state, 0, 0)
    assert err.value.rule == "4.2"
    with pytest.raises(RuleError):
        finish(state, 1)  # nobody chose who plays first
    state = choose_first(state, 1, 0)
    with pytest.raises(RuleError):
        finish(state, 1)
    with pytest.raises(RuleError):
        choose_first(state, 1, 1)
    assert str(next_steps(state, 0)[0]).startswith("call one reinforcement")
    assert next_steps(state, 1) == []


def test_4_1_tactical_phase_steps_and_refusals():
    state = TurnState()
    assert next_steps(state, 0) and next_steps(state, 1)
    state = finish(state, 0)
    assert next_steps(state, 0) == []
    with pytest.raises(RuleError):
        finish(state, 0)
    with pytest.raises(RuleError):
        finish(state, 2)
    state = finish(state, 1)
    assert str(next_steps(state, 0)[0]) == "record who holds the initiative"
    with pytest.raises(RuleError):
        choose_first(state, 0, 0)


def test_4_3_4_end_phase_steps_and_json_round_trip():
    state = play_turn(TurnState(), 0, 1)
    assert state.turn == 2
    with pytest.raises(RuleError):
        set_initiative(set_initiative(finish(finish(state, 0), 1), 0), 0)
    mid = choose_first(set_initiative(finish(finish(state, 0), 1), 0), 0, 1)
    mid = finish(finish(mid, 1), 0)
    mid = finish(finish(choose_first(mid, 0, 0), 0), 1)
    assert mid.phase == Phase.END and len(next_steps(mid, 0)) == 2
    assert next_steps(finish(mid, 0), 0) == []
    assert TurnState.from_dict(mid.to_dict()) == mid

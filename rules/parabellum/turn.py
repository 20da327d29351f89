"""The turn loop (§4) as a small state machine: whose move it is and what comes next.

Five turns (§9), each: tactical phase (both players at once, §4.1), reinforcements and
activations (the initiative holder picks who plays each first, then the other plays, §4.2.1,
§4.3.1), and the end of the turn (tokens back, the medic's clean-up, §4.3.4, §8.3.2).
Players are 0 and 1.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.parabellum.battle import TURNS
from rules.serial import Serializable

SIDES = (0, 1)


class Phase(StrEnum):
    TACTICAL = "tactical"
    REINFORCEMENTS = "reinforcements"
    ACTIVATIONS = "activations"
    END = "end"
    OVER = "over"


PHASE_RULES = {
    Phase.TACTICAL: "4.1",
    Phase.REINFORCEMENTS: "4.2",
    Phase.ACTIVATIONS: "4.3",
    Phase.END: "4.3.4",
    Phase.OVER: "9",
}
SEQUENTIAL = (Phase.REINFORCEMENTS, Phase.ACTIVATIONS)


@dataclass(frozen=True)
class TurnState(Serializable):
    """`done`: who has finished the current phase; `last_initiative`: last turn's holder, who
    keeps it on a tie (§4.1)."""

    turn: int = 1
    phase: Phase = Phase.TACTICAL
    initiative: int | None = None
    first: int | None = None
    acting: int | None = None
    done: tuple[int, ...] = ()
    last_initiative: int | None = None


def _side(side: int) -> int:
    if side not in SIDES:
        raise RuleError(msg("players are 0 and 1"), rule="4")
    return side


def set_initiative(state: TurnState, holder: int) -> TurnState:
    """Record the tactical phase's initiative holder (`battle.tactical_phase`)."""
    if state.phase != Phase.TACTICAL:
        raise RuleError(msg("the initiative is settled in the tactical phase"), rule="4.1")
    return _advance(dataclasses.replace(state, initiative=_side(holder)))


def choose_first(state: TurnState, chooser: int, first: int) -> TurnState:
    """The initiative holder picks who plays this phase first (§4.2.1, §4.3.1)."""
    if state.phase not in SEQUENTIAL or state.first is not None:
        raise RuleError(msg("nobody chooses who plays first now"), rule=PHASE_RULES[state.phase])
    if _side(chooser) != state.initiative:
        raise RuleError(
            msg("the initiative holder chooses who plays first"), rule=PHASE_RULES[state.phase]
        )
    return dataclasses.replace(state, first=_side(first), acting=first)


def finish(state: TurnState, side: int) -> TurnState:
    """`side` finishes its part of the phase; after both, the next phase (after turn 5: over)."""
    _side(side)
    rule = PHASE_RULES[state.phase]
    if state.phase == Phase.OVER:
        raise RuleError(msg("the battle is over"), rule=rule)
    if side in state.done:
        raise RuleError(msg("this player has already finished the phase"), rule=rule)
    if state.phase in SEQUENTIAL:
        if state.first is None:
            raise RuleError(msg("the initiative holder chooses who plays first"), rule=rule)
        if side != state.acting:
            raise RuleError(msg("it is the other player's turn to play"), rule=rule)
    done = (*state.done, side)
    acting = 1 - side if state.phase in SEQUENTIAL and len(done) < 2 else None
    return _advance(dataclasses.replace(state, done=done, acting=acting))


def _advance(state: TurnState) -> TurnState:
    if len(state.done) < 2 or (state.phase == Phase.TACTICAL and state.initiative is None):
        return state
    reset = {"done": (), "first": None, "acting": None}
    if state.phase == Phase.TACTICAL:
        return dataclasses.replace(state, phase=Phase.REINFORCEMENTS, **reset)
    if state.phase == Phase.REINFORCEMENTS:
        return dataclasses.replace(state, phase=Phase.ACTIVATIONS, **reset)
    if state.phase == Phase.ACTIVATIONS:
        return dataclasses.replace(state, phase=Phase.END, **reset)
    if state.turn >= TURNS:
        return dataclasses.replace(state, phase=Phase.OVER, **reset)
    return TurnState(turn=state.turn + 1, last_initiative=state.initiative)


def next_steps(state: TurnState, side: int) -> list[Msg]:
    """What `side` must do now (empty list: nothing, wait)."""
    _side(side)
    phase, other_done = state.phase, (1 - side) in state.done
    if phase == Phase.OVER:
        return [msg("the battle is over: count the victory points")]
    if phase == Phase.TACTICAL:
        if side not in state.done:
            return [msg("choose 6 of your 10 tactical tokens in secret, then reveal them")]
        if other_done and state.initiative is None:
            return [msg("record who holds the initiative")]
        return []
    if phase == Phase.END:
        if side in state.done:
            return []
        return [
            msg("return the blue and green tokens to the reserve"),
            msg("remove downed soldiers more than 20 cm from the medic"),
        ]
    if state.first is None:
        return [msg("choose who plays this phase first")] if side == state.initiative else []
    if side != state.acting:
        return []
    if phase == Phase.REINFORCEMENTS:
        return [msg("call one reinforcement or make an anticipation, or pass")]
    return [msg("activate your soldiers, then finish the phase")]

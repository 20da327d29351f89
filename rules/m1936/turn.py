"""Initiative (VI.1) and the turn's phases (V.1, V.6).

The turn is the attacker's phase, then the defender's, then the end of turn. Initiative
only orders resolution (who resolves first); it does not change the order of the phases.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

from rules.dice import D10, DiceSource, Distribution
from rules.errors import RollNeeded, RuleError
from rules.explain import Decision, Explanation, Step
from rules.i18n import msg
from rules.serial import Serializable

INITIATIVE_RULE = "M36-VI.1"
TURN_RULE = "M36-V.1"
END_RULE = "M36-V.6"
TIE_METHODS = ("d10", "scenario")
MAX_REROLLS = 50


@dataclass(frozen=True)
class InitiativeResult(Serializable):
    """`winner` is 0 (side A) or 1 (side B); None while a scenario tie is undecided."""

    total_a: int
    total_b: int
    winner: int | None
    tie: bool
    decision: Decision | None = None
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def _total(value: object, side: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            msg("the Initiative total of side %(side)s is a whole number", side=side),
            rule=INITIATIVE_RULE,
        )
    return value


def initiative(
    *,
    total_a: int,
    total_b: int,
    dice: DiceSource | None,
    tie_method: str = "d10",
    scenario_winner: int | None = None,
) -> InitiativeResult:
    """Higher total Initiative (I) first. A tie goes to the scenario's method (`scenario`:
    `scenario_winner`, else a pending decision) or to 1d10 per side, re-rolled while equal."""
    exp = Explanation()
    a = exp.add(INITIATIVE_RULE, msg("side A total Initiative"), _total(total_a, "A"))
    b = exp.add(INITIATIVE_RULE, msg("side B total Initiative"), _total(total_b, "B"))
    if tie_method not in TIE_METHODS:
        raise RuleError(
            msg("unknown tie method %(method)s", method=str(tie_method)), rule=INITIATIVE_RULE
        )
    if a != b:
        return InitiativeResult(
            a, b, exp.add(INITIATIVE_RULE, msg("higher total wins"), int(b > a)), False, None, exp
        )
    if tie_method == "scenario":
        if scenario_winner in (0, 1):
            exp.add(INITIATIVE_RULE, msg("tie: the scenario decides"), scenario_winner)
            return InitiativeResult(a, b, scenario_winner, True, None, exp)
        decision = Decision(
            "initiative_tie",
            INITIATIVE_RULE,
            msg("tie: which side does the scenario favour?"),
            (0, 1),
        )
        return InitiativeResult(a, b, None, True, decision, exp)
    if dice is None:
        raise RollNeeded("d10", msg("initiative tie"), rule=INITIATIVE_RULE)
    for _ in range(MAX_REROLLS):
        ra = dice.roll(D10, purpose=msg("initiative tie, side A"), rule=INITIATIVE_RULE)
        rb = dice.roll(D10, purpose=msg("initiative tie, side B"), rule=INITIATIVE_RULE)
        exp.add(INITIATIVE_RULE, msg("side A rolls 1d10"), ra.value, ra)
        exp.add(INITIATIVE_RULE, msg("side B rolls 1d10"), rb.value, rb)
        if ra.value != rb.value:
            winner = exp.add(INITIATIVE_RULE, msg("higher roll wins"), int(rb.value > ra.value))
            return InitiativeResult(a, b, winner, True, None, exp)
        exp.add(INITIATIVE_RULE, msg("equal rolls: roll again"), True)
    raise RuleError(msg("too many equal initiative rolls"), rule=INITIATIVE_RULE)


def initiative_odds(total_a: int, total_b: int) -> Fraction:
    """Exact chance that side A wins the initiative with the d10 tie-break (re-rolls)."""
    if total_a != total_b:
        return Fraction(int(total_a > total_b))
    d10 = Distribution.of(D10)
    wins = d10.p_greater_than(d10)
    return wins / (wins + d10.p_greater_than(d10))


class Phase(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"
    END = "end"


@dataclass(frozen=True)
class TurnState(Serializable):
    turn: int = 1
    phase: Phase = Phase.ATTACK


def next_phase(state: TurnState) -> TurnState:
    """Attack phase → defence phase → end of turn → next turn's attack phase (V.1, V.6)."""
    if state.phase is Phase.ATTACK:
        return replace(state, phase=Phase.DEFENCE)
    if state.phase is Phase.DEFENCE:
        return replace(state, phase=Phase.END)
    return TurnState(turn=state.turn + 1, phase=Phase.ATTACK)


def who_acts(state: TurnState, attacker_index: int) -> int:
    """The side whose units act in this phase (the other side reacts) (V.1)."""
    if attacker_index not in (0, 1):
        raise RuleError(msg("the attacker is side 0 or side 1"), rule=TURN_RULE)
    if state.phase is Phase.END:
        raise RuleError(msg("nobody acts at the end of the turn"), rule=END_RULE)
    return attacker_index if state.phase is Phase.ATTACK else 1 - attacker_index


def end_of_turn_steps() -> list[Step]:
    """The end-of-turn maintenance in the order the engine uses (V.6 gives three steps and
    no order for the others; see the decisions file)."""
    return [
        Step(
            END_RULE,
            msg("remove expired temporary markers: smoke, fires, artillery and air effects"),
        ),
        Step("M36-IX.2", msg("resolve infantry assaults still in contact")),
        Step("M36-V.5", msg("prolonged actions in progress advance or complete")),
        Step(END_RULE, msg("remove acted and reacted markers")),
        Step(
            "M36-XI.4",
            msg(
                "morale: suppression recovered if not fired upon, Líder and Fanático recovery, regroup"
            ),
        ),
        Step("M36-XI.7", msg("adjust morale: retreats and battalion morale")),
        Step("M36-XIV.4", msg("fog of war: reveal tokens in sight")),
        Step("M36-XV.4", msg("every 10 turns: weather change roll")),
    ]

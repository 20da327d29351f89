"""Morale checks [17.0, 17.2–17.6], assault escalation [22.0.c] and recovery [17.7].

A stack checks once, through its worst unit [17.2.a]; the total is looked up on the
campaign's Morale Table (`rules.tcs.morale_table`) or the result is entered as read off the
printed chart. Consequences come back as data for the caller to apply: new states and
modes per unit, steps lost, units eliminated (with their category, to feed battalion and
vehicle morale: `rules.tcs.morale`, `rules.tcs.vehicle_morale`) and the retreat to make.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.dice import D66, DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg
from rules.tcs.morale_table import RESULT_WORDS, MoraleResult, MoraleTable
from rules.tcs.units import UnitCategory

CHECKERS = (UnitCategory.INFANTRY, UnitCategory.HEAVY_WEAPON)
UNASSIGNED_MODIFIER = 2  # 6.3.b


class MoraleState(StrEnum):
    NORMAL = "normal"
    SUPPRESSED = "suppressed"
    PARALYZED = "paralyzed"


class Mode(StrEnum):
    FIRE = "fire"
    MOVE = "move"


STATE_OF = {
    MoraleResult.SUPPRESSED: MoraleState.SUPPRESSED,
    MoraleResult.PARALYZED: MoraleState.PARALYZED,
}
RANK = {MoraleState.NORMAL: 0, MoraleState.SUPPRESSED: 1, MoraleState.PARALYZED: 2}


@dataclass(frozen=True)
class StackUnit:
    """One counter in the checking hex, as the morale rules see it.

    `carried_by` names the transport or vehicle it rides or is towed by (in the stack);
    `gun` marks AT, IG, AA guns, mortars and on-map artillery [17.4 step 3];
    `eliminated` a unit just destroyed by the fire that caused the check [17.2.a].
    """

    id: str
    category: UnitCategory
    steps: int
    steps_lost: int = 0
    morale: int | None = None
    battalion_morale: int = 0
    state: MoraleState = MoraleState.NORMAL
    mode: Mode = Mode.FIRE
    carried_by: str | None = None
    gun: bool = False
    integrated_transport: bool = False
    unassigned: bool = False
    eliminated: bool = False
    retreating: bool = False

    @property
    def remaining(self) -> int:
        return 0 if self.eliminated else self.steps - self.steps_lost

    @property
    def worst_value(self) -> int:
        """Printed morale + steps lost (all steps if just eliminated) + battalion morale."""
        lost = self.steps if self.eliminated else self.steps_lost
        return (self.morale or 0) + lost + self.battalion_morale


@dataclass(frozen=True)
class Modifiers:
    """Morale Table modifiers read off the chart: the seed prints none of their values
    except unassigned +2 [6.3.b] (the 17.2 example uses +1 for night) [26.1.e, 11.4]."""

    night: int = 0
    crossfire: int = 0
    terrain: int = 0
    other: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class MoraleTotal:
    unit: str
    total: int
    explanation: Explanation


@dataclass(frozen=True)
class Loss:
    """Steps a unit loses; `eliminated` losses go to battalion or vehicle morale."""

    unit: str
    category: UnitCategory
    steps: int
    eliminated: bool
    rule: str


@dataclass(frozen=True)
class UnitEffect:
    unit: str
    state: MoraleState
    mode: Mode
    dismount: bool = False


@dataclass
class Outcome:
    """What the caller applies to the stack after a check, an escalation or a recovery."""

    result: MoraleResult
    effects: list[UnitEffect] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)
    retreat_hexes: int = 0
    roll: RollRecord | None = None
    total: int | None = None
    explanation: Explanation = field(default_factory=Explanation)


def _by_id(stack: Sequence[StackUnit]) -> dict[str, StackUnit]:
    return {u.id: u for u in stack}


def checking_unit(stack: Sequence[StackUnit], explanation: Explanation) -> StackUnit:
    """The unit with the highest printed morale + steps lost + battalion morale [17.2.a].

    Only infantry and heavy weapons check [17.0.a]; a unit just eliminated counts all its
    steps. Among equal values the one with the higher own modifier (unassigned) checks.
    """
    candidates = [u for u in stack if u.category in CHECKERS]
    if not candidates:
        raise RuleError(msg("only infantry and heavy weapons check morale"), rule="17.0.a")
    for u in candidates:
        if u.morale is None:
            raise RuleError(msg("%(unit)s needs its printed morale", unit=u.id), rule="17.2")
    unit = max(candidates, key=lambda u: (u.worst_value, u.unassigned))
    explanation.add(
        "17.2.a",
        msg(
            "%(unit)s checks for the stack: morale %(morale)s + %(lost)s steps lost + "
            "battalion morale %(battalion)s",
            unit=unit.id,
            morale=unit.morale,
            lost=unit.steps if unit.eliminated else unit.steps_lost,
            battalion=unit.battalion_morale,
        ),
        unit.worst_value,
    )
    return unit


def morale_total(stack: Sequence[StackUnit], modifiers: Modifiers = Modifiers()) -> MoraleTotal:
    """The checking unit and its total with the Morale Table modifiers [17.2, 6.3.b]."""
    exp = Explanation()
    unit = checking_unit(stack, exp)
    total = unit.worst_value
    named: list[tuple[str, Msg | str, int]] = [
        ("6.3.b", msg("unassigned"), UNASSIGNED_MODIFIER if unit.unassigned else 0),
        ("26.1.e", msg("night"), modifiers.night),
        ("11.4", msg("crossfire"), modifiers.crossfire),
        ("17.2", msg("target hex terrain"), modifiers.terrain),
    ]
    named += [("17.2", name, value) for name, value in modifiers.other]
    for rule, name, value in named:
        if value:
            total += exp.add(rule, msg("modifier: %(name)s", name=name), value)
    exp.add("17.2", msg("morale total"), total)
    return MoraleTotal(unit.id, total, exp)


def read_result(
    total: MoraleTotal,
    roll: RollRecord,
    table: MoraleTable | None = None,
    entered: MoraleResult | None = None,
) -> MoraleResult:
    """The result for the roll: as entered off the printed chart, else from the table;
    neither → `DecisionRequired` (its key carries the roll, to pass back with it) [17.2]."""
    if entered is not None:
        total.explanation.add(
            "17.2",
            msg(
                "result read off the Morale Table by the player (total %(total)s, roll %(roll)s)",
                total=total.total,
                roll=roll.value,
            ),
            entered.value,
            roll=roll,
        )
        return entered
    if table is None:
        raise DecisionRequired(
            Decision(
                f"morale_result:{roll.value}",
                "17.2",
                msg(
                    "Read the Morale Table: column holding %(total)s, row holding the roll "
                    "%(roll)s; enter the result",
                    total=total.total,
                    roll=roll.value,
                ),
                tuple(r.value for r in MoraleResult),
            )
        )
    return table.read(total.total, roll, total.explanation)


def _largest(stack: Sequence[StackUnit], choice: str | None) -> StackUnit:
    """The largest unit [10.0.f]: most remaining steps; a tie is the owner's choice."""
    alive = [u for u in stack if u.category in CHECKERS and u.remaining]
    most = max(u.remaining for u in alive)
    tied = [u for u in alive if u.remaining == most]
    if len(tied) == 1:
        return tied[0]
    picked = next((u for u in tied if u.id == choice), None)
    if picked is None:
        raise DecisionRequired(
            Decision(
                "largest_unit",
                "10.0.f",
                msg("Several units are the largest: choose the one that loses a step"),
                tuple(u.id for u in tied),
                chooser="owner",
            )
        )
    return picked


def _marker(stack: Sequence[StackUnit], new: MoraleState, exp: Explanation) -> list[UnitEffect]:
    """Suppressed or Paralyzed on the stack [17.3.c, 17.5.c, 17.0.a, 17.3.d, 17.5.d]."""
    units = _by_id(stack)
    effects = []
    for u in stack:
        if u.eliminated:
            continue
        if u.category not in CHECKERS:
            exp.add("17.0.a", msg("%(unit)s ignores the result (vehicle or transport)", unit=u.id))
            continue
        state = new if RANK[new] > RANK[u.state] else u.state
        carrier = units.get(u.carried_by) if u.carried_by else None
        on_transport = carrier is not None and carrier.category is UnitCategory.TRANSPORT
        dismount = carrier is not None and not on_transport
        mode = u.mode if on_transport else Mode.FIRE
        if dismount:
            exp.add("17.3.c", msg("%(unit)s dismounts from its vehicle", unit=u.id))
        effects.append(UnitEffect(u.id, state, mode, dismount))
    return effects


def _retreat(
    stack: Sequence[StackUnit], exp: Explanation, *, in_assault: bool
) -> tuple[list[UnitEffect], list[Loss], int]:
    """Mandatory retreat, steps 1–4 and 6, and the hexes to move [17.4, 17.4.c]."""
    losses: list[Loss] = []
    leaving: list[StackUnit] = []
    for u in stack:
        if u.eliminated:
            continue
        if in_assault and u.state is MoraleState.PARALYZED:
            lost = math.ceil(u.remaining / 2)
            gone = lost == u.remaining
            losses.append(Loss(u.id, u.category, lost, gone, "17.4"))
            exp.add(
                "17.4",
                msg("%(unit)s, paralyzed in an assault, loses half its steps", unit=u.id),
                lost,
            )
            if gone:
                exp.add("17.4.k", msg("%(unit)s is eliminated (battalion morale)", unit=u.id))
                continue
        leaving.append(u)
    exp.add("17.4", msg("Suppressed and Paralyzed markers removed"))
    moving: list[StackUnit] = []
    for u in leaving:
        towed = u.carried_by is not None
        if u.gun and not towed and not (u.mode is Mode.MOVE and u.integrated_transport):
            losses.append(Loss(u.id, u.category, u.remaining, True, "17.4"))
            exp.add("17.4", msg("%(unit)s cannot retreat and is eliminated", unit=u.id))
        else:
            moving.append(u)
    motor = (UnitCategory.VEHICLE, UnitCategory.TRANSPORT)
    riding = {u.id for u in moving if u.carried_by is not None}
    only_vehicles = all(u.category in motor or u.id in riding for u in moving)
    hexes = 6 if only_vehicles else 3
    exp.add(
        "17.4.c",
        msg("the stack retreats together in Move mode, %(hexes)s hexes", hexes=hexes),
        hexes,
    )
    effects = []
    for u in moving:
        stays_moving = u.category in motor or u.integrated_transport or u.id in riding
        end = (
            (MoraleState.NORMAL, Mode.MOVE) if stays_moving else (MoraleState.SUPPRESSED, Mode.FIRE)
        )
        effects.append(UnitEffect(u.id, *end))
    exp.add(
        "17.4",
        msg(
            "at the end: vehicles, transports and riders in Move mode; the rest in Fire mode and Suppressed"
        ),
    )
    return effects, losses, hexes


def _surrender(stack: Sequence[StackUnit], exp: Explanation) -> list[Loss]:
    """The whole hex is removed, vehicles too; the losses count for morale [17.6]."""
    losses = [Loss(u.id, u.category, u.remaining, True, "17.6") for u in stack if u.remaining]
    exp.add("17.6", msg("the whole stack surrenders, vehicles included"), len(losses))
    return losses


def _escalate(
    stack: Sequence[StackUnit],
    result: MoraleResult,
    exp: Explanation,
    assault_choice: str | None,
    largest_choice: str | None,
) -> tuple[MoraleResult, list[Loss]]:
    """A second result in an assault round [22.0.c]: the stack's worst marker decides."""
    states = {u.state for u in stack if u.category in CHECKERS and not u.eliminated}
    if MoraleState.PARALYZED in states:
        if result is MoraleResult.PARALYZED:
            exp.add("22.0.c", msg("Paralyzed units paralyzed again: immediate surrender"))
            return MoraleResult.SURRENDER, []
        if result is MoraleResult.SUPPRESSED:
            exp.add("22.0.c", msg("Paralyzed units suppressed in an assault: they must retreat"))
            return MoraleResult.SYR, []
    elif MoraleState.SUPPRESSED in states and result is MoraleResult.SUPPRESSED:
        if assault_choice not in ("retreat", "step_loss"):
            raise DecisionRequired(
                Decision(
                    "assault_suppressed_again",
                    "22.0.c",
                    msg(
                        "Suppressed again in the assault: retreat, or lose a step from the largest unit"
                    ),
                    ("retreat", "step_loss"),
                    chooser="owner",
                )
            )
        if assault_choice == "retreat":
            exp.add("22.0.c", msg("Suppressed again in the assault: the owner retreats"))
            return MoraleResult.SYR, []
        unit = _largest(stack, largest_choice)
        exp.add("22.0.c", msg("Suppressed again: %(unit)s loses a step", unit=unit.id), 1)
        return MoraleResult.SUPPRESSED, [
            Loss(unit.id, unit.category, 1, unit.remaining == 1, "22.0.c")
        ]
    return result, []


def apply_result(
    stack: Sequence[StackUnit],
    result: MoraleResult,
    *,
    in_assault: bool = False,
    artillery_air_phase: bool = False,
    syr_as_paralyzed: bool | None = None,
    assault_choice: str | None = None,
    largest_choice: str | None = None,
    explanation: Explanation | None = None,
) -> Outcome:
    """The consequences of a Morale Table result for the whole stack [17.0.a, 17.3–17.6].

    Units already retreating ignore everything but Surrender [17.4.i]. A SYR from an
    artillery mission in the Air & Artillery Phase may be taken as Paralyzed
    (`syr_as_paralyzed`, asked for when missing) [17.4.l]. In an assault a second result
    escalates [22.0.c] (`assault_choice` "retreat" or "step_loss").
    """
    exp = explanation if explanation is not None else Explanation()
    if result is not MoraleResult.SURRENDER:
        ignoring = [u.id for u in stack if u.retreating]
        if ignoring:
            exp.add(
                "17.4.i",
                msg("%(units)s retreating: only Surrender affects them", units=", ".join(ignoring)),
            )
        stack = [u for u in stack if not u.retreating]
    losses: list[Loss] = []
    if in_assault:
        result, losses = _escalate(stack, result, exp, assault_choice, largest_choice)
        gone = {x.unit for x in losses if x.eliminated}
        stack = [u for u in stack if u.id not in gone]
    if result is MoraleResult.SYR and artillery_air_phase:
        if syr_as_paralyzed is None:
            raise DecisionRequired(
                Decision(
                    "artillery_syr",
                    "17.4.l",
                    msg("SYR from artillery in the Air & Artillery Phase: take Paralyzed instead?"),
                    (True, False),
                    chooser="owner",
                )
            )
        if syr_as_paralyzed:
            exp.add("17.4.l", msg("the owner takes Paralyzed instead of SYR"))
            result = MoraleResult.PARALYZED
    outcome = Outcome(result, losses=losses, explanation=exp)
    if result is MoraleResult.NO_EFFECT or not stack:
        exp.add("17.2", msg("no effect"))
    elif result in STATE_OF:
        outcome.effects = _marker(stack, STATE_OF[result], exp)
    elif result is MoraleResult.SYR:
        outcome.effects, retreat_losses, outcome.retreat_hexes = _retreat(
            stack, exp, in_assault=in_assault
        )
        outcome.losses += retreat_losses
    else:
        outcome.losses = _surrender(stack, exp)
    exp.add("17.2", msg("result applied: %(result)s", result=RESULT_WORDS[result]), result.value)
    return outcome


def check_morale(
    stack: Sequence[StackUnit],
    dice: DiceSource,
    *,
    table: MoraleTable | None = None,
    entered: MoraleResult | None = None,
    roll: RollRecord | None = None,
    modifiers: Modifiers = Modifiers(),
    **context: Any,
) -> Outcome:
    """A stack's morale check [17.2]: total, d66 (or the `roll` already made), result and
    its consequences (`apply_result`'s keyword arguments pass through)."""
    total = morale_total(stack, modifiers)
    if roll is None:
        roll = dice.roll(
            D66, purpose=msg("morale check for %(unit)s", unit=total.unit), rule="17.2"
        )
    result = read_result(total, roll, table, entered)
    outcome = apply_result(stack, result, explanation=total.explanation, **context)
    outcome.roll, outcome.total = roll, total.total
    return outcome


def recover(
    stack: Sequence[StackUnit],
    *,
    in_artillery_zone: bool,
    recovered_this_phase: bool,
) -> Outcome:
    """Voluntary recovery at the end of the owner's Action Phase [17.7]: Paralyzed becomes
    Suppressed, Suppressed is removed; an overwatch event for the opponent [15.1.c]."""
    if in_artillery_zone:
        raise RuleError(msg("no recovery inside an artillery attack zone"), rule="17.7.b")
    if recovered_this_phase:
        raise RuleError(msg("this stack already recovered this Action Phase"), rule="17.7.d")
    exp = Explanation()
    effects = []
    down = {
        MoraleState.PARALYZED: MoraleState.SUPPRESSED,
        MoraleState.SUPPRESSED: MoraleState.NORMAL,
    }
    for u in stack:
        if u.state in down and not u.eliminated:
            effects.append(UnitEffect(u.id, down[u.state], u.mode))
            exp.add("17.7", msg("%(unit)s recovers one level", unit=u.id))
    if not effects:
        raise RuleError(msg("nothing in this stack is Suppressed or Paralyzed"), rule="17.7")
    exp.add("17.7.a", msg("recovery is an overwatch event for the opponent (spotted units)"))
    return Outcome(MoraleResult.NO_EFFECT, effects, explanation=exp)

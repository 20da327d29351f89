"""The Rout order and Retreat [O23]: who rolls, the Rout roll, and the Retreat path.

The active player activates a player (himself or his opponent) who has a broken unit and has
not been activated for Recover or Rout this Turn [O23.1]; then rolls once for each of that
player's units broken when the order was announced, in the order he chooses [O23.2]: roll
below Morale does nothing, equal suppresses (if not already), above makes the unit Retreat
(roll − Morale) hexes (WE-39). The owner moves his retreating units [O23.3]; the players say
where each hex lies (how far from the friendly edge, enemy, impassable, Cliff, Mines) and the
procedure checks the path and says how the Retreat ends. The Rout order does not exist in
the Pacific [O23.1 PA].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.cc.battle.recover import (
    check_player_activation,
    effective_trigger,
    ordered,
    trigger_first,
)
from rules.cc.battle.rolls import CCRoll, Trigger, distribution, roll
from rules.cc.battle.units import LEADERS, Change, Unit, UnitChange, UnitKind, change_text
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg, nmsg


@dataclass(frozen=True)
class RoutStart:
    target: Faction
    to_roll: tuple[str, ...]
    explanation: Explanation


def begin_rout(
    *,
    target: Faction,
    units: tuple[Unit, ...],
    already_activated: bool = False,
    order: tuple[str, ...] | None = None,
    pacific: bool = False,
) -> RoutStart:
    """O23.1–O23.2: activate `target` and list his broken units in the active player's order
    (`order`; by default the order in which `units` lists them)."""
    if pacific:
        raise RuleError(msg("The Rout order is not available in the Pacific"), rule="O23.1")
    broken = [u.name for u in units if u.owner is target and u.broken and not u.eliminated]
    check_player_activation(
        order=msg("Rout"),
        rule="O23.1",
        already_activated=already_activated,
        has_units=bool(broken),
        needs=msg("at least one broken unit"),
    )
    to_roll = ordered(broken, order, rule="O23.2")
    explanation = Explanation()
    explanation.add(
        "O23.2", msg("Rout rolls, in this order: %(units)s", units=", ".join(to_roll)), to_roll
    )
    return RoutStart(target, to_roll, explanation)


class LeaderMode(StrEnum):
    """[V9] Stacked Leaders add or subtract their Command to a routing unit's Morale."""

    ADD = "add"
    SUBTRACT = "subtract"


class RoutOutcome(StrEnum):
    NO_EFFECT = "no_effect"
    SUPPRESSED = "suppressed"
    RETREAT = "retreat"


@dataclass(frozen=True)
class RoutRollResult:
    unit: str
    outcome: RoutOutcome
    retreat_hexes: int
    morale: int
    roll: CCRoll
    changes: tuple[UnitChange, ...]
    explanation: Explanation = field(default_factory=Explanation)


def rout_morale(
    *,
    unit: Unit,
    morale: int,
    leader_command: int,
    leader_mode: LeaderMode | None,
    v9: bool,
    explanation: Explanation,
) -> int:
    """The Morale a Rout roll is compared with: `morale` without the stacked Leaders, plus
    their Command [3.3.1.2] — or, with V9, plus or minus it as their controller declared for
    the hex (WE-40). Leaders never boost Leaders."""
    if leader_command and unit.kind in LEADERS:
        raise RuleError(msg("Leaders never add their Command to another Leader"), rule="3.3.1.2")
    if not leader_command:
        return explanation.add("O23.2", msg("Morale %(morale)s", morale=morale), morale)
    if not v9:
        if leader_mode is LeaderMode.SUBTRACT:
            raise RuleError(
                msg("Only optional rule V9 lets Leaders subtract their Command"), rule="O23.2"
            )
        leader_mode = LeaderMode.ADD
    elif leader_mode is None:
        raise DecisionRequired(
            Decision(
                key=f"V9:{unit.hex or unit.name}",
                rule="O23.2",
                prompt=msg(
                    "Do the Leaders stacked with %(unit)s add or subtract their Command to its "
                    "Morale for this Rout order?",
                    unit=unit.name,
                ),
                options=tuple(m.value for m in LeaderMode),
                chooser=unit.owner.value,
            )
        )
    sign = 1 if leader_mode is LeaderMode.ADD else -1
    total = morale + sign * leader_command
    text = (
        msg(
            "Morale %(morale)s + Leaders' Command %(c)s = %(total)s",
            morale=morale,
            c=leader_command,
            total=total,
        )
        if sign > 0
        else msg(
            "Morale %(morale)s − Leaders' Command %(c)s = %(total)s",
            morale=morale,
            c=leader_command,
            total=total,
        )
    )
    return explanation.add("V9" if v9 else "3.3.1.2", text, total)


def rout_outcome(roll_value: int, morale: int) -> tuple[RoutOutcome, int]:
    """O23.2: below Morale nothing, equal suppresses, above retreats by the difference."""
    if roll_value < morale:
        return RoutOutcome.NO_EFFECT, 0
    if roll_value == morale:
        return RoutOutcome.SUPPRESSED, 0
    return RoutOutcome.RETREAT, roll_value - morale


def rout_roll(
    *,
    unit: Unit,
    morale: int,
    dice: DiceSource,
    leader_command: int = 0,
    leader_mode: LeaderMode | None = None,
    v9: bool = False,
    trigger: Trigger = Trigger.NONE,
    broken_at_announcement: bool = True,
    in_trigger: bool = False,
) -> RoutRollResult:
    """One Rout roll, made by the active player for a unit broken at the announcement [O23.2].

    A tie suppresses only a unit not yet suppressed ("si no lo estaba ya"), so optional V19's
    second suppression never arises here. A pending Retreat stands even if the roll's trigger
    rallies the unit [1.9.1, WE-01]."""
    if not broken_at_announcement:
        raise RuleError(
            msg("%(unit)s broke during this Rout order: it makes no Rout roll", unit=unit.name),
            rule="O23.2",
        )
    explanation = Explanation()
    locked = rout_morale(
        unit=unit,
        morale=morale,
        leader_command=leader_command,
        leader_mode=leader_mode,
        v9=v9,
        explanation=explanation,
    )
    rolled = roll(
        dice,
        purpose=msg("Rout roll for %(unit)s", unit=unit.name),
        rule="O23.2",
        trigger=effective_trigger(trigger, in_trigger=in_trigger),
    )
    explanation.add(
        "O23.2",
        msg("Rout roll %(roll)s against Morale %(morale)s", roll=rolled.value, morale=locked),
        rolled.value,
        roll=rolled.record,
    )
    trigger_first(explanation, rolled)
    outcome, hexes = rout_outcome(rolled.value, locked)
    changes: tuple[UnitChange, ...] = ()
    if outcome is RoutOutcome.RETREAT:
        changes = (UnitChange(unit.name, Change.RETREAT, "O23.3", hexes),)
    elif outcome is RoutOutcome.SUPPRESSED and not unit.suppressed:
        changes = (UnitChange(unit.name, Change.SUPPRESS, "O23.2"),)
    for change in changes:
        explanation.add(change.rule, change_text(change))
    if not changes:
        explanation.add("O23.2", msg("%(unit)s stays where it is", unit=unit.name))
    return RoutRollResult(unit.name, outcome, hexes, locked, rolled, changes, explanation)


def rout_odds(*, morale: int) -> dict[RoutOutcome, Fraction]:
    """Exact chances of each Rout outcome against the locked Morale [O23.2]."""
    dist = distribution()
    return {o: dist.p(lambda v, o=o: rout_outcome(v, morale)[0] is o) for o in RoutOutcome}


def retreat_odds(*, morale: int) -> dict[int, Fraction]:
    """Exact chances of each Retreat length (0 = no Retreat) [O23.3]."""
    acc: dict[int, Fraction] = {}
    for value, p in distribution().probs:
        hexes = rout_outcome(value, morale)[1]
        acc[hexes] = acc.get(hexes, Fraction(0)) + p
    return acc


@dataclass(frozen=True)
class RoutResult:
    rolls: tuple[RoutRollResult, ...]
    explanation: Explanation

    @property
    def changes(self) -> tuple[UnitChange, ...]:
        return tuple(c for r in self.rolls for c in r.changes)


def rout(
    *,
    target: Faction,
    units: tuple[Unit, ...],
    morale: dict[str, int],
    dice: DiceSource,
    leader_command: dict[str, int] | None = None,
    hex_modes: dict[str, LeaderMode] | None = None,
    v9: bool = False,
    already_activated: bool = False,
    order: tuple[str, ...] | None = None,
    triggers: dict[str, Trigger] | None = None,
    pacific: bool = False,
) -> RoutResult:
    """A whole Rout order. `morale` is each unit's current Morale without stacked Leaders,
    `leader_command` their summed Command; with V9 `hex_modes` holds the choice declared for
    each hex before its first roll, which lasts the whole order [O23.2 V9]."""
    start = begin_rout(
        target=target,
        units=units,
        already_activated=already_activated,
        order=order,
        pacific=pacific,
    )
    explanation = Explanation(list(start.explanation.steps))
    by_name = {u.name: u for u in units}
    results = []
    for name in start.to_roll:
        unit = by_name[name]
        if name not in morale:
            raise RuleError(msg("give the current Morale of %(unit)s", unit=name), rule="O23.2")
        result = rout_roll(
            unit=unit,
            morale=morale[name],
            dice=dice,
            leader_command=(leader_command or {}).get(name, 0),
            leader_mode=(hex_modes or {}).get(unit.hex),
            v9=v9,
            trigger=(triggers or {}).get(name, Trigger.NONE),
        )
        explanation.extend(result.explanation)
        results.append(result)
    return RoutResult(tuple(results), explanation)


OFF_MAP = -1


@dataclass(frozen=True)
class RetreatStep:
    """One hex of a Retreat as the owner moves it. `edge_distance` counts the hexes between it
    and the owner's friendly edge (0: adjacent to it; `OFF_MAP`: off the friendly edge).
    `safe_alternative`: the owner could have entered a hex that does not eliminate the unit."""

    hex: str
    edge_distance: int
    enemy: bool = False
    impassable: bool = False
    cliff: bool = False
    mines: bool = False
    safe_alternative: bool = False


class RetreatEnd(StrEnum):
    COMPLETED = "completed"
    OFF_EDGE = "off_edge"
    SURRENDERED = "surrendered"
    IMPASSABLE = "impassable"
    CLIFF = "cliff"


END_WORDS = {
    RetreatEnd.OFF_EDGE: msg("forced off its friendly edge"),
    RetreatEnd.SURRENDERED: msg("surrenders in an enemy-occupied hex"),
    RetreatEnd.IMPASSABLE: msg("forced into impassable terrain"),
    RetreatEnd.CLIFF: msg("forced across a Cliff hexside"),
}


@dataclass(frozen=True)
class RetreatResult:
    unit: str
    end: RetreatEnd
    final_hex: str
    eliminated: bool
    vp_to_opponent: bool
    mines_attacks: tuple[str, ...]  # hexes whose Mines attack the unit, in order [O23.3.4]
    changes: tuple[UnitChange, ...]
    explanation: Explanation


def _step_end(step: RetreatStep) -> RetreatEnd:
    if step.edge_distance == OFF_MAP:
        return RetreatEnd.OFF_EDGE
    if step.enemy:
        return RetreatEnd.SURRENDERED
    if step.impassable:
        return RetreatEnd.IMPASSABLE
    return RetreatEnd.CLIFF if step.cliff else RetreatEnd.COMPLETED


def retreat(
    *,
    unit: Unit,
    hexes: int,
    start_distance: int,
    path: tuple[RetreatStep, ...],
    start_mines: bool = False,
    escort: Unit | None = None,
    v10: bool = False,
    allow_eliminating_choice: bool = False,
) -> RetreatResult:
    """Move a Retreat of `hexes` hexes along `path` [O23.3].

    Each hex must be strictly closer to the friendly edge; terrain costs, Wire and Op Fire do
    not apply; Mines attack on leaving and entering. The unit is eliminated when forced off its
    friendly edge (also when it starts adjacent to it), into an enemy hex (it surrenders),
    into impassable terrain or across a Cliff [O23.3.5]; the opponent scores it (not a Hero).
    A unit is only *forced* there when no other legal hex exists, so a step with
    `safe_alternative` is refused (digest §7.2 #21) unless `allow_eliminating_choice`. With V10
    an unbroken Leader `escort` goes along and ends broken in the same hex.
    """
    if hexes < 1:
        raise RuleError(msg("a Retreat covers at least 1 hex"), rule="O23.3")
    if escort is not None and (not v10 or escort.broken or escort.kind not in LEADERS):
        raise RuleError(
            msg("only an unbroken stacked Leader may go along, with optional rule V10"),
            rule="O23.2",
        )
    explanation = Explanation()
    steps = path or ((RetreatStep("", OFF_MAP),) if start_distance == 0 else ())
    mines = [unit.hex] if start_mines and steps else []
    here, distance, end = unit.hex, start_distance, RetreatEnd.COMPLETED
    for count, step in enumerate(steps, start=1):
        if count > hexes:
            raise RuleError(
                nmsg(
                    "the path is longer than the Retreat of %(n)s hex",
                    "the path is longer than the Retreat of %(n)s hexes",
                    hexes,
                ),
                rule="O23.3",
            )
        if step.edge_distance >= distance:
            raise RuleError(
                msg(
                    "%(hex)s is not closer to the friendly edge than %(previous)s",
                    hex=step.hex or "—",
                    previous=here,
                ),
                rule="O23.3",
            )
        end = _step_end(step)
        if end is not RetreatEnd.COMPLETED:
            if step.safe_alternative and not allow_eliminating_choice:
                raise RuleError(
                    msg(
                        "%(unit)s is not forced there: it must retreat into a hex that does not eliminate it",
                        unit=unit.name,
                    ),
                    rule="O23.3.5",
                )
            explanation.add(
                "O23.3.5",
                msg("%(unit)s is eliminated: %(why)s", unit=unit.name, why=END_WORDS[end]),
            )
            break
        explanation.add(
            "O23.3", msg("%(unit)s retreats into %(hex)s", unit=unit.name, hex=step.hex)
        )
        if step.mines:
            mines.append(step.hex)
        here, distance = step.hex, step.edge_distance
    else:
        if len(steps) != hexes:
            raise RuleError(
                nmsg(
                    "the path must cover the Retreat's %(n)s hex",
                    "the path must cover the Retreat's %(n)s hexes",
                    hexes,
                ),
                rule="O23.3",
            )
    eliminated = end is not RetreatEnd.COMPLETED
    changes = [UnitChange(unit.name, Change.ELIMINATE, "O23.3.5")] if eliminated else []
    if escort is not None and not eliminated:
        changes.append(UnitChange(escort.name, Change.BREAK, "O23.2"))
        explanation.add(
            "V10", msg("%(unit)s goes along and ends broken in %(hex)s", unit=escort.name, hex=here)
        )
    mines = [] if eliminated else mines
    for hex_ in mines:
        explanation.add(
            "O23.3.4", msg("Mines in %(hex)s attack %(unit)s", hex=hex_, unit=unit.name)
        )
    vp = eliminated and unit.kind is not UnitKind.HERO
    return RetreatResult(
        unit.name,
        end,
        "" if eliminated else here,
        eliminated,
        vp,
        tuple(mines),
        tuple(changes),
        explanation,
    )

"""Melee [O16.4, A25, A38, PA-A34], Stalingrad's Urban Melee [ST-7] and the Pacific's [PA-19.2].

Core: a Melee happens at the end of the Order or trigger that leaves both sides in a hex; the
active player orders several Melee hexes [O16.4]. Urban Melee (ST-7, replacing O16.4) waits
for the start of the Axis turn (Pacific: the Allied turn) [ST-7.2, PA-19.2]. Either way the
Ambushes come first, inactive player first [A25]; each side's Melee FP is the current FP of
its remaining units (not Weapons) +1 per boxed FP [O16.4.1], locked before the first roll;
the inactive player rolls first, then the active [O16.4.2]; the lower total loses every
participating unit, a tie loses both — unless a side holds the Bunker or Pillbox tie
privilege [O16.4.3, F101, F104]. A trigger that empties a side ends the Melee with no effect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.cc.battle.recover import effective_trigger, trigger_first
from rules.cc.battle.rolls import Trigger, distribution, roll
from rules.cc.battle.units import (
    SIDE_LABELS,
    Change,
    Unit,
    UnitChange,
    apply_change,
    change_text,
)
from rules.cc.common import Faction, Nation
from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg

BAYONETS = 2  # PA-A34: +2 to the Melee roll
NO_QUARTER_VP = 2  # A38
URBAN_SNIPER_BONUS = (0, 2, 4)  # ST-3.2


class MeleeRules(StrEnum):
    CORE = "core"  # O16.4
    STALINGRAD = "stalingrad"  # ST-7
    PACIFIC = "pacific"  # PA-19.2


class MeleeMoment(StrEnum):
    """When both sides come to share the hex, or when a deferred Melee may be resolved."""

    END_OF_ORDER = "end_of_order"
    END_OF_TRIGGER = "end_of_trigger"
    END_OF_EVENT = "end_of_event"  # resolved inside the Event: no triggers [E42]
    END_OF_TIME_TRIGGER = "end_of_time_trigger"  # reinforcements: the Time trigger ends first
    START_OF_TURN = "start_of_turn"


@dataclass(frozen=True)
class MeleeSchedule:
    resolve_now: bool
    hexes: tuple[str, ...]  # in resolution order
    chooser: Faction  # who ordered the hexes
    first_roller: Faction
    triggers_allowed: bool
    explanation: Explanation


def melee_schedule(
    *,
    rules: MeleeRules,
    moment: MeleeMoment,
    active: Faction,
    hexes: tuple[str, ...],
    order: tuple[str, ...] | None = None,
    pacific_order_by_allies: bool = False,
) -> MeleeSchedule:
    """Whether the Melee hexes resolve now, in which order, who picks it and who rolls first.

    ST-7.2: only at the start of the Axis turn, the Axis ordering the hexes; the Russian
    (inactive) rolls first. PA-19.2: only at the start of the Allied turn; the Japanese
    (inactive) rolls first; the seed has "the Axis player" (the Japanese) order the hexes,
    `pacific_order_by_allies` gives it to the Allied (active) player (digest §7.2 #6)."""
    explanation = Explanation()
    if rules is MeleeRules.CORE:
        if moment is MeleeMoment.START_OF_TURN:
            raise RuleError(
                msg("In the core rules a Melee is resolved at once; none waits for a turn"),
                rule="O16.4",
            )
        now, chooser, rule = True, active, "O16.4"
    else:
        turn = Faction.AXIS if rules is MeleeRules.STALINGRAD else Faction.ALLIES
        now = moment is MeleeMoment.START_OF_TURN and active is turn
        rule = "ST-7.2" if rules is MeleeRules.STALINGRAD else "PA-19.2"
        by_axis = rules is MeleeRules.STALINGRAD or not pacific_order_by_allies
        chooser = Faction.AXIS if by_axis else Faction.ALLIES
    if not now:
        explanation.add(
            rule, msg("The Melee waits: a Melee marker stays in %(hexes)s", hexes=", ".join(hexes))
        )
        return MeleeSchedule(False, hexes, chooser, active.other, False, explanation)
    if order is None and len(hexes) > 1:
        raise DecisionRequired(
            Decision(
                f"{rule}:order",
                rule,
                msg("Choose the order of the Melee hexes"),
                hexes,
                chooser.value,
            )
        )
    chosen = order or hexes
    if sorted(chosen) != sorted(hexes):
        raise RuleError(msg("the order must list every Melee hex once"), rule=rule)
    triggers = moment is not MeleeMoment.END_OF_EVENT
    explanation.add(
        rule, msg("Melee now, in this order: %(hexes)s", hexes=", ".join(chosen)), chosen
    )
    if not triggers:
        explanation.add(
            "E42", msg("The Melee is resolved inside the Event: its rolls trigger nothing")
        )
    return MeleeSchedule(True, chosen, chooser, active.other, triggers, explanation)


@dataclass(frozen=True)
class Ambush:
    """A25: `played_by` plays Ambush; the opponent breaks `victim`, one of his own units."""

    played_by: Faction
    victim: str


@dataclass(frozen=True)
class AmbushResult:
    units: tuple[Unit, ...]  # the participants after the Ambushes (eliminated ones dropped)
    changes: tuple[UnitChange, ...]
    melee_ends: bool
    explanation: Explanation


def resolve_ambushes(
    *, active: Faction, units: tuple[Unit, ...], ambushes: tuple[Ambush, ...]
) -> AmbushResult:
    """A25: all the inactive player's Ambushes, then the active player's; each breaks a unit of
    the opponent's choice (a broken one is eliminated). A side left empty ends the Melee."""
    players = [a.played_by for a in ambushes]
    if active in players and active.other in players[players.index(active) :]:
        raise RuleError(
            msg("the inactive player plays all his Ambushes before the active player's first"),
            rule="A25",
        )
    current = {u.name: u for u in units}
    explanation, changes = Explanation(), []
    for ambush in ambushes:
        unit = current.get(ambush.victim)
        if unit is None or unit.eliminated or unit.owner is ambush.played_by:
            raise RuleError(
                msg("%(unit)s is not a participating unit of the opponent", unit=ambush.victim),
                rule="A25",
            )
        change = UnitChange(unit.name, Change.BREAK, "A25")
        current[unit.name] = apply_change(unit, Change.BREAK)
        changes.append(change)
        explanation.add("A25", change_text(change))
    left = tuple(u for u in current.values() if not u.eliminated)
    ends = len({u.owner for u in left}) < 2
    if ends:
        explanation.add("O16.4.1", msg("A side has no units left: the Melee ends with no effect"))
    return AmbushResult(left, tuple(changes), ends, explanation)


@dataclass(frozen=True)
class MeleeUnit:
    """A participating unit: its current FP (not its Weapon's) and whether the FP is boxed."""

    name: str
    fp: int
    boxed_fp: bool = False


@dataclass(frozen=True)
class MeleeSide:
    """One side of a Melee; `trigger` is the card's trigger on its roll and `emptied` the sides
    that trigger leaves with no unit in the hex once resolved [O16.4.2]."""

    faction: Faction
    units: tuple[MeleeUnit, ...]
    bayonets: int = 0
    urban_sniper: int = 0
    trigger: Trigger = Trigger.NONE
    emptied: frozenset[Faction] = frozenset()


def melee_fp(side: MeleeSide, explanation: Explanation | None = None) -> int:
    """O16.4.1: Σ current FP of the remaining units + 1 per boxed FP."""
    fp = sum(u.fp for u in side.units)
    boxed = sum(u.boxed_fp for u in side.units)
    if explanation is not None:
        explanation.add(
            "O16.4.1",
            msg(
                "Melee FP of the %(side)s: FP %(fp)s + %(boxed)s boxed = %(total)s",
                side=SIDE_LABELS[side.faction],
                fp=fp,
                boxed=boxed,
                total=fp + boxed,
            ),
            fp + boxed,
        )
    return fp + boxed


def roll_modifier(side: MeleeSide) -> int:
    """Bayonets +2 each [PA-A34]; the Urban Sniper marker's +2 or +4 [ST-3.2]."""
    if side.urban_sniper not in URBAN_SNIPER_BONUS:
        raise RuleError(msg("the Urban Sniper marker gives +2 or +4"), rule="ST-3.2")
    return BAYONETS * side.bayonets + side.urban_sniper


@dataclass(frozen=True)
class FortificationTie:
    """Who wins a tie in a Bunker or Pillbox hex: the side that began the Melee in it
    [O16.4.3] and the hex's last sole occupant [F101, F104] (they normally coincide)."""

    started_in: Faction | None = None
    last_sole_occupant: Faction | None = None


def tie_winner(
    fortification: FortificationTie | None, *, by_last_sole_occupant: bool
) -> Faction | None:
    if fortification is None:
        return None
    return fortification.last_sole_occupant if by_last_sole_occupant else fortification.started_in


def losers(totals: dict[Faction, int], winner_on_tie: Faction | None) -> frozenset[Faction]:
    """O16.4.3: the lower total loses; a tie loses both unless one side holds the privilege."""
    a, b = Faction.AXIS, Faction.ALLIES
    if totals[a] != totals[b]:
        return frozenset({a if totals[a] < totals[b] else b})
    return frozenset({winner_on_tie.other}) if winner_on_tie else frozenset({a, b})


@dataclass(frozen=True)
class MeleeResult:
    fp: dict[Faction, int]
    totals: dict[Faction, int]
    eliminated: frozenset[Faction]
    ended_by_trigger: bool
    changes: tuple[UnitChange, ...]
    rolls: tuple[RollRecord, ...]
    explanation: Explanation = field(default_factory=Explanation)


def melee(
    *,
    inactive: MeleeSide,
    active: MeleeSide,
    dice: DiceSource,
    fortification: FortificationTie | None = None,
    tie_by_last_sole_occupant: bool = False,
    in_event: bool = False,
) -> MeleeResult:
    """The Melee rolls and result, after the Ambushes [O16.4.1–O16.4.3, ST-7.2, PA-19.2].

    Both Melee FPs are locked before the first (inactive) roll; the seed's "before the Russian
    roll" is read as that (digest §7.2 #5). The tie privilege follows O16.4.3's "began the
    Melee in" it; `tie_by_last_sole_occupant` follows F101/F104 instead (digest §7.2 #22)."""
    if inactive.faction is active.faction:
        raise RuleError(msg("a Melee opposes the two sides"), rule="O16.4")
    explanation = Explanation()
    sides = (inactive, active)
    fp = {s.faction: melee_fp(s, explanation) for s in sides}
    if not all(s.units for s in sides):
        explanation.add("O16.4.1", msg("A side has no units left: the Melee ends with no effect"))
        return MeleeResult(fp, {}, frozenset(), False, (), (), explanation)
    explanation.add("1.9.1", msg("Both Melee FPs are locked before the first Melee roll"))
    totals, records = {}, []
    for side in sides:
        trigger = effective_trigger(side.trigger, in_trigger=in_event)
        rolled = roll(
            dice,
            purpose=msg("Melee roll of the %(side)s", side=SIDE_LABELS[side.faction]),
            rule="O16.4.2",
            trigger=trigger,
        )
        records.append(rolled.record)
        mod = roll_modifier(side)
        totals[side.faction] = fp[side.faction] + rolled.value + mod
        explanation.add(
            "O16.4.2",
            msg(
                "Melee Total of the %(side)s: FP %(fp)s + roll %(roll)s + %(mod)s = %(total)s",
                side=SIDE_LABELS[side.faction],
                fp=fp[side.faction],
                roll=rolled.value,
                mod=mod,
                total=totals[side.faction],
            ),
            totals[side.faction],
            roll=rolled.record,
        )
        trigger_first(explanation, rolled)
        if side.emptied and side.trigger is Trigger.NONE:
            raise RuleError(
                msg("only a trigger on the roll can empty the hex during a Melee"),
                rule="O16.4.2",
            )
        if side.emptied and trigger is not Trigger.NONE:
            explanation.add(
                "O16.4.2",
                msg("The trigger left a side with no units: the Melee ends with no effect"),
            )
            return MeleeResult(fp, totals, frozenset(), True, (), tuple(records), explanation)
    tie = tie_winner(fortification, by_last_sole_occupant=tie_by_last_sole_occupant)
    lost = losers(totals, tie)
    if totals[inactive.faction] == totals[active.faction] and tie:
        rule = "F101" if tie_by_last_sole_occupant else "O16.4.3"
        explanation.add(
            rule,
            msg("Tie: the %(side)s hold the Bunker or Pillbox and win it", side=SIDE_LABELS[tie]),
        )
    changes = tuple(
        UnitChange(u.name, Change.ELIMINATE, "O16.4.3")
        for s in sides
        if s.faction in lost
        for u in s.units
    )
    for change in changes:
        explanation.add("O16.4.3", change_text(change))
    return MeleeResult(fp, totals, lost, False, changes, tuple(records), explanation)


@dataclass(frozen=True)
class MeleeOdds:
    inactive_eliminated: Fraction
    active_eliminated: Fraction
    both_eliminated: Fraction


def melee_odds(
    *,
    inactive: MeleeSide,
    active: MeleeSide,
    fortification: FortificationTie | None = None,
    tie_by_last_sole_occupant: bool = False,
) -> MeleeOdds:
    """Exact chances of each side losing, by enumerating both rolls (triggers aside)."""
    tie = tie_winner(fortification, by_last_sole_occupant=tie_by_last_sole_occupant)
    dists = {
        s.faction: distribution(modifier=melee_fp(s) + roll_modifier(s)) for s in (inactive, active)
    }
    acc = {"inactive": Fraction(0), "active": Fraction(0), "both": Fraction(0)}
    for a, pa in dists[inactive.faction].probs:
        for b, pb in dists[active.faction].probs:
            lost = losers({inactive.faction: a, active.faction: b}, tie)
            key = (
                "both" if len(lost) == 2 else ("inactive" if inactive.faction in lost else "active")
            )
            acc[key] += pa * pb
    return MeleeOdds(acc["inactive"] + acc["both"], acc["active"] + acc["both"], acc["both"])


def no_quarter(*, player: Nation, opponent: Nation, survivors: int) -> int:
    """A38: at the end of a Melee, a German player against Russia, or a Russian player against
    anyone, with at least one surviving unit, gains 2 VP."""
    if survivors < 1:
        raise RuleError(msg("No Quarter needs a unit that survived the Melee"), rule="A38")
    if not (player is Nation.RUSSIA or (player is Nation.GERMANY and opponent is Nation.RUSSIA)):
        raise RuleError(
            msg("only a German player against Russia, or a Russian player, may play No Quarter"),
            rule="A38",
        )
    return NO_QUARTER_VP

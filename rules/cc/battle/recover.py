"""The Recover order [O22] and Revive [PA-O31]: Suppressed markers off, then Rally rolls.

A player is activated for Recover at most once a Turn, and not after a Rout aimed at him
[O22.1]. All his Suppressed markers come off first [O22.2]; then each unit that was broken
when the order was announced makes one Rally roll, in the order the player chooses: roll below
current Morale rallies, equal suppresses (still broken), above does nothing [O22.3, WE-38].
`morale` is the unit's current Morale (Cover, Leaders, Veteran, Suppressed, Wire), locked
before its roll [1.9.1]. Use `begin_recover` and `rally_roll` one unit at a time when a rallied
Leader changes the Morale of the next units; `recover` runs the whole order at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.cc.battle.rolls import TRIGGER_LABELS, CCRoll, Trigger, distribution, roll
from rules.cc.battle.units import Change, Unit, UnitChange, UnitKind, change_text
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg

REVIVE_POINTS = range(1, 6)  # PA-O31: Revive-1 to Revive-5
RALLY_FIRST = (UnitKind.HERO, UnitKind.LEADER, UnitKind.SQUAD, UnitKind.TEAM)
"""The customary Rally order, Leaders first: the reverse of Defence's Teams–Squads–Leaders
[O22.3 note]; a player who wants another order says so."""


def check_player_activation(
    *, order: Msg, rule: str, already_activated: bool, has_units: bool, needs: Msg
) -> None:
    """A player activated for Recover or Rout: once a Turn, with a unit to act on [O22.1, O23.1]."""
    if already_activated:
        raise RuleError(
            msg(
                "%(order)s: this player was already activated for Recover or Rout this Turn",
                order=order,
            ),
            rule=rule,
        )
    if not has_units:
        raise RuleError(msg("%(order)s needs %(needs)s", order=order, needs=needs), rule=rule)


def ordered(names: list[str], order: tuple[str, ...] | None, *, rule: str) -> tuple[str, ...]:
    """The units to roll for, in the chosen order; the order must name exactly those units."""
    if order is None:
        return tuple(names)
    if sorted(order) != sorted(names):
        raise RuleError(
            msg(
                "the order must list exactly the units that were broken when the Order was "
                "announced: %(units)s",
                units=", ".join(names),
            ),
            rule=rule,
        )
    return order


@dataclass(frozen=True)
class RecoverStart:
    unsuppressed: tuple[UnitChange, ...]
    to_roll: tuple[str, ...]
    explanation: Explanation


def begin_recover(
    *,
    player: Faction,
    units: tuple[Unit, ...],
    already_activated: bool = False,
    order: tuple[str, ...] | None = None,
) -> RecoverStart:
    """O22.1–O22.2: activate the player, take off all his Suppressed markers, list the rolls.

    Without `order` the units roll Leaders first, then Squads, then Teams (the convention)."""
    own = [u for u in units if u.owner is player and not u.eliminated]
    check_player_activation(
        order=msg("Recover"),
        rule="O22.1",
        already_activated=already_activated,
        has_units=any(u.broken or u.suppressed for u in own),
        needs=msg("at least one broken or suppressed unit"),
    )
    explanation = Explanation()
    off = tuple(UnitChange(u.name, Change.UNSUPPRESS, "O22.2") for u in own if u.suppressed)
    for change in off:
        explanation.add("O22.2", change_text(change))
    broken = sorted((u for u in own if u.broken), key=lambda u: RALLY_FIRST.index(u.kind))
    to_roll = ordered([u.name for u in broken], order, rule="O22.2")
    explanation.add(
        "O22.2", msg("Rally rolls, in this order: %(units)s", units=", ".join(to_roll)), to_roll
    )
    return RecoverStart(off, to_roll, explanation)


class RallyOutcome(StrEnum):
    RALLIED = "rallied"
    SUPPRESSED = "suppressed"
    NO_EFFECT = "no_effect"


RALLY_CHANGES = {
    RallyOutcome.RALLIED: (Change.RALLY,),
    RallyOutcome.SUPPRESSED: (Change.SUPPRESS,),
    RallyOutcome.NO_EFFECT: (),
}


@dataclass(frozen=True)
class RallyResult:
    unit: str
    outcome: RallyOutcome
    roll: CCRoll
    morale: int
    changes: tuple[UnitChange, ...]
    explanation: Explanation = field(default_factory=Explanation)

    @property
    def trigger(self) -> Trigger:
        """The card's trigger, resolved in full before this result is applied [1.9.1]."""
        return self.roll.trigger


def rally_outcome(roll_value: int, morale: int) -> RallyOutcome:
    """O22.3: below Morale rallies, equal suppresses, above does nothing."""
    if roll_value < morale:
        return RallyOutcome.RALLIED
    return RallyOutcome.SUPPRESSED if roll_value == morale else RallyOutcome.NO_EFFECT


def effective_trigger(trigger: Trigger, *, in_trigger: bool) -> Trigger:
    """Jammed! only fires on a Fire Attack roll [1.9.1.2]; no roll during a trigger or an Event
    triggers [1.9.1, E42]."""
    return Trigger.NONE if in_trigger or trigger is Trigger.JAMMED else Trigger(trigger)


def trigger_first(explanation: Explanation, rolled: CCRoll) -> None:
    if rolled.trigger is not Trigger.NONE:
        explanation.add(
            "1.9.1",
            msg(
                "Resolve the %(trigger)s trigger in full before applying this roll",
                trigger=TRIGGER_LABELS[rolled.trigger],
            ),
        )


def rally_roll(
    *,
    unit: Unit,
    morale: int,
    dice: DiceSource,
    trigger: Trigger = Trigger.NONE,
    broken_at_announcement: bool = True,
    already_rolled: bool = False,
    in_trigger: bool = False,
) -> RallyResult:
    """One Rally roll against the unit's current Morale [O22.2–O22.3]."""
    if not broken_at_announcement:
        raise RuleError(
            msg("%(unit)s broke during this Recover order: it makes no Rally roll", unit=unit.name),
            rule="O22.2",
        )
    if already_rolled:
        raise RuleError(
            msg("%(unit)s has already made its Rally roll in this Recover order", unit=unit.name),
            rule="O22.2",
        )
    explanation = Explanation()
    rolled = roll(
        dice,
        purpose=msg("Rally roll for %(unit)s", unit=unit.name),
        rule="O22.3",
        trigger=effective_trigger(trigger, in_trigger=in_trigger),
    )
    explanation.add(
        "O22.3",
        msg("Rally roll %(roll)s against Morale %(morale)s", roll=rolled.value, morale=morale),
        rolled.value,
        roll=rolled.record,
    )
    trigger_first(explanation, rolled)
    outcome = rally_outcome(rolled.value, morale)
    changes = tuple(UnitChange(unit.name, c, "O22.3") for c in RALLY_CHANGES[outcome])
    for change in changes:
        explanation.add("O22.3", change_text(change))
    if not changes:
        explanation.add("O22.3", msg("%(unit)s stays broken", unit=unit.name))
    return RallyResult(unit.name, outcome, rolled, morale, changes, explanation)


def rally_odds(*, morale: int) -> dict[RallyOutcome, Fraction]:
    """Exact chances of each Rally outcome against a Morale [O22.3]."""
    dist = distribution()
    return {o: dist.p(lambda v, o=o: rally_outcome(v, morale) is o) for o in RallyOutcome}


@dataclass(frozen=True)
class RecoverResult:
    unsuppressed: tuple[UnitChange, ...]
    rallies: tuple[RallyResult, ...]
    explanation: Explanation

    @property
    def changes(self) -> tuple[UnitChange, ...]:
        return self.unsuppressed + tuple(c for r in self.rallies for c in r.changes)


def recover(
    *,
    player: Faction,
    units: tuple[Unit, ...],
    morale: dict[str, int],
    dice: DiceSource,
    already_activated: bool = False,
    order: tuple[str, ...] | None = None,
    triggers: dict[str, Trigger] | None = None,
) -> RecoverResult:
    """A whole Recover order with each broken unit's Morale as the players give it [O22]."""
    start = begin_recover(
        player=player, units=units, already_activated=already_activated, order=order
    )
    explanation = Explanation(list(start.explanation.steps))
    by_name = {u.name: u for u in units}
    rallies = []
    for name in start.to_roll:
        if name not in morale:
            raise RuleError(msg("give the current Morale of %(unit)s", unit=name), rule="O22.3")
        result = rally_roll(
            unit=by_name[name],
            morale=morale[name],
            dice=dice,
            trigger=(triggers or {}).get(name, Trigger.NONE),
        )
        explanation.extend(result.explanation)
        rallies.append(result)
    return RecoverResult(start.unsuppressed, tuple(rallies), explanation)


@dataclass(frozen=True)
class ReviveResult:
    changes: tuple[UnitChange, ...]
    unspent: int
    explanation: Explanation


def revive(
    *,
    player: Faction,
    units: tuple[Unit, ...],
    points: int,
    unsuppress: tuple[str, ...] = (),
    rally: tuple[str, ...] = (),
) -> ReviveResult:
    """PA-O31 Revive-N: each point takes a Suppressed marker off a friendly unit or rallies a
    broken one (the same unit may get both); no unit is activated and unspent points are lost
    (WE-51: Revive-2 = two markers, two rallies, or one of each)."""
    if points not in REVIVE_POINTS:
        raise RuleError(
            msg("a Revive order gives 1 to 5 points, not %(n)s", n=points), rule="PA-O31"
        )
    own = {u.name: u for u in units if u.owner is player and not u.eliminated}
    if not any(u.broken or u.suppressed for u in own.values()):
        raise RuleError(
            msg(
                "%(order)s needs %(needs)s",
                order=msg("Revive"),
                needs=msg("at least one broken or suppressed unit"),
            ),
            rule="PA-O31",
        )
    if len(unsuppress) + len(rally) > points:
        raise RuleError(
            nmsg(
                "Revive-%(n)s pays for only %(n)s marker or rally",
                "Revive-%(n)s pays for only %(n)s markers or rallies",
                points,
            ),
            rule="PA-O31",
        )
    for names, flag, what in (
        (unsuppress, "suppressed", msg("a suppressed friendly unit")),
        (rally, "broken", msg("a broken friendly unit")),
    ):
        for name in names:
            if name not in own or not getattr(own[name], flag) or names.count(name) > 1:
                raise RuleError(
                    msg("%(unit)s is not %(what)s", unit=name, what=what), rule="PA-O31"
                )
    changes = tuple(UnitChange(n, Change.UNSUPPRESS, "PA-O31") for n in unsuppress) + tuple(
        UnitChange(n, Change.RALLY, "PA-O31") for n in rally
    )
    explanation = Explanation()
    for change in changes:
        explanation.add("PA-O31", change_text(change))
    unspent = points - len(changes)
    explanation.add("PA-O31", msg("Unspent Revive points are lost: %(n)s", n=unspent), unspent)
    return ReviveResult(changes, unspent, explanation)

"""Battalion morale [17.1]: losses raise it, hourly recovery rolls lower it.

The value starts at 0 unless the scenario says otherwise, has no maximum and never goes
below 0 [17.1]; it is added to every morale check of the battalion's units [17.1.b].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.serial import Serializable
from rules.tcs.clock import Turn, morale_recovery_due
from rules.tcs.opsheet import OpSheet, OpSheetType
from rules.tcs.units import MoraleKind, OrderOfBattle, UnitCategory


@dataclass
class BattalionMorale(Serializable):
    """A Battalion Morale Display box: the value and the non-infantry losses counted in it."""

    battalion: str
    value: int = 0
    other_losses: int = 0

    def __post_init__(self) -> None:
        if self.value < 0 or self.other_losses < 0:
            raise RuleError(msg("battalion morale is never below 0"), rule="17.1")


@dataclass
class MoraleChange:
    battalion: str
    before: int
    after: int
    explanation: Explanation = field(default_factory=Explanation)


def credited_battalion(
    unit: str,
    oob: OrderOfBattle,
    nearest: Sequence[str] = (),
    choice: str | None = None,
) -> tuple[str, Explanation]:
    """The box a destroyed non-vehicle unit goes to [17.1.a, 17.1.c].

    A unit outside any battalion-morale formation counts for the battalion of the nearest
    unit subject to battalion morale: `nearest` lists the battalions tied for nearest (the
    caller measures the map); when several tie, the opponent chooses (`choice`).
    """
    exp = Explanation()
    formation = oob.unit(unit).formation
    if formation is not None and oob.formations[formation].morale is MoraleKind.BATTALION:
        return exp.add(
            "17.1.a",
            msg("%(unit)s belongs to %(formation)s", unit=unit, formation=formation),
            formation,
        ), exp
    candidates = tuple(dict.fromkeys(nearest))
    if not candidates:
        raise RuleError(
            msg("%(unit)s has no battalion: give the nearest battalion", unit=unit), rule="17.1.c"
        )
    if len(candidates) > 1 and choice not in candidates:
        raise DecisionRequired(
            Decision(
                f"battalion_for:{unit}",
                "17.1.c",
                msg(
                    "%(unit)s is equidistant from several battalions: choose whose morale it counts",
                    unit=unit,
                ),
                candidates,
                chooser="opponent",
            )
        )
    chosen = candidates[0] if len(candidates) == 1 else choice
    exp.add("17.1.c", msg("%(unit)s counts for the nearest battalion", unit=unit), chosen)
    return chosen, exp


def record_loss(
    morale: BattalionMorale, category: UnitCategory, *, combat: bool = True
) -> MoraleChange:
    """A destroyed unit enters the box: an infantry platoon adds 1, every third other unit
    (MG, mortar, gun, transport…) adds 1; vehicles use vehicle morale; non-combat losses do
    not count [17.1.a, 3.1.d]."""
    exp = Explanation()
    before = morale.value
    if not combat:
        exp.add("17.1.a", msg("non-combat loss: ignored"), 0)
    elif category is UnitCategory.VEHICLE:
        exp.add("17.8", msg("vehicle losses count for vehicle morale, not battalion morale"), 0)
    elif category is UnitCategory.INFANTRY:
        morale.value += 1
        exp.add("17.1.a", msg("infantry platoon lost"), 1)
    else:
        morale.other_losses += 1
        third = morale.other_losses % 3 == 0
        morale.value += third
        exp.add(
            "17.1.a",
            msg(
                "non-infantry loss no. %(other_losses)s: every third adds 1",
                other_losses=morale.other_losses,
            ),
            int(third),
        )
    exp.add("17.1", msg("%(battalion)s battalion morale", battalion=morale.battalion), morale.value)
    return MoraleChange(morale.battalion, before, morale.value, exp)


def battalion_loss_undone(
    morale: BattalionMorale, category: UnitCategory, *, unit: str = ""
) -> MoraleChange:
    """Take a counted loss back off the box when the unit returns to play (steps given back
    by correction): the reverse of `record_loss` [17.1.a]. A platoon takes 1 off; another
    unit takes 1 off the count of others, and the value drops by 1 when that count passes
    below a multiple of 3 (the third loss that raised it is gone). Never below 0 [17.1]."""
    exp = Explanation()
    before = morale.value
    if category is UnitCategory.VEHICLE:
        exp.add("17.8", msg("vehicle losses count for vehicle morale, not battalion morale"), 0)
    elif category is UnitCategory.INFANTRY:
        morale.value = max(0, morale.value - 1)
        exp.add(
            "17.1.a",
            msg("%(unit)s, an infantry platoon, back in play: change to the value", unit=unit),
            morale.value - before,
        )
    elif morale.other_losses == 0:
        exp.add("17.1.a", msg("no non-infantry loss is counted in the box"), 0)
    else:
        third = morale.other_losses % 3 == 0
        morale.other_losses -= 1
        morale.value = max(0, morale.value - third)
        exp.add(
            "17.1.a",
            msg(
                "%(unit)s back in play (non-infantry losses now %(other_losses)s): "
                "change to the value",
                unit=unit,
                other_losses=morale.other_losses,
            ),
            morale.value - before,
        )
    exp.add("17.1", msg("%(battalion)s battalion morale", battalion=morale.battalion), morale.value)
    return MoraleChange(morale.battalion, before, morale.value, exp)


def battalion_loss(
    unit: str,
    oob: OrderOfBattle,
    boxes: dict[str, BattalionMorale],
    *,
    nearest: Sequence[str] = (),
    choice: str | None = None,
    combat: bool = True,
) -> MoraleChange:
    """Credit a destroyed unit to its battalion's box and record it [17.1.a–c]; surrenders
    and paralyzed-retreat losses are combat losses [17.6, 17.4]."""
    battalion, exp = credited_battalion(unit, oob, nearest, choice)
    box = boxes.setdefault(battalion, BattalionMorale(battalion))
    change = record_loss(box, oob.unit(unit).category, combat=combat)
    exp.extend(change.explanation)
    change.explanation = exp
    return change


def attacking(units: Iterable[str], sheets: Iterable[OpSheet]) -> bool:
    """A unit executes an attack mission on an implemented Attack sheet (not a reserve, not
    a defending group) [17.1.e]."""
    sheets = list(sheets)
    return any(
        s.type is OpSheetType.ATTACK and s.acting_mission(u) is OpSheetType.ATTACK
        for s in sheets
        for u in units
    )


@dataclass
class RecoveryResult:
    before: int
    after: int
    roll: RollRecord | None = None
    explanation: Explanation = field(default_factory=Explanation)


def recovery_roll(
    value: int,
    name: str,
    turn: Turn,
    dice: DiceSource,
    *,
    attacking: bool,
    rule: str,
    even_hours_at_night: bool = True,
) -> RecoveryResult:
    """One hourly recovery roll: 1d6 ≤ the value lowers it by 1 [17.1.d, 17.8.d], on whole
    hours (at night even hours [26.1.d]), never while attacking [17.1.e, 17.8.d]."""
    exp = Explanation()
    if not morale_recovery_due(turn, exp, even_hours_at_night=even_hours_at_night):
        return RecoveryResult(value, value, explanation=exp)
    if attacking:
        exp.add(
            rule,
            msg("%(name)s is attacking under an Attack op sheet: no recovery roll", name=name),
            value,
        )
        return RecoveryResult(value, value, explanation=exp)
    if value == 0:
        exp.add(rule, msg("%(name)s morale is 0: nothing to recover", name=name), 0)
        return RecoveryResult(0, 0, explanation=exp)
    roll = dice.roll("d6", purpose=msg("morale recovery for %(name)s", name=name), rule=rule)
    after = value - 1 if roll.value <= value else value
    exp.add(
        rule,
        msg("recovery roll %(roll)s against %(value)s", roll=roll.value, value=value),
        after,
        roll=roll,
    )
    return RecoveryResult(value, after, roll, exp)


def battalion_recovery(
    morale: BattalionMorale,
    turn: Turn,
    dice: DiceSource,
    *,
    oob: OrderOfBattle,
    sheets: Sequence[OpSheet],
) -> RecoveryResult:
    """Command Phase step 7 for one battalion [17.1.d, 17.1.e, 26.1.d]. Which units leave
    the display (a platoon or three others) is the owner's bookkeeping (ambiguity 28)."""
    blocked = attacking(oob.surviving(morale.battalion), sheets)
    result = recovery_roll(
        morale.value, morale.battalion, turn, dice, attacking=blocked, rule="17.1.d"
    )
    morale.value = result.after
    return result

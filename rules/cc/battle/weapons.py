"""Weapon breakdown and repair [11.4, 1.9.1.2, A41, E63].

A Weapon that breaks flips to its broken side; a broken Weapon that breaks again is eliminated
(to the Casualty track's Weapon box) [11.4]. On a Fire Attack roll a Jammed! trigger breaks
every firing Weapon, and the attack goes on (WE-02) [1.9.1.2]; each Sustained Fire played
breaks one firing MG or mortar (the firer's choice) when the roll is doubles, cumulatively
with other Sustained Fires and with Jammed! (WE-53) [A41]. Radios and Mines are not Weapons.
On every Random Hex check, before the Sniper!/Event itself, the hex number is compared with
each broken Weapon's printed Fix and Elim ranges [11.4]; those ranges are counter values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from rules.cc.battle.rolls import CCRoll, Trigger
from rules.dice import TWO_D6, Distribution
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg


class WeaponKind(StrEnum):
    MG = "mg"  # light, medium, heavy machine guns
    MORTAR = "mortar"
    OTHER = "other"


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: WeaponKind = WeaponKind.OTHER
    broken: bool = False
    eliminated: bool = False


def break_weapon(weapon: Weapon, *, rule: str, explanation: Explanation) -> Weapon:
    """11.4: unbroken → broken; broken → eliminated."""
    if weapon.eliminated:
        return weapon
    if weapon.broken:
        explanation.add(rule, msg("%(weapon)s breaks again and is eliminated", weapon=weapon.name))
        return replace(weapon, eliminated=True)
    explanation.add(rule, msg("%(weapon)s breaks", weapon=weapon.name))
    return replace(weapon, broken=True)


def is_doubles(faces: tuple[int, ...]) -> int:
    return int(faces[0] == faces[1])


@dataclass(frozen=True)
class BreakdownResult:
    weapons: tuple[Weapon, ...]  # the firing Weapons afterwards
    explanation: Explanation


def apply_breakdowns(
    *,
    firing: tuple[Weapon, ...],
    jammed: bool,
    sustained_breaks: int,
    choices: tuple[str, ...] = (),
    note: Msg | None = None,
) -> BreakdownResult:
    """Break the firing Weapons: all of them for Jammed! (the trigger resolves first), then one
    MG or mortar per Sustained Fire on doubles, chosen by the firer in `choices`; `note` says
    what the dice showed, between the two."""
    explanation = Explanation()
    weapons = {w.name: w for w in firing}
    if jammed:
        explanation.add("1.9.1.2", msg("Jammed!: every firing Weapon breaks; the attack stands"))
        for name in weapons:
            weapons[name] = break_weapon(weapons[name], rule="1.9.1.2", explanation=explanation)
    if note is not None:
        explanation.add("A41", note)
    for n in range(sustained_breaks):
        pool = [
            w.name for w in weapons.values() if w.kind is not WeaponKind.OTHER and not w.eliminated
        ]
        if not pool:
            break
        if n < len(choices):
            chosen = choices[n]
            if chosen not in pool:
                raise RuleError(
                    msg("%(weapon)s is not a firing MG or mortar", weapon=chosen), rule="A41"
                )
        elif len(pool) == 1:
            chosen = pool[0]
        else:
            raise DecisionRequired(
                Decision(
                    "A41:weapon",
                    "A41",
                    msg("Sustained Fire: choose the MG or mortar that breaks"),
                    tuple(pool),
                    "firer",
                )
            )
        weapons[chosen] = break_weapon(weapons[chosen], rule="A41", explanation=explanation)
    return BreakdownResult(tuple(weapons.values()), explanation)


def fire_breakdowns(
    *,
    roll: CCRoll,
    firing: tuple[Weapon, ...],
    sustained_fire: int = 0,
    choices: tuple[str, ...] = (),
) -> BreakdownResult:
    """The Weapons a Fire Attack roll breaks [1.9.1.2, A41]. `roll` is the Fire Attack roll as
    made (its trigger already cleared when the roll came during a trigger or Event); the
    Attack Total is not touched (WE-02)."""
    if any(w.broken or w.eliminated for w in firing):
        raise RuleError(msg("a broken Weapon cannot fire"), rule="11.4")
    if sustained_fire and not any(w.kind is not WeaponKind.OTHER for w in firing):
        raise RuleError(msg("Sustained Fire needs a firing MG or mortar"), rule="A41")
    doubles = (
        bool(is_doubles((roll.record.die("white"), roll.record.die("coloured"))))
        if sustained_fire
        else False
    )
    note = None
    if sustained_fire:
        note = (
            msg("The roll is doubles: each Sustained Fire breaks an MG or mortar")
            if doubles
            else msg("The roll is not doubles: Sustained Fire breaks nothing")
        )
    return apply_breakdowns(
        firing=firing,
        jammed=roll.trigger is Trigger.JAMMED,
        sustained_breaks=sustained_fire if doubles else 0,
        choices=choices,
        note=note,
    )


def breakdown_odds(
    *,
    firing: tuple[Weapon, ...],
    sustained_fire: int,
    jammed: bool = False,
    choices: tuple[str, ...] = (),
) -> dict[tuple[Weapon, ...], Fraction]:
    """Exact chances of each end state of the firing Weapons, given the card's trigger: the
    dice decide only whether Sustained Fire bites (doubles)."""
    doubles = Distribution.of(TWO_D6, read=is_doubles).p_exactly(1)
    odds: dict[tuple[Weapon, ...], Fraction] = {}
    for hit, p in ((True, doubles), (False, 1 - doubles)):
        end = apply_breakdowns(
            firing=firing,
            jammed=jammed,
            sustained_breaks=sustained_fire if hit else 0,
            choices=choices,
        ).weapons
        odds[end] = odds.get(end, Fraction(0)) + p
    return odds


class RepairOutcome(StrEnum):
    FIXED = "fixed"
    ELIMINATED = "eliminated"
    STILL_BROKEN = "still_broken"


@dataclass(frozen=True)
class BrokenWeapon:
    """A broken Weapon and its printed ranges, inclusive: Fix (low, high), Elim (low, high)."""

    name: str
    fix: tuple[int, int]
    elim: tuple[int, int]


@dataclass(frozen=True)
class RepairResult:
    outcomes: dict[str, RepairOutcome]
    explanation: Explanation


def random_hex_check(*, hex_number: int, weapons: tuple[BrokenWeapon, ...]) -> RepairResult:
    """11.4: the Random Hex's number against each broken Weapon's Fix and Elim ranges,
    before the Sniper!/Event is resolved."""
    explanation = Explanation()
    outcomes = {}
    for weapon in weapons:
        fix = weapon.fix[0] <= hex_number <= weapon.fix[1]
        elim = weapon.elim[0] <= hex_number <= weapon.elim[1]
        if fix and elim:
            raise RuleError(
                msg("the Fix and Elim ranges of %(weapon)s overlap", weapon=weapon.name),
                rule="11.4",
            )
        outcome = (
            RepairOutcome.FIXED
            if fix
            else RepairOutcome.ELIMINATED
            if elim
            else RepairOutcome.STILL_BROKEN
        )
        if fix:
            text = msg(
                "Hex number %(n)s is in the Fix range of %(weapon)s: repaired",
                n=hex_number,
                weapon=weapon.name,
            )
        elif elim:
            text = msg(
                "Hex number %(n)s is in the Elim range of %(weapon)s: eliminated",
                n=hex_number,
                weapon=weapon.name,
            )
        else:
            text = msg(
                "Hex number %(n)s: %(weapon)s stays broken", n=hex_number, weapon=weapon.name
            )
        explanation.add("11.4", text, outcome.value)
        outcomes[weapon.name] = outcome
    return RepairResult(outcomes, explanation)


def malfunction(*, nearest: tuple[Weapon, ...], chosen: str | None = None) -> BreakdownResult:
    """E63: the unbroken Weapon (friend or foe) nearest the random hex breaks; `nearest` are
    those at the least distance (the players measure) and the receiver breaks a tie."""
    pool = [w for w in nearest if not (w.broken or w.eliminated)]
    explanation = Explanation()
    if not pool:
        explanation.add("E63", msg("Malfunction: no unbroken Weapon"))
        return BreakdownResult((), explanation)
    if chosen is None and len(pool) > 1:
        raise DecisionRequired(
            Decision(
                "E63:weapon",
                "E63",
                msg("Malfunction: choose the nearest Weapon that breaks"),
                tuple(w.name for w in pool),
                "receiver",
            )
        )
    weapon = next((w for w in pool if w.name == (chosen or pool[0].name)), None)
    if weapon is None:
        raise RuleError(
            msg("%(weapon)s is not an unbroken Weapon nearest the random hex", weapon=chosen),
            rule="E63",
        )
    return BreakdownResult(
        (break_weapon(weapon, rule="E63", explanation=explanation),), explanation
    )

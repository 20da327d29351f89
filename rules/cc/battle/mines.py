"""Mines attacks [F103, A35.2]: FP 6 (7 or 8 when the Defender has that minefield), Cover 0.

Any unit, friend or foe, that Moves, Advances or Retreats into or out of a Mines hex is attacked;
units that moved together share one attack roll, units already in the hex are immune. The
opponent of the unit's owner rolls the attack, the owner the Defense, with the results of a Fire
Attack [O20.3.3–O20.3.4]. Mines are not Weapons, so Jammed! breaks nothing (1.9.1.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.cc.battle.fire import (
    DefenseOdds,
    DefenseResult,
    Outcome,
    Target,
    defend,
    defense_odds,
)
from rules.cc.battle.rolls import CCRoll, Trigger, roll
from rules.cc.battle.terrain import Fortification
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg, nmsg

MINE_FP = (6, 7, 8)  # F103.2


@dataclass(frozen=True)
class MineAttack:
    roll: CCRoll
    total: int
    defense: DefenseResult


@dataclass(frozen=True)
class MineResult:
    attacks: tuple[MineAttack, ...]
    explanation: Explanation


def _check_fp(fp: int) -> None:
    if fp not in MINE_FP:
        raise RuleError(
            msg("a minefield attacks with FP 6, 7 or 8, not %(n)s", n=fp), rule="F103.2"
        )


def mine_attack(
    *,
    target: Target,
    dice: DiceSource,
    fp: int = 6,
    hidden: bool = False,
    triggers: Sequence[Trigger] = (),
    defense_triggers: Sequence[Trigger] = (),
    tie_breaks_movers: bool = False,
    v19: bool = False,
) -> MineResult:
    """Mine attacks on the units of `target` that entered or left the Mines hex together.

    `target.units` holds only those units (the others in the hex are immune; their Leaders go
    in `other_leader_commands`). `hidden`: Hidden Mines just placed attack each unit on its own
    (A35.2). A tie suppresses the unit and leaves it in good order even though it is moving,
    as the seed's F103.2 says; `tie_breaks_movers` plays O20.3.4 instead (a unit activated for
    Move breaks on a tie).
    """
    _check_fp(fp)
    if not target.units:
        raise RuleError(
            msg("a Mine attack needs a unit entering or leaving the hex"), rule="F103.1"
        )
    why = Explanation()
    units = list(target.units)
    groups = [[i] for i in range(len(units))] if hidden else [list(range(len(units)))]
    why.add(
        "A35.2" if hidden else "F103.1",
        nmsg(
            "%(n)s Mine attack at FP %(fp)s, Cover 0",
            "%(n)s Mine attacks at FP %(fp)s, Cover 0",
            len(groups),
            fp=fp,
        ),
        len(groups),
    )
    attacks = []
    gone: set[int] = set()
    for i, group in enumerate(groups):
        others = [
            units[j].unit.command for j in range(len(units)) if j not in group and j not in gone
        ]
        trig = triggers[i] if i < len(triggers) else Trigger.NONE
        cc = roll(dice, purpose=msg("Mine Attack roll"), rule="F103.2", trigger=trig)
        total = fp + cc.value
        why.add(
            "F103.2", msg("Mine Attack Total %(fp)s + %(r)s", fp=fp, r=cc.value), total, cc.record
        )
        if cc.trigger is Trigger.JAMMED:
            why.add("1.9.1.2", msg("Jammed! breaks nothing: Mines are not Weapons"))
        defense = defend(
            attack_total=total,
            target=replace(
                target,
                units=tuple(units[j] for j in group),
                ground=replace(target.ground, fortification=Fortification.MINES),
                other_leader_commands=(*target.other_leader_commands, *others),
            ),
            dice=dice,
            triggers=[defense_triggers[j] for j in group if j < len(defense_triggers)],
            zero_cover=msg("Mines"),
            tie_breaks_moving=tie_breaks_movers,
            v19=v19,
        )
        why.extend(defense.explanation)
        for j, done in zip(group, defense.units, strict=True):
            units[j] = replace(units[j], unit=done.unit)
            if done.outcome is Outcome.ELIMINATED:
                gone.add(j)
        attacks.append(MineAttack(cc, total, defense))
    return MineResult(tuple(attacks), why)


def mine_odds(
    *,
    morale: int,
    fp: int = 6,
    broken: bool = False,
    suppressed: bool = False,
    moving: bool = True,
    tie_breaks_movers: bool = False,
    v19: bool = False,
) -> DefenseOdds:
    """Exact odds of each result for one unit, from its Morale without Cover (Cover is 0)."""
    _check_fp(fp)
    return defense_odds(
        attack_fp=fp,
        morale=morale,
        broken=broken,
        suppressed=suppressed,
        moving=moving,
        tie_breaks_moving=tie_breaks_movers,
        v19=v19,
    )

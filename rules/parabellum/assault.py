"""Assaults (§6.3, §8.1.3): opposed 3D6 rolls after a cautious or double-time move.

Higher modified total eliminates the other, a tie eliminates both, and a modified 11+
eliminates the opponent even in defeat. A triple is a "certero" attack that eliminates the
opponent outright; two triples eliminate both (§6.3 C). Enemies within 3 cm of the assaulted
one are fought in turn, non-suppressed first, at −1, −2, −3 … (§6.3 D). An MG gunner with its
assistant is a single assault at +2; losing it removes both (§8.1.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.data import Experience, experience_mods
from rules.parabellum.rolls import outcomes, roll_3d6

ASSAULT_KILLS_AT = 11


@dataclass(frozen=True)
class Assailant:
    name: str
    movement: Literal["cautious", "double_time"]
    experience: Experience = "regular"
    assault_weapon: bool = False


@dataclass(frozen=True)
class Defender:
    """An assaulted soldier. `mg_assistant` names the assistant of an MG team (gunner with
    assistant in contact, neither suppressed)."""

    name: str
    experience: Experience = "regular"
    suppressed: bool = False
    assault_weapon: bool = False
    heavy_cover: bool = False
    marked_by_covering_fire: bool = False
    mg_assistant: str | None = None


def attacker_modifier(attacker: Assailant, bout: int, bouts: int, ex: Explanation) -> int:
    total = ex.add("6.3", msg("assaulting"), 2)
    if attacker.assault_weapon:
        total += ex.add("6.6", msg("Assault weapon"), 1)
    if bouts > 1:
        total += ex.add(
            "6.3 D", msg("consecutive assault %(bout)s of %(bouts)s", bout=bout, bouts=bouts), -bout
        )
    if exp := experience_mods(attacker.experience)["assault"]:
        total += ex.add(
            "8.2.2",
            msg(
                "assailant %(experience)s",
                experience=pbl.label(pbl.EXPERIENCES, attacker.experience),
            ),
            exp,
        )
    return total


def defender_modifier(defender: Defender, attacker: Assailant, ex: Explanation) -> int:
    if defender.suppressed:
        total = ex.add("6.3", msg("%(name)s suppressed", name=pbl.soldier_name(defender.name)), -3)
    else:
        total = 0
        if defender.assault_weapon:
            total += ex.add(
                "6.6", msg("%(name)s: Assault weapon", name=pbl.soldier_name(defender.name)), 1
            )
        if defender.heavy_cover:
            total += ex.add(
                "6.3 A", msg("%(name)s in heavy cover", name=pbl.soldier_name(defender.name)), 2
            )
        if attacker.movement == "double_time":
            total += ex.add("6.3", msg("the assailant double-timed in"), 2)
        if defender.marked_by_covering_fire:
            total += ex.add(
                "6.2.10",
                msg("%(name)s marked by covering fire", name=pbl.soldier_name(defender.name)),
                -1,
            )
        if defender.mg_assistant:
            total += ex.add("8.1.3", msg("MG gunner with assistant"), 2)
    if exp := experience_mods(defender.experience)["assault"]:
        total += ex.add(
            "8.2.2",
            msg(
                "%(name)s %(experience)s",
                name=pbl.soldier_name(defender.name),
                experience=pbl.label(pbl.EXPERIENCES, defender.experience),
            ),
            exp,
        )
    return total


def bout_result(att: int, att_triple: bool, dfn: int, dfn_triple: bool) -> tuple[bool, bool]:
    """(attacker eliminated, defender eliminated) for two modified totals (§6.3)."""
    if att_triple or dfn_triple:
        return dfn_triple, att_triple
    attacker_dies = dfn >= att or dfn >= ASSAULT_KILLS_AT
    defender_dies = att >= dfn or att >= ASSAULT_KILLS_AT
    return attacker_dies, defender_dies


@dataclass(frozen=True)
class BoutOdds:
    attacker_eliminated: Fraction
    defender_eliminated: Fraction
    both_eliminated: Fraction


def bout_odds(att_mod: int, dfn_mod: int) -> BoutOdds:
    a = d = both = Fraction(0)
    for av, at, ap in outcomes():
        for dv, dt, dp in outcomes():
            a_dies, d_dies = bout_result(av + att_mod, at, dv + dfn_mod, dt)
            p = ap * dp
            a += p if a_dies else 0
            d += p if d_dies else 0
            both += p if a_dies and d_dies else 0
    return BoutOdds(a, d, both)


@dataclass
class Bout:
    defender: str
    attacker_roll: RollRecord
    defender_roll: RollRecord
    attacker_total: int
    defender_total: int
    attacker_eliminated: bool
    defender_eliminated: bool
    odds: BoutOdds


@dataclass
class AssaultResult:
    bouts: list[Bout]
    eliminated: list[str]
    explanation: Explanation
    unfought: list[str] = field(default_factory=list)

    @property
    def attacker_eliminated(self) -> bool:
        return any(b.attacker_eliminated for b in self.bouts)


def resolve_assault(
    attacker: Assailant, defenders: list[Defender], dice: DiceSource
) -> AssaultResult:
    """The assault on `defenders[0]` and the consecutive ones on every enemy within 3 cm of it
    in the assailant's LOS; stops when the assailant falls (DECISIONS D-9)."""
    if not defenders:
        raise RuleError(msg("an assault needs a defender within 3 cm"), rule="6.3")
    team = [d for d in defenders if d.mg_assistant]
    if team and len(defenders) > 1:
        raise RuleError(
            msg("assaulting an MG gunner with assistant is a single assault"), rule="8.1.3"
        )
    if any(d.suppressed for d in team):
        raise RuleError(msg("MG team rules do not apply while suppressed"), rule="8.1.3")
    order = sorted(defenders, key=lambda d: d.suppressed)
    ex = Explanation()
    if len(order) > 1:
        ex.add(
            "6.3 D",
            "consecutive assaults, non-suppressed first: " + ", ".join(d.name for d in order),
        )
    bouts: list[Bout] = []
    eliminated: list[str] = []
    for k, defender in enumerate(order, start=1):
        ex.add(
            "6.3",
            msg(
                "%(name)s assaults %(name2)s",
                name=pbl.soldier_name(attacker.name),
                name2=pbl.soldier_name(defender.name),
            ),
        )
        att_mod = attacker_modifier(attacker, k, len(order), ex)
        dfn_mod = defender_modifier(defender, attacker, ex)
        odds = bout_odds(att_mod, dfn_mod)
        ar = roll_3d6(dice, purpose=msg("%(soldier)s assaults", soldier=attacker.name), rule="6.3")
        dr = roll_3d6(dice, purpose=msg("%(soldier)s defends", soldier=defender.name), rule="6.3")
        at, dt = ar.value + att_mod, dr.value + dfn_mod
        ex.add("6.3", msg("%(name)s total", name=pbl.soldier_name(attacker.name)), at, roll=ar)
        ex.add("6.3", msg("%(name)s total", name=pbl.soldier_name(defender.name)), dt, roll=dr)
        a_dies, d_dies = bout_result(at, ar.is_triple, dt, dr.is_triple)
        if ar.is_triple or dr.is_triple:
            ex.add("6.3 C", msg("triple: a certero attack eliminates the opponent"))
        elif at == dt:
            ex.add("6.3", msg("tie: both eliminated"))
        elif min(at, dt) >= ASSAULT_KILLS_AT:
            ex.add("6.3", msg("the loser's total is 11+: it eliminates the winner too"))
        if d_dies:
            eliminated += [defender.name] + (
                [defender.mg_assistant] if defender.mg_assistant else []
            )
            ex.add(
                "8.1.3" if defender.mg_assistant else "6.3",
                msg("%(name)s eliminated", name=pbl.soldier_name(defender.name)),
            )
        if a_dies:
            eliminated.append(attacker.name)
            ex.add("6.3", msg("%(name)s eliminated", name=pbl.soldier_name(attacker.name)))
        bouts.append(Bout(defender.name, ar, dr, at, dt, a_dies, d_dies, odds))
        if a_dies:
            break
    unfought = [d.name for d in order[len(bouts) :]]
    if unfought:
        ex.add("6.3 D", "the assailant fell; no further assaults: " + ", ".join(unfought))
    return AssaultResult(bouts, eliminated, ex, unfought)

"""Evasion rolls against a fixed number, and the "hit the dirt" choice (§6.2.4, §6.2.11).

Grenades and the M7 launcher (§6.4), artillery and the light mortar (§7.2), the STONK, the
sniper (§7.1), the grenade projector (§6.6) and MG fire at will (§7.3) all ask each affected
soldier for a 3D6 evasion against a fixed number, with the veteran +1 / recruit −1 (§8.2.2).
A triple is a heroic evasion and saves against any attack (§6.2.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.data import Experience, experience_mods, special_rule
from rules.parabellum.rolls import Outcome, outcomes, percent, roll_3d6, tally


@dataclass(frozen=True)
class Target:
    """A soldier facing an attack. `hit_the_dirt` is its owner's choice: None = not asked yet."""

    name: str
    experience: Experience = "regular"
    officer: bool = False
    hit_the_dirt: bool | None = None


def evasion_modifier(experience: Experience) -> int:
    return experience_mods(experience)["evasion"]


def hit_the_dirt_cost(target: Target) -> int:
    """2 PO, or 1 PO for the squad's officer (§6.2.11, §8.1.1)."""
    return 1 if target.officer else 2


def wants_hit_the_dirt(target: Target, *, against: str, allowed: bool, odds: str) -> bool:
    """The owner's hit-the-dirt choice; asks for it (DecisionRequired) when legal but unset."""
    if target.hit_the_dirt is None:
        if not allowed:
            return False
        raise DecisionRequired(
            Decision(
                key=f"hit_the_dirt:{target.name}",
                rule="6.2.11",
                prompt=(
                    msg(
                        "%(name)s: pay %(v)s PO to hit the dirt instead of rolling evasion against %(against)s? (%(odds)s)",
                        name=pbl.soldier_name(target.name),
                        v=hit_the_dirt_cost(target),
                        against=against,
                        odds=odds,
                    )
                ),
                options=(False, True),
                chooser=f"owner of {target.name}",
            )
        )
    if target.hit_the_dirt and not allowed:
        raise RuleError(
            msg(
                "hit the dirt cannot be used against %(against)s (point blank and assaults are excluded)",
                against=against,
            ),
            rule="6.2.11",
        )
    return target.hit_the_dirt


@dataclass(frozen=True)
class FixedEvasion:
    """An attack each affected soldier evades by rolling `needed`+.

    `suppresses_first`: the soldier is suppressed whatever the roll; `on_fail` is the result of
    a failed roll; `eliminated_at_most`: a modified roll this low eliminates (MG fire at will).
    """

    name: str
    rule: str
    needed: int
    suppresses_first: bool
    on_fail: Outcome
    eliminated_at_most: int | None = None
    hit_the_dirt_allowed: bool = True

    def outcome(self, modified: int, triple: bool) -> Outcome:
        saved: Outcome = "suppressed" if self.suppresses_first else "unharmed"
        if triple or modified >= self.needed:
            return saved
        if self.eliminated_at_most is not None and modified <= self.eliminated_at_most:
            return "eliminated"
        return self.on_fail

    @property
    def dirt_outcome(self) -> Outcome:
        """Hitting the dirt skips the roll; an area attack still suppresses (DECISIONS D-6)."""
        return "suppressed" if self.suppresses_first else "unharmed"


GRENADE = FixedEvasion("a grenade", "6.4", 9, True, "eliminated")
GRENADE_LAUNCHER = FixedEvasion("an M7 grenade", "10 ESTADOS UNIDOS", 9, True, "eliminated")
ARTILLERY = FixedEvasion("artillery fire", "7.2", 9, True, "eliminated")
LIGHT_MORTAR = FixedEvasion("the light mortar", "10 GRAN BRETAÑA", 9, True, "eliminated")
STONK = FixedEvasion("the STONK bombardment", "10 GRAN BRETAÑA", 9, False, "suppressed")
SNIPER = FixedEvasion("a sniper shot", "7.1", 11, True, "eliminated")
PROJECTOR = FixedEvasion("a grenade projector", "6.6", 11, True, "eliminated")


def fire_at_will(mg42: bool) -> FixedEvasion:
    """MG fire at will: 11+ (12+ from an MG42 nation), ≤6 eliminated, else suppressed (§7.3)."""
    needed = special_rule("mg42")["fire_at_will_evasion"] if mg42 else 11
    return FixedEvasion("MG fire at will", "7.3", needed, False, "suppressed", 6)


def fixed_evasion_odds(attack: FixedEvasion, experience: Experience) -> dict[Outcome, Fraction]:
    """Exact outcome odds of one evasion roll (no hit the dirt)."""
    mod = evasion_modifier(experience)
    return tally([(attack.outcome(v + mod, t), p) for v, t, p in outcomes()])


@dataclass
class EvasionResult:
    target: str
    outcome: Outcome
    explanation: Explanation
    odds: dict[Outcome, Fraction]
    roll: RollRecord | None = None
    modified: int | None = None
    heroic: bool = False
    po_spent: int = 0


def _odds_text(odds: dict[Outcome, Fraction]) -> str:
    return ", ".join(f"{k} {percent(p)}" for k, p in odds.items() if p)


def resolve_fixed_evasions(
    attack: FixedEvasion, targets: list[Target], dice: DiceSource
) -> list[EvasionResult]:
    """Each target evades `attack` in turn; every hit-the-dirt choice is asked before any roll."""
    odds = {t.name: fixed_evasion_odds(attack, t.experience) for t in targets}
    dirt = {
        t.name: wants_hit_the_dirt(
            t,
            against=attack.name,
            allowed=attack.hit_the_dirt_allowed,
            odds=_odds_text(odds[t.name]),
        )
        for t in targets
    }
    results = []
    for t in targets:
        ex = Explanation()
        if attack.suppresses_first:
            ex.add(
                attack.rule,
                msg(
                    "%(name)s is caught by %(name2)s: suppressed",
                    name=pbl.soldier_name(t.name),
                    name2=attack.name,
                ),
                "suppressed",
            )
        if dirt[t.name]:
            cost = hit_the_dirt_cost(t)
            ex.add(
                "6.2.11",
                msg(
                    "%(name)s hits the dirt for %(cost)s PO: no evasion roll",
                    name=pbl.soldier_name(t.name),
                    cost=cost,
                ),
                cost,
            )
            results.append(
                EvasionResult(t.name, attack.dirt_outcome, ex, odds[t.name], po_spent=cost)
            )
            continue
        record = roll_3d6(
            dice,
            purpose=msg("%(target)s evades %(attack)s", target=t.name, attack=attack.name),
            rule=attack.rule,
        )
        mod = evasion_modifier(t.experience)
        ex.add(
            attack.rule,
            msg("evasion roll, %(needed)s+ needed", needed=attack.needed),
            record.value,
            roll=record,
        )
        if mod:
            ex.add(
                "8.2.2",
                msg(
                    "%(experience)s evasion modifier",
                    experience=pbl.label(pbl.EXPERIENCES, t.experience),
                ),
                mod,
            )
        outcome = attack.outcome(record.value + mod, record.is_triple)
        if record.is_triple:
            ex.add("6.2.4", msg("triple: heroic evasion"), outcome)
        else:
            ex.add(
                attack.rule, msg("modified evasion %(total)s", total=record.value + mod), outcome
            )
        results.append(
            EvasionResult(
                t.name,
                outcome,
                ex,
                odds[t.name],
                roll=record,
                modified=record.value + mod,
                heroic=record.is_triple,
            )
        )
    return results

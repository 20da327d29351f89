"""Assaults [22.0]: who may assault and fire, the assault fire shifts and the round's morale
checks. The step machine that steers an assault is `rules.tcs.assault_steps`; overruns
[23.0] reuse both (`rules.tcs.overrun` has their declaration check).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs.fire import (
    Firer,
    FireResult,
    FirerKind,
    TargetType,
    TargetUnit,
    area_fire,
    posture_shift,
)
from rules.tcs.fire_tables import FireCharts, Terrain
from rules.tcs.morale_check import (
    CHECKERS,
    Mode,
    MoraleState,
    Outcome,
    StackUnit,
    check_morale,
)
from rules.tcs.morale_table import MoraleResult, MoraleTable

HEAVY_WEAPONS = {FirerKind.MG, FirerKind.AT_GUN, FirerKind.GUN, FirerKind.ARTILLERY}
ATTACKER, DEFENDER, SIMULTANEOUS = "attacker", "defender", "simultaneous"
# Attacker results in steps 2, 4 and 5 that end the assault [22.0 steps 2–5].
REPULSING = {"suppressed", "paralyzed", "syr", "surrender", "eliminated"}
SIDE_WORDS = {
    ATTACKER: msg("attacker"),
    DEFENDER: msg("defender"),
    SIMULTANEOUS: msg("both sides at once"),
}


@dataclass(frozen=True)
class AssaultUnit:
    """A unit as the assault rules see it: `mp` left this phase (attackers), `hex` it is in,
    `in_stack_at_start` whether its stack existed as such at the start of the phase."""

    id: str
    kind: FirerKind
    mode: Mode = Mode.MOVE
    state: MoraleState = MoraleState.NORMAL
    mp: int | None = None
    hex: str = ""
    in_stack_at_start: bool = True
    unassigned: bool = False
    mounted: bool = False
    towed: bool = False


def refuse(problems: list[tuple[str, str, Msg]], what: Msg) -> None:
    """One RuleError naming every problem; its rule is the first problem's."""
    if problems:
        text = msg(
            "%(what)s refused: %(reasons)s",
            what=what,
            reasons=[
                msg("%(unit)s [%(rule)s] %(why)s", unit=u, rule=r, why=w) for u, r, w in problems
            ],
        )
        raise RuleError(text, rule=problems[0][1])


def stack_problems(
    units: Sequence[AssaultUnit], rules: tuple[str, str], *, adjacent: bool
) -> list[tuple[str, str, Msg]]:
    """Problems shared by assaults and overruns: one stack that existed at the start of the
    phase [22.0, 20.0.h], adjacent, in Move mode, not unassigned [22.0.j, 23.0.l]."""
    problems: list[tuple[str, str, Msg]] = []
    if not units:
        problems.append(("-", "22.0", msg("name the units of the assaulting stack")))
        return problems
    if len({u.hex for u in units}) > 1:
        problems.append(("-", "22.0", msg("only one stack may assault or overrun at a time")))
    if not adjacent:
        problems.append(("-", "22.0", msg("the stack must be adjacent to the target hex")))
    for u in units:
        if u.mode is not Mode.MOVE:
            problems.append((u.id, rules[0], msg("must be in Move mode")))
        if not u.in_stack_at_start:
            problems.append(
                (u.id, "20.0.h", msg("its stack did not exist at the start of the Action Phase"))
            )
        if u.unassigned:
            problems.append((u.id, rules[1], msg("unassigned units may not do this")))
    return problems


def check_assault(
    units: Sequence[AssaultUnit], *, enter_cost: int, adjacent: bool = True
) -> Explanation:
    """An assault may be declared [22.0 step 1, 22.0.a, 22.0.j, 20.0.h]: one stack that
    existed at the start of the phase, adjacent, in Move mode, each unit with the MP to
    enter the target hex (no extra cost), none unassigned. Otherwise a RuleError lists all."""
    problems = stack_problems(units, ("22.0.a", "22.0.j"), adjacent=adjacent)
    for u in units:
        if u.mp is not None and u.mp < enter_cost:
            problems.append(
                (u.id, "22.0.a", msg("%(mp)s MP left, %(cost)s to enter", mp=u.mp, cost=enter_cost))
            )
    refuse(problems, msg("assault"))
    exp = Explanation()
    exp.add("22.0", msg("assault declared: an overwatch event of type Final for the defender"))
    return exp


def fire_problem(u: AssaultUnit, *, overrun: bool = False) -> tuple[str, Msg] | None:
    """Why a unit may not fire in an assault or overrun, or None [22.0.b, 23.0.a, 23.0.e]."""
    if u.kind is FirerKind.MORTAR:
        return "22.0.b", msg("mortars never fire in an assault")
    if u.towed:
        return "9.1.e", msg("towed heavy weapons never fire")
    if u.kind in HEAVY_WEAPONS and u.mode is not Mode.FIRE:
        return "22.0.b", msg("heavy weapons fire in an assault only in Fire mode")
    if overrun and u.state is MoraleState.PARALYZED:
        return "23.0.e", msg("paralyzed units do not fire in an overrun")
    return None


def check_assault_firers(units: Sequence[AssaultUnit], *, overrun: bool = False) -> None:
    """Every unit named may fire in the assault; mounted infantry may [23.0.a, 9.1.e]."""
    problems = []
    for u in units:
        why = fire_problem(u, overrun=overrun)
        if why:
            problems.append((u.id, *why))
    refuse(problems, msg("assault fire"))


def cancel_common(a: int, b: int) -> tuple[int, int]:
    """Both negative → cancel the smaller absolute value on both [22.0.g]; else unchanged."""
    if a < 0 and b < 0:
        common = min(-a, -b)
        return a + common, b + common
    return a, b


def cancel_other(
    vs_attacker: Sequence[tuple[str, int]], vs_defender: Sequence[tuple[str, int]]
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Negative shifts of the same name on both sides cancel by their common part [22.0.f]."""
    left = dict(vs_attacker)
    right = dict(vs_defender)
    for name in left.keys() & right.keys():
        left[name], right[name] = cancel_common(left[name], right[name])
    return (
        [(n, v) for n, v in left.items() if v],
        [(n, v) for n, v in right.items() if v],
    )


@dataclass
class AssaultFire:
    """One round's consolidated area fire of each side [22.0.h]; None where a side had no
    area fire. `terrain` = (vs attacker, vs defender) before and after 22.0.g."""

    by_attacker: FireResult | None
    by_defender: FireResult | None
    terrain_before: tuple[int | None, int | None]
    terrain_after: tuple[int | None, int | None]
    explanation: Explanation = field(default_factory=Explanation)


def _terrain(
    targets: Sequence[TargetUnit], terrain: Terrain, charts: FireCharts, entered
) -> int | None:
    """A side's terrain/posture shift as a target of area fire [11.3.a–b]: P-targets, riders
    on transports and on vehicles have none; None when no unit of the side has one."""
    posed = [t for t in targets if t.type is not TargetType.P and not (t.carried or t.on_vehicle)]
    return posture_shift(posed, terrain, charts, entered, "area").value if posed else None


def _forced(targets: Sequence[TargetUnit], value: int | None, entered: Mapping[str, int]):
    """`entered` with every target posture's terrain shift set to `value`."""
    out = dict(entered)
    if value is not None:
        out.update({f"terrain_posture:{t.posture}": value for t in targets})
    return out


def assault_fire(
    attackers: Sequence[Firer],
    defenders: Sequence[Firer],
    attacker_targets: Sequence[TargetUnit],
    defender_targets: Sequence[TargetUnit],
    terrain: Terrain,
    charts: FireCharts,
    dice: DiceSource | None,
    *,
    overrun: bool = False,
    other_vs_attacker: Sequence[tuple[str, int]] = (),
    other_vs_defender: Sequence[tuple[str, int]] = (),
    entered_vs_attacker: Mapping[str, int] | None = None,
    entered_vs_defender: Mapping[str, int] | None = None,
) -> AssaultFire:
    """Both sides' area fire in one assault round, each consolidated into one attack on the
    enemy units only, stacking per side [22.0.e, 22.0.h], firers at range 0. Negative shifts
    common to both sides are ignored [22.0.f]; both sides' negative terrain shifts (target hex
    terrain and each side's posture) cancel [22.0.g], except in an overrun [23.0.c]. The
    attacker's attack rolls first (order does not matter to the dice)."""
    exp = Explanation()
    vs_att, vs_def = cancel_other(other_vs_attacker, other_vs_defender)
    if len(vs_att) < len(other_vs_attacker) or len(vs_def) < len(other_vs_defender):
        exp.add("22.0.f", msg("negative shifts common to both sides ignored"))
    e_att, e_def = dict(entered_vs_attacker or {}), dict(entered_vs_defender or {})
    before = (
        _terrain(attacker_targets, terrain, charts, e_att),
        _terrain(defender_targets, terrain, charts, e_def),
    )
    after = before
    if overrun:
        exp.add("23.0.c", msg("overrun: terrain modifiers apply normally"))
    elif None not in before:
        after = cancel_common(*before)
        if after != before:
            exp.add(
                "22.0.g",
                msg(
                    "both sides have negative terrain shifts: %(a)s against the attacker, "
                    "%(d)s against the defender after cancelling",
                    a=after[0],
                    d=after[1],
                ),
            )
    by_att = by_def = None
    if attackers:
        by_att = area_fire(
            attackers,
            defender_targets,
            terrain,
            charts,
            dice,
            other=vs_def,
            entered=_forced(defender_targets, after[1], e_def),
        )
    if defenders:
        by_def = area_fire(
            defenders,
            attacker_targets,
            terrain,
            charts,
            dice,
            other=vs_att,
            entered=_forced(attacker_targets, after[0], e_att),
        )
    return AssaultFire(by_att, by_def, before, after, exp)


@dataclass
class AssaultMorale:
    attacker: Outcome | None
    defender: Outcome | None
    defender_skipped: bool
    explanation: Explanation = field(default_factory=Explanation)


def _gone(stack: Sequence[StackUnit], outcome: Outcome | None) -> bool:
    """The stack was eliminated or retreats after its check."""
    if outcome is None:
        return not any(u.remaining for u in stack)
    if outcome.result in (MoraleResult.SYR, MoraleResult.SURRENDER):
        return True
    lost = {x.unit for x in outcome.losses if x.eliminated}
    return all(u.id in lost or not u.remaining for u in stack)


def _check(stack, checks, dice, table, entered, context) -> Outcome | None:
    if not checks or not any(u.category in CHECKERS and u.remaining for u in stack):
        return None
    kwargs = {"in_assault": True, **(context or {})}  # a context may say otherwise
    return check_morale(stack, dice, table=table, entered=entered, **kwargs)


def assault_morale(
    attacker: Sequence[StackUnit],
    defender: Sequence[StackUnit],
    dice: DiceSource,
    *,
    attacker_checks: bool,
    defender_checks: bool,
    table: MoraleTable | None = None,
    attacker_entered: MoraleResult | None = None,
    defender_entered: MoraleResult | None = None,
    attacker_context: Mapping[str, Any] | None = None,
    defender_context: Mapping[str, Any] | None = None,
) -> AssaultMorale:
    """The round's unit morale checks after all fire, attacker first, with the assault
    escalation [22.0 step 6, 22.0.c]; if the attacker is eliminated or retreats, the defender
    skips its unit check (a vehicle morale check may still be due) [22.0 step 6]."""
    exp = Explanation()
    att = _check(attacker, attacker_checks, dice, table, attacker_entered, attacker_context)
    if att is not None:
        exp.extend(att.explanation)
    if attacker and _gone(attacker, att):
        exp.add("22.0", msg("the attacker is eliminated or retreats: the defender does not check"))
        return AssaultMorale(att, None, defender_checks, exp)
    dfd = _check(defender, defender_checks, dice, table, defender_entered, defender_context)
    if dfd is not None:
        exp.extend(dfd.explanation)
    return AssaultMorale(att, dfd, False, exp)

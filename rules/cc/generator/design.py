"""Scenario-design guidance ("Consejos"): the formulas a hand-built scenario can compute.

Guidelines, not procedure: surrender level, initial VP and Initiative from point totals,
reinforcement cost, troop quality, Orders limit, Sudden Death space, squads and leaders per
formation size, set-up depths.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.cc.common import Faction, Nation, Posture, Quality
from rules.cc.generator.state import Orientation
from rules.cc.generator.tables import (
    COMPANY_SQUADS,
    FORMATION_LEADERS,
    FORMATION_SHARE,
    SETUP_DEPTH,
    SURRENDER_SHARE,
    FormationSize,
)
from rules.cc.generator_tables import GeneratorData
from rules.errors import RuleError
from rules.explain import Decision, Explanation

RULE = "Consejos"
POINTS_PER_TOTAL = 100
# Rows (wide) and columns (long) between the two friendly edges of the 10×15 map.
MAP_SPAN = {Orientation.WIDE: 10, Orientation.LONG: 15}


def round_half_up(value: Fraction) -> int:
    """ "Se redondea al número entero más cercano"; a half goes up."""
    return math.floor(value + Fraction(1, 2))


@dataclass(frozen=True)
class DesignValue:
    value: Any
    explanation: Explanation
    decision: Decision | None = None


def _non_negative(rule: str, **counts: int) -> None:
    for name, count in counts.items():
        if count < 0:
            raise RuleError(f"{name} cannot be negative ({count})", rule=rule)


@dataclass(frozen=True)
class FormationGuide:
    squads: int
    leaders: int
    squads_per_leader: int
    explanation: Explanation


def formation_guide(nation: Nation, size: FormationSize) -> FormationGuide:
    """Usual squads and leaders: a company of 9/12/15/18 squads, 2/3 of it a Destacamento,
    1/3 a Patrulla; 3/2/1 leaders."""
    exp = Explanation()
    company = COMPANY_SQUADS.lookup(nation, exp)
    share = FORMATION_SHARE.lookup(size, exp)
    squads = exp.add(RULE, f"{company} × {share} squads", int(company * share))
    leaders = FORMATION_LEADERS.lookup(size, exp)
    ratio = exp.add(
        RULE, "squads per leader", company // FORMATION_LEADERS.rows[FormationSize.COMPANY]
    )
    return FormationGuide(squads, leaders, ratio, exp)


def max_unarmed_teams(squads: int) -> DesignValue:
    """Teams without weapons: normally no more than a quarter of the squads (Elite only)."""
    _non_negative(RULE, squads=squads)
    exp = Explanation()
    return DesignValue(
        exp.add(RULE, f"a quarter of {squads} squads, rounded down", squads // 4), exp
    )


def surrender_level(size: FormationSize, *, leaders: int, squads: int, teams: int) -> DesignValue:
    """70 % (company), 75 % (Destacamento) or 80 % (Patrulla) of leaders + squads + teams,
    to the nearest whole number."""
    _non_negative(RULE, leaders=leaders, squads=squads, teams=teams)
    exp = Explanation()
    units = exp.add(
        RULE,
        f"units = {leaders} leaders + {squads} squads + {teams} teams",
        leaders + squads + teams,
    )
    share = SURRENDER_SHARE.lookup(size, exp)
    level = round_half_up(share * units)
    exp.add(RULE, f"{float(share * units):g} to the nearest whole number", level)
    return DesignValue(level, exp)


def reinforcement_cost(base: int, *, sudden_death: int, time_space: int) -> DesignValue:
    """A piece starting on Time space Y with Sudden Death on X costs (base × (X − Y)) / X,
    fractions dropped (the seed's example: 400/7 → 57)."""
    if sudden_death < 1 or not 1 <= time_space <= sudden_death:
        raise RuleError(
            f"a reinforcement's Time space must be 1 to the Sudden Death space ({sudden_death}), "
            f"not {time_space}",
            rule=RULE,
        )
    _non_negative(RULE, base=base)
    exp = Explanation()
    cost = exp.add(
        RULE,
        f"({base} × ({sudden_death} − {time_space})) / {sudden_death}, rounded down",
        base * (sudden_death - time_space) // sudden_death,
    )
    return DesignValue(cost, exp)


@dataclass(frozen=True)
class DesignPiece:
    """A unit, weapon, radio or fortification; `time_space` when it starts on the Time Track."""

    unit: str
    count: int = 1
    time_space: int | None = None


def point_total(
    pieces: Sequence[DesignPiece], data: GeneratorData, *, sudden_death: int
) -> DesignValue:
    """A side's Point Total: point values (reduced for reinforcements) summed, ÷ 100."""
    exp = Explanation()
    total = 0
    for piece in pieces:
        _non_negative(RULE, count=piece.count)
        base = exp.add(RULE, f"point value of {piece.unit}", data.points(piece.unit))
        if piece.time_space is not None:
            base = reinforcement_cost(base, sudden_death=sudden_death, time_space=piece.time_space)
            exp.extend(base.explanation)
            base = base.value
        total += exp.add(RULE, f"{piece.count} × {piece.unit}", piece.count * base)
    result = Fraction(total, POINTS_PER_TOTAL)
    exp.add(RULE, f"Point Total = {total} / {POINTS_PER_TOTAL}", result)
    return DesignValue(result, exp)


@dataclass(frozen=True)
class InitialSetup:
    """Starting VP, Initiative and usual postures from the two Point Totals."""

    vp_axis: int
    initiative: Faction | None
    postures: Mapping[Faction, Posture]
    explanation: Explanation
    decision: Decision | None = None


def initial_vp(axis_total: Fraction | int, allied_total: Fraction | int) -> InitialSetup:
    """The smaller side starts with the difference of Point Totals, rounded down, in VP; the
    larger takes the Initiative and normally attacks. Totals less than 1 apart: both Recon,
    Initiative to the smaller, VP on "0" (equal totals leave the Initiative to the players)."""
    exp = Explanation()
    totals = {Faction.AXIS: Fraction(axis_total), Faction.ALLIES: Fraction(allied_total)}
    for faction, total in totals.items():
        if total < 0:
            raise RuleError(f"{faction} Point Total cannot be negative", rule=RULE)
        exp.add(RULE, f"{faction} Point Total", total)
    smaller = min(totals, key=totals.__getitem__)
    difference = exp.add(
        RULE, "difference of Point Totals", abs(totals[Faction.AXIS] - totals[Faction.ALLIES])
    )
    if difference < 1:
        recon = dict.fromkeys(Faction, Posture.RECON)
        exp.add(RULE, "less than 1 apart: both Recon, VP marker on 0", 0)
        if difference == 0:
            decision = Decision(
                "consejos_initiative",
                RULE,
                "Equal Point Totals: choose who holds the Initiative card",
                tuple(Faction),
                "designer",
            )
            return InitialSetup(0, None, recon, exp, decision)
        exp.add(RULE, "Initiative to the smaller Point Total", str(smaller))
        return InitialSetup(0, smaller, recon, exp)
    vp = exp.add(RULE, f"{smaller} starts with the difference rounded down", math.floor(difference))
    larger = smaller.other
    exp.add(RULE, "Initiative to the larger Point Total, normally the Attacker", str(larger))
    postures = {larger: Posture.ATTACK, smaller: Posture.DEFEND}
    return InitialSetup(vp if smaller is Faction.AXIS else -vp, larger, postures, exp)


def troop_quality(squads: Mapping[Quality, int]) -> DesignValue:
    """A side's quality is that of its most common squad quality (5 SS + 6 Rifle → Line)."""
    _non_negative(RULE, **{str(q): n for q, n in squads.items()})
    exp = Explanation()
    most = max(squads.values(), default=0)
    if most == 0:
        raise RuleError("count the squads by quality first", rule=RULE)
    tied = tuple(q for q, n in squads.items() if n == most)
    for quality, count in squads.items():
        exp.add(RULE, f"{quality} squads", count)
    if len(tied) > 1:
        decision = Decision(
            "consejos_quality", RULE, "No single most common quality: choose", tied, "designer"
        )
        return DesignValue(None, exp, decision)
    return DesignValue(exp.add(RULE, "most common squad quality", tied[0]), exp)


def orders_limit(leaders: int) -> DesignValue:
    """Orders limit = leaders + 1."""
    _non_negative(RULE, leaders=leaders)
    exp = Explanation()
    return DesignValue(exp.add(RULE, f"{leaders} leaders + 1", leaders + 1), exp)


def sudden_death_space(axis_leaders: int, allied_leaders: int) -> DesignValue:
    """Time starts on 0; Sudden Death on 2 + the leaders of both sides."""
    _non_negative(RULE, axis_leaders=axis_leaders, allied_leaders=allied_leaders)
    exp = Explanation()
    value = exp.add(
        RULE, f"2 + {axis_leaders} + {allied_leaders} leaders", 2 + axis_leaders + allied_leaders
    )
    return DesignValue(value, exp)


def setup_depths(orientation: Orientation) -> DesignValue:
    """Usual depths: Defender 8 / Attacker 2 on a wide map, 12 / 3 on a long one."""
    exp = Explanation()
    depths = {
        p: SETUP_DEPTH.lookup((p, orientation), exp) for p in (Posture.DEFEND, Posture.ATTACK)
    }
    return DesignValue(depths, exp)


def recon_depths_may_touch(depth_a: int, depth_b: int, orientation: Orientation) -> DesignValue:
    """Recon depths should be equal and shallow: warn when the two set-up areas meet ("5" and
    "5" on a wide map), i.e. when they cover the rows between the edges."""
    _non_negative(RULE, depth_a=depth_a, depth_b=depth_b)
    exp = Explanation()
    span = exp.add(RULE, f"hexes between the edges of a {orientation} map", MAP_SPAN[orientation])
    touch = exp.add(RULE, f"{depth_a} + {depth_b} reach across", depth_a + depth_b >= span)
    return DesignValue(touch, exp)

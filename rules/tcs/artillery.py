"""Artillery missions [18.0–18.10, 24.6]: factors, the barrage attack, point targets.

The Artillery Point Fire Table is not in the seed: its kill number is typed at the roll. The
barrage attack on a hex is an area attack on the Fire Table (`rules.tcs.fire.area_fire`).
The Adjustment Table, the adjustment and scatter live in `rules.tcs.artillery_adjust` (its
names are re-exported here). Values the seed prints are constants with their rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.dice import D66, TWO_D6, DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.tcs.ammo import BATTALION_VOLLEYS, AmmoChange, AmmoRecord, AmmoType
from rules.tcs.artillery_adjust import (
    OPPONENT_PLACES_WITHIN,
    SHOOT_WORDS,
    Adjustment,
    AdjustmentTable,
    MissionKind,
    Scatter,
    Shoot,
    adjust,
    parse_shoot,
    rocket_scatter,
    scatter,
)
from rules.tcs.fire import Firer, FireResult, FirerKind, TargetUnit, area_fire
from rules.tcs.fire_tables import FireCharts, Terrain
from rules.tcs.rounding import round_std

__all__ = [
    "OPPONENT_PLACES_WITHIN",
    "SHOOT_WORDS",
    "Adjustment",
    "AdjustmentTable",
    "BarrageHit",
    "MissionFactors",
    "MissionKind",
    "PointAttack",
    "Scatter",
    "Shoot",
    "adjust",
    "barrage_attack",
    "check_observer",
    "fire_mission",
    "ig_point_attack",
    "mission_factors",
    "parse_shoot",
    "point_target_attack",
    "rocket_scatter",
    "scatter",
]

RAPID_MAX_MM = 122  # rapid fire only for tubes of 122 mm or less [18.6.a]
ILLUM_RADIUS = 5  # artillery Illum lights 5 hexes around it [26.2.b]
IG_POINT_MIN_MM = 100  # IGs of 100 mm+ may use the Artillery Point Fire Table [24.5.b]
IG_POINT_MAX_RANGE = 14
IG_POINT_LONG = (8, 14)  # −1 on the table at 8–14 hexes [24.5.b]


@dataclass(frozen=True)
class MissionFactors:
    """What a mission does: AF in the zone and in hexes next to it (None: no effect), the
    zone's size in hexes, its cost in battery volleys of `ammo`, LOS blocking."""

    kind: MissionKind
    zone_af: int | None
    adjacent_af: int | None
    zone_hexes: int
    volleys: int
    ammo: AmmoType
    blocks_los: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def mission_factors(
    kind: MissionKind,
    printed_af: int = 0,
    *,
    battalion: bool = False,
    rapid: bool = False,
    calibre_mm: int | None = None,
    batteries: int = BATTALION_VOLLEYS,
) -> MissionFactors:
    """Factors and cost of one mission [18.5, 18.6, 18.2.c]. `printed_af` is the barrage
    marker's side in use (Good or Bad Shoot); `batteries` is the volleys a battalion marker
    costs (3 by default [18.2.c]; one per battery under A27)."""
    kind, exp = MissionKind(kind), Explanation()
    if printed_af < 0 or batteries < 1:
        raise RuleError(msg("factors and batteries are not negative"), rule="18.5")
    if kind in (MissionKind.SMOKE, MissionKind.ILLUM, MissionKind.ROCKET) and (battalion or rapid):
        raise RuleError(
            msg("smoke, illumination and rocket missions are single-battery missions"),
            rule="18.6.c" if kind is MissionKind.ROCKET else "18.5.c",
        )
    if rapid and (calibre_mm is None or calibre_mm > RAPID_MAX_MM):
        raise RuleError(
            msg("only tubes of 122 mm or less may fire a rapid-fire mission"), rule="18.6.a"
        )
    if kind is MissionKind.ILLUM:
        exp.add(
            "18.5.d",
            msg("illumination: radius %(r)s, not the battery's mission", r=ILLUM_RADIUS),
            1,
        )
        return MissionFactors(kind, None, None, 1, 1, AmmoType.ILLUM, False, exp)
    if kind is MissionKind.SMOKE:
        exp.add("19.3.a", msg("smoke: Smoke 2 in the zone hex"), 1)
        return MissionFactors(kind, None, None, 1, 1, AmmoType.SMOKE, False, exp)
    if kind is MissionKind.ROCKET:
        exp.add("18.6.c", msg("rockets: printed factor already doubled, zone only"), printed_af)
        return MissionFactors(kind, printed_af, None, 1, 1, AmmoType.HE, False, exp)
    continuous = kind is MissionKind.CONTINUOUS
    multiple = 1 if continuous else 2
    exp.add(
        "18.6.b" if continuous else "18.5.a",
        msg("continuous: printed factor") if continuous else msg("HE: twice the printed factor"),
        multiple,
    )
    volleys = batteries if battalion else 1
    if battalion:
        exp.add("18.2.c", msg("battalion fire: target hex and its six neighbours"), volleys)
    if rapid:
        multiple, volleys = multiple * 2, volleys * 3
        exp.add("18.6.a", msg("rapid fire: factor doubled, three times the ammunition"), volleys)
    zone = printed_af * multiple
    adjacent = round_std(Fraction(zone, 2))
    exp.add("18.5.a", msg("zone factor; hexes next to the zone at half"), zone)
    return MissionFactors(
        kind, zone, adjacent, 7 if battalion else 1, volleys, AmmoType.HE, continuous, exp
    )


def check_observer(
    *, fire_mode: bool, suppressed: bool, paralyzed: bool, los: bool, within_visibility: bool
) -> None:
    """Eligibility of the observer named when the mission is announced [18.4.b]."""
    if not fire_mode:
        raise RuleError(msg("the observer must be in Fire mode"), rule="18.4.b")
    if suppressed or paralyzed:
        raise RuleError(msg("a suppressed or paralyzed unit cannot observe"), rule="18.4.b")
    if not los or not within_visibility:
        raise RuleError(
            msg("the observer needs a clear LOS to the target hex within visibility"),
            rule="18.4.b",
        )


@dataclass(frozen=True)
class BarrageHit:
    """One barrage marker's factor on a hex: in its zone, or in a hex next to the zone."""

    factors: MissionFactors
    in_zone: bool


def barrage_attack(
    hits: Sequence[BarrageHit],
    targets: Sequence[TargetUnit],
    terrain: Terrain,
    charts: FireCharts,
    dice: DiceSource | None,
    **options: Any,
) -> FireResult:
    """Every barrage affecting a hex attacks it together on the Fire Table [18.3 (3)]:
    the factors are added; rockets and continuous zones count only in the zone. Artillery
    has no range modifier (entered as 0); other options go to `area_fire`."""
    total = 0
    for hit in hits:
        af = hit.factors.zone_af if hit.in_zone else hit.factors.adjacent_af
        total += af or 0
    if total < 1:
        raise RuleError(msg("no barrage attacks this hex"), rule="18.3")
    barrage = Firer("barrage", FirerKind.ARTILLERY, total, 1, 0, high_trajectory=True)
    entered = {"range:high_trajectory:0": 0, **options.pop("entered", {})}
    return area_fire([barrage], targets, terrain, charts, dice, entered=entered, **options)


@dataclass(frozen=True)
class PointAttack:
    rolls: tuple[RollRecord, ...]
    destroyed: int
    chance: Fraction
    explanation: Explanation


def point_target_attack(
    steps: int,
    dice: DiceSource | None,
    *,
    kill_number: int | None,
    modifiers: Sequence[tuple[str, int]] = (),
    summed: bool = True,
    rule: str = "18.9.b",
) -> PointAttack:
    """Two dice per P-target step; modified roll ≥ the Artillery Point Fire Table number
    destroys the step [18.9.b]. `kill_number` is read off the chart; `modifiers` (rapid fire
    and others) are the chart's too. `summed=False` reads the dice as d66 (A26)."""
    if steps < 1:
        raise RuleError(msg("at least one P-target step"), rule=rule)
    if kill_number is None:
        raise DecisionRequired(
            Decision(
                "point_fire_number",
                rule,
                msg("Read the number on the Artillery Point Fire Table"),
                tuple(range(2, 67)),
            )
        )
    kind, exp = (TWO_D6 if summed else D66), Explanation()
    bonus = sum(v for _, v in modifiers)
    for name, v in modifiers:
        exp.add(rule, msg("modifier: %(name)s", name=name), v)
    hits = sum(1 for f in kind.outcomes() if kind.value(f) + bonus >= kill_number)
    chance = Fraction(hits, 36)
    exp.add(rule, msg("chance per step"), float(chance))
    if dice is None:
        return PointAttack((), 0, chance, exp)
    rolls, destroyed = [], 0
    for _ in range(steps):
        roll = dice.roll(kind, purpose=msg("Artillery Point Fire Table"), rule=rule)
        kill = roll.value + bonus >= kill_number
        destroyed += kill
        exp.add(rule, msg("step destroyed") if kill else msg("no effect"), roll.value, roll=roll)
        rolls.append(roll)
    return PointAttack(tuple(rolls), destroyed, chance, exp)


def ig_point_attack(
    calibre_mm: int, distance: int, dice: DiceSource | None, **kwargs: Any
) -> PointAttack:
    """An IG of 100 mm+ rolls once on the Artillery Point Fire Table at one chosen P-target:
    range ≤ 14, −1 at 8–14 hexes [24.5.b]."""
    if calibre_mm < IG_POINT_MIN_MM:
        raise RuleError(msg("only IGs of 100 mm or more use this table"), rule="24.5.b")
    if not 0 <= distance <= IG_POINT_MAX_RANGE:
        raise RuleError(msg("IGs cannot fire at P-targets beyond 14 hexes"), rule="24.5.b")
    mods = list(kwargs.pop("modifiers", ()))
    if IG_POINT_LONG[0] <= distance <= IG_POINT_LONG[1]:
        mods.append(("8-14", -1))
    return point_target_attack(1, dice, modifiers=mods, rule="24.5.b", **kwargs)


def fire_mission(
    record: AmmoRecord, batteries: Sequence[str], factors: MissionFactors
) -> AmmoChange:
    """Cross off a mission's ammunition when it is fired [18.2.a]: one HE/continuous/rapid/
    smoke mission and one illumination mission per battery per turn [18.1.b]."""
    if factors.zone_hexes > 1 and len(batteries) < 2:
        raise RuleError(msg("battalion fire needs the battalion's batteries"), rule="18.5.b")
    return record.spend_mission(
        batteries, factors.ammo, factors.volleys, illum=factors.kind is MissionKind.ILLUM
    )

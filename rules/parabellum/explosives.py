"""Hand grenades (§6.4), the US M7 grenade launcher and grenade projectors (§6.6).

Grenades and the M7 place a marker that deviates; the soldiers within the 6 cm blast then
evade with `evasion.resolve_fixed_evasions(GRENADE | GRENADE_LAUNCHER, ...)`. A projector
(Panzerfaust) hits on a number set by distance; the target and soldiers within 3 cm evade with
`projector_evasion(distance_cm)`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceSource, Distribution, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum.deviation import Deviation, roll_deviation
from rules.parabellum.evasion import PROJECTOR, FixedEvasion
from rules.parabellum.rolls import roll_3d6

GRENADE_RANGE_CM = 20
GRENADE_RADIUS_CM = 6
WALL_THROW_MAX_HEIGHT_CM = 10
LAUNCHER_RANGE_CM = (20, 40)
PROJECTOR_SPLASH_CM = 3
POINT_BLANK_CM = 10
PROJECTOR_BANDS = ((10, 7), (20, 9), (30, 11))  # (up to cm, 3D6 needed)
PROJECTOR_MOVED_PENALTY = -2


def throw_grenade(
    distance_cm: float,
    dice: DiceSource,
    *,
    moved: bool,
    los_to_marker: bool,
    over_wall_cm: float | None = None,
) -> Deviation:
    """Place the marker ≤20 cm away and deviate it: 1D6+2 cm if the thrower did not move and
    sees the marker, else 2D6 cm; always 2D6 over a wall of at most 10 cm (§6.4, B)."""
    ex = Explanation()
    if distance_cm > GRENADE_RANGE_CM:
        raise RuleError(
            msg(
                "grenades reach %(grenade_range_cm)s cm, not %(distance_cm)s",
                grenade_range_cm=GRENADE_RANGE_CM,
                distance_cm=distance_cm,
            ),
            rule="6.4",
        )
    if over_wall_cm is not None:
        if over_wall_cm > WALL_THROW_MAX_HEIGHT_CM:
            raise RuleError(msg("grenades only go over walls up to 10 cm tall"), rule="6.4 B")
        ex.add("6.4 B", msg("thrown over a wall: no LOS to the marker"), "2d6")
        los_to_marker = False
    precise = not moved and los_to_marker
    ex.add(
        "6.4",
        "did not move and sees the marker" if precise else "moved or no LOS to the marker",
        "1d6+2" if precise else "2d6",
    )
    return roll_deviation("1d6+2" if precise else "2d6", dice, rule="6.4", ex=ex)


def fire_grenade_launcher(
    distance_cm: float, dice: DiceSource, *, los_to_marker: bool
) -> Deviation:
    """M7 (3 PA): marker 20-40 cm away in the firer's LOS, always 2D6 cm deviation; reaction
    fire against the firer is then restricted (10 ESTADOS UNIDOS)."""
    rule = "10 ESTADOS UNIDOS"
    low, high = LAUNCHER_RANGE_CM
    if not low <= distance_cm <= high:
        raise RuleError(
            msg(
                "the M7 reaches %(low)s to %(high)s cm, not %(distance_cm)s",
                low=low,
                high=high,
                distance_cm=distance_cm,
            ),
            rule=rule,
        )
    if not los_to_marker:
        raise RuleError(msg("the M7 firer must see the explosive marker"), rule=rule)
    ex = Explanation()
    ex.add(rule, msg("M7 grenade: resolved as a grenade, 3 PA, restricted reaction afterwards"))
    return roll_deviation("2d6", dice, rule=rule, ex=ex)


def projector_needed(distance_cm: float) -> int:
    """3D6 needed: ≤10 cm 7+, 11-20 cm 9+, 21-30 cm 11+ (§6.6; bands read as (10,20], (20,30])."""
    for up_to, needed in PROJECTOR_BANDS:
        if distance_cm <= up_to:
            return needed
    raise RuleError(
        msg("grenade projectors reach 30 cm, not %(distance_cm)s", distance_cm=distance_cm),
        rule="6.6",
    )


def projector_evasion(distance_cm: float) -> FixedEvasion:
    """The 11+ evasion of the target and soldiers within 3 cm; no hitting the dirt at point blank."""
    return dataclasses.replace(PROJECTOR, hit_the_dirt_allowed=distance_cm > POINT_BLANK_CM)


@dataclass
class ProjectorResult:
    hit: bool
    needed: int
    modified: int
    roll: RollRecord
    p_hit: Fraction
    explanation: Explanation


def fire_projector(distance_cm: float, dice: DiceSource, *, moved: bool) -> ProjectorResult:
    """A grenade-projector shot (2 PA): no modifier but −2 if the firer moved (§6.6)."""
    ex = Explanation()
    needed = ex.add(
        "6.6",
        msg("target at %(distance_cm)s cm", distance_cm=distance_cm),
        projector_needed(distance_cm),
    )
    mod = (
        ex.add("6.6", msg("the firer moved this activation"), PROJECTOR_MOVED_PENALTY)
        if moved
        else 0
    )
    p_hit = Distribution.of("3d6", modifier=mod).p_at_least(needed)
    record = roll_3d6(dice, purpose=msg("grenade projector"), rule="6.6")
    modified = record.value + mod
    hit = modified >= needed
    ex.add(
        "6.6",
        msg(
            "projector roll %(modified)s vs %(needed)s+: %(v)s",
            modified=modified,
            needed=needed,
            v=msg("hit") if hit else msg("miss"),
        ),
        record.value,
        roll=record,
    )
    if hit:
        ex.add(
            "6.6",
            msg(
                "target and soldiers within %(projector_splash_cm)s cm suppressed, evade 11+",
                projector_splash_cm=PROJECTOR_SPLASH_CM,
            ),
        )
    return ProjectorResult(hit, needed, modified, record, p_hit, ex)

"""Artillery: the Targeting Roll [O20.2.3], Artillery Weapons firing [O20.2, 11.5], and the
numbers of an Artillery Request [O18.2]: accuracy, the drift read off a card, Impact rolls.

A Targeting Roll multiplies the dice and hits when the product, less the largest hindrance on
the LOS (10.3.1), is greater than the range. Jammed! never triggers on it. After a hit, the
Weapon's own FP attacks alone, with no Leader's Command and no hindrance again. Where the SR
lands is for the players: this module reads the directions and distances from the white and
coloured dice and hands them the compass directions (2.2.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from rules.cc.battle.fire import (
    Attack,
    AttackResult,
    DefenseOdds,
    DefenseResult,
    Target,
    attack_roll,
    defend,
    defense_odds,
)
from rules.cc.battle.rolls import CCRoll, Trigger, distribution, roll
from rules.cc.battle.terrain import (
    AIRBURST,
    FORTIFICATION_WORDS,
    WATER_TERRAIN,
    Fortification,
    Terrain,
)
from rules.cc.battle.values import check_can_fire_weapon, check_range
from rules.cc.campaign_steps import COMPASS_EDGE
from rules.dice import TWO_D6, DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg

RADIO_FP = range(8, 14)  # 12: a Radio's FP is 8 to 13


class Shot(StrEnum):
    HIT = "hit"
    MISS = "miss"
    SHORT = "short"  # V7: white die higher
    LONG = "long"  # V7: coloured die higher


_SHOT_WORDS = {
    Shot.HIT: msg("hit"),
    Shot.MISS: msg("miss"),
    Shot.SHORT: msg("short"),
    Shot.LONG: msg("long"),
}


@dataclass(frozen=True)
class Targeting:
    shot: Shot
    product: int
    modified: int
    roll: CCRoll
    explanation: Explanation

    @property
    def hit(self) -> bool:
        return self.shot is Shot.HIT


@dataclass(frozen=True)
class ArtilleryResult:
    targeting: Targeting
    attack: AttackResult | None
    defense: DefenseResult | None
    smoke_placed: bool
    explanation: Explanation


@dataclass(frozen=True)
class Drift:
    """The SR's moves from a card read (not a roll): (compass direction, hexes) each."""

    moves: tuple[tuple[int, int], ...]
    record: RollRecord
    explanation: Explanation


@dataclass(frozen=True)
class ImpactResult:
    roll: CCRoll
    total: int
    fortification_destroyed: bool
    defense: DefenseResult
    explanation: Explanation


def targeting_roll(
    *,
    distance: int,
    dice: DiceSource,
    hindrance: int = 0,
    trigger: Trigger = Trigger.NONE,
    v7_short_long: bool = False,
    weapon_range: int = 0,
    v7_by_distance: bool = False,
) -> Targeting:
    """Roll to hit a hex `distance` away [O20.2.3]; dice multiplied, less the hindrance.

    V7 (optional): a miss by an Artillery Weapon with Range above 1 falls short (white die
    higher) or long (coloured die higher); doubles miss outright. `v7_by_distance` reads "range
    above 1" as this shot's distance instead of the Weapon's Range (digest §7.2 #33).
    """
    if distance < 1 or hindrance < 0:
        raise RuleError(
            msg("a Targeting Roll needs a distance of 1 or more and a hindrance of 0 or more"),
            rule="O20.2.2",
        )
    why = Explanation()
    cc = roll(dice, purpose=msg("Targeting Roll"), rule="O20.2.3", targeting=True, trigger=trigger)
    why.add(
        "O20.2.3", msg("Targeting Roll: dice multiplied, %(n)s", n=cc.value), cc.value, cc.record
    )
    if cc.trigger is Trigger.JAMMED:
        why.add("1.9.1.2", msg("Jammed! has no effect on a Targeting Roll"))
    modified = cc.value - hindrance
    if hindrance:
        why.add("10.3.1", msg("largest hindrance on the LOS: -%(n)s", n=hindrance), modified)
    shot = Shot.HIT if modified > distance else Shot.MISS
    why.add(
        "O20.2.3",
        msg("%(m)s against range %(d)s: %(shot)s", m=modified, d=distance, shot=_SHOT_WORDS[shot]),
        shot.value,
    )
    reach = distance if v7_by_distance else weapon_range
    if shot is Shot.MISS and v7_short_long and reach > 1:
        white, coloured = cc.white, cc.record.die("coloured")
        if white != coloured:
            shot = Shot.SHORT if white > coloured else Shot.LONG
            side = msg("nearer to") if shot is Shot.SHORT else msg("farther from")
            why.add(
                "V7",
                msg(
                    "the shot falls %(shot)s: on the hex next to the target %(side)s the firer",
                    shot=_SHOT_WORDS[shot],
                    side=side,
                ),
                shot.value,
            )
            if shot is Shot.SHORT and distance == 1:
                shot = Shot.MISS
                why.add("V7", msg("the target was adjacent to the firer: no effect"))
        else:
            why.add("V7", msg("doubles: a complete miss"))
    return Targeting(shot, cc.value, modified, cc, why)


def hit_odds(*, distance: int, hindrance: int = 0) -> Fraction:
    """Exact chance that a Targeting Roll hits [O20.2.3]."""
    return distribution(targeting=True, modifier=-hindrance).p(lambda v: v > distance)


def artillery_odds(
    *,
    distance: int,
    fp: int,
    morale: int,
    hindrance: int = 0,
    attack_modifier: int = 0,
    broken: bool = False,
    suppressed: bool = False,
    moving: bool = False,
) -> DefenseOdds:
    """Exact odds of each result for one defender before an Artillery Weapon's shot: a miss
    (V7 aside) is no effect; a hit attacks with `fp` (+ `attack_modifier`, e.g. airburst)."""
    hit = hit_odds(distance=distance, hindrance=hindrance)
    after = defense_odds(
        attack_fp=fp,
        morale=morale,
        attack_modifier=attack_modifier,
        broken=broken,
        suppressed=suppressed,
        moving=moving,
    )
    return DefenseOdds(
        1 - hit + hit * after.no_effect,
        hit * after.suppressed,
        hit * after.broken,
        hit * after.eliminated,
    )


def attack_total_modifier(*, target: Target, v6_water: bool = False) -> tuple[int, Explanation]:
    """A mortar's or Artillery's Attack Total: airburst +2 against Woods [T99]; [V6] -2 against
    Marsh or Stream. Radio barrages too (digest §7.2 #31)."""
    why = Explanation()
    terrain = target.ground.terrain
    if terrain is Terrain.WOODS:
        why.add(
            "T99", msg("airburst: mortar or Artillery against Woods, Attack Total +2"), AIRBURST
        )
        return AIRBURST, why
    if v6_water and terrain in WATER_TERRAIN:
        why.add("V6", msg("Artillery against Water terrain: Attack Total -2"), -2)
        return -2, why
    return 0, why


def artillery_fire(
    *,
    attack: Attack,
    dice: DiceSource,
    smoke: bool = False,
    targeting_trigger: Trigger = Trigger.NONE,
    attack_trigger: Trigger = Trigger.NONE,
    defense_triggers: Sequence[Trigger] = (),
    sustained_fire_choice: Sequence[str] = (),
    v6_water: bool = False,
    v7_short_long: bool = False,
    overstack_cover: bool = False,
    v19: bool = False,
) -> ArtilleryResult:
    """An Artillery Weapon's shot: Targeting Roll, then (on a hit) its Fire Attack alone.

    `smoke`: declared before the roll, a hit places a random Smoke marker instead (O20.2.1).
    The piece's `hindrances` are those of its LOS (or its Mortar Spotter's, [V8]). A short or
    long V7 shot is reported; the players then attack the hex it falls on.
    """
    if len(attack.pieces) != 1:
        raise RuleError(msg("Artillery always fires alone"), rule="O20.3.1.1")
    piece = attack.pieces[0]
    weapon = piece.weapon
    if weapon is None or not weapon.artillery:
        raise RuleError(msg("only a Weapon with a white band makes a Targeting Roll"), rule="O20.2")
    check_can_fire_weapon(piece.unit, weapon)
    check_range(
        name=weapon.name, distance=piece.distance, range_=weapon.range, min_range=weapon.min_range
    )
    targeting = targeting_roll(
        distance=piece.distance,
        dice=dice,
        hindrance=max(piece.hindrances, default=0),
        trigger=targeting_trigger,
        v7_short_long=v7_short_long,
        weapon_range=weapon.range,
    )
    why = Explanation(list(targeting.explanation))
    if not targeting.hit or smoke:
        if smoke and targeting.hit:
            why.add("O20.2.1", msg("place a random Smoke marker in the target hex"))
        return ArtilleryResult(targeting, None, None, smoke and targeting.hit, why)
    rolled = attack_roll(
        attack=attack,
        dice=dice,
        trigger=attack_trigger,
        sustained_fire_choice=sustained_fire_choice,
        artillery_hit=True,
    )
    mod, steps = attack_total_modifier(target=attack.target, v6_water=v6_water)
    rolled = replace(rolled, total=rolled.total + mod)
    why.extend(rolled.explanation)
    why.extend(steps)
    defense = defend(
        attack_total=rolled.total,
        target=attack.target,
        dice=dice,
        triggers=defense_triggers,
        vs_mortar_or_artillery=True,
        overstack_cover=overstack_cover,
        v19=v19,
    )
    why.extend(defense.explanation)
    return ArtilleryResult(targeting, rolled, defense, False, why)


def _direction(n: int) -> Msg:
    return msg("direction %(n)s (toward %(edge)s)", n=n, edge=COMPASS_EDGE[n])


def drift(*, hit: bool, dice: DiceSource) -> Drift:
    """Where the SR strays, read from the next card's dice [O18.2.2.1–2]: not a roll, so no
    trigger and no Initiative re-roll. On a hit: 1 hex toward the white die's direction, then 1
    toward the coloured die's. On a miss: toward the white die's, as many hexes as the coloured.
    """
    rule = "O18.2.2.1" if hit else "O18.2.2.2"
    record = dice.roll(TWO_D6, purpose=msg("drift of the Spotting Round (not a roll)"), rule=rule)
    white, coloured = record.die("white"), record.die("coloured")
    moves = ((white, 1), (coloured, 1)) if hit else ((white, coloured),)
    why = Explanation()
    for direction, hexes in moves:
        why.add(
            rule,
            nmsg(
                "SR moves %(n)s hex in %(dir)s",
                "SR moves %(n)s hexes in %(dir)s",
                hexes,
                dir=_direction(direction),
            ),
            [direction, hexes],
            roll=record,
        )
    return Drift(moves, record, why)


@dataclass(frozen=True)
class Accuracy:
    targeting: Targeting
    drift: Drift
    explanation: Explanation


def accuracy(
    *, distance: int, dice: DiceSource, hindrance: int = 0, trigger: Trigger = Trigger.NONE
) -> Accuracy:
    """Fire for Effect's accuracy [O18.2.2]: a Targeting Roll from the Observer to the SR hex,
    then the drift card read for a hit or a miss."""
    targeting = targeting_roll(distance=distance, dice=dice, hindrance=hindrance, trigger=trigger)
    moved = drift(hit=targeting.hit, dice=dice)
    return Accuracy(targeting, moved, Explanation([*targeting.explanation, *moved.explanation]))


def impact_roll(
    *,
    radio_fp: int,
    target: Target,
    dice: DiceSource,
    trigger: Trigger = Trigger.NONE,
    defense_triggers: Sequence[Trigger] = (),
    vulnerability: int | None = None,
    v6_water: bool = False,
    overstack_cover: bool = False,
    v19: bool = False,
) -> ImpactResult:
    """One Artillery Impact roll on a hex of the impact area [O18.2.3.2]: a Fire Attack with the
    Radio's FP, airburst included, no hindrance; Jammed! breaks nothing (a Radio is not a
    Weapon). `vulnerability`: the record sheet's number for this Radio's FP; an Impact roll
    equal to it destroys the hex's Fortification before the Defense rolls [O18.2.3.3].
    """
    if radio_fp not in RADIO_FP:
        raise RuleError(msg("a Radio's FP is 8 to 13, not %(n)s", n=radio_fp), rule="12")
    if not target.units and target.ground.fortification is None:
        raise RuleError(
            msg("only hexes with a unit or a Fortification receive an Impact roll"),
            rule="O18.2.3.2",
        )
    why = Explanation()
    cc = roll(dice, purpose=msg("Artillery Impact roll"), rule="O18.2.3.2", trigger=trigger)
    total = radio_fp + cc.value
    why.add(
        "O18.2.3.2",
        msg("Impact: Radio FP %(fp)s + %(r)s", fp=radio_fp, r=cc.value),
        total,
        roll=cc.record,
    )
    if cc.trigger is Trigger.JAMMED:
        why.add("O18.2.3.2", msg("Jammed! breaks nothing: a Radio is not a Weapon"))
    mod, steps = attack_total_modifier(target=target, v6_water=v6_water)
    total += mod
    why.extend(steps)
    fort = target.ground.fortification
    destroyed = fort is not None and vulnerability is not None and cc.value == vulnerability
    if destroyed:
        why.add(
            "O18.2.3.3",
            msg(
                "Impact roll %(r)s equals the vulnerability number: %(fort)s destroyed",
                r=cc.value,
                fort=FORTIFICATION_WORDS[Fortification(fort)],
            ),
        )
        target = replace(target, ground=replace(target.ground, fortification=None))
    defense = defend(
        attack_total=total,
        target=target,
        dice=dice,
        triggers=defense_triggers,
        vs_mortar_or_artillery=True,
        overstack_cover=overstack_cover,
        v19=v19,
    )
    why.extend(defense.explanation)
    return ImpactResult(cc, total, destroyed, defense, why)

"""Fire attacks [O20.3], Op Fire [A33] and Assault Fire [A26]: FP, the attack roll, Defense.

The players say what the map holds: each piece's distance to the target hex, its elevation and
the hindrances its LOS crosses (Smoke in its own or the target hex included, 10.3.4). The FP
is locked before the attack roll (1.9.1), so a trigger on that roll never changes it. A roll's
trigger comes from its card (an input); this module reports it. When a trigger must be resolved
before the Defense rolls (Event!, Sniper!, Time!), call `attack_roll`, resolve it, then `defend`
with the Attack Total; `fire_attack` does both at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

from rules.cc.battle.rolls import TRIGGER_LABELS, CCRoll, Trigger, distribution, roll
from rules.cc.battle.terrain import Fortification, HexCover, hex_cover
from rules.cc.battle.units import LEADERS, UnitKind
from rules.cc.battle.values import (
    OUTCOME_WORDS,
    SINGLE_USE,
    SUSTAINED,
    ZERO_COVER,
    Outcome,
    Unit,
    Weapon,
    after_result,
    check_can_fire_weapon,
    check_range,
    current_values,
    outcome,
    weapon_values,
)
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg


class FireKind(StrEnum):
    FIRE = "fire"  # a Fire order [O20]
    OP_FIRE = "op_fire"  # a Fire Action during the opponent's Move [A33]
    ASSAULT_FIRE = "assault_fire"  # units activated for Move, boxed FP [A26]


class FireAction(StrEnum):
    """Actions played just before the attack roll: +2 FP each, Enfilade +1 per extra piece."""

    SUSTAINED_FIRE = "sustained_fire"  # A41
    HAND_GRENADES = "hand_grenades"  # A34
    CROSSFIRE = "crossfire"  # A30
    MARKSMANSHIP = "marksmanship"  # A37
    BORE_SIGHTING = "bore_sighting"  # A27
    ENFILADE = "enfilade"  # PA-A39


ACTION_RULES = {
    FireAction.SUSTAINED_FIRE: ("A41", msg("Sustained Fire")),
    FireAction.HAND_GRENADES: ("A34", msg("Hand Grenades")),
    FireAction.CROSSFIRE: ("A30", msg("Crossfire")),
    FireAction.MARKSMANSHIP: ("A37", msg("Marksmanship")),
    FireAction.BORE_SIGHTING: ("A27", msg("Bore Sighting")),
    FireAction.ENFILADE: ("PA-A39", msg("Enfilade")),
}


@dataclass(frozen=True)
class Piece:
    """One firing piece: a unit firing its own FP, or the Weapon it carries (11.1)."""

    unit: Unit
    distance: int  # hexes to the target, counting the target, not the firer's hex [O20.2.2]
    weapon: Weapon | None = None
    hex: str = ""  # the piece's hex, for Wire [F106.3] and V18
    level: int = 0  # elevation of its hex [T88]
    hindrances: tuple[int, ...] = ()  # every hindrance its LOS to the target crosses [10.3]
    leader_commands: tuple[int, ...] = ()  # current Command of the Leaders in its hex
    wire: bool = False  # Wire in its hex
    water: bool = False  # its hex is Marsh, Stream or [PA] Swamp

    @property
    def name(self) -> str:
        return self.weapon.name if self.weapon else self.unit.name


@dataclass(frozen=True)
class TargetUnit:
    unit: Unit
    moving: bool = False  # activated for Move at this moment [O20.3.4]


@dataclass(frozen=True)
class Target:
    """The target hex: every unit in it at the attack roll, in its owner's Defense order."""

    units: tuple[TargetUnit, ...]
    ground: HexCover = field(default_factory=HexCover)
    level: int = 0
    other_leader_commands: tuple[int, ...] = ()  # friendly Leaders there that do not defend
    other_figures: int = 0  # friendly figures there that do not defend


@dataclass(frozen=True)
class OpFire:
    mp_announced: int  # the mover's cumulative MP on entering the hex [A33.2]
    attacks_this_expenditure: int = 0  # Op Fire attacks already made after this entry


@dataclass(frozen=True)
class Attack:
    """One shot as declared before its roll: who fires at which hex, with which Actions."""

    pieces: tuple[Piece, ...]
    target: Target
    actions: tuple[FireAction, ...] = ()
    kind: FireKind = FireKind.FIRE
    op_fire: OpFire | None = None  # required for Op Fire
    base: str = ""  # the piece whose FP is X [O20.3.1.2]; the highest unless named
    scenario_defender: bool = False  # only he plays Bore Sighting [A27]
    v18_initiative: bool = False  # hand over the Initiative card: +1 per extra firing hex [V18]


@dataclass(frozen=True)
class FirePower:
    fp: int
    base: str
    allowed: bool
    explanation: Explanation


@dataclass(frozen=True)
class AttackResult:
    fp: int
    roll: CCRoll
    total: int
    weapons_broken: tuple[str, ...]
    weapons_eliminated: tuple[str, ...]
    explanation: Explanation


@dataclass(frozen=True)
class UnitDefense:
    name: str
    morale: int
    roll: CCRoll
    total: int
    outcome: Outcome
    unit: Unit  # the unit after the result


@dataclass(frozen=True)
class DefenseResult:
    units: tuple[UnitDefense, ...]
    explanation: Explanation


@dataclass(frozen=True)
class FireResult:
    attack: AttackResult
    defense: DefenseResult
    explanation: Explanation


@dataclass(frozen=True)
class DefenseOdds:
    no_effect: Fraction
    suppressed: Fraction
    broken: Fraction
    eliminated: Fraction


def _piece_values(
    piece: Piece, *, artillery_hit: bool, veteran_weapons: bool = False
) -> tuple[int, int, Explanation]:
    if piece.weapon is None:
        v = current_values(unit=piece.unit, leader_commands=piece.leader_commands, wire=piece.wire)
        return v.fp, v.range, v.explanation
    w = piece.weapon
    check_can_fire_weapon(piece.unit, w)
    if piece.wire:
        raise RuleError(msg("no Weapon fires from a Wire hex (%(w)s)", w=w.name), rule="F106.3")
    if piece.water:
        raise RuleError(msg("no Weapon fires from a Water hex (%(w)s)", w=w.name), rule="T89")
    if w.artillery and not artillery_hit:
        raise RuleError(
            msg("%(w)s has a white band: it fires alone, after a Targeting Roll hit", w=w.name),
            rule="O20.2",
        )
    v = weapon_values(
        weapon=w,
        carrier=piece.unit,
        leader_commands=piece.leader_commands,
        veteran_weapons=veteran_weapons,
    )
    return v.fp, v.range, v.explanation


def _check_kind(kind: FireKind, pieces: Sequence[Piece], target: Target, op: OpFire | None):
    if kind is FireKind.OP_FIRE:
        if op is None:
            raise RuleError(msg("Op Fire needs the MP the mover announced"), rule="A33.2")
        if op.attacks_this_expenditure:
            raise RuleError(
                msg("only one Op Fire attack per MP expenditure of the mover"), rule="A33.3"
            )
        if not any(t.moving for t in target.units):
            raise RuleError(msg("Op Fire targets the hex a moving unit just entered"), rule="A33.1")
        if any(p.weapon and p.weapon.artillery for p in pieces):
            raise RuleError(msg("Artillery never uses Op Fire"), rule="A33.3")
    if kind is FireKind.ASSAULT_FIRE:
        for p in pieces:
            if not (p.weapon.boxed_fp if p.weapon else p.unit.boxed_fp):
                raise RuleError(
                    msg("Assault Fire: %(name)s has no boxed FP", name=p.name), rule="A26"
                )


def _check_action(action: FireAction, pieces: Sequence[Piece], target: Target, defender: bool):
    weapons = [p.weapon for p in pieces if p.weapon]
    ok = {
        FireAction.SUSTAINED_FIRE: any(w.kind in SUSTAINED for w in weapons),
        FireAction.HAND_GRENADES: any(p.distance == 1 for p in pieces),
        FireAction.CROSSFIRE: any(t.moving for t in target.units),
        FireAction.MARKSMANSHIP: any(
            p.unit.kind in (UnitKind.SQUAD, UnitKind.TEAM) for p in pieces
        ),
        FireAction.BORE_SIGHTING: defender and any(w.fp >= 5 for w in weapons),
        FireAction.ENFILADE: len(pieces) >= 2,
    }[action]
    if not ok:
        rule, name = ACTION_RULES[action]
        raise RuleError(msg("%(action)s cannot be played on this attack", action=name), rule=rule)


def fire_power(
    *, attack: Attack, artillery_hit: bool = False, veteran_weapons: bool = False
) -> FirePower:
    """The FP of one shot [O20.3.1–O20.3.2, T88.2, 10.3], before the attack roll.

    By default X is the highest current FP among the pieces (the firer picks, digest §7.2 #12;
    `attack.base` names another). `artillery_hit`: an Artillery Weapon that hit with its
    Targeting Roll fires alone and pays no hindrance again (10.3.1). `veteran_weapons`: a
    Veteran's Weapon gains +1 FP and Range too (E44.1 reading).
    """
    pieces, target, actions = attack.pieces, attack.target, attack.actions
    if not pieces:
        raise RuleError(msg("a Fire Attack needs at least one firing piece"), rule="O20.3")
    if not target.units:
        raise RuleError(msg("the target hex must hold an enemy unit"), rule="O20.3")
    _check_kind(attack.kind, pieces, target, attack.op_fire)
    why = Explanation()
    if attack.op_fire is not None:
        mp = attack.op_fire.mp_announced
        why.add("A33.2", msg("Op Fire after the mover announced %(n)s MP", n=mp))
    values = {}
    for p in pieces:
        fp, rng, steps = _piece_values(
            p, artillery_hit=artillery_hit, veteran_weapons=veteran_weapons
        )
        why.extend(steps)
        low = p.weapon.min_range if p.weapon else 0
        check_range(name=p.name, distance=p.distance, range_=rng, min_range=low)
        values[p.name] = fp
    if len(pieces) > 1:
        if any(p.weapon and p.weapon.artillery for p in pieces):
            raise RuleError(msg("Artillery never joins a Fire Group"), rule="O20.3.1.1")
        if any(p.wire for p in pieces) and len({p.hex for p in pieces}) > 1:
            raise RuleError(
                msg("units in a Wire hex cannot group with pieces outside it"), rule="F106.3"
            )
    base = attack.base or max(values, key=values.__getitem__)
    if base not in values:
        raise RuleError(msg("%(name)s is not firing", name=base), rule="O20.3.1.2")
    fp = values[base]
    why.add("O20.3.1.2", msg("base FP of %(name)s: %(fp)s", name=base, fp=fp), fp)
    if len(pieces) > 1:
        fp += len(pieces) - 1
        why.add("O20.3.1.2", msg("Fire Group: +1 for each other piece"), fp)
    if attack.v18_initiative and len({p.hex for p in pieces}) > 1:
        fp += len({p.hex for p in pieces}) - 1
        why.add("V18", msg("Initiative card handed over: +1 per firing hex beyond the first"), fp)
    if any(p.level < target.level for p in pieces):
        fp -= 1
        why.add("T88.2", msg("target higher than a firing piece: -1"), fp)
    if any(p.level > target.level for p in pieces):
        fp += 1
        why.add("T88.2", msg("target lower than a firing piece: +1"), fp)
    hindrance = max((h for p in pieces for h in p.hindrances), default=0)
    if artillery_hit and hindrance:
        why.add("10.3.1", msg("the Targeting Roll already paid the hindrance"), 0)
    elif hindrance:
        fp -= hindrance
        why.add("10.3.3", msg("largest single hindrance: -%(n)s (never added)", n=hindrance), fp)
    for action in actions:
        _check_action(action, pieces, target, attack.scenario_defender)
        rule, name = ACTION_RULES[action]
        fp += len(pieces) - 1 if action is FireAction.ENFILADE else 2
        why.add(rule, msg("%(action)s played", action=name), fp)
    allowed = fp >= 1
    if not allowed:
        why.add("10.3.2.1", msg("final FP %(fp)s: a Fire Attack needs at least 1", fp=fp), fp)
    return FirePower(fp, base, allowed, why)


def _damage(
    pieces: Sequence[Piece], cc: CCRoll, sustained: int, choice: Sequence[str]
) -> dict[str, int]:
    """Breaks suffered by firing Weapons: Jammed! [O20.3.3.1], Sustained Fire doubles [A41]."""
    hits: dict[str, int] = {}
    if cc.trigger is Trigger.JAMMED:
        for p in pieces:
            if p.weapon:
                hits[p.weapon.name] = hits.get(p.weapon.name, 0) + 1
    if sustained and cc.white == cc.record.die("coloured"):
        mgs = [p.weapon.name for p in pieces if p.weapon and p.weapon.kind in SUSTAINED]
        chosen = list(choice) if len(mgs) > 1 else [mgs[0]] * sustained
        if len(chosen) != sustained or not set(chosen) <= set(mgs):
            raise DecisionRequired(
                Decision(
                    "sustained_fire",
                    "A41",
                    msg("choose the MG or mortar that breaks for each Sustained Fire played"),
                    tuple(mgs),
                    min_choices=sustained,
                    max_choices=sustained,
                )
            )
        for name in chosen:
            hits[name] = hits.get(name, 0) + 1
    return hits


def attack_roll(
    *,
    attack: Attack,
    dice: DiceSource,
    trigger: Trigger = Trigger.NONE,
    sustained_fire_choice: Sequence[str] = (),
    artillery_hit: bool = False,
    veteran_weapons: bool = False,
    urban_sniper: int = 0,
) -> AttackResult:
    """Lock the FP and roll: Attack Total = FP + roll [O20.3.3], with the Weapons it breaks;
    `urban_sniper` is the +2/+4 of the Urban Sniper marker given up for this roll [ST-3.2].

    `sustained_fire_choice`: the MG or mortar that breaks for each Sustained Fire played, asked
    for (DecisionRequired) only when doubles come up and several could.
    """
    power = fire_power(attack=attack, artillery_hit=artillery_hit, veteran_weapons=veteran_weapons)
    if not power.allowed:
        raise RuleError(
            msg("final FP %(fp)s: this shot cannot be made", fp=power.fp), rule="10.3.2.1"
        )
    why = Explanation(list(power.explanation))
    fp = why.add("1.9.1", msg("FP locked at %(fp)s before the roll", fp=power.fp), power.fp)
    cc = roll(dice, purpose=msg("Fire Attack roll"), rule="O20.3.3", trigger=trigger)
    total = fp + cc.value + urban_sniper
    if urban_sniper:
        words = msg(
            "Attack Total %(fp)s + %(r)s + Urban Sniper %(n)s", fp=fp, r=cc.value, n=urban_sniper
        )
        why.add("ST-3.2", words, total, roll=cc.record)
    else:
        why.add(
            "O20.3.3", msg("Attack Total %(fp)s + %(r)s", fp=fp, r=cc.value), total, roll=cc.record
        )
    if cc.trigger is not Trigger.NONE:
        label = TRIGGER_LABELS[cc.trigger]
        why.add("1.9.1", msg("%(t)s: resolve it before the Defense rolls", t=label))
    pieces = attack.pieces
    sustained = sum(a is FireAction.SUSTAINED_FIRE for a in attack.actions)
    hits = _damage(pieces, cc, sustained, sustained_fire_choice)
    broken = tuple(n for n, h in hits.items() if h == 1)
    gone = {n for n, h in hits.items() if h > 1}
    for name in broken:
        why.add("11.4", msg("%(w)s breaks", w=name))
    for p in pieces:
        if p.weapon and p.weapon.kind in SINGLE_USE:
            gone.add(p.weapon.name)
            why.add("11.6", msg("%(w)s is used up: eliminated", w=p.weapon.name))
    for name in sorted(n for n, h in hits.items() if h > 1):
        why.add("11.4", msg("%(w)s breaks twice: eliminated", w=name))
    return AttackResult(fp, cc, total, broken, tuple(sorted(gone)), why)


def defend(
    *,
    attack_total: int,
    target: Target,
    dice: DiceSource,
    triggers: Sequence[Trigger] = (),
    vs_mortar_or_artillery: bool = False,
    zero_cover: Msg | None = None,
    concealment: bool = False,
    tie_breaks_moving: bool = True,
    overstack_cover: bool = False,
    v19: bool = False,
    pacific: bool = False,
) -> DefenseResult:
    """A Defense roll for each unit in the target hex, in its owner's order [O20.3.4].

    Each unit's Morale is locked just before its roll, with the Cover of this attack and the
    Command of the Leaders in the hex as they stand then (a Leader broken earlier gives his
    broken side's Command, one eliminated gives none). `concealment`: the defender played
    Concealment before the first Defense roll: the Attack Total drops by the hex's Cover (A29).
    """
    why = Explanation()
    units = list(target.units)
    done: list[UnitDefense] = []
    for i, tu in enumerate(units):
        gone = {j for j, d in enumerate(done) if d.outcome is Outcome.ELIMINATED}
        standing = [(j, u.unit) for j, u in enumerate(units) if j not in gone]
        leaders = [u.command for j, u in standing if j != i and u.kind in LEADERS]
        figures = sum(u.figures for _, u in standing) + target.other_figures
        cover = hex_cover(
            ground=target.ground,
            figures=figures,
            vs_mortar_or_artillery=vs_mortar_or_artillery,
            zero_cover=zero_cover,
            overstack_cover=overstack_cover,
        )
        if concealment and i == 0:
            attack_total -= cover.value
            why.add("A29", msg("Concealment: Attack Total -%(n)s", n=cover.value), attack_total)
        values = current_values(
            unit=tu.unit,
            leader_commands=[*leaders, *target.other_leader_commands],
            wire=target.ground.fortification is Fortification.WIRE,
            cover=cover,
        )
        why.extend(values.explanation)
        morale = why.add(
            "1.9.1",
            msg("%(name)s: Morale locked at %(m)s", name=tu.unit.name, m=values.morale),
            values.morale,
        )
        trig = triggers[i] if i < len(triggers) else Trigger.NONE
        cc = roll(dice, purpose=msg("Fire Defense roll"), rule="O20.3.4", trigger=trig)
        total = morale + cc.value
        result = outcome(
            attack=attack_total,
            defense=total,
            broken=tu.unit.broken,
            suppressed=tu.unit.suppressed,
            moving=tu.moving,
            tie_breaks_moving=tie_breaks_moving,
            v19=v19,
            pacific=pacific,
        )
        why.add(
            "O20.3.4",
            msg(
                "Defense Total %(m)s + %(r)s = %(d)s against %(a)s: %(result)s",
                m=morale,
                r=cc.value,
                d=total,
                a=attack_total,
                result=OUTCOME_WORDS[result],
            ),
            result.value,
            roll=cc.record,
        )
        if tie_breaks_moving and tu.moving and total == attack_total:
            why.add("O20.3.4", msg("a tie breaks a unit activated for Move"))
        again = v19 and tu.unit.suppressed and total == attack_total
        new = after_result(tu.unit, result, suppressed_again=again)
        units[i] = replace(tu, unit=new)
        done.append(UnitDefense(tu.unit.name, morale, cc, total, result, new))
    return DefenseResult(tuple(done), why)


def fire_attack(
    *,
    attack: Attack,
    dice: DiceSource,
    trigger: Trigger = Trigger.NONE,
    defense_triggers: Sequence[Trigger] = (),
    sustained_fire_choice: Sequence[str] = (),
    concealment: bool = False,
    overstack_cover: bool = False,
    v19: bool = False,
    pacific: bool = False,
) -> FireResult:
    """A whole Fire Attack: the attack roll, then every Defense roll in the target hex."""
    rolled = attack_roll(
        attack=attack, dice=dice, trigger=trigger, sustained_fire_choice=sustained_fire_choice
    )
    weapons = [p.weapon.kind for p in attack.pieces if p.weapon]
    defense = defend(
        attack_total=rolled.total,
        target=attack.target,
        dice=dice,
        triggers=defense_triggers,
        zero_cover=next((ZERO_COVER[k] for k in weapons if k in ZERO_COVER), None),
        concealment=concealment,
        overstack_cover=overstack_cover,
        v19=v19,
        pacific=pacific,
    )
    return FireResult(rolled, defense, Explanation([*rolled.explanation, *defense.explanation]))


def defense_odds(
    *,
    attack_fp: int,
    morale: int,
    attack_modifier: int = 0,
    broken: bool = False,
    suppressed: bool = False,
    moving: bool = False,
    tie_breaks_moving: bool = True,
    v19: bool = False,
    pacific: bool = False,
) -> DefenseOdds:
    """Exact odds of each result for one defending unit, before either roll is made."""
    attack = distribution(modifier=attack_fp + attack_modifier)
    defense = distribution(modifier=morale)
    acc = dict.fromkeys(Outcome, Fraction(0))
    for a, pa in attack.probs:
        for d, pd in defense.probs:
            key = outcome(
                attack=a,
                defense=d,
                broken=broken,
                suppressed=suppressed,
                moving=moving,
                tie_breaks_moving=tie_breaks_moving,
                v19=v19,
                pacific=pacific,
            )
            acc[key] += pa * pd
    return DefenseOdds(*(acc[o] for o in Outcome))

"""Direct fire against vehicles (VI.3) and the severe damage roll (VI.3.2, X.2, XVI.5–6).

One entered performance roll R drives everything: hit if FA + R + modifiers ≥ 1; penetrating
if P + R ≥ the armour of the side hit; final damage DF = D + R, doubled (with suppression 1
and −1 PE) when penetrating; DF against PE gives no effect, severe damage (1d6 roll) or
destruction. The seed has two severe damage tables (VI and X) and several wordings of the
roll; `VehicleOptions` selects each reading (defaults: the seed's literal text, see
DECISIONS). `vehicle_assault` (module `assault`) uses the same machinery with the X table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource, Distribution, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.m1936.data import Stat
from rules.m1936.fire import Band, Weapon, rule_names, situational_modifiers
from rules.m1936.performance import performance_result
from rules.serial import Serializable

RULE = "M36-VI.3.1"
SEVERE_RULE = "M36-VI.3.2"
IMMOBILISE_RULE = "M36-VI.3.2 Inmovilizar"
ASSAULT_SEVERE_RULE = "M36-X.2"
MINOR, DESTROYED_AT = 2, 9
SEVERE_IMMOBILISED = 6  # the "Inmovilizado" row, applied automatically when immobilising


class Facing(StrEnum):
    FRONT = "frente"
    SIDE = "lateral"
    REAR = "trasera"


@dataclass(frozen=True)
class Vehicle(Serializable):
    """A target vehicle as it is now: armour per side (after degradation) and PE left."""

    name: str
    armour: dict[str, int]
    pe: int
    rules: frozenset[str] = frozenset()

    @classmethod
    def from_stats(cls, name: str, stats: Mapping[str, Stat], rules=()) -> Vehicle:
        """From a profile's BF/BL/BT and E (Puntos de Estructura)."""
        values = [stats.get(k) for k in ("bf", "bl", "bt", "e")]
        if any(not isinstance(v, int) for v in values):
            raise RuleError(msg("%(name)s has no armour and structure", name=name), rule=RULE)
        bf, bl, bt, e = values
        armour = {Facing.FRONT.value: bf, Facing.SIDE.value: bl, Facing.REAR.value: bt}
        return cls(name, armour, e, rule_names(rules))


@dataclass(frozen=True)
class VehicleFireMods(Serializable):
    """ "Modificadores para disparos contra vehículos" (VI.3.1, XVI.1). `moved_cm`: how far the
    target moved; `from_higher`: the shot comes from higher ground (Blindaje Inclinado)."""

    small_target: bool = False
    hull_down: bool = False
    concealed: bool = False
    in_cover: bool = False
    moved_cm: float = 0
    aim: bool = False
    from_higher: bool = False


_VEHICLE_MODS: dict[str, tuple[str, Msg, int, int]] = {
    "small_target": (RULE, msg("small target"), -1, 0),
    "hull_down": (RULE, msg("hull down"), -1, 0),
    "concealed": (RULE, msg("target concealed"), -1, 0),
    "in_cover": (RULE, msg("target in cover"), -1, 0),
    "aim": (RULE, msg("aimed shot"), 1, 2),
}

SevereTable = Literal["own", "VI", "X"]
SevereBonus = Literal["d_plus_r", "d", "final_damage"]


@dataclass(frozen=True)
class VehicleOptions(Serializable):
    """Readings of VI.3/X (each in DECISIONS).

    - `pe_loss_before_compare`: a penetrating hit's −1 PE comes before DF is compared with
      PE (VI.3.1 lists the loss first; T9). Off: compare with PE before the loss.
    - `pe_loss_on_no_effect`: a penetrating hit with no effect still costs 1 PE (VI.3.1);
      off: XVI.6 "Sin efecto … ni pérdida de Punto de Estructura".
    - `severe_table`: "own" = VI's table for fire, X's for assaults; or force one.
    - `severe_bonus`: what the 1d6 adds: D + R (X.2, XVI.6), the weapon's D, or the final
      (doubled) damage (VI.3.2 "el daño del disparo").
    - `every_severe_result_loses_pe`: XVI.6 "todos los resultados aplican −1 PE" on the VI
      table too (VI's own table: only results 4–7).
    - `moved_26_29`: the seed gives no modifier for a target that moved 26–29 cm.
    - `immobilise_at_equal_pe`: "supere la estructura" read as DF ≥ PE (literal: DF > PE).
    - `immobilise_needs_he`: VI.3.2 needs HE ammunition (X.4: any assault may try).
    """

    pe_loss_before_compare: bool = True
    pe_loss_on_no_effect: bool = True
    severe_table: SevereTable = "own"
    severe_bonus: SevereBonus = "d_plus_r"
    every_severe_result_loses_pe: bool = False
    moved_26_29: int = -2
    immobilise_at_equal_pe: bool = False
    immobilise_needs_he: bool = True


DEFAULT_OPTIONS = VehicleOptions()


@dataclass(frozen=True)
class SevereRow(Serializable):
    key: str
    suppression: int
    pe_loss: int
    armour_loss: int
    flags: tuple[str, ...]


_VI_ROWS = {
    2: SevereRow("minor", 1, 0, 0, ()),
    3: SevereRow("armour_degraded", 2, 0, 1, ()),
    4: SevereRow("turret_jammed", 3, 1, 0, ("turret_jammed",)),
    5: SevereRow("main_gun_out", 4, 1, 0, ("main_gun_out",)),
    6: SevereRow("immobilised", 4, 1, 0, ("immobilised",)),
    7: SevereRow("controllable_fire", 4, 1, 0, ("controllable_fire",)),
    8: SevereRow("crew_out", 0, 0, 0, ("crew_out",)),
    9: SevereRow("uncontrollable_fire", 0, 0, 0, ("destroyed",)),
}
_X_ROWS = {
    2: SevereRow("minor", 0, 1, 0, ()),
    3: SevereRow("secondary_out", 0, 1, 0, ("secondary_out",)),
    4: SevereRow("turret_jammed", 0, 1, 0, ("turret_jammed",)),
    5: SevereRow("main_gun_out", 0, 1, 0, ("main_gun_out",)),
    6: SevereRow("immobilised", 0, 1, 0, ("immobilised",)),
    7: SevereRow("controllable_fire", 0, 1, 0, ("controllable_fire",)),
    8: SevereRow("crew_out", 0, 1, 0, ("crew_out",)),
    9: SevereRow("uncontrollable_fire", 0, 1, 0, ("destroyed",)),
}
SEVERE_TABLES = {"VI": _VI_ROWS, "X": _X_ROWS}
# what the player reads for each outcome and severe result (the seed's words in Spanish)
LABELS: dict[str, Msg] = {
    "miss": msg("miss"),
    "no_effect": msg("no effect"),
    "severe": msg("severe damage"),
    "destroyed": msg("destroyed"),
    "minor": msg("minor damage"),
    "armour_degraded": msg("armour degraded"),
    "secondary_out": msg("secondary armament disabled"),
    "turret_jammed": msg("turret jammed"),
    "main_gun_out": msg("main armament disabled"),
    "immobilised": msg("immobilised"),
    "controllable_fire": msg("controllable fire"),
    "crew_out": msg("crew incapacitated (vehicle abandoned)"),
    "uncontrollable_fire": msg("uncontrollable fire"),
}


def severe_row(total: int, table: str, options: VehicleOptions = DEFAULT_OPTIONS) -> SevereRow:
    """The row for a severe roll total: ≤ 2 minor (totals below 1 read as 1–2), 9+ destroyed."""
    row = SEVERE_TABLES[table][min(max(total, MINOR), DESTROYED_AT)]
    if table == "VI" and options.every_severe_result_loses_pe:
        return dataclasses.replace(row, pe_loss=1)
    return row


def moved_modifier(moved_cm: float, options: VehicleOptions = DEFAULT_OPTIONS) -> int:
    """Target moved ≤ 20 cm −1; ≤ 25 −2; ≥ 30 −3 (VI.3.1); 26–29: `options.moved_26_29`."""
    if isinstance(moved_cm, bool) or not isinstance(moved_cm, int | float) or moved_cm < 0:
        raise RuleError(
            msg("distance moved is a number of cm ≥ 0, not %(v)s", v=str(moved_cm)), rule=RULE
        )
    if moved_cm == 0:
        return 0
    if moved_cm <= 20:
        return -1
    if moved_cm <= 25:
        return -2
    return -3 if moved_cm >= 30 else options.moved_26_29


@dataclass(frozen=True)
class VehicleHit(Serializable):
    """`outcome`: "miss" | "no_effect" | "severe" | "destroyed"; `severe_roll` is the d6,
    `severe_total` the d6 plus the damage bonus. `crew_suppression` and `pe_loss` sum the
    penetration and the severe result; `flags` are the vehicle's new damage states."""

    hit: bool
    penetrated: bool
    df: int
    outcome: str
    severe_roll: int | None
    severe_total: int | None
    severe_result: str | None
    crew_suppression: int
    pe_loss: int
    armour_loss: dict[str, int]
    flags: tuple[str, ...]
    explanation: Explanation = field(default_factory=Explanation, compare=False)

    @property
    def destroyed(self) -> bool:
        return "destroyed" in self.flags


def damaged(vehicle: Vehicle, hit: VehicleHit) -> Vehicle:
    """The vehicle after the hit: PE and degraded armour lowered (never below 0)."""
    armour = {k: max(0, v - hit.armour_loss.get(k, 0)) for k, v in vehicle.armour.items()}
    return dataclasses.replace(vehicle, armour=armour, pe=max(0, vehicle.pe - hit.pe_loss))


@dataclass(frozen=True)
class Shot:
    """A shot's totals before R: FA and P with modifiers, D (+1 immobilising)."""

    fa: int
    p: int
    d: int
    table: str
    from_higher: bool = False
    immobilise: bool = False


@dataclass(frozen=True)
class _Assessment:
    hit: bool
    penetrated: bool
    df: int
    branch: str  # miss | no_effect | severe_roll | immobilised | destroyed
    bonus: int
    suppression: int
    pe_loss: int


def _non_penetrating_modifier(
    vehicle: Vehicle, facing: Facing, shot: Shot, exp: Explanation
) -> int:
    """Damage modifiers of vehicle rules on a non-penetrating hit (III)."""
    total = 0
    if facing is Facing.FRONT and "Blindaje Muy Inclinado" in vehicle.rules:
        total += exp.add("M36-III Blindaje Muy Inclinado", msg("very sloped armour"), -2)
    elif facing is Facing.FRONT and "Blindaje Inclinado" in vehicle.rules and not shot.from_higher:
        total += exp.add("M36-III Blindaje Inclinado", msg("sloped armour"), -1)
    if "Acero de Alta Calidad" in vehicle.rules:
        total += exp.add("M36-III Acero de Alta Calidad", msg("high-quality steel"), -1)
    if "Fragmentación de Blindaje" in vehicle.rules:
        total += exp.add("M36-III Fragmentación de Blindaje", msg("armour spalling"), 2)
    return total


def _assess(
    shot: Shot, vehicle: Vehicle, facing: Facing, r: int, options: VehicleOptions, exp: Explanation
) -> _Assessment:
    if facing.value not in vehicle.armour:
        raise RuleError(
            msg("%(name)s has no armour value for that side", name=vehicle.name), rule=RULE
        )
    fa = exp.add(RULE, msg("to hit: FA + R + modifiers (hit on 1 or more)"), shot.fa + r)
    if fa < 1:
        exp.add(RULE, msg("miss"), False)
        return _Assessment(False, False, 0, "miss", 0, 0, 0)
    armour = vehicle.armour[facing.value]
    check = shot.p + r
    pen = exp.add(
        RULE,
        msg("penetration: P + R = %(check)s against armour %(armour)s", check=check, armour=armour),
        check >= armour,
    )
    damage = exp.add(RULE, msg("damage: D + R"), shot.d + r)
    if not pen:
        damage += _non_penetrating_modifier(vehicle, facing, shot, exp)
    df = damage * 2 if pen else damage
    pe = vehicle.pe
    suppression = pe_loss = 0
    if pen:
        exp.add(RULE, msg("penetrating: damage ×2, suppression 1, −1 PE"), df)
        suppression, pe_loss = 1, 1
        if options.pe_loss_before_compare:
            pe -= 1
    exp.add(RULE, msg("final damage %(df)s against PE %(pe)s", df=df, pe=pe), df)
    bonus = {"d_plus_r": damage, "d": shot.d, "final_damage": df}[options.severe_bonus]
    if shot.immobilise and (df > pe or (options.immobilise_at_equal_pe and df >= pe)):
        exp.add(IMMOBILISE_RULE, msg("damage over the structure: immobilised"), True)
        return _Assessment(True, pen, df, "immobilised", bonus, suppression, pe_loss)
    if df < pe:
        if pen and not options.pe_loss_on_no_effect:
            pe_loss = exp.add("M36-XVI.6", msg("no effect: no PE lost"), 0)
        return _Assessment(True, pen, df, "no_effect", bonus, suppression, pe_loss)
    branch = "severe_roll" if df < 2 * pe else "destroyed"
    return _Assessment(True, pen, df, branch, bonus, suppression, pe_loss)


def _table(shot: Shot, options: VehicleOptions) -> str:
    return shot.table if options.severe_table == "own" else options.severe_table


def resolve_hit(
    shot: Shot,
    vehicle: Vehicle,
    facing: Facing,
    performance: int,
    dice: DiceSource,
    options: VehicleOptions,
    exp: Explanation,
) -> VehicleHit:
    """Hit, penetration, damage and, when needed, the severe damage roll (1d6)."""
    facing = Facing(facing)
    r = performance_result(
        performance, purpose=msg("fire at a vehicle"), rule=RULE, explanation=exp
    )
    a = _assess(shot, vehicle, facing, r, options, exp)
    table = _table(shot, options)
    rule = ASSAULT_SEVERE_RULE if table == "X" else SEVERE_RULE
    roll: RollRecord | None = None
    total = row = None
    if a.branch == "immobilised":
        row = severe_row(SEVERE_IMMOBILISED, table, options)
    elif a.branch == "severe_roll":
        roll = dice.roll("d6", purpose=msg("severe damage roll"), rule=rule)
        total = roll.value + a.bonus
        row = severe_row(total, table, options)
        exp.add(rule, msg("severe damage: 1d6 + %(bonus)s", bonus=a.bonus), total, roll)
    flags = ("destroyed",) if a.branch == "destroyed" else ()
    suppression, pe_loss, armour_loss = a.suppression, a.pe_loss, {}
    if row is not None:
        exp.add(rule, msg("severe damage: %(result)s", result=LABELS[row.key]), row.key)
        flags = row.flags
        suppression += row.suppression
        pe_loss += row.pe_loss
        if row.armour_loss:
            armour_loss = {facing.value: row.armour_loss}
    elif a.branch == "destroyed":
        exp.add(RULE, msg("final damage at least twice the PE: destroyed"), True)
    outcome = {"immobilised": "severe", "severe_roll": "severe"}.get(a.branch, a.branch)
    return VehicleHit(
        a.hit,
        a.penetrated,
        a.df,
        outcome,
        roll.value if roll else None,
        total,
        row.key if row else None,
        suppression,
        pe_loss,
        armour_loss,
        flags,
        exp,
    )


def hit_odds(
    shot: Shot, vehicle: Vehicle, facing: Facing, performance: int, options: VehicleOptions
) -> dict[str, Fraction]:
    """Exact odds of each outcome (miss, no_effect, destroyed) or severe result given R."""
    exp = Explanation()
    r = performance_result(
        performance, purpose=msg("fire at a vehicle"), rule=RULE, explanation=exp
    )
    a = _assess(shot, vehicle, Facing(facing), r, options, exp)
    table = _table(shot, options)
    if a.branch == "immobilised":
        return {severe_row(SEVERE_IMMOBILISED, table, options).key: Fraction(1)}
    if a.branch != "severe_roll":
        return {a.branch: Fraction(1)}
    odds: dict[str, Fraction] = {}
    for total, p in Distribution.of("d6", modifier=a.bonus).probs:
        key = severe_row(total, table, options).key
        odds[key] = odds.get(key, Fraction(0)) + p
    return odds


def _fire_shot(
    weapon: Weapon,
    vehicle: Vehicle,
    mods: VehicleFireMods,
    immobilise: bool,
    options: VehicleOptions,
    exp: Explanation,
) -> Shot:
    exp.add(RULE, msg("FA of %(name)s at this range", name=weapon.name or "?"), weapon.fa)
    flags = {k: getattr(mods, k) for k in _VEHICLE_MODS}
    if mods.concealed and "Bajo Perfil" in vehicle.rules and not flags["small_target"]:
        flags["small_target"] = exp.add(
            "M36-III Bajo Perfil", msg("Bajo Perfil: concealed is also a small target"), True
        )
    if mods.concealed and "Perfil Alto" in vehicle.rules and weapon.band not in (None, Band.LONG):
        flags["concealed"] = exp.add(
            "M36-III Perfil Alto", msg("Perfil Alto: concealed only at long range"), False
        )
    mod = situational_modifiers(weapon, flags, _VEHICLE_MODS, exp)
    fa = mod.fa
    moved = moved_modifier(mods.moved_cm, options)
    if moved:
        fa += exp.add(RULE, msg("target moved %(cm)s cm", cm=mods.moved_cm), moved)
    d = weapon.d
    if immobilise:
        if options.immobilise_needs_he and not weapon.he:
            raise RuleError(
                msg("aiming at tracks or wheels needs HE ammunition"), rule=IMMOBILISE_RULE
            )
        fa += exp.add(IMMOBILISE_RULE, msg("aiming at tracks or wheels: FA −1, D +1"), -1)
        d += 1
    return Shot(weapon.fa + fa, weapon.p + mod.p, d, "VI", mods.from_higher, immobilise)


def fire_at_vehicle(
    *,
    weapon: Weapon,
    vehicle: Vehicle,
    facing: Facing,
    performance: int,
    dice: DiceSource,
    mods: VehicleFireMods = VehicleFireMods(),
    immobilise: bool = False,
    options: VehicleOptions = DEFAULT_OPTIONS,
) -> VehicleHit:
    """Resolve a shot at a vehicle (VI.3); the severe d6 is rolled only when needed."""
    exp = Explanation()
    shot = _fire_shot(weapon, vehicle, mods, immobilise, options, exp)
    return resolve_hit(shot, vehicle, facing, performance, dice, options, exp)


def vehicle_hit_odds(
    *,
    weapon: Weapon,
    vehicle: Vehicle,
    facing: Facing,
    performance: int,
    mods: VehicleFireMods = VehicleFireMods(),
    immobilise: bool = False,
    options: VehicleOptions = DEFAULT_OPTIONS,
) -> dict[str, Fraction]:
    """Exact odds of `fire_at_vehicle`'s outcome for this R (the severe d6 enumerated)."""
    shot = _fire_shot(weapon, vehicle, mods, immobilise, options, Explanation())
    return hit_odds(shot, vehicle, facing, performance, options)

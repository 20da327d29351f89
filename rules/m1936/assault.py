"""Assaults: infantry against infantry (IX) and infantry against vehicles (X).

An infantry assault is a simultaneous short-range shot by each side: FAC + R, +1 per own base
in contact, −1 per enemy base in contact, −2 Pinned / −3 Panicked; no cover or other
modifiers. Advantage from special rules (Granadas de Mano, Subfusiles(X) …) is part of the
entered performance roll (IX.2.3, T26); `assault_advantage` shows the player what to include.
A vehicle assault is one short-range shot with an anti-tank weapon's P and D, resolved as in
VI.3 with Section X's severe damage table (every result −1 PE).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936.data import parse_rule
from rules.m1936.fire import TERROR_RULES
from rules.m1936.morale import UnitState
from rules.m1936.performance import performance_result
from rules.m1936.vehicles import (
    DEFAULT_OPTIONS as DEFAULT_VEHICLE_OPTIONS,
)
from rules.m1936.vehicles import (
    IMMOBILISE_RULE,
    Facing,
    Shot,
    Vehicle,
    VehicleHit,
    VehicleOptions,
    hit_odds,
    resolve_hit,
)
from rules.serial import Serializable

RULE = "M36-IX.2"
VEHICLE_RULE = "M36-X.2"
STATE_PENALTY = {UnitState.NORMAL: 0, UnitState.PINNED: -2, UnitState.PANICKED: -3}
# Armas anticarro (II, both lists): name → (PC, D); the rule that equips a unit with it.
AT_WEAPONS: dict[str, tuple[int, int]] = {
    "Granadas de mano": (6, 1),
    "Bomba de gasolina": (12, 4),
    "Explosivos": (18, 3),
}
AT_WEAPON_RULES = {
    "Granadas de mano": "Granadas de Mano",
    "Bomba de gasolina": "Bombas de Gasolina",
    "Explosivos": "Explosivos",
}


@dataclass(frozen=True)
class AssaultSide(Serializable):
    """One side's bases in contact. `state`: Normal, Pinned or Panicked; `performance`: its
    entered R (advantage included); `rules` with levels, e.g. "Subfusiles(2)"."""

    name: str
    fac: int
    bases_in_contact: int
    state: str = "Normal"
    performance: int = 0
    rules: frozenset[str] = frozenset()
    defensive_fire_received: bool = False
    in_town: bool = False
    mounted: bool = False


@dataclass(frozen=True)
class AssaultOptions(Serializable):
    """Readings of IX (DECISIONS).

    - `advantage_in_r`: each side's R already includes its advantage minus the enemy's
      (IX.2.3, T26); off: the engine adds them to FA.
    - `state_penalty_initiator_only`: the −2/−3 for Pinned/Panicked applies only to the side
      that started the assault (the first side), as "la unidad atacante" may mean.
    - `cap_by_own_bases`: casualties are also capped by the bases that fight (VI.2.3 cap).
    - `bases_add_to_vehicle_fa`: in a vehicle assault each base in contact adds +1 (IX.2.2
      carried over, T14); off: FAC + R only.
    """

    advantage_in_r: bool = True
    state_penalty_initiator_only: bool = False
    cap_by_own_bases: bool = False
    bases_add_to_vehicle_fa: bool = True


DEFAULT_OPTIONS = AssaultOptions()


def _levels(side: AssaultSide) -> dict[str, int | None]:
    return dict(parse_rule(r) for r in side.rules)


def assault_advantage(side: AssaultSide) -> tuple[int, Explanation]:
    """The side's assault advantage from its special rules (III)."""
    exp = Explanation()
    rules = _levels(side)
    total = 0
    if "Granadas de Mano" in rules:
        total += exp.add("M36-III Granadas de Mano", msg("hand grenades"), 2)
    if "Bombas de Gasolina" in rules:
        total += exp.add("M36-III Bombas de Gasolina", msg("petrol bombs"), 1)
    if rules.get("Subfusiles"):
        total += exp.add("M36-III Subfusiles", msg("submachine guns"), rules["Subfusiles"])
    if rules.get("Asalto") and not side.defensive_fire_received:
        total += exp.add(
            "M36-III Asalto", msg("assault troops, no defensive fire received"), rules["Asalto"]
        )
    if "Carga" in rules and side.mounted and not side.defensive_fire_received:
        total += exp.add("M36-III Carga", msg("mounted charge, no defensive fire received"), 2)
    if "Combate Callejero" in rules and side.in_town:
        total += exp.add("M36-III Combate Callejero", msg("street fighting in a town"), 1)
    exp.add(RULE, msg("assault advantage of %(side)s", side=side.name or "?"), total)
    return total, exp


@dataclass(frozen=True)
class AssaultResult(Serializable):
    """Each pair is (inflicted on the first side, inflicted on the second side)."""

    fa_eff: tuple[int, int]
    suppression: tuple[int, int]
    casualties: tuple[int, int]
    terror: tuple[bool, bool]
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def _check_side(side: AssaultSide) -> UnitState:
    n = side.bases_in_contact
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise RuleError(
            msg("bases in contact is a whole number ≥ 1, not %(n)s", n=str(n)), rule="M36-IX.1"
        )
    state = UnitState(side.state)
    if state not in STATE_PENALTY:
        raise RuleError(msg("a %(state)s unit cannot assault", state=state.value), rule=RULE)
    return state


def _state_penalty(side: AssaultSide, exp: Explanation) -> int:
    penalty = STATE_PENALTY[UnitState(side.state)]
    if penalty:
        exp.add(
            RULE, msg("%(side)s is %(state)s", side=side.name or "?", state=side.state), penalty
        )
    return penalty


def infantry_assault(
    a: AssaultSide, b: AssaultSide, options: AssaultOptions = DEFAULT_OPTIONS
) -> AssaultResult:
    """Resolve one turn of an infantry assault; `a` is the side that started it."""
    exp = Explanation()
    for side in (a, b):
        _check_side(side)
    fa_eff, suppression, casualties, terror = [0, 0], [0, 0], [0, 0], [False, False]
    for i, (me, foe) in enumerate(((a, b), (b, a))):
        target = 1 - i
        r = performance_result(
            me.performance,
            purpose=msg("assault by %(side)s", side=me.name or "?"),
            rule="M36-IX.2.3",
            explanation=exp,
        )
        exp.add(RULE, msg("FAC of %(side)s", side=me.name or "?"), me.fac)
        fa = me.fac + r
        fa += exp.add(RULE, msg("+1 per own base in contact"), me.bases_in_contact)
        fa -= exp.add(RULE, msg("−1 per enemy base in contact"), foe.bases_in_contact)
        if i == 0 or not options.state_penalty_initiator_only:
            fa += _state_penalty(me, exp)
        if not options.advantage_in_r:
            mine, my_exp = assault_advantage(me)
            theirs, their_exp = assault_advantage(foe)
            exp.extend(my_exp)
            exp.extend(their_exp)
            fa += exp.add("M36-IX.2.3", msg("own advantage minus the enemy's"), mine - theirs)
        fa_eff[target] = exp.add(
            RULE, msg("effective FA against %(side)s", side=foe.name or "?"), fa
        )
        suppression[target] = exp.add(RULE, msg("suppression"), max(0, fa))
        cap = foe.bases_in_contact
        if options.cap_by_own_bases:
            cap = min(cap, me.bases_in_contact)
        casualties[target] = exp.add(
            "M36-IX.2.4",
            msg("casualties: half the effective FA, at most %(cap)s bases in contact", cap=cap),
            min(max(0, fa) // 2, cap),
        )
        rules = {parse_rule(x)[0] for x in me.rules}
        if any(t in rules for t in TERROR_RULES):
            terror[target] = exp.add(
                "M36-III Terror", msg("Terror: %(side)s loses 1 morale", side=foe.name or "?"), True
            )
    return AssaultResult(tuple(fa_eff), tuple(suppression), tuple(casualties), tuple(terror), exp)


def find_at_weapon(name: str) -> tuple[str, int, int]:
    """An anti-tank weapon by its table name or its rule name: (name, PC, D)."""
    wanted = name.casefold()
    for weapon, rule in AT_WEAPON_RULES.items():
        if wanted in (weapon.casefold(), rule.casefold()):
            return (weapon, *AT_WEAPONS[weapon])
    raise RuleError(msg("%(name)s is not an anti-tank weapon", name=str(name)), rule="M36-X.1")


def _assault_shot(
    attacker: AssaultSide,
    at_weapon: str | None,
    immobilise: bool,
    assault_options: AssaultOptions,
    exp: Explanation,
) -> Shot:
    """The assault as a short-range shot (X): FAC, the anti-tank weapon's P and D."""
    _check_side(attacker)
    if at_weapon is None:
        raise RuleError(
            msg("infantry needs anti-tank weapons, charges or explosives to harm a vehicle"),
            rule="M36-X.1",
        )
    name, p, d = _at_weapon_of(attacker, at_weapon)
    exp.add(VEHICLE_RULE, msg("%(weapon)s: P %(p)s, D %(d)s", weapon=name, p=p, d=d), p)
    fa = exp.add(VEHICLE_RULE, msg("FAC of %(side)s", side=attacker.name or "?"), attacker.fac)
    if assault_options.bases_add_to_vehicle_fa:
        fa += exp.add(RULE, msg("+1 per own base in contact"), attacker.bases_in_contact)
    fa += _state_penalty(attacker, exp)
    if immobilise:
        fa += exp.add(IMMOBILISE_RULE, msg("aiming at tracks or wheels: FA −1, D +1"), -1)
        d += 1
    return Shot(fa, p, d, "X", immobilise=immobilise)


def vehicle_assault(
    *,
    attacker: AssaultSide,
    at_weapon: str | None,
    vehicle: Vehicle,
    facing: Facing,
    performance: int,
    dice: DiceSource,
    immobilise: bool = False,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
    assault_options: AssaultOptions = DEFAULT_OPTIONS,
) -> VehicleHit:
    """Infantry bases in contact attack the vehicle side they touch (X): FAC at short range,
    the anti-tank weapon's P and D, one performance roll, Section X severe damage table."""
    exp = Explanation()
    shot = _assault_shot(attacker, at_weapon, immobilise, assault_options, exp)
    return resolve_hit(shot, vehicle, facing, performance, dice, options, exp)


def vehicle_assault_odds(
    *,
    attacker: AssaultSide,
    at_weapon: str | None,
    vehicle: Vehicle,
    facing: Facing,
    performance: int,
    immobilise: bool = False,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
    assault_options: AssaultOptions = DEFAULT_OPTIONS,
) -> dict[str, Fraction]:
    """Exact odds of `vehicle_assault`'s outcome for this R (the severe d6 enumerated)."""
    shot = _assault_shot(attacker, at_weapon, immobilise, assault_options, Explanation())
    return hit_odds(shot, vehicle, facing, performance, options)


def _at_weapon_of(attacker: AssaultSide, name: str) -> tuple[str, int, int]:
    weapon, p, d = find_at_weapon(name)
    if AT_WEAPON_RULES[weapon] not in {parse_rule(r)[0] for r in attacker.rules}:
        raise RuleError(
            msg(
                "%(side)s is not equipped with %(weapon)s",
                side=attacker.name or "?",
                weapon=weapon,
            ),
            rule="M36-X.1",
        )
    return weapon, p, d

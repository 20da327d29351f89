"""Indirect fire (Section VII): deviation, effect templates, resolving a bombardment on a unit,
its side effects and planning a bombardment with Munición(X), Disparo Rápido and Observar(X).

The arrow (direction) die is not described by the rulebook: the direction of a deviation is the
players' to read at the table. Section XII (off-table artillery) is empty in the seed, so zones
and the approach-salvo action counter are caller inputs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource, Distribution
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg
from rules.m1936.construction import cover_type
from rules.m1936.data import parse_rule
from rules.m1936.fog import Token, reveal_bombarded
from rules.m1936.performance import performance_result
from rules.m1936.weather import SmokeOrigin, Weather, smoke_timing
from rules.serial import Serializable

DEVIATION_RULE = "M36-VII.2"
TEMPLATE_RULE = "M36-VII.3"
MODIFIER_RULE = "M36-VII.4"
RESOLUTION_RULE = "M36-VII.5"
WIRE_RULE = "M36-VII.6"
OBSERVATION_RULE = "M36-VII.1"
AMMO_RULE = "M36-III Munición"
RAPID_RULE = "M36-III Disparo Rápido"
OBSERVE_RULE = "M36-III Observar"
PARABOLIC_RULE = "M36-III Tiro Parabólico"
HIGH_ANGLE_RULE = "M36-III Tiro de Alto Ángulo"
CASCO_RULE = "M36-III Casco"

VARIABLE = "Dispersión Variable"
LIMITED = "Dispersión Variable Limitada"
CONSTANT = "Dispersión Constante"
REDUCED = "Dispersión Reducida"
MAXIMUM = "Dispersión Máxima"
LOW = "Dispersión Baja"

# Dice of deviation per distance: a range band (Variable Limitada uses the heavy weapons'
# bands) or zones away from the target (0 = same zone / on the table) — Section III.
DISPERSION: dict[str, dict[str | int, int]] = {
    LIMITED: {"short": 2, "medium": 3, "long": 4},
    VARIABLE: {0: 2, 1: 4},
    CONSTANT: {0: 3, 1: 3, 2: 3, 3: 3},
    REDUCED: {0: 3, 1: 3, 2: 3, 3: 3, 4: 4},
    MAXIMUM: {0: 4, 1: 4, 2: 5},
    LOW: {0: 4, 1: 4, 2: 2, 3: 2, 4: 2},
}
# On the table: short = the same zone, medium = one zone away (Variable, Constante, Reducida).
BAND_ZONES: dict[str, dict[str, int]] = {
    VARIABLE: {"short": 0, "medium": 1},
    CONSTANT: {"short": 0, "medium": 1},
    REDUCED: {"short": 0, "medium": 1},
}
VARIABLE_SHORT_CM = 80

DUG_IN = frozenset({"Pozo de tirador", "Trinchera", "Trinchera reforzada"})
HOUSES_AND_WALLS = frozenset({"Casa", "Casa de Piedra", "Muro"})
HILLS = frozenset({"Colina nivel 0-1", "Colina nivel 2"})
EMPLACEMENTS = frozenset({"Nido", "Blocao", "Casamata", "Búnker"})


@dataclass(frozen=True)
class BombardOptions(Serializable):
    """Readings of the seed where it admits two (see the decisions table).

    `negative_fa_is_zero`: an effective FA below 0 counts as 0 (so suppression is at least 1);
    off: suppression is max(0, FA_eff + 1). `variable_80cm_is_medium`: exactly 80 cm on the
    table is medium range for Dispersión Variable (default short: only "más allá de 80cm" is
    medium). `parabolic_emplacements`: Tiro Parabólico also cuts Nido, Blocao, Casamata and
    Búnker to cover 1 (default: only dug-in positions, houses, walls and hills, as listed).
    """

    negative_fa_is_zero: bool = True
    variable_80cm_is_medium: bool = False
    parabolic_emplacements: bool = False


DEFAULT_OPTIONS = BombardOptions()


def _rule_name(rule: str | None) -> str:
    if rule is None:
        return VARIABLE
    name = rule.strip()
    if name not in DISPERSION and f"Dispersión {name}" in DISPERSION:
        name = f"Dispersión {name}"
    if name not in DISPERSION:
        raise RuleError(msg("%(rule)s is not a dispersion rule", rule=str(rule)), rule="M36-III")
    return name


def dispersion_rule(rules: Collection[str]) -> str:
    """The dispersion rule among a piece's special rules; none → Dispersión Variable (VII.2)."""
    found = [parse_rule(r)[0] for r in rules if parse_rule(r)[0] in DISPERSION]
    return found[0] if found else VARIABLE


def on_table_distance_class(
    rule: str | None, distance_cm: float, options: BombardOptions = DEFAULT_OPTIONS
) -> str:
    """Dispersión Variable on the table: below 80 cm short, beyond 80 cm medium; Constante
    and Reducida on the table are always short. Other rules give no on-table equivalence."""
    name = _rule_name(rule)
    if isinstance(distance_cm, bool) or not isinstance(distance_cm, int | float) or distance_cm < 0:
        raise RuleError(
            msg("a distance is a number of cm ≥ 0, not %(d)s", d=str(distance_cm)),
            rule=DEVIATION_RULE,
        )
    if name == VARIABLE:
        if options.variable_80cm_is_medium:
            return "medium" if distance_cm >= VARIABLE_SHORT_CM else "short"
        return "medium" if distance_cm > VARIABLE_SHORT_CM else "short"
    if name in (CONSTANT, REDUCED):
        return "short"
    raise RuleError(
        msg("%(rule)s gives no on-table distance: enter the range band or zones", rule=name),
        rule="M36-III",
    )


def dispersion_dice(
    rule: str | None, *, distance_class: str | int, explanation: Explanation | None = None
) -> int:
    """Deviation dice (d6) for a rule at a distance: a band ("short"/"medium"/"long") or the
    number of zones between piece and target (0 = same zone). No rule → Dispersión Variable."""
    exp = explanation if explanation is not None else Explanation()
    name = _rule_name(rule)
    if rule is None:
        exp.add(DEVIATION_RULE, msg("no dispersion rule: counts as %(rule)s", rule=VARIABLE))
    table = DISPERSION[name]
    key = distance_class
    if isinstance(key, str) and key not in table:
        key = BAND_ZONES.get(name, {}).get(key, key)
    if isinstance(key, bool) or not isinstance(key, str | int) or key not in table:
        raise RuleError(
            msg("%(rule)s gives no dice at distance %(d)s", rule=name, d=str(distance_class)),
            rule=f"M36-III {name}",
        )
    return exp.add(
        f"M36-III {name}",
        msg("%(rule)s at %(d)s: dice of deviation", rule=name, d=str(distance_class)),
        table[key],
    )


@dataclass(frozen=True)
class Deviation(Serializable):
    """How far the aim marker moves; its direction is the players' arrow die."""

    dice: int
    distance_cm: int
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def roll_deviation(rule: str | None, *, distance_class: str | int, dice: DiceSource) -> Deviation:
    """Roll the rule's d6 and sum them: the cm the shot deviates from the aim point (VII.2)."""
    exp = Explanation()
    n = dispersion_dice(rule, distance_class=distance_class, explanation=exp)
    record = dice.roll(f"{n}d6", purpose=msg("deviation"), rule=DEVIATION_RULE)
    exp.add(DEVIATION_RULE, msg("%(n)sd6 of deviation, in cm", n=n), record.value, roll=record)
    exp.add(DEVIATION_RULE, msg("direction: read the arrow die at the table"))
    return Deviation(n, record.value, exp)


def deviation_odds(n: int) -> Distribution:
    """Exact odds of the deviation in cm with n dice."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
        raise RuleError(msg("deviation uses 1 to 5 dice, not %(n)s", n=str(n)), rule=DEVIATION_RULE)
    return Distribution.of(f"{n}d6")


@dataclass(frozen=True)
class Template(Serializable):
    """A row of the VII.3 table: size, casualty limit per unit and total damage required."""

    size: str
    casualty_limit: int
    total_damage: int


TEMPLATES: tuple[Template, ...] = tuple(
    Template(*row)
    for row in (
        ("pequeña", 1, 1),
        ("pequeña", 2, 4),
        ("mediana", 1, 6),
        ("mediana", 2, 8),
        ("pequeña", 3, 10),
        ("grande", 1, 12),
        ("pequeña", 4, 14),
        ("mediana", 3, 16),
        ("grande", 2, 18),
        ("mediana", 4, 22),
        ("grande", 3, 26),
        ("grande", 4, 30),
    )
)


def allowed_templates(total_damage: int) -> list[Template]:
    """Every template whose Daño Total is at most the bombardment's total damage (VII.3)."""
    if isinstance(total_damage, bool) or not isinstance(total_damage, int):
        raise RuleError(
            msg("total damage is a whole number, not %(d)s", d=str(total_damage)),
            rule=TEMPLATE_RULE,
        )
    return [t for t in TEMPLATES if t.total_damage <= total_damage]


@dataclass(frozen=True)
class BombardTarget(Serializable):
    """A unit partly or wholly under the template. `section_half_outside`: fewer than half of
    a section's bases are under it (small target). `alambrada`: the target is barbed wire."""

    name: str
    prone: bool = False
    small_target: bool = False
    vehicle_or_individual: bool = False
    section_half_outside: bool = False
    cover: str | None = None
    casco: bool = False
    alambrada: bool = False


@dataclass(frozen=True)
class BombardResult(Serializable):
    fa_eff: int
    cover_penetrated: bool | None
    suppression: int
    casualties: int
    wire_removed: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def _cover_value(
    name: str, parabolic: bool, high_angle: bool, options: BombardOptions, exp: Explanation
) -> int:
    spec = cover_type(name)
    parabolic_set = DUG_IN | HOUSES_AND_WALLS | HILLS
    if options.parabolic_emplacements:
        parabolic_set |= EMPLACEMENTS
    rule = None
    if parabolic and spec.name in parabolic_set:
        rule = PARABOLIC_RULE
    elif high_angle and spec.name in HILLS:
        rule = HIGH_ANGLE_RULE
    if rule and spec.cover > 1:
        return exp.add(rule, msg("cover of %(cover)s reduced to 1", cover=spec.name), 1)
    return spec.cover


def _int(value: object, what: str | Msg, rule: str, minimum: int | None = None) -> int:
    low = minimum is not None and isinstance(value, int) and value < minimum
    if isinstance(value, bool) or not isinstance(value, int) or low:
        raise RuleError(
            msg("%(what)s must be a whole number, not %(v)s", what=what, v=str(value)), rule=rule
        )
    return value


def bombard_unit(
    *,
    fa: int,
    p: int,
    performance: int,
    template_limit: int,
    target: BombardTarget,
    parabolic: bool = False,
    high_angle: bool = False,
    casualties_so_far: int = 0,
    options: BombardOptions = DEFAULT_OPTIONS,
) -> BombardResult:
    """Resolve the bombardment on one unit under the template, as fire against infantry (VII.5).

    `fa` is the Bombardeo(X) of one of the pieces, `p` its penetration; the cover check is
    P + R against the cover's Blindaje. Suppression is FA_eff + 1; casualties ⌊FA_eff / 2⌋,
    and the unit's casualties in this bombardment (with `casualties_so_far`) never exceed the
    template's limit.
    """
    exp = Explanation()
    fa = _int(fa, "FA", RESOLUTION_RULE)
    p = _int(p, "P", RESOLUTION_RULE)
    limit = _int(template_limit, msg("the casualty limit"), TEMPLATE_RULE, 1)
    so_far = _int(casualties_so_far, msg("casualties so far"), TEMPLATE_RULE, 0)
    exp.add(RESOLUTION_RULE, msg("FA of the piece (Bombardeo)"), fa)
    r = performance_result(
        performance, purpose=msg("bombardment"), rule=MODIFIER_RULE, explanation=exp
    )
    total = fa + r
    penetrated: bool | None = None
    if target.cover is not None:
        spec = cover_type(target.cover)
        penetrated = exp.add(
            "M36-VI.2.3",
            msg(
                "cover check: P %(p)s + R %(r)s against Blindaje %(armour)s of %(cover)s",
                p=p,
                r=r,
                armour=spec.armour,
                cover=spec.name,
            ),
            p + r >= spec.armour,
        )
        if not penetrated:
            cover = _cover_value(spec.name, parabolic, high_angle, options, exp)
            total += exp.add("M36-VIII.1", msg("cover not penetrated: −Cobertura"), -cover)
            if target.casco:
                total += exp.add(CASCO_RULE, msg("Casco in cover not penetrated"), -1)
    if target.prone:
        total += exp.add(MODIFIER_RULE, msg("prone"), -1)
    if target.small_target or target.section_half_outside:
        total += exp.add(MODIFIER_RULE, msg("small target"), -1)
    if target.vehicle_or_individual:
        total += exp.add(MODIFIER_RULE, msg("vehicle or individual base"), -1)
    fa_eff = exp.add(RESOLUTION_RULE, msg("effective FA"), total)
    if fa_eff < 0 and options.negative_fa_is_zero:
        fa_eff = exp.add(RESOLUTION_RULE, msg("a negative effective FA counts as 0"), 0)
    suppression = exp.add(
        RESOLUTION_RULE, msg("suppression = effective FA + 1"), max(0, fa_eff + 1)
    )
    casualties = max(0, fa_eff // 2)
    exp.add(RESOLUTION_RULE, msg("casualties = half the effective FA, rounded down"), casualties)
    room = max(0, limit - so_far)
    if casualties > room:
        casualties = exp.add(
            TEMPLATE_RULE,
            msg(
                "the template allows %(limit)s casualties per unit (%(so_far)s already)",
                limit=limit,
                so_far=so_far,
            ),
            room,
        )
    wire = target.alambrada and casualties >= 1
    if target.alambrada:
        exp.add(WIRE_RULE, msg("barbed wire with at least 1 casualty is destroyed"), wire)
    return BombardResult(fa_eff, penetrated, suppression, casualties, wire, exp)


@dataclass(frozen=True)
class SideEffects(Serializable):
    """What a conventional bombardment leaves behind: smoke over the template and the tokens
    on the bombarded squares revealed (decoys removed); `notes` say it for the log."""

    smoke_disperse: int | None
    smoke_dissipate: int | None
    tokens: tuple[Token, ...]
    revealed: tuple[int, ...]
    decoys_removed: tuple[int, ...]
    notes: tuple[Msg, ...]
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def bombardment_side_effects(
    *,
    weather: Weather = Weather.SOLEADO,
    squares: Collection[str] = (),
    enemy_tokens: Sequence[Token] = (),
) -> SideEffects:
    """Smoke (1 turn to disperse, 2 to dissipate, weather-adjusted, XIV.7.2) and the tokens on
    the bombarded squares revealed (XIV.5). Munición is spent in `plan_bombardment`."""
    exp = Explanation()
    notes: list[Msg] = []
    smoke = smoke_timing(SmokeOrigin.BOMBARDMENT, weather)
    exp.extend(smoke.explanation)
    notes.append(
        msg(
            "smoke covers the template: disperses in %(disperse)s turns, gone in %(dissipate)s",
            disperse=smoke.disperse,
            dissipate=smoke.dissipate,
        )
    )
    fog = reveal_bombarded(enemy_tokens, squares)
    exp.extend(fog.explanation)
    notes.extend(s.text for s in fog.explanation if isinstance(s.text, Msg))
    return SideEffects(
        smoke.disperse,
        smoke.dissipate,
        fog.tokens,
        fog.revealed,
        fog.decoys_removed,
        tuple(notes),
        exp,
    )


@dataclass(frozen=True)
class Battery(Serializable):
    """Pieces of one artillery unit: D and Bombardeo(X) of each piece, its P for the cover
    check, Munición left (None: not counted) and its special rules."""

    name: str
    pieces: int
    damage_each: int
    bombardeo: int
    p: int
    ammo_left: int | None
    rules: frozenset[str] = frozenset()

    def has(self, rule: str) -> bool:
        return any(parse_rule(r)[0] == rule for r in self.rules)


@dataclass(frozen=True)
class BombardPlan(Serializable):
    """One bombardment: total damage, the templates it allows, each battery after firing
    and, for Disparo Rápido, which fire a second bombardment this turn."""

    total_damage: int
    templates: tuple[Template, ...]
    batteries: tuple[Battery, ...]
    second_bombardment: tuple[str, ...]
    bombardment_ends: tuple[str, ...]
    actions_remaining: int | None
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def plan_bombardment(
    batteries: Sequence[Battery],
    *,
    commander_sees_aim_point: bool = True,
    second: bool = False,
    observer_rules: Collection[str] = frozenset(),
    hidden: bool = False,
    approach_salvo: bool = False,
    actions_remaining: int | None = None,
) -> BombardPlan:
    """Check and total one bombardment (VII.1, VII.3, Munición, Disparo Rápido, Observar).

    `second`: the second bombardment of the turn, allowed only to Disparo Rápido pieces,
    after which their bombardment ends. `hidden`: a bombardment without an approach salvo,
    which needs an observer with Observar(X). An approach salvo directed by Observar(X)
    takes 1 off `actions_remaining`, the counter to complete the bombardment (its start
    value is not in the seed: the caller's)."""
    exp = Explanation()
    if not batteries:
        raise RuleError(msg("a bombardment needs at least one piece"), rule=TEMPLATE_RULE)
    if not commander_sees_aim_point:
        raise RuleError(
            msg("the artillery commander must see the aim point"), rule=OBSERVATION_RULE
        )
    observer = any(parse_rule(r)[0] == "Observar" for r in observer_rules)
    if hidden and not observer:
        raise RuleError(
            msg("only an observer with Observar can skip the approach salvo"), rule=OBSERVE_RULE
        )
    if hidden and approach_salvo:
        raise RuleError(msg("a hidden bombardment has no approach salvo"), rule=OBSERVE_RULE)
    after, again, ends = [], [], []
    total = 0
    for b in batteries:
        _int(b.pieces, msg("pieces"), TEMPLATE_RULE, 1)
        if second and not b.has("Disparo Rápido"):
            raise RuleError(
                msg("%(name)s has no Disparo Rápido: one bombardment a turn", name=b.name),
                rule=RAPID_RULE,
            )
        if b.ammo_left is not None and b.ammo_left < 1:
            raise RuleError(msg("%(name)s has no Munición left", name=b.name), rule=AMMO_RULE)
        damage = b.pieces * b.damage_each
        total += exp.add(
            TEMPLATE_RULE,
            msg("%(name)s: %(pieces)s × D %(d)s", name=b.name, pieces=b.pieces, d=b.damage_each),
            damage,
        )
        left = None if b.ammo_left is None else b.ammo_left - 1
        if left is not None:
            exp.add(AMMO_RULE, msg("%(name)s: Munición left", name=b.name), left)
        after.append(dataclasses.replace(b, ammo_left=left))
        if b.has("Disparo Rápido"):
            if second or left == 0:
                ends.append(b.name)
                exp.add(RAPID_RULE, msg("%(name)s: the bombardment ends", name=b.name))
            else:
                again.append(b.name)
                exp.add(RAPID_RULE, msg("%(name)s bombards a second time this turn", name=b.name))
    exp.add(TEMPLATE_RULE, msg("total damage"), total)
    templates = tuple(allowed_templates(total))
    if not templates:
        raise RuleError(
            msg("total damage %(total)s is below every template", total=total), rule=TEMPLATE_RULE
        )
    exp.add(
        TEMPLATE_RULE, nmsg("%(n)s template allowed", "%(n)s templates allowed", len(templates))
    )
    counter = actions_remaining
    if approach_salvo and observer and counter is not None:
        counter = exp.add(
            OBSERVE_RULE,
            msg("approach salvo with Observar: 1 off the actions left to complete"),
            max(0, _int(counter, msg("actions remaining"), OBSERVE_RULE, 0) - 1),
        )
    return BombardPlan(total, templates, tuple(after), tuple(again), tuple(ends), counter, exp)

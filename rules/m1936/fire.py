"""Direct fire against infantry (VI.2) with cover and fortifications (VIII.2).

The performance roll R is entered by the player (see `performance`); it is the first step
and modifies everything after it: the cover check (P + R against the element's Blindaje) and
the effective FA (FA + R + modifiers − Cobertura when the cover is not penetrated).
Suppression is FA_eff; casualties are FA_eff / 2 rounded down, never more than the bases that
fired. `weapon_at` reads a unit's numbers at a range band into a `Weapon`, shared with
vehicle fire (`vehicles`) and assaults (`assault`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.m1936.construction import COVER_RULE, cover_type
from rules.m1936.data import Stat, parse_rule
from rules.m1936.performance import performance_result
from rules.serial import Serializable

RULE = "M36-VI.2.3"
RANGE_RULE = "M36-VI.2.1"
COVER_CHECK_RULE = "M36-VIII.2"
DECIMATION_RULE = "M36-XI.8"
DUG_IN = frozenset({"Pozo de tirador", "Trinchera", "Trinchera reforzada"})
HILLS = frozenset({"Colina nivel 0-1", "Colina nivel 2"})
PARABOLIC_COVER = DUG_IN | HILLS | {"Casa", "Casa de Piedra", "Muro"}
REDUCED_COVER = 1
TERROR_RULES = ("Terror", "Lanzallamas")


class Band(StrEnum):
    SHORT = "corta"
    MEDIUM = "media"
    LONG = "larga"


_BAND_STATS = {
    Band.SHORT: ("fac", "pc"),
    Band.MEDIUM: ("fam", "pm"),
    Band.LONG: ("fal", "pl"),
}


@dataclass(frozen=True)
class Weapon(Serializable):
    """The firing unit's numbers at the chosen band. `rules` are rule names without levels
    (e.g. "Fanático", "Tirador Selecto", "Impreciso", "Troneras", "Lanzallamas", "Terror")."""

    name: str
    fa: int
    p: int
    d: int = 0
    bases: int = 1
    he: bool = False
    rules: frozenset[str] = frozenset()
    band: Band | None = None

    def has(self, rule: str) -> bool:
        return rule in self.rules


def rule_names(rules: Iterable[str] | Mapping[str, object]) -> frozenset[str]:
    """Rule names without their level: {"Subfusiles(2)", "Fanático"} → {"Subfusiles", ...}."""
    return frozenset(parse_rule(r)[0] for r in rules)


def _pick(stats: Mapping[str, Stat], key: str, ammo: str) -> int | None:
    value = stats.get(key)
    if isinstance(value, tuple):
        return value[0 if ammo == "AP" else 1]
    return value


def weapon_at(
    stats: Mapping[str, Stat],
    band: Band,
    *,
    ammo: str = "AP",
    bases: int = 1,
    rules: Iterable[str] = (),
    decimated: bool = False,
    name: str = "",
) -> Weapon:
    """FA, P and D at `band` from a profile's statistics (e.g. `army.effective_stats`).

    "x/y" pairs are (AP, HE) (III, AP rule). A decimated unit has its FA halved, rounded
    down (XI.8).
    """
    band, ammo = Band(band), ammo.upper()
    if ammo not in ("AP", "HE"):
        raise RuleError(msg("ammunition is AP or HE, not %(ammo)s", ammo=ammo), rule=RANGE_RULE)
    names = rule_names(rules)
    paired = any(isinstance(v, tuple) for v in stats.values())
    if ammo == "HE" and not paired and "HE" not in names:
        raise RuleError(msg("%(name)s has no HE ammunition", name=name or "?"), rule="M36-III HE")
    fa_key, p_key = _BAND_STATS[band]
    fa, p, d = _pick(stats, fa_key, ammo), _pick(stats, p_key, ammo), _pick(stats, "d", ammo)
    if fa is None or p is None:
        raise RuleError(
            msg("%(name)s cannot fire at %(band)s range", name=name or "?", band=band.value),
            rule=RANGE_RULE,
        )
    if isinstance(bases, bool) or not isinstance(bases, int) or bases < 1:
        raise RuleError(
            msg("firing bases is a whole number ≥ 1, not %(bases)s", bases=str(bases)), rule=RULE
        )
    if decimated:
        fa = fa // 2
    return Weapon(name, fa, p, d or 0, bases, ammo == "HE", names, band)


@dataclass(frozen=True)
class InfantryFireMods(Serializable):
    """The situations of "Modificadores para disparos contra infantería" (VI.2.3, XVI.1).

    `under_fire` is the firer being under fire; `deep_trench` is a target in a deep trench
    (Herramientas de Excavación: "ventaja −1 a cualquier disparo"), leave it off if that −1 is
    already inside R."""

    prone: bool = False
    small_target: bool = False
    concealed: bool = False
    limited_shot: bool = False
    under_fire: bool = False
    moving: bool = False
    flank: bool = False
    rear: bool = False
    exposed: bool = False
    aim: bool = False
    deep_trench: bool = False


# field → (rule id, label, FA, P)
_INFANTRY_MODS: dict[str, tuple[str, Msg, int, int]] = {
    "prone": (RULE, msg("target prone (Cuerpo a tierra)"), -1, 0),
    "small_target": (RULE, msg("small target"), -1, 0),
    "concealed": (RULE, msg("target concealed"), -1, 0),
    "limited_shot": (RULE, msg("limited shot"), -1, 0),
    "under_fire": (RULE, msg("firer under fire"), -2, 0),
    "moving": (RULE, msg("firer turned to fire"), -1, 0),
    "flank": (RULE, msg("shot at the flank"), 1, 1),
    "rear": (RULE, msg("shot at the rear"), 2, 1),
    "exposed": (RULE, msg("target exposed"), 2, 1),
    "aim": (RULE, msg("aimed shot"), 1, 2),
    "deep_trench": (
        "M36-III Herramientas de Excavación",
        msg("target in a deep trench"),
        -1,
        0,
    ),
}


@dataclass(frozen=True)
class FireOptions(Serializable):
    """Readings of VI.2.3 the seed leaves open (DECISIONS: §8.3.2).

    `p_mods_in_cover_check`: the P column of the modifier table (flank, rear, exposed, aim) is
    added to P + R in the cover check; off, the check is P + R only, as step 2 is worded.
    """

    p_mods_in_cover_check: bool = True


DEFAULT_OPTIONS = FireOptions()


@dataclass(frozen=True)
class Modifiers(Serializable):
    fa: int
    p: int


def situational_modifiers(
    weapon: Weapon,
    flags: Mapping[str, bool],
    table: Mapping[str, tuple[str, Msg, int, int]],
    exp: Explanation,
) -> Modifiers:
    """Sum the FA and P modifiers of the set `flags`, with the firer's rules (III):
    Fanático −1 instead of −2 under fire; Tirador Selecto ignores small target and doubles aim;
    Impreciso cannot aim; Troneras −1 FA."""
    fa = p = 0
    for key, (rule, label, dfa, dp) in table.items():
        if not flags.get(key):
            continue
        if key == "small_target" and weapon.has("Tirador Selecto"):
            exp.add("M36-III Tirador Selecto", msg("Tirador Selecto ignores small target"), 0)
            continue
        if key == "aim":
            if weapon.has("Impreciso"):
                raise RuleError(msg("an Impreciso unit cannot aim"), rule="M36-III Impreciso")
            if weapon.has("Tirador Selecto"):
                dfa, dp, rule = dfa * 2, dp * 2, "M36-III Tirador Selecto"
                label = msg("aimed shot, doubled by Tirador Selecto")
        if key == "under_fire" and weapon.has("Fanático"):
            dfa, rule, label = -1, "M36-III Fanático", msg("firer under fire (Fanático)")
        exp.add(rule, msg("%(label)s: FA %(fa)s, P %(p)s", label=label, fa=dfa, p=dp), dfa)
        fa, p = fa + dfa, p + dp
    if weapon.has("Troneras"):
        fa += exp.add("M36-III Troneras", msg("firing through loopholes (Troneras)"), -1)
    return Modifiers(fa, p)


@dataclass(frozen=True)
class InfantryFireResult(Serializable):
    """`fa_eff` is signed; suppression and casualties are never below 0. `terror`: the
    target suffers Terror (−1 morale this turn, III)."""

    fa_eff: int
    cover_penetrated: bool | None
    suppression: int
    casualties: int
    terror: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def cover_value(cover: str, *, parabolic: bool, high_angle: bool, exp: Explanation) -> int:
    """The element's Cobertura, reduced to 1 by Tiro Parabólico (dug-in positions, houses,
    walls, hills) or Tiro de Alto Ángulo (hills) (III)."""
    spec = cover_type(cover)
    value = spec.cover
    if parabolic and spec.name in PARABOLIC_COVER and value > REDUCED_COVER:
        value = exp.add(
            "M36-III Tiro Parabólico",
            msg("Tiro Parabólico: %(cover)s gives cover 1", cover=spec.name),
            REDUCED_COVER,
        )
    elif high_angle and spec.name in HILLS and value > REDUCED_COVER:
        value = exp.add(
            "M36-III Tiro de Alto Ángulo",
            msg("Tiro de Alto Ángulo: %(cover)s gives cover 1", cover=spec.name),
            REDUCED_COVER,
        )
    return value


def fire_at_infantry(
    *,
    weapon: Weapon,
    performance: int,
    cover: str | None = None,
    mods: InfantryFireMods = InfantryFireMods(),
    options: FireOptions = DEFAULT_OPTIONS,
    parabolic: bool = False,
    high_angle: bool = False,
) -> InfantryFireResult:
    """Resolve one shot at infantry (VI.2.3): cover check, modifiers, suppression, casualties.

    `cover` is a name from `construction.COVER_TYPES` (the element most favourable to the
    defender, VIII.4.2) or None in the open.
    """
    exp = Explanation()
    r = performance_result(performance, purpose=msg("fire at infantry"), rule=RULE, explanation=exp)
    exp.add(RANGE_RULE, msg("FA of %(name)s at this range", name=weapon.name or "?"), weapon.fa)
    mod = situational_modifiers(weapon, vars(mods), _INFANTRY_MODS, exp)
    penetrated = None
    cover_mod = 0
    if cover is not None:
        spec = cover_type(cover)
        check = weapon.p + r + (mod.p if options.p_mods_in_cover_check else 0)
        penetrated = exp.add(
            COVER_CHECK_RULE,
            msg(
                "cover check: P + R = %(check)s against %(cover)s Blindaje %(armour)s",
                check=check,
                cover=spec.name,
                armour=spec.armour,
            ),
            check >= spec.armour,
        )
        if not penetrated:
            cover_mod = -cover_value(cover, parabolic=parabolic, high_angle=high_angle, exp=exp)
            exp.add(COVER_RULE, msg("cover not penetrated: Cobertura applies"), cover_mod)
    fa_eff = exp.add(
        RULE, msg("effective FA = FA + R + modifiers"), weapon.fa + r + mod.fa + cover_mod
    )
    suppression = exp.add(RULE, msg("suppression (morale points lost)"), max(0, fa_eff))
    casualties = max(0, fa_eff) // 2
    if casualties > weapon.bases:
        exp.add(
            RULE,
            msg("casualties capped at the %(bases)s bases that fired", bases=weapon.bases),
            weapon.bases,
        )
        casualties = weapon.bases
    exp.add(RULE, msg("casualties (half the effective FA, rounded down)"), casualties)
    terror = any(weapon.has(t) for t in TERROR_RULES)
    if terror:
        exp.add("M36-III Terror", msg("Terror: the target loses 1 morale this turn"), True)
    return InfantryFireResult(fa_eff, penetrated, suppression, casualties, terror, exp)


def infantry_fire_table(
    *,
    weapon: Weapon,
    cover: str | None = None,
    mods: InfantryFireMods = InfantryFireMods(),
    options: FireOptions = DEFAULT_OPTIONS,
    parabolic: bool = False,
    high_angle: bool = False,
    r_values: Iterable[int] = range(-3, 4),
) -> list[tuple[int, InfantryFireResult]]:
    """The outcome for each possible R: the live preview before the roll is entered."""
    return [
        (
            r,
            fire_at_infantry(
                weapon=weapon,
                performance=r,
                cover=cover,
                mods=mods,
                options=options,
                parabolic=parabolic,
                high_angle=high_angle,
            ),
        )
        for r in r_values
    ]

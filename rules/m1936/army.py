"""Army lists, budgets and unit costs (Section II).

A force has one quality; a unit with the Veteranos upgrade (Veteranía) is one level above it.
Costs are base cost ± the quality percentage, plus the flat cost of each upgrade, rounded as
`ArmyOptions.rounding` says (the rulebook gives no rounding; see DECISIONS.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936.data import (
    RULE,
    STAT_NAMES,
    Faction,
    Profile,
    Quality,
    Stat,
    catalogue,
)
from rules.serial import Serializable

BUDGET_RULE = f"{RULE} Puntos base por tamaño de partida"
QUALITY_RULE = f"{RULE} Modificador de coste por calidad"
VETERANIA = "Veteranía"

Rounding = Literal["half_up", "down", "up"]


class GameSize(StrEnum):
    PEQUENA = "Pequeña"
    MEDIANA = "Mediana"
    GRANDE = "Grande"


class Role(StrEnum):
    ATACANTE = "Atacante"
    DEFENSOR = "Defensor"


@dataclass(frozen=True)
class ArmyOptions(Serializable):
    """Readings of points the rulebook leaves open (each recorded in DECISIONS.md)."""

    rounding: Rounding = "half_up"
    quality_applies_to_upgrades: bool = False
    per_unit_quality: bool = False
    apply_rule_quality_modifiers: bool = True
    fog_of_war_token_limit: bool = False


DEFAULT_OPTIONS = ArmyOptions()


def round_points(value: Fraction, rounding: Rounding) -> int:
    if rounding == "down":
        return value // 1
    if rounding == "up":
        return -(-value // 1)
    return (value + Fraction(1, 2)) // 1


@dataclass(frozen=True)
class Budget(Serializable):
    role: Role
    points: int
    defender_points: int
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def budget(
    role: Role,
    size: GameSize | None = None,
    *,
    defender_points: int | None = None,
    options: ArmyOptions = DEFAULT_OPTIONS,
) -> Budget:
    """Points for one side: the size table, or an agreed defender total (attacker +50 %)."""
    exp = Explanation()
    if (size is None) == (defender_points is None):
        raise RuleError(
            msg("give either a game size or an agreed defender budget"), rule=BUDGET_RULE
        )
    bonus = catalogue().raw["attacker_bonus_percent"]
    if size is not None:
        rows = catalogue().table("game_sizes")["rows"][GameSize(size).value]
        defender = exp.add(
            BUDGET_RULE, msg("%(size)s game: defender", size=size), rows[Role.DEFENSOR]
        )
        attacker = exp.add(
            BUDGET_RULE, msg("%(size)s game: attacker", size=size), rows[Role.ATACANTE]
        )
    else:
        if isinstance(defender_points, bool) or not isinstance(defender_points, int):
            raise RuleError(msg("the agreed budget is a whole number of points"), rule=BUDGET_RULE)
        if defender_points <= 0:
            raise RuleError(msg("the agreed budget must be positive"), rule=BUDGET_RULE)
        defender = exp.add(BUDGET_RULE, msg("agreed defender budget"), defender_points)
        attacker = exp.add(
            f"{RULE} (presupuesto)",
            msg(
                "attacker always has %(bonus)s %% more points than the defender (%(rounding)s rounding)",
                bonus=bonus,
                rounding=options.rounding,
            ),
            round_points(Fraction(defender * (100 + bonus), 100), options.rounding),
        )
    points = attacker if Role(role) is Role.ATACANTE else defender
    return Budget(Role(role), points, defender, exp)


@dataclass(frozen=True)
class QualityEffects(Serializable):
    """II · Efectos de la calidad: prolonged actions ± turns, base morale (XI.1), Ventaja."""

    quality: Quality
    prolonged_turns: int
    morale: int
    ventaja: int


def quality_effects(quality: Quality) -> QualityEffects:
    row = catalogue().table("quality_effects")["rows"][Quality(quality).value]
    return QualityEffects(Quality(quality), row["prolonged_turns"], row["morale"], row["ventaja"])


@dataclass(frozen=True)
class ArmyEntry(Serializable):
    """One unit bought: a profile name, upgrades (repeat a stacking one to raise X), quality.

    `quality` is only for `ArmyOptions.per_unit_quality`; by default the force quality applies.
    """

    profile: str
    upgrades: tuple[str, ...] = ()
    quality: Quality | None = None
    label: str = ""


@dataclass(frozen=True)
class ArmyList(Serializable):
    faction: Faction
    role: Role
    quality: Quality
    entries: tuple[ArmyEntry, ...] = ()
    size: GameSize | None = None
    defender_points: int | None = None

    def budget(self, options: ArmyOptions = DEFAULT_OPTIONS) -> Budget:
        return budget(self.role, self.size, defender_points=self.defender_points, options=options)


@dataclass(frozen=True)
class EntryCost(Serializable):
    profile: str
    base: int
    cost_quality: Quality
    quality_percent: int
    upgrades: tuple[tuple[str, int], ...]
    total: int
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def entry_quality(entry: ArmyEntry, force_quality: Quality) -> Quality:
    """The quality whose cost percentage the unit pays (before Veteranía)."""
    return Quality(entry.quality) if entry.quality is not None else Quality(force_quality)


def effective_quality(entry: ArmyEntry, faction: Faction, force_quality: Quality) -> Quality:
    """Quality for play: Veteranía puts the unit one level above the rest (III)."""
    quality = entry_quality(entry, force_quality)
    granted = {catalogue().upgrade(faction, u).grants for u in entry.upgrades}
    if VETERANIA in granted or catalogue().profile(faction, entry.profile).has_rule(VETERANIA):
        return quality.raised()
    return quality


def entry_cost(
    entry: ArmyEntry,
    faction: Faction,
    force_quality: Quality,
    options: ArmyOptions = DEFAULT_OPTIONS,
) -> EntryCost:
    """Cost of one unit: base ± quality % (optionally on upgrades too) + upgrade costs."""
    cat = catalogue()
    exp = Explanation()
    profile = cat.profile(faction, entry.profile)
    base = exp.add(profile.section, msg("base cost of %(name)s", name=profile.name), profile.cost)
    quality = entry_quality(entry, force_quality)
    percent = cat.table("quality_cost_percent")["rows"][quality.value]
    ups = tuple((u, cat.upgrade(faction, u).cost) for u in entry.upgrades)
    for name, cost in ups:
        exp.add(cat.upgrade(faction, name).section, msg("upgrade %(name)s", name=name), cost)
    upgrade_total = sum(c for _, c in ups)
    scaled = base + (upgrade_total if options.quality_applies_to_upgrades else 0)
    adjusted = Fraction(scaled * (100 + percent), 100)
    exp.add(
        QUALITY_RULE,
        msg(
            "%(quality)s %(percent)s %% on %(scaled)s (%(rounding)s rounding of %(v)s)",
            quality=quality,
            percent=format(percent, "+d"),
            scaled=scaled,
            rounding=options.rounding,
            v=format(float(adjusted), "g"),
        ),
        percent,
    )
    total = round_points(adjusted, options.rounding) + (
        0 if options.quality_applies_to_upgrades else upgrade_total
    )
    exp.add(RULE, msg("unit cost"), total)
    return EntryCost(profile.name, base, quality, percent, ups, total, exp)


def effective_rules(
    entry: ArmyEntry,
    faction: Faction,
    force_quality: Quality,
    options: ArmyOptions = DEFAULT_OPTIONS,
) -> dict[str, int | None]:
    """The unit's special rules with levels, after upgrades and Section III quality modifiers.

    Stacking rules add their levels up to MaxLevel; exclusive_best rules keep the best level
    (lowest for a descendent rule such as Cavar). Unknown levels stay as given.
    """
    cat = catalogue()
    rules = cat.profile(faction, entry.profile).rule_levels()
    for up in entry.upgrades:
        name, level = cat.upgrade(faction, up).rule
        rules[name] = combine_levels(name, rules.get(name), level)
    if options.apply_rule_quality_modifiers:
        quality = effective_quality(entry, faction, force_quality)
        for name, level in rules.items():
            meta = cat.levelled_rules.get(name)
            if meta and meta.quality_modifiers and level is not None:
                rules[name] = _clamp(level + meta.quality_modifiers[quality], meta.max_level)
    return rules


def combine_levels(name: str, held: int | None, added: int | None) -> int | None:
    """Level after granting `added` to a unit holding `held` (None: not held / no level)."""
    meta = catalogue().levelled_rules.get(name)
    if held is None or added is None:
        return added if held is None else held
    if meta is None:  # a count without Section III metadata, e.g. Munición(X) bombardments
        return held + added
    if meta.type == "stacking":
        return _clamp(held + added, meta.max_level)
    return min(held, added) if meta.direction == "descendent" else max(held, added)


def _clamp(level: int, max_level: int | None) -> int:
    return max(1, level if max_level is None else min(level, max_level))


def effective_stats(entry: ArmyEntry, faction: Faction) -> dict[str, Stat]:
    """Listed statistics adjusted for LMG(X)/Subfusiles(X) levels raised by upgrades (III).

    The listed statistics already include the profile's own rules, so only the difference
    between the new level's bonus and the listed level's bonus is added.
    """
    cat = catalogue()
    profile = cat.profile(faction, entry.profile)
    stats = dict(profile.stats)
    listed = profile.rule_levels()
    effects = cat.table("stat_effects")["rows"]
    for rule, table in effects.items():
        old = listed.get(rule)
        new = old
        for up in entry.upgrades:
            name, level = cat.upgrade(faction, up).rule
            if name == rule:
                new = combine_levels(rule, new, level)
        if new == old:
            continue
        before = table.get(str(old), {}) if old else {}
        after = table[str(new)]
        for stat in STAT_NAMES:
            delta = after.get(stat, 0) - before.get(stat, 0)
            if delta and isinstance(stats.get(stat), int):
                stats[stat] += delta
    return stats


def profile_cost(profile: Profile, quality: Quality, options: ArmyOptions = DEFAULT_OPTIONS) -> int:
    """Price of a bare profile at a quality (for the builder's catalogue)."""
    return entry_cost(ArmyEntry(profile.name), profile.faction, quality, options).total

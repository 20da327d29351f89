"""Army-list validation and the builder's legal options (Section II).

`validate_army` returns every violation, each naming its rule, with the points left; it never
stops at the first problem. `legal_options` lists what the builder may add next.

Which upgrade fits which unit is not stated by the rulebook; the readings used here are in
DECISIONS.md: upgrades are infantry equipment, except Munición, which only a unit that
bombards (has Munición(X)) can buy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.m1936 import labels
from rules.m1936.army import (
    BUDGET_RULE,
    DEFAULT_OPTIONS,
    VETERANIA,
    ArmyEntry,
    ArmyList,
    ArmyOptions,
    combine_levels,
    entry_cost,
    entry_quality,
    profile_cost,
)
from rules.m1936.data import RULE, Category, Faction, Profile, Quality, Upgrade, catalogue
from rules.serial import Serializable

UPGRADE_RULE = f"{RULE} Mejoras"
MUNICION = "Munición"
FOG_TOKENS = 15
FOG_RULE = "M36-XIV.1"


@dataclass(frozen=True)
class Violation(Serializable):
    rule: str
    message: str | Msg
    entry: int | None = None


@dataclass(frozen=True)
class ArmyValidation(Serializable):
    valid: bool
    violations: tuple[Violation, ...]
    budget: int
    spent: int
    points_left: int
    entry_costs: tuple[int | None, ...]
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def upgrade_problem(
    profile: Profile, held: dict[str, int | None], upgrade: Upgrade, quality: Quality
) -> Msg | None:
    """Why `upgrade` cannot be added to a unit holding `held` rules, or None if it can."""
    name, level = upgrade.rule
    if name == MUNICION:
        if MUNICION not in held:
            return msg(
                "%(upgrade)s is only for units that bombard (with %(rule)s(X))",
                upgrade=upgrade.name,
                rule=MUNICION,
            )
        return None
    if profile.category is not Category.INFANTRY:
        return msg(
            "%(upgrade)s is infantry equipment; %(unit)s is not infantry",
            upgrade=upgrade.name,
            unit=profile.name,
        )
    if name == VETERANIA and quality is Quality.ELITE:
        return msg("%(upgrade)s cannot raise an Elite unit any higher", upgrade=upgrade.name)
    if name not in held:
        return None
    meta = catalogue().levelled_rules.get(name)
    if meta is None or level is None:
        return msg("%(unit)s already has %(rule)s", unit=profile.name, rule=name)
    new = combine_levels(name, held[name], level)
    if meta.type == "stacking" and meta.max_level and held[name] + level > meta.max_level:
        return msg("%(rule)s stacks only up to %(rule)s(%(max)s)", rule=name, max=meta.max_level)
    if new == held[name]:
        return msg(
            "%(unit)s already has %(rule)s(%(level)s); %(upgrade)s is no better",
            unit=profile.name,
            rule=name,
            level=held[name],
            upgrade=upgrade.name,
        )
    return None


def _apply_upgrades(
    index: int | None, profile: Profile, entry: ArmyEntry, army: ArmyList
) -> tuple[dict[str, int | None], Quality, list[Violation]]:
    """Grant the entry's upgrades in order: held rule levels, quality, and refused upgrades."""
    cat = catalogue()
    held = profile.rule_levels()
    quality = entry_quality(entry, army.quality)
    refused: list[Violation] = []
    for up_name in entry.upgrades:
        try:
            upgrade = cat.upgrade(army.faction, up_name)
        except RuleError as err:
            refused.append(Violation(err.rule, err.message, index))
            continue
        problem = upgrade_problem(profile, held, upgrade, quality)
        if problem:
            refused.append(Violation(upgrade.section, problem, index))
            continue
        name, level = upgrade.rule
        held[name] = combine_levels(name, held.get(name), level)
        quality = quality.raised() if name == VETERANIA else quality
    return held, quality, refused


def _profile(army: ArmyList, entry: ArmyEntry) -> Profile | None:
    try:
        return catalogue().profile(army.faction, entry.profile)
    except RuleError:
        return None


def validate_army(army: ArmyList, options: ArmyOptions = DEFAULT_OPTIONS) -> ArmyValidation:
    """Every violation of the army list, its cost and the points left (may be negative)."""
    exp = Explanation()
    violations: list[Violation] = []
    budget = army.budget(options)
    exp.extend(budget.explanation)
    costs: list[int | None] = []
    for index, entry in enumerate(army.entries):
        profile = _profile(army, entry)
        if profile is None:
            violations.append(
                Violation(
                    RULE,
                    msg(
                        "%(faction)s have no unit called %(unit)s",
                        faction=labels.label(labels.FACTIONS, army.faction),
                        unit=entry.profile,
                    ),
                    index,
                )
            )
            costs.append(None)
            continue
        if entry.quality not in (None, army.quality) and not options.per_unit_quality:
            violations.append(
                Violation(
                    f"{RULE} Efectos de la calidad",
                    msg(
                        "%(unit)s is %(quality)s but the force is %(force)s; a unit differs from "
                        "its force only through Veteranía",
                        unit=profile.name,
                        quality=labels.label(labels.QUALITIES, entry.quality),
                        force=labels.label(labels.QUALITIES, army.quality),
                    ),
                    index,
                )
            )
        violations.extend(_apply_upgrades(index, profile, entry, army)[2])
        known = tuple(u for u in entry.upgrades if _known(army.faction, u))
        cost = entry_cost(
            ArmyEntry(entry.profile, known, entry.quality), army.faction, army.quality, options
        )
        costs.append(
            exp.add(
                RULE, msg("unit %(v)s: %(profile)s", v=index + 1, profile=entry.profile), cost.total
            )
        )
    spent = sum(c for c in costs if c is not None)
    left = exp.add(
        BUDGET_RULE, msg("points left of %(points)s", points=budget.points), budget.points - spent
    )
    if left < 0:
        violations.append(
            Violation(
                BUDGET_RULE,
                msg(
                    "the list costs %(spent)s, over the budget of %(points)s",
                    spent=spent,
                    points=budget.points,
                ),
            )
        )
    if options.fog_of_war_token_limit and len(army.entries) > FOG_TOKENS:
        violations.append(
            Violation(
                FOG_RULE,
                msg(
                    "fog of war numbers units 1 to %(max)s; this list has %(n)s",
                    max=FOG_TOKENS,
                    n=len(army.entries),
                ),
            )
        )
    return ArmyValidation(
        not violations, tuple(violations), budget.points, spent, left, tuple(costs), exp
    )


def _known(faction: Faction, upgrade: str) -> bool:
    return any(u.name == upgrade for u in catalogue().faction_upgrades(faction))


@dataclass(frozen=True)
class UnitOption(Serializable):
    name: str
    category: Category
    cost: int
    affordable: bool
    section: str
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True)
class UpgradeOption(Serializable):
    name: str
    cost: int
    legal: bool
    affordable: bool
    reason: str | Msg = ""


@dataclass(frozen=True)
class BuilderOptions(Serializable):
    points_left: int
    units: tuple[UnitOption, ...]
    upgrades: tuple[UpgradeOption, ...] = ()


def legal_options(
    army: ArmyList, entry: int | None = None, options: ArmyOptions = DEFAULT_OPTIONS
) -> BuilderOptions:
    """Units the builder may add (with their price at the force quality) and, for `entry`,
    each faction upgrade with whether it is legal on that unit and affordable."""
    cat = catalogue()
    left = validate_army(army, options).points_left
    units = tuple(
        UnitOption(
            p.name,
            p.category,
            price := profile_cost(p, army.quality, options),
            price <= left,
            p.section,
            p.uncertain,
        )
        for p in cat.faction_profiles(army.faction)
    )
    if entry is None:
        return BuilderOptions(left, units)
    if not 0 <= entry < len(army.entries):
        raise RuleError(msg("the list has no unit number %(v)s", v=entry + 1), rule=RULE)
    chosen = army.entries[entry]
    profile = cat.profile(army.faction, chosen.profile)
    held, quality, _ = _apply_upgrades(entry, profile, chosen, army)
    ups = []
    for upgrade in cat.faction_upgrades(army.faction):
        problem = upgrade_problem(profile, held, upgrade, quality)
        extra = _upgrade_price(chosen, upgrade, army, options)
        ups.append(
            UpgradeOption(upgrade.name, extra, problem is None, extra <= left, problem or "")
        )
    return BuilderOptions(left, units, tuple(ups))


def _upgrade_price(entry: ArmyEntry, upgrade: Upgrade, army: ArmyList, options: ArmyOptions) -> int:
    """What adding the upgrade would add to the unit's cost (quality % included if it applies)."""
    before = entry_cost(entry, army.faction, army.quality, options).total
    after = ArmyEntry(entry.profile, (*entry.upgrades, upgrade.name), entry.quality)
    return entry_cost(after, army.faction, army.quality, options).total - before

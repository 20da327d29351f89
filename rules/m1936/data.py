"""The Section II catalogue as data: unit, vehicle, gun, aircraft and transport profiles,
upgrades ("Mejoras"), quality, budgets and the levelled special rules of Section III.

Loaded once from `data/army_lists.json`; every profile keeps its seed section and raw row.
A value the seed does not give is `None` ("-" in the seed); a value rebuilt from a damaged row
is listed in `Profile.uncertain` with a `note`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import RuleError
from rules.i18n import msg
from rules.tables import load_json

DATA = Path(__file__).parent / "data" / "army_lists.json"
RULE = "M36-II"

Stat = int | tuple[int, int] | None
STAT_NAMES = ("fac", "fam", "fal", "pc", "pm", "pl", "d", "bf", "bl", "bt", "e", "i")


class Faction(StrEnum):
    NACIONALES = "Nacionales"
    REPUBLICANOS = "Republicanos"


class Quality(StrEnum):
    """Unit quality, in ascending order (II · Efectos de la calidad)."""

    VERDES = "Verdes"
    REGULARES = "Regulares"
    VETERANOS = "Veteranos"
    ELITE = "Élite"

    def raised(self) -> Quality:
        """One level up (Veteranía); Élite stays Élite."""
        order = list(Quality)
        return order[min(order.index(self) + 1, len(order) - 1)]


class Category(StrEnum):
    INFANTRY = "infantry"
    LIGHT_VEHICLE = "light_vehicle"
    AA_GUN = "aa_gun"
    AT_GUN = "at_gun"
    TANK = "tank"
    ARTILLERY = "artillery"
    AIRCRAFT = "aircraft"
    TRANSPORT = "transport"


_LEVEL = re.compile(r"^(?P<name>.*?)\s*\((?P<level>\d+)\)$")


def parse_rule(text: str) -> tuple[str, int | None]:
    """'LMG(2)' → ('LMG', 2); 'Munición (1)' → ('Munición', 1); 'Casco' → ('Casco', None)."""
    match = _LEVEL.match(text.strip())
    if match:
        return match["name"], int(match["level"])
    return text.strip(), None


@dataclass(frozen=True)
class Profile:
    """One row of a Section II list. Pairs such as 9/3 are (AP, HE) per the AP rule (III)."""

    faction: Faction
    category: Category
    name: str
    tipo: str
    cost: int
    rules: tuple[str, ...]
    section: str
    stats: dict[str, Stat] = field(default_factory=dict)
    move: tuple[int, int] | None = None
    unlabelled_stats: tuple[int, ...] = ()
    uncertain: tuple[str, ...] = ()
    note: str = ""
    seed_row: str = ""

    def rule_levels(self) -> dict[str, int | None]:
        return dict(parse_rule(r) for r in self.rules)

    def has_rule(self, name: str) -> bool:
        wanted = name.casefold()
        return any(n.casefold() == wanted for n in self.rule_levels())


@dataclass(frozen=True)
class Upgrade:
    """A "Mejora": flat cost, granting one special rule (type Ap or Mej, not explained)."""

    faction: Faction
    name: str
    type: str
    cost: int
    grants: str
    section: str

    @property
    def rule(self) -> tuple[str, int | None]:
        return parse_rule(self.grants)


@dataclass(frozen=True)
class LevelledRule:
    """Section III metadata of a rule with a level X (stacking or exclusive_best)."""

    name: str
    type: str
    direction: str
    max_level: int | None
    quality_modifiers: dict[Quality, int] | None


def _stat(value: Any) -> Stat:
    return tuple(value) if isinstance(value, list) else value


def _profile(row: dict[str, Any]) -> Profile:
    return Profile(
        faction=Faction(row["faction"]),
        category=Category(row["category"]),
        name=row["name"],
        tipo=row["tipo"],
        cost=row["cost"],
        rules=tuple(row["rules"]),
        section=row["section"],
        stats={k: _stat(v) for k, v in row.get("stats", {}).items()},
        move=tuple(row["move"]) if row.get("move") else None,
        unlabelled_stats=tuple(row.get("unlabelled_stats", ())),
        uncertain=tuple(row.get("uncertain", ())),
        note=row.get("note", ""),
        seed_row=row.get("seed_row", ""),
    )


@dataclass(frozen=True)
class Catalogue:
    raw: dict[str, Any]
    profiles: tuple[Profile, ...]
    upgrades: tuple[Upgrade, ...]
    levelled_rules: dict[str, LevelledRule]

    def profile(self, faction: Faction, name: str) -> Profile:
        for p in self.profiles:
            if p.faction is faction and p.name == name:
                return p
        raise RuleError(
            msg(
                "%(faction)s have no unit called %(name)s in their list",
                faction=faction,
                name=str(name),
            ),
            rule=RULE,
        )

    def faction_profiles(self, faction: Faction) -> tuple[Profile, ...]:
        return tuple(p for p in self.profiles if p.faction is faction)

    def upgrade(self, faction: Faction, name: str) -> Upgrade:
        for u in self.upgrades:
            if u.faction is faction and u.name == name:
                return u
        raise RuleError(
            msg("%(faction)s have no upgrade called %(name)s", faction=faction, name=str(name)),
            rule=f"{RULE} Mejoras",
        )

    def faction_upgrades(self, faction: Faction) -> tuple[Upgrade, ...]:
        return tuple(u for u in self.upgrades if u.faction is faction)

    def table(self, name: str) -> dict[str, Any]:
        """A small Section II/III table as stored: {"section": ..., "rows": {...}}."""
        return self.raw[name]


@cache
def catalogue() -> Catalogue:
    raw = load_json(DATA)
    upgrades = tuple(
        Upgrade(Faction(faction), u["name"], u["type"], u["cost"], u["grants"], u["section"])
        for faction, rows in raw["upgrades"].items()
        for u in rows
    )
    levelled = {
        name: LevelledRule(
            name,
            meta["type"],
            meta["direction"],
            meta["max_level"],
            {Quality(q): m for q, m in meta["quality_modifiers"].items()}
            if meta["quality_modifiers"]
            else None,
        )
        for name, meta in raw["levelled_rules"]["rows"].items()
    }
    return Catalogue(raw, tuple(_profile(r) for r in raw["profiles"]), upgrades, levelled)

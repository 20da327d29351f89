"""Parabellum Soldier nations, squad types and weapons, read once from `data/parabellum.json`.

Every value is transcribed from the seed (§6.6 weapons, §8 squad formation, the nation lists of
TOC section 10); each entry carries its seed reference in `ref`. A value the seed does not give
is stored as `None` with a `missing` note, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, Literal

from rules.errors import RuleError
from rules.i18n import msg
from rules.tables import load_json

DATA_FILE = Path(__file__).parent / "data" / "parabellum.json"

Role = Literal["officer", "nco", "mg_gunner", "mg_assistant", "rifleman"]
Experience = Literal["recruit", "regular", "veteran"]
SpecialistKind = Literal["radio", "medic", "political_officer"]
ROLES: tuple[Role, ...] = ("officer", "nco", "mg_gunner", "mg_assistant", "rifleman")
EXPERIENCES: tuple[Experience, ...] = ("recruit", "regular", "veteran")


@dataclass(frozen=True)
class Weapon:
    """A weapon as a nation list gives it: generic key, model name, range and weapon rules."""

    key: str
    model: str
    range_cm: int
    rules: frozenset[str]
    ref: str
    min_range_cm: int = 0
    automatic_within_cm: int | None = None

    def has(self, rule: str) -> bool:
        return rule in self.rules


@dataclass(frozen=True)
class WeaponOption:
    """One "MEJORAS DE ARMAMENTO" line: a swap (base weapon → new one) or an extra weapon."""

    id: str
    kind: Literal["swap", "extra"]
    sources: frozenset[str]
    targets: frozenset[str]
    cost: Decimal
    limit: int | None
    text_es: str


@dataclass(frozen=True)
class BasicSlot:
    role: Role
    count: int
    weapon: str


@dataclass(frozen=True)
class SquadType:
    """One of the sixteen squad types; `veterans`/`recruits`: None = any number, 0 = not offered."""

    key: str
    nation: str
    name: str
    pm: Decimal
    special_rules: frozenset[str]
    options: tuple[WeaponOption, ...]
    veterans: int | None
    recruits: int | None
    ref: str

    @property
    def id(self) -> str:
        return f"{self.nation}/{self.key}"

    def option(self, option_id: str) -> WeaponOption | None:
        return next((o for o in self.options if o.id == option_id), None)


@dataclass(frozen=True)
class Nation:
    code: str
    name: str
    ref: str
    size: int
    special_rules: frozenset[str]
    weapons: dict[str, Weapon]
    basic_squad: tuple[BasicSlot, ...]
    specialists: tuple[SpecialistKind, ...]
    squads: dict[str, SquadType]

    def base_weapon(self, role: Role) -> str:
        return next(s.weapon for s in self.basic_squad if s.role == role)

    def role_count(self, role: Role) -> int:
        return next(s.count for s in self.basic_squad if s.role == role)


def raw() -> dict[str, Any]:
    """The JSON document as stored (shared by every loader below)."""
    return load_json(DATA_FILE)


def _weapon(key: str, entry: dict[str, Any], ref: str) -> Weapon:
    return Weapon(
        key=key,
        model=entry["model"],
        range_cm=entry["range_cm"],
        rules=frozenset(entry["rules"]),
        ref=entry.get("ref", ref),
        min_range_cm=entry.get("min_range_cm", 0),
        automatic_within_cm=entry.get("automatic_within_cm"),
    )


def _option(entry: dict[str, Any]) -> WeaponOption:
    return WeaponOption(
        id=entry["id"],
        kind=entry["kind"],
        sources=frozenset(entry.get("from", ())),
        targets=frozenset(entry["to"]),
        cost=Decimal(str(entry["cost"])),
        limit=entry["limit"],
        text_es=entry["text_es"],
    )


@cache
def nations() -> dict[str, Nation]:
    out = {}
    for code, n in raw()["nations"].items():
        nation_rules = frozenset(n["special_rules"])
        squads = {
            key: SquadType(
                key=key,
                nation=code,
                name=s["name"],
                pm=Decimal(str(s["pm"])),
                special_rules=nation_rules | frozenset(s["special_rules"]),
                options=tuple(_option(o) for o in s["options"]),
                veterans=s["veterans"],
                recruits=s["recruits"],
                ref=s["ref"],
            )
            for key, s in n["squads"].items()
        }
        out[code] = Nation(
            code=code,
            name=n["name"],
            ref=n["ref"],
            size=n["size"],
            special_rules=nation_rules,
            weapons={k: _weapon(k, w, n["ref"]) for k, w in n["weapons"].items()},
            basic_squad=tuple(BasicSlot(**slot) for slot in n["basic_squad"]),
            specialists=tuple(n["specialists"]),
            squads=squads,
        )
    return out


def nation(code: str) -> Nation:
    try:
        return nations()[code]
    except KeyError:
        raise RuleError(
            msg(
                "unknown nation %(code)s; choose one of %(v)s",
                code=str(code),
                v=", ".join(nations()),
            ),
            rule="10",
        ) from None


def squad_type(squad_id: str) -> SquadType:
    """A squad type by id, `NATION/key` (for example "GER/grenadier")."""
    code, _, key = squad_id.partition("/")
    squads = nation(code).squads
    if key not in squads:
        raise RuleError(
            msg(
                "%(code)s has no squad %(key)s; choose one of %(v)s",
                code=code,
                key=str(key),
                v=", ".join(squads),
            ),
            rule="8.5",
        )
    return squads[key]


def all_squad_types() -> list[SquadType]:
    return [s for n in nations().values() for s in n.squads.values()]


@cache
def generic_weapons() -> dict[str, Weapon]:
    table = raw()["generic_weapons"]
    return {k: _weapon(k, w, table["ref"]) for k, w in table["weapons"].items()}


def weapon(nation_code: str, key: str) -> Weapon:
    """A nation's weapon by generic key; grenades (§6.4) are carried by every soldier."""
    weapons = nation(nation_code).weapons
    if key in weapons:
        return weapons[key]
    if key == "grenades":
        return generic_weapons()["grenades"]
    raise RuleError(
        msg("%(nation_code)s fields no %(key)s", nation_code=nation_code, key=str(key)),
        rule=nation(nation_code).ref,
    )


def costs() -> dict[str, Any]:
    return raw()["costs"]


def experience_mods(level: Experience) -> dict[str, int]:
    """Evasion, assault and aim modifiers and blue tokens of an experience level (§8.2.2)."""
    return raw()["experience"][level]


def special_rule(key: str) -> dict[str, Any]:
    return raw()["special_rules"][key]

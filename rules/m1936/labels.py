"""Words a player reads for the "1936" army lists: factions, roles, qualities, game sizes.

Stored lists keep the seed's Spanish values (the enums of `data` and `army`); these messages
are their English ids, with the seed's Spanish as the translation in the catalogue.
"""

from __future__ import annotations

from rules.i18n import Msg, msg

FACTIONS: dict[str, Msg] = {
    "Nacionales": msg("Nationalists"),
    "Republicanos": msg("Republicans"),
}

ROLES: dict[str, Msg] = {
    "Atacante": msg("Attacker"),
    "Defensor": msg("Defender"),
}

QUALITIES: dict[str, Msg] = {
    "Verdes": msg("Green"),
    "Regulares": msg("Regulars"),
    "Veteranos": msg("Veterans"),
    "Élite": msg("Elite"),
}

SIZES: dict[str, Msg] = {
    "Pequeña": msg("Small"),
    "Mediana": msg("Medium"),
    "Grande": msg("Large"),
}

#: Profile values the seed's damaged rows leave in doubt (`Profile.uncertain`).
STATS: dict[str, Msg] = {
    "cost": msg("cost"),
    "fac": msg("short-range fire"),
    "fam": msg("medium-range fire"),
    "fal": msg("long-range fire"),
    "pc": msg("short-range penetration"),
    "pm": msg("medium-range penetration"),
    "pl": msg("long-range penetration"),
    "d": msg("damage"),
    "bf": msg("front armour"),
    "bl": msg("side armour"),
    "bt": msg("rear armour"),
    "e": msg("structure points"),
    "i": msg("initiative"),
}


def label(table: dict[str, Msg], value: str | None) -> Msg | str:
    """The message for a stored value, or the value itself when the table has none."""
    if value is None:
        return ""
    return table.get(str(value), str(value))

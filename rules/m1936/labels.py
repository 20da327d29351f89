"""Words a player reads for "1936": factions, roles, qualities, game sizes, scenery.

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

TERRAINS: dict[str, Msg] = {
    "Llanura": msg("Plain"),
    "Colinas": msg("Hills"),
    "Costa": msg("Coast"),
    "Ciudad": msg("City"),
    "Bosque": msg("Forest"),
}

#: The seed's sector types (I.2); the seed repeats some headings, suffixed A/B/C here.
SECTOR_TYPES: dict[str, Msg] = {
    "Sector de Campo A": msg("Field sector A"),
    "Sector de Campo B": msg("Field sector B"),
    "Sector de Pueblo": msg("Village sector"),
    "Sector de Río": msg("River sector"),
    "Terreno Abrupto A": msg("Rough ground A"),
    "Terreno Abrupto B": msg("Rough ground B"),
    "Sector de Bosque": msg("Forest sector"),
    "Sector de Bosque A": msg("Forest sector A"),
    "Sector de Bosque B": msg("Forest sector B"),
    "Sector de Bosque C": msg("Forest sector C"),
}

ELEMENTS: dict[str, Msg] = {
    "Bosque": msg("Woods"),
    "Carretera": msg("Road"),
    "Ciudad (12–15 casas)": msg("Town (12–15 houses)"),
    "Elevaciones nivel 0": msg("Elevation, level 0"),
    "Elevaciones nivel 1": msg("Elevation, level 1"),
    "Elevaciones nivel 2": msg("Elevation, level 2"),
    "Línea de arbustos (5)": msg("Line of bushes (5)"),
    "Muro": msg("Wall"),
    "Poblado (2–4 casas)": msg("Hamlet (2–4 houses)"),
    "Río": msg("River"),
    "Sembrado": msg("Crop field"),
    "Zona de arbustos (5)": msg("Patch of bushes (5)"),
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

"""Words a player reads for TCS's states and kinds: op sheet types and states, a unit's
entry on a sheet, the light, unit categories. The engine keeps its identifiers; these
messages are what the site shows (and stores in log entries, to render in the reader's
language)."""

from __future__ import annotations

from rules.i18n import Msg, msg

SHEET_TYPES: dict[str, Msg] = {
    "prepared_defense": msg("Prepared Defense"),
    "attack": msg("Attack"),
    "hasty_defense": msg("Hasty Defense"),
    "move": msg("Move"),
}

SHEET_STATES: dict[str, Msg] = {
    "unimplemented": msg("Unimplemented"),
    "prelims_active": msg("Preliminary instructions"),
    "implemented": msg("Implemented"),
    "succeeded": msg("Succeeded"),
    "failed": msg("Failed"),
}

ENTRY_STATES: dict[str, Msg] = {
    "active": msg("active"),
    "struck": msg("struck"),
    "reassigned": msg("reassigned"),
    "succeeded": msg("succeeded"),
    "failed": msg("failed"),
    "eliminated": msg("eliminated"),
}

LIGHT: dict[str, Msg] = {
    "day": msg("Day"),
    "dawn": msg("Dawn"),
    "dusk": msg("Dusk"),
    "twilight": msg("Twilight"),
    "night": msg("Night"),
}

PREP_OUTCOMES: dict[str, Msg] = {
    "implemented": msg("implemented"),
    "prelims_started": msg("prelims started"),
    "not_implemented": msg("not implemented"),
}

CATEGORIES: dict[str, Msg] = {
    "infantry": msg("Infantry"),
    "heavy_weapon": msg("Heavy weapon"),
    "vehicle": msg("Vehicle"),
    "transport": msg("Transport"),
}


def label(table: dict[str, Msg], key: object) -> Msg | str:
    """The words for `key` (an enum or its value); an unknown key is shown as it is."""
    value = getattr(key, "value", key)
    return table.get(str(value), str(value))


def sheet_type(key: object) -> Msg | str:
    return label(SHEET_TYPES, key)


def sheet_state(key: object) -> Msg | str:
    return label(SHEET_STATES, key)


def entry_state(key: object) -> Msg | str:
    return label(ENTRY_STATES, key)


def light(key: object) -> Msg | str:
    return label(LIGHT, key)

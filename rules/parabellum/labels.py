"""Words a player reads for Parabellum's game data: roles, soldiers, weapons, orders.

The data file keeps the seed's keys and Spanish names (stored rosters use them, so they never
change); these messages are the English ids, with the seed's Spanish as their translation in
the catalogue. A name that is the same in both languages (a weapon model such as "MG-42") is
shown as the seed gives it.
"""

from __future__ import annotations

from rules.i18n import Msg, msg

ROLES: dict[str, Msg] = {
    "officer": msg("Officer"),
    "nco": msg("NCO"),
    "mg_gunner": msg("MG gunner"),
    "mg_assistant": msg("MG assistant"),
    "rifleman": msg("Rifleman"),
}

EXPERIENCES: dict[str, Msg] = {
    "recruit": msg("recruit"),
    "regular": msg("regular"),
    "veteran": msg("veteran"),
}

SPECIALISTS: dict[str, Msg] = {
    "radio": msg("radio operator"),
    "medic": msg("medic"),
    "political_officer": msg("political officer (commissar)"),
}

NATIONS: dict[str, Msg] = {
    "GER": msg("Germany"),
    "USA": msg("United States"),
    "GBR": msg("Great Britain"),
    "USSR": msg("Soviet Union"),
    "ITA": msg("Italy (RSI)"),
    "FIN": msg("Finland"),
}

SQUADS: dict[str, Msg] = {
    "GER/grenadier": msg("Grenadiers"),
    "USSR/rifle_squad": msg("Rifle squad"),
    "USSR/guards": msg("Guards squad"),
}

#: Weapon kinds (the generic keys of §6.6 and the nation lists).
WEAPONS: dict[str, Msg] = {
    "rifle": msg("rifle"),
    "semi_auto_rifle": msg("semi-automatic rifle"),
    "smg": msg("submachine gun"),
    "carbine": msg("carbine"),
    "pistol": msg("pistol"),
    "assault_rifle": msg("assault rifle"),
    "automatic_rifle": msg("automatic rifle"),
    "mg": msg("machine gun"),
    "panzerfaust": msg("Panzerfaust"),
    "grenade_launcher": msg("grenade launcher"),
    "grenades": msg("grenades"),
}

#: §9.3 casual objectives, by key.
CASUAL_OBJECTIVES: dict[str, Msg] = {
    "take_line": msg("Take the enemy line"),
    "infiltration": msg("Infiltration"),
    "control_objective": msg("Control the objective"),
    "snake": msg("We'll cut off the snake's head!"),
    "scum": msg("We'll wipe out that scum whatever it takes, no mercy!"),
    "minimal_reinforcements": msg("We'll make do with the bare minimum of reinforcements!"),
    "no_more_losses": msg("We won't lose any more men!"),
}

#: Weapon rules (§6.6).
WEAPON_RULES: dict[str, Msg] = {
    "cumbersome": msg("Cumbersome"),
    "aim": msg("Aim"),
    "assault": msg("Assault"),
    "assistant": msg("Assistant"),
    "automatic": msg("Automatic"),
    "bolt": msg("Bolt action"),
    "grenade_projector": msg("Grenade projector"),
    "semi_automatic": msg("Semi-automatic"),
    "single_use": msg("Single use"),
    "grenade_launcher": msg("Grenade launcher"),
    "grenade": msg("Grenades"),
}

#: Model names the seed spells in a way a reader would not (translated, not corrected in data).
MODELS: dict[str, Msg] = {
    "Carabine M1": msg("M1 Carbine"),
    "M7 granade launcher": msg("M7 grenade launcher"),
    "Granadas": msg("grenades"),
    "Tokapeba TT": msg("Tokarev TT"),
}

#: The extra weapons and swaps of the squad lists (§8.2.1), by option id.
OPTIONS: dict[str, Msg] = {
    "panzerfaust": msg("Panzerfaust"),
    "grenade_launcher": msg("M7 grenade launcher"),
    "smg_swap": msg("submachine gun (or carbine) instead of the rifle"),
    "assault_rifle": msg("assault rifle instead of the rifle or submachine gun"),
}

#: §9.2 priority orders and officer directives, seed names translated.
PRIORITY_ORDERS: dict[int, Msg] = {
    1: msg("Take the enemy line"),
    2: msg("Hold the position"),
    3: msg("Control the objective"),
}
DIRECTIVES: dict[int, Msg] = {
    1: msg("We won't lose any more men!"),
    2: msg("We'll cut off the snake's head!"),
    3: msg("We'll wipe out that scum whatever it takes, no mercy!"),
    4: msg("That machine gun is going to mow us down!"),
    5: msg("Those over there look important!"),
    6: msg("We'll make do with the bare minimum of reinforcements!"),
}

#: What an evasion roll left of a soldier (§6.2).
OUTCOMES: dict[str, Msg] = {
    "unharmed": msg("unharmed"),
    "suppressed": msg("suppressed"),
    "eliminated": msg("eliminated"),
}

#: Reinforcements a player may call (§7).
SUPPORTS: dict[str, Msg] = {
    "artillery": msg("artillery"),
    "sniper": msg("a sniper"),
    "fire_at_will": msg("MG fire at will"),
    "light_mortar": msg("the light mortar"),
    "anticipation": msg("anticipation"),
}

#: Actions of an activated soldier (§4.3.2, §4.3.3, §6.6, §8.3.2).
ACTIONS: dict[str, Msg] = {
    "return_to_action": msg("return to action"),
    "covering_fire": msg("call covering fire"),
    "no_move": msg("no move"),
    "cautious": msg("cautious move"),
    "double_time": msg("double-time move"),
    "crawl": msg("crawl"),
    "aim": msg("aim"),
    "shoot": msg("shoot"),
    "grenade": msg("throw a grenade"),
    "assault": msg("assault"),
    "inspire": msg("inspire courage"),
    "order": msg("give an order"),
    "tend": msg("tend the wounded"),
    "projector": msg("fire the grenade projector"),
    "launcher": msg("fire the grenade launcher"),
}

#: Casualty causes of the battle record.
CAUSES: dict[str, Msg] = {
    "shot": msg("shot"),
    "reaction_shot": msg("reaction shot"),
    "assault": msg("assault"),
    "grenade": msg("grenade"),
    "grenade_launcher": msg("M7 grenade launcher"),
    "projector": msg("grenade projector"),
    "artillery": msg("artillery"),
    "light_mortar": msg("light mortar"),
    "sniper": msg("sniper"),
    "fire_at_will": msg("MG fire at will"),
    "other": msg("other"),
}


def label(table: dict, key, fallback: str | None = None) -> Msg | str:
    """The message for `key` in `table`, or the key itself (a name the seed gives as is)."""
    found = table.get(key)
    if found is not None:
        return found
    return str(key) if fallback is None else fallback


def joined(items: list[Msg | str]) -> Msg | str:
    """Several messages as one, separated by semicolons ("" for none)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return msg("%(a)s; %(b)s", a=items[0], b=joined(items[1:]))


def role_label(role: str) -> Msg | str:
    return label(ROLES, role, role.replace("_", " "))


def soldier_name(soldier_id: str) -> Msg | str:
    """A soldier's name from its id: "mg_assistant-1" → "MG assistant 1", "officer" → "Officer".

    Ids of replacements and other hand-made ids are shown as they are."""
    role, _, number = soldier_id.rpartition("-")
    if role in ROLES and number.isdigit():
        return msg("%(role)s %(n)s", role=ROLES[role], n=int(number))
    if soldier_id in ROLES:
        return ROLES[soldier_id]
    return soldier_id


def model_label(model: str) -> Msg | str:
    return label(MODELS, model)


def option_label(option_id: str) -> Msg | str:
    return label(OPTIONS, option_id, option_id.replace("_", " "))


def nation_label(code: str, fallback: str = "") -> Msg | str:
    return label(NATIONS, code, fallback or code)


def squad_label(squad_id: str, fallback: str = "") -> Msg | str:
    return label(SQUADS, squad_id, fallback or squad_id)

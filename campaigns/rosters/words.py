"""The words of the roster builders and their history, in the reader's language.

The engines keep the seed's keys and Spanish names (`rules.parabellum.labels`,
`rules.m1936.labels` give their messages); this module turns them into the labels the
builder shows and the messages the roster history stores.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.i18n import say
from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.m1936 import labels as m36_labels
from rules.m1936.data import catalogue
from rules.parabellum import labels as pb_labels
from rules.parabellum.data import all_squad_types, nation, weapon
from rules.parabellum.data import squad_type as squad_type_of


def squad_name(squad_id: str) -> str:
    """ "Germany · Grenadiers" in the reader's language (the seed's names are Spanish)."""
    try:
        st = squad_type_of(squad_id)
    except RuleError:
        return squad_id
    nat = say(pb_labels.nation_label(st.nation, nation(st.nation).name))
    return f"{nat} · {say(pb_labels.squad_label(st.id, st.name))}"


def squad_choices() -> list[tuple[str, str]]:
    return [(s.id, f"{squad_name(s.id)} ({s.pm} PM)") for s in all_squad_types()]


def soldier_name(soldier_id: str) -> str:
    """ "MG assistant 1" for "mg_assistant-1", in the reader's language."""
    return say(pb_labels.soldier_name(soldier_id))


FIELD_LABELS = {
    "weapon": msg("weapon"),
    "extras": msg("extras"),
    "experience": msg("experience"),
    "specialist": msg("specialist"),
    "scout": msg("scout"),
}


def edit_summary(code: str, soldier_id: str, field: str, value: Any) -> Msg:
    """The history line of one builder edit: "Rifleman 3 became a scout"."""
    who = pb_labels.soldier_name(soldier_id)
    if field == "scout":
        if value:
            return msg("%(soldier)s became a scout", soldier=who)
        return msg("%(soldier)s is no longer a scout", soldier=who)
    if field == "specialist":
        if value:
            return msg(
                "%(soldier)s became the %(specialist)s",
                soldier=who,
                specialist=pb_labels.label(pb_labels.SPECIALISTS, value),
            )
        return msg("%(soldier)s is no longer a specialist", soldier=who)
    if field == "experience":
        return msg(
            "%(soldier)s is now %(experience)s",
            soldier=who,
            experience=pb_labels.label(pb_labels.EXPERIENCES, value),
        )
    if field == "extras":
        if not value:
            return msg("%(soldier)s carries no extra weapon", soldier=who)
        return msg("%(soldier)s also carries %(extras)s", soldier=who, extras=extras_msg(value))
    return msg(
        "%(soldier)s now carries the %(weapon)s", soldier=who, weapon=weapon_msg(code, value)
    )


def extras_msg(extras) -> Msg | str:
    """One or two extra weapons as a message ("Panzerfaust and M7 grenade launcher")."""
    names = [pb_labels.option_label(e) for e in extras]
    if len(names) == 1:
        return names[0]
    return msg("%(a)s and %(b)s", a=names[0], b=extras_msg(extras[1:]))


def weapon_msg(code: str, key: str) -> Msg | str:
    try:
        return pb_labels.model_label(weapon(code, key).model)
    except RuleError:
        return pb_labels.label(pb_labels.WEAPONS, key)


def unit_option(unit) -> dict[str, Any]:
    """A unit the builder offers; a unit with values rebuilt from a damaged rulebook row
    says which ones (the ⚠ in the list)."""
    return {**unit.to_dict(), "warning": _doubt_text(unit.uncertain)}


def doubtful(faction, profile: str) -> str:
    try:
        return _doubt_text(catalogue().profile(faction, profile).uncertain)
    except RuleError:
        return ""


def _doubt_text(uncertain) -> str:
    if not uncertain:
        return ""
    doubtful = ", ".join(say(m36_labels.label(m36_labels.STATS, k)) for k in uncertain)
    return _("rebuilt from a damaged rulebook row, check against your book: %(values)s") % {
        "values": doubtful
    }


#: The house rules a player switches on, worded as on the house-rules form.
HOUSE_RULES = {
    "casualties_carry_over": msg("HR-1 casualties carry over (3D6 recovery roll after the battle)"),
    "promotion": msg("HR-2 promotion of survivors"),
    "replacements": msg("HR-3 replacements: a recruit for each dead soldier"),
    "carry_over_po": msg("HR-4 PO carry-over"),
    "carry_casualties": msg("Carry casualties over"),
    "carry_decimation": msg("Carry decimation over"),
    "carry_vehicle_damage": msg("Carry vehicle damage over"),
    "carry_destroyed": msg("Destroyed units stay destroyed"),
}


def house_rules_summary(on: list[str], army: dict[str, Any] | None = None) -> Msg:
    """The history line of a house-rules change: which rules are now on, in words, and any
    1936 army-list readings other than the defaults."""
    if not on:
        said = msg("House rules switched on: none")
    else:
        names = [HOUSE_RULES.get(k, k) for k in on]
        said = msg("House rules switched on: %(on)s", on=pb_labels.joined(names))
    if army is None:
        return said
    readings = pb_labels.joined(army_readings_said(army)) or msg("the rulebook's defaults")
    return msg("%(hr)s; army-list readings: %(r)s", hr=said, r=readings)


#: The 1936 army-list readings (`rules.m1936.army.ArmyOptions`): label naming the rule, the
#: default (the seed's literal text) and the other reading, from rules/m1936/DECISIONS.md.
ARMY_READINGS = {
    "rounding": msg("Rounding of quality costs [M36-II]"),
    "quality_applies_to_upgrades": msg("Quality percentage on upgrades too [M36-II]"),
    "per_unit_quality": msg("Quality per unit [M36-II Efectos de la calidad]"),
    "apply_rule_quality_modifiers": msg("Quality modifiers of Líder, Observar and Cavar [M36-III]"),
    "fog_of_war_token_limit": msg("At most 15 units (fog of war numbers) [M36-XIV.1]"),
}
#: The form's box for the one reading that is on by default switches it off.
NO_RULE_MODIFIERS = msg("Leave out the quality modifiers of Líder, Observar and Cavar [M36-III]")
ARMY_HELP = {
    "rounding": msg(
        "The rulebook gives no rounding for the quality percentage (75 × 1.30 = 97.5). "
        "Default: half up (98); also always down (97) or always up. The attacker's budget "
        "(the defender's plus half) rounds the same way."
    ),
    "quality_applies_to_upgrades": msg(
        "Default: the percentage applies to the base cost only and upgrades cost their flat "
        "price. On: the percentage applies to the upgrades too."
    ),
    "per_unit_quality": msg(
        "Default: one quality for the whole force; a unit differs only through Veteranía. "
        "On: each unit may have its own quality and pays its percentage."
    ),
    "apply_rule_quality_modifiers": msg(
        "Default: Section III adds the quality modifiers (Green +1, Regular 0, Veteran −1, "
        "Elite 0) to the levels of these rules. Ticked: the levels stay as listed."
    ),
    "fog_of_war_token_limit": msg(
        "Fog of war numbers units 1 to 15 (XIV.1), an optional rule. Default: no limit. "
        "On: a list with more than 15 units is not valid."
    ),
}
ROUNDINGS = {
    "half_up": msg("half up (default)"),
    "down": msg("always down"),
    "up": msg("always up"),
}


def army_readings_said(readings: dict[str, Any]) -> list[Msg]:
    """The army-list readings that differ from the defaults, in words."""
    said = []
    for key, value in readings.items():
        if key == "rounding":
            said.append(msg("%(r)s: %(v)s", r=ARMY_READINGS[key], v=ROUNDINGS[value]))
        else:
            yes = msg("on") if value else msg("off")
            said.append(msg("%(r)s: %(v)s", r=ARMY_READINGS.get(key, key), v=yes))
    return said

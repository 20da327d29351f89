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


def house_rules_summary(on: list[str]) -> Msg:
    """The history line of a house-rules change: which rules are now on, in words."""
    if not on:
        return msg("House rules switched on: none")
    names = [HOUSE_RULES.get(k, k) for k in on]
    return msg("House rules switched on: %(on)s", on=pb_labels.joined(names))

"""`{% load tcs_words %}`: TCS states and kinds in the reader's language.

``{{ e.mission|tcs_mission }}`` an op sheet type (or a reserve when empty),
``{{ e.status|tcs_entry }}`` a unit's entry on a sheet, ``{{ s|tcs_sheet_state }}`` a
sheet's state, ``{{ turn.light|tcs_light }}`` the light, ``{{ combat|combat_title }}`` and
``{{ combat|combat_result }}`` a procedure resolved in the turn.
"""

from django import template

from campaigns.i18n import say
from campaigns.services.tcs.fire import result_text
from rules.i18n import msg
from rules.tcs import labels

register = template.Library()


@register.filter
def tcs_mission(value) -> str:
    return say(labels.sheet_type(value) if value else msg("reserve"))


@register.filter
def tcs_entry(value) -> str:
    return say(labels.entry_state(value))


@register.filter
def tcs_sheet_state(value) -> str:
    return say(labels.sheet_state(value)) if value else ""


@register.filter
def tcs_light(value) -> str:
    return say(labels.light(value))


COMBAT_TITLES = {
    "area_fire": msg("Area fire"),
    "point_fire": msg("Point fire"),
    "at_rolls": msg("AT rolls"),
    "artillery": msg("Artillery barrage"),
    "artillery_mission": msg("Artillery mission"),
    "morale_check": msg("Morale check"),
    "recovery": msg("Recovery"),
}


@register.filter
def combat_title(combat) -> str:
    return say(COMBAT_TITLES.get(combat.kind, msg("Procedure")))


@register.filter
def combat_result(combat) -> str:
    """The result in words: fire as read off the table, a check as its Morale Table result."""
    if combat.kind in ("area_fire", "point_fire", "at_rolls", "artillery"):
        return result_text(combat)
    if combat.kind == "morale_check":
        return combat.result.get("result_words", "")
    return say(msg("one level recovered"))

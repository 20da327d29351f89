"""`{% load tcs_words %}`: TCS states and kinds in the reader's language.

``{{ e.mission|tcs_mission }}`` an op sheet type (or a reserve when empty),
``{{ e.status|tcs_entry }}`` a unit's entry on a sheet, ``{{ s|tcs_sheet_state }}`` a
sheet's state, ``{{ turn.light|tcs_light }}`` the light, ``{{ combat|combat_title }}`` and
``{{ combat|combat_result }}`` a procedure resolved in the turn.
"""

from django import template

from campaigns.i18n import say
from campaigns.services.tcs.common import shown_value
from campaigns.tcs import combat_words
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


register.filter("combat_title", combat_words.combat_title)


@register.filter
def step_value(value) -> str:
    """An explanation step's value as the log shows it: states in words, lists joined."""
    return say(shown_value(value))


register.filter("combat_result", combat_words.combat_result)

"""`{% load words %}`: the engine's message ids in the reader's language (campaigns/i18n.py).

``{{ entry|say_entry }}`` a log entry's summary, ``{{ step|say_step }}`` a stored
explanation step, ``{{ value|say }}`` a message, a stored message dict or a plain value,
``{{ battle.position|position }}`` a battle's position.
"""

from django import template
from django.utils.translation import gettext_lazy as _

from campaigns import i18n
from campaigns.cc.labels import position_words

register = template.Library()

register.filter("say", i18n.say)
register.filter("say_step", i18n.say_step)
register.filter("say_entry", i18n.say_entry)


_ROLL_SOURCES = {
    "server": _("the site's dice"),
    "entered": _("dice at the table"),
    "replay": _("replay"),
}


@register.filter
def roll_source(value: str) -> str:
    """Who rolled: the site or the players at the table."""
    return _ROLL_SOURCES.get(value, value)


@register.filter
def position(value: str | None) -> str:
    """A battle's position in the reader's words ("Scenario 33" → "Escenario 33")."""
    return i18n.say(position_words(value))

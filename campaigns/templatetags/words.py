"""`{% load words %}`: the engine's message ids in the reader's language (campaigns/i18n.py).

``{{ entry|say_entry }}`` a log entry's summary, ``{{ step|say_step }}`` a stored
explanation step, ``{{ value|say }}`` a message, a stored message dict or a plain value.
"""

from django import template

from campaigns import i18n

register = template.Library()

register.filter("say", i18n.say)
register.filter("say_step", i18n.say_step)
register.filter("say_entry", i18n.say_entry)

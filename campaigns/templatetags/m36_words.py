"""`{% load m36_words %}`: "1936" scenery in the reader's language.

The scenario sheet stores the seed's Spanish names (terrains, sector types, elements,
roles); ``{{ value|m36:"element" }}`` shows the reader's words for one of them.
"""

from django import template

from campaigns.i18n import say
from rules.m1936 import labels

register = template.Library()

_TABLES = {
    "terrain": labels.TERRAINS,
    "sector": labels.SECTOR_TYPES,
    "element": labels.ELEMENTS,
    "role": labels.ROLES,
}


@register.filter
def m36(value, kind: str) -> str:
    return say(labels.label(_TABLES[kind], value))

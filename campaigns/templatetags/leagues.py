"""Words of the league pages: a Combat Commander win type's name in the reader's language."""

from django import template

from campaigns.forms_leagues import WIN_TYPE_LABELS

register = template.Library()


@register.filter
def win_type(value) -> str:
    """``objective_5`` → "Objective 5 (sudden death)"; an unknown value as it is."""
    return str(WIN_TYPE_LABELS.get(value, value or ""))

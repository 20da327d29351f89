"""What the roster and skirmish forms share: choices of engine enums, the dice fields."""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from rules.m1936 import labels as m36_labels

ROLE_CHOICES = [("attacker", _("Attacker")), ("defender", _("Defender"))]

say_lazy = lazy(say, str)


def enum_choices(enum, words: dict | None = None) -> list[tuple[str, str]]:
    """Choices of an engine enum: the stored (seed) value, shown as its translated label."""
    if not words:
        return [(m.value, m.value) for m in enum]
    return [(m.value, say_lazy(m36_labels.label(words, m.value))) for m in enum]


class DiceForm(forms.Form):
    dice_mode = forms.ChoiceField(
        label=_("Dice"),
        choices=[("server", _("The server rolls")), ("entered", _("We rolled at the table"))],
        initial="server",
    )
    dice = forms.CharField(
        label=_("Rolls from the table, in order"),
        required=False,
        max_length=400,
        help_text=_("Separate rolls with “;”. A 3D6 is three faces, e.g. “3 5 6; 2 3 5”."),
    )

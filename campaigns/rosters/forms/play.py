"""Forms every skirmish battle has while it is played: its rule readings and the undo of the
last action."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.rosters.readings import READINGS, Reading, battle_readings, readings_for

ON_OFF = [("on", _("On")), ("off", _("Off"))]
ON_OFF_VALUES = ("on", "off")  # the API schema's name for this choice set (settings)


def _field(r: Reading) -> forms.ChoiceField:
    choices = ON_OFF if r.choices is None else list(r.choices)
    return forms.ChoiceField(label=r.label, choices=choices, required=False, help_text=r.help)


class ReadingsForm(forms.Form):
    """The battle's rule readings, each labelled with the rule it changes: `on`/`off` or
    one of its choices. A reading left out keeps its value; a battle offers only its own
    game's readings."""

    def __init__(self, *args, battle=None, me=None, **kwargs):
        super().__init__(*args, **kwargs)
        system = battle.system if battle is not None else ""
        current = battle_readings(system, battle.readings if battle is not None else None)
        own = {r.key: r for r in readings_for(system)}
        for key in list(self.fields):
            if key not in own:
                del self.fields[key]
                continue
            r, field = own[key], self.fields[key]
            field.label = f"{gettext(r.label)} [{r.rule}]"
            field.help_text = gettext(r.help)
            field.choices = [(v, gettext(t)) for v, t in field.choices]
            value = current[key]
            field.initial = ("on" if value else "off") if r.choices is None else value

    def values(self) -> dict:
        """The readings the post names (blank fields keep theirs)."""
        return {k: v for k, v in self.cleaned_data.items() if v not in ("", None)}


for _reading in (r for group in READINGS.values() for r in group):
    ReadingsForm.base_fields[_reading.key] = _field(_reading)


class UndoForm(forms.Form):
    """No fields: the last action of the battle is undone, if it was yours."""

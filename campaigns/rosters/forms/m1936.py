"""A "1936" battle: the scenario, weather, construction, morale, performance, bogging."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.grid import GridField
from campaigns.i18n import say
from campaigns.models import bounds as b
from campaigns.rosters.forms.common import DiceForm, enum_choices, say_lazy
from campaigns.rosters.sector_grid import SectorTableGrid
from rules.m1936 import construction as m36c
from rules.m1936 import labels as m36_labels
from rules.m1936 import scenario as m36s
from rules.m1936 import weather as m36w
from rules.m1936.bogging import Ground
from rules.m1936.morale import UnitState


class ScenarioForm(DiceForm):
    terrain = forms.ChoiceField(
        label=_("Terrain"), choices=enum_choices(m36s.Terrain, m36_labels.TERRAINS)
    )
    user_table = GridField(
        SectorTableGrid(),
        label=_("Costa / Ciudad sector table"),
        help_text=_(
            "Only for Costa or Ciudad, which have no table in the rulebook: name the 4 sector "
            "types and give the minimum and maximum count of each element in a sector of "
            "that type."
        ),
    )


class TieForm(forms.Form):
    order = forms.ChoiceField(label=_("Order for the tied sector types"), choices=[])

    def __init__(self, *args, options=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["order"].choices = [
            ("|".join(o), " < ".join(say(m36_labels.label(m36_labels.SECTOR_TYPES, t)) for t in o))
            for o in options
        ]


class PlanForm(forms.Form):
    sector = forms.IntegerField(label=_("Sector"), min_value=1, max_value=4)
    last_piece = forms.ChoiceField(
        label=_("Last piece, placed by the rival"),
        choices=[("", "—"), *[(e, say_lazy(m36_labels.ELEMENTS[e])) for e in m36s.ELEMENTS]],
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i, element in enumerate(m36s.ELEMENTS):
            self.fields[f"e{i}"] = forms.IntegerField(
                label=say_lazy(m36_labels.ELEMENTS[element]),
                required=False,
                **b.form_range(b.ELEMENT_COUNT),
            )

    def counts(self) -> dict[str, int]:
        return {
            e: self.cleaned_data[f"e{i}"]
            for i, e in enumerate(m36s.ELEMENTS)
            if self.cleaned_data.get(f"e{i}") is not None
        }


class WeatherForm(DiceForm):
    season = forms.ChoiceField(label=_("Season"), choices=enum_choices(m36w.Season))


class WeatherChangeForm(DiceForm):
    turn = forms.IntegerField(label=_("Turn (10, 20, 30 …)"), min_value=10, max_value=b.TURN[1])


class ConstructionForm(forms.Form):
    waiting_days = forms.IntegerField(
        label=_("Days of waiting"), initial=0, **b.form_range(b.WAITING_DAYS)
    )


class FortificationForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Fortification"),
        choices=[(c.name, f"{c.name} ({c.cost})") for c in m36c.COVER_TYPES.values() if c.cost],
    )
    count = forms.IntegerField(label=_("How many"), initial=1, **b.form_range(b.ELEMENT_COUNT_1))


class MoraleForm(forms.Form):
    def __init__(self, *args, units: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        for i, label in enumerate(units):
            self.fields[f"u{i}"] = forms.ChoiceField(label=label, choices=enum_choices(UnitState))

    def states(self) -> list[str]:
        return [self.cleaned_data[f"u{i}"] for i in range(len(self.fields))]


class PerformanceForm(forms.Form):
    purpose = forms.CharField(label=_("What the roll is for"), max_length=120)
    value = forms.IntegerField(
        label=_("Result R (advantage included)"),
        help_text=_("The rulebook does not say how to roll it: enter your result."),
    )


class BogForm(forms.Form):
    unit = forms.ChoiceField(label=_("Unit that moves"), choices=[])
    ground = forms.ChoiceField(label=_("Ground"), choices=enum_choices(Ground))
    value = forms.IntegerField(
        label=_("Performance result R, if a bog check is due"),
        required=False,
        help_text=_("Bogged on −2 or less; leave empty to ask whether a check is due."),
    )

    def __init__(self, *args, units: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [(str(i), label) for i, label in enumerate(units)]


class M36FinishForm(forms.Form):
    winner = forms.ChoiceField(label=_("Winner"), choices=[])

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            *[(str(s.index), str(s.player)) for s in sides],
            ("draw", _("Draw")),
        ]


class ConditionForm(forms.Form):
    def __init__(self, *args, units: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.units = units
        for i, label in enumerate(units):
            self.fields[f"c{i}"] = forms.IntegerField(
                label=_("%(u)s: casualties") % {"u": label}, initial=0, **b.form_range(b.CASUALTIES)
            )
            self.fields[f"d{i}"] = forms.BooleanField(label=_("decimated"), required=False)
            self.fields[f"x{i}"] = forms.BooleanField(label=_("destroyed"), required=False)

    def conditions(self) -> dict[int, dict]:
        return {
            i: {
                "casualties": self.cleaned_data[f"c{i}"] or 0,
                "decimated": self.cleaned_data[f"d{i}"],
                "destroyed": self.cleaned_data[f"x{i}"],
            }
            for i in range(len(self.units))
        }

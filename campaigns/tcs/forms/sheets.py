"""Op sheets: drawing, editing, and the choices their procedures ask for."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models.tcs import SHEET_TEXT_FIELDS, OpSheetRecord
from campaigns.tcs.forms.setup import MISSION_CHOICES
from campaigns.tcs.forms.turn import ConfirmForm
from campaigns.tcs.graphics import check_graphic
from rules.tcs.opsheet import OpSheet


class SheetTextsForm(forms.ModelForm):
    class Meta:
        model = OpSheetRecord
        fields = [*SHEET_TEXT_FIELDS, "graphic"]
        widgets = {
            f: forms.Textarea(attrs={"rows": 3})
            for f in (
                "task_organization",
                "written_notes",
                "failure_instructions",
                "preliminary_text",
                "reserves_text",
                "alternatives_text",
            )
        }
        help_texts = {
            "failure_instructions": _(
                "Only a rapid move to the rally point avoiding contact [6.5.c]."
            ),
            "rally_points": _("Hexes, one per battalion [6.12], e.g. 1-123: 29.17."),
            "preliminary_text": _(
                "Written now or never [6.14.a]; a sheet with them may start them on the Move row."
            ),
            "alternatives_text": _(
                "One per line: name: unit ids, e.g. “north: 1-123/1 1-123/2” [6.14.c]."
            ),
            "graphic": _("PNG, JPEG, GIF, WebP or PDF, at most 5 MB; only your side sees it."),
        }

    def clean_graphic(self):
        upload = self.cleaned_data.get("graphic")
        if upload and hasattr(upload, "content_type"):
            check_graphic(upload)
        return upload

    def clean_alternatives_text(self):
        text = self.cleaned_data["alternatives_text"]
        alternatives = {}
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            name, sep, units = line.partition(":")
            if not sep or not name.strip() or not units.split():
                raise forms.ValidationError(_("Line %(n)s: write “name: unit ids”.") % {"n": n})
            alternatives[name.strip()] = units.replace(",", " ").split()
        self.alternatives = alternatives
        return text

    def texts(self) -> dict[str, str]:
        return {k: v for k, v in self.cleaned_data.items() if k != "graphic"}

    def upload(self):
        g = self.cleaned_data.get("graphic")
        return g if g and hasattr(g, "content_type") else None


class SheetDrawForm(SheetTextsForm):
    """Drawing a sheet. During set-up every sheet is drawn before play and starts
    implemented [6.8, 27.1.f]; in play it starts in Command Prep. Nothing to choose."""

    code = forms.CharField(
        label=_("Sheet label"), max_length=40, help_text=_("e.g. A1 or “Hill 110”")
    )
    reinforcement = forms.BooleanField(
        label=_("Written for reinforcements [6.13.e]"),
        required=False,
        help_text=_(
            "Before play it is implemented at once [27.2.d]; in play it earns weighted turns "
            "normally [27.2.e]."
        ),
    )

    class Meta(SheetTextsForm.Meta):
        pass

    def __init__(self, units, *args, setup=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.units = list(units)
        self.setup = setup
        self.order_fields(["code"])
        for unit in self.units:
            self.fields[f"m_{unit.code}"] = forms.ChoiceField(
                label=unit.code, choices=MISSION_CHOICES, required=False
            )

    def mission_groups(self) -> list[tuple[str, list]]:
        """The mission fields formation by formation, in the units' order."""
        groups: dict[str, list] = {}
        for unit in self.units:
            name = unit.formation.code if unit.formation_id else _("No formation")
            groups.setdefault(str(name), []).append(self[f"m_{unit.code}"])
        return list(groups.items())

    def text_fields(self):
        return [self[f] for f in self.fields if not f.startswith("m_")]

    def clean(self):
        data = super().clean()
        missions, reserves = {}, []
        for unit in self.units:
            choice = data.get(f"m_{unit.code}")
            if choice == "reserve":
                reserves.append(unit.code)
            elif choice:
                missions[unit.code] = choice
        if not missions:
            raise forms.ValidationError(_("Give at least one unit a mission [6.6]."))
        data["missions"], data["reserves"] = missions, reserves
        return data


class SheetEditForm(SheetTextsForm):
    class Meta(SheetTextsForm.Meta):
        pass


UNIT_MISSION_CHOICES = [c for c in MISSION_CHOICES if c[0] != "reserve"]
ROW_CHOICES = [
    ("", _("The host sheet's hardest mission [6.13.c]")),
    *[c for c in UNIT_MISSION_CHOICES if c[0]],
]


class UnitsChoiceMixin:
    """A `units` multiple choice over the given unit ids."""

    def set_units(self, units, *, required: bool) -> None:
        self.fields["units"].choices = [(u, u) for u in units]
        self.fields["units"].required = required


class PartialSuccessForm(UnitsChoiceMixin, forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput)
    units = forms.MultipleChoiceField(
        label=_("Only these units (none ticked: the whole sheet) [6.13.a]"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, units=(), *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.set_units(units, required=False)


class FailForm(UnitsChoiceMixin, ConfirmForm):
    units = forms.MultipleChoiceField(
        label=_("Only these units (none ticked: the whole sheet) [6.11.d]"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, units=(), *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.set_units(units, required=False)
        self.order_fields(["units", "confirm"])


class AddUnitsForm(forms.Form):
    row = forms.ChoiceField(label=_("Command Prep row of the added units"), required=False)
    prelims = forms.BooleanField(
        label=_("They have preliminary instructions written for them [6.14.a]"), required=False
    )

    def __init__(self, units, *args, implemented: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.units = list(units)
        self.implemented = implemented
        if implemented:
            self.fields["row"].choices = ROW_CHOICES
        else:  # to an unimplemented sheet they simply join it [6.13.d]
            del self.fields["row"]
            del self.fields["prelims"]
        for unit in self.units:
            self.fields[f"m_{unit}"] = forms.ChoiceField(
                label=unit, choices=UNIT_MISSION_CHOICES, required=False
            )

    def mission_fields(self):
        return [self[f"m_{u}"] for u in self.units]

    def option_fields(self):
        return [self[f] for f in ("row", "prelims") if f in self.fields]

    def clean(self):
        data = super().clean()
        data["missions"] = {u: data[f"m_{u}"] for u in self.units if data.get(f"m_{u}")}
        if not data["missions"]:
            raise forms.ValidationError(_("Give at least one unit a mission [6.13]."))
        return data


class StrikeForm(UnitsChoiceMixin, forms.Form):
    units = forms.MultipleChoiceField(
        label=_("Units to strike"), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, units, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.set_units(units, required=True)


class PreparedDefenseForm(forms.Form):
    addition = forms.ChoiceField(label=_("Which implementation"), required=False)
    fire_mode = forms.MultipleChoiceField(
        label=_("Units in Fire mode at that instant (the others were in Move mode)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, units, groups, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fire_mode"].choices = [(u, u) for u in units]
        self.fields["addition"].choices = [(g, label) for g, label in groups]


class DecisionForm(forms.Form):
    choice = forms.ChoiceField(label=_("It counts for"), widget=forms.RadioSelect)

    def __init__(self, options, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["choice"].choices = [(o, o) for o in options]


def prepared_defense_form(sheet: OpSheetRecord, state: OpSheet, data=None):
    """What implementing a Prepared Defense did, while some implementation of the sheet (or
    of units added to it) is not yet recorded [6.16.a, 21.1]."""
    if sheet.sheet_type != "prepared_defense" or state.status.value != "implemented":
        return None
    done = {p.get("addition", "") for p in sheet.prepared_defense}
    groups = [("", _("The sheet"))] if "" not in done else []
    groups += [
        (a.id, _("Units added: %(u)s") % {"u": ", ".join(a.units)})
        for a in state.additions
        if a.status.value == "implemented" and a.id not in done
    ]
    if not groups:
        return None
    return PreparedDefenseForm(state.active_units, groups, data, prefix="pd")

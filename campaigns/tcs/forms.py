"""Forms for TCS operations: set-up, order of battle, op sheets, the Command Phase, losses."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.jsontext import JSONTextError, loads_checked
from campaigns.models import Campaign
from campaigns.models import bounds as b
from campaigns.models.tcs import SHEET_TEXT_FIELDS, OpSheetRecord, TcsFormation, TcsUnit
from campaigns.tcs.graphics import check_graphic
from rules.dice import D6, D66
from rules.errors import DiceError
from rules.tcs.clock import Light
from rules.tcs.opsheet import OpSheet, OpSheetType

MISSION_CHOICES = [
    ("", _("— not on this sheet")),
    (OpSheetType.ATTACK.value, _("Attack")),
    (OpSheetType.HASTY_DEFENSE.value, _("Hasty Defense")),
    (OpSheetType.PREPARED_DEFENSE.value, _("Prepared Defense")),
    (OpSheetType.MOVE.value, _("Move")),
    ("reserve", _("Reserve [6.14.b]")),
]
LIGHT_CHOICES = [
    (Light.DAY.value, _("Day")),
    (Light.DAWN.value, _("Dawn")),
    (Light.DUSK.value, _("Dusk")),
    (Light.TWILIGHT.value, _("Twilight")),
    (Light.NIGHT.value, _("Night")),
]
DICE_CHOICES = [
    ("server", _("The site rolls (logged before anyone sees it)")),
    ("entered", _("We rolled at the table")),
]


class OperationForm(forms.Form):
    name = forms.CharField(label=_("Operation name"), max_length=160)
    side_a = forms.CharField(label=_("First side"), max_length=80, initial=_("Germans"))
    rating_a = forms.IntegerField(
        label=_("First side's Command Prep rating"),
        min_value=0,
        max_value=12,
        initial=3,
        help_text=_(
            "From the game's rules; lower is better; 7 or worse cannot use reserves or alternatives [6.14.d]."
        ),
    )
    side_b = forms.CharField(label=_("Second side"), max_length=80, initial=_("Americans"))
    rating_b = forms.IntegerField(
        label=_("Second side's Command Prep rating"), min_value=0, max_value=12, initial=3
    )
    start_clock = forms.CharField(
        label=_("First turn starts at"),
        max_length=5,
        initial="0800",
        help_text=_("Four digits, e.g. 0800."),
    )
    light = forms.ChoiceField(label=_("Light on the first turn"), choices=LIGHT_CHOICES)
    role = forms.ChoiceField(
        label=_("Your part"),
        choices=[
            ("0", _("I play the first side")),
            ("1", _("I play the second side")),
            ("gm", _("Neutral game master (sees every op sheet)")),
        ],
    )
    visibility = forms.ChoiceField(
        label=_("Visibility"),
        choices=Campaign.Visibility.choices,
        initial=Campaign.Visibility.PRIVATE,
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=b.DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def service_kwargs(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"],
            "side_names": [d["side_a"], d["side_b"]],
            "ratings": [d["rating_a"], d["rating_b"]],
            "start_clock": d["start_clock"],
            "light": d["light"],
            "visibility": d["visibility"],
            "description": d["description"],
            "creator_side": None if d["role"] == "gm" else int(d["role"]),
        }


class SideSettingsForm(forms.Form):
    rating = forms.IntegerField(
        label=_("Command Prep rating"), **b.form_range(b.COMMAND_PREP_RATING)
    )
    prep_table = forms.CharField(
        label=_("Command Prep Table (JSON, optional)"),
        required=False,
        max_length=b.JSON_TABLES,
        widget=forms.Textarea(attrs={"rows": 8, "class": "code"}),
        help_text=_(
            "One record per op sheet type, read off your game's chart: "
            '[{"type": "attack", "columns": [0, 4, 8], "rows": {"5": [66, 61, 55]}}]. '
            "Leave empty to enter each threshold from the printed chart when rolling."
        ),
    )

    def clean_prep_table(self):
        text = self.cleaned_data["prep_table"].strip()
        if not text:
            return None
        try:
            return loads_checked(text)
        except JSONTextError as exc:
            cause = exc.__cause__
            if isinstance(cause, json.JSONDecodeError):
                raise forms.ValidationError(
                    _("not valid JSON (line %(l)s, column %(c)s)")
                    % {"l": cause.lineno, "c": cause.colno}
                ) from None
            raise forms.ValidationError(str(exc)) from None


class FormationForm(forms.Form):
    code = forms.CharField(
        label=_("Formation id"), max_length=40, help_text=_("e.g. 1-123 or A-58")
    )
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    morale = forms.ChoiceField(label=_("Morale"), choices=TcsFormation.Morale.choices)
    is_battalion = forms.BooleanField(
        label=_("It is a battalion (for the staff modifier [6.9.c])"), required=False
    )
    start_value = forms.IntegerField(
        label=_("Battalion morale at start"),
        initial=0,
        required=False,
        **b.form_range(b.MORALE),
    )
    track = forms.CharField(
        label=_("Vehicle morale track"),
        required=False,
        max_length=200,
        help_text=_("The boxes in order: 0 for a circle, 1–3 for a square, e.g. “0 1 1 0 2”."),
    )


class UnitForm(forms.Form):
    code = forms.CharField(label=_("Unit id"), max_length=40)
    formation = forms.ChoiceField(label=_("Formation"), required=False)
    category = forms.ChoiceField(label=_("Category"), choices=TcsUnit.Category.choices)
    steps = forms.IntegerField(label=_("Steps"), initial=5, **b.form_range(b.STEPS))

    def __init__(self, formations, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.formations = {str(f.pk): f for f in formations}
        self.fields["formation"].choices = [("", _("— none"))] + [
            (str(f.pk), f.code) for f in formations
        ]


class CsvImportForm(forms.Form):
    csv_file = forms.FileField(label=_("CSV file"), required=False)
    csv = forms.CharField(
        label=_("…or paste the CSV"),
        required=False,
        max_length=b.CSV_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 6, "class": "code"}),
        help_text=_(
            "Columns: type,id,name,formation,category,steps,morale,battalion,track. "
            "“formation” rows: morale battalion/vehicle/none, battalion yes/no, track like 0 1 1, "
            "steps = starting battalion morale. “unit” rows: formation id, category "
            "infantry/heavy_weapon/vehicle/transport, steps."
        ),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("csv_file")
        if upload is not None:
            if upload.size > 512 * 1024:
                raise forms.ValidationError(_("The CSV file may be at most 512 KB."))
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("Save the CSV as UTF-8 text.")) from None
        else:
            data["text"] = data.get("csv", "")
        if not data["text"].strip():
            raise forms.ValidationError(_("Choose a CSV file or paste its text."))
        return data


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

    def mission_fields(self):
        return [self[f"m_{u.code}"] for u in self.units]

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


def _entered_value(text: str, kind, field: str) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        number = int(text)
    except ValueError:
        raise forms.ValidationError({field: _("Enter a number.")}) from None
    try:
        return kind.check_value(number)
    except DiceError as exc:
        raise forms.ValidationError({field: exc.message}) from None


class DiceFormMixin:
    roll_kind = D6

    def clean_roll_value(self, data, field="roll"):
        if data.get("dice") == "entered":
            value = _entered_value(data.get(field, ""), self.roll_kind, field)
            if value is None:
                raise forms.ValidationError(
                    {field: _("Enter what you rolled, or let the site roll.")}
                )
            return value
        return None


class WeightedTurnsForm(forms.Form):
    fired = forms.MultipleChoiceField(
        label=_("Sheets with a listed unit that fired or was fired on last turn [6.9.d]"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Area fire, point fire or AT rolls; spotting for artillery does not count."),
    )

    def __init__(self, sheets, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fired"].choices = [(str(s.pk), s.code) for s in sheets]


class AttemptForm(DiceFormMixin, forms.Form):
    roll_kind = D66
    sheet = forms.IntegerField(widget=forms.HiddenInput)
    mode = forms.ChoiceField(
        label=_("Attempt"),
        choices=[
            ("full", _("Implement the whole sheet")),
            ("prelims_only", _("Preliminary instructions only")),
        ],
    )
    threshold = forms.CharField(
        label=_("Threshold read off the chart"),
        required=False,
        max_length=4,
        help_text=_("Blank: read the side's table. “-” when the cell shows no number."),
    )
    move_threshold = forms.CharField(
        label=_("Move row threshold (for preliminary instructions)"), required=False, max_length=4
    )
    dice = forms.ChoiceField(
        label=_("Dice"), choices=DICE_CHOICES, widget=forms.RadioSelect, initial="server"
    )
    roll = forms.CharField(label=_("Your d66 roll (11–66)"), required=False, max_length=4)

    def clean(self):
        data = super().clean()
        data["roll_value"] = self.clean_roll_value(data)
        for field in ("threshold", "move_threshold"):
            text = (data.get(field) or "").strip()
            data[f"{field}_value"] = "-" if text == "-" else _entered_value(text, D66, field)
        return data

    def thresholds(self, sheet_type: str) -> dict[str, int | None]:
        """Row type → the threshold the player read (None: the cell shows no number)."""
        found: dict[str, int | None] = {}
        for field, row in (("threshold", sheet_type), ("move_threshold", "move")):
            value = self.cleaned_data.get(f"{field}_value")
            if value == "-":
                found[row] = None
            elif value is not None:
                found.setdefault(row, value)
        return found


class CommitForm(forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput)
    units = forms.MultipleChoiceField(
        label=_("Reserves to commit"), widget=forms.CheckboxSelectMultiple
    )
    order = forms.ChoiceField(
        label=_("Their one order"),
        choices=[
            ("attack", _("Attack")),
            ("hasty_defense", _("Hasty Defense")),
            ("move", _("Move")),
        ],
    )

    def __init__(self, reserves, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["units"].choices = [(u, u) for u in reserves]


class AlternativeForm(forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput)
    alternative = forms.ChoiceField(label=_("Alternative"))

    def __init__(self, names, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["alternative"].choices = [(n, n) for n in names]


class CheckForm(DiceFormMixin, forms.Form):
    sheet = forms.IntegerField(widget=forms.HiddenInput)
    group = forms.CharField(widget=forms.HiddenInput, max_length=60)
    dice = forms.ChoiceField(
        label=_("Dice"), choices=DICE_CHOICES, widget=forms.RadioSelect, initial="server"
    )
    roll = forms.CharField(label=_("Your d6"), required=False, max_length=2)

    def clean(self):
        data = super().clean()
        data["roll_value"] = self.clean_roll_value(data)
        return data


class RecoveryForm(forms.Form):
    dice = forms.ChoiceField(
        label=_("Dice"), choices=DICE_CHOICES, widget=forms.RadioSelect, initial="server"
    )

    def __init__(self, formations, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.formation_list = list(formations)
        for f in self.formation_list:
            self.fields[f"roll_{f.pk}"] = forms.CharField(
                label=_("d6 for %(f)s (morale %(v)s)")
                % {"f": f.code, "v": f.state.get("value", 0)},
                required=False,
                max_length=2,
            )

    def clean(self):
        data = super().clean()
        rolls = {}
        if data.get("dice") == "entered":
            for f in self.formation_list:
                rolls[f.pk] = _entered_value(data.get(f"roll_{f.pk}", ""), D6, f"roll_{f.pk}")
        data["rolls"] = rolls or None
        return data


class LossForm(forms.Form):
    unit = forms.ChoiceField(label=_("Unit"))
    steps = forms.IntegerField(label=_("Steps lost"), initial=1, **b.form_range(b.STEPS))
    combat = forms.BooleanField(
        label=_("A combat loss (non-combat losses do not count for morale [17.1.a])"),
        required=False,
        initial=True,
    )
    nearest = forms.MultipleChoiceField(
        label=_("Battalion of the nearest unit"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Only for units outside any battalion. Tick every battalion equally near: the "
            "opponent is then asked to choose between them [17.1.c]."
        ),
    )
    dice = forms.ChoiceField(
        label=_("Vehicle morale checks"),
        choices=DICE_CHOICES,
        widget=forms.RadioSelect,
        initial="server",
    )
    rolls = forms.CharField(
        label=_("Your d6 rolls, in order"),
        required=False,
        max_length=60,
        help_text=_("One d6 per morale point gained [17.8.b], e.g. “3 5”."),
    )

    def __init__(self, units, battalions, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.units = {str(u.pk): u for u in units if not u.eliminated}
        self.fields["unit"].choices = [
            (str(u.pk), f"{u.code} ({u.steps_left}/{u.steps})") for u in self.units.values()
        ]
        self.fields["nearest"].choices = [(b.code, b.code) for b in battalions]

    def clean(self):
        data = super().clean()
        data["rolls_list"] = None
        if data.get("dice") == "entered":
            values = []
            for part in (data.get("rolls") or "").replace(",", " ").split():
                value = _entered_value(part, D6, "rolls")
                values.append(value)
            data["rolls_list"] = values
        return data


class CorrectionForm(forms.Form):
    formation = forms.ChoiceField(label=_("Formation"))
    value = forms.IntegerField(label=_("Correct value"), **b.form_range(b.MORALE))
    reason = forms.CharField(label=_("Why"), max_length=200)

    def __init__(self, formations, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.formations = {str(f.pk): f for f in formations}
        self.fields["formation"].choices = [(k, f.code) for k, f in self.formations.items()]


class RestoreForm(forms.Form):
    unit = forms.ChoiceField(label=_("Unit"))
    steps = forms.IntegerField(label=_("Steps to give back"), **b.form_range(b.STEPS))
    reason = forms.CharField(label=_("Why"), max_length=200)

    def __init__(self, units, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.units = {str(u.pk): u for u in units if u.steps_lost}
        self.fields["unit"].choices = [
            (k, f"{u.code} (−{u.steps_lost})") for k, u in self.units.items()
        ]


class ConfirmForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, I am sure"), required=False)


class AdvanceForm(forms.Form):
    light = forms.ChoiceField(label=_("Light on the next turn"), choices=LIGHT_CHOICES)
    expected_turn = forms.IntegerField(widget=forms.HiddenInput)


# --- op sheet units, partial outcomes, Prepared Defense, the opponent's choice ---------------

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

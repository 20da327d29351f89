"""Setting up an operation: the operation, each side's settings and order of battle."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.forms import ClubFieldMixin
from campaigns.grid import GridField
from campaigns.models import Campaign
from campaigns.models import bounds as b
from campaigns.models.tcs import TcsFormation, TcsUnit
from campaigns.tcs.prep_grid import PrepTableGrid
from rules.tcs.clock import Light
from rules.tcs.opsheet import OpSheetType

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


class OperationForm(ClubFieldMixin, forms.Form):
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

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_club_field(user)

    def service_kwargs(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"],
            "club": self.chosen_club(),
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
    prep_table = GridField(
        PrepTableGrid(),
        label=_("Command Prep Table (optional)"),
        help_text=_(
            "Copy your game's chart, one table per op sheet type: the weighted-turn column "
            "headings, a row per Command Prep rating + size, a d66 threshold in each cell "
            "(“-” or 0 where the chart shows no number). Clear a row to remove it; “More "
            "rows” adds blank ones. Leave every table empty to enter each threshold from the "
            "printed chart when rolling."
        ),
    )


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
    morale = forms.IntegerField(
        label=_("Printed morale"),
        required=False,
        help_text=_("As printed on the counter, for its morale checks [17.2]."),
        **b.form_range(b.UNIT_MORALE),
    )

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
            "infantry/heavy_weapon/vehicle/transport, steps, morale = its printed morale."
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

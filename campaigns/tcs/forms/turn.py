"""The turn's forms: weighted turns, Command Prep attempts, checks, recovery, losses."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from campaigns.models import bounds as b
from campaigns.tcs.forms.setup import DICE_CHOICES, LIGHT_CHOICES
from rules.dice import D6, D66
from rules.errors import DiceError


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
        raise forms.ValidationError({field: say(exc.message)}) from None


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
        """A die only for a formation whose morale can fall: at 0 nothing changes, so it is
        listed in `at_zero` (the page says why) and asks for no die [17.1.d, 17.8.d]."""
        super().__init__(*args, **kwargs)
        formations = list(formations)
        self.formation_list = [f for f in formations if f.state.get("value", 0)]
        self.at_zero = [f for f in formations if not f.state.get("value", 0)]
        if not self.formation_list:
            del self.fields["dice"]
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

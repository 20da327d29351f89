"""The battle assistant's page forms: start tracking, and one form per procedure built from
its description (campaigns/cc/battle/fields.py)."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.cc.battle.common import ACTING_SIDE, SIDE_FIELD, side_choices
from campaigns.cc.battle.spec import Context, Procedure
from campaigns.cc.labels import option_words, side_word
from campaigns.i18n import say
from campaigns.jsontext import JSONTextError, loads_checked
from campaigns.models import bounds as b
from rules.cc.battle.readings import READING_NAMES
from rules.cc.battle.state import BattleMode
from rules.cc.campaign_steps import POSTURE_WORDS
from rules.cc.common import Faction, Posture

DICE_HELP = _(
    "Empty: the site rolls. From the table: the white and the coloured die of each card, "
    "cards apart with “;” — for example 4 1; 6 2."
)


class ProcedureForm(forms.Form):
    """A procedure's inputs, the dice typed at the table and the version the player saw."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)

    def __init__(self, spec: Procedure, context: Context, *args, **kwargs):
        kwargs.setdefault("prefix", spec.key)
        super().__init__(*args, **kwargs)
        self.spec = spec
        for f in spec.fields:
            self.fields[f.name] = f.form_field(context)
        if context.names_side and SIDE_FIELD not in self.fields:
            self.fields[ACTING_SIDE] = forms.ChoiceField(
                label=_("For which side"),
                choices=[(v, say(words)) for v, words in side_choices(context)],
                initial=context.state.active.value,
            )
        if spec.rolls:
            self.fields["dice"] = forms.CharField(
                label=_("Dice rolled at the table"),
                required=False,
                max_length=8 * spec.rolls + 20,
                help_text=DICE_HELP,
            )

    def inputs(self) -> dict:
        return {
            k: v
            for k, v in self.cleaned_data.items()
            if k not in ("version", "dice", ACTING_SIDE) and v != ""
        }

    def acting_side(self) -> str:
        """The side a game master or organiser acts for ("" for a player: his own)."""
        return self.cleaned_data.get(ACTING_SIDE) or ""


class StartTrackingForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("What to track"),
        choices=[
            (BattleMode.LIGHT.value, _("The tracks only (Time, VP, casualties, Initiative)")),
            (BattleMode.FULL.value, _("The tracks and every unit on the map")),
        ],
        initial=BattleMode.LIGHT.value,
        widget=forms.RadioSelect,
    )
    time = forms.IntegerField(
        label=_("Time marker starts on space"), initial=0, min_value=0, max_value=30
    )
    sudden_death = forms.IntegerField(
        label=_("Sudden Death marker on space"), min_value=0, max_value=30
    )
    vp_axis = forms.IntegerField(
        label=_("VP marker at the start"), initial=0, **b.form_range(b.VP_MARGIN)
    )
    initiative = forms.ChoiceField(label=_("Who holds the Initiative card"))
    first_player = forms.ChoiceField(label=_("Who plays first"))

    def __init__(self, sides, *args, **kwargs):
        super().__init__(*args, **kwargs)
        names = [(s.faction, say(side_word(s.name))) for s in sides if s.faction in set(Faction)]
        self.fields["initiative"].choices = names
        self.fields["first_player"].choices = names
        self.fields["vp_axis"].help_text = _("Positive: toward %(side)s.") % {
            "side": names[0][1] if names else ""
        }
        postures = [(p.value, say(POSTURE_WORDS[p])) for p in Posture]
        for faction, name in names:
            self.fields[f"posture_{faction}"] = forms.ChoiceField(
                label=_("%(side)s posture") % {"side": name}, choices=postures
            )
            self.fields[f"surrender_{faction}"] = forms.IntegerField(
                label=_("%(side)s Surrender marker on space") % {"side": name},
                min_value=1,
                max_value=30,
            )

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        factions = [f.value for f in Faction]
        return {
            "mode": data["mode"],
            "time": data["time"],
            "sudden_death": data["sudden_death"],
            "vp_axis": data["vp_axis"],
            "initiative": data["initiative"],
            "first_player": data["first_player"],
            "postures": {f: data[f"posture_{f}"] for f in factions},
            "surrender": {f: data[f"surrender_{f}"] for f in factions},
        }


class ReadingsForm(forms.Form):
    """The rule readings the battle plays by, offered as the campaign chose them
    (rules/cc/battle/readings.py); a box changed here changes them for this battle only."""

    prefix = "reading"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in READING_NAMES:
            label, help_text = option_words(name)
            self.fields[name] = forms.BooleanField(label=label, help_text=help_text, required=False)


class CountersForm(forms.Form):
    """The battle's counter table: a JSON file, or a CSV file or text per list (a header row
    naming the columns, then one row per unit type or Weapon)."""

    upload = forms.FileField(
        label=_("File (JSON, or CSV of the units)"),
        required=False,
        help_text=_("JSON: {“units”: […], “weapons”: […]} as the API gives it."),
    )
    units_csv = forms.CharField(
        label=_("Units (CSV)"),
        required=False,
        max_length=100_000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=format_lazy(
            "{} <code>{}</code>",
            _("First line, the columns:"),
            "nationality, name, kind, vp, fp, range, move, morale, command, boxed, broken_fp, "
            "broken_range, broken_move, broken_morale, broken_command, broken_boxed",
        ),
    )
    weapons_csv = forms.CharField(
        label=_("Weapons (CSV)"),
        required=False,
        max_length=100_000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=format_lazy(
            "{} <code>{}</code>",
            _("First line, the columns:"),
            "nationality, name, fp, range, move, boxed, artillery, smoke, fix, elim",
        ),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("upload")
        if upload is None and not (data.get("units_csv") or "").strip():
            raise forms.ValidationError(_("Choose a file or type the units."))
        if upload is not None:
            raw = upload.read(200_001).decode("utf-8-sig", "replace")
            if len(raw) > 200_000:
                raise forms.ValidationError(_("The file is too large (200 KB at most)."))
            if upload.name.lower().endswith(".csv"):
                data["units_csv"] = raw
            else:
                try:
                    data["json"] = loads_checked(raw)
                except JSONTextError:
                    raise forms.ValidationError(_("This file is neither JSON nor CSV.")) from None
        return data

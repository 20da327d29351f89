"""Forms for Combat Commander campaigns: creation, decisions, battle play (the tables' forms
are in `campaigns.cc.tables_forms`)."""

from __future__ import annotations

from enum import Enum

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.cc.engines import CCTemplate
from campaigns.cc.labels import option_labels, option_words
from campaigns.forms import ClubFieldMixin
from campaigns.models import Campaign, Decision
from campaigns.models import bounds as b
from campaigns.services.battles import EVENTS, TRACKED, parse_units
from rules.cc.battle.readings import READING_NAMES
from rules.cc.gastadores import WinMethod


class CCCampaignForm(ClubFieldMixin, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    role = forms.ChoiceField(label=_("Your part"))
    visibility = forms.ChoiceField(
        label=_("Visibility"),
        choices=Campaign.Visibility.choices,
        initial=Campaign.Visibility.PRIVATE,
    )
    dice_mode = forms.ChoiceField(
        label=_("Dice for campaign procedures"),
        choices=[
            ("server", _("The site rolls (logged before anyone sees the result)")),
            ("entered", _("We roll at the table and enter the dice")),
        ],
        initial="server",
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=b.DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, template: CCTemplate, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_club_field(user)
        self.template = template
        self.fields["role"].choices = [
            *(
                (str(i), _("I play %(side)s") % {"side": n})
                for i, (n, _f) in enumerate(template.sides)
            ),
            ("gm", _("I am a neutral game master (I see both sides' secrets)")),
            ("none", _("I organise it; seats are taken later")),
        ]
        for f in template.option_fields():
            default = f.default
            label, help_text = option_words(f.name)
            if isinstance(default, bool):
                field = forms.BooleanField(label=label, required=False, initial=default)
            elif isinstance(default, Enum):
                field = forms.ChoiceField(
                    label=label,
                    choices=[(e.value, e.value) for e in type(default)],
                    initial=default.value,
                )
            else:
                continue
            field.help_text = help_text
            self.fields[f"opt_{f.name}"] = field

    def campaign_fields(self) -> list:
        return [f for f in self.visible_fields() if f.name[4:] not in READING_NAMES]

    def reading_fields(self) -> list:
        """The battle rule readings, shown folded apart from the campaign's own options."""
        return [f for f in self.visible_fields() if f.name[4:] in READING_NAMES]

    @property
    def reading_errors(self) -> bool:
        return any(f.errors for f in self.reading_fields())

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        role = data["role"]
        return {
            "name": data["name"],
            "template": self.template.key,
            "visibility": data["visibility"],
            "dice_mode": data["dice_mode"],
            "description": data["description"],
            "options": {k[4:]: v for k, v in data.items() if k.startswith("opt_")},
            "creator_side": int(role) if role.isdecimal() else None,
            "as_game_master": role == "gm",
            "club": self.chosen_club(),
        }


RADIOS_MAX = 6
"""More options than this, all numbers, are offered as a select rather than radios."""


def decision_form(decision: Decision, data=None) -> forms.Form:
    """A one-field form shaped by the decision: several options, one option, a number, dice."""
    form = forms.Form(data, prefix=f"d{decision.pk}")
    choices = [(str(o["value"]), o["label"]) for o in option_labels(decision)]
    if decision.is_roll:
        form.fields["answer"] = forms.CharField(
            label=_("Dice (%(kind)s)") % {"kind": decision.roll_kind},
            max_length=b.DICE_TEXT_MAX,
            help_text=_("The total, or each die separated by commas (white die first)."),
        )
    elif decision.is_multiple:
        form.fields["answer"] = forms.MultipleChoiceField(
            label=_("Your choice"),
            choices=choices,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
    elif decision.options:
        # A number among many (Fortification Points 0–11) is a select, not a row of radios.
        many_numbers = len(choices) > RADIOS_MAX and all(
            isinstance(o, int) and not isinstance(o, bool) for o in decision.options
        )
        form.fields["answer"] = forms.ChoiceField(
            label=_("Your choice"),
            choices=choices,
            widget=forms.Select if many_numbers else forms.RadioSelect,
        )
    else:
        form.fields["answer"] = forms.IntegerField(
            label=_("Number"), **b.form_range(b.DECISION_NUMBER)
        )
    return form


class EventForm(forms.Form):
    category = forms.ChoiceField(label=_("What happened"), choices=list(EVENTS.items()))
    text = forms.CharField(label=_("Details"), required=False, max_length=200)
    vp_delta = forms.IntegerField(
        label=_("VP change"),
        required=False,
        **b.form_range(b.VP_MARGIN),
        help_text=_("Signed, toward the first side listed: +2 or −1."),
    )

    def __init__(self, *args, toward: str = "", tracked: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if tracked:  # the tracks keep these (campaigns/services/battles.py TRACKED)
            self.fields["category"].choices = [
                (k, v) for k, v in EVENTS.items() if k not in TRACKED
            ]
            del self.fields["vp_delta"]
        if toward and "vp_delta" in self.fields:
            self.fields["vp_delta"].help_text = _("Signed, + toward %(side)s: +2 or −1.") % {
                "side": toward
            }

    def clean(self):
        data = super().clean()
        if data.get("category") == "vp" and data.get("vp_delta") is None:
            self.add_error("vp_delta", _("Enter the VP change as a signed number: +2 or −1."))
        return data


class RollForm(forms.Form):
    roll_kind = forms.ChoiceField(
        label=_("Dice"),
        choices=[("2d6", _("2d6 (white + coloured)")), ("d6", "d6"), ("d10", "d10")],
        initial="2d6",
    )
    purpose = forms.CharField(label=_("For"), max_length=120)
    entered = forms.CharField(
        label=_("Rolled at the table"),
        required=False,
        max_length=b.DICE_TEXT_MAX,
        help_text=_("Leave empty to let the site roll; or type the total or the dice (3,4)."),
    )


WIN_METHOD_LABELS = {
    WinMethod.VP: _("On Victory Points"),
    WinMethod.SURRENDER: _("By surrender"),
    WinMethod.OBJECTIVE_5: _("Objective 5 (sudden death)"),
    WinMethod.CONCESSION: _("By concession"),
}


class ResultForm(forms.Form):
    """The winner, and what the template's post-battle rules need (`result_fields`)."""

    winner = forms.ChoiceField(label=_("Winner"), widget=forms.RadioSelect)
    method = forms.ChoiceField(
        label=_("How it was won"),
        choices=[(m.value, label) for m, label in WIN_METHOD_LABELS.items()],
        initial=WinMethod.VP.value,
    )
    vp_margin = forms.IntegerField(
        label=_("VP margin"),
        required=False,
        **b.form_range(b.VP_MARGIN),
        initial=0,
        help_text=_("The winner's VP minus the loser's (only for a win on VP)."),
    )

    def __init__(self, sides, result_fields: tuple[str, ...], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = {str(s.pk): s for s in sides}
        self.fields["winner"].choices = [(str(s.pk), s.name) for s in sides]
        for name in ("method", "vp_margin"):
            if name not in result_fields:
                del self.fields[name]
        self.survivor_fields = []
        if "survivors" in result_fields:
            for s in sides:
                name = f"survivors_{s.faction}"
                self.fields[name] = forms.CharField(
                    label=_("%(side)s survivors") % {"side": s.name},
                    required=False,
                    max_length=b.NOTES_MAX,
                    widget=forms.Textarea(attrs={"rows": 4}),
                    help_text=_(
                        "One unit per line: id; kind; weapon; veteran; leader of. "
                        "Example: 2-1; Rifle squad; LMG; veteran"
                    ),
                )
                self.survivor_fields.append((s.faction, name))

    def clean(self):
        data = super().clean()
        details: dict = {}
        if self.survivor_fields:
            details["survivors"] = {}
            for faction, name in self.survivor_fields:
                try:
                    details["survivors"][faction] = parse_units(data.get(name, ""))
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
        if "method" in self.fields:
            details["method"] = data.get("method")
            details["vp_margin"] = data.get("vp_margin") or 0
        data["details"] = details
        if "winner" in data:
            data["winner_side"] = self.sides[data["winner"]]
        return data


class CorrectionForm(ResultForm):
    reason = forms.CharField(label=_("Why is it corrected?"), max_length=200)
    confirm = forms.BooleanField(
        label=_("Undo the consequences applied so far and apply them again from this result"),
        required=True,
    )

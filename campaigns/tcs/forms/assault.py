"""The assault page's forms [22.0, 23.0]: the attacker's declaration with his own stack, and
one answer form holding only what the current step asks of this side (the API posts to the
same forms, campaigns/api/tcs/assault.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns.tcs.combat_lines import FIRER_HELP, TARGET_HELP, parse_firers, parse_targets
from campaigns.tcs.forms.combat import (
    CheckFieldsMixin,
    StackForm,
    _other,
    _rolls,
    lines_field,
    say_lazy,
    shift_field,
)
from campaigns.tcs.forms.minefields import _whole
from campaigns.tcs.forms.setup import DICE_CHOICES
from campaigns.tcs.forms.turn import _entered_value
from rules.dice import D66, TWO_D6
from rules.tcs.fire_tables import TERRAIN_WORDS, Terrain

RESULT_CHOICES = [
    ("none", _("no effect")),
    ("suppressed", _("Suppressed")),
    ("paralyzed", _("Paralyzed")),
    ("syr", _("Suppressed and retreat (SYR)")),
    ("surrender", _("Surrender")),
    ("eliminated", _("eliminated")),
]
# what each kind of answer shows, by field
STEP_FIELDS = {
    "hex": ("units", "choice", "attacker_result"),
    "hit": ("attacker_result",),
    "mine": ("minefield", "breached"),
    "mine_own": ("stacking_shift", "first_step_choice", "fire_dice", "rolls", "losses", "check"),
    "go": (),
    "fire": (
        *("firers", "targets", "other", "terrain_shift", "fire_dice", "fire_roll"),
        *("point_firers", "point_targets", "point_roll"),
        *("at_steps", "at_target_steps", "at_value", "at_rolls"),
    ),
    "targets": ("targets", "terrain_shift"),
    "losses": ("losses",),
    "own": ("units", "losses", "check"),
}
CHECK_FIELDS = ("dice", "roll", "result", "night", "crossfire", "terrain_modifier")
CHECK_FIELDS += ("assault_choice", "largest_choice")


class AssaultDeclareForm(StackForm):
    overrun = forms.BooleanField(label=_("An overrun [23.0] (vehicles only)"), required=False)
    terrain = forms.ChoiceField(
        label=_("Target hex terrain [9.3]"),
        choices=[(t.value, say_lazy(w)) for t, w in TERRAIN_WORDS.items()],
        initial=Terrain.OPEN.value,
    )
    enter_cost = forms.IntegerField(
        label=_("MP to enter the target hex"), min_value=0, max_value=99, initial=1
    )
    leave_cost = forms.IntegerField(
        label=_("Overrun: MP to leave it again"), min_value=0, max_value=99, required=False
    )
    mp = forms.IntegerField(
        label=_("MP each unit has left"), min_value=0, max_value=99, required=False
    )
    adjacent = forms.BooleanField(
        label=_("The stack is adjacent to the target hex"), required=False, initial=True
    )
    in_stack_at_start = forms.BooleanField(
        label=_("The stack existed at the start of the Action Phase [20.0.h]"),
        required=False,
        initial=True,
    )
    field_order = ["units", "overrun", "terrain", "enter_cost", "leave_cost", "mp"]

    def __init__(self, units, *args, **kwargs):
        super().__init__(units, *args, **kwargs)
        self.fields["units"].label = _("Your assaulting stack")


class AssaultAnswerForm(CheckFieldsMixin, StackForm):
    """Everything a step may ask; `kind` (STEP_FIELDS) keeps only what this step asks."""

    stage = forms.CharField(widget=forms.HiddenInput)
    choice = forms.ChoiceField(
        label=_("Your answer"),
        choices=[
            ("overwatch", _("Final overwatch on the assaulting stack")),
            ("retreat", _("Voluntary retreat of all units in good order")),
        ],
        initial="overwatch",
        required=False,
    )
    attacker_result = forms.ChoiceField(
        label=_("Result the assaulting stack got"),
        choices=RESULT_CHOICES,
        initial="none",
        required=False,
    )
    firers = lines_field(_("Your firing units"), FIRER_HELP)
    targets = lines_field(_("Your units in the hex, as the enemy's targets"), TARGET_HELP)
    other = lines_field(
        _("Other modifiers on your fire, read off the chart"),
        _("One per line: “name; shift”; those common to both sides cancel [22.0.f]."),
        rows=2,
        max_length=600,
    )
    terrain_shift = shift_field(_("Terrain/posture shift on your units, read off the chart"))
    fire_dice = forms.ChoiceField(
        label=_("Dice for your fire"),
        choices=DICE_CHOICES,
        widget=forms.RadioSelect,
        initial="server",
        required=False,
    )
    fire_roll = forms.CharField(label=_("Your d66 for the fire"), required=False, max_length=4)
    point_firers = lines_field(
        _("Your P-firers using point fire instead of area fire [22.0 step 6]"), FIRER_HELP, rows=2
    )
    point_targets = lines_field(
        _("The enemy units they select as targets [12.0]"), TARGET_HELP, rows=2
    )
    point_roll = forms.CharField(
        label=_("Your d66 for the point fire"), required=False, max_length=4
    )
    at_steps = forms.IntegerField(
        label=_("Infantry steps making AT rolls in the hex [16.0]"),
        required=False,
        min_value=0,
        max_value=99,
    )
    at_target_steps = forms.IntegerField(
        label=_("Enemy vehicle steps they roll against"), required=False, min_value=0, max_value=99
    )
    at_value = forms.IntegerField(
        label=_("AT Roll Table value in the hex, read off the chart"),
        required=False,
        min_value=2,
        max_value=13,
    )
    at_rolls = forms.CharField(
        label=_("Your 2d6 totals for the AT rolls"), required=False, max_length=200
    )
    minefield = forms.BooleanField(
        label=_("The target hex holds a minefield: it attacks the assaulters [22.0 step 5]"),
        required=False,
    )
    breached = forms.BooleanField(
        label=_("It has a breach (assaulters cannot use it)"), required=False
    )
    stacking_shift = shift_field(_("Stacking shift for the minefield attack, read off the chart"))
    first_step_choice = forms.CharField(
        label=_("Your unit losing the first step when the largest tie [10.0.f]"),
        required=False,
        max_length=40,
    )
    rolls = forms.CharField(
        label=_("Your rolls for the minefield: the d66, then a 2d6 total per vehicle step"),
        required=False,
        max_length=200,
    )

    def __init__(self, units, kind, *args, **kwargs):
        super().__init__(units, *args, **kwargs)
        self.kind = kind
        keep = set(STEP_FIELDS[kind]) | {"stage"}
        if "check" in keep:
            keep |= set(CHECK_FIELDS)
        if "losses" in keep:
            keep.update(self.add_loss_fields())
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]
        if "units" in self.fields:
            self.fields["units"].required = kind == "hex"
            self.fields["units"].label = (
                _("Your units in the target hex") if kind == "hex" else _("Your units in the hex")
            )

    def clean(self):
        data = super().clean()
        if self.kind not in ("fire", "targets", "mine_own") or self.errors:
            return data
        entered = data.get("fire_dice") == "entered"
        try:
            if self.kind == "mine_own":
                text = (data.get("rolls") or "").replace(",", " ").split()
                data["rolls_list"] = [_whole(p) for p in text] if entered else None
                return data
            data["fire"] = {
                "firers": _lines(data, "firers", parse_firers),
                "targets": _lines(data, "targets", parse_targets),
                "other": _other(data.get("other", ""), "other"),
                "roll": _one_d66(data, "firers", "fire_roll"),
                "terrain_shift": data.get("terrain_shift"),
                "point": {
                    "firers": _lines(data, "point_firers", parse_firers),
                    "targets": _lines(data, "point_targets", parse_targets),
                    "roll": _one_d66(data, "point_firers", "point_roll"),
                },
                "at": {
                    "steps": data.get("at_steps") or 0,
                    "target_steps": data.get("at_target_steps") or 0,
                    "value": data.get("at_value"),
                    "rolls": _at_rolls(data) if entered and data.get("at_steps") else None,
                },
            }
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field, errors)
        return data

    def answer(self) -> dict:
        """The answer as `tcs_assault_answer` takes it."""
        d = self.cleaned_data
        out = {}
        if self.kind == "hex":
            out["units"] = self.chosen()
            out["choice"] = d.get("choice") or "overwatch"
        if self.kind in ("hex", "hit"):
            out["attacker_result"] = d.get("attacker_result") or "none"
        if self.kind == "mine":
            out["minefield"] = bool(d.get("minefield"))
            out["breached"] = bool(d.get("breached"))
        if self.kind in ("fire", "targets"):
            out["fire"] = d["fire"]
        if self.kind in ("own", "losses", "mine_own"):
            out["losses"] = self.losses()
        if self.kind in ("own", "mine_own"):
            out["check"] = self.check("assault" if self.kind == "own" else "minefield")
        if self.kind == "mine_own":
            out["rolls"] = d.get("rolls_list")
            out["stacking_shift"] = d.get("stacking_shift")
            out["first_step_choice"] = (d.get("first_step_choice") or "").strip() or None
        return out


def _lines(data, name, parse) -> list:
    return parse(data[name], name) if (data.get(name) or "").strip() else []


def _one_d66(data, firers: str, name: str) -> int | None:
    """The one d66 entered for a fire (None: the site rolls or nobody fires)."""
    if not (data.get(firers) or "").strip():
        return None
    rolls = _rolls({"dice": data.get("fire_dice"), name: data.get(name)}, D66, name)
    if rolls is not None and len(rolls) != 1:
        raise ValidationError({name: _("Enter the one d66, e.g. 46.")})
    return rolls[0] if rolls else None


def _at_rolls(data) -> list[int]:
    """One 2d6 total per AT roll [16.0]."""
    parts = (data.get("at_rolls") or "").replace(",", " ").split()
    values = [_entered_value(p, TWO_D6, "at_rolls") for p in parts]
    if not values:
        raise ValidationError({"at_rolls": _("Enter what you rolled, or let the site roll.")})
    return values

"""The assault page's forms [22.0, 23.0]: the attacker's declaration with his own stack, and
one answer form holding only what the current step asks of this side (the API posts to the
same forms, campaigns/api/tcs/assault.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns.tcs.combat_lines import FIRER_HELP, TARGET_HELP, parse_firers, parse_targets
from campaigns.tcs.forms.combat import SHIFT, CheckFieldsMixin, StackForm, _other, _rolls, say_lazy
from campaigns.tcs.forms.setup import DICE_CHOICES
from rules.dice import D66
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
    "go": (),
    "fire": ("firers", "targets", "other", "terrain_shift", "fire_dice", "fire_roll"),
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
    firers = forms.CharField(
        label=_("Your firing units"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=FIRER_HELP,
    )
    targets = forms.CharField(
        label=_("Your units in the hex, as the enemy's targets"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=TARGET_HELP,
    )
    other = forms.CharField(
        label=_("Other modifiers on your fire, read off the chart"),
        required=False,
        max_length=600,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("One per line: “name; shift”; those common to both sides cancel [22.0.f]."),
    )
    terrain_shift = forms.IntegerField(
        label=_("Terrain/posture shift on your units, read off the chart"),
        required=False,
        **SHIFT,
    )
    fire_dice = forms.ChoiceField(
        label=_("Dice for your fire"),
        choices=DICE_CHOICES,
        widget=forms.RadioSelect,
        initial="server",
        required=False,
    )
    fire_roll = forms.CharField(label=_("Your d66 for the fire"), required=False, max_length=4)

    def __init__(self, units, kind, *args, **kwargs):
        super().__init__(units, *args, **kwargs)
        self.kind = kind
        keep = set(STEP_FIELDS[kind]) | {"stage"}
        if "check" in keep:
            keep |= set(CHECK_FIELDS)
        if "losses" in keep:
            for key, u in self.unit_map.items():
                self.fields[f"loss_{key}"] = forms.IntegerField(
                    label=_("Steps lost by %(u)s") % {"u": u.code},
                    required=False,
                    min_value=0,
                    max_value=u.steps_left,
                )
                keep.add(f"loss_{key}")
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]
        if "units" in self.fields:
            self.fields["units"].required = kind == "hex"
            self.fields["units"].label = (
                _("Your units in the target hex") if kind == "hex" else _("Your units in the hex")
            )

    def losses(self) -> dict:
        return {
            u: self.cleaned_data.get(f"loss_{k}") or 0
            for k, u in self.unit_map.items()
            if self.cleaned_data.get(f"loss_{k}")
        }

    def clean(self):
        data = super().clean()
        if self.kind != "fire" or self.errors:
            return data
        try:
            roll = None
            if data.get("firers", "").strip():
                given = {"dice": data.get("fire_dice"), "fire_roll": data.get("fire_roll")}
                rolls = _rolls(given, D66, "fire_roll")
                if rolls is not None and len(rolls) != 1:
                    raise ValidationError({"fire_roll": _("Enter the one d66, e.g. 46.")})
                roll = rolls[0] if rolls else None
            data["fire"] = {
                "firers": parse_firers(data["firers"]) if data.get("firers", "").strip() else [],
                "targets": parse_targets(data.get("targets", ""), "targets"),
                "other": _other(data.get("other", ""), "other"),
                "roll": roll,
                "terrain_shift": data.get("terrain_shift"),
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
        if self.kind == "fire":
            out["fire"] = d["fire"]
        if self.kind == "own":
            out["losses"] = self.losses()
            out["check"] = self.check("assault")
        return out

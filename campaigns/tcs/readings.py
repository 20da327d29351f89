"""The rule readings an operation may change (`rules.tcs.options.TcsOptions`), with the help
text of rules/tcs/DECISIONS.md, and the form that edits them."""

from __future__ import annotations

import dataclasses
from enum import Enum

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.serial import to_data
from rules.tcs.options import CarriedRounding, KeyOffTable, TcsOptions

# name → (label, rule / ambiguity, help text from DECISIONS.md, reading when off/other)
READINGS = {
    "reserves_count_as_attack": (
        _("Reserves count as an Attack order"),
        "6.14.b, A 10",
        _(
            "The rulebook says reserves “have an Attack order for check-roll purposes”, but the "
            "check roll (1d6 ≥ rating, 6.14.d) does not depend on type, so the sentence would "
            "do nothing. On: a sheet with reserves is categorised (6.6) with an Attack mission, "
            "so a Hasty Defense or Move sheet with reserves rolls on the Attack row. Off: a "
            "label only."
        ),
    ),
    "own_prelims_slow_sheet": (
        _("A sheet's own preliminary instructions slow it"),
        "6.9.d, A 17",
        _(
            "6.9.d: “any unit assigned or executing preliminary instructions” gives 2 ticks, and "
            "nothing excludes the sheet's own units. So a vehicle sheet whose prelims started "
            "earns 6, not 9. Off: the counter's own prelims are ignored."
        ),
    ),
    "reduce_from_zero_size": (
        _("Reduce weighted turns from a size of 0"),
        "6.13.d, A 16",
        _(
            "WT × 0 / new = 0 applied literally: units with no battalion/vehicle morale "
            "prepared nothing for the newcomers. Off: weighted turns stay unchanged when the "
            "old element count is 0."
        ),
    ),
    "vehicles_only_join_vehicle_sheets": (
        _("Vehicles only join vehicle sheets"),
        "6.13.c, A 14",
        _(
            "The note forbids adding vehicles to a non-vehicle implemented sheet (draw a new "
            "sheet instead). A “vehicle sheet” = every active unit is a vehicle. Off: allowed "
            "(the addition then simply accumulates at its own rate)."
        ),
    ),
    "key_off_table": (
        _("A Command Prep key beyond the table"),
        "6.9.f, A 36",
        _(
            "Clamp: a rating + size beyond the supplied rows reads the nearest row (charts "
            "usually print an open-ended last row). Error: refused."
        ),
    ),
    "vehicle_recovery_even_hours_at_night": (
        _("Vehicle morale recovers only on even hours at night"),
        "17.8.d, 26.1.d, A 9",
        _(
            "26.1.d names only battalion morale, but the sequence of play cites 26.1.d for both "
            "and 17.8.d says “analogous to battalions”."
        ),
    ),
    "vehicle_doubling_counts_current_loss": (
        _("Vehicle doubling counts the loss being applied"),
        "17.8.e",
        _(
            "“If the formation has already lost at least half its steps when this new loss is "
            "applied”: off counts the losses already taken, not the step being applied (9 steps, "
            "4 lost → ×1; 5 lost → ×2). On counts the current step."
        ),
    ),
    "vehicle_check_after_each_point": (
        _("A vehicle morale check after each point"),
        "17.8.b, A 6",
        _(
            "“For each point … check”: one d6 per point, each point added then checked against "
            "the running value (the 17.8 example adds one point at a time). Off: add all the "
            "points, then roll once per point against the final value."
        ),
    ),
    "carried_rounding": (
        _("Rounding of carried units' losses"),
        "10.0.g, A 39",
        _(
            "Standard: the example's “50 % rounded up” is what standard rounding (1.4) does to "
            "2.5; ⅓ of 4 = 1.33 → 1. Up: always round up."
        ),
    ),
    "move_defense_units_unassigned_for_morale": (
        _("Units on Move and defensive sheets take the unassigned +2"),
        "6.3, 6.3.b",
        _(
            "6.3 says units on Move and defensive sheets are “treated as unassigned units "
            "executing preliminary instructions”; taken for morale, a Prepared Defense could "
            "never dig in (6.3.a against 6.16). Off: they are assigned for morale (the "
            "sentence is read for movement, 6.3.c). On: they take +2 on the Morale Table."
        ),
    ),
    "breach_needs_every_unit": (
        _("A breach needs every breaching unit fit"),
        "21.3.c",
        _(
            "“The unit or units” still in the hex, neither Suppressed nor Paralyzed, place the "
            "Breach. Off: one fit unit is enough. On: every breaching unit must be fit."
        ),
    ),
    "battalion_fire_per_battery": (
        _("Battalion fire costs one volley per battery"),
        "18.2.c, 18.5.b, A 27",
        _(
            "18.2.c prices a battalion marker at 3 battery volleys; 18.5.b says all the "
            "battalion's batteries fire and spend. Off: 3 volleys. On: one per battery firing."
        ),
    ),
    "artillery_point_dice_summed": (
        _("Artillery point fire sums two dice"),
        "18.9.b, A 26",
        _(
            "“Roll two dice” against the Artillery Point Fire Table: on, their sum (like the "
            "sortie point fire); off, read as a d66 (11–66)."
        ),
    ),
    "overrun_escalates": (
        _("Overruns escalate morale like assaults"),
        "22.0.c, 23.0",
        _(
            "Overruns are “performed like assaults”: on, a second result escalates as in "
            "22.0.c; off, an overrun's morale results apply as outside an assault."
        ),
    ),
    "day_turn_minutes": (
        _("Minutes in a day turn"),
        "1.3",
        _("Series default 20; a title may differ."),
    ),
    "night_turn_minutes": (
        _("Minutes in a night turn"),
        "1.3, 26.1.d",
        _("Series default 60; a title may differ."),
    ),
}
ENUM_LABELS = {
    KeyOffTable.CLAMP: _("Clamp to the nearest row"),
    KeyOffTable.ERROR: _("Refuse"),
    CarriedRounding.STANDARD: _("Standard rounding"),
    CarriedRounding.UP: _("Always up"),
}


def reading_rows(options: TcsOptions) -> list[dict]:
    """Each reading with its value, default, rule and help text, for the page."""
    rows = []
    for f in dataclasses.fields(TcsOptions):
        label, rule, help_text = READINGS[f.name]
        value = getattr(options, f.name)
        rows.append(
            {
                "name": f.name,
                "label": label,
                "rule": rule,
                "help": help_text,
                "value": ENUM_LABELS.get(value, to_data(value)),
                "is_default": value == f.default,
            }
        )
    return rows


class ReadingsForm(forms.Form):
    """One field per reading; its initial value is the operation's."""

    def __init__(self, options: TcsOptions, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for f in dataclasses.fields(TcsOptions):
            label, rule, help_text = READINGS[f.name]
            default, current = f.default, getattr(options, f.name)
            full_help = f"[{rule}] {help_text}"
            if isinstance(default, bool):
                field = forms.TypedChoiceField(
                    choices=[("true", _("Yes")), ("false", _("No"))],
                    coerce=lambda v: v == "true",
                    initial="true" if current else "false",
                )
            elif isinstance(default, Enum):
                field = forms.ChoiceField(
                    choices=[(m.value, ENUM_LABELS.get(m, m.value)) for m in type(default)],
                    initial=current.value,
                )
            else:
                field = forms.IntegerField(min_value=1, max_value=240, initial=current)
            field.label, field.help_text = label, full_help
            self.fields[f.name] = field

    def values(self) -> dict:
        return dict(self.cleaned_data)

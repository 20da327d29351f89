"""The minefields page's forms [21]: a marker placed [21.1], the side's own units entering a
minefield hex [21.0.b–c, 21.2] and a breach attempt [21.3]. The API posts to the same forms
(campaigns/api/tcs/minefields.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns.services.tcs.minefields import Entry
from campaigns.tcs.forms.combat import CheckFieldsMixin, shift_field
from campaigns.tcs.forms.turn import _entered_value
from rules.dice import D66
from rules.tcs.fire_tables import MORALE_CHECK, NO_EFFECT
from rules.tcs.minefields import Movement

MOVE_CHOICES = [
    ("", _("does not enter")),
    (Movement.FOOT.value, _("enters on foot")),
    (Movement.VEHICLE.value, _("enters with vehicle movement")),
]
FIRE_RESULT_CHOICES = [
    ("", _("— read from the operation's Fire Table")),
    ("none", _("No Effect")),
    ("check", _("Morale Check")),
    *[(str(n), str(n)) for n in range(1, 21)],
]
FIRE_RESULTS = {"none": NO_EFFECT, "check": MORALE_CHECK}


def marker_label(row) -> str:
    state = _("breached") if row.get("breached") else _("intact")
    return f"{row['hex']} ({state})"


class PlaceForm(forms.Form):
    """A marker at set-up, or from a sheet's granted count with the two distances confirmed."""

    hex = forms.CharField(label=_("Hex"), max_length=20)
    source = forms.ChoiceField(label=_("Placed"))
    near_platoons = forms.BooleanField(
        label=_("Within 4 hexes of the two infantry platoons that give it [21.1]"), required=False
    )
    far_from_enemy = forms.BooleanField(
        label=_("At least 5 hexes from the nearest enemy unit [21.1]"), required=False
    )
    enemy_may_deploy = forms.BooleanField(
        label=_("The enemy may still set up in this hex [21.1]"), required=False
    )
    enemy_set_up_first = forms.BooleanField(
        label=_("The enemy has already set up [21.1]"), required=False
    )

    def __init__(self, grants, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheets = {str(g["sheet"].pk): g["sheet"] for g in grants}
        self.fields["source"].choices = [("pregame", _("at set-up"))] + [
            (
                str(g["sheet"].pk),
                _("from sheet %(s)s (%(left)s of %(n)s left)")
                % {"s": g["sheet"].code, "left": g["left"], "n": g["granted"]},
            )
            for g in grants
        ]

    def sheet(self):
        return self.sheets.get(self.cleaned_data.get("source", ""))


def _minefield_field():
    return forms.ChoiceField(label=_("Minefield"))


def _set_minefields(form, rows) -> None:
    form.rows = {str(r["id"]): r for r in rows}
    form.fields["minefield"].choices = [(k, marker_label(r)) for k, r in form.rows.items()]


class MineCheckFieldsMixin(CheckFieldsMixin):
    """Only the morale-check fields a minefield's check can use [21.0.b, 17.2]: the d66, the
    result read off the chart, the night and terrain modifiers (and the largest unit on a
    tie). Crossfire, the assault's answers and the Air & Artillery Phase's are dropped."""

    crossfire = None
    in_assault = None
    assault_choice = None
    artillery_air_phase = None
    syr_as_paralyzed = None


class MineAttackFieldsMixin(MineCheckFieldsMixin):
    """The attack's values read off a printed Fire Table, the table's dice, the losses."""

    stacking_shift = shift_field(_("Stacking shift read off the chart [11.3.e]"))
    fire_result = forms.ChoiceField(
        label=_("Result read off the printed Fire Table"),
        required=False,
        choices=FIRE_RESULT_CHOICES,
    )
    rolls = forms.CharField(
        label=_("Your rolls"),
        required=False,
        max_length=200,
        help_text=_(
            "In order: the d66 of the attack, one 2d6 total per vehicle step, then any d6 for "
            "vehicle morale. The morale check's d66 goes in “Your d66”."
        ),
    )
    first_step_choice = forms.CharField(
        label=_("The largest unit, if several tie, loses the first step [10.0.f]"),
        required=False,
        max_length=40,
    )

    def _losses_fields(self, units) -> None:
        for key, u in self.unit_map.items():
            self.fields[f"loss_{key}"] = forms.IntegerField(
                label=_("Steps lost by %(u)s, if several share the loss") % {"u": u.code},
                required=False,
                min_value=0,
                max_value=u.steps_left,
            )

    def entry(self, moves) -> Entry:
        d = self.cleaned_data
        result = d.get("fire_result") or ""
        return Entry(
            units=moves,
            retreat=bool(d.get("retreat")),
            assault=bool(d.get("assault")),
            stacking_shift=d.get("stacking_shift"),
            result=FIRE_RESULTS.get(result, int(result) if result.isdigit() else None),
            losses={
                u.code: d.get(f"loss_{k}") or 0
                for k, u in self.unit_map.items()
                if d.get(f"loss_{k}")
            },
            first_step_choice=(d.get("first_step_choice") or "").strip() or None,
        )

    def clean(self):
        # not CheckFieldsMixin.clean: the check's d66 is asked only when a check is forced
        data = forms.Form.clean(self)
        if data.get("dice") != "entered":
            data["rolls_list"], data["roll_value"] = None, None
            return data
        try:
            data["roll_value"] = _entered_value(data.get("roll", ""), D66, "roll")
            data["rolls_list"] = [
                _whole(part) for part in (data.get("rolls") or "").replace(",", " ").split()
            ]
        except ValidationError as exc:
            for name, errors in exc.message_dict.items():
                self.add_error(name, errors)
        return data


def _whole(text: str) -> int:
    if not text.isdigit():
        raise ValidationError({"rolls": _("Enter the numbers rolled, e.g. “65 8 4”.")})
    return int(text)


def _units_map(units) -> dict:
    return {str(u.pk): u for u in units if not u.eliminated}


class EnterForm(MineAttackFieldsMixin):
    """The side's units entering a minefield hex, each on foot or with vehicle movement."""

    minefield = _minefield_field()
    retreat = forms.BooleanField(label=_("Retreating into the hex [17.4.h]"), required=False)
    assault = forms.BooleanField(label=_("Assaulting into the hex [22.0]"), required=False)
    field_order = ["minefield"]

    def __init__(self, units, rows, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _set_minefields(self, rows)
        self.unit_map = _units_map(units)
        for key, u in self.unit_map.items():
            self.fields[f"move_{key}"] = forms.ChoiceField(
                label=f"{u.code} ({u.steps_left}/{u.steps})",
                choices=MOVE_CHOICES,
                required=False,
            )
        self._losses_fields(units)

    def moves(self) -> dict[str, str]:
        d = self.cleaned_data
        return {u.code: d[f"move_{k}"] for k, u in self.unit_map.items() if d.get(f"move_{k}")}

    def clean(self):
        data = super().clean()
        if not self.errors and not self.moves():
            self.add_error(None, _("[21.0.b] Choose the units entering and how they move."))
        return data


class BreachForm(MineAttackFieldsMixin):
    """A breach attempt: the breaching units, the eligibility answers [21.3, 21.3.a]."""

    minefield = _minefield_field()
    units = forms.MultipleChoiceField(
        label=_("Breaching infantry"), widget=forms.CheckboxSelectMultiple
    )
    began_adjacent = forms.BooleanField(
        label=_("They began this Action Phase in or next to the minefield hex [21.3.a]"),
        required=False,
    )
    idle = forms.BooleanField(
        label=_("They have not moved, changed mode, fired an SFA or made AT rolls [21.3]"),
        required=False,
    )
    dismounted = forms.BooleanField(label=_("They are dismounted [21.3.a]"), required=False)
    enemy_in_hex = forms.BooleanField(label=_("Enemy units hold the hex [21.3]"), required=False)
    gone = forms.MultipleChoiceField(
        label=_("Left the hex before the attack (overwatch, artillery) [21.3.c]"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    field_order = ["minefield", "units"]

    def __init__(self, units, rows, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _set_minefields(self, rows)
        self.unit_map = _units_map(units)
        choices = [(k, f"{u.code} ({u.steps_left}/{u.steps})") for k, u in self.unit_map.items()]
        self.fields["units"].choices = choices
        self.fields["gone"].choices = choices
        self._losses_fields(units)

    def chosen(self) -> list[str]:
        return [self.unit_map[k].code for k in self.cleaned_data.get("units", [])]

    def still_in_hex(self) -> list[str]:
        gone = {self.unit_map[k].code for k in self.cleaned_data.get("gone", [])}
        return [c for c in self.chosen() if c not in gone]

"""The resolve panel's forms: fire [11, 12, 16], a fire result applied by the target's owner,
morale checks [17.2], recovery [17.7] and a unit's mode and marker. The API posts to the
same forms (campaigns/api/tcs/combat.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from campaigns.models import bounds as b
from campaigns.models.tcs import Mode, MoraleState
from campaigns.services.tcs.combat import CAUSES, Check
from campaigns.services.tcs.fire import FireOrder
from campaigns.tcs.combat_lines import FIRER_HELP, TARGET_HELP, parse_firer_lines, parse_targets
from campaigns.tcs.forms.setup import DICE_CHOICES
from campaigns.tcs.forms.turn import _entered_value
from rules.dice import D6, D66, TWO_D6
from rules.tcs.fire_tables import TERRAIN_WORDS, Terrain
from rules.tcs.morale_check import Modifiers
from rules.tcs.morale_table import RESULT_WORDS, MoraleResult

say_lazy = lazy(say, str)
SHIFT = {"min_value": -20, "max_value": 20}


def lines_field(label, help_text, *, required=False, rows=3, max_length=2000) -> forms.CharField:
    """Typed lines (units, targets, “name; shift” modifiers) in a textarea."""
    return forms.CharField(
        label=label,
        required=required,
        max_length=max_length,
        widget=forms.Textarea(attrs={"rows": rows}),
        help_text=help_text,
    )


def shift_field(label) -> forms.IntegerField:
    """An optional shift or modifier read off the printed chart (−20 to 20)."""
    return forms.IntegerField(label=label, required=False, **SHIFT)


def terrain_field() -> forms.ChoiceField:
    """The target hex's terrain [9.3]."""
    return forms.ChoiceField(
        label=_("Target hex terrain [9.3]"),
        choices=[(t.value, say_lazy(w)) for t, w in TERRAIN_WORDS.items()],
        initial=Terrain.OPEN.value,
    )


ACTION_CHOICES = [
    ("sfa", _("Suppressive fire action (SFA) [13]")),
    ("pfa", _("Point fire action (PFA) [14]")),
    ("overwatch", _("Overwatch [15]")),
    ("", _("Other fire (checked at the table)")),
]
EVENT_CHOICES = [
    ("movement", _("a movement event")),
    ("fire", _("a fire event")),
    ("recovery", _("a recovery event")),
    ("final", _("final overwatch (an assault)")),
]
KIND_CHOICES = [
    ("area", _("Area fire [11]")),
    ("point", _("Point fire [12]")),
    ("at", _("AT rolls [16]")),
]
READ_LABELS = {
    "terrain_shift": _("Terrain/posture shift read off the chart"),
    "range_shift": _("Range shift read off the chart"),
    "stacking_shift": _("Stacking shift read off the chart"),
    "differential_shift": _("Differential shift read off the chart"),
    "at_value": _("AT Roll Table number read off the chart"),
}


def _other(text: str, field: str) -> tuple[tuple[str, int], ...]:
    """ "night; -2" lines: other modifiers read off the chart, by name."""
    out = []
    for n, line in enumerate((text or "").splitlines(), 1):
        if not line.strip():
            continue
        name, _sep, value = line.rpartition(";")
        try:
            shift = int(value)
        except ValueError:
            shift = None
        if not name.strip() or shift is None or not -20 <= shift <= 20:
            raise ValidationError(
                {field: _("Line %(n)s: write “name; shift”, e.g. “night; -2”.") % {"n": n}}
            )
        out.append((name.strip()[:60], shift))
    return tuple(out)


def _rolls(data, kind, field="rolls") -> list[int] | None:
    if data.get("dice") != "entered":
        return None
    values = [
        _entered_value(part, kind, field)
        for part in (data.get(field) or "").replace(",", " ").split()
    ]
    if not values:
        raise ValidationError({field: _("Enter what you rolled, or let the site roll.")})
    return values


class FireForm(forms.Form):
    kind = forms.ChoiceField(label=_("Fire"), choices=KIND_CHOICES, initial="area")
    action = forms.ChoiceField(
        label=_("Fire action"),
        choices=ACTION_CHOICES,
        initial="sfa",
        required=False,
        help_text=_("Its conditions are checked for each firer (see the firer words)."),
    )
    event = forms.ChoiceField(
        label=_("Overwatch: the event answered [15.2]"),
        choices=EVENT_CHOICES,
        initial="movement",
        required=False,
    )
    firers = lines_field(_("Firing units"), FIRER_HELP)
    targets = lines_field(_("Target hex"), TARGET_HELP, required=True)
    terrain = terrain_field()
    spotted = forms.BooleanField(
        label=_("The target is spotted [7.0]"), required=False, initial=True
    )
    road_movement = forms.BooleanField(label=_("The target moved by road [11.3.f]"), required=False)
    other = lines_field(
        _("Other modifiers read off the chart"),
        _("One per line: “name; shift”, e.g. “night; -2” [11.3.f, 12.1.d, 16.0]."),
        rows=2,
        max_length=600,
    )
    terrain_shift = shift_field(READ_LABELS["terrain_shift"])
    range_shift = shift_field(READ_LABELS["range_shift"])
    stacking_shift = shift_field(READ_LABELS["stacking_shift"])
    differential_shift = shift_field(READ_LABELS["differential_shift"])
    at_value = forms.IntegerField(
        label=READ_LABELS["at_value"], required=False, min_value=2, max_value=12
    )
    distance = forms.ChoiceField(
        label=_("AT rolls: range"),
        choices=[("1", _("one hex")), ("0", _("in the hex"))],
        initial="1",
        required=False,
    )
    attacking_steps = forms.IntegerField(
        label=_("AT rolls: attacking infantry steps"), required=False, **b.form_range(b.STEPS)
    )
    dice = forms.ChoiceField(
        label=_("Dice"), choices=DICE_CHOICES, widget=forms.RadioSelect, initial="server"
    )
    rolls = forms.CharField(
        label=_("Your rolls"),
        required=False,
        max_length=120,
        help_text=_("Fire: the d66, e.g. 65. AT rolls: one 2d6 total each, e.g. “9 4”."),
    )

    CHART_READS = (
        "other",
        *READ_LABELS,
        "distance",
        "attacking_steps",
    )

    def main_fields(self):
        """What every fire asks; the chart values and the AT roll's are folded away."""
        return [f for f in self.visible_fields() if f.name not in self.CHART_READS]

    def chart_fields(self):
        return [self[name] for name in self.CHART_READS]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        kind = data["kind"]
        if kind != "at" and not data.get("firers", "").strip():
            self.add_error("firers", _("Write at least one line."))
            return data
        if kind == "at" and not data.get("attacking_steps"):
            self.add_error("attacking_steps", _("How many infantry steps make AT rolls?"))
            return data
        try:
            lines = parse_firer_lines(data["firers"]) if kind != "at" else []
            data["order"] = FireOrder(
                kind=kind,
                firers=[f for f, _state in lines],
                states=[state for _f, state in lines],
                action=data.get("action") or "",
                event=data.get("event") or "movement",
                targets=parse_targets(data["targets"]),
                terrain=Terrain(data["terrain"]),
                spotted=data.get("spotted", False),
                road_movement=data.get("road_movement", False),
                other=_other(data.get("other", ""), "other"),
                read={k: data.get(k) for k in READ_LABELS},
                distance=int(data.get("distance") or 1),
                attacking_steps=data.get("attacking_steps") or 0,
            )
            data["rolls_list"] = _rolls(data, TWO_D6 if kind == "at" else D66)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field, errors)
        return data


class StackForm(forms.Form):
    """Units of one's own stack, chosen among those in play."""

    units = forms.MultipleChoiceField(
        label=_("Units of the stack"), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, units, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.unit_map = {str(u.pk): u for u in units if not u.eliminated}
        self.fields["units"].choices = [
            (k, f"{u.code} ({u.steps_left}/{u.steps}, {u.get_morale_state_display()})")
            for k, u in self.unit_map.items()
        ]

    def chosen(self) -> list:
        return [self.unit_map[k] for k in self.cleaned_data.get("units", [])]

    def add_loss_fields(self) -> list[str]:
        """A "steps lost" field per unit of the stack (at most its steps left); their names."""
        for key, u in self.unit_map.items():
            self.fields[f"loss_{key}"] = forms.IntegerField(
                label=_("Steps lost by %(u)s") % {"u": u.code},
                required=False,
                min_value=0,
                max_value=u.steps_left,
            )
        return [f"loss_{key}" for key in self.unit_map]

    def losses(self) -> dict:
        """Unit → steps lost, for the units given any (needs `add_loss_fields`)."""
        return {
            u: self.cleaned_data.get(f"loss_{k}") or 0
            for k, u in self.unit_map.items()
            if self.cleaned_data.get(f"loss_{k}")
        }


class CheckFieldsMixin(forms.Form):
    """How the stack checks morale [17.2]: the d66, the result read off a printed chart, the
    Morale Table modifiers and the owner's answers."""

    dice = forms.ChoiceField(
        label=_("Dice"), choices=DICE_CHOICES, widget=forms.RadioSelect, initial="server"
    )
    roll = forms.CharField(label=_("Your d66"), required=False, max_length=4)
    result = forms.ChoiceField(
        label=_("Result read off the printed Morale Table"),
        required=False,
        choices=[("", _("— read from the operation's Morale Table"))]
        + [(r.value, say_lazy(RESULT_WORDS[r])) for r in MoraleResult],
    )
    night = shift_field(_("Night modifier [26.1.e]"))
    crossfire = shift_field(_("Crossfire modifier [11.4]"))
    terrain_modifier = shift_field(_("Target hex terrain modifier [17.2]"))
    in_assault = forms.BooleanField(label=_("In an assault [22.0.c]"), required=False)
    assault_choice = forms.ChoiceField(
        label=_("A second result in the assault"),
        required=False,
        choices=[("", "—"), ("retreat", _("retreat")), ("step_loss", _("lose a step"))],
    )
    artillery_air_phase = forms.BooleanField(
        label=_("From artillery in the Air & Artillery Phase [17.4.l]"), required=False
    )
    syr_as_paralyzed = forms.ChoiceField(
        label=_("Take Paralyzed instead of SYR [17.4.l]"),
        required=False,
        choices=[("", "—"), ("yes", _("yes")), ("no", _("no"))],
    )
    largest_choice = forms.CharField(
        label=_("The largest unit, if several tie [10.0.f]"), required=False, max_length=40
    )

    def check(self, cause: str = "fire") -> Check:
        d = self.cleaned_data
        choice = {"yes": True, "no": False}.get(d.get("syr_as_paralyzed") or "")
        return Check(
            cause=cause,
            modifiers=Modifiers(
                night=d.get("night") or 0,
                crossfire=d.get("crossfire") or 0,
                terrain=d.get("terrain_modifier") or 0,
            ),
            roll=d.get("roll_value"),
            result=d.get("result") or None,
            in_assault=bool(d.get("in_assault")),
            assault_choice=d.get("assault_choice") or None,
            largest_choice=(d.get("largest_choice") or "").strip() or None,
            artillery_air_phase=bool(d.get("artillery_air_phase")),
            syr_as_paralyzed=choice,
        )

    def clean(self):
        data = super().clean()
        if data.get("dice") == "entered":
            value = _entered_value(data.get("roll", ""), D66, "roll")
            if value is None:
                self.add_error("roll", _("Enter what you rolled, or let the site roll."))
            data["roll_value"] = value
        return data


class MoraleCheckForm(CheckFieldsMixin, StackForm):
    cause = forms.ChoiceField(
        label=_("What forces the check"),
        choices=[(k, say_lazy(v)) for k, v in CAUSES.items()],
        initial="fire",
    )
    field_order = ["units", "cause"]


class FireApplyForm(CheckFieldsMixin, StackForm):
    """The owner's side of a fire result: steps per unit, then the morale check. Not in an
    assault (its own page asks those answers); the 17.4.l choice only for an artillery
    barrage; the vehicle morale dice only when the side has a vehicle morale track."""

    in_assault = None
    assault_choice = None
    artillery_air_phase = None

    vehicle_dice = forms.ChoiceField(
        label=_("Vehicle morale checks"),
        choices=DICE_CHOICES,
        widget=forms.RadioSelect,
        initial="server",
        required=False,
    )
    vehicle_rolls = forms.CharField(
        label=_("Your d6 for vehicle morale, in order"), required=False, max_length=60
    )

    def __init__(self, units, *args, artillery: bool = False, **kwargs):
        super().__init__(units, *args, **kwargs)
        self.add_loss_fields()
        self.fields["units"].required = False
        if not artillery:
            del self.fields["syr_as_paralyzed"]
        if not any(u.formation and u.formation.morale == "vehicle" for u in units):
            del self.fields["vehicle_dice"], self.fields["vehicle_rolls"]

    def clean(self):
        data = super().clean()
        vehicle = {"dice": data.get("vehicle_dice"), "vehicle_rolls": data.get("vehicle_rolls")}
        try:
            data["vehicle_rolls_list"] = _rolls(vehicle, D6, "vehicle_rolls")
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field, errors)
        return data


class RecoverForm(StackForm):
    in_artillery_zone = forms.BooleanField(
        label=_("The stack is inside an artillery attack zone [17.7.b]"), required=False
    )


class ArriveForm(StackForm):
    """Reinforcements placed at their entry area at the start of the Action Phase [27.2.a]."""

    def __init__(self, units, *args, **kwargs):
        super().__init__(units, *args, **kwargs)
        self.fields["units"].label = _("Arriving units")


class UnitStateForm(forms.Form):
    unit = forms.ChoiceField(label=_("Unit"))
    mode = forms.ChoiceField(label=_("Mode"), choices=Mode.choices, required=False)
    morale = forms.IntegerField(
        label=_("Printed morale"), required=False, **b.form_range(b.UNIT_MORALE)
    )
    morale_state = forms.ChoiceField(
        label=_("Marker"), choices=[("", "—"), *MoraleState.choices], required=False
    )
    reason = forms.CharField(label=_("Why the marker is corrected"), required=False, max_length=200)

    def __init__(self, units, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.unit_map = {str(u.pk): u for u in units if not u.eliminated}
        self.fields["unit"].choices = [(k, u.code) for k, u in self.unit_map.items()]

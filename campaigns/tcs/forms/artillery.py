"""The artillery page's forms [18.0–18.10, 24.3.c, 24.5.a]: a battery (and its deletion), an
ammunition stock (with the TCS 2-0x ÷4 helper), a mission as announced, the barrage attack
on one hex, a mortar or IG round, and a marker removed by hand. The API posts to
the same forms (campaigns/api/tcs/artillery.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from campaigns.services.tcs.artillery import MortarRound
from campaigns.services.tcs.artillery_missions import AttackOrder, MissionOrder
from campaigns.tcs.combat_lines import TARGET_HELP, parse_targets
from campaigns.tcs.forms.combat import (
    READ_LABELS,
    _other,
    lines_field,
    say_lazy,
    shift_field,
    terrain_field,
)
from campaigns.tcs.forms.setup import DICE_CHOICES
from rules.tcs.ammo import AMMO_WORDS, Battery
from rules.tcs.artillery import SHOOT_WORDS, MissionKind, Shoot
from rules.tcs.fire_tables import Terrain
from rules.tcs.smoke import MarkerKind

AF = {"min_value": 0, "max_value": 99}
MISSION_KIND_CHOICES = [
    (MissionKind.HE.value, _("HE barrage [18.5.a]")),
    (MissionKind.CONTINUOUS.value, _("Continuous barrage [18.6.b]")),
    (MissionKind.SMOKE.value, _("Smoke [18.5.c]")),
    (MissionKind.ILLUM.value, _("Illumination [18.5.d]")),
    (MissionKind.ROCKET.value, _("Rockets [18.6.c]")),
]
AMMO_CHOICES = [(t.value, say_lazy(w)) for t, w in AMMO_WORDS.items()]
SHOOT_CHOICES = [("", _("— roll on the operation's Adjustment Table"))] + [
    (s.value, say_lazy(w)) for s, w in SHOOT_WORDS.items()
]


def _numbers(data, field: str = "rolls") -> list[int] | None:
    """The dice rolled at the table, in order (each checked when the procedure reads it)."""
    if data.get("dice") != "entered":
        return None
    parts = (data.get(field) or "").replace(",", " ").split()
    if not parts or not all(p.isdigit() and len(p) <= 2 for p in parts):
        raise ValidationError(
            {field: _("Enter what you rolled, e.g. “46 2 5”, or let the site roll.")}
        )
    return [int(p) for p in parts]


class DiceFields(forms.Form):
    dice = forms.ChoiceField(
        label=_("Dice"), choices=DICE_CHOICES, widget=forms.RadioSelect, initial="server"
    )
    rolls = forms.CharField(
        label=_("Your rolls, in order"),
        required=False,
        max_length=60,
        help_text=_("The d66 first, then each d6 the procedure asks for, e.g. “46 2 5”."),
    )


class BatteryForm(forms.Form):
    original = forms.CharField(
        label=_("Battery to change (empty: a new one)"), required=False, max_length=40
    )
    name = forms.CharField(label=_("Battery"), max_length=40)
    calibre = forms.CharField(label=_("Calibre (as the ammunition record names it)"), max_length=20)
    calibre_mm = forms.IntegerField(
        label=_("Calibre in mm"), required=False, min_value=1, max_value=999
    )
    on_map = forms.BooleanField(label=_("On-map artillery [24.6]"), required=False)
    good_af = forms.IntegerField(label=_("Barrage factor, Good Shoot side"), **AF)
    bad_af = forms.IntegerField(label=_("Barrage factor, Bad Shoot side"), **AF)
    rocket = forms.BooleanField(label=_("Rockets [18.6.c]"), required=False)
    adjustment = forms.IntegerField(
        label=_("Adjustment value (the column of the Adjustment Table)"),
        required=False,
        min_value=-20,
        max_value=20,
    )

    def battery(self) -> Battery:
        d = self.cleaned_data
        return Battery(
            name=d["name"].strip(),
            calibre=d["calibre"].strip(),
            calibre_mm=d.get("calibre_mm"),
            on_map=bool(d.get("on_map")),
            good_af=d["good_af"],
            bad_af=d["bad_af"],
            rocket=bool(d.get("rocket")),
            adjustment=d.get("adjustment"),
        )


class StockForm(forms.Form):
    type = forms.ChoiceField(label=_("Ammunition"), choices=AMMO_CHOICES)
    calibre = forms.CharField(label=_("Calibre"), max_length=20)
    volleys = forms.IntegerField(label=_("Battery volleys issued"), min_value=0, max_value=999)
    legacy = forms.BooleanField(
        label=_("A TCS 2-01…2-05 allocation: divide by 4 (Illum unchanged) [18.2]"),
        required=False,
    )


class MissionForm(DiceFields):
    batteries = forms.MultipleChoiceField(
        label=_("Firing batteries"), widget=forms.CheckboxSelectMultiple
    )
    kind = forms.ChoiceField(label=_("Mission"), choices=MISSION_KIND_CHOICES)
    battalion = forms.BooleanField(label=_("Battalion fire: 7 hexes [18.5.b]"), required=False)
    rapid = forms.BooleanField(label=_("Rapid fire (122 mm or less) [18.6.a]"), required=False)
    hex = forms.CharField(label=_("Target hex"), max_length=20)
    observer_fire_mode = forms.BooleanField(
        label=_("The observer is in Fire mode [18.4.b]"), required=False, initial=True
    )
    observer_unmarked = forms.BooleanField(
        label=_("The observer is neither Suppressed nor Paralyzed"), required=False, initial=True
    )
    observer_los = forms.BooleanField(
        label=_("Clear LOS to the target hex [18.3]"), required=False, initial=True
    )
    observer_visible = forms.BooleanField(
        label=_("The target hex is within visibility"), required=False, initial=True
    )
    modifiers = lines_field(
        _("Column modifiers read off the chart"),
        _("One per line: “name; value”, e.g. “observer; -1” [18.7.a]."),
        rows=2,
        max_length=600,
    )
    shoot = forms.ChoiceField(
        label=_("Result read off the printed Adjustment Table"),
        choices=SHOOT_CHOICES,
        required=False,
    )
    all_water = forms.BooleanField(label=_("All-water target hex [19.1.b]"), required=False)

    def __init__(self, batteries, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["batteries"].choices = [(b.name, b.name) for b in batteries]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["order"] = MissionOrder(
                batteries=tuple(data["batteries"]),
                kind=MissionKind(data["kind"]),
                hex=data["hex"].strip(),
                battalion=bool(data.get("battalion")),
                rapid=bool(data.get("rapid")),
                fire_mode=bool(data.get("observer_fire_mode")),
                suppressed=not data.get("observer_unmarked"),
                los=bool(data.get("observer_los")),
                within_visibility=bool(data.get("observer_visible")),
                modifiers=_other(data.get("modifiers", ""), "modifiers"),
                shoot=data.get("shoot") or None,
                all_water=bool(data.get("all_water")),
            )
            data["rolls_list"] = _numbers(data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field, errors)
        return data


class AttackForm(DiceFields):
    zone = forms.MultipleChoiceField(
        label=_("Missions with this hex in their zone"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    adjacent = forms.MultipleChoiceField(
        label=_("Missions with this hex next to their zone (half factor) [18.5.a]"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    targets = lines_field(_("Target hex"), TARGET_HELP, required=True)
    terrain = terrain_field()
    other = lines_field(
        _("Other modifiers read off the chart"),
        _("One per line: “name; shift”, e.g. “night; -2”."),
        rows=2,
        max_length=600,
    )
    terrain_shift = shift_field(READ_LABELS["terrain_shift"])
    stacking_shift = shift_field(READ_LABELS["stacking_shift"])
    p_steps = forms.IntegerField(
        label=_("P-target steps in the hex [18.9]"), required=False, min_value=0, max_value=40
    )
    kill_number = forms.IntegerField(
        label=_("Artillery Point Fire Table number read off the chart"),
        required=False,
        min_value=2,
        max_value=66,
    )

    def __init__(self, missions, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(c.pk), mission_label(c)) for c in missions]
        self.fields["zone"].choices = choices
        self.fields["adjacent"].choices = choices

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        zone, near = data.get("zone") or [], data.get("adjacent") or []
        if set(zone) & set(near):
            self.add_error("adjacent", _("A mission hits this hex in its zone or next to it."))
            return data
        try:
            data["order"] = AttackOrder(
                missions=tuple([(int(k), True) for k in zone] + [(int(k), False) for k in near]),
                targets=parse_targets(data["targets"]),
                terrain=Terrain(data["terrain"]),
                other=_other(data.get("other", ""), "other"),
                read={
                    "terrain_shift": data.get("terrain_shift"),
                    "stacking_shift": data.get("stacking_shift"),
                },
                p_steps=data.get("p_steps") or 0,
                kill_number=data.get("kill_number"),
            )
            data["rolls_list"] = _numbers(data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field, errors)
        return data


def mission_label(combat) -> str:
    r = combat.result
    shoot = say(SHOOT_WORDS[Shoot(r["fires_as"])]) if r.get("fires_as") else "—"
    return f"{', '.join(combat.inputs.get('batteries', []))} · {r.get('hex', '')} · {shoot}"


class BatteryDeleteForm(forms.Form):
    """Strike a battery off; the checkbox is the page's confirmation."""

    name = forms.ChoiceField(label=_("Battery"))
    confirm = forms.BooleanField(
        label=_("Yes, delete this battery from the record"),
        help_text=_("A battery that fired this turn cannot be deleted until the next turn."),
    )

    def __init__(self, batteries, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].choices = [(b.name, b.name) for b in batteries]


class MarkerRemoveForm(forms.Form):
    """One Smoke or Illum marker taken off by hand, a correction with its reason."""

    marker = forms.ChoiceField(label=_("Marker"))
    reason = forms.CharField(label=_("Why (logged for both sides)"), max_length=200)

    def __init__(self, rows, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["marker"].choices = [
            (f"{i}:{r['hex']}", f"{r['kind']} · {r['hex']} · {r['owner']}")
            for i, r in enumerate(rows)
        ]

    def clean(self):
        data = super().clean()
        index, _sep, hex_ = (data.get("marker") or "").partition(":")
        data["index"], data["hex"] = (int(index), hex_) if index.isdigit() else (-1, "")
        return data


MORTAR_KIND_CHOICES = [
    (MarkerKind.SMOKE.value, _("Smoke round")),
    (MarkerKind.ILLUM.value, _("Illumination round")),
]
WEAPON_CHOICES = [
    ("mortar", _("Mortar (80 mm or more) [24.3.c]")),
    ("ig", _("IG (100 mm or more) [24.5.a]")),
]
SMOKE_RESULT_CHOICES = [
    ("", _("— roll against the number read off the chart")),
    ("yes", _("smoke placed")),
    ("no", _("no smoke")),
]


class MortarRoundForm(DiceFields):
    """A mortar or IG smoke or illumination round instead of an SFA [24.3.c, 24.5.a]."""

    kind = forms.ChoiceField(label=_("Round"), choices=MORTAR_KIND_CHOICES)
    weapon = forms.ChoiceField(label=_("Firing weapon"), choices=WEAPON_CHOICES)
    calibre_mm = forms.IntegerField(label=_("Calibre in mm"), min_value=1, max_value=999)
    hex = forms.CharField(label=_("Target hex"), max_length=20)
    success_from = forms.IntegerField(
        label=_("Lowest d6 that places smoke, read off the Mortar and IG Smoke Table"),
        required=False,
        min_value=1,
        max_value=7,
    )
    succeeded = forms.ChoiceField(
        label=_("Or the result read off the chart"), choices=SMOKE_RESULT_CHOICES, required=False
    )
    all_water = forms.BooleanField(label=_("All-water target hex [19.1.b]"), required=False)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        data["order"] = MortarRound(
            kind=MarkerKind(data["kind"]),
            hex=data["hex"].strip(),
            mortar=data["weapon"] == "mortar",
            calibre_mm=data["calibre_mm"],
            success_from=data.get("success_from"),
            succeeded={"yes": True, "no": False}.get(data.get("succeeded") or ""),
            all_water=bool(data.get("all_water")),
        )
        try:
            smoke_roll = data["kind"] == "smoke" and data["order"].succeeded is None
            data["rolls_list"] = _numbers(data) if smoke_roll else _numbers_or_none(data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field, errors)
        return data


def _numbers_or_none(data) -> list[int] | None:
    """No die is rolled: entered dice mean an empty list (the site rolls nothing either)."""
    return [] if data.get("dice") == "entered" else None

"""The in-battle forms of a "1936" battle: units' set-up, initiative, fire, assaults,
bombardment, air attack, orders, command check, end-of-turn recovery, fog of war and
corrections. Every field is declared on the class (the API documents them); the units a
player may choose are filled in from the battle (`battle=`, `me=`): a hidden enemy unit is
only its token."""

from __future__ import annotations

import json
import re

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.rosters.forms.common import DiceForm
from rules.m1936 import bombard as m36bo
from rules.m1936.assault import AT_WEAPONS
from rules.m1936.construction import COVER_TYPES
from rules.m1936.fire import Band, InfantryFireMods
from rules.m1936.units import PROLONGED, STATES
from rules.m1936.vehicles import Facing
from rules.m1936.weather import SmokeOrigin

R_FIELD = {"min_value": -20, "max_value": 20}


BAND_WORDS = {
    Band.SHORT: _("short range"),
    Band.MEDIUM: _("medium range"),
    Band.LONG: _("long range"),
}
BAND_CHOICES = [(b.value, BAND_WORDS[b]) for b in Band]
FACING_WORDS = {
    Facing.FRONT: _("front armour"),
    Facing.SIDE: _("side armour"),
    Facing.REAR: _("rear armour"),
}
FACING_CHOICES = [(f.value, FACING_WORDS[f]) for f in Facing]

# the API schema's name for the cover choices (config/settings.py ENUM_NAME_OVERRIDES)
COVER_VALUES = tuple(COVER_TYPES)


class ChoiceListField(forms.MultipleChoiceField):
    """Several choices: checkboxes on the page; a JSON list or "a, b" text through the API."""

    widget = forms.CheckboxSelectMultiple

    def to_python(self, value):
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                try:
                    value = json.loads(text)
                except ValueError:
                    raise forms.ValidationError(_("A list of choices.")) from None
            else:
                value = [v for v in re.split(r"[,\s]+", text) if v]
        return super().to_python(value)


class NumberListField(forms.CharField):
    """Whole numbers separated by commas (or a JSON list)."""

    def to_python(self, value):
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        text = (super().to_python(value) or "").strip().strip("[]")
        try:
            return [int(v) for v in re.split(r"[,\s;]+", text) if v]
        except ValueError:
            raise forms.ValidationError(_("Whole numbers separated by commas.")) from None


class PairsField(forms.CharField):
    """ "unit number: value" pairs, e.g. "1: 4, 2: 3" (unit 1 has 4), or a JSON object."""

    def to_python(self, value):
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        text = (super().to_python(value) or "").strip()
        if text.startswith("{"):
            try:
                text = ", ".join(f"{k}: {v}" for k, v in json.loads(text).items())
            except (ValueError, AttributeError):
                raise forms.ValidationError(_("Pairs such as “1: 4, 2: 3”.")) from None
        pairs = {}
        for part in re.split(r"[,;\n]+", text):
            if not part.strip():
                continue
            m = re.fullmatch(r"\s*(\d+)\s*[:=]\s*(-?\d+(?:\.\d+)?)\s*", part)
            if not m:
                raise forms.ValidationError(_("Pairs such as “1: 4, 2: 3”."))
            number = float(m.group(2))
            pairs[str(int(m.group(1)) - 1)] = int(number) if number.is_integer() else number
        return pairs


def unit_choices(side, *, own: bool) -> list[tuple[str, str]]:
    """(key, name) of a side's units; a hidden unit of the other side is its token only."""
    if side is None:
        return []
    choices = []
    for key, u in (side.units or {}).items():
        if not own and not u.get("revealed", True) and u.get("token") is not None:
            choices.append((key, str(_("Token %(n)s") % {"n": u["token"]})))
        else:
            choices.append((key, u["name"]))
    return choices


class BattleForm(forms.Form):
    """A form whose unit fields are filled from the battle: `OWN` fields list my units,
    `THEIRS` the other side's."""

    OWN: tuple[str, ...] = ()
    THEIRS: tuple[str, ...] = ()

    def __init__(self, *args, battle=None, me=None, them=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.battle, self.me, self.them = battle, me, them
        if them is None and battle is not None and me is not None:
            self.them = next((s for s in battle.sides.all() if s.index != me.index), None)
        for name in self.OWN:
            self.fields[name].choices = unit_choices(me, own=True)
        for name in self.THEIRS:
            self.fields[name].choices = unit_choices(self.them, own=False)

    def clean(self):
        data = super().clean()
        for names, side in ((self.OWN, self.me), (self.THEIRS, self.them)):
            if names and side is not None and not side.units:
                self.add_error(names[0], _("%(p)s has not set up its units.") % {"p": side.player})
        return data


class UnitsSetupForm(BattleForm):
    bases = PairsField(
        label=_("Bases (casualty points) of each section"),
        required=False,
        help_text=_(
            "Unit number: bases, e.g. “1: 4, 3: 3”. Individual bases count 1 and vehicles "
            "none: leave them out."
        ),
    )
    tokens = PairsField(
        label=_("Fog-of-war token of each hidden unit"),
        required=False,
        help_text=_("Unit number: token (1–15), e.g. “2: 7”. Units left out start revealed."),
    )
    decoys = NumberListField(
        label=_("Decoy token numbers"), required=False, help_text=_("e.g. “3, 11”.")
    )


class InitiativeForm(DiceForm):
    total_a = forms.IntegerField(label=_("Total Initiative of side 1"), min_value=0)
    total_b = forms.IntegerField(label=_("Total Initiative of side 2"), min_value=0)


INFANTRY_FLAGS = [(k, k.replace("_", " ")) for k in InfantryFireMods.__dataclass_fields__]
VEHICLE_ONLY = [
    ("hull_down", "hull down"),
    ("in_cover", "in cover"),
    ("from_higher", "from higher"),
]


class FireForm(BattleForm, DiceForm):
    OWN = ("firer",)
    THEIRS = ("target", "panic_friends")

    firer = forms.ChoiceField(label=_("Firing unit"), choices=[])
    target = forms.ChoiceField(label=_("Target"), choices=[])
    band = forms.ChoiceField(label=_("Range"), choices=BAND_CHOICES)
    bases = forms.IntegerField(label=_("Bases that fire"), min_value=1, max_value=20)
    performance = forms.IntegerField(label=_("Performance result R"), **R_FIELD)
    ammo = forms.ChoiceField(
        label=_("Ammunition"), choices=[("AP", "AP"), ("HE", "HE")], initial="AP", required=False
    )
    cover = forms.ChoiceField(
        label=_("Target's cover"),
        choices=[("", "—"), *[(c, c) for c in COVER_TYPES]],
        required=False,
    )
    flags = ChoiceListField(
        label=_("Modifiers"), choices=INFANTRY_FLAGS + VEHICLE_ONLY, required=False
    )
    facing = forms.ChoiceField(
        label=_("Side of the vehicle hit"),
        choices=FACING_CHOICES,
        initial="frente",
        required=False,
    )
    moved_cm = forms.IntegerField(
        label=_("Vehicle target moved (cm)"), min_value=0, max_value=200, required=False
    )
    immobilise = forms.BooleanField(label=_("Aim at tracks or wheels"), required=False)
    reaction = forms.BooleanField(label=_("Reaction fire"), required=False)
    in_command = forms.BooleanField(
        label=_("In command coherence"),
        required=False,
        initial=True,
        help_text=_("The table says whether the unit is within its chain of command (V.2)."),
    )
    panic_friends = ChoiceListField(
        label=_("Target's friends that see it if it panics"), choices=[], required=False
    )


class AssaultForm(BattleForm):
    OWN = ("unit",)
    THEIRS = ("target", "panic_friends")

    unit = forms.ChoiceField(label=_("Assaulting unit"), choices=[])
    target = forms.ChoiceField(label=_("Assaulted unit"), choices=[])
    bases = forms.IntegerField(label=_("My bases in contact"), min_value=1, max_value=20)
    target_bases = forms.IntegerField(label=_("Enemy bases in contact"), min_value=1, max_value=20)
    performance = forms.IntegerField(label=_("My R (advantage included)"), **R_FIELD)
    target_performance = forms.IntegerField(label=_("Enemy's R"), **R_FIELD)
    in_command = forms.BooleanField(label=_("In command coherence"), required=False, initial=True)
    panic_friends = ChoiceListField(
        label=_("Enemy's friends that see it if it panics"), choices=[], required=False
    )


class VehicleAssaultForm(BattleForm, DiceForm):
    OWN = ("unit",)
    THEIRS = ("target",)

    unit = forms.ChoiceField(label=_("Assaulting unit"), choices=[])
    target = forms.ChoiceField(label=_("Vehicle"), choices=[])
    bases = forms.IntegerField(label=_("Bases in contact"), min_value=1, max_value=20)
    at_weapon = forms.ChoiceField(label=_("Anti-tank weapon"), choices=[(w, w) for w in AT_WEAPONS])
    facing = forms.ChoiceField(label=_("Side touched"), choices=FACING_CHOICES)
    performance = forms.IntegerField(label=_("Performance result R"), **R_FIELD)
    immobilise = forms.BooleanField(label=_("Aim at tracks or wheels"), required=False)
    in_command = forms.BooleanField(label=_("In command coherence"), required=False, initial=True)


TEMPLATES = [
    (f"{t.size}-{t.casualty_limit}", f"{t.size} {t.casualty_limit} ({t.total_damage})")
    for t in m36bo.TEMPLATES
]
DISTANCES = [(d, d) for d in ("short", "medium", "long", "0", "1", "2", "3", "4")]


class BombardForm(BattleForm, DiceForm):
    OWN = ("piece", "own_targets")
    THEIRS = ("enemy_targets",)

    piece = forms.ChoiceField(label=_("Piece with Bombardeo"), choices=[])
    pieces = forms.IntegerField(label=_("Pieces firing"), min_value=1, max_value=12, initial=1)
    template = forms.ChoiceField(label=_("Template (size, casualty limit)"), choices=TEMPLATES)
    distance = forms.ChoiceField(
        label=_("Distance (range band or zones away)"), choices=DISTANCES, initial="short"
    )
    performance = forms.IntegerField(label=_("Performance result R"), **R_FIELD)
    cover = forms.ChoiceField(
        label=_("Cover of the units hit"),
        choices=[("", "—"), *[(c, c) for c in COVER_TYPES]],
        required=False,
    )
    enemy_targets = ChoiceListField(
        label=_("Enemy units under the template"), choices=[], required=False
    )
    own_targets = ChoiceListField(
        label=_("My units under the template"), choices=[], required=False
    )
    tokens_hit = NumberListField(
        label=_("Other enemy tokens on the bombarded squares"), required=False
    )


class AirAttackForm(BattleForm):
    THEIRS = ("target",)

    target = forms.ChoiceField(label=_("Target"), choices=[])
    suppression = forms.IntegerField(
        label=_("Suppression (entered: not in the seed)"), min_value=0, max_value=20
    )
    casualties = forms.IntegerField(label=_("Casualties (entered)"), min_value=0, max_value=20)
    small_target = forms.BooleanField(label=_("Small target"), required=False)
    concealed = forms.BooleanField(label=_("Concealed"), required=False)
    tokens_hit = NumberListField(label=_("Other enemy tokens on the bombed square"), required=False)


ORDER_CHOICES = [
    ("move", _("Move")),
    *[(p, p) for p in PROLONGED],
    ("cuerpo_a_tierra", _("Cuerpo a tierra (reaction)")),
    ("retreat", _("Voluntary retreat")),
    ("end_retreat", _("End of retreat (in cover)")),
]


class OrderForm(BattleForm):
    OWN = ("unit",)

    unit = forms.ChoiceField(label=_("Unit"), choices=[])
    order = forms.ChoiceField(label=_("Order"), choices=ORDER_CHOICES)
    in_command = forms.BooleanField(label=_("In command coherence"), required=False, initial=True)


class CommandCheckForm(BattleForm):
    OWN = ("unit", "officer")

    unit = forms.ChoiceField(label=_("Unit"), choices=[])
    officer = forms.ChoiceField(label=_("Officer"), choices=[])
    distances = PairsField(
        label=_("Distance of each unit to the officer (cm)"),
        required=False,
        help_text=_("Unit number: cm, e.g. “2: 15, 3: 30”."),
    )
    links = forms.CharField(
        label=_("Distances between units (cm)"),
        required=False,
        help_text=_("Unit-unit: cm, e.g. “2-3: 12, 3-4: 18”."),
    )

    def clean_links(self):
        links = []
        for part in re.split(r"[,;\n]+", self.cleaned_data.get("links") or ""):
            if not part.strip():
                continue
            m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*[:=]\s*(\d+(?:\.\d+)?)\s*", part)
            if not m:
                raise forms.ValidationError(_("Links such as “2-3: 12”."))
            links.append((str(int(m.group(1)) - 1), str(int(m.group(2)) - 1), float(m.group(3))))
        return links


class RecoverForm(BattleForm):
    OWN = ("leader_in_range", "regrouped", "fanatic")

    leader_in_range = ChoiceListField(
        label=_("Units in a Líder's area"), choices=[], required=False
    )
    regrouped = ChoiceListField(label=_("Units regrouped by a Líder"), choices=[], required=False)
    fanatic = ChoiceListField(
        label=_("Units granted Fanático (Disciplina)"), choices=[], required=False
    )


class RevealForm(BattleForm):
    OWN = ("observer",)

    whose = forms.ChoiceField(
        label=_("Whose token"),
        choices=[("mine", _("Mine: I reveal it")), ("theirs", _("The enemy's: end-of-turn check"))],
    )
    token = forms.IntegerField(label=_("Token number"), min_value=1, max_value=15)
    observer = forms.ChoiceField(label=_("My revealed unit that looks"), choices=[], required=False)
    in_los = forms.BooleanField(label=_("In its line of sight"), required=False)
    square_has_cover = forms.BooleanField(label=_("The token's square has cover"), required=False)
    squares_away = forms.IntegerField(
        label=_("Squares away"), min_value=0, max_value=50, required=False
    )


class UnitCorrectForm(BattleForm):
    OWN = ("unit",)

    unit = forms.ChoiceField(label=_("Unit"), choices=[])
    morale = forms.IntegerField(label=_("Morale"), min_value=0, max_value=20, required=False)
    suppression = forms.IntegerField(
        label=_("Suppression"), min_value=0, max_value=20, required=False
    )
    casualties = forms.IntegerField(
        label=_("Casualties"), min_value=0, max_value=50, required=False
    )
    pe = forms.IntegerField(label=_("PE"), min_value=0, max_value=20, required=False)
    state = forms.ChoiceField(
        label=_("State"), choices=[("", "—"), *[(s, s) for s in STATES]], required=False
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def changes(self) -> dict:
        d = self.cleaned_data
        return {
            k: d[k]
            for k in ("morale", "suppression", "casualties", "pe", "state")
            if d.get(k) not in (None, "")
        }


class SmokeForm(BattleForm):
    """Smoke placed by hand (smoke bombs, a cloud the table agrees on) or a cloud cleared
    (a fire put out, a correction). Bombardments and burning vehicles make theirs."""

    origin = forms.ChoiceField(
        label=_("Where the smoke comes from"),
        choices=[
            (SmokeOrigin.SMOKE_BOMBS.value, _("smoke bombs")),
            (SmokeOrigin.BOMBARDMENT.value, _("bombardment")),
            (SmokeOrigin.BURNING_VEHICLE.value, _("burning vehicle")),
        ],
        required=False,
    )
    where = forms.CharField(label=_("Where on the table"), max_length=80, required=False)
    clear = forms.IntegerField(
        label=_("Or clear smoke number"), min_value=1, max_value=999, required=False
    )

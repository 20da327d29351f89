"""The forms of a Parabellum battle's turn: who plays first, finishing a phase, activations
and their actions, anticipation, the medic. Built with the battle and the user's side
(`with_battle`); soldier fields take "side:soldier" keys of the user's own soldiers."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b
from campaigns.rosters.forms.common import DiceForm, say_lazy
from campaigns.rosters.words import soldier_name
from rules.parabellum import labels as pbl
from rules.parabellum.ledger import ACTION_COSTS, ATTACKS
from rules.parabellum.roster import Roster as PBRoster

ACT_CHOICES = [
    (a, say_lazy(pbl.label(pbl.ACTIONS, a)))
    for a in ACTION_COSTS
    if a not in ATTACKS and a != "tend"
]
VIA_CHOICES = [
    ("blue", _("a blue token")),
    ("order", _("the order received")),
    ("anticipation", _("an anticipation (reinforcements phase)")),
]
TERRAIN_CHOICES = [
    ("open", _("open ground")),
    ("rough", _("rough terrain")),
    ("impassable", _("impassable")),
]


class SoldierList(forms.MultipleChoiceField):
    """Checkboxes on the page; a JSON list in the API body."""

    def to_python(self, value):
        if isinstance(value, str):
            try:
                value = json.loads(value) if value.strip() else []
            except ValueError:
                raise forms.ValidationError(_("A list of soldiers.")) from None
        return super().to_python(value)


def _own(me) -> list[tuple[str, str]]:
    if me is None or not me.snapshot:
        return []
    return [
        (f"{me.index}:{s.id}", soldier_name(s.id)) for s in PBRoster.from_dict(me.snapshot).active
    ]


class _Own:
    """Fill the soldier fields with the user's own soldiers."""

    SOLDIER_FIELDS: tuple[str, ...] = ()

    def __init__(self, *args, battle=None, me=None, **kwargs):
        super().__init__(*args, **kwargs)
        own = _own(me)
        for name in self.SOLDIER_FIELDS:
            field = self.fields[name]
            multiple = isinstance(field, forms.MultipleChoiceField)
            field.choices = own if multiple or field.required else [("", "—"), *own]


class ChooseFirstForm(forms.Form):
    """The initiative holder chooses who plays this phase first (§4.2.1, §4.3.1):
    `first` 0 or 1 (the side index)."""

    first = forms.IntegerField(
        label=_("Who plays first"), min_value=0, max_value=1, widget=forms.Select
    )

    def __init__(self, *args, battle=None, me=None, **kwargs):
        super().__init__(*args, **kwargs)
        if battle is not None:
            self.fields["first"].widget.choices = [
                (s.index, str(s.player)) for s in battle.sides.all()
            ]


class FinishPhaseForm(_Own, forms.Form):
    """Finish your part of the current phase. At the end of the turn, `near_medic`: your
    downed soldiers within 20 cm of the medic (the others are removed, §8.3.2)."""

    SOLDIER_FIELDS = ("near_medic",)
    near_medic = SoldierList(
        label=_("End of the turn: downed soldiers within 20 cm of the medic"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


class ActivateForm(_Own, forms.Form):
    """Activate one of your soldiers (§4.3.2): `soldier`, `via` blue / order / anticipation."""

    SOLDIER_FIELDS = ("soldier",)
    soldier = forms.ChoiceField(label=_("Soldier"), choices=[])
    via = forms.ChoiceField(label=_("With"), choices=VIA_CHOICES)


class ActForm(_Own, forms.Form):
    """One action of the soldier being activated (§4.3.2, §5): `action`; for a move
    `distance_cm`, `terrain` and the obstacle flags; for an order or inspire courage `target`
    (a friend) with `target_distance_cm` and `target_out_of_sight`; `team_with`: the MG
    teammate in contact. Attacks and tending have their own actions."""

    SOLDIER_FIELDS = ("target", "team_with")
    action = forms.ChoiceField(label=_("Action"), choices=ACT_CHOICES)
    distance_cm = forms.FloatField(
        label=_("Distance moved (cm)"), required=False, **b.form_range(b.DISTANCE_CM)
    )
    terrain = forms.ChoiceField(
        label=_("Terrain crossed"), choices=TERRAIN_CHOICES, initial="open", required=False
    )
    started_in_rough = forms.BooleanField(label=_("Started in rough terrain"), required=False)
    started_touching_obstacle = forms.BooleanField(
        label=_("Started touching the obstacle"), required=False
    )
    crosses_obstacle = forms.BooleanField(label=_("Crosses a passable obstacle"), required=False)
    target = forms.ChoiceField(label=_("Soldier ordered or inspired"), required=False, choices=[])
    target_distance_cm = forms.FloatField(
        label=_("Distance to that soldier (cm)"), required=False, **b.form_range(b.DISTANCE_CM)
    )
    target_out_of_sight = forms.BooleanField(label=_("Out of line of sight"), required=False)
    team_with = forms.ChoiceField(
        label=_("MG teammate in contact (returns or is inspired too)"), required=False, choices=[]
    )

    def arguments(self) -> dict:
        d = self.cleaned_data
        return {
            "action": d["action"],
            "distance_cm": d["distance_cm"],
            "terrain": d["terrain"] or "open",
            "started_in_rough": d["started_in_rough"],
            "started_touching_obstacle": d["started_touching_obstacle"],
            "crosses_obstacle": d["crosses_obstacle"],
            "target": d["target"],
            "target_distance_cm": d["target_distance_cm"],
            "target_in_los": not d["target_out_of_sight"],
            "team_with": d["team_with"],
        }


class AnticipateForm(_Own, forms.Form):
    """Anticipation (§7.4) in the reinforcements phase: `soldiers` (1 PO each)."""

    SOLDIER_FIELDS = ("soldiers",)
    soldiers = SoldierList(
        label=_("Soldiers who anticipate (1 PO each)"), widget=forms.CheckboxSelectMultiple
    )


class DownedForm(_Own, forms.Form):
    """One of your eliminated soldiers lies downed within 20 cm of the medic (§8.3.2)."""

    SOLDIER_FIELDS = ("soldier",)
    soldier = forms.ChoiceField(label=_("Eliminated soldier"), choices=[])
    medic_distance_cm = forms.FloatField(
        label=_("Distance to the medic (cm)"), **b.form_range(b.DISTANCE_CM)
    )


class TendForm(_Own, DiceForm):
    """The activated medic tends a downed soldier (§8.3.2, 0 PA): 3D6, 11+ stands up."""

    SOLDIER_FIELDS = ("soldier",)
    soldier = forms.ChoiceField(label=_("Downed soldier"), choices=[])
    medic_touching = forms.BooleanField(label=_("The medic touches him"), required=False)
    enemy_threat = forms.BooleanField(
        label=_("A non-suppressed enemy within 20 cm in the medic's line of sight"),
        required=False,
    )


class RoleRollForm(DiceForm):
    """Attacker and defender by the dice, before turn 1 (§9.1): each rolls 1D6 (Italy +2, an
    Italian winner defends); `winner_role`: the role the winner takes."""

    winner_role = forms.ChoiceField(
        label=_("The winner takes"),
        required=False,
        choices=[("", "—"), ("attacker", _("Attacker")), ("defender", _("Defender"))],
    )

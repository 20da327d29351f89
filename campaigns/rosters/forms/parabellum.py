"""A Parabellum Soldier battle's actions: orders, shots, assaults, supports, casualties."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b
from campaigns.rosters.forms.common import DiceForm, say_lazy
from rules.parabellum import labels as pbl
from rules.parabellum.battle import CAUSES, TURNS


def _turn_field():
    return forms.IntegerField(label=_("Turn"), min_value=1, max_value=TURNS, initial=1)


# the API schema's name for the cover grades (config/settings.py ENUM_NAME_OVERRIDES)
COVER_GRADES = ("none", "light", "heavy")


class _SoldierChoices:
    def set_soldiers(self, soldiers: list[tuple[str, str]]) -> None:
        for _name, field in self.fields.items():
            if isinstance(field, forms.ChoiceField) and getattr(field, "soldiers", False):
                blank = [] if isinstance(field, forms.MultipleChoiceField) else [("", "—")]
                field.choices = blank + soldiers


def soldier_field(label, *, required=True, multiple=False):
    cls = forms.MultipleChoiceField if multiple else forms.ChoiceField
    kwargs = {"widget": forms.CheckboxSelectMultiple} if multiple else {}
    field = cls(label=label, required=required, choices=[], **kwargs)
    field.soldiers = True
    return field


class ShotForm(_SoldierChoices, DiceForm):
    turn = _turn_field()
    shooter = soldier_field(_("Shooter"))
    target = soldier_field(_("Target"))
    distance_cm = forms.FloatField(label=_("Distance (cm)"), min_value=0, max_value=500)
    cover = forms.ChoiceField(
        label=_("Target cover"),
        choices=[("none", _("none")), ("light", _("light")), ("heavy", _("heavy"))],
    )
    reaction = forms.BooleanField(label=_("Reaction shot"), required=False)
    aimed = forms.BooleanField(label=_("Aimed (2 PA)"), required=False)
    target_suppressed = forms.BooleanField(label=_("Target suppressed"), required=False)
    target_double_time_cm = forms.FloatField(
        label=_("Reaction: target double-timed (cm)"), required=False, **b.form_range(b.DISTANCE_CM)
    )
    mg42_assisted = forms.BooleanField(label=_("MG42 with assistant"), required=False)
    hit_the_dirt = forms.BooleanField(
        label=_("Target hits the dirt if hit (its owner's choice, costs PO)"), required=False
    )

    ENGINE = (
        "distance_cm",
        "cover",
        "reaction",
        "aimed",
        "target_suppressed",
        "target_double_time_cm",
        "mg42_assisted",
    )


class AssaultForm(_SoldierChoices, DiceForm):
    turn = _turn_field()
    attacker = soldier_field(_("Assailant"))
    movement = forms.ChoiceField(
        label=_("Move into contact"),
        choices=[("cautious", _("cautious")), ("double_time", _("double time"))],
    )
    defender = soldier_field(_("Assaulted soldier"))
    defender_suppressed = forms.BooleanField(
        label=_("Assaulted soldier suppressed"), required=False
    )
    heavy_cover = forms.BooleanField(label=_("In heavy cover"), required=False)
    marked = forms.BooleanField(label=_("Marked by covering fire"), required=False)
    second_defender = soldier_field(_("Another enemy within 3 cm"), required=False)
    second_suppressed = forms.BooleanField(label=_("That one is suppressed"), required=False)
    mg_assistant = soldier_field(
        _("MG team: the assaulted MG gunner's assistant in contact (+2; both fall together)"),
        required=False,
    )

    ENGINE = (
        "movement",
        "defender_suppressed",
        "heavy_cover",
        "marked",
        "second_defender",
        "second_suppressed",
        "mg_assistant",
    )


class GrenadeForm(_SoldierChoices, DiceForm):
    turn = _turn_field()
    thrower = soldier_field(_("Thrower"))
    launcher = forms.BooleanField(
        label=_("With the M7 grenade launcher (US, 20-40 cm, 3 PA)"), required=False
    )
    distance_cm = forms.FloatField(
        label=_("Distance (cm: a hand grenade up to 20, the M7 20 to 40)"),
        min_value=0,
        max_value=40,
    )
    moved = forms.BooleanField(label=_("The thrower moved"), required=False)
    los_to_marker = forms.BooleanField(
        label=_("The thrower sees the marker"), required=False, initial=True
    )
    targets = soldier_field(_("Soldiers in the 6 cm blast"), multiple=True)
    hit_the_dirt = soldier_field(_("…of whom hit the dirt"), required=False, multiple=True)


class SupportForm(_SoldierChoices, DiceForm):
    turn = _turn_field()
    kind = forms.ChoiceField(
        label=_("Reinforcement"),
        choices=[
            ("artillery", _("Artillery (1-4 PO)")),
            ("sniper", _("Sniper (2 PO)")),
            ("fire_at_will", _("MG fire at will (1 PO per target)")),
            ("light_mortar", _("Light mortar (GBR, 1 PO)")),
            ("anticipation", _("Anticipation")),
        ],
    )
    po = forms.IntegerField(
        label=_("PO spent (artillery, anticipation)"), required=False, **b.form_range(b.PO)
    )
    targets = soldier_field(
        _("Soldiers caught (sniper: the target first)"), required=False, multiple=True
    )
    hit_the_dirt = soldier_field(_("…of whom hit the dirt"), required=False, multiple=True)
    radio_operator = forms.BooleanField(label=_("Radio operator sees the marker"), required=False)


class ProjectorForm(_SoldierChoices, DiceForm):
    turn = _turn_field()
    firer = soldier_field(_("Firer (Panzerfaust or another grenade projector)"))
    moved = forms.BooleanField(label=_("The firer moved this activation (−2)"), required=False)
    distance_cm = forms.FloatField(
        label=_("Distance to the target (cm, up to 30)"), **b.form_range(b.DISTANCE_CM)
    )
    target = soldier_field(_("Target"))
    nearby = soldier_field(_("Soldiers within 3 cm of the target"), required=False, multiple=True)
    hit_the_dirt = soldier_field(
        _("…of whom hit the dirt (not at 10 cm or less)"), required=False, multiple=True
    )

    def targets(self) -> list[str]:
        d = self.cleaned_data
        return [d["target"], *[t for t in d["nearby"] if t != d["target"]]]


class BombardmentForm(_SoldierChoices, DiceForm):
    targets = soldier_field(_("Enemy soldiers under the barrage (15 cm)"), multiple=True)
    hit_the_dirt = soldier_field(_("…of whom hit the dirt"), required=False, multiple=True)


class TacticalForm(forms.Form):
    """The tactical phase (§4.1): the blue tokens each player showed (of 6 chosen)."""

    turn = _turn_field()
    blue_0 = forms.IntegerField(label=_("Blue tokens shown, player 1"), min_value=2, max_value=6)
    blue_1 = forms.IntegerField(label=_("Blue tokens shown, player 2"), min_value=2, max_value=6)

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        for s in sides:
            self.fields[f"blue_{s.index}"].label = _(
                "Blue tokens %(p)s showed (the rest of the 6 are yellow)"
            ) % {"p": s.player}


class CorrectionForm(forms.Form):
    winner = forms.ChoiceField(label=_("Corrected result"), choices=[])
    reason = forms.CharField(label=_("Why"), max_length=300)

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            *[(str(s.index), _("%(p)s wins") % {"p": s.player}) for s in sides],
            ("draw", _("Draw")),
        ]

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Say why the result changes."))
        return reason

    def winner_index(self) -> int | None:
        w = self.cleaned_data["winner"]
        return None if w == "draw" else int(w)


class CasualtyForm(_SoldierChoices, forms.Form):
    soldier = soldier_field(_("Soldier"))
    turn = _turn_field()
    cause = forms.ChoiceField(
        label=_("Cause"),
        choices=[
            (c, say_lazy(pbl.label(pbl.CAUSES, c)))
            for c in ("other", *(c for c in CAUSES if c != "other"))  # "other" first: the default
        ],
    )
    healed_turn = forms.IntegerField(
        label=_("Healed by the medic on turn"), min_value=1, max_value=TURNS, required=False
    )
    remove = forms.BooleanField(label=_("Remove: recorded by mistake"), required=False)


class TurnForm(forms.Form):
    """End-of-turn positions: one checkbox group per soldier, PO per side."""

    FLAGS = (
        ("wholly_in_enemy_half", _("wholly in enemy half")),
        ("in_enemy_deployment", _("in enemy deployment zone")),
        ("wholly_in_enemy_deployment", _("wholly in enemy deployment zone")),
        ("near_centre_line", _("≤10 cm of centre line")),
        ("near_objective", _("≤15 cm of objective")),
        ("touching_objective", _("touching objective")),
        ("within_3cm_of_objective", _("≤3 cm of objective")),
        ("suppressed", _("suppressed")),
    )

    turn = _turn_field()
    po_0 = forms.IntegerField(label=_("PO held, player 1"), **b.form_range(b.PO))
    po_1 = forms.IntegerField(label=_("PO held, player 2"), **b.form_range(b.PO))

    def __init__(self, *args, soldiers: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.soldier_keys = []
        for key, label in soldiers:
            name = "m_" + key.replace(":", "__")
            self.fields[name] = forms.MultipleChoiceField(
                label=label,
                choices=self.FLAGS,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            self.soldier_keys.append((name, key))

    def models(self) -> dict[str, list[str]]:
        return {
            key: self.cleaned_data[name]
            for name, key in self.soldier_keys
            if self.cleaned_data[name]
        }


# --- 1936 ------------------------------------------------------------------------------------

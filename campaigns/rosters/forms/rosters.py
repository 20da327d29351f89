"""Rosters of both skirmish games: creating, settings, house rules, the builders, battles."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Roster, RosterSystem, SkirmishBattle
from campaigns.models import bounds as b
from campaigns.rosters.engine import m36_army_options
from campaigns.rosters.forms.common import ROLE_CHOICES, enum_choices, say_lazy
from campaigns.rosters.words import (
    ARMY_HELP,
    ARMY_READINGS,
    NO_RULE_MODIFIERS,
    ROUNDINGS,
    squad_choices,
)
from rules.i18n import msg
from rules.m1936 import labels as m36_labels
from rules.m1936.army import GameSize, Role
from rules.m1936.data import Faction, Quality
from rules.parabellum.battle import DIRECTIVES
from rules.parabellum.labels import DIRECTIVES as DIRECTIVE_LABELS
from rules.parabellum.labels import PRIORITY_ORDERS


class RosterCreateForm(forms.Form):
    system = forms.ChoiceField(label=_("Game"), choices=RosterSystem.choices)
    name = forms.CharField(label=_("Name"), max_length=120)
    campaign = forms.ModelChoiceField(
        label=_("Campaign (optional)"), queryset=Campaign.objects.none(), required=False
    )
    squad_type = forms.ChoiceField(
        label=_("Parabellum squad type"), choices=[("", "—")], required=False
    )
    faction = forms.ChoiceField(
        label=_("1936 faction"), choices=enum_choices(Faction, m36_labels.FACTIONS), required=False
    )
    role = forms.ChoiceField(
        label=_("1936 role"),
        choices=enum_choices(Role, m36_labels.ROLES),
        required=False,
        help_text=_("The attacker always has 50 % more points than the defender."),
    )
    quality = forms.ChoiceField(
        label=_("1936 force quality"),
        choices=enum_choices(Quality, m36_labels.QUALITIES),
        initial="Regulares",
        required=False,
    )
    size = forms.ChoiceField(
        label=_("1936 game size"),
        choices=[("", "—"), *enum_choices(GameSize, m36_labels.SIZES)],
        required=False,
    )
    defender_points = forms.IntegerField(
        label=_("…or agreed defender budget"), required=False, **b.form_range(b.ROSTER_POINTS)
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["squad_type"].choices = [("", "—"), *squad_choices()]
        if user is not None:
            self.fields["campaign"].queryset = Campaign.objects.filter(
                sides__seats__user=user, system__in=RosterSystem.values
            ).distinct()


class RosterSettingsForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    campaign = forms.ModelChoiceField(
        label=_("Campaign (optional)"), queryset=Campaign.objects.none(), required=False
    )

    def __init__(self, *args, roster: Roster, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = Campaign.objects.filter(
            sides__seats__user=roster.owner, system=roster.system
        ).distinct()


class PBHouseRulesForm(forms.Form):
    casualties_carry_over = forms.BooleanField(
        label=_("HR-1 casualties carry over (3D6 recovery roll after the battle)"), required=False
    )
    recovery_target = forms.IntegerField(
        label=_("HR-1 recovery on"), initial=11, **b.form_range(b.HOUSE_RULES["recovery_target"])
    )
    promotion = forms.BooleanField(label=_("HR-2 promotion of survivors"), required=False)
    battles_to_regular = forms.IntegerField(
        label=_("HR-2 battles recruit → regular"),
        initial=1,
        **b.form_range(b.BATTLES_TO_PROMOTE),
    )
    battles_to_veteran = forms.IntegerField(
        label=_("HR-2 battles regular → veteran"),
        initial=3,
        **b.form_range(b.BATTLES_TO_PROMOTE),
    )
    replacements = forms.BooleanField(
        label=_("HR-3 replacements: a recruit for each dead soldier"), required=False
    )
    carry_over_po = forms.BooleanField(label=_("HR-4 PO carry-over"), required=False)
    po_carry_over_cap = forms.IntegerField(
        label=_("HR-4 cap (empty: none)"), required=False, **b.form_range(b.PO)
    )


def _reading(key: str, **kwargs):
    return {"label": say_lazy(ARMY_READINGS[key]), "help_text": say_lazy(ARMY_HELP[key]), **kwargs}


class M36HouseRulesForm(forms.Form):
    """The carry-over house rules and the army-list readings (`ArmyOptions`). Every reading
    left blank or unticked is the default, the rulebook's literal text; the Section III
    modifiers are on by default, so their box switches them off."""

    carry_casualties = forms.BooleanField(label=_("Carry casualties over"), required=False)
    carry_decimation = forms.BooleanField(label=_("Carry decimation over"), required=False)
    carry_vehicle_damage = forms.BooleanField(label=_("Carry vehicle damage over"), required=False)
    carry_destroyed = forms.BooleanField(label=_("Destroyed units stay destroyed"), required=False)
    rounding = forms.ChoiceField(
        choices=[(k, say_lazy(v)) for k, v in ROUNDINGS.items()],
        required=False,
        **_reading("rounding"),
    )
    quality_applies_to_upgrades = forms.BooleanField(
        required=False, **_reading("quality_applies_to_upgrades")
    )
    per_unit_quality = forms.BooleanField(required=False, **_reading("per_unit_quality"))
    no_rule_quality_modifiers = forms.BooleanField(
        required=False,
        **{**_reading("apply_rule_quality_modifiers"), "label": say_lazy(NO_RULE_MODIFIERS)},
    )
    fog_of_war_token_limit = forms.BooleanField(
        required=False, **_reading("fog_of_war_token_limit")
    )

    ARMY_FIELDS = (
        "rounding",
        "quality_applies_to_upgrades",
        "per_unit_quality",
        "no_rule_quality_modifiers",
        "fog_of_war_token_limit",
    )

    @classmethod
    def initial_for(cls, roster) -> dict:
        house = roster.house_rules or {}
        army = m36_army_options(house)
        return {
            **{k: v for k, v in house.items() if k in cls.base_fields},
            **army.to_dict(),
            "no_rule_quality_modifiers": not army.apply_rule_quality_modifiers,
        }

    def clean(self) -> dict:
        """The service's shape: the readings under "army"."""
        data = super().clean()
        army = {k: data.pop(k) for k in self.ARMY_FIELDS if k in data}
        army["rounding"] = army.get("rounding") or "half_up"
        army["apply_rule_quality_modifiers"] = not army.pop("no_rule_quality_modifiers", False)
        return {**data, "army": army}

    def carry_fields(self):
        return [self[k] for k in self.fields if k not in self.ARMY_FIELDS]

    def army_fields(self):
        return [self[k] for k in self.ARMY_FIELDS]


class PBEditForm(forms.Form):
    soldier_id = forms.CharField(max_length=40)
    field = forms.ChoiceField(
        choices=[(f, f) for f in ("weapon", "extras", "experience", "specialist", "scout")]
    )
    value = forms.CharField(max_length=200, required=False)


class M36EditForm(forms.Form):
    op = forms.ChoiceField(
        choices=[
            (o, o)
            for o in (
                "add_unit",
                "remove_unit",
                "add_upgrade",
                "remove_upgrade",
                "label",
                "quality",
            )
        ]
    )
    profile = forms.CharField(max_length=120, required=False)
    entry = forms.IntegerField(required=False, **b.form_range(b.ELEMENT_COUNT))
    upgrade = forms.CharField(max_length=80, required=False)
    label = forms.CharField(max_length=60, required=False)
    quality = forms.CharField(max_length=40, required=False)


# --- skirmish battles ------------------------------------------------------------------------


class SkirmishCreateForm(forms.Form):
    roster = forms.ModelChoiceField(label=_("Your roster"), queryset=Roster.objects.none())
    role = forms.ChoiceField(label=_("You play"), choices=ROLE_CHOICES)
    mode = forms.ChoiceField(
        label=_("Parabellum game mode"),
        choices=[("", "—"), *SkirmishBattle.Mode.choices],
        required=False,
    )
    opponent = forms.CharField(label=_("Opponent's user name"), max_length=150)
    title = forms.CharField(label=_("Title"), max_length=120, required=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roster"].queryset = Roster.objects.filter(owner=user, archived_at__isnull=True)

    def clean_opponent(self):
        name = self.cleaned_data["opponent"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("No player with that user name."))
        return user


class JoinForm(forms.Form):
    roster = forms.ModelChoiceField(label=_("Your roster"), queryset=Roster.objects.none())

    def __init__(self, *args, user, system, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roster"].queryset = Roster.objects.filter(
            owner=user, system=system, archived_at__isnull=True
        )


class OrdersForm(forms.Form):
    priority_order = forms.ChoiceField(
        label=_("Priority order"),
        choices=[("", _("Draw a card for me (server)"))]
        + [(str(k), say_lazy(msg("%(n)s. %(d)s", n=k, d=v))) for k, v in PRIORITY_ORDERS.items()],
        required=False,
        help_text=_("Or the card you drew at the table."),
    )
    directives = forms.TypedMultipleChoiceField(
        label=_("Two officer directives"),
        choices=[
            (str(k), say_lazy(msg("%(n)s. %(d)s", n=k, d=v))) for k, v in DIRECTIVE_LABELS.items()
        ],
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
    )

    def clean_priority_order(self):
        value = self.cleaned_data["priority_order"]
        return int(value) if value else None

    def clean_directives(self):
        value = self.cleaned_data["directives"]
        if len(set(value)) != 2 or not set(value) <= set(DIRECTIVES):
            raise forms.ValidationError(_("Choose exactly two directives."))
        return value

"""Forms for rosters and skirmish battles. They only check shapes; rules live in the engine."""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from campaigns.jsontext import JSONTextError, loads_checked
from campaigns.models import Campaign, Roster, RosterSystem, SkirmishBattle
from campaigns.models import bounds as b
from campaigns.rosters.engine import squad_choices
from rules.m1936 import construction as m36c
from rules.m1936 import scenario as m36s
from rules.m1936 import weather as m36w
from rules.m1936.army import GameSize, Role
from rules.m1936.bogging import Ground
from rules.m1936.data import Faction, Quality
from rules.m1936.morale import UnitState
from rules.parabellum.battle import CAUSES, DIRECTIVES, TURNS
from rules.parabellum.victory import DIRECTIVE_NAMES, PRIORITY_NAMES

ROLE_CHOICES = [("attacker", _("Attacker")), ("defender", _("Defender"))]


def _enum(enum) -> list[tuple[str, str]]:
    return [(m.value, m.value) for m in enum]


class RosterCreateForm(forms.Form):
    system = forms.ChoiceField(label=_("Game"), choices=RosterSystem.choices)
    name = forms.CharField(label=_("Name"), max_length=120)
    campaign = forms.ModelChoiceField(
        label=_("Campaign (optional)"), queryset=Campaign.objects.none(), required=False
    )
    squad_type = forms.ChoiceField(
        label=_("Parabellum squad type"), choices=[("", "—")], required=False
    )
    faction = forms.ChoiceField(label=_("1936 faction"), choices=_enum(Faction), required=False)
    role = forms.ChoiceField(
        label=_("1936 role"),
        choices=_enum(Role),
        required=False,
        help_text=_("The attacker always has 50 % more points than the defender."),
    )
    quality = forms.ChoiceField(
        label=_("1936 force quality"), choices=_enum(Quality), initial="Regulares", required=False
    )
    size = forms.ChoiceField(
        label=_("1936 game size"), choices=[("", "—"), *_enum(GameSize)], required=False
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


class M36HouseRulesForm(forms.Form):
    carry_casualties = forms.BooleanField(label=_("Carry casualties over"), required=False)
    carry_decimation = forms.BooleanField(label=_("Carry decimation over"), required=False)
    carry_vehicle_damage = forms.BooleanField(label=_("Carry vehicle damage over"), required=False)
    carry_destroyed = forms.BooleanField(label=_("Destroyed units stay destroyed"), required=False)


class PBEditForm(forms.Form):
    soldier_id = forms.CharField(max_length=40)
    field = forms.ChoiceField(
        choices=[(f, f) for f in ("weapon", "extras", "experience", "specialist", "scout")]
    )
    value = forms.CharField(max_length=200, required=False)


class M36EditForm(forms.Form):
    op = forms.ChoiceField(
        choices=[
            (o, o) for o in ("add_unit", "remove_unit", "add_upgrade", "remove_upgrade", "label")
        ]
    )
    profile = forms.CharField(max_length=120, required=False)
    entry = forms.IntegerField(required=False, **b.form_range(b.ELEMENT_COUNT))
    upgrade = forms.CharField(max_length=80, required=False)
    label = forms.CharField(max_length=60, required=False)


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
        + [(str(k), f"{k}. {v}") for k, v in PRIORITY_NAMES.items()],
        required=False,
        help_text=_("Or the card you drew at the table."),
    )
    directives = forms.TypedMultipleChoiceField(
        label=_("Two officer directives"),
        choices=[(str(k), f"{k}. {v}") for k, v in DIRECTIVE_NAMES.items()],
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


class DiceForm(forms.Form):
    dice_mode = forms.ChoiceField(
        label=_("Dice"),
        choices=[("server", _("The server rolls")), ("entered", _("We rolled at the table"))],
        initial="server",
    )
    dice = forms.CharField(
        label=_("Rolls from the table, in order"),
        required=False,
        max_length=400,
        help_text=_("Separate rolls with “;”. A 3D6 is three faces, e.g. “3 5 6; 2 3 5”."),
    )


def _turn_field():
    return forms.IntegerField(label=_("Turn"), min_value=1, max_value=TURNS, initial=1)


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
            (c, c.replace("_", " "))
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


class ScenarioForm(DiceForm):
    terrain = forms.ChoiceField(label=_("Terrain"), choices=_enum(m36s.Terrain))
    user_table = forms.CharField(
        label=_("Costa / Ciudad sector table (JSON rows)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "class": "code"}),
        help_text=_(
            "The rulebook has no table for Costa or Ciudad: a list of "
            '{"sector", "element", "min", "max"} rows, 4 sector types × 12 elements.'
        ),
    )

    def clean_user_table(self):
        text = self.cleaned_data["user_table"].strip()
        if not text:
            return None
        try:
            rows = loads_checked(text)
        except JSONTextError as exc:
            cause = exc.__cause__
            message = cause.msg if isinstance(cause, json.JSONDecodeError) else str(exc)
            raise forms.ValidationError(_("Not valid JSON: %(e)s") % {"e": message}) from None
        if not isinstance(rows, list):
            raise forms.ValidationError(_("A list of rows."))
        return rows


class TieForm(forms.Form):
    order = forms.ChoiceField(label=_("Order for the tied sector types"), choices=[])

    def __init__(self, *args, options=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["order"].choices = [("|".join(o), " < ".join(o)) for o in options]


class PlanForm(forms.Form):
    sector = forms.IntegerField(label=_("Sector"), min_value=1, max_value=4)
    last_piece = forms.ChoiceField(
        label=_("Last piece, placed by the rival"),
        choices=[("", "—"), *[(e, e) for e in m36s.ELEMENTS]],
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i, element in enumerate(m36s.ELEMENTS):
            self.fields[f"e{i}"] = forms.IntegerField(
                label=element, required=False, **b.form_range(b.ELEMENT_COUNT)
            )

    def counts(self) -> dict[str, int]:
        return {
            e: self.cleaned_data[f"e{i}"]
            for i, e in enumerate(m36s.ELEMENTS)
            if self.cleaned_data.get(f"e{i}") is not None
        }


class WeatherForm(DiceForm):
    season = forms.ChoiceField(label=_("Season"), choices=_enum(m36w.Season))


class WeatherChangeForm(DiceForm):
    turn = forms.IntegerField(label=_("Turn (10, 20, 30 …)"), min_value=10, max_value=b.TURN[1])


class ConstructionForm(forms.Form):
    waiting_days = forms.IntegerField(
        label=_("Days of waiting"), initial=0, **b.form_range(b.WAITING_DAYS)
    )


class FortificationForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Fortification"),
        choices=[(c.name, f"{c.name} ({c.cost})") for c in m36c.COVER_TYPES.values() if c.cost],
    )
    count = forms.IntegerField(label=_("How many"), initial=1, **b.form_range(b.ELEMENT_COUNT_1))


class MoraleForm(forms.Form):
    def __init__(self, *args, units: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        for i, label in enumerate(units):
            self.fields[f"u{i}"] = forms.ChoiceField(label=label, choices=_enum(UnitState))

    def states(self) -> list[str]:
        return [self.cleaned_data[f"u{i}"] for i in range(len(self.fields))]


class PerformanceForm(forms.Form):
    purpose = forms.CharField(label=_("What the roll is for"), max_length=120)
    value = forms.IntegerField(
        label=_("Result R (advantage included)"),
        help_text=_("The rulebook does not say how to roll it: enter your result."),
    )


class BogForm(forms.Form):
    unit = forms.ChoiceField(label=_("Unit that moves"), choices=[])
    ground = forms.ChoiceField(label=_("Ground"), choices=_enum(Ground))
    value = forms.IntegerField(
        label=_("Performance result R, if a bog check is due"),
        required=False,
        help_text=_("Bogged on −2 or less; leave empty to ask whether a check is due."),
    )

    def __init__(self, *args, units: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [(str(i), label) for i, label in enumerate(units)]


class M36FinishForm(forms.Form):
    winner = forms.ChoiceField(label=_("Winner"), choices=[])

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            *[(str(s.index), str(s.player)) for s in sides],
            ("draw", _("Draw")),
        ]


class ConditionForm(forms.Form):
    def __init__(self, *args, units: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.units = units
        for i, label in enumerate(units):
            self.fields[f"c{i}"] = forms.IntegerField(
                label=_("%(u)s: casualties") % {"u": label}, initial=0, **b.form_range(b.CASUALTIES)
            )
            self.fields[f"d{i}"] = forms.BooleanField(label=_("decimated"), required=False)
            self.fields[f"x{i}"] = forms.BooleanField(label=_("destroyed"), required=False)

    def conditions(self) -> dict[int, dict]:
        return {
            i: {
                "casualties": self.cleaned_data[f"c{i}"] or 0,
                "decimated": self.cleaned_data[f"d{i}"],
                "destroyed": self.cleaned_data[f"x{i}"],
            }
            for i in range(len(self.units))
        }

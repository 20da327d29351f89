"""The in-battle actions of a "1936" battle (units, turn and phases, fire, assaults,
bombardments, morale and command, fog of war): their forms and services, merged into the
battle pages' action table (battle_actions.ACTIONS) and so into the REST API."""

from __future__ import annotations

from collections.abc import Callable

from campaigns.rosters import forms as rf
from campaigns.services.skirmish import m36_battle as mb
from campaigns.services.skirmish.common import pct
from campaigns.services.skirmish.troops import Preview
from campaigns.views.rosters.action_table import Action, plain, with_battle
from rules.m1936.turn import initiative_odds


def fire_input(d: dict) -> mb.FireInput:
    return mb.FireInput(
        firer=d["firer"],
        target=d["target"],
        band=d["band"],
        bases=d["bases"],
        performance=d["performance"],
        ammo=d.get("ammo") or "AP",
        cover=d.get("cover") or "",
        facing=d.get("facing") or "frente",
        moved_cm=d.get("moved_cm") or 0,
        immobilise=bool(d.get("immobilise")),
        flags=tuple(d.get("flags") or ()),
    )


M36_PLAY_ACTIONS: dict[str, Action] = {
    "m36setup": Action(
        mb.m36_units_setup, with_battle(rf.UnitsSetupForm), fields=("bases", "tokens", "decoys")
    ),
    "m36initiative": Action(
        mb.m36_initiative, plain(rf.InitiativeForm), fields=("total_a", "total_b"), dice=True
    ),
    "m36phase": Action(mb.m36_next_phase, field_errors=False),
    "m36fire": Action(
        mb.m36_fire,
        with_battle(rf.FireForm),
        fields=("reaction", "in_command", "panic_friends"),
        dice=True,
        extra=lambda form: {"shot": fire_input(form.cleaned_data)},
    ),
    "m36assault": Action(
        mb.m36_assault,
        with_battle(rf.M36AssaultForm),
        fields=(
            "unit",
            "target",
            "bases",
            "target_bases",
            "performance",
            "target_performance",
            "in_command",
            "panic_friends",
        ),
    ),
    "m36vehicle_assault": Action(
        mb.m36_vehicle_assault,
        with_battle(rf.VehicleAssaultForm),
        fields=(
            "unit",
            "target",
            "bases",
            "at_weapon",
            "facing",
            "performance",
            "immobilise",
            "in_command",
        ),
        dice=True,
    ),
    "m36bombard": Action(
        mb.m36_bombard,
        with_battle(rf.BombardForm),
        fields=(
            "piece",
            "pieces",
            "template",
            "distance",
            "performance",
            "cover",
            "enemy_targets",
            "own_targets",
            "tokens_hit",
        ),
        dice=True,
    ),
    "m36air": Action(mb.m36_air_attack, with_battle(rf.AirAttackForm)),
    "m36order": Action(mb.m36_order, with_battle(rf.OrderForm)),
    "m36command": Action(
        mb.m36_command_check,
        with_battle(rf.CommandCheckForm),
        fields=("unit", "officer", "links"),
        extra=lambda form: {"officer_distances": form.cleaned_data["distances"]},
    ),
    "m36recover": Action(mb.m36_recover, with_battle(rf.RecoverForm), fields=None, extra=None),
    "m36reveal": Action(mb.m36_reveal, with_battle(rf.RevealForm)),
    "m36smoke": Action(mb.m36_smoke, with_battle(rf.SmokeForm)),
    "m36unit_correct": Action(
        mb.m36_unit_correct,
        with_battle(rf.UnitCorrectForm),
        fields=("unit", "reason"),
        extra=lambda form: {"changes": form.changes()},
    ),
}


def _initiative_preview(battle, me, d: dict) -> Preview:
    a = initiative_odds(d["total_a"], d["total_b"])
    sides = {s.index: str(s.player) for s in battle.sides.all()}
    return Preview([(sides.get(0, "1"), pct(a)), (sides.get(1, "2"), pct(1 - a))])


M36_PREVIEWS: dict[str, Callable[..., Preview]] = {
    "m36fire": lambda battle, me, d: mb.fire_preview(battle, me, fire_input(d)),
    "m36assault": mb.assault_preview,
    "m36vehicle_assault": mb.vehicle_assault_preview,
    "m36bombard": mb.bombard_preview,
    "m36initiative": _initiative_preview,
}

FORMS = {
    "m36setup": rf.UnitsSetupForm,
    "m36initiative": rf.InitiativeForm,
    "m36fire": rf.FireForm,
    "m36assault": rf.M36AssaultForm,
    "m36vehicle_assault": rf.VehicleAssaultForm,
    "m36bombard": rf.BombardForm,
    "m36air": rf.AirAttackForm,
    "m36order": rf.OrderForm,
    "m36command": rf.CommandCheckForm,
    "m36recover": rf.RecoverForm,
    "m36reveal": rf.RevealForm,
    "m36smoke": rf.SmokeForm,
    "m36unit_correct": rf.UnitCorrectForm,
}


def m36_play_forms(request, battle, me) -> dict:
    """The unbound in-battle forms this player may use now (the caller sets auto_id)."""
    if me is None or battle.system != "m1936" or battle.status != "playing":
        return {}
    if not me.units:
        return {"m36setup": rf.UnitsSetupForm(battle=battle, me=me)}
    phase = (battle.play or {}).get("phase", "attack")
    names = [n for n in FORMS if n != "m36setup"]
    if phase == "end":
        names = [n for n in names if n not in ("m36fire", "m36order", "m36bombard", "m36air")]
    else:
        names = [n for n in names if n != "m36recover"]
    them = next((s for s in battle.sides.all() if s.index != me.index), None)
    forms = {}
    for name in names:
        cls = FORMS[name]
        forms[name] = cls() if cls is rf.InitiativeForm else cls(battle=battle, me=me, them=them)
    return forms

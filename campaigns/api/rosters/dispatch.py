"""How an action's JSON body becomes its service's arguments (the pages' table for 1936)."""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _

from campaigns.api.rosters.serializers import (
    DiceSerializer,
)
from campaigns.permissions import player_side
from campaigns.services import skirmish as sk
from campaigns.views.rosters.battle_actions import (
    ACTIONS,
    check_game,
    preview_form,
    preview_of,
)


def _as_form_data(body: dict) -> dict:
    """JSON lists and objects (a list of units, the Costa / Ciudad user table) reach the
    page form as JSON text."""
    return {k: json.dumps(v) if isinstance(v, list | dict) else v for k, v in body.items()}


def run_page_action(name: str, request, battle, body) -> None:
    """Run an action of the pages' table: its form checks the body (a 400 naming the field,
    before anything changes), then its service runs with the form's arguments."""
    act = ACTIONS[name]
    check_game(name, battle)
    if isinstance(body, QueryDict):
        data = body.copy()  # mutable: the dice mode default below
    elif isinstance(body, dict):
        data = _as_form_data(body)
    else:
        raise ValidationError({"detail": [_("A JSON object of the action's fields.")]})
    form = act.form(request, battle, data) if act.form else None
    if form is not None and "dice_mode" in form.fields and isinstance(data, dict):
        data.setdefault("dice_mode", "server")  # as for the other actions' dice
    if form is not None and not form.is_valid():
        raise ValidationError({k: list(v) for k, v in form.errors.items()})
    act.service(battle=battle, actor=request.user, **act.arguments(form, data))


def odds_preview(name: str, request, battle, body) -> sk.Preview:
    """The exact odds of an action before rolling, as on the battle page: the action's form
    checks the body (without its dice fields)."""
    if not isinstance(body, dict | QueryDict):
        raise ValidationError({"detail": [_("A JSON object of the action's fields.")]})
    if isinstance(body, dict):  # lists reach the form as a form post sends them
        body = _as_form_data(body)
    form = preview_form(name, request, battle, body)
    if not form.is_valid():
        raise ValidationError({k: list(v) for k, v in form.errors.items()})
    return preview_of(name, battle, player_side(request.user, battle), form)


def int_field(body, key, default=None):
    value = body.get(key, default)
    if isinstance(value, bool):
        raise ValidationError({key: [_("A whole number.")]})
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        raise ValidationError({key: [_("A whole number.")]}) from None


def float_field(body, key):
    try:
        return float(body.get(key))
    except (TypeError, ValueError):
        raise ValidationError({key: [_("A number of centimetres.")]}) from None


def dispatch_action(name: str, body, kwargs) -> None:
    dice_data = DiceSerializer(data=body)
    dice_data.is_valid(raise_exception=True)
    dice = sk.dice_from(dice_data.validated_data["dice_mode"], dice_data.validated_data["dice"])
    flags = lambda *keys: {k: bool(body.get(k)) for k in keys}  # noqa: E731
    if name == "apply":
        sk.skirmish_apply_house_rules(dice=dice, **kwargs)
    elif name == "casualty":
        sk.skirmish_casualty(
            soldier=str(body.get("soldier", "")),
            turn=int_field(body, "turn"),
            cause=str(body.get("cause") or "other"),
            healed_turn=int_field(body, "healed_turn"),
            remove=bool(body.get("remove")),
            **kwargs,
        )
    elif name == "shoot":
        sk.skirmish_shoot(
            turn=int_field(body, "turn"),
            shooter=str(body.get("shooter", "")),
            target=str(body.get("target", "")),
            hit_the_dirt=bool(body.get("hit_the_dirt")),
            dice=dice,
            distance_cm=float_field(body, "distance_cm"),
            cover=str(body.get("cover") or "none"),
            target_double_time_cm=body.get("target_double_time_cm"),
            **flags("reaction", "aimed", "target_suppressed", "mg42_assisted"),
            **kwargs,
        )
    elif name == "assault":
        sk.skirmish_assault(
            turn=int_field(body, "turn"),
            attacker=str(body.get("attacker", "")),
            defender=str(body.get("defender", "")),
            dice=dice,
            movement=str(body.get("movement") or "cautious"),
            second_defender=str(body.get("second_defender") or ""),
            mg_assistant=str(body.get("mg_assistant") or ""),
            **flags("defender_suppressed", "heavy_cover", "marked", "second_suppressed"),
            **kwargs,
        )
    elif name == "grenade":
        sk.skirmish_grenade(
            turn=int_field(body, "turn"),
            thrower=str(body.get("thrower", "")),
            distance_cm=float_field(body, "distance_cm"),
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            dice=dice,
            **flags("moved", "los_to_marker", "launcher"),
            **kwargs,
        )
    elif name == "projector":
        sk.skirmish_projector(
            turn=int_field(body, "turn"),
            firer=str(body.get("firer", "")),
            distance_cm=float_field(body, "distance_cm"),
            moved=bool(body.get("moved")),
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            dice=dice,
            **kwargs,
        )
    elif name == "bombardment":
        sk.skirmish_bombardment(
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            dice=dice,
            **kwargs,
        )
    else:
        sk.skirmish_support(
            turn=int_field(body, "turn"),
            kind=str(body.get("kind", "")),
            po=int_field(body, "po", 0) or 0,
            targets=[str(t) for t in body.get("targets") or []],
            hit_the_dirt=[str(t) for t in body.get("hit_the_dirt") or []],
            radio_operator=bool(body.get("radio_operator")),
            dice=dice,
            **kwargs,
        )

"""Units' set-up for a "1936" battle (casualty points per section, fog-of-war tokens) and
the owner's corrections of a unit's status (the table is always right)."""

from __future__ import annotations

from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import M1936, jsonable, m36_army_list
from campaigns.services.skirmish.common import engine_errors, log_event, playing
from campaigns.services.skirmish.m36_battle.state import (
    check_broken,
    log_break,
    save_units,
    set_turn,
    turn_of,
    unit_of,
    units_of,
)
from campaigns.services.skirmish.m36_battle.state import unit_data as data_of
from rules.i18n import msg
from rules.m1936.army import effective_quality
from rules.m1936.data import Category
from rules.m1936.fog import Token, check_token_numbers
from rules.m1936.units import STATES, derived_state, legal_problems, new_status

SETUP_RULE = "M36-XI.8"
VEHICLES = (Category.LIGHT_VEHICLE, Category.TANK, Category.TRANSPORT)
FOG_RULE = "M36-XIV.1"


def m36_units_setup(
    *,
    battle: SkirmishBattle,
    actor,
    bases: dict[str, int | None],
    tokens: dict[str, int | None],
    decoys: list[int],
) -> SkirmishBattle:
    """The actor's units enter the battle: each section's casualty points (its bases: the
    seed does not list them, the player gives them; an individual base is 1, a vehicle has
    none) and the optional fog-of-war token of each unit, decoys apart (XIV.1)."""
    with playing(battle, actor, M1936) as (battle, side):
        if side.units:
            raise ValidationError({"__all__": [_("Your units are already set up.")]})
        count = len(side.snapshot.get("entries", []))
        for field, given in (("bases", bases), ("tokens", tokens)):
            if any(k not in {str(i) for i in range(count)} for k in given):
                raise ValidationError({field: [_("Use the numbers of your units.")]})
        statuses = {}
        army = m36_army_list(side.snapshot)
        faction, force_quality = army.faction, army.quality
        for i in range(count):
            key = str(i)
            data = data_of(side, key)
            if data.profile.category is Category.AIRCRAFT:
                continue  # aircraft are not table units (XIII)
            name = f"{i + 1}. {data.entry.label or data.entry.profile}"
            capacity = bases.get(key)
            if capacity is None:
                if data.profile.tipo == "Ind":
                    capacity = 1
                elif data.profile.category not in VEHICLES:
                    raise ValidationError(
                        {"bases": [_("Give the bases (casualty points) of %(u)s.") % {"u": name}]}
                    )
            with engine_errors("bases"):
                statuses[key] = new_status(
                    key=key,
                    name=name,
                    profile=data.profile,
                    # the unit's own quality (per-unit reading) and Veteranía (III)
                    quality=effective_quality(data.entry, faction, force_quality),
                    casualty_capacity=0 if capacity is None else capacity,
                    token=tokens.get(key),
                )
        token_list = [Token(u.token, k, "") for k, u in statuses.items() if u.token is not None]
        token_list += [Token(n, None, "") for n in decoys]
        problems = check_token_numbers(token_list)
        if problems:
            raise ValidationError({"tokens": [say(p) for p in problems]})
        save_units(side, statuses)
        play = dict(battle.play or {})
        play.setdefault("decoys", {})[str(side.index)] = sorted(decoys)
        battle.play = play
        if "turn" not in play:
            set_turn(battle, turn_of(battle))
        battle.save(update_fields=["play"])
        hidden = [u for u in statuses.values() if u.token is not None]
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg(
                "%(p)s sets up %(n)s units, %(t)s under tokens, %(d)s decoys",
                p=str(actor),
                n=len(statuses),
                t=len(hidden),
                d=len(decoys),
            ),
            actor=actor,
            rule=FOG_RULE if token_list else SETUP_RULE,
        )
        if hidden:
            log_event(
                battle,
                kind=SkirmishEvent.Kind.SETUP,
                summary=msg(
                    "Your tokens: %(t)s",
                    t=", ".join(f"{u.token} = {u.name}" for u in hidden),
                ),
                actor=actor,
                rule=FOG_RULE,
                private_to=side,
            )
    return battle


CORRECTABLE = ("morale", "suppression", "casualties", "pe", "state", "acted", "reacted", "prone")


def m36_unit_correct(
    *,
    battle: SkirmishBattle,
    actor,
    unit: str,
    changes: dict,
    reason: str,
) -> SkirmishBattle:
    """The owner corrects a unit's status to what the table shows, with a reason (logged as
    a correction); the status must stay consistent (e.g. a Normal unit has morale above 4)."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": [_("Say why the status is corrected.")]})
    with playing(battle, actor, M1936) as (battle, side):
        units = units_of(side)
        u = unit_of(units, unit, "unit")
        values = {k: v for k, v in changes.items() if k in CORRECTABLE and v is not None}
        if "state" in values and values["state"] not in STATES:
            raise ValidationError({"state": [_("Choose a state.")]})
        if "pe" in values and u.kind != "vehicle":
            raise ValidationError({"pe": [_("Only vehicles have PE.")]})
        new = replace(u, **values)
        if "state" not in values:
            new = replace(new, state=derived_state(new))
        problems = legal_problems(new)
        if problems:
            raise ValidationError(
                {"unit": [_("Not a consistent status: %(p)s") % {"p": "; ".join(problems)}]}
            )
        units[unit] = new
        save_units(side, units)
        broken = check_broken(battle, side, units)
        battle.save(update_fields=["play"])
        before = {k: getattr(u, k) for k in values}
        log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION,
            summary=msg(
                "%(u)s corrected (%(r)s): %(c)s",
                u=u.name,
                r=reason,
                c=", ".join(f"{k} {before[k]} → {v}" for k, v in values.items()),
            ),
            actor=actor,
            rule="M36-XI",
            data={"before": jsonable(before), "after": jsonable(values)},
            private_to=side if not u.revealed else None,
        )
        log_break(battle, side, broken, actor)
    return battle

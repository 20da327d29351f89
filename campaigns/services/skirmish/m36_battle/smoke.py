"""Smoke on a "1936" table (XIV.7): a bombardment's template, a burning vehicle, smoke
bombs. Each cloud keeps the turns left before it disperses (then it only conceals) and
before it is gone, after the weather's modifiers (XV.3); the end of each turn ages them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import M1936
from campaigns.selectors.skirmish_m36 import smoke_words
from campaigns.services.skirmish.common import log_event, playing
from campaigns.services.skirmish.m36_battle import state as st
from rules.i18n import Msg, msg
from rules.m1936.weather import SMOKE_RULE, SmokeOrigin, Weather, smoke_timing


def _weather(battle: SkirmishBattle) -> Weather:
    """The weather rolled for the battle; before any roll, the table's own turns (Soleado
    changes nothing, XV.3)."""
    current = (battle.weather or {}).get("current") or {}
    return Weather(current.get("weather") or Weather.SOLEADO)


def add_smoke(battle: SkirmishBattle, origin: SmokeOrigin, where: str) -> Msg:
    """A new cloud in `battle.play["smoke"]` (the caller saves the battle); returns what
    the log says of it."""
    timing = smoke_timing(origin, _weather(battle))
    play = dict(battle.play or {})
    clouds = list(play.get("smoke", []))
    number = max((c["n"] for c in clouds), default=0) + 1
    clouds.append(
        {
            "n": number,
            "origin": origin.value,
            "where": where[:80],
            "turn": st.turn_of(battle).turn,
            "disperse": timing.disperse,
            "dissipate": timing.dissipate,
        }
    )
    play["smoke"] = clouds
    battle.play = play
    return smoke_words(clouds[-1])


def age_smoke(battle: SkirmishBattle) -> list[Msg]:
    """The end of a turn (V.6): every cloud one turn older; dispersed and gone clouds said."""
    play = dict(battle.play or {})
    kept, said = [], []
    for cloud in play.get("smoke", []):
        cloud = dict(cloud)
        if cloud["dissipate"] is None:
            kept.append(cloud)
            continue
        cloud["dissipate"] -= 1
        if cloud["disperse"] is not None:
            cloud["disperse"] -= 1
            if cloud["disperse"] == 0:
                said.append(msg("Smoke %(n)s disperses: it now only conceals", n=cloud["n"]))
        if cloud["dissipate"] <= 0:
            said.append(msg("Smoke %(n)s is gone", n=cloud["n"]))
            continue
        kept.append(cloud)
    play["smoke"] = kept
    battle.play = play
    return said


def m36_smoke(*, battle: SkirmishBattle, actor, origin: str, where: str, clear: int | None):
    """Place smoke by hand (smoke bombs, or a cloud the table agrees on), or clear cloud
    `clear` (a fire put out, a correction); either is logged with the rule."""
    with playing(battle, actor, M1936) as (battle, _side):
        st.require_set_up(_side)
        if clear is not None:
            clouds = list((battle.play or {}).get("smoke", []))
            if not any(c["n"] == clear for c in clouds):
                raise ValidationError({"clear": [_("No smoke with that number on the table.")]})
            battle.play = {**battle.play, "smoke": [c for c in clouds if c["n"] != clear]}
            summary = msg("Smoke %(n)s cleared from the table", n=clear)
        else:
            if origin not in SmokeOrigin.__members__.values():
                raise ValidationError({"origin": [_("Choose where the smoke comes from.")]})
            if not where.strip():
                raise ValidationError({"where": [_("Say where the smoke is.")]})
            summary = add_smoke(battle, SmokeOrigin(origin), where.strip())
        battle.save(update_fields=["play"])
        return log_event(
            battle, kind=SkirmishEvent.Kind.EVENT, summary=summary, actor=actor, rule=SMOKE_RULE
        )

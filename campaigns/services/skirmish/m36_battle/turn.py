"""The turn of a "1936" battle: initiative (VI.1), the attack and defence phases (V.1) and
the end of turn (V.6) with each side's recovery (XI.4) and the weather reminder (XV.4)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import M1936
from campaigns.services.skirmish.common import (
    all_dice_used,
    battle_sides,
    engine_errors,
    log_event,
    playing,
    rolls,
)
from campaigns.services.skirmish.m36_battle import state as st
from campaigns.services.skirmish.m36_battle.smoke import age_smoke
from rules.dice import DiceSource
from rules.i18n import msg
from rules.m1936 import recovery
from rules.m1936 import turn as m36t
from rules.m1936.weather import SMOKE_RULE

WEATHER_EVERY = 10


def m36_initiative(
    *, battle: SkirmishBattle, actor, total_a: int, total_b: int, dice: DiceSource
) -> SkirmishEvent:
    """This turn's initiative: the higher total Initiative resolves first; a tie is 1d10 per
    side, re-rolled while equal (VI.1). Side A is the battle's side 0."""
    with playing(battle, actor, M1936) as (battle, _side):
        for side in battle_sides(battle):
            st.require_set_up(side)
        turn = st.turn_of(battle)
        if str(turn.turn) in (battle.play or {}).get("initiative", {}):
            raise ValidationError({"total_a": [_("This turn's initiative is already decided.")]})
        with engine_errors("total_a"):
            result = m36t.initiative(total_a=total_a, total_b=total_b, dice=dice)
        all_dice_used(dice)
        play = dict(battle.play)
        play["initiative"] = {**play.get("initiative", {}), str(turn.turn): result.winner}
        battle.play = play
        battle.save(update_fields=["play"])
        sides = battle_sides(battle)
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL if result.tie else SkirmishEvent.Kind.RULE,
            summary=msg(
                "Turn %(t)s initiative: %(a)s against %(b)s → %(p)s resolves first",
                t=turn.turn,
                a=total_a,
                b=total_b,
                p=str(sides[result.winner].player),
            ),
            actor=actor,
            rule=m36t.INITIATIVE_RULE,
            data={"explanation": result.explanation.as_list(), "rolls": rolls(dice)},
        )


def m36_next_phase(*, battle: SkirmishBattle, actor) -> SkirmishBattle:
    """Attack phase → defence phase → end of turn → next turn (V.1, V.6). Cuerpo a tierra
    ends with the phase; the end of turn needs both sides' recovery first."""
    with playing(battle, actor, M1936) as (battle, _side):
        sides = battle_sides(battle)
        for side in sides:
            st.require_set_up(side)
        if (battle.play or {}).get("broken") is not None:
            raise ValidationError({"__all__": [_("A side has broken: the battle is over (XI.7).")]})
        turn = st.turn_of(battle)
        play = dict(battle.play)
        if turn.phase is m36t.Phase.END:
            missing = [s for s in sides if s.index not in play.get("recovered", [])]
            if missing:
                raise ValidationError(
                    {
                        "__all__": [
                            _("%(p)s has not made the end-of-turn recovery.")
                            % {"p": missing[0].player}
                        ]
                    }
                )
            play["recovered"] = []
            battle.play = play
            aged = age_smoke(battle)  # V.6: smoke counters
            play = dict(battle.play)
        else:
            aged = []
            for side in sides:
                units = st.units_of(side)
                st.save_units(side, {u.key: u for u in recovery.end_of_phase(list(units.values()))})
        new = m36t.next_phase(turn)
        battle.play = play
        st.set_turn(battle, new)
        battle.save(update_fields=["play"])
        if new.phase is m36t.Phase.END:
            steps = [f"[{s.rule}] {s.text}" for s in m36t.end_of_turn_steps()]
            summary = msg("Turn %(t)s: end of turn", t=new.turn)
        else:
            steps = []
            summary = msg("Turn %(t)s: %(ph)s phase", t=new.turn, ph=PHASE_WORDS[new.phase.value])
        if new.phase is m36t.Phase.END and new.turn % WEATHER_EVERY == 0:
            steps.append(str(msg("turn %(t)s: roll for a weather change (XV.4)", t=new.turn)))
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=summary,
            actor=actor,
            rule=m36t.END_RULE if new.phase is m36t.Phase.END else m36t.TURN_RULE,
            data={"steps": steps},
        )
        for said in aged:
            log_event(
                battle, kind=SkirmishEvent.Kind.RULE, summary=said, actor=actor, rule=SMOKE_RULE
            )
    return battle


PHASE_WORDS = {"attack": msg("attack"), "defence": msg("defence"), "end": msg("end of turn")}


def m36_recover(
    *,
    battle: SkirmishBattle,
    actor,
    leader_in_range: list[str],
    regrouped: list[str],
    fanatic: list[str],
) -> SkirmishEvent:
    """The actor's units at the end of the turn (V.6, XI.4): prolonged actions tick,
    suppression and Terror come back, Líder and Fanático +1, the regrouped leave Panicked,
    markers are cleared. Once a turn per side."""
    with playing(battle, actor, M1936) as (battle, side):
        st.require_set_up(side)
        turn = st.turn_of(battle)
        if turn.phase is not m36t.Phase.END:
            raise ValidationError({"__all__": [_("Recovery is made at the end of the turn.")]})
        play = dict(battle.play)
        if side.index in play.get("recovered", []):
            raise ValidationError({"__all__": [_("Your recovery for this turn is made.")]})
        units = st.units_of(side)
        for field, keys in (("leader_in_range", leader_in_range), ("regrouped", regrouped)):
            if set(keys) - set(units):
                raise ValidationError({field: [_("Choose your own units.")]})
        o = st.options(battle)
        hits = recovery.end_of_turn(
            list(units.values()),
            leader_in_range=leader_in_range,
            regrouped=regrouped,
            granted_fanatico=fanatic,
            options=o.morale,
        )
        steps = []
        for hit in hits:
            units[hit.unit.key] = hit.unit
            steps += [{"unit": hit.unit.key, **s} for s in hit.explanation.as_list()]
        st.save_units(side, units)
        play["recovered"] = [*play.get("recovered", []), side.index]
        battle.play = play
        result = st.check_broken(battle, side, units)
        battle.save(update_fields=["play"])
        event = log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "%(p)s: end-of-turn recovery, battalion %(d)s destroyed, %(pa)s Panicked of %(t)s",
                p=str(actor),
                d=result.destroyed,
                pa=result.panicked,
                t=result.total,
            ),
            actor=actor,
            rule="M36-XI.4",
            data={"explanation": steps + result.explanation.as_list(), "broken": result.broken},
            private_to=side if any(not u.revealed for u in units.values()) else None,
        )
        st.log_break(battle, side, result, actor)
    return event

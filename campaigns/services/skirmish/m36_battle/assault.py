"""Assaults in a "1936" battle: infantry against infantry (IX), both sides' R entered, and
infantry against a vehicle (X) with an anti-tank weapon and the X severe damage table.
An assault still in contact at the end of the turn is resolved again then (IX.2, V.6)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import M1936
from campaigns.services.skirmish.common import (
    all_dice_used,
    engine_errors,
    log_event,
    pct,
    playing,
    rolls,
)
from campaigns.services.skirmish.m36_battle import state as st
from campaigns.services.skirmish.m36_battle.fire import FACING_KEYS, apply_panic, vehicle_now
from campaigns.services.skirmish.m36_battle.smoke import add_smoke
from campaigns.services.skirmish.troops import Preview
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936 import command as cmd
from rules.m1936.assault import (
    AssaultSide,
    infantry_assault,
    vehicle_assault,
    vehicle_assault_odds,
)
from rules.m1936.turn import Phase
from rules.m1936.units import PANICKED, PINNED, UnitStatus, take_fire, take_vehicle_damage
from rules.m1936.vehicles import LABELS, Facing
from rules.m1936.weather import SMOKE_RULE, SmokeOrigin


def _side(side, u: UnitStatus, bases: int, performance: int) -> AssaultSide:
    data = st.unit_data(side, u.key)
    fac = data.stats.get("fac")
    if isinstance(fac, tuple):
        fac = fac[0]
    if not isinstance(fac, int):
        raise ValidationError({"unit": [_("%(u)s has no short-range FA.") % {"u": u.name}]})
    state = u.state if u.state in (PINNED, PANICKED) else "Normal"
    return AssaultSide(u.name, fac, bases, state, performance, frozenset(data.rules))


def _prepare(battle, side, unit: str, target: str, *, in_command: bool):
    o = st.options(battle)
    other = st.other_side(battle, side)
    st.require_set_up(side, "unit")
    st.require_set_up(other, "target")
    mine, theirs = st.units_of(side), st.units_of(other)
    me = st.unit_of(mine, unit, "unit")
    foe = st.unit_of(theirs, target, "target")
    if not foe.revealed:
        raise ValidationError({"target": [_("Only a revealed unit may be targeted.")]})
    if not me.revealed:
        raise ValidationError(
            {"unit": [_("Reveal token %(n)s before it fires (XIV.4).") % {"n": me.token}]}
        )
    if (battle.play or {}).get("broken") is not None:
        raise ValidationError({"__all__": [_("A side has broken: the battle is over (XI.7).")]})
    turn = st.turn_of(battle)
    marks = turn.phase is not Phase.END
    if marks:
        sides = list(battle.sides.all())
        owner = st.attacker_index(sides)
        acting = owner if turn.phase is Phase.ATTACK else 1 - owner
        ok, exp = cmd.can_act(
            me, phase_owner=acting == side.index, in_command=in_command, options=o.command
        )
        if not ok:
            step = exp.steps[-1]
            raise ValidationError({"unit": [f"[{step.rule}] {say(step.text)}"]})
    return o, other, mine, theirs, me, foe, marks


def m36_assault(
    *,
    battle: SkirmishBattle,
    actor,
    unit: str,
    target: str,
    bases: int,
    target_bases: int,
    performance: int,
    target_performance: int,
    in_command: bool,
    panic_friends: list[str],
) -> SkirmishEvent:
    """An infantry assault (IX): each side's FAC + R ± bases in contact ± state, at once;
    in the end-of-turn phase it is the assault still in contact (no action marker)."""
    with playing(battle, actor, M1936) as (battle, side):
        o, other, mine, theirs, me, foe, marks = _prepare(
            battle, side, unit, target, in_command=in_command
        )
        if "vehicle" in (me.kind, foe.kind):
            raise ValidationError(
                {"target": [_("A vehicle is assaulted with the vehicle assault.")]}
            )
        with engine_errors("bases"):
            a = _side(side, me, bases, performance)
            b = _side(other, foe, target_bases, target_performance)
            result = infantry_assault(a, b, o.assault)
        exp = Explanation()
        exp.extend(result.explanation)
        with engine_errors("target"):
            hit_b = take_fire(
                foe,
                suppression=result.suppression[1],
                casualties=result.casualties[1],
                terror=result.terror[1],
                options=o.morale,
            )
            hit_a = take_fire(
                me,
                suppression=result.suppression[0],
                casualties=result.casualties[0],
                terror=result.terror[0],
                options=o.morale,
            )
        for hit in (hit_b, hit_a):
            exp.extend(hit.explanation)
        theirs[foe.key], mine[me.key] = hit_b.unit, hit_a.unit
        apply_panic(theirs, hit_b, panic_friends, o, exp)
        if marks and not mine[me.key].out_of_play and not mine[me.key].acted:
            mine[me.key] = cmd.mark_acted(mine[me.key])
        st.save_units(side, mine)
        st.save_units(other, theirs)
        broken_b = st.check_broken(battle, other, theirs)
        broken_a = st.check_broken(battle, side, mine)
        battle.save(update_fields=["play"])
        event = log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=msg(
                "%(a)s assaults %(b)s (R %(ra)s / %(rb)s): %(b)s %(sb)s supp. %(cb)s cas., "
                "%(a)s %(sa)s supp. %(ca)s cas.",
                a=me.name,
                b=foe.name,
                ra=performance,
                rb=target_performance,
                sb=result.suppression[1],
                cb=result.casualties[1],
                sa=result.suppression[0],
                ca=result.casualties[0],
            ),
            actor=actor,
            rule="M36-IX.2",
            data={"explanation": exp.as_list(), "target": foe.key},
        )
        st.log_break(battle, other, broken_b, actor)
        st.log_break(battle, side, broken_a, actor)
    return event


def m36_vehicle_assault(
    *,
    battle: SkirmishBattle,
    actor,
    unit: str,
    target: str,
    bases: int,
    at_weapon: str,
    facing: str,
    performance: int,
    immobilise: bool,
    in_command: bool,
    dice: DiceSource,
) -> SkirmishEvent:
    """My infantry in contact attacks an enemy vehicle with an anti-tank weapon (X)."""
    with playing(battle, actor, M1936) as (battle, side):
        o, other, mine, theirs, me, foe, marks = _prepare(
            battle, side, unit, target, in_command=in_command
        )
        if foe.kind != "vehicle":
            raise ValidationError({"target": [_("Choose a vehicle.")]})
        with engine_errors("at_weapon"):
            attacker = _side(side, me, bases, performance)
            hit = vehicle_assault(
                attacker=attacker,
                at_weapon=at_weapon or None,
                vehicle=vehicle_now(other, foe),
                facing=Facing(facing),
                performance=performance,
                dice=dice,
                immobilise=immobilise,
                options=o.vehicle,
                assault_options=o.assault,
            )
            damaged = take_vehicle_damage(
                foe,
                crew_suppression=hit.crew_suppression,
                pe_loss=hit.pe_loss,
                armour_loss={FACING_KEYS[Facing(facing)]: sum(hit.armour_loss.values())}
                if hit.armour_loss
                else None,
                flags=hit.flags,
                options=o.morale,
            )
        if damaged.destroyed_now:  # it burns (XIV.7.1)
            hit.explanation.add(
                SMOKE_RULE, add_smoke(battle, SmokeOrigin.BURNING_VEHICLE, foe.name)
            )
        all_dice_used(dice)
        exp = Explanation()
        exp.extend(hit.explanation)
        exp.extend(damaged.explanation)
        theirs[foe.key] = damaged.unit
        if marks:
            mine[me.key] = cmd.mark_acted(me)
        broken = st.store_hit(battle, side, mine, other, theirs)
        event = log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=msg(
                "%(a)s assaults the vehicle %(b)s (R %(r)s): %(o)s → %(s)s",
                a=me.name,
                b=foe.name,
                r=performance,
                o=say(LABELS[hit.severe_result or hit.outcome]),
                s=damaged.unit.state,
            ),
            actor=actor,
            rule="M36-X.2",
            data={"explanation": exp.as_list(), "rolls": rolls(dice), "target": foe.key},
        )
        st.log_break(battle, other, broken, actor)
    return event


def _preview_units(battle, me, data: dict):
    """The other side, my unit and the enemy unit a preview's fields name."""
    if me is None:
        raise ValidationError({"__all__": [_("Only the battle's players may do this.")]})
    other = battle.sides.get(index=1 - me.index)
    st.require_set_up(me, "unit")
    st.require_set_up(other, "target")
    mine = st.unit_of(st.units_of(me), data["unit"], "unit")
    foe = st.unit_of(st.units_of(other), data["target"], "target")
    return other, mine, foe


def assault_preview(battle, me, data: dict) -> Preview:
    """The effective FA, suppression and casualties on each side for the R entered."""
    other, mine, foe = _preview_units(battle, me, data)
    with engine_errors("bases"):
        result = infantry_assault(
            _side(me, mine, data["bases"], data["performance"]),
            _side(other, foe, data["target_bases"], data["target_performance"]),
            st.options(battle).assault,
        )
    return Preview(
        [
            (
                name,
                say(
                    msg(
                        "FA %(fa)s: suppression %(s)s, casualties %(c)s",
                        fa=result.fa_eff[i],
                        s=result.suppression[i],
                        c=result.casualties[i],
                    )
                ),
            )
            for i, name in ((1, foe.name if foe.revealed else "?"), (0, mine.name))
        ]
    )


def vehicle_assault_preview(battle, me, data: dict) -> Preview:
    """The exact odds of each outcome of an assault on a vehicle for the R entered (X)."""
    other, mine, foe = _preview_units(battle, me, data)
    if foe.kind != "vehicle":
        raise ValidationError({"target": [_("Choose a vehicle.")]})
    o = st.options(battle)
    with engine_errors("at_weapon"):
        odds = vehicle_assault_odds(
            attacker=_side(me, mine, data["bases"], data["performance"]),
            at_weapon=data.get("at_weapon") or None,
            vehicle=vehicle_now(other, foe),
            facing=Facing(data["facing"]),
            performance=data["performance"],
            immobilise=bool(data.get("immobilise")),
            options=o.vehicle,
            assault_options=o.assault,
        )
    return Preview([(say(LABELS[k]), pct(p)) for k, p in odds.items() if p])

"""Direct fire in a "1936" battle: a unit of mine that may act (or react) fires at a revealed
unit of the other side, at infantry (VI.2, cover VIII) or at a vehicle (VI.3); the result is
applied to the target's status, a panic is seen by the friends named, the firer is marked."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent, SkirmishSide
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
from campaigns.services.skirmish.m36_battle.smoke import add_smoke
from campaigns.services.skirmish.troops import Preview
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936 import command as cmd
from rules.m1936.fire import (
    Band,
    InfantryFireMods,
    fire_at_infantry,
    infantry_fire_table,
    weapon_at,
)
from rules.m1936.units import UnitStatus, friends_see_panic, take_fire, take_vehicle_damage
from rules.m1936.vehicles import (
    LABELS,
    Facing,
    Vehicle,
    VehicleFireMods,
    fire_at_vehicle,
    vehicle_hit_odds,
)
from rules.m1936.weather import SMOKE_RULE, SmokeOrigin

FACING_KEYS = {Facing.FRONT: "front", Facing.SIDE: "side", Facing.REAR: "rear"}
INFANTRY_FLAGS = tuple(InfantryFireMods.__dataclass_fields__)
VEHICLE_FLAGS = ("small_target", "hull_down", "concealed", "in_cover", "aim", "from_higher")


def vehicle_now(side: SkirmishSide, u: UnitStatus) -> Vehicle:
    """The target vehicle with its armour degraded and the PE it has left."""
    data = st.unit_data(side, u.key)
    v = Vehicle.from_stats(u.name, data.stats, data.rules)
    armour = {
        f.value: max(0, v.armour[f.value] - u.armour_loss.get(FACING_KEYS[f], 0)) for f in Facing
    }
    return replace(v, armour=armour, pe=u.pe)


def may_fire(battle, side, u: UnitStatus, *, reaction: bool, in_command: bool, o) -> None:
    """Refuse a firer that may not act (its phase, coherence, markers) or react (V.3–4)."""
    if not u.revealed:
        raise ValidationError(
            {"firer": [_("Reveal token %(n)s before it fires (XIV.4).") % {"n": u.token}]}
        )
    if (battle.play or {}).get("broken") is not None:
        raise ValidationError({"__all__": [_("A side has broken: the battle is over (XI.7).")]})
    turn = st.turn_of(battle)
    if turn.phase.value == "end":
        raise ValidationError({"__all__": [_("It is the end of the turn: nobody fires.")]})
    if reaction:
        ok, exp = cmd.can_react(u)
    else:
        sides = list(battle.sides.all())
        owner = st.attacker_index(sides)
        acting = owner if turn.phase.value == "attack" else 1 - owner
        ok, exp = cmd.can_act(
            u, phase_owner=acting == side.index, in_command=in_command, options=o.command
        )
    if not ok:
        raise ValidationError({"firer": [f"[{exp.steps[-1].rule}] {say(exp.steps[-1].text)}"]})


@dataclass
class FireInput:
    firer: str
    target: str
    band: str
    bases: int
    performance: int
    ammo: str = "AP"
    cover: str = ""
    facing: str = Facing.FRONT.value
    moved_cm: int = 0
    immobilise: bool = False
    flags: tuple[str, ...] = ()


def _weapon(side, u: UnitStatus, f: FireInput):
    data = st.unit_data(side, u.key)
    return weapon_at(
        data.stats,
        Band(f.band),
        ammo=f.ammo or "AP",
        bases=f.bases,
        rules=data.rules,
        decimated=u.decimated,
        name=u.name,
    )


def _infantry_mods(flags) -> InfantryFireMods:
    return InfantryFireMods(**{k: k in flags for k in INFANTRY_FLAGS})


def _vehicle_mods(f: FireInput) -> VehicleFireMods:
    return VehicleFireMods(**{k: k in f.flags for k in VEHICLE_FLAGS}, moved_cm=f.moved_cm or 0)


def m36_fire(
    *,
    battle: SkirmishBattle,
    actor,
    shot: FireInput,
    reaction: bool,
    in_command: bool,
    panic_friends: list[str],
    dice: DiceSource,
) -> SkirmishEvent:
    """One shot by `shot.firer` at `shot.target`; vehicles need the severe d6 only when due."""
    with playing(battle, actor, M1936) as (battle, side):
        o = st.options(battle)
        other = st.other_side(battle, side)
        st.require_set_up(side, "firer")
        st.require_set_up(other, "target")
        mine, theirs = st.units_of(side), st.units_of(other)
        firer = st.unit_of(mine, shot.firer, "firer")
        target = st.unit_of(theirs, shot.target, "target")
        if not target.revealed:
            raise ValidationError({"target": [_("Only a revealed unit may be targeted.")]})
        may_fire(battle, side, firer, reaction=reaction, in_command=in_command, o=o)
        exp = Explanation()
        with engine_errors("band"):
            weapon = _weapon(side, firer, shot)
        with engine_errors("performance"):
            if target.kind == "vehicle":
                hit = fire_at_vehicle(
                    weapon=weapon,
                    vehicle=vehicle_now(other, target),
                    facing=Facing(shot.facing),
                    performance=shot.performance,
                    dice=dice,
                    mods=_vehicle_mods(shot),
                    immobilise=shot.immobilise,
                    options=o.vehicle,
                )
                exp.extend(hit.explanation)
                outcome = say(LABELS[hit.severe_result or hit.outcome])
                facing = FACING_KEYS[Facing(shot.facing)]
                result = take_vehicle_damage(
                    target,
                    crew_suppression=hit.crew_suppression,
                    pe_loss=hit.pe_loss,
                    armour_loss={facing: sum(hit.armour_loss.values())}
                    if hit.armour_loss
                    else None,
                    flags=hit.flags,
                    options=o.morale,
                )
            else:
                fired = fire_at_infantry(
                    weapon=weapon,
                    performance=shot.performance,
                    cover=shot.cover or None,
                    mods=_infantry_mods(shot.flags),
                    options=o.fire,
                    parabolic=weapon.has("Tiro Parabólico"),
                    high_angle=weapon.has("Tiro de Alto Ángulo"),
                )
                exp.extend(fired.explanation)
                outcome = say(
                    msg(
                        "suppression %(s)s, casualties %(c)s",
                        s=fired.suppression,
                        c=fired.casualties,
                    )
                )
                result = take_fire(
                    target,
                    suppression=fired.suppression,
                    casualties=fired.casualties,
                    terror=fired.terror,
                    options=o.morale,
                )
        all_dice_used(dice)
        exp.extend(result.explanation)
        if target.kind == "vehicle" and result.destroyed_now:  # it burns (XIV.7.1)
            exp.add(SMOKE_RULE, add_smoke(battle, SmokeOrigin.BURNING_VEHICLE, target.name))
        theirs[target.key] = result.unit
        spread = apply_panic(theirs, result, panic_friends, o, exp)
        marked = cmd.mark_reacted(firer) if reaction else cmd.mark_acted(firer)
        if firer.observation_bonus:  # V.5: used by this shot (the +1 is inside the R entered)
            exp.add("M36-V.5", msg("Observación completed: +1 advantage used by this shot"), 1)
            marked = replace(marked, observation_bonus=False)
        mine[firer.key] = marked
        broken = st.store_hit(battle, side, mine, other, theirs)
        event = log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=msg(
                "%(f)s fires at %(t)s (R %(r)s): %(o)s → %(s)s",
                f=firer.name,
                t=target.name,
                r=shot.performance,
                o=outcome,
                s=result.unit.state,
            ),
            actor=actor,
            rule="M36-VI.3" if target.kind == "vehicle" else "M36-VI.2",
            data={
                "explanation": exp.as_list(),
                "rolls": rolls(dice),
                "target": target.key,
                "panic_seen_by": spread,
                "broken": broken.broken,
            },
        )
        st.log_break(battle, other, broken, actor)
    return event


def apply_panic(units, hit, friends: list[str], o, exp: Explanation) -> list[str]:
    """A unit that just panicked is seen by the friends named (XI.2); returns their keys."""
    if not hit.panicked_now:
        return []
    keys = [k for k in friends if k in units and k != hit.unit.key]
    seen_all = friends_see_panic([units[k] for k in keys], options=o.morale)
    for k, seen in zip(keys, seen_all, strict=True):
        exp.extend(seen.explanation)
        units[k] = seen.unit
    return keys


def fire_preview(battle, me, shot: FireInput) -> Preview:
    """Against infantry: the outcome for each R; against a vehicle: the exact odds of each
    result for the R entered (the severe d6 enumerated)."""
    o = st.options(battle)
    if me is None:
        raise ValidationError({"__all__": [_("Only the battle's players may do this.")]})
    other = battle.sides.get(index=1 - me.index)
    st.require_set_up(me, "firer")
    st.require_set_up(other, "target")
    firer = st.unit_of(st.units_of(me), shot.firer, "firer")
    target = st.unit_of(st.units_of(other), shot.target, "target")
    if not target.revealed:
        raise ValidationError({"target": [_("Only a revealed unit may be targeted.")]})
    with engine_errors("band"):
        weapon = _weapon(me, firer, shot)
    if target.kind == "vehicle":
        with engine_errors("performance"):
            odds = vehicle_hit_odds(
                weapon=weapon,
                vehicle=vehicle_now(other, target),
                facing=Facing(shot.facing),
                performance=shot.performance,
                mods=_vehicle_mods(shot),
                immobilise=shot.immobilise,
                options=o.vehicle,
            )
        return Preview([(say(LABELS[k]), pct(p)) for k, p in odds.items() if p > Fraction(0)])
    with engine_errors("cover"):
        table = infantry_fire_table(
            weapon=weapon,
            cover=shot.cover or None,
            mods=_infantry_mods(shot.flags),
            options=o.fire,
            parabolic=weapon.has("Tiro Parabólico"),
            high_angle=weapon.has("Tiro de Alto Ángulo"),
        )
    return Preview(
        [
            (
                f"R {r:+d}",
                say(
                    msg(
                        "FA %(fa)s: suppression %(s)s, casualties %(c)s",
                        fa=res.fa_eff,
                        s=res.suppression,
                        c=res.casualties,
                    )
                ),
            )
            for r, res in table
        ]
    )

"""Bombardments (VII) by a piece of my side with Bombardeo(X) and air attacks (XIII) in a
"1936" battle: the template the total damage allows, the deviation dice, each unit under the
template attacked, Munición spent and the tokens on the bombarded squares revealed (XIV.5)."""

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
from campaigns.services.skirmish.m36_battle.fog import reveal_numbers
from campaigns.services.skirmish.m36_battle.smoke import add_smoke
from campaigns.services.skirmish.troops import Preview
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936 import bombard as m36bo
from rules.m1936 import command as cmd
from rules.m1936.air import AirAttackMods, air_attack_modifier, air_available
from rules.m1936.data import parse_rule
from rules.m1936.units import take_fire
from rules.m1936.weather import SMOKE_RULE, SmokeOrigin, Weather


def _stat(stats: dict, key: str, he: bool = True) -> int | None:
    value = stats.get(key)
    if isinstance(value, tuple):
        return value[1 if he else 0]
    return value


def battery_of(battle, side, key: str, pieces: int):
    """The piece's Battery: D (HE) per piece, Bombardeo(X), P (HE, long range) and the
    Munición left this battle (starting at Munición(X))."""
    u = st.unit_of(st.units_of(side), key, "piece")
    data = st.unit_data(side, key)
    levels = dict(parse_rule(r) for r in data.rules)
    if not levels.get("Bombardeo"):
        raise ValidationError({"piece": [_("%(u)s has no Bombardeo(X).") % {"u": u.name}]})
    ammo = (battle.play or {}).get("ammo", {}).get(f"{side.index}:{key}", levels.get("Munición"))
    d, p = _stat(data.stats, "d"), _stat(data.stats, "pl")
    if not isinstance(d, int) or not isinstance(p, int):
        raise ValidationError(
            {"piece": [_("%(u)s has no D or P to bombard with.") % {"u": u.name}]}
        )
    battery = m36bo.Battery(u.name, pieces, d, levels["Bombardeo"], p, ammo, frozenset(data.rules))
    return u, battery, m36bo.dispersion_rule(data.rules)


def _template(templates, choice: str):
    for t in templates:
        if f"{t.size}-{t.casualty_limit}" == choice:
            return t
    raise ValidationError({"template": [_("The total damage does not allow that template.")]})


def m36_bombard(
    *,
    battle: SkirmishBattle,
    actor,
    piece: str,
    pieces: int,
    template: str,
    distance: str,
    performance: int,
    cover: str,
    enemy_targets: list[str],
    own_targets: list[str],
    tokens_hit: list[int],
    dice: DiceSource,
) -> SkirmishEvent:
    """One bombardment: plan (total damage, templates, Munición), deviation dice, then each
    unit under the template attacked as fire against infantry (VII.5)."""
    with playing(battle, actor, M1936) as (battle, side):
        o = st.options(battle)
        other = st.other_side(battle, side)
        st.require_set_up(side, "piece")
        st.require_set_up(other, "enemy_targets")
        if (battle.play or {}).get("broken") is not None:
            raise ValidationError({"__all__": [_("A side has broken: the battle is over (XI.7).")]})
        unit, battery, rule = battery_of(battle, side, piece, pieces)
        if not unit.revealed:
            raise ValidationError(
                {"piece": [_("Reveal token %(n)s before it fires (XIV.4).") % {"n": unit.token}]}
            )
        turn = st.turn_of(battle)
        owner = st.attacker_index(list(battle.sides.all()))
        acting = owner if turn.phase.value == "attack" else 1 - owner
        ok, check = cmd.can_act(
            unit, phase_owner=turn.phase.value != "end" and acting == side.index, in_command=True
        )
        if not ok:
            step = check.steps[-1]
            raise ValidationError({"piece": [f"[{step.rule}] {say(step.text)}"]})
        exp = Explanation()
        with engine_errors("piece"):
            plan = m36bo.plan_bombardment([battery])
        exp.extend(plan.explanation)
        chosen = _template(plan.templates, template)
        band = int(distance) if distance.isdigit() else distance
        with engine_errors("distance"):
            deviation = m36bo.roll_deviation(rule, distance_class=band, dice=dice)
        all_dice_used(dice)
        exp.extend(deviation.explanation)
        mine, theirs = st.units_of(side), st.units_of(other)
        # a hidden unit under the template is on a bombarded square: its token is revealed
        tokens_hit = [*tokens_hit, *(theirs[k].token for k in enemy_targets if k in theirs)]
        revealed = reveal_numbers(
            battle, other, theirs, [n for n in tokens_hit if n], exp, "M36-XIV.5"
        )
        results = []
        for units, keys, field in (
            (theirs, enemy_targets, "enemy_targets"),
            (mine, own_targets, "own_targets"),
        ):
            for key in keys:
                u = st.unit_of(units, key, field)
                if u.kind == "vehicle" or u.out_of_play:
                    raise ValidationError(
                        {field: [_("Only infantry, individuals and guns in play.")]}
                    )
                with engine_errors(field):
                    res = m36bo.bombard_unit(
                        fa=battery.bombardeo,
                        p=battery.p,
                        performance=performance,
                        template_limit=chosen.casualty_limit,
                        target=m36bo.BombardTarget(
                            u.name,
                            prone=u.prone,
                            vehicle_or_individual=u.kind == "individual",
                            cover=cover or None,
                            casco=u.has_rule("Casco"),
                        ),
                        parabolic=battery.has("Tiro Parabólico"),
                        high_angle=battery.has("Tiro de Alto Ángulo"),
                        options=o.bombard,
                    )
                    hit = take_fire(
                        u, suppression=res.suppression, casualties=res.casualties, options=o.morale
                    )
                exp.extend(res.explanation)
                exp.extend(hit.explanation)
                units[key] = hit.unit
                results.append((key, res.suppression, res.casualties))
        play = dict(battle.play)
        play["ammo"] = {
            **play.get("ammo", {}),
            f"{side.index}:{piece}": plan.batteries[0].ammo_left,
        }
        battle.play = play
        mine[piece] = cmd.mark_acted(mine[piece])
        where = f"{unit.name}, {template}"
        exp.add(SMOKE_RULE, add_smoke(battle, SmokeOrigin.BOMBARDMENT, where))  # VII.7
        broken = st.store_hit(battle, side, mine, other, theirs)
        event = log_event(
            battle,
            kind=SkirmishEvent.Kind.ROLL,
            summary=msg(
                "%(u)s bombards (%(t)s, %(n)sd6 deviation = %(cm)s cm): %(k)s units hit, tokens revealed %(r)s",
                u=unit.name,
                t=template,
                n=deviation.dice,
                cm=deviation.distance_cm,
                k=len(results),
                r=", ".join(map(str, revealed)) or "—",
            ),
            actor=actor,
            rule="M36-VII",
            data={"explanation": exp.as_list(), "rolls": rolls(dice)},
        )
        st.log_break(battle, other, broken, actor)
    return event


def bombard_preview(battle, me, data: dict) -> Preview:
    """The templates the total damage allows and the exact odds of the deviation."""
    if me is None:
        raise ValidationError({"__all__": [_("Only the battle's players may do this.")]})
    st.require_set_up(me, "piece")
    _unit, battery, rule = battery_of(battle, me, data["piece"], data["pieces"])
    with engine_errors("piece"):
        plan = m36bo.plan_bombardment([battery])
    distance = data["distance"]
    with engine_errors("distance"):
        n = m36bo.dispersion_dice(
            rule, distance_class=int(distance) if distance.isdigit() else distance
        )
    odds = m36bo.deviation_odds(n)
    lines = [
        (str(msg("templates")), ", ".join(f"{t.size}-{t.casualty_limit}" for t in plan.templates))
    ]
    lines += [(f"{cm} cm", pct(p)) for cm, p in odds.probs]
    return Preview(lines)


def m36_air_attack(
    *,
    battle: SkirmishBattle,
    actor,
    target: str,
    suppression: int,
    casualties: int,
    small_target: bool,
    concealed: bool,
    tokens_hit: list[int],
) -> SkirmishEvent:
    """An air attack on an enemy unit: aircraft fly only in the weather that allows them
    (XV.3); the XVI.3 modifiers are shown; the attack's effect (not in the seed) is entered."""
    with playing(battle, actor, M1936) as (battle, side):
        o = st.options(battle)
        if not battle.weather:
            raise ValidationError({"target": [_("Roll the weather first.")]})
        weather = Weather(battle.weather["current"]["weather"])
        status = air_available(weather, o.air)
        if not status.available:
            raise ValidationError({"target": [_("No air support in this weather (XV.3).")]})
        other = st.other_side(battle, side)
        st.require_set_up(other, "target")
        theirs = st.units_of(other)
        u = st.unit_of(theirs, target, "target")
        exp = Explanation(list(status.explanation))
        tokens_hit = [*tokens_hit, *([u.token] if u.token else [])]
        revealed = reveal_numbers(battle, other, theirs, tokens_hit, exp, "M36-XIV.5")
        u = theirs[target]
        mod, mod_exp = air_attack_modifier(
            AirAttackMods(prone=u.prone, small_target=small_target, concealed=concealed)
        )
        exp.extend(mod_exp)
        with engine_errors("suppression"):
            hit = take_fire(u, suppression=suppression, casualties=casualties, options=o.morale)
        exp.extend(hit.explanation)
        theirs[target] = hit.unit
        st.save_units(other, theirs)
        broken = st.check_broken(battle, other, theirs)
        battle.save(update_fields=["play"])
        event = log_event(
            battle,
            kind=SkirmishEvent.Kind.EVENT,
            summary=msg(
                "Air attack on %(t)s (FA modifier %(m)s): %(s)s suppression, %(c)s casualties",
                t=st.shown(hit.unit, own=False),
                m=mod,
                s=suppression,
                c=casualties,
            ),
            actor=actor,
            rule="M36-XIII",
            data={"explanation": exp.as_list(), "revealed": revealed},
        )
        st.log_break(battle, other, broken, actor)
    return event

"""Parabellum shots (§6.1, §6.2) and assaults (§6.3), with their odds before rolling."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import PARABELLUM
from campaigns.rosters.words import soldier_name
from campaigns.services.skirmish.common import all_dice_used, engine_errors, log_roll, pct, playing
from campaigns.services.skirmish.pb_play import hooks
from campaigns.services.skirmish.troops import (
    Preview,
    check_turn,
    find,
    kill,
    odds_line,
    outcome_label,
    sid,
    spend,
    troops_of,
)
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import assault as pba
from rules.parabellum import labels as pbl
from rules.parabellum import shooting as pbs
from rules.parabellum.roster import soldier_weapon


def _opponents(troops, key: str, field: str, enemy: str, enemy_field: str, same_side: str):
    """The troops and soldiers of two "side:soldier" choices that must be on opposite sides."""
    troop = find(troops, key, field)
    enemy_troop = find(troops, enemy, enemy_field)
    if troop is enemy_troop:
        raise ValidationError({enemy_field: [same_side]})
    return (
        troop,
        enemy_troop,
        troop.soldier(sid(key), field),
        enemy_troop.soldier(sid(enemy), enemy_field),
    )


def _shot(troops, shooter: str, target: str, params: dict[str, Any]):
    s_troop, t_troop, soldier, tgt = _opponents(
        troops, shooter, "shooter", target, "target", _("Choose an enemy soldier as the target.")
    )
    with engine_errors("distance_cm"):
        shot = pbs.Shot(
            weapon=soldier_weapon(s_troop.roster, soldier),
            distance_cm=float(params["distance_cm"]),
            cover=params.get("cover") or "none",
            reaction=bool(params.get("reaction")),
            aimed=bool(params.get("aimed")),
            shooter_experience=soldier.experience,
            target_suppressed=bool(params.get("target_suppressed")),
            target_double_time_cm=params.get("target_double_time_cm"),
            mg42_assisted=bool(params.get("mg42_assisted")),
        )
        pbs.shot_modifier(shot)
    return s_troop, t_troop, soldier, tgt, shot


def shot_preview(*, battle: SkirmishBattle, shooter: str, target: str, **params) -> Preview:
    troops = troops_of(battle)
    _s, _t, _soldier, tgt, shot = _shot(troops, shooter, target, params)
    with engine_errors("distance_cm"):
        odds = pbs.shot_odds(shot)
        ex = Explanation()
        mod = pbs.shot_modifier(shot, ex)
        full = pbs.attack_odds(shot, tgt.experience)
    return Preview(
        [
            (_("Weapon"), f"{shot.weapon.model} ({shot.weapon.range_cm} cm)"),
            (
                _("Modifiers"),
                "; ".join(
                    f"[{s.rule}] {say(s.text)} {s.value:+d}" for s in ex if isinstance(s.value, int)
                )
                or "0",
            ),
            (
                _("Shot succeeds (11+ or a triple)"),
                f"{pct(odds.success)} (total modifier {mod:+d})",
            ),
            (_("Critical (triple)"), pct(odds.critical)),
            odds_line(_("Target after evasion (no hit the dirt)"), full),
        ]
    )


def skirmish_shoot(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    shooter: str,
    target: str,
    hit_the_dirt: bool = False,
    dice: DiceSource,
    **params,
) -> SkirmishEvent:
    """One shot (§6.1, §6.2) and the target's evasion; an elimination becomes a casualty."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        troops = troops_of(battle)
        s_troop, t_troop, soldier, _tgt, shot = _shot(troops, shooter, target, params)
        known = hooks.before_attack(
            battle,
            troops,
            shooter,
            "shoot",
            field="shooter",
            target=target,
            distance_cm=shot.distance_cm,
            reaction=shot.reaction,
            mg42_assisted=shot.mg42_assisted,
        )
        if known:
            params = {**params, **known}
            s_troop, t_troop, soldier, _tgt, shot = _shot(troops, shooter, target, params)
        target_id = sid(target)
        if t_troop.down(target_id):
            raise ValidationError(
                {"target": [_("%(s)s is already down.") % {"s": say(t_troop.named(target_id))}]}
            )
        ex = Explanation()
        outcome = "unharmed"
        with engine_errors("hit_the_dirt"):
            result = pbs.resolve_shot(shot, dice)
            ex.extend(result.explanation)
            if result.success:
                ev = pbs.resolve_shot_evasion(
                    result, t_troop.target(target_id, "target", hit_the_dirt), dice
                )
                ex.extend(ev.explanation)
                outcome = ev.outcome
                if ev.po_spent:
                    spend(t_troop, ev.po_spent, _("Hitting the dirt"))
        all_dice_used(dice)
        cause = "reaction_shot" if shot.reaction else "shot"
        if outcome == "eliminated":
            kill(t_troop, target_id, turn, cause)
        t_troop.side.save(update_fields=["casualties", "po"])
        hooks.after_attack(battle, troops, [(target, outcome)])
        summary = msg(
            "Turn %(t)s: %(s)s (%(w)s) shoots %(x)s at %(d)s cm: %(m)s → %(o)s",
            t=turn,
            s=s_troop.named(soldier.id),
            w=pbl.model_label(shot.weapon.model),
            x=t_troop.named(target_id),
            d=shot.distance_cm,
            m=msg("success") if result.success else msg("miss"),
            o=outcome_label(outcome),
        )
        return log_roll(
            battle,
            summary=summary,
            actor=actor,
            rule="6.1",
            explanation=ex,
            dice=dice,
            roll=result.roll.as_dict(),
            outcome=outcome,
            odds={"success": pct(result.odds.success), "critical": pct(result.odds.critical)},
        )


def _assault_parts(troops, attacker: str, defender: str, params: dict[str, Any]):
    a_troop, d_troop, a, d = _opponents(
        troops, attacker, "attacker", defender, "defender", _("Assault an enemy soldier.")
    )
    movement = params.get("movement") or "cautious"
    if movement not in ("cautious", "double_time"):
        raise ValidationError(
            {"movement": [_("An assault follows a cautious or double-time move.")]}
        )
    assailant = pba.Assailant(
        a.id, movement, a.experience, soldier_weapon(a_troop.roster, a).has("assault")
    )
    assistant = params.get("mg_assistant") or ""
    if assistant:
        if find(troops, assistant, "mg_assistant") is not d_troop or assistant == defender:
            raise ValidationError(
                {"mg_assistant": [_("The assistant is another soldier of the assaulted side.")]}
            )
        helper = d_troop.soldier(sid(assistant), "mg_assistant")
        if not soldier_weapon(d_troop.roster, d).has("assistant"):
            raise ValidationError(
                {"mg_assistant": [_("%(s)s does not hold the MG.") % {"s": d.id}]}
            )
        if d_troop.down(helper.id):
            raise ValidationError({"mg_assistant": [_("%(s)s is down.") % {"s": helper.id}]})
        assistant = helper.id
    defenders = [
        pba.Defender(
            d.id,
            d.experience,
            suppressed=bool(params.get("defender_suppressed")),
            assault_weapon=soldier_weapon(d_troop.roster, d).has("assault"),
            heavy_cover=bool(params.get("heavy_cover")),
            marked_by_covering_fire=bool(params.get("marked")),
            mg_assistant=assistant or None,
        )
    ]
    second = params.get("second_defender") or ""
    if second:
        if find(troops, second, "second_defender") is not d_troop or second == defender:
            raise ValidationError({"second_defender": [_("Another enemy within 3 cm.")]})
        s2 = d_troop.soldier(sid(second), "second_defender")
        defenders.append(
            pba.Defender(
                s2.id,
                s2.experience,
                suppressed=bool(params.get("second_suppressed")),
                assault_weapon=soldier_weapon(d_troop.roster, s2).has("assault"),
            )
        )
    return a_troop, d_troop, assailant, defenders


def assault_preview(*, battle: SkirmishBattle, attacker: str, defender: str, **params) -> Preview:
    troops = troops_of(battle)
    _a, _d, assailant, defenders = _assault_parts(troops, attacker, defender, params)
    order = sorted(defenders, key=lambda d: d.suppressed)
    lines = []
    for k, d in enumerate(order, start=1):
        ex = Explanation()
        odds = pba.bout_odds(
            pba.attacker_modifier(assailant, k, len(order), ex),
            pba.defender_modifier(d, assailant, ex),
        )
        lines.append(
            (
                _("Bout %(k)s vs %(d)s") % {"k": k, "d": soldier_name(d.name)},
                _("%(a)s falls %(pa)s · %(d)s falls %(pd)s · both %(pb)s")
                % {
                    "a": soldier_name(assailant.name),
                    "pa": pct(odds.attacker_eliminated),
                    "d": soldier_name(d.name),
                    "pd": pct(odds.defender_eliminated),
                    "pb": pct(odds.both_eliminated),
                },
            )
        )
    return Preview(lines)


def _fallen(result, assailant, defenders, a_troop, d_troop) -> list:
    """(troop, soldier) eliminated bout by bout: both sides may use the same soldier ids."""
    team = {d.name: d.mg_assistant for d in defenders}
    fallen = []
    for bout in result.bouts:
        if bout.defender_eliminated:
            fallen.append((d_troop, bout.defender))
            if team.get(bout.defender):
                fallen.append((d_troop, team[bout.defender]))
        if bout.attacker_eliminated:
            fallen.append((a_troop, assailant.name))
    return fallen


def skirmish_assault(
    *, battle: SkirmishBattle, actor, turn: int, attacker: str, defender: str, dice, **params
) -> SkirmishEvent:
    """An assault (§6.3) with consecutive bouts; eliminated soldiers become casualties."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        troops = troops_of(battle)
        a_troop, d_troop, assailant, defenders = _assault_parts(troops, attacker, defender, params)
        known = hooks.before_attack(
            battle, troops, attacker, "assault", field="attacker", target=defender
        )
        if known.get("target_suppressed") is not None:
            params = {**params, "defender_suppressed": known["target_suppressed"]}
            a_troop, d_troop, assailant, defenders = _assault_parts(
                troops, attacker, defender, params
            )
        with engine_errors("defender"):
            result = pba.resolve_assault(assailant, defenders, dice)
        all_dice_used(dice)
        fallen = _fallen(result, assailant, defenders, a_troop, d_troop)
        for troop, name in fallen:
            kill(troop, name, turn, "assault")
        a_troop.side.save(update_fields=["casualties"])
        d_troop.side.save(update_fields=["casualties"])
        hooks.after_attack(
            battle, troops, [(f"{tr.side.index}:{n}", "eliminated") for tr, n in fallen]
        )
        return log_roll(
            battle,
            summary=msg(
                "Turn %(t)s: %(a)s assaults %(d)s → eliminated: %(e)s",
                t=turn,
                a=a_troop.named(assailant.name),
                d=pbl.joined([d_troop.named(d.name) for d in defenders]),
                e=pbl.joined([tr.named(n) for tr, n in fallen]) or msg("nobody"),
            ),
            actor=actor,
            rule="6.3",
            explanation=result.explanation,
            dice=dice,
        )

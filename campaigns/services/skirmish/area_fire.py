"""Parabellum area attacks: grenades and the M7 launcher (§6.4), grenade projectors (§6.6),
the British preliminary bombardment and reinforcement calls (§7), with their odds."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import PARABELLUM
from campaigns.services.skirmish.common import all_dice_used, engine_errors, log_roll, pct, playing
from campaigns.services.skirmish.pb_play import hooks
from campaigns.services.skirmish.troops import (
    Preview,
    Troop,
    apply_area,
    area_targets,
    check_turn,
    evasion_lines,
    evasions,
    odds_line,
    standing,
    troops_of,
)
from rules.dice import Distribution
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import evasion as pbe
from rules.parabellum import explosives as pbx
from rules.parabellum import labels as pbl
from rules.parabellum import supports as pbsup
from rules.parabellum.data import nation, weapon
from rules.parabellum.roster import Roster as PBRoster

AREA_ATTACKS = {
    "grenade": pbe.GRENADE,
    "grenade_launcher": pbe.GRENADE_LAUNCHER,
    "artillery": pbe.ARTILLERY,
    "light_mortar": pbe.LIGHT_MORTAR,
    "sniper": pbe.SNIPER,
}
SUPPORT_KINDS = ("sniper", "artillery", "fire_at_will", "light_mortar", "anticipation")


def area_preview(
    *, battle: SkirmishBattle, kind: str, targets: list[str], mg42: bool = False, **_p
) -> Preview:
    troops = troops_of(battle)
    attack = pbe.fire_at_will(mg42) if kind == "fire_at_will" else AREA_ATTACKS.get(kind)
    if attack is None:
        return Preview([(_("Anticipation"), _("no roll"))])
    lines = evasion_lines(troops, targets, attack)
    if kind == "artillery":
        lines.append(
            odds_line(
                _("Radio technician: deviation dice"),
                {k: v for k, v in pbsup.radio_technician_odds().items()},
            )
        )
    return Preview(lines or [(_("Targets"), _("choose the soldiers caught in the area"))])


def projector_preview(
    *, battle: SkirmishBattle, distance_cm: float, moved: bool, targets: list[str]
) -> Preview:
    """Exact odds of a grenade-projector shot and of each caught soldier's 11+ evasion."""
    troops = troops_of(battle)
    with engine_errors("distance_cm"):
        needed = pbx.projector_needed(float(distance_cm))
        mod = pbx.PROJECTOR_MOVED_PENALTY if moved else 0
        p_hit = Distribution.of("3d6", modifier=mod).p_at_least(needed)
        attack = pbx.projector_evasion(float(distance_cm))
    lines = [
        (
            _("Hit: 3D6%(m)s needs %(n)s+") % {"m": f" {mod:+d}" if mod else "", "n": needed},
            pct(p_hit),
        )
    ]
    return Preview(lines + evasion_lines(troops, targets, attack))


def skirmish_grenade(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    thrower: str,
    distance_cm: float,
    moved: bool,
    los_to_marker: bool,
    targets: list[str],
    hit_the_dirt: list[str],
    dice,
    launcher: bool = False,
) -> SkirmishEvent:
    """A hand grenade (§6.4): the marker deviates, everyone in the 6 cm blast is suppressed
    and evades 9+; hitting the dirt costs PO and skips the roll (DECISIONS D-6).
    `launcher`: the US M7 (20-40 cm, the firer sees the marker, always 2D6 deviation;
    the soldiers caught evade 9+ or are eliminated) — only a soldier carrying one."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        troops = troops_of(battle)
        troop, soldier = standing(troops, thrower, "thrower")
        if launcher and "grenade_launcher" not in soldier.extras:
            raise ValidationError(
                {
                    "thrower": [
                        _("%(s)s carries no M7 grenade launcher.")
                        % {"s": say(troop.named(soldier.id))}
                    ]
                }
            )
        caught = area_targets(troops, targets, hit_the_dirt)
        hooks.before_attack(
            battle,
            troops,
            thrower,
            "launcher" if launcher else "grenade",
            field="thrower",
            distance_cm=float(distance_cm),
        )
        ex = Explanation()
        with engine_errors("distance_cm"):
            if launcher:
                dev = pbx.fire_grenade_launcher(
                    float(distance_cm), dice, los_to_marker=los_to_marker
                )
            else:
                dev = pbx.throw_grenade(
                    float(distance_cm), dice, moved=moved, los_to_marker=los_to_marker
                )
            ex.extend(dev.explanation)
            results = evasions(pbe.GRENADE_LAUNCHER if launcher else pbe.GRENADE, caught, dice)
        all_dice_used(dice)
        cause = "grenade_launcher" if launcher else "grenade"
        outcomes = apply_area(caught, results, ex, turn, cause)
        hooks.after_attack(battle, troops, _results(caught, results))
        text = (
            "Turn %(t)s: %(s)s fires the M7 launcher (deviation %(d)s cm): %(o)s"
            if launcher
            else "Turn %(t)s: %(s)s throws a grenade (deviation %(d)s cm): %(o)s"
        )
        return log_roll(
            battle,
            summary=msg(text, t=turn, s=troop.named(soldier.id), d=dev.distance_cm, o=outcomes),
            actor=actor,
            rule="10 ESTADOS UNIDOS" if launcher else "6.4",
            explanation=ex,
            dice=dice,
        )


def _results(caught, results) -> list[tuple[str, str]]:
    """Each caught soldier's outcome, keyed "side:soldier" for the turn ledgers."""
    return [
        (f"{troop.side.index}:{target.name}", r.outcome)
        for (troop, target), r in zip(caught, results, strict=False)
    ]


def _projector_weapon(troop: Troop, soldier):
    """The soldier's grenade projector (the primary weapon or an extra such as the
    Panzerfaust), or None."""
    code = troop.roster.type.nation
    for key in (soldier.weapon, *soldier.extras):
        try:
            w = weapon(code, key)
        except RuleError:
            continue
        if w.has("grenade_projector"):
            return w
    return None


def skirmish_projector(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    firer: str,
    distance_cm: float,
    moved: bool,
    targets: list[str],
    hit_the_dirt: list[str],
    dice,
) -> SkirmishEvent:
    """A grenade-projector shot (§6.6, 2 PA): 3D6 against 7+/9+/11+ by distance, −2 if the
    firer moved; on a hit the target (first) and every soldier within 3 cm are suppressed and
    evade 11+ or are eliminated; no hitting the dirt at 10 cm or less (DECISIONS D-7).
    A single-use weapon (Panzerfaust) fires once per battle."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        troops = troops_of(battle)
        f_troop, soldier = standing(troops, firer, "firer")
        gun = _projector_weapon(f_troop, soldier)
        if gun is None:
            raise ValidationError(
                {
                    "firer": [
                        _("%(s)s carries no grenade projector.")
                        % {"s": say(f_troop.named(soldier.id))}
                    ]
                }
            )
        if (
            gun.has("single_use")
            and SkirmishEvent.objects.filter(battle=battle, data__projector=firer).exists()
        ):
            raise ValidationError(
                {
                    "firer": [
                        _("%(s)s has already fired the %(w)s (single use).")
                        % {
                            "s": say(f_troop.named(soldier.id)),
                            "w": say(pbl.model_label(gun.model)),
                        }
                    ]
                }
            )
        caught = area_targets(troops, targets, hit_the_dirt)
        if caught[0][0] is f_troop:
            raise ValidationError({"targets": [_("The first soldier is the enemy target.")]})
        hooks.before_attack(
            battle, troops, firer, "projector", field="firer", distance_cm=float(distance_cm)
        )
        ex = Explanation()
        with engine_errors("distance_cm"):
            shot = pbx.fire_projector(float(distance_cm), dice, moved=moved)
            ex.extend(shot.explanation)
            results = []
            if shot.hit:
                with engine_errors("hit_the_dirt"):
                    results = evasions(pbx.projector_evasion(float(distance_cm)), caught, dice)
        all_dice_used(dice)
        outcomes = apply_area(caught, results, ex, turn, "projector") if shot.hit else ""
        hooks.after_attack(battle, troops, _results(caught, results))
        return log_roll(
            battle,
            summary=msg(
                "Turn %(t)s: %(s)s fires the %(w)s at %(d)s cm: %(m)s vs %(n)s+ → %(o)s",
                t=turn,
                s=f_troop.named(soldier.id),
                w=pbl.model_label(gun.model),
                d=float(distance_cm),
                m=shot.modified,
                n=shot.needed,
                o=outcomes or msg("miss"),
            ),
            actor=actor,
            rule="6.6",
            explanation=ex,
            dice=dice,
            projector=firer,
            hit=shot.hit,
            odds={"hit": pct(shot.p_hit)},
        )


def skirmish_bombardment(
    *, battle: SkirmishBattle, actor, targets: list[str], hit_the_dirt: list[str], dice
) -> SkirmishEvent:
    """The free British preliminary bombardment ("STONK", 10 GRAN BRETAÑA): once, before
    turn 1, as 4-PO artillery (radius 15 cm, 3D6 deviation); the soldiers caught evade 9+ or
    are suppressed — it never eliminates (DECISIONS D-17)."""
    with playing(battle, actor, PARABELLUM) as (battle, side):
        troops = troops_of(battle)
        if "stonk" not in troops[side.index].roster.type.special_rules:
            raise ValidationError(
                {"__all__": [_("Only British squads have the preliminary bombardment.")]}
            )
        if SkirmishEvent.objects.filter(battle=battle, data__stonk=side.index).exists():
            raise ValidationError(
                {"__all__": [_("The preliminary bombardment was already fired.")]}
            )
        started = (
            battle.turns
            or battle.tactical
            or SkirmishEvent.objects.filter(battle=battle, kind=SkirmishEvent.Kind.ROLL)
            .exclude(data__has_key="stonk")
            .exists()
        )
        if started:
            raise ValidationError(
                {"__all__": [_("The preliminary bombardment comes before turn 1.")]}
            )
        caught = area_targets(troops, targets, hit_the_dirt)
        if any(troop is troops[side.index] for troop, _t in caught):
            raise ValidationError({"targets": [_("Choose enemy soldiers under the barrage.")]})
        ex = Explanation()
        with engine_errors("targets"):
            bomb = pbsup.stonk(dice)
            ex.extend(bomb.explanation)
            with engine_errors("hit_the_dirt"):
                results = evasions(bomb.attack, caught, dice)
        all_dice_used(dice)
        outcomes = apply_area(caught, results, ex, 1, "artillery")
        hooks.after_attack(battle, troops, _results(caught, results))
        return log_roll(
            battle,
            summary=msg(
                "Preliminary bombardment (STONK, radius %(r)s cm, deviation %(d)s cm): %(o)s",
                r=bomb.radius_cm,
                d=bomb.deviation.distance_cm,
                o=outcomes,
            ),
            actor=actor,
            rule=pbsup.GBR,
            explanation=ex,
            dice=dice,
            stonk=side.index,
        )


def skirmish_support(
    *,
    battle: SkirmishBattle,
    actor,
    turn: int,
    kind: str,
    po: int = 0,
    targets: list[str] | None = None,
    hit_the_dirt: list[str] | None = None,
    radio_operator: bool = False,
    dice,
) -> SkirmishEvent:
    """A reinforcement call (§7) checked against this battle's PO ledger, then resolved."""
    check_turn(turn)
    if kind not in SUPPORT_KINDS:
        raise ValidationError({"kind": [_("Choose a reinforcement.")]})
    targets, dirt = targets or [], hit_the_dirt or []
    with playing(battle, actor, PARABELLUM) as (battle, side):
        troops = troops_of(battle)
        own = troops[side.index]
        squad = PBRoster.from_dict(side.snapshot).squad_type
        if kind == "fire_at_will":
            po = len(targets)
        elif kind == "sniper":
            po = pbsup.SNIPER_PO
        elif kind == "light_mortar":
            po = pbsup.LIGHT_MORTAR_PO
        call = pbsup.Call(turn, kind, int(po or 0))
        previous = [pbsup.Call(**c) for c in side.calls]
        ex = Explanation()
        with engine_errors("kind"):
            check = pbsup.check_call(squad, previous, call, side.po)
        ex.extend(check.explanation)
        own.side.po = check.po_left
        own.side.calls = [*side.calls, {"turn": turn, "kind": kind, "po": call.po}]
        caught = area_targets(troops, targets, dirt) if kind != "anticipation" else []
        with engine_errors("targets"):
            if kind in ("artillery", "light_mortar"):
                bomb = (
                    pbsup.artillery(call.po, dice, radio_operator=radio_operator)
                    if kind == "artillery"
                    else pbsup.light_mortar(dice)
                )
                ex.extend(bomb.explanation)
                results = evasions(bomb.attack, caught, dice)
            elif kind == "sniper":
                fire = pbsup.sniper_shot(caught[0][1], [t.name for _tr, t in caught[1:]], dice)
                ex.extend(fire.explanation)
                results = fire.evasions
                caught = caught[:1]
            elif kind == "fire_at_will":
                st = PBRoster.from_dict(side.snapshot).type
                mg42 = "mg42" in (nation(st.nation).special_rules | st.special_rules)
                fire = pbsup.mg_fire_at_will(
                    [t for _tr, t in caught], dice, team_ready=True, mg42=mg42
                )
                ex.extend(fire.explanation)
                results = fire.evasions
            else:
                results = []
        all_dice_used(dice)
        own.side.save(update_fields=["po", "calls"])
        outcomes = apply_area(caught, results, ex, turn, kind) if caught else ""
        hooks.after_attack(battle, troops, _results(caught, results))
        return log_roll(
            battle,
            summary=msg(
                "Turn %(t)s: %(p)s calls %(k)s for %(po)s PO (%(left)s left): %(o)s",
                t=turn,
                p=str(actor),
                k=pbl.label(pbl.SUPPORTS, kind),
                po=call.po,
                left=check.po_left,
                o=outcomes,
            )
            if outcomes
            else msg(
                "Turn %(t)s: %(p)s calls %(k)s for %(po)s PO (%(left)s left)",
                t=turn,
                p=str(actor),
                k=pbl.label(pbl.SUPPORTS, kind),
                po=call.po,
                left=check.po_left,
            ),
            actor=actor,
            rule="7",
            explanation=ex,
            dice=dice,
        )

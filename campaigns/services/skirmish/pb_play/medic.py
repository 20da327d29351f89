"""The medic on the site (§8.3.2): a soldier eliminated within 20 cm of the medic lies downed
(still a casualty, `healed_turn` None, listed in the side's `units["downed"]`); the medic,
activated, tends one downed soldier a turn (0 PA): 3D6 ≥ 11 stands it up suppressed, resting
until next turn (the casualty gets `healed_turn`), else it is removed. Downed soldiers left
farther than 20 cm at the end of the turn are removed by `pb_finish_phase`."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.services.skirmish.common import all_dice_used, engine_errors, log_event, log_roll
from campaigns.services.skirmish.pb_play.state import Turn, soldier_key, turn_flow
from rules.dice import DiceSource
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum import medic as pbm
from rules.parabellum.activation import act, set_state, stand_up


def _medic_up(t: Turn) -> bool:
    soldiers = t.ledger.soldiers
    return any(
        s.specialist == "medic" and s.id in soldiers and not soldiers[s.id].out
        for s in t.roster.active
    )


def _casualty(t: Turn, sid: str, field: str) -> dict:
    c = next((c for c in t.me.casualties if c["soldier_id"] == sid), None)
    if c is None or c.get("healed_turn") is not None:
        raise ValidationError({field: [_("Only an eliminated soldier of yours.")]})
    return c


def pb_downed(
    *, battle: SkirmishBattle, actor, soldier: str, medic_distance_cm: float
) -> SkirmishEvent:
    """One of your soldiers eliminated within 20 cm of your medic lies downed instead of
    being removed; it still counts as eliminated (§8.3.2)."""
    with turn_flow(battle, actor) as t:
        sid = soldier_key(soldier, t.me.index, "soldier")
        _casualty(t, sid, "soldier")
        if sid in t.play.downed[t.me.index]:
            raise ValidationError({"soldier": [_("Already downed.")]})
        fall = pbm.falls(medic_alive=_medic_up(t), medic_distance_cm=medic_distance_cm)
        if fall != "downed":
            raise ValidationError(
                {
                    "medic_distance_cm": [
                        _("Only within 20 cm of a medic still in the battle [8.3.2].")
                    ]
                }
            )
        t.play.downed[t.me.index].append(sid)
        if sid in t.ledger.soldiers:
            t.ledger = set_state(t.ledger, sid, out=True)
        return log_event(
            t.battle,
            kind=SkirmishEvent.Kind.EVENT,
            summary=msg(
                "Turn %(t)s: %(s)s lies downed %(cm)s cm from the medic",
                t=t.play.state.turn,
                s=pbl.soldier_name(sid),
                cm=medic_distance_cm,
            ),
            actor=actor,
            rule="8.3.2",
        )


def pb_tend(
    *,
    battle: SkirmishBattle,
    actor,
    soldier: str,
    medic_touching: bool,
    enemy_threat: bool,
    dice: DiceSource,
) -> SkirmishEvent:
    """The activated medic tends a downed friend (0 PA, one a turn): 3D6 ≥ 11 stands it up
    suppressed until next turn, else it is removed (§8.3.2)."""
    with turn_flow(battle, actor) as t:
        sid = soldier_key(soldier, t.me.index, "soldier")
        if sid not in t.play.downed[t.me.index]:
            raise ValidationError({"soldier": [_("Only a downed soldier of yours.")]})
        a = t.ledger.active
        if a is None:
            raise ValidationError({"soldier": [_("Activate the medic first [4.3.2].")]})
        with engine_errors("soldier"):
            pbm.tend_check(
                medic_touching=medic_touching,
                medic_attacked_this_activation=a.attack is not None,
                enemy_threat=enemy_threat,
                tended_this_turn=t.ledger.tended,
            )
            step = act(t.ledger, t.roster, "tend", target=sid)
            result = pbm.tend(dice)
        all_dice_used(dice)
        ex = step.explanation
        ex.extend(result.explanation)
        ledger = step.side
        turn = t.play.state.turn
        t.play.downed[t.me.index].remove(sid)
        if result.stands_up:
            ledger = stand_up(ledger, sid)
            t.me.casualties = [
                {**c, "healed_turn": turn} if c["soldier_id"] == sid else c for c in t.me.casualties
            ]
            t.me.save(update_fields=["casualties"])
        t.ledger = ledger
        return log_roll(
            t.battle,
            summary=msg(
                "Turn %(t)s: the medic tends %(s)s: %(r)s",
                t=turn,
                s=pbl.soldier_name(sid),
                r=msg("stands up suppressed") if result.stands_up else msg("removed"),
            ),
            actor=actor,
            rule="8.3.2",
            explanation=ex,
            dice=dice,
            roll=result.roll.as_dict(),
        )

"""The turn machine of a Parabellum battle on the site (§4): who plays first in the
reinforcements and activations phases, each player's "finish my part", and the end of the
turn (tokens back, the medic's clean-up), then the next turn's tactical phase; after turn 5
the battle is over and may be finished (§9)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.services.skirmish.common import engine_errors, log_event
from campaigns.services.skirmish.pb_play.state import Turn, next_turn, soldier_key, turn_flow
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum import medic as pbm
from rules.parabellum import turn as pbt

PHASE_WORDS = {
    pbt.Phase.TACTICAL: msg("tactical phase"),
    pbt.Phase.REINFORCEMENTS: msg("reinforcements phase"),
    pbt.Phase.ACTIVATIONS: msg("activations phase"),
    pbt.Phase.END: msg("end of the turn"),
    pbt.Phase.OVER: msg("the battle is over"),
}


def pb_choose_first(*, battle: SkirmishBattle, actor, first: int) -> SkirmishEvent:
    """The initiative holder picks who plays the current phase first (§4.2.1, §4.3.1)."""
    with turn_flow(battle, actor) as t:
        if first not in (0, 1):
            raise ValidationError({"first": [_("Choose a player.")]})
        with engine_errors("first"):
            t.play.state = pbt.choose_first(t.play.state, t.me.index, first)
        state = t.play.state
        return log_event(
            t.battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "Turn %(t)s, %(phase)s: %(p)s plays first",
                t=state.turn,
                phase=PHASE_WORDS[state.phase],
                p=str(t.sides[first].player),
            ),
            actor=actor,
            rule=pbt.PHASE_RULES[state.phase],
        )


def _end_of_turn(t: Turn, near_medic: list[str]) -> list[str]:
    """The actor's side at the end of the turn: downed soldiers farther than 20 cm from the
    medic (or with no medic standing) are removed (§8.3.2); the rest stay downed."""
    index = t.me.index
    keep = [soldier_key(k, index, "near_medic") for k in near_medic]
    downed = t.play.downed[index]
    stray = [k for k in keep if k not in downed]
    if stray:
        raise ValidationError(
            {"near_medic": [_("Only your downed soldiers may stay next to the medic.")]}
        )
    soldiers = t.ledger.soldiers
    medic_up = any(
        s.specialist == "medic" and s.id in soldiers and not soldiers[s.id].out
        for s in t.roster.active
    )
    distances = {d: (0.0 if d in keep and medic_up else None) for d in downed}
    removed = pbm.end_of_turn_removals(distances)
    t.play.downed[index] = [d for d in downed if d not in removed]
    return removed


def pb_finish_phase(
    *, battle: SkirmishBattle, actor, near_medic: list[str] | None = None
) -> SkirmishEvent:
    """The actor finishes his part of the current phase. At the end of the turn he names his
    downed soldiers within 20 cm of the medic; the others are removed. After both players,
    the next phase (after the end of turn 5: the battle is over)."""
    with turn_flow(battle, actor) as t:
        state = t.play.state
        if state.phase == pbt.Phase.TACTICAL:
            raise ValidationError(
                {"__all__": [_("Record the tactical phase of this turn first [4.1].")]}
            )
        ledger = t.ledger
        if ledger.active is not None:
            raise ValidationError({"__all__": [_("End the activation in progress first.")]})
        if ledger.pending_orders or ledger.anticipations:
            raise ValidationError(
                {
                    "__all__": [
                        _("Ordered or anticipating soldiers must activate first [4.3.3, 7.4].")
                    ]
                }
            )
        removed: list[str] = []
        if state.phase == pbt.Phase.END:
            removed = _end_of_turn(t, near_medic or [])
        elif near_medic:
            raise ValidationError({"near_medic": [_("Only at the end of the turn.")]})
        phase, turn = state.phase, state.turn
        with engine_errors():
            t.play.state = pbt.finish(state, t.me.index)
        if t.play.state.turn != turn:
            next_turn(t.battle, t.sides, t.play)
        summary = msg(
            "Turn %(t)s, %(phase)s: %(p)s has finished",
            t=turn,
            phase=PHASE_WORDS[phase],
            p=str(actor),
        )
        if removed:
            summary = msg(
                "%(s)s; removed (more than 20 cm from the medic): %(r)s",
                s=summary,
                r=pbl.joined([pbl.soldier_name(r) for r in removed]),
            )
        return log_event(
            t.battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=summary,
            actor=actor,
            rule=pbt.PHASE_RULES[phase],
            data={"removed": removed},
        )

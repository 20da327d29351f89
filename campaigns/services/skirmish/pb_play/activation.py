"""Activations on the site (§4.3, §5, §6.2, §7.4): start one (blue token, order received or
anticipation), each action through the rules' `act` (PA, order of actions, movement and shot
limits), end it (ordered soldiers must follow; who may react, in words), and the
anticipation reinforcement (1 PO per soldier, one reinforcement or anticipation a turn).
Attacks are rolled by the shot, assault, grenade and projector actions, which spend the
activation's PA themselves (`hooks`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.services.skirmish.common import engine_errors, log_event
from campaigns.services.skirmish.pb_play.state import (
    Turn,
    options_of,
    soldier_key,
    turn_flow,
)
from rules.i18n import Msg, msg
from rules.parabellum import labels as pbl
from rules.parabellum import supports as pbsup
from rules.parabellum import turn as pbt
from rules.parabellum.activation import (
    VIAS,
    Activation,
    act,
    anticipate,
    end_activation,
    may_react,
    reaction_restricted,
    start_activation,
)
from rules.parabellum.ledger import ATTACKS

VIA_WORDS = {
    "blue": msg("a blue token"),
    "order": msg("the order received"),
    "anticipation": msg("an anticipation"),
}
# Attacks are rolled by their own actions; the medic's tending by "tend".
ROLLED = {*ATTACKS, "tend"}
TEAM_ACTIONS = ("return_to_action", "inspire")


def reaction_words(a: Activation) -> Msg:
    """Who may react to this activation, in words (§5, §6.2.8)."""
    if not may_react(a):
        return msg("no reaction fire: the soldier neither moved nor attacked [6.2.8 A]")
    if reaction_restricted(a):
        return msg(
            "restricted reaction fire: enemies within 20 cm, or farther with the soldier out "
            "of cover [5]"
        )
    return msg("enemies not suppressed, or marked by covering fire, may react [6.2.8]")


def _log(t: Turn, actor, summary, rule: str, step=None) -> SkirmishEvent:
    return log_event(
        t.battle,
        kind=SkirmishEvent.Kind.RULE,
        summary=summary,
        actor=actor,
        rule=rule,
        data={"explanation": step.explanation.as_list()} if step is not None else {},
    )


def pb_activate(*, battle: SkirmishBattle, actor, soldier: str, via: str) -> SkirmishEvent:
    """Activate one of your soldiers (§4.3.2): with a blue token or an order received in the
    activations phase; with an announced anticipation in the reinforcements phase (§7.4)."""
    if via not in VIAS:
        raise ValidationError({"via": [_("Choose how the soldier activates.")]})
    with turn_flow(battle, actor) as t:
        t.check_acting(pbt.Phase.REINFORCEMENTS if via == "anticipation" else pbt.Phase.ACTIVATIONS)
        sid = soldier_key(soldier, t.me.index, "soldier")
        with engine_errors("soldier"):
            step = start_activation(t.ledger, t.roster, sid, via=via)
        t.ledger = step.side
        rec = t.ledger.record(sid)
        return _log(
            t,
            actor,
            msg(
                "Turn %(t)s: %(p)s activates %(s)s with %(via)s (activation %(n)s of 2, 3 PA)",
                t=t.play.state.turn,
                p=str(actor),
                s=pbl.soldier_name(sid),
                via=VIA_WORDS[via],
                n=rec.activations,
            ),
            "4.3.2",
            step,
        )


def pb_act(
    *,
    battle: SkirmishBattle,
    actor,
    action: str,
    distance_cm: float | None = None,
    terrain: str = "open",
    started_in_rough: bool = False,
    started_touching_obstacle: bool = False,
    crosses_obstacle: bool = False,
    target: str = "",
    target_distance_cm: float | None = None,
    target_in_los: bool = True,
    team_with: str = "",
) -> SkirmishEvent:
    """One action of the soldier being activated, checked by the rules (§4.3.2): return to
    action, covering fire, a move (with its distance and terrain), aim, inspire courage, an
    order. `target`: the friend ordered or inspired; `team_with`: the MG teammate."""
    if action in ROLLED:
        raise ValidationError(
            {"action": [_("Attacks and the medic's tending have their own actions.")]}
        )
    with turn_flow(battle, actor) as t:
        t.check_acting(pbt.Phase.REINFORCEMENTS, pbt.Phase.ACTIVATIONS)
        a = t.ledger.active
        if a is None:
            raise ValidationError({"action": [_("Activate a soldier first [4.3.2].")]})
        friend = soldier_key(target, t.me.index, "target") if target else None
        mate = soldier_key(team_with, t.me.index, "team_with") if team_with else None
        if action not in TEAM_ACTIONS and mate:
            raise ValidationError({"team_with": [_("Only to return to action or inspire.")]})
        field = "distance_cm" if action in ("cautious", "double_time", "crawl") else "action"
        if action in ("order", "inspire"):
            field = "target"
        with engine_errors(field):
            step = act(
                t.ledger,
                t.roster,
                action,
                distance_cm=distance_cm,
                target=friend,
                terrain=terrain,
                started_in_rough=started_in_rough,
                started_touching_obstacle=started_touching_obstacle,
                crosses_obstacle=crosses_obstacle,
                target_distance_cm=target_distance_cm,
                target_in_los=target_in_los,
                team_with=mate,
                options=options_of(t.battle),
            )
        t.ledger = step.side
        left = t.ledger.active.pa_left
        what = pbl.label(pbl.ACTIONS, action)
        if distance_cm is not None and action in ("cautious", "double_time", "crawl"):
            what = msg("%(a)s %(cm)s cm", a=what, cm=distance_cm)
        if friend:
            what = msg("%(a)s: %(s)s", a=what, s=pbl.soldier_name(friend))
        return _log(
            t,
            actor,
            msg(
                "Turn %(t)s: %(s)s — %(a)s (%(pa)s PA left)",
                t=t.play.state.turn,
                s=pbl.soldier_name(a.soldier_id),
                a=what,
                pa=left,
            ),
            "4.3.2",
            step,
        )


def pb_end_activation(*, battle: SkirmishBattle, actor) -> SkirmishEvent:
    """End the activation: unused PA are lost; soldiers ordered in it activate next; the
    enemy may react as the rules allow (§4.3.2, §4.3.3 F, §6.2.8)."""
    with turn_flow(battle, actor) as t:
        a = t.ledger.active
        if a is None:
            raise ValidationError({"__all__": [_("No activation in progress.")]})
        with engine_errors():
            step = end_activation(t.ledger)
        t.ledger = step.side
        summary = msg(
            "Turn %(t)s: %(s)s ends the activation — %(r)s",
            t=t.play.state.turn,
            s=pbl.soldier_name(a.soldier_id),
            r=reaction_words(a),
        )
        if a.orders_given:
            summary = msg(
                "%(s)s; ordered soldiers activate next: %(o)s",
                s=summary,
                o=pbl.joined([pbl.soldier_name(o) for o in a.orders_given]),
            )
        return _log(t, actor, summary, "4.3.2", step)


def pb_anticipate(*, battle: SkirmishBattle, actor, soldiers: list[str]) -> SkirmishEvent:
    """The anticipation reinforcement (§7.4) in the reinforcements phase: 1 PO per soldier
    (an MG gunner and his assistant: 1), recorded with the side's calls so that one
    reinforcement or anticipation a turn holds (§4.2.2 B); each then crawls once."""
    with turn_flow(battle, actor) as t:
        t.check_acting(pbt.Phase.REINFORCEMENTS)
        ids = [soldier_key(s, t.me.index, "soldiers") for s in soldiers]
        turn = t.play.state.turn
        with engine_errors("soldiers"):
            ledger, cost, ex = anticipate(t.ledger, t.roster, ids, t.me.po)
            previous = [pbsup.Call(**c) for c in t.me.calls]
            check = pbsup.check_call(
                t.roster.squad_type, previous, pbsup.Call(turn, "anticipation", cost), t.me.po
            )
        ex.extend(check.explanation)
        t.ledger = ledger
        t.me.po = check.po_left
        t.me.calls = [*t.me.calls, {"turn": turn, "kind": "anticipation", "po": cost}]
        t.me.save(update_fields=["po", "calls"])
        return log_event(
            t.battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "Turn %(t)s: %(p)s anticipates with %(s)s for %(po)s PO (%(left)s left)",
                t=turn,
                p=str(actor),
                s=pbl.joined([pbl.soldier_name(i) for i in ids]),
                po=cost,
                left=check.po_left,
            ),
            actor=actor,
            rule="7.4",
            data={"explanation": ex.as_list()},
        )

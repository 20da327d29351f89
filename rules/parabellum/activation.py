"""The activations phase (§4.3, §5, §6.2.7-6.2.10) and anticipations (§7.4) as a ledger.

A `SideTurn` is one player's turn record: per soldier, its activations, blue tokens, order
received, moves and distance; the activation in progress; the orders waiting to be carried
out. `start_activation`, `act` and `end_activation` check each step against the seed and
return the new record; dice, positions, LoS and cover stay with the caller (their results are
inputs), and the attacks themselves are resolved by `shooting`, `assault` and `explosives`.
The records live in `ledger`, the actions in `actions`; both are re-exported here.
"""

from __future__ import annotations

import dataclasses

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum.actions import act
from rules.parabellum.ledger import (
    ACTION_COSTS,
    MAX_ACTIVATIONS,
    PA,
    VIAS,
    Activation,
    ActivationOptions,
    SideTurn,
    SoldierTurn,
    Step,
    Via,
    blue_limit,
    legal_problems,
    may_react,
    name_of,
    new_side_turn,
    reaction_restricted,
    set_state,
    stand_up,
)
from rules.parabellum.squad import Roster

__all__ = [
    "ACTION_COSTS",
    "Activation",
    "ActivationOptions",
    "SideTurn",
    "SoldierTurn",
    "Step",
    "act",
    "anticipate",
    "end_activation",
    "legal_problems",
    "may_react",
    "new_side_turn",
    "reaction_restricted",
    "set_state",
    "stand_up",
    "start_activation",
]


def start_activation(side: SideTurn, roster: Roster, soldier_id: str, *, via: Via) -> Step:
    """Activate a soldier with a blue token, an order received or an announced anticipation."""
    if side.active is not None:
        raise RuleError(
            msg("finish the activation of %(name)s first", name=name_of(side.active.soldier_id)),
            rule="4.3.2",
        )
    if via not in VIAS:
        raise RuleError(
            msg("activate with a blue token, an order or an anticipation"), rule="4.3.2"
        )
    rec = side.record(soldier_id)
    soldier = roster.soldier(soldier_id)
    name = name_of(soldier_id)
    ex = Explanation()
    if rec.out:
        raise RuleError(msg("%(name)s is out of the battle", name=name), rule="8.3.2")
    if rec.rests:
        raise RuleError(
            msg("%(name)s was stood up by the medic and rests until next turn", name=name),
            rule="8.3.2",
        )
    if rec.activations >= MAX_ACTIVATIONS:
        raise RuleError(
            msg("%(name)s has already been activated twice this turn", name=name), rule="4.3.2 A"
        )
    pending, anticipations = side.pending_orders, side.anticipations
    if via == "order":
        if soldier_id not in pending:
            raise RuleError(msg("%(name)s has no order to carry out", name=name), rule="4.3.3")
        if rec.suppressed:
            raise RuleError(
                msg("%(name)s is suppressed and cannot take orders", name=name), rule="4.3.3 A"
            )
        pending = tuple(p for p in pending if p != soldier_id)
        ex.add("4.3.3", msg("activated by the order received"))
    elif pending:
        raise RuleError(
            msg("ordered soldiers activate first: %(names)s", names=[name_of(p) for p in pending]),
            rule="4.3.3 F",
        )
    elif via == "anticipation":
        if soldier_id not in anticipations:
            raise RuleError(msg("announce the anticipation first"), rule="7.4")
        if rec.suppressed:
            raise RuleError(msg("a suppressed soldier cannot anticipate"), rule="7.4")
        anticipations = tuple(p for p in anticipations if p != soldier_id)
        ex.add("7.4", msg("anticipation: one crawl, counts as an activation"))
    else:
        if anticipations:
            raise RuleError(msg("finish the announced anticipations first"), rule="7.4")
        if rec.blue_tokens >= blue_limit(roster, soldier, ex):
            raise RuleError(
                msg("%(name)s cannot take another blue token this turn", name=name),
                rule="8.2.2",
            )
        used = sum(r.blue_tokens for r in side.soldiers.values())
        if side.blue_tokens is not None and used >= side.blue_tokens:
            raise RuleError(msg("no blue tokens left this turn"), rule="4.3.2")
        ex.add("4.3.2", msg("a blue token placed next to the soldier"))
    n = ex.add(
        "4.3.2 A",
        msg("activation %(n)s of 2 this turn", n=rec.activations + 1),
        rec.activations + 1,
    )
    rec = dataclasses.replace(
        rec,
        activations=n,
        blue_tokens=rec.blue_tokens + (via == "blue"),
        anticipated=rec.anticipated or via == "anticipation",
    )
    ex.add("4.3.2", msg("PA available"), PA)
    side = dataclasses.replace(
        side.with_record(rec),
        active=Activation(soldier_id, via),
        pending_orders=pending,
        anticipations=anticipations,
    )
    return Step(side, 0, ex)


def end_activation(side: SideTurn) -> Step:
    """End the activation: unused PA are lost; soldiers ordered in it must activate next."""
    a = side.active
    if a is None:
        raise RuleError(msg("no activation in progress"), rule="4.3.2")
    ex = Explanation()
    ex.add("4.3.2", msg("unused PA are lost"), a.pa_left)
    if a.orders_given:
        ex.add(
            "4.3.3 F",
            msg(
                "ordered soldiers activate next: %(names)s",
                names=[name_of(o) for o in a.orders_given],
            ),
        )
    if may_react(a):
        ex.add(
            "5" if reaction_restricted(a) else "6.2.8",
            msg(
                "restricted reaction fire: enemies within 20 cm, or farther with the soldier out "
                "of cover"
            )
            if reaction_restricted(a)
            else msg("enemies not suppressed or marked react"),
        )
    else:
        ex.add("6.2.8 A", msg("no move and no attack: no reaction fire"))
    side = dataclasses.replace(
        side, active=None, pending_orders=(*side.pending_orders, *a.orders_given)
    )
    return Step(side, 0, ex)


def anticipate(
    side: SideTurn, roster: Roster, soldier_ids: list[str], po: int
) -> tuple[SideTurn, int, Explanation]:
    """Announce an anticipation (§7.4): 1 PO per soldier (an MG gunner with an assistant: 1),
    none suppressed; each then activates with `via="anticipation"` for one crawl."""
    if side.active is not None or side.anticipations:
        raise RuleError(msg("finish the current activation first"), rule="7.4")
    if not soldier_ids or len(set(soldier_ids)) != len(soldier_ids):
        raise RuleError(msg("name each soldier that anticipates once"), rule="7.4")
    ex = Explanation()
    for sid in soldier_ids:
        rec = side.record(sid)
        if rec.out or rec.rests or rec.suppressed:
            raise RuleError(
                msg("%(name)s cannot anticipate (suppressed or out)", name=name_of(sid)), rule="7.4"
            )
        if rec.anticipated:
            raise RuleError(msg("%(name)s already anticipated", name=name_of(sid)), rule="7.4")
        if rec.activations >= MAX_ACTIVATIONS:
            raise RuleError(
                msg("%(name)s has already been activated twice this turn", name=name_of(sid)),
                rule="4.3.2 A",
            )
    roles = [roster.soldier(s).role for s in soldier_ids]
    cost = ex.add("7.4", msg("1 PO per soldier"), len(soldier_ids))
    if "mg_gunner" in roles and "mg_assistant" in roles:
        cost = ex.add("8.1.3", msg("the MG gunner and his assistant anticipate for 1 PO"), cost - 1)
    if cost > po:
        raise RuleError(msg("%(cost)s PO needed, %(po)s available", cost=cost, po=po), rule="7.4")
    side = dataclasses.replace(side, anticipations=tuple(soldier_ids))
    return side, cost, ex

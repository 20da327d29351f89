"""The turn ledger of the activations phase (§4.3): soldiers' records, the activation in
progress, and the invariants a legal ledger keeps. `activation` changes it; see there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Literal

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.movement import CAUTIOUS_OR_CRAWL_PER_TURN, TURN_CAP_CM
from rules.parabellum.orders import INSPIRES_PER_ACTIVATION, ORDERS_PER_ACTIVATION, ORDERS_PER_TURN
from rules.parabellum.squad import Roster, Soldier
from rules.serial import Serializable

Via = Literal["blue", "order", "anticipation"]
VIAS: tuple[str, ...] = ("blue", "order", "anticipation")
ACTION_COSTS = {
    "return_to_action": 2,
    "covering_fire": 1,
    "no_move": 0,
    "cautious": 1,
    "double_time": 2,
    "crawl": 3,
    "aim": 2,
    "shoot": 1,
    "grenade": 2,
    "assault": 0,
    "inspire": 1,
    "order": 1,
    "tend": 0,
    "projector": 2,
    "launcher": 3,
}
ACTION_RULES = {"tend": "8.3.2", "projector": "6.6", "launcher": "10 ESTADOS UNIDOS"}
ATTACKS = ("shoot", "grenade", "assault", "projector", "launcher")
PA = 3
MAX_ACTIVATIONS = 2
GRENADE_RANGE_CM = 20
ASSAULT_CM = 3
QUICK_RETURN_RULES = frozenset({"tenacious", "sissu"})


@dataclass(frozen=True)
class ActivationOptions(Serializable):
    """Readings the seed leaves open (see the decisions file)."""

    any_double_time_distance: bool = False  # the 16 cm minimum of §5 is descriptive
    motti_in_anticipation: bool = False  # a MOTTI shot after an anticipation crawl


@dataclass(frozen=True)
class SoldierTurn(Serializable):
    """One soldier's record this turn; `out`: eliminated or downed; `rests`: stood up by the
    medic, not activated again until next turn (§8.3.2)."""

    soldier_id: str
    suppressed: bool = False
    activations: int = 0
    blue_tokens: int = 0
    order_received: bool = False
    anticipated: bool = False
    cautious_or_crawl_moves: int = 0
    double_time: bool = False
    distance_cm: float = 0
    out: bool = False
    rests: bool = False


@dataclass(frozen=True)
class Activation(Serializable):
    """The activation in progress: how it began, PA left and what it has done so far."""

    soldier_id: str
    via: str
    pa_left: int = PA
    returned: bool = False
    covering_called: bool = False
    movement: str | None = None
    distance_cm: float = 0
    attack: str | None = None
    shots: int = 0
    aimed: bool = False
    orders_given: tuple[str, ...] = ()
    inspires: int = 0
    tended: bool = False


@dataclass(frozen=True)
class SideTurn(Serializable):
    """A player's turn: soldiers, orders given (≤3), Independence and political-officer orders
    used, ordered soldiers still to activate, announced anticipations, the medic's one tending
    and the blue tokens chosen in the tactical phase (None: not tracked)."""

    soldiers: dict[str, SoldierTurn]
    orders_given: int = 0
    independence_used: bool = False
    political_used: bool = False
    pending_orders: tuple[str, ...] = ()
    active: Activation | None = None
    anticipations: tuple[str, ...] = ()
    tended: bool = False
    blue_tokens: int | None = None

    def record(self, soldier_id: str) -> SoldierTurn:
        try:
            return self.soldiers[soldier_id]
        except KeyError:
            raise RuleError(
                msg("no soldier %(name)s on this side", name=soldier_id), rule="4.3.2"
            ) from None

    def with_record(self, rec: SoldierTurn) -> SideTurn:
        return dataclasses.replace(self, soldiers={**self.soldiers, rec.soldier_id: rec})


@dataclass(frozen=True)
class Step(Serializable):
    side: SideTurn
    pa_cost: int
    explanation: Explanation = field(default_factory=Explanation)


def new_side_turn(
    roster: Roster,
    out: set[str] | frozenset[str] = frozenset(),
    suppressed: set[str] | frozenset[str] = frozenset(),
    *,
    rests: set[str] | frozenset[str] = frozenset(),
    blue_tokens: int | None = None,
) -> SideTurn:
    """A fresh turn record. Suppression carries over between turns (§4.3.4 NOTE)."""
    return SideTurn(
        soldiers={
            s.id: SoldierTurn(
                s.id, suppressed=s.id in suppressed, out=s.id in out, rests=s.id in rests
            )
            for s in roster.active
        },
        blue_tokens=blue_tokens,
    )


def name_of(soldier_id: str):
    return pbl.soldier_name(soldier_id)


def blue_limit(roster: Roster, soldier: Soldier, ex: Explanation) -> int:
    if soldier.experience != "recruit":
        return MAX_ACTIVATIONS
    if "quality_of_quantity" in roster.type.special_rules:
        return ex.add(
            "10 UNIÓN SOVIÉTICA", msg("Quality of quantity: recruits take 2 blue tokens"), 2
        )
    return ex.add("8.2.2", msg("recruits take one blue token per turn"), 1)


def reaction_restricted(activation: Activation) -> bool:
    """After a crawl (MOTTI included), aim + shot or the M7 launcher (§5, §6.2.6, 10 EE.UU.)."""
    return (
        activation.movement == "crawl"
        or (activation.aimed and activation.shots > 0)
        or activation.attack == "launcher"
    )


def may_react(activation: Activation) -> bool:
    """Enemies react only to a soldier that moved or attacked (§6.2.8 A)."""
    return activation.movement not in (None, "no_move") or activation.attack is not None


def set_state(
    side: SideTurn, soldier_id: str, *, suppressed: bool | None = None, out: bool | None = None
) -> SideTurn:
    """Record a result from outside the ledger (a shot, an assault, the medic's roll)."""
    rec = side.record(soldier_id)
    rec = dataclasses.replace(
        rec,
        suppressed=rec.suppressed if suppressed is None else suppressed,
        out=rec.out if out is None else out,
    )
    side = side.with_record(rec)
    if rec.out:
        side = dataclasses.replace(
            side,
            pending_orders=tuple(p for p in side.pending_orders if p != soldier_id),
            anticipations=tuple(p for p in side.anticipations if p != soldier_id),
        )
    return side


def stand_up(side: SideTurn, soldier_id: str) -> SideTurn:
    """A downed soldier the medic saved: back, suppressed, not activated until next turn."""
    if not side.record(soldier_id).out:
        raise RuleError(msg("%(name)s is not downed", name=name_of(soldier_id)), rule="8.3.2")
    side = set_state(side, soldier_id, suppressed=True, out=False)
    return side.with_record(dataclasses.replace(side.record(soldier_id), rests=True))


def legal_problems(side: SideTurn, roster: Roster | None = None) -> list[str]:
    """Invariants a legal ledger keeps (for property tests and stored-state checks)."""
    problems = []
    for sid, r in side.soldiers.items():
        if r.soldier_id != sid:
            problems.append(f"{sid}: record keyed wrongly")
        if not 0 <= r.activations <= MAX_ACTIVATIONS:
            problems.append(f"{sid}: {r.activations} activations")
        if r.blue_tokens + r.anticipated > r.activations:
            problems.append(f"{sid}: more tokens than activations")
        if r.cautious_or_crawl_moves > CAUTIOUS_OR_CRAWL_PER_TURN:
            problems.append(f"{sid}: {r.cautious_or_crawl_moves} cautious/crawl moves")
        if r.double_time and r.cautious_or_crawl_moves:
            problems.append(f"{sid}: double time plus other moves")
        if not 0 <= r.distance_cm <= TURN_CAP_CM:
            problems.append(f"{sid}: moved {r.distance_cm} cm")
        if roster is not None and r.blue_tokens > blue_limit(
            roster, roster.soldier(sid), Explanation()
        ):
            problems.append(f"{sid}: too many blue tokens")
    received = sum(r.order_received for r in side.soldiers.values())
    if side.orders_given > ORDERS_PER_TURN or received != side.orders_given:
        problems.append(f"{side.orders_given} orders given, {received} received")
    for p in side.pending_orders:
        if not side.soldiers[p].order_received:
            problems.append(f"{p}: pending without an order")
    a = side.active
    if a is not None:
        if not 0 <= a.pa_left <= PA:
            problems.append(f"{a.pa_left} PA left")
        if len(a.orders_given) > ORDERS_PER_ACTIVATION or a.inspires > INSPIRES_PER_ACTIVATION:
            problems.append("too many orders or inspires in one activation")
    return problems

"""Overruns [23.0]: the declaration check and what the movers may do afterwards; the combat
itself is an assault of one round (`rules.tcs.assault` with `overrun=True`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs.assault import AssaultUnit, refuse, stack_problems
from rules.tcs.assault_steps import Assault
from rules.tcs.fire import FirerKind

MAX_HEX_COST = 3  # 23.0.b
OVERRUNNERS = {FirerKind.VEHICLE, FirerKind.TRANSPORT}


def check_overrun(
    units: Sequence[AssaultUnit],
    *,
    enter_cost: int,
    leave_cost: int,
    adjacent: bool = True,
    integrated_transport: Sequence[str] = (),
) -> Explanation:
    """An overrun may be declared [23.0.a–b, 23.0.l, 20.0.h]: one stack that existed at the
    start of the phase, adjacent, in Move mode, of vehicles and transports (their riders go
    along; units with integrated wheeled or tracked transport count), each with the MP to
    enter and leave the hex, which costs the stack at most 3 MP (road allowed); none
    unassigned (the second 23.0.i of the seed, read as 23.0.l). A RuleError lists all."""
    problems = stack_problems(units, ("23.0.a", "23.0.l"), adjacent=adjacent)
    if enter_cost > MAX_HEX_COST:
        problems.append(
            ("-", "23.0.b", msg("the hex costs %(cost)s MP, more than 3", cost=enter_cost))
        )
    for u in units:
        if u.kind not in OVERRUNNERS and not u.mounted and u.id not in integrated_transport:
            problems.append((u.id, "23.0.a", msg("only vehicles and transports (with riders)")))
        need = enter_cost + leave_cost
        if u.mp is not None and not u.mounted and u.mp < need:
            problems.append(
                (
                    u.id,
                    "23.0.a",
                    msg("%(mp)s MP left, %(need)s to enter and leave", mp=u.mp, need=need),
                )
            )
    refuse(problems, msg("overrun"))
    exp = Explanation()
    exp.add("23.0", msg("overrun declared: one round, an overwatch event of type Final"))
    return exp


@dataclass(frozen=True)
class Aftermath:
    """What the attacking units may still do once the assault or overrun is resolved."""

    may_sfa: bool
    may_pfa: bool
    may_move: bool
    may_spot_and_overwatch: bool
    leaving_is_movement_event: bool
    notes: list[tuple[str, Msg]] = field(default_factory=list)


def aftermath(state: Assault, *, next_overrun_adjacent: bool = False) -> Aftermath:
    """After an assault the attackers may not SFA, PFA or move, only spot for mortars and
    overwatch [22.0.i]; after an overrun the movers go on with their remaining MP [23.0.h]
    and leaving the hex is a movement overwatch event [23.0.i] unless they at once overrun the
    adjacent hex [23.0.k]."""
    if state.overrun:
        event = not next_overrun_adjacent
        notes = [("23.0.h", msg("the movers may go on with their remaining MP"))]
        notes.append(
            ("23.0.i", msg("leaving the hex is a movement overwatch event"))
            if event
            else ("23.0.k", msg("a second overrun at once: no movement overwatch event"))
        )
        return Aftermath(False, False, True, True, event, notes)
    notes = [
        (
            "22.0.i",
            msg("the attackers may not SFA, PFA or move; they may spot for mortars and overwatch"),
        )
    ]
    return Aftermath(False, False, False, True, False, notes)

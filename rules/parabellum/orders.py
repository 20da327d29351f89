"""Give an order and Inspire courage (§4.3.3), with the political officer (§8.3.3) and German
Independence (10 ALEMANIA). Plain checks on soldiers and counts; `activation.act` applies them.
"""

from __future__ import annotations

from typing import Literal

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.squad import Soldier

OrderKind = Literal["leader", "political", "independence"]
LEADERS = ("officer", "nco")
VOICE_CM = 20
ORDERS_PER_ACTIVATION = 3
ORDERS_PER_TURN = 3
INSPIRES_PER_ACTIVATION = 3
GER = "10 ALEMANIA"


def is_political(s: Soldier) -> bool:
    return s.specialist == "political_officer"


def may_inspire(s: Soldier) -> bool:
    """Officer, NCO (§4.3.3) and political officer (§8.3.3)."""
    return s.role in LEADERS or is_political(s)


def order_kind(
    giver: Soldier,
    *,
    independence: bool,
    independence_used: bool,
    political_used: bool,
    ex: Explanation,
) -> OrderKind:
    """Which right lets `giver` order now: officer/NCO, the political officer's one order a turn,
    or the German Independence order (once a turn, any soldier but the officer and NCO)."""
    if giver.role in LEADERS:
        ex.add("4.3.3", msg("officer and NCO give orders"))
        return "leader"
    if is_political(giver):
        if political_used:
            raise RuleError(msg("the political officer gives one order per turn"), rule="8.3.3")
        ex.add("8.3.3", msg("the political officer's order this turn"))
        return "political"
    if independence:
        if independence_used:
            raise RuleError(
                msg("Independence: one order per turn by a soldier other than officer or NCO"),
                rule=GER,
            )
        ex.add(GER, msg("Independence: this turn's order by a soldier"))
        return "independence"
    raise RuleError(
        msg("%(name)s cannot give orders", name=pbl.soldier_name(giver.id)), rule="4.3.3"
    )


def check_order_target(
    giver: Soldier,
    target: Soldier,
    kind: OrderKind,
    *,
    suppressed: bool,
    order_received: bool,
    activations: int,
    distance_cm: float | None,
    in_los: bool,
    ex: Explanation,
) -> None:
    """§4.3.3: a friend ≤20 cm in LoS, not suppressed, not the officer (the NCO never orders him;
    only the political officer may), one order a turn, and an activation left (§4.3.2 A)."""
    name = pbl.soldier_name(target.id)
    if target.id == giver.id:
        raise RuleError(msg("a soldier cannot order himself"), rule="4.3.3")
    if kind == "independence" and target.role in LEADERS:
        raise RuleError(
            msg("the Independence order may not go to the officer or the NCO"), rule=GER
        )
    if target.role == "officer" and kind != "political":
        raise RuleError(
            msg("only the political officer may order the officer"),
            rule="8.1.2" if giver.role == "nco" else "4.3.3 A",
        )
    if suppressed:
        raise RuleError(
            msg("%(name)s is suppressed and cannot take orders", name=name), rule="4.3.3 A"
        )
    if order_received:
        raise RuleError(
            msg("%(name)s already received an order this turn", name=name), rule="4.3.3 E"
        )
    if activations >= 2:
        raise RuleError(
            msg("%(name)s has already been activated twice this turn", name=name), rule="4.3.2 A"
        )
    _in_voice(distance_cm, in_los, ex)


def check_inspire_target(
    giver: Soldier,
    target: Soldier,
    *,
    suppressed: bool,
    distance_cm: float | None,
    in_los: bool,
    ex: Explanation,
) -> None:
    if not may_inspire(giver):
        raise RuleError(
            msg("only the officer, the NCO and the political officer inspire courage"),
            rule="4.3.3",
        )
    if not suppressed:
        raise RuleError(
            msg("%(name)s is not suppressed", name=pbl.soldier_name(target.id)), rule="4.3.3"
        )
    _in_voice(distance_cm, in_los, ex)


def _in_voice(distance_cm: float | None, in_los: bool, ex: Explanation) -> None:
    if distance_cm is None:
        raise RuleError(msg("give the distance to the soldier"), rule="4.3.3")
    if distance_cm > VOICE_CM or not in_los:
        raise RuleError(msg("the soldier must be within 20 cm and in line of sight"), rule="4.3.3")
    ex.add("4.3.3", msg("within 20 cm and in line of sight"), distance_cm)

"""End of phase and end of turn for units: prolonged actions finishing (V.5), suppression
given back (XI.1), Líder and Fanático recovery, regrouping (XI.4, III) and the acted /
reacted / prone markers cleared (V.4, V.6). The order of the steps is in the decisions file.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936.morale import PINNED_AT_MOST
from rules.m1936.units import (
    DEFAULT_OPTIONS,
    MORALE_RULE,
    NORMAL,
    PANICKED,
    PINNED,
    PROLONGED_RULE,
    RECOVERY_RULE,
    Hit,
    MoraleOptions,
    UnitStatus,
    derived_state,
)

REORGANISE_MORALE = 2


def end_of_phase(units: list[UnitStatus]) -> list[UnitStatus]:
    """Cuerpo a tierra lasts until the end of the phase in progress (V.4)."""
    return [replace(u, prone=False) for u in units]


def _gain(u: UnitStatus, points: int) -> tuple[UnitStatus, int]:
    """Give back lost morale that is not temporary (suppression / Terror stay tracked)."""
    room = u.max_morale - u.morale - u.suppression - u.terror_loss
    gained = max(0, min(points, room))
    return replace(u, morale=u.morale + gained), gained


def _prolonged(u: UnitStatus, exp: Explanation) -> UnitStatus:
    left = u.prolonged_turns_left - 1
    if left:
        exp.add(PROLONGED_RULE, msg("%(action)s continues", action=u.prolonged), left)
        return replace(u, prolonged_turns_left=left)
    kind = u.prolonged
    exp.add(PROLONGED_RULE, msg("%(action)s completed", action=kind), True)
    u = replace(u, prolonged=None, prolonged_turns_left=0)
    if kind == "Observación":
        exp.add(PROLONGED_RULE, msg("next shot: +1 advantage, ignores concealment"), True)
        return replace(u, observation_bonus=True)
    if kind == "Reorganización":
        exp.add(PROLONGED_RULE, msg("Reorganización: suppression removed"), u.suppression)
        u = replace(u, morale=u.morale + u.suppression, suppression=0)
        u, gained = _gain(u, REORGANISE_MORALE)
        exp.add(PROLONGED_RULE, msg("Reorganización: lost morale recovered"), gained)
        if u.state != PANICKED:
            u = replace(u, state=NORMAL if u.morale > PINNED_AT_MOST else PINNED)
        return u
    return u


def _recover(
    u: UnitStatus,
    *,
    leader: bool,
    regroup: bool,
    fanatic: bool,
    options: MoraleOptions,
) -> Hit:
    exp = Explanation()
    if u.out_of_play:
        exp.add(RECOVERY_RULE, msg("out of play: no recovery"), u.state)
        return Hit(
            replace(u, acted=False, reacted=False, prone=False, fired_upon=False), False, False, exp
        )
    if u.prolonged:
        u = _prolonged(u, exp)
    if u.suppression and (not u.fired_upon or options.suppression_back_every_turn):
        exp.add(MORALE_RULE, msg("suppression recovered at the end of the turn"), u.suppression)
        u = replace(u, morale=u.morale + u.suppression, suppression=0)
    elif u.suppression:
        exp.add(MORALE_RULE, msg("fired upon this turn: suppression stays"), u.suppression)
    if u.terror_loss:
        exp.add("M36-III Terror", msg("Terror ends with the turn"), u.terror_loss)
        u = replace(u, morale=u.morale + u.terror_loss, terror_loss=0)
    recovers = u.kind != "vehicle" or options.vehicle_recovery
    if leader and recovers:
        u, gained = _gain(u, 1)
        exp.add(RECOVERY_RULE, msg("in a Líder officer's area: +1 morale (once a turn)"), gained)
    if (fanatic or u.has_rule("Fanático")) and recovers:
        u, gained = _gain(u, 1)
        exp.add("M36-III Fanático", msg("Fanático: +1 morale"), gained)
    if u.state == PANICKED and u.morale > 0 and (regroup or options.panic_ends_with_morale):
        rule = RECOVERY_RULE if regroup else MORALE_RULE
        exp.add(rule, msg("Panicked removed"), True)
        u = replace(u, state=NORMAL if u.morale > PINNED_AT_MOST else PINNED)
    elif regroup:
        exp.add(RECOVERY_RULE, msg("regroup has no effect: not Panicked, or morale still 0"), False)
    u = replace(
        u,
        state=derived_state(u),
        acted=u.prolonged is not None,
        reacted=False,
        prone=False,
        fired_upon=False,
        terrorised=False,
    )
    return Hit(u, False, False, exp)


def end_of_turn(
    units: list[UnitStatus],
    *,
    leader_in_range: Collection[str] = (),
    regrouped: Collection[str] = (),
    granted_fanatico: Collection[str] = (),
    options: MoraleOptions = DEFAULT_OPTIONS,
) -> list[Hit]:
    """Each unit's end-of-turn maintenance, in order: a prolonged action ticks (Reorganización,
    Observación take effect when done), suppression comes back if not fired upon, Terror
    ends, Líder +1 (keys in `leader_in_range`), Fanático +1 (own rule or keys granted it by
    Disciplina / Disciplina Férrea), regrouped keys leave Panicked, markers cleared.

    A unit still in a prolonged action keeps its acted marker for the next turn."""
    return [
        _recover(
            u,
            leader=u.key in leader_in_range,
            regroup=u.key in regrouped,
            fanatic=u.key in granted_fanatico,
            options=options,
        )
        for u in units
    ]

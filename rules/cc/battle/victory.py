"""Victory points in a Combat Commander battle [7, 4.1, 4.2, A36]: elimination, exit, Objectives.

Every VP value of a unit is an input (the player aid's Unit VP values table, or the battle's
counter table): the seed gives none. Objective chits score as the seed says (7.3): open chits
at once, moving with control (a 4-VP Objective that changes hands swings 8); secret chits
when revealed (E67) or at game end. The three special chits double exit or elimination VP
for both players, or give the win to whoever holds all five Objectives before a Sudden Death
roll (read by `clock`); `objective_chits` draws, reveals and counts them. End conditions found here (Surrender, last unit) are recorded in the
state's `pending_end`; `clock.check_game_end` decides the battle once the action is over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.cc.battle.state import (
    OBJECTIVES,
    VP_SOURCE_LABELS,
    BattleMode,
    BattleState,
    Change,
    ChitKind,
    EndCause,
    ObjectiveChit,
    Place,
    RegisteredUnit,
    UnitStatus,
    VPEntry,
    VPSource,
    add_end,
    get_unit,
    put_on_time_track,
    require_open,
    units_on_map,
    vp_words,
    with_units,
)
from rules.cc.battle.units import SOLDIERS, UnitKind
from rules.cc.common import Faction, Posture
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg

HERO_TEXT = msg("a Hero gives no VP and returns to the counter mix")

# ---------------------------------------------------------------------------------------------
# The VP marker


def record_vp(
    state: BattleState,
    why: Explanation,
    side: Faction,
    vp: int,
    source: VPSource,
    rule: str,
    reason: Msg | None = None,
) -> BattleState:
    """`side` gains `vp` (loses, when negative): the marker moves toward it [4.1.1]."""
    require_open(state)
    delta = vp if side is Faction.AXIS else -vp
    reason = reason or VP_SOURCE_LABELS[source]
    new = replace(
        state,
        vp_axis=state.vp_axis + delta,
        ledger=(*state.ledger, VPEntry(delta, source, rule, reason)),
    )
    why.add(
        rule,
        msg(
            "%(side)s %(verb)s %(n)s VP (%(reason)s): %(marker)s",
            side=state.sides[side],
            verb=msg("gain") if vp >= 0 else msg("lose"),
            n=abs(vp),
            reason=reason,
            marker=vp_words(new),
        ),
        new.vp_axis,
    )
    return new


def move_vp(
    state: BattleState,
    *,
    side: Faction,
    vp: int,
    source: VPSource = VPSource.OTHER,
    rule: str,
    reason: Msg | None = None,
) -> Change:
    """A VP award the seed states elsewhere (A38 No Quarter +2, E45, E49 …): a plain move."""
    why = Explanation()
    return Change(record_vp(state, why, Faction(side), vp, source, rule, reason), why)


def light_wounds(state: BattleState, *, side: Faction) -> Change:
    """Playing Light Wounds costs its player 1 VP [A36]; the Squad→Team swap is the caller's."""
    return move_vp(state, side=side, vp=-1, source=VPSource.LIGHT_WOUNDS, rule="A36")


# ---------------------------------------------------------------------------------------------
# Reading the chits


def scoring_chits(state: BattleState) -> list[ObjectiveChit]:
    """Chits whose face is public: open from the start or revealed [7.3.3]."""
    return [c for c in state.chits if not c.secret and c.kind is not None]


def objective_value(state: BattleState, objective: int) -> int:
    """What an Objective is worth now: every public chit naming it, plus every "all five"
    chit; values add up [7.3.2] (chits C, G and K make Objective 3 worth 1 + 2 + 3)."""
    return sum(
        c.vp
        for c in scoring_chits(state)
        if (c.kind is ChitKind.OBJECTIVE and c.objective == objective)
        or c.kind is ChitKind.ALL_OBJECTIVES
    )


def doubling(state: BattleState, kind: ChitKind) -> int:
    """2 while the exit- or elimination-doubling chit is public, else 1 [7.3.2]."""
    return 2 if any(c.kind is kind for c in scoring_chits(state)) else 1


def events_frozen(state: BattleState, *, by_event: bool, freeze: bool) -> bool:
    """Events after the Time marker reaches the Sudden Death space change no VP [E42 note]."""
    return by_event and freeze and state.time >= state.sudden_death


# ---------------------------------------------------------------------------------------------
# Units leaving the map


@dataclass(frozen=True)
class _Leaving:
    unit: RegisteredUnit | None  # mode "full"
    side: Faction
    hero: bool
    label: str  # what the counter says
    key: str  # the unit's id (full) or its name (light), as kept on the tracks


def _leaving(
    state: BattleState,
    side: Faction | None,
    unit_id: str | None,
    name: str | None,
    hero: bool,
    vp_value: int | None,
    rule: str,
) -> _Leaving:
    require_open(state)
    if state.mode is BattleMode.FULL:
        if unit_id is None:
            raise RuleError(msg("name the unit by its id in the registry"), rule="4")
        unit = get_unit(state, unit_id)
        if unit.kind not in SOLDIERS:
            raise RuleError(msg("%(name)s is not a unit", name=unit.name), rule="3")
        if unit.place is not Place.MAP:
            raise RuleError(msg("%(name)s is not on the map", name=unit.name), rule=rule)
        if side is not None and Faction(side) is not unit.side:
            raise RuleError(
                msg(
                    "%(name)s belongs to the %(side)s", name=unit.name, side=state.sides[unit.side]
                ),
                rule="4",
            )
        leaving = _Leaving(unit, unit.side, hero or unit.kind is UnitKind.HERO, unit.name, unit.id)
    elif not name or side is None:
        raise RuleError(msg("say which unit, and whose: what its counter says"), rule="4")
    else:
        leaving = _Leaving(None, Faction(side), hero, name, name)
    if not leaving.hero and (vp_value is None or vp_value < 0):
        raise RuleError(
            msg("enter the VP value of %(name)s (player aid, Unit VP values)", name=leaving.label),
            rule=rule,
        )
    return leaving


def _gone(
    state: BattleState,
    why: Explanation,
    leaving: _Leaving,
    last_unit: bool,
    cause: EndCause,
    unit: dict,
    weapons: dict,
) -> Change:
    """Update the registry (mode "full") and record the loss of the last unit [6.3]."""
    side = leaving.side
    if leaving.unit is not None:
        carried = [replace(state.units[w], **weapons) for w in leaving.unit.weapons]
        gone = replace(leaving.unit, suppressed=False, veteran=False, **unit)
        state = replace(state, units=with_units(state, gone, *carried))
        last_unit = not units_on_map(state, side)
    if last_unit:
        why.add(
            "6.3", msg("it was the last unit of the %(side)s on the map", side=state.sides[side])
        )
        state = add_end(state, cause, side)
    return Change(state, why)


def eliminate_unit(
    state: BattleState,
    *,
    side: Faction | None = None,
    vp_value: int | None,
    unit_id: str | None = None,
    name: str | None = None,
    hero: bool = False,
    off_map: bool = False,
    by_event: bool = False,
    last_unit: bool = False,
    freeze_event_vp_after_sudden_death: bool = True,
) -> Change:
    """A unit of `side` is eliminated [3.2.4, 4.2, 7.1, 7.2.2].

    The opponent gains its VP value (doubled by the chit) unless it is a Hero; a non-Hero
    goes to the next space of its side's Casualty track (a Banzai side's to the next Time
    space, PA-17.2), its Weapon to the Weapon box (unbroken), its markers are lost. Landing on
    the Surrender marker, or losing the last unit on the map, is recorded for
    `check_game_end`. Mode "light": `name` says which counter, `last_unit` if it was the last.
    """
    rule = "7.2.2" if off_map else "7.1"
    leaving = _leaving(state, side, unit_id, name, hero, vp_value, rule)
    side, label = leaving.side, leaving.label
    why = Explanation()
    why.add(
        rule,
        msg(
            "%(side)s: %(name)s retreats off its own edge and is eliminated",
            side=state.sides[side],
            name=label,
        )
        if off_map
        else msg("%(side)s: %(name)s is eliminated", side=state.sides[side], name=label),
    )
    new, place, space = state, Place.COUNTER_MIX, None
    if leaving.hero:
        why.add("E58.1", HERO_TEXT, 0)
    else:
        if events_frozen(state, by_event=by_event, freeze=freeze_event_vp_after_sudden_death):
            why.add("E42", msg("an Event after the Sudden Death space changes no VP"), 0)
        else:
            vp = vp_value * doubling(state, ChitKind.ELIMINATION_DOUBLED)
            reason = msg("elimination of %(name)s", name=label)
            new = record_vp(new, why, side.other, vp, VPSource.ELIMINATION, rule, reason)
        if state.postures[side] is Posture.BANZAI:
            place, space = Place.TIME_TRACK, state.time + 1
            why.add("PA-17.2", msg("Banzai: it goes to the next Time-track space"), space)
            new = put_on_time_track(new, side, space, leaving.key)
        else:
            place = Place.CASUALTY_TRACK
            new = _to_casualty_track(new, side, leaving.key, why)
    banzai = place is Place.TIME_TRACK  # it keeps its Weapon [PA-17.2]
    weapons = {"place": Place.WEAPON_BOX} | ({"status": UnitStatus.GOOD_ORDER} if off_map else {})
    if leaving.unit is not None and leaving.unit.weapons and not banzai:
        why.add(
            rule,
            msg("its Weapon goes, unbroken, to the Weapon box")
            if off_map
            else msg("its Weapon goes to the Weapon box"),
        )
    unit = {"place": place, "time_space": space, "eliminated": True}
    return _gone(
        new,
        why,
        leaving,
        last_unit,
        EndCause.LAST_UNIT_ELIMINATED,
        unit=unit | ({"status": UnitStatus.GOOD_ORDER} if banzai else {"weapons": ()}),
        weapons={} if banzai else weapons,
    )


def _to_casualty_track(
    state: BattleState, side: Faction, key: str, why: Explanation
) -> BattleState:
    track = (*state.casualties[side], key)
    why.add(
        "4.2",
        msg(
            "placed on space %(n)s of the %(side)s Casualty track",
            n=len(track),
            side=state.sides[side],
        ),
        len(track),
    )
    new = replace(state, casualties={**state.casualties, side: track})
    marker = state.surrender[side]
    if marker is not None and len(track) >= marker:
        why.add(
            "6.3",
            msg(
                "that space holds the Surrender marker: the %(side)s surrender",
                side=state.sides[side],
            ),
        )
        new = add_end(new, EndCause.SURRENDER, side)
    return new


def exit_unit(
    state: BattleState,
    *,
    side: Faction | None = None,
    vp_value: int | None,
    time_space: int | None,
    unit_id: str | None = None,
    name: str | None = None,
    hero: bool = False,
    last_unit: bool = False,
) -> Change:
    """A unit of `side` Moves or Advances off the opponent's edge [7.2.1].

    Its owner gains its VP value (doubled by the chit; a PA Exit Point's value is entered as
    `vp_value`, PA-14.2.2); it waits on the chosen Time-track space in good order with its
    Weapon repaired, without Veteran or Suppressed markers. A Hero scores nothing and returns
    to the counter mix [E58.1].
    """
    leaving = _leaving(state, side, unit_id, name, hero, vp_value, "7.2.1")
    side, label = leaving.side, leaving.label
    why = Explanation()
    why.add(
        "7.2.1",
        msg("%(side)s: %(name)s exits off the enemy edge", side=state.sides[side], name=label),
    )
    new = replace(state, exited={**state.exited, side: (*state.exited[side], leaving.key)})
    if leaving.hero:
        why.add("E58.1", HERO_TEXT, 0)
        unit, weapons = {"place": Place.COUNTER_MIX, "weapons": ()}, {"place": Place.COUNTER_MIX}
    elif time_space is None or time_space <= state.time:
        raise RuleError(
            msg(
                "place %(name)s on a Time-track space after the Time marker (space %(time)s)",
                name=label,
                time=state.time,
            ),
            rule="7.2.1",
        )
    else:
        vp = vp_value * doubling(state, ChitKind.EXIT_DOUBLED)
        new = record_vp(
            new, why, side, vp, VPSource.EXIT, "7.2.1", msg("exit of %(name)s", name=label)
        )
        why.add(
            "7.2.1",
            msg("it waits on Time-track space %(n)s, in good order, without markers", n=time_space),
            time_space,
        )
        new = put_on_time_track(new, side, time_space, leaving.key)
        unit = {
            "place": Place.TIME_TRACK,
            "time_space": time_space,
            "status": UnitStatus.GOOD_ORDER,
        }
        weapons = {"status": UnitStatus.GOOD_ORDER}
    return _gone(
        new, why, leaving, last_unit, EndCause.LAST_UNIT_EXITED, unit | {"exited": True}, weapons
    )


# ---------------------------------------------------------------------------------------------
# Objectives


def set_objective_control(
    state: BattleState,
    *,
    objective: int,
    side: Faction,
    by_event: bool = False,
    freeze_event_vp_after_sudden_death: bool = True,
) -> Change:
    """`side` is now the last to occupy the Objective alone [7.3.1].

    Its public value leaves the old controller before it reaches the new one [7.3.3], so a
    4-VP Objective that changes hands moves the marker 8.
    """
    require_open(state)
    if objective not in OBJECTIVES:
        raise RuleError(msg("Objectives are numbered 1 to 5, not %(n)s", n=objective), rule="2.3")
    side = Faction(side)
    old = state.objectives[objective]
    if old is side:
        raise RuleError(
            msg(
                "the %(side)s already control Objective %(n)s", side=state.sides[side], n=objective
            ),
            rule="7.3.1",
        )
    why = Explanation()
    if events_frozen(state, by_event=by_event, freeze=freeze_event_vp_after_sudden_death):
        why.add("E42", msg("an Event after the Sudden Death space gives no Objective control"))
        return Change(state, why)
    why.add(
        "7.3.1",
        msg("the %(side)s take control of Objective %(n)s", side=state.sides[side], n=objective),
        objective,
    )
    new = replace(state, objectives={**state.objectives, objective: side})
    value = objective_value(state, objective)
    if value:
        reason = msg("Objective %(n)s, worth %(vp)s VP", n=objective, vp=value)
        if old is not None:
            new = record_vp(new, why, old, -value, VPSource.OBJECTIVE, "7.3.3", reason)
        new = record_vp(new, why, side, value, VPSource.OBJECTIVE, "7.3.3", reason)
    return Change(new, why)

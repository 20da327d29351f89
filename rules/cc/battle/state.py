"""The state of one Combat Commander battle [4, 6, 7, 9]: the record sheet's tracks and units.

`BattleState` holds what the players track on the record sheet: the Time and Sudden Death
markers (6), the VP marker (4.1.1, signed: positive = Axis ahead, as the campaign engine's
`vp_axis`), each side's Casualty track and Surrender marker (4.2), the Initiative card (9),
the five Objectives and the Objective chits (7.3), the Time-track reinforcements, each
side's Fate-deck counts and whose turn it is. In mode "full" it also keeps a registry of the
counters (`RegisteredUnit`); in mode "light" only the tracks are kept and a procedure names a
unit by what its counter says.

Every transition here and in `victory` and `clock` is pure: it takes a state and returns a
new one with the explanation of what changed (`Change`), or refuses impossible input with a
`RuleError` that says why. Once the battle is over (`outcome` set), nothing changes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rules.cc.battle.readings import BattleReadings
from rules.cc.battle.units import KIND_LABELS, SIDE_LABELS, SOLDIERS, UnitKind
from rules.cc.campaign_steps import POSTURE_WORDS
from rules.cc.common import Faction, Posture
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.serial import from_data, to_data

OBJECTIVES = (1, 2, 3, 4, 5)  # five Objectives on every map [2.3]
BOTH = (Faction.AXIS, Faction.ALLIES)


class BattleMode(StrEnum):
    LIGHT = "light"  # only the tracks
    FULL = "full"  # the tracks and every counter


class UnitStatus(StrEnum):
    """The side a counter shows [3.2.1, 11.4]; Suppressed is a marker kept apart (13, 3.2.2)."""

    GOOD_ORDER = "good_order"
    BROKEN = "broken"


class Place(StrEnum):
    MAP = "map"
    TIME_TRACK = "time_track"
    CASUALTY_TRACK = "casualty_track"
    WEAPON_BOX = "weapon_box"
    COUNTER_MIX = "counter_mix"
    ARTILLERY_BOX = "artillery_box"


class VPSource(StrEnum):
    ELIMINATION = "elimination"  # 7.1
    EXIT = "exit"  # 7.2.1
    OBJECTIVE = "objective"  # 7.3
    DEFENDER = "defender"  # 6.1.2 step 3
    LIGHT_WOUNDS = "light_wounds"  # A36
    NO_QUARTER = "no_quarter"  # A38
    EVENT = "event"  # E45, E49 … (their values are inputs)
    OTHER = "other"


class ChitKind(StrEnum):
    """What an Objective chit's open face says [7.3.2]."""

    OBJECTIVE = "objective"  # Objective X is worth Y VP
    ALL_OBJECTIVES = "all_objectives"  # each of the five Objectives is worth Y VP
    SUDDEN_DEATH_CONTROL = "sudden_death_control"  # all five before a Sudden Death roll win
    EXIT_DOUBLED = "exit_doubled"
    ELIMINATION_DOUBLED = "elimination_doubled"


class EndCause(StrEnum):
    SURRENDER = "surrender"  # 6.3 (1)
    LAST_UNIT_ELIMINATED = "last_unit_eliminated"  # 6.3 (2)
    LAST_UNIT_EXITED = "last_unit_exited"  # 6.3 (3)
    SUDDEN_DEATH = "sudden_death"  # 6.3 (4)
    ALL_OBJECTIVES = "all_objectives"  # 7.3.2 special chit


MODE_LABELS: dict[BattleMode, Msg] = {
    BattleMode.LIGHT: msg("tracks only"),
    BattleMode.FULL: msg("tracks and units"),
}
STATUS_LABELS: dict[UnitStatus, Msg] = {
    UnitStatus.GOOD_ORDER: msg("good order"),
    UnitStatus.BROKEN: msg("broken"),
}
PLACE_LABELS: dict[Place, Msg] = {
    Place.MAP: msg("on the map"),
    Place.TIME_TRACK: msg("on the Time track"),
    Place.CASUALTY_TRACK: msg("on the Casualty track"),
    Place.WEAPON_BOX: msg("in the Weapon box of the Casualty track"),
    Place.COUNTER_MIX: msg("back in the counter mix"),
    Place.ARTILLERY_BOX: msg("in the Artillery box"),
}
VP_SOURCE_LABELS: dict[VPSource, Msg] = {
    VPSource.ELIMINATION: msg("elimination"),
    VPSource.EXIT: msg("exit"),
    VPSource.OBJECTIVE: msg("Objectives"),
    VPSource.DEFENDER: msg("Defender on a Time advance"),
    VPSource.LIGHT_WOUNDS: msg("Light Wounds"),
    VPSource.NO_QUARTER: msg("No Quarter"),
    VPSource.EVENT: msg("an Event"),
    VPSource.OTHER: msg("other"),
}
CHIT_LABELS: dict[ChitKind, Msg] = {
    ChitKind.OBJECTIVE: msg("Objective %(objective)s is worth %(vp)s VP"),
    ChitKind.ALL_OBJECTIVES: msg("each of the five Objectives is worth %(vp)s VP"),
    ChitKind.SUDDEN_DEATH_CONTROL: msg(
        "whoever controls all five Objectives just before a Sudden Death roll wins"
    ),
    ChitKind.EXIT_DOUBLED: msg("exit VP are doubled for both players"),
    ChitKind.ELIMINATION_DOUBLED: msg("elimination VP are doubled for both players"),
}
END_LABELS: dict[EndCause, Msg] = {
    EndCause.SURRENDER: msg("Surrender"),
    EndCause.LAST_UNIT_ELIMINATED: msg("last unit on the map eliminated"),
    EndCause.LAST_UNIT_EXITED: msg("last unit on the map exited"),
    EndCause.SUDDEN_DEATH: msg("Sudden Death"),
    EndCause.ALL_OBJECTIVES: msg("control of all five Objectives"),
}
POSTURE_LABELS = POSTURE_WORDS


@dataclass(frozen=True)
class RegisteredUnit:
    """One counter on the battle's registry (mode "full")."""

    id: str
    side: Faction
    nationality: str
    kind: UnitKind
    name: str  # what the counter says ("Rifle Squad", "Sgt. Grein", "LMG")
    status: UnitStatus = UnitStatus.GOOD_ORDER
    suppressed: bool = False
    veteran: bool = False
    weapons: tuple[str, ...] = ()  # ids of carried Weapons (at most one, 8.1.1)
    place: Place = Place.MAP
    time_space: int | None = None  # its Time-track space while it waits there
    eliminated: bool = False
    exited: bool = False


@dataclass(frozen=True)
class ObjectiveChit:
    """An Objective chit [7.3.2, 7.3.3]; a secret chit's face may be unknown until revealed."""

    letter: str
    owner: Faction | None = None  # who drew it; None = the scenario's open chit
    secret: bool = False
    kind: ChitKind | None = None
    objective: int | None = None  # for ChitKind.OBJECTIVE
    vp: int = 0

    def words(self) -> Msg:
        if self.kind is None:
            return msg("chit %(letter)s (secret, face not entered)", letter=self.letter)
        return msg(
            "chit %(letter)s: %(face)s",
            letter=self.letter,
            face=Msg(CHIT_LABELS[self.kind].id, {"objective": self.objective, "vp": self.vp}),
        )


@dataclass(frozen=True)
class Cards:
    """A side's Fate deck, as far as the procedures need it [1.3, 1.4, 6.1.2]."""

    deck: int = 0
    discard: int = 0
    reshuffles: int = 0
    hand: int = 0  # cards in hand [1.1, 5.4]


@dataclass(frozen=True)
class VPEntry:
    """One move of the VP marker, toward the Axis when positive."""

    delta_axis: int
    source: VPSource
    rule: str
    text: str | Msg


@dataclass(frozen=True)
class EndEvent:
    """A condition of 6.3 met during an action; `clock.check_game_end` resolves them."""

    cause: EndCause
    side: Faction


@dataclass(frozen=True)
class Outcome:
    winner: Faction
    cause: EndCause
    rule: str
    vp_axis: int
    tie_break: bool = False  # decided by the Initiative card [9.2]


@dataclass(frozen=True)
class BattleState:
    time: int  # the space the Time marker occupies [6.1.1]
    sudden_death: int  # the space of the Sudden Death marker [6.2.1]
    initiative: Faction  # who holds the Initiative card [9]
    active: Faction  # whose turn it is [5]
    postures: dict[Faction, Posture]
    surrender: dict[Faction, int | None]  # Surrender marker space; None = no marker [PA-11.2]
    sides: dict[Faction, str | Msg] = field(default_factory=lambda: dict(SIDE_LABELS))
    vp_axis: int = 0
    casualties: dict[Faction, tuple[str, ...]] = field(
        default_factory=lambda: dict.fromkeys(BOTH, ())
    )
    objectives: dict[int, Faction | None] = field(default_factory=lambda: dict.fromkeys(OBJECTIVES))
    chits: tuple[ObjectiveChit, ...] = ()
    cards: dict[Faction, Cards] = field(default_factory=lambda: dict.fromkeys(BOTH, Cards()))
    mode: BattleMode = BattleMode.LIGHT
    units: dict[str, RegisteredUnit] = field(default_factory=dict)
    reinforcements: dict[Faction, dict[int, tuple[str, ...]]] = field(
        default_factory=lambda: {s: {} for s in BOTH}
    )  # light mode
    exited: dict[Faction, tuple[str, ...]] = field(default_factory=lambda: dict.fromkeys(BOTH, ()))
    ledger: tuple[VPEntry, ...] = ()
    pending_end: tuple[EndEvent, ...] = ()
    outcome: Outcome | None = None
    readings: BattleReadings = field(default_factory=BattleReadings)
    melee_rules: str = "core"  # melee.MeleeRules: core O16.4, stalingrad ST-7, pacific PA-19.2
    melee_hexes: tuple[str, ...] = ()  # Melee markers waiting for their turn [ST-7.2, PA-19.2]
    urban_sniper: Faction | None = None  # who holds the Urban Sniper marker [ST-3.1]
    urban_sniper_face: int = 2  # its face up: +2 or +4 [ST-3.1]

    def as_data(self) -> dict[str, Any]:
        return to_data(self)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BattleState:
        return from_data(cls, dict(data))


@dataclass(frozen=True)
class Change:
    """A new state and the explanation of how it came about; unpacks as (state, explanation)."""

    state: BattleState
    explanation: Explanation

    def __iter__(self) -> Iterator[Any]:
        return iter((self.state, self.explanation))


# ---------------------------------------------------------------------------------------------
# Setting up


def new_battle(
    *,
    time: int,
    sudden_death: int,
    initiative: Faction,
    first_player: Faction,
    postures: Mapping[Faction, Posture],
    surrender: Mapping[Faction, int | None],
    vp_axis: int = 0,
    sides: Mapping[Faction, str | Msg] | None = None,
    objectives: Mapping[int, Faction | None] | None = None,
    chits: tuple[ObjectiveChit, ...] = (),
    cards: Mapping[Faction, Cards] | None = None,
    mode: BattleMode = BattleMode.LIGHT,
    readings: BattleReadings | None = None,
    melee_rules: str = "core",
) -> BattleState:
    """A battle as its scenario sets it up [6.1.1, 6.2.1, 4.2, 7.3.1, 9]; all values are inputs."""
    problems = []
    if time < 0 or sudden_death < 0:
        problems.append(msg("the Time and Sudden Death markers stand on spaces 0 or more"))
    if set(postures) != set(BOTH) or set(surrender) != set(BOTH):
        problems.append(msg("give the posture and the Surrender space of both sides"))
    if any(s is not None and s < 1 for s in surrender.values()):
        problems.append(msg("a Surrender marker stands on a Casualty-track space of 1 or more"))
    if objectives is not None and set(objectives) - set(OBJECTIVES):
        problems.append(msg("a map has five Objectives, numbered 1 to 5"))
    letters = [c.letter for c in chits]
    if len(set(letters)) != len(letters):
        problems.append(msg("each Objective chit is drawn once"))
    for chit in chits:
        check_chit(chit)
    if problems:
        raise RuleError(
            msg("the scenario set-up is impossible: %(problems)s", problems=problems), rule="6.1.1"
        )
    return BattleState(
        time=time,
        sudden_death=sudden_death,
        initiative=Faction(initiative),
        active=Faction(first_player),
        postures=dict(postures),
        surrender=dict(surrender),
        sides=dict(sides or SIDE_LABELS),
        vp_axis=vp_axis,
        objectives={**dict.fromkeys(OBJECTIVES), **(objectives or {})},
        chits=tuple(chits),
        cards={s: Cards() for s in BOTH} | dict(cards or {}),
        mode=mode,
        readings=readings or BattleReadings(),
        melee_rules=melee_rules,
    )


def check_chit(chit: ObjectiveChit) -> None:
    if chit.kind is None and not chit.secret:
        raise RuleError(
            msg("open chit %(letter)s: enter what its face says", letter=chit.letter), rule="7.3.3"
        )
    if chit.kind is ChitKind.OBJECTIVE and chit.objective not in OBJECTIVES:
        raise RuleError(
            msg("chit %(letter)s: name its Objective, 1 to 5", letter=chit.letter), rule="7.3.2"
        )


# ---------------------------------------------------------------------------------------------
# Reading the state


def vp_words(state: BattleState, vp_axis: int | None = None) -> Msg:
    """The VP marker in words: on 0, or how far on which side [4.1.1]."""
    vp = state.vp_axis if vp_axis is None else vp_axis
    if vp == 0:
        return msg("VP marker on 0")
    side = Faction.AXIS if vp > 0 else Faction.ALLIES
    return msg("VP marker %(n)s on the side of the %(side)s", n=abs(vp), side=state.sides[side])


def require_open(state: BattleState) -> None:
    if state.outcome is not None:
        raise RuleError(
            msg("the battle is over: %(side)s won", side=state.sides[state.outcome.winner]),
            rule="6.3",
        )


def require_full(state: BattleState, what: Msg) -> None:
    if state.mode is not BattleMode.FULL:
        raise RuleError(
            msg("%(what)s needs the units registry; this battle keeps only the tracks", what=what),
            rule="4",
        )


def get_unit(state: BattleState, unit_id: str) -> RegisteredUnit:
    require_full(state, msg("naming a unit by its id"))
    if unit_id not in state.units:
        raise RuleError(msg("there is no unit %(id)s in this battle", id=unit_id), rule="3")
    return state.units[unit_id]


def units_on_map(state: BattleState, side: Faction) -> list[RegisteredUnit]:
    return [
        u
        for u in state.units.values()
        if u.side is side and u.kind in SOLDIERS and u.place is Place.MAP
    ]


def waiting_on(state: BattleState, space: int) -> dict[Faction, tuple[str, ...]]:
    """What waits on a Time-track space: unit ids (full) or counter names (light)."""
    if state.mode is BattleMode.FULL:
        return {
            s: tuple(
                u.id
                for u in state.units.values()
                if u.side is s and u.place is Place.TIME_TRACK and u.time_space == space
            )
            for s in BOTH
        }
    return {s: state.reinforcements[s].get(space, ()) for s in BOTH}


def with_units(state: BattleState, *units: RegisteredUnit) -> dict[str, RegisteredUnit]:
    return {**state.units, **{u.id: u for u in units}}


def put_on_time_track(state: BattleState, side: Faction, space: int, name: str) -> BattleState:
    """Mode "light": a counter waits on a Time-track space (full mode moves the unit itself)."""
    if state.mode is BattleMode.FULL:
        return state
    track = state.reinforcements[side]
    placed = {**track, space: (*track.get(space, ()), name)}
    return replace(state, reinforcements={**state.reinforcements, side: placed})


def add_end(state: BattleState, cause: EndCause, side: Faction) -> BattleState:
    """Record an end condition of 6.3 for `clock.check_game_end` (once)."""
    event = EndEvent(cause, side)
    if event in state.pending_end:
        return state
    return replace(state, pending_end=(*state.pending_end, event))


# ---------------------------------------------------------------------------------------------
# Transitions


def register_unit(state: BattleState, unit: RegisteredUnit) -> Change:
    """Put a counter on the registry (mode "full")."""
    require_open(state)
    require_full(state, msg("registering a unit"))
    if unit.id in state.units:
        raise RuleError(msg("unit %(id)s is already registered", id=unit.id), rule="3")
    if len(unit.weapons) > 1:
        raise RuleError(
            msg("%(name)s: a unit carries at most one Weapon", name=unit.name), rule="8.1.1"
        )
    for weapon in unit.weapons:
        if get_unit(state, weapon).kind is not UnitKind.WEAPON:
            raise RuleError(msg("%(id)s is not a Weapon", id=weapon), rule="8.1.1")
    why = Explanation()
    why.add(
        "3",
        msg(
            "%(side)s: %(kind)s %(name)s registered %(place)s",
            side=state.sides[unit.side],
            kind=KIND_LABELS[unit.kind],
            name=unit.name,
            place=PLACE_LABELS[unit.place],
        ),
        unit.id,
    )
    return Change(replace(state, units=with_units(state, unit)), why)


def set_unit_status(
    state: BattleState,
    *,
    unit_id: str,
    status: UnitStatus | None = None,
    suppressed: bool | None = None,
    veteran: bool | None = None,
) -> Change:
    """Flip a counter, or place/remove its Suppressed or Veteran marker [3.2, 13, E44].

    The markers stay when the counter flips (3.2.2). Breaking a broken unit eliminates it
    (3.2.4): that is `victory.eliminate_unit`, so it is refused here.
    """
    require_open(state)
    unit = get_unit(state, unit_id)
    if unit.place is not Place.MAP:
        raise RuleError(
            msg(
                "%(name)s is not on the map (%(place)s)",
                name=unit.name,
                place=PLACE_LABELS[unit.place],
            ),
            rule="3.2",
        )
    if status is UnitStatus.BROKEN and unit.status is UnitStatus.BROKEN:
        raise RuleError(
            msg("%(name)s is already broken: breaking it again eliminates it", name=unit.name),
            rule="3.2.4",
        )
    if unit.kind not in SOLDIERS and (suppressed or veteran):
        raise RuleError(
            msg(
                "%(name)s is not a unit: only units take Suppressed and Veteran markers",
                name=unit.name,
            ),
            rule="8.1.1",
        )
    new = replace(
        unit,
        status=unit.status if status is None else UnitStatus(status),
        suppressed=unit.suppressed if suppressed is None else suppressed,
        veteran=unit.veteran if veteran is None else veteran,
    )
    why = Explanation()
    why.add(
        "3.2",
        msg(
            "%(name)s: %(status)s%(suppressed)s%(veteran)s",
            name=unit.name,
            status=STATUS_LABELS[new.status],
            suppressed=msg(", Suppressed") if new.suppressed else "",
            veteran=msg(", Veteran") if new.veteran else "",
        ),
        new.status.value,
    )
    return Change(replace(state, units=with_units(state, new)), why)

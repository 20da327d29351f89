"""A tracked battle as its page and the API show it: the tracks in words, the procedures'
forms, the last action (for undo) and a result draft for the campaign's result form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from campaigns.cc.battle.spec import Context
from campaigns.cc.labels import option_words
from campaigns.i18n import say
from campaigns.models import Battle, BattleAction, BattleTracker, Campaign, Side
from campaigns.permissions import Viewer
from rules.cc.battle.counters import table_from_data
from rules.cc.battle.readings import BATTLE_READING_RULES, BattleReadings
from rules.cc.battle.state import (
    END_LABELS,
    PLACE_LABELS,
    STATUS_LABELS,
    BattleMode,
    BattleState,
    Place,
    RegisteredUnit,
    vp_words,
)
from rules.cc.battle.units import SOLDIERS
from rules.cc.campaign_steps import POSTURE_WORDS
from rules.cc.common import Faction
from rules.i18n import msg


@dataclass
class SideTrack:
    faction: str
    name: str
    casualties: int
    surrender: int | None
    posture: str
    exited: int
    deck: int
    discard: int


@dataclass
class ChitLine:
    """An Objective chit as this reader may see it: a secret face only for its owner."""

    owner: str  # the side that drew it, or "" for an open chit
    text: str
    secret: bool
    seen: bool  # whether this reader sees its face


@dataclass
class ReadingLine:
    """A rule reading this battle plays otherwise than the seed's default."""

    rule: str
    label: str
    played: bool


@dataclass
class UnitLine:
    """A registered counter and its state (mode "full")."""

    side: str
    text: str


@dataclass
class Tracks:
    version: int
    mode: str
    time: int
    sudden_death: int
    vp_axis: int
    vp_text: str
    initiative: str
    active: str
    sides: list[SideTrack]
    objectives: list[tuple[int, str]]
    outcome: str
    over: bool
    last: BattleAction | None
    chits: list[ChitLine]
    cards: bool  # whether any side's deck or discard is counted yet
    melee_hexes: list[str]
    urban_sniper: str  # who holds the Urban Sniper marker [ST-3.1], "" when nobody
    readings: list[ReadingLine]
    units: list[UnitLine]


def state_of(tracker: BattleTracker) -> BattleState:
    """The tracker's state, decoded once per loaded tracker: a page reads it for the tracks,
    the procedures' forms and the result draft."""
    cached = getattr(tracker, "_decoded", None)
    if cached is None or cached[0] is not tracker.state:
        cached = (tracker.state, BattleState.from_data(tracker.state))
        tracker._decoded = cached
    return cached[1]


def reader_context(campaign: Campaign, viewer: Viewer, tracker: BattleTracker) -> Context:
    """The procedures as this reader sees them: for his own side, or (a game master, an
    organiser) for the side whose turn it is."""
    state = state_of(tracker)
    own = [s for s in campaign.sides.all() if viewer.plays(s)]
    return Context(
        side=Faction(own[0].faction) if len(own) == 1 else state.active,
        state=state,
        counters=table_from_data(tracker.counters) if tracker.counters else None,
        names_side=len(own) != 1,
    )


def own_sides(campaign: Campaign | None, viewer: Viewer | None) -> frozenset[str] | None:
    """The factions whose secrets this reader may see: None for a neutral game master (all),
    none for an unknown reader."""
    if viewer is None or campaign is None:
        return frozenset()
    if viewer.is_gm:
        return None
    return frozenset(s.faction for s in campaign.sides.all() if viewer.plays(s))


def shows_face(chit: Mapping[str, Any], own: frozenset[str] | None, *, over: bool) -> bool:
    """Whether a reader sees a chit's face [7.3.3]: an open chit, a secret one to its owner
    (and a neutral game master), every chit once the battle is over."""
    return not chit.get("secret") or over or own is None or chit.get("owner") in own


def visible_state(tracker: BattleTracker, viewer: Viewer, campaign: Campaign) -> dict[str, Any]:
    """The stored state as this reader may see it: a secret Objective chit [7.3.3] shows only
    its owner and that it is secret to the other side, until revealed at the end."""
    own = own_sides(campaign, viewer)
    state = dict(tracker.state)
    over = state.get("outcome") is not None
    state["chits"] = [
        chit if shows_face(chit, own, over=over) else {"owner": chit.get("owner"), "secret": True}
        for chit in state.get("chits") or []
    ]
    return state


def tracker_of(battle: Battle) -> BattleTracker | None:
    return BattleTracker.objects.filter(battle=battle).first()


def tracks(
    tracker: BattleTracker, viewer: Viewer | None = None, campaign: Campaign | None = None
) -> Tracks:
    """The tracks in words as this reader may see them (a secret chit's face only for its
    owner; without a reader, for nobody); the tracker is given, the last action and the
    campaign's sides are read."""
    state = state_of(tracker)
    names = {f: say(state.sides[f]) for f in Faction}
    outcome = ""
    if state.outcome is not None:
        outcome = say(
            msg(
                "The %(side)s win (%(cause)s), VP marker %(vp)s.",
                side=state.sides[state.outcome.winner],
                cause=END_LABELS[state.outcome.cause],
                vp=f"{state.outcome.vp_axis:+d}",
            )
        )
    return Tracks(
        version=tracker.version,
        mode=state.mode.value,
        time=state.time,
        sudden_death=state.sudden_death,
        vp_axis=state.vp_axis,
        vp_text=say(vp_words(state)),
        initiative=names[state.initiative],
        active=names[state.active],
        sides=[
            SideTrack(
                faction=f.value,
                name=names[f],
                casualties=len(state.casualties[f]),
                surrender=state.surrender[f],
                posture=say(POSTURE_WORDS[state.postures[f]]),
                exited=len(state.exited[f]),
                deck=state.cards[f].deck,
                discard=state.cards[f].discard,
            )
            for f in Faction
        ],
        objectives=[(n, names[c] if c else "—") for n, c in sorted(state.objectives.items())],
        outcome=outcome,
        over=state.outcome is not None,
        last=tracker.actions.filter(undone_at__isnull=True).order_by("-seq").first(),
        chits=_chits(tracker, names, own_sides(campaign, viewer)),
        cards=any(c.deck or c.discard or c.reshuffles for c in state.cards.values()),
        melee_hexes=list(state.melee_hexes),
        urban_sniper=names[state.urban_sniper] if state.urban_sniper else "",
        readings=_readings(state),
        units=[_unit_line(state, u, names) for u in state.units.values()],
    )


def _chits(
    tracker: BattleTracker, names: dict[Faction, str], own: frozenset[str] | None
) -> list[ChitLine]:
    state = state_of(tracker)
    over = state.outcome is not None
    lines = []
    for data, chit in zip(tracker.state.get("chits") or [], state.chits, strict=True):
        seen = shows_face(data, own, over=over)
        lines.append(
            ChitLine(
                owner=names[chit.owner] if chit.owner else "",
                text=say(chit.words()) if seen else say(msg("secret")),
                secret=chit.secret,
                seen=seen,
            )
        )
    return lines


def _readings(state: BattleState) -> list[ReadingLine]:
    """The readings that differ from the seed's defaults, each with the rule it changes."""
    default = BattleReadings()
    return [
        ReadingLine(
            rule=BATTLE_READING_RULES.get(f.name, ""),
            label=option_words(f.name)[0],
            played=getattr(state.readings, f.name),
        )
        for f in fields(BattleReadings)
        if getattr(state.readings, f.name) != getattr(default, f.name)
    ]


def _unit_line(state: BattleState, unit: RegisteredUnit, names: dict[Faction, str]) -> UnitLine:
    """ "Rifle Squad (g1): broken, Suppressed, Veteran, LMG" — and where it is off the map."""
    marks = [STATUS_LABELS[unit.status]]
    marks += [
        m
        for flag, m in ((unit.suppressed, msg("Suppressed")), (unit.veteran, msg("Veteran")))
        if flag
    ]
    marks += [state.units[w].name for w in unit.weapons if w in state.units]
    if unit.place is not Place.MAP:
        marks.append(PLACE_LABELS[unit.place])
    words = ", ".join(say(m) for m in marks)
    return UnitLine(side=names[unit.side], text=f"{unit.name} ({unit.id}): {words}")


def result_draft(tracker: BattleTracker, sides: list[Side]) -> dict[str, Any]:
    """What the tracks say for the campaign's result form: the winner's side and the VP
    margin, once the battle is over (nothing to re-type)."""
    state = state_of(tracker)
    if state.outcome is None:
        return {}
    winner = next((s for s in sides if s.faction == state.outcome.winner.value), None)
    margin = (
        state.outcome.vp_axis if state.outcome.winner is Faction.AXIS else -state.outcome.vp_axis
    )
    draft: dict[str, Any] = {
        "winner": str(winner.pk) if winner else "",
        "vp_margin": max(margin, 0),
    }
    if state.mode is BattleMode.FULL:
        for faction in Faction:
            lines = [_survivor(state, u) for u in survivors(state, faction)]
            draft[f"survivors_{faction.value}"] = "\n".join(lines)
    return draft


def survivors(state: BattleState, faction: Faction) -> list[RegisteredUnit]:
    """A side's units still on the map at the end (tracked fully): the campaign's survivors."""
    return [
        u
        for u in state.units.values()
        if u.side is faction and u.kind in SOLDIERS and u.place is Place.MAP and not u.eliminated
    ]


def _survivor(state: BattleState, unit: RegisteredUnit) -> str:
    """One survivor as the result form takes it: id; kind; weapon; veteran."""
    weapons = ", ".join(state.units[w].name for w in unit.weapons if w in state.units)
    return "; ".join([unit.id, unit.name, weapons, "veteran" if unit.veteran else ""]).rstrip("; ")

"""The in-battle state of a Parabellum battle: the turn machine (`battle.play["state"]`) and
each side's turn ledger (`side.units`), loaded and saved together.

The turn machine follows the records the table already keeps: once the tactical phase of the
current turn is recorded (`battle.tactical`), the battle is in that turn's reinforcements
phase with its initiative holder. Each side's ledger is rebuilt at the start of a turn: its
blue tokens from the tactical phase, the soldiers down from the casualties, suppression
carried over (§4.3.4 NOTE). Soldiers the medic may still tend are listed in
`side.units["downed"]`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishSide
from campaigns.rosters.engine import PARABELLUM
from campaigns.rosters.readings import battle_readings
from campaigns.services.skirmish.common import battle_sides, playing
from rules.parabellum import turn as pbt
from rules.parabellum.activation import ActivationOptions, SideTurn, new_side_turn
from rules.parabellum.roster import Roster as PBRoster


@dataclass
class Play:
    """A battle's turn state and both sides' ledgers (index = side index)."""

    state: pbt.TurnState
    ledgers: list[SideTurn]
    downed: list[list[str]]
    rosters: list[PBRoster]


def options_of(battle: SkirmishBattle) -> ActivationOptions:
    chosen = battle_readings(PARABELLUM, battle.readings)
    return ActivationOptions(
        any_double_time_distance=bool(chosen.get("any_double_time_distance")),
        motti_in_anticipation=bool(chosen.get("motti_in_anticipation")),
    )


def engaged(battle: SkirmishBattle) -> bool:
    """The turn flow has been used in this battle (else shots logged by hand stay as they were)."""
    return bool((battle.play or {}).get("state"))


def _synced(battle: SkirmishBattle, state: pbt.TurnState) -> pbt.TurnState:
    """Move past a tactical phase the table has recorded (§4.1)."""
    if state.phase != pbt.Phase.TACTICAL:
        return state
    record = next((t for t in battle.tactical or [] if t["turn"] == state.turn), None)
    if record is None:
        return state
    state = dataclasses.replace(state, done=())
    state = pbt.finish(pbt.finish(state, 0), 1)
    return pbt.set_initiative(state, record["initiative"])


def _blue(battle: SkirmishBattle, turn: int, index: int) -> int | None:
    record = next((t for t in battle.tactical or [] if t["turn"] == turn), None)
    return record["blue"][index] if record else None


def _fresh(
    battle: SkirmishBattle,
    side: SkirmishSide,
    roster: PBRoster,
    turn: int,
    previous: SideTurn | None,
) -> SideTurn:
    suppressed = (
        {k for k, r in previous.soldiers.items() if r.suppressed and not r.out}
        if previous
        else set()
    )
    out = {c["soldier_id"] for c in side.casualties if c.get("healed_turn") is None}
    ids = {s.id for s in roster.active}
    return new_side_turn(
        roster,
        out=out & ids,
        suppressed=suppressed & ids,
        blue_tokens=_blue(battle, turn, side.index),
    )


def load(battle: SkirmishBattle, sides: list[SkirmishSide]) -> Play:
    """The current state (derived from the records where nothing is stored yet)."""
    stored = (battle.play or {}).get("state")
    state = pbt.TurnState.from_dict(stored) if stored else pbt.TurnState()
    state = _synced(battle, state)
    rosters = [PBRoster.from_dict(s.snapshot) for s in sides]
    ledgers, downed = [], []
    for s, roster in zip(sides, rosters, strict=True):
        units = s.units or {}
        stored = SideTurn.from_dict(units["ledger"]) if units.get("ledger") else None
        if stored is not None and units.get("turn") == state.turn:
            ledgers.append(stored)
        else:
            ledgers.append(_fresh(battle, s, roster, state.turn, stored))
        downed.append(list(units.get("downed") or []))
    return Play(state, ledgers, downed, rosters)


def next_turn(battle: SkirmishBattle, sides: list[SkirmishSide], play: Play) -> None:
    """After the end of a turn: the next turn's ledgers (and its tactical phase if recorded)."""
    play.state = _synced(battle, play.state)
    play.ledgers = [
        _fresh(battle, s, roster, play.state.turn, old)
        for s, roster, old in zip(sides, play.rosters, play.ledgers, strict=True)
    ]


def save(battle: SkirmishBattle, sides: list[SkirmishSide], play: Play) -> None:
    battle.play = {**(battle.play or {}), "state": play.state.to_dict()}
    battle.save(update_fields=["play"])
    for s, ledger, downed in zip(sides, play.ledgers, play.downed, strict=True):
        s.units = {"turn": play.state.turn, "ledger": ledger.to_dict(), "downed": downed}
        s.save(update_fields=["units"])


def soldier_key(value: str, index: int, field: str) -> str:
    """The soldier id of a "side:soldier" choice that must belong to side `index`."""
    side, _sep, sid = str(value or "").partition(":")
    if side != str(index) or not sid:
        raise ValidationError({field: [_("Choose one of your soldiers.")]})
    return sid


@dataclass
class Turn:
    """What a turn action works on: the locked battle, the actor's side, both sides, the play."""

    battle: SkirmishBattle
    me: SkirmishSide
    sides: list[SkirmishSide]
    play: Play

    @property
    def ledger(self) -> SideTurn:
        return self.play.ledgers[self.me.index]

    @ledger.setter
    def ledger(self, value: SideTurn) -> None:
        self.play.ledgers[self.me.index] = value

    @property
    def roster(self) -> PBRoster:
        return self.play.rosters[self.me.index]

    def check_acting(self, *phases: pbt.Phase) -> None:
        """The actor plays now, in one of `phases` (§4.2.1, §4.3.1)."""
        state = self.play.state
        if state.phase not in phases:
            raise ValidationError({"__all__": [_("Not now: the battle is in another phase.")]})
        if state.first is None:
            raise ValidationError(
                {"__all__": [_("The initiative holder chooses who plays first [4.2.1].")]}
            )
        if state.acting != self.me.index:
            raise ValidationError({"__all__": [_("It is the other player's turn to play.")]})


@contextmanager
def turn_flow(battle: SkirmishBattle, actor) -> Iterator[Turn]:
    """`playing` (locked, undoable) with the turn state loaded, saved when the action ends."""
    with playing(battle, actor, PARABELLUM) as (battle, me):
        sides = battle_sides(battle)
        me = sides[me.index]
        t = Turn(battle, me, sides, load(battle, sides))
        yield t
        save(battle, sides, t.play)

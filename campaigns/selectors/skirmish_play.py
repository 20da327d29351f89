"""What the table needs at the top of a skirmish battle, always current: turn, phase, whose
move and what may react, each side's score and points left, the units' states — as this
user may see them (each game's summary hides what the other side has not revealed)."""

from __future__ import annotations

from campaigns.models import SkirmishBattle
from campaigns.rosters.engine import M1936
from campaigns.selectors.skirmish_m36 import m36_summary
from campaigns.selectors.skirmish_pb import pb_summary


def play_summary(battle: SkirmishBattle, sides: list, me) -> dict | None:
    """The summary of a battle being played (None before both players have joined)."""
    if battle.status != SkirmishBattle.Status.PLAYING:
        return None
    if battle.system == M1936:
        return m36_summary(battle, sides, me)
    return pb_summary(battle, sides, me)

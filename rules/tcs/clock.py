"""The turn clock: 20-minute day turns, 1-hour night turns [1.3, 26.1.d], whole hours [2.0].

Dawn, dusk and twilight are neither day nor night: night rules do not apply [26.0], so their
turns last as long as day turns. A title may set other lengths (`TcsOptions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.explain import Explanation
from rules.i18n import msg
from rules.serial import Serializable
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions


class Light(StrEnum):
    DAY = "day"
    DAWN = "dawn"
    DUSK = "dusk"
    TWILIGHT = "twilight"
    NIGHT = "night"


class Phase(StrEnum):
    """Phases of a turn [2.0], from one player's point of view."""

    COMMAND = "command"
    AIR_ARTILLERY = "air_artillery"
    OWN_ACTION = "own_action"
    ENEMY_ACTION = "enemy_action"
    CLEAN_UP = "clean_up"


@dataclass(frozen=True)
class Turn(Serializable):
    """A game turn: its number, start time in minutes from 0000 of the first day, light."""

    number: int
    minutes: int
    light: Light = Light.DAY

    @property
    def hour(self) -> int:
        return self.minutes // 60 % 24

    @property
    def clock(self) -> str:
        """The turn-track label, e.g. "0820"."""
        return f"{self.hour:02d}{self.minutes % 60:02d}"

    @property
    def is_night(self) -> bool:
        return self.light is Light.NIGHT

    @property
    def is_whole_hour(self) -> bool:
        """A turn ending in -00 [2.0]."""
        return self.minutes % 60 == 0


def turn_minutes(light: Light, options: TcsOptions = DEFAULT_OPTIONS) -> int:
    """Length of a turn [1.3, 26.1.d]."""
    return options.night_turn_minutes if light is Light.NIGHT else options.day_turn_minutes


def next_turn(turn: Turn, light: Light, options: TcsOptions = DEFAULT_OPTIONS) -> Turn:
    """The following turn; `light` is its light condition from the scenario's turn track."""
    return Turn(turn.number + 1, turn.minutes + turn_minutes(turn.light, options), light)


def morale_recovery_due(
    turn: Turn, explanation: Explanation, *, even_hours_at_night: bool = True
) -> bool:
    """Whether this Command Phase has morale recovery rolls [2.0 step 7, 17.1.d, 26.1.d]."""
    if not turn.is_whole_hour:
        explanation.add(
            "2.0", msg("%(clock)s is not a whole hour: no recovery rolls", clock=turn.clock), False
        )
        return False
    if turn.is_night and even_hours_at_night and turn.hour % 2:
        explanation.add(
            "26.1.d",
            msg("night turn %(clock)s is an odd hour: no recovery", clock=turn.clock),
            False,
        )
        return False
    explanation.add("17.1.d", msg("%(clock)s is a recovery hour", clock=turn.clock), True)
    return True

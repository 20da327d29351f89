"""Combat Commander rolls [1.3, 1.9, O20.2]: two dice from a Fate card, read and triggered.

At the table every roll reveals the top card of the roller's Fate deck: a white and a
coloured die, sometimes with a trigger (Event!, Jammed!, Sniper!, Time!). The site takes the
dice as `rules.dice` rolls of kind 2d6 (white, coloured); the trigger printed on the card is
an input, since only the card knows it. When the site rolls, no card is revealed and so no
trigger occurs (DECISIONS.md, "Site dice"). A Targeting Roll multiplies the dice instead of
adding them [O20.2].
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.dice import TWO_D6, DiceSource, Distribution, RollRecord
from rules.i18n import Msg, msg


class Trigger(StrEnum):
    """The red word boxed beside a card's dice [1.9]."""

    NONE = ""
    EVENT = "event"
    JAMMED = "jammed"
    SNIPER = "sniper"
    TIME = "time"
    DISPERSE = "disperse"  # Pacific only [PA-12]


TRIGGER_LABELS: dict[Trigger, Msg] = {
    Trigger.NONE: msg("no trigger"),
    Trigger.EVENT: msg("Event!"),
    Trigger.JAMMED: msg("Jammed!"),
    Trigger.SNIPER: msg("Sniper!"),
    Trigger.TIME: msg("Time!"),
    Trigger.DISPERSE: msg("Disperse!"),
}


@dataclass(frozen=True)
class CCRoll:
    """One Fate-card roll: the dice record, the value read from them and the card's trigger."""

    record: RollRecord
    value: int
    trigger: Trigger = Trigger.NONE

    @property
    def white(self) -> int:
        return self.record.die("white")


def _product(faces: tuple[int, ...]) -> int:
    return faces[0] * faces[1]


def roll(
    dice: DiceSource,
    *,
    purpose: str | Msg,
    rule: str,
    targeting: bool = False,
    trigger: Trigger = Trigger.NONE,
) -> CCRoll:
    """Roll two dice: their sum, or their product for a Targeting Roll [O20.2].

    A product needs both faces, so an entered Targeting Roll must give the two dice.
    """
    record = dice.roll(TWO_D6, purpose=purpose, rule=rule)
    value = _product((record.die("white"), record.die("coloured"))) if targeting else record.value
    return CCRoll(record, value, Trigger(trigger))


def distribution(*, targeting: bool = False, modifier: int = 0) -> Distribution:
    """Every outcome of a roll (plus a fixed modifier), as exact fractions."""
    return Distribution.of(TWO_D6, modifier=modifier, read=_product if targeting else None)

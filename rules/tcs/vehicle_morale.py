"""Vehicle morale [17.8]: a track of square and circle boxes per vehicle formation.

Each step lost fills the next box; a square adds its printed number, doubled once the
formation has lost half its steps [17.8.a, 17.8.e]; a full track records the value and
clears [17.8.a]. One d6 per point gained, roll ≤ the value fails [17.8.b]: the formation's
units leave their implemented sheets with failure instructions [17.8.c].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.serial import Serializable
from rules.tcs.clock import Turn
from rules.tcs.morale import RecoveryResult, attacking, recovery_roll
from rules.tcs.opsheet import OpSheet, SheetResult
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions
from rules.tcs.transitions import fail_units


class BoxShape(StrEnum):
    SQUARE = "square"
    CIRCLE = "circle"


@dataclass(frozen=True)
class Box(Serializable):
    """A track box: a circle adds nothing; a square adds its number (1, or 2–3) [17.8.a]."""

    shape: BoxShape
    points: int = 0

    def __post_init__(self) -> None:
        if (self.shape is BoxShape.CIRCLE) != (self.points == 0) or self.points < 0:
            raise RuleError(
                msg("a circle has no number; a square has one of 1 or more"), rule="17.8.a"
            )


@dataclass
class VehicleMoraleTrack(Serializable):
    formation: str
    boxes: tuple[Box, ...]
    total_steps: int
    steps_lost: int = 0
    filled: int = 0
    value: int = 0
    recorded: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.boxes or self.total_steps < 1:
            raise RuleError(msg("a vehicle morale track needs boxes and steps"), rule="17.8.a")
        if not (0 <= self.steps_lost <= self.total_steps and 0 <= self.filled < len(self.boxes)):
            raise RuleError(msg("track markers out of range"), rule="17.8.a")
        if self.value < 0:
            raise RuleError(msg("vehicle morale is never below 0"), rule="17.8")


@dataclass
class VehicleLossResult:
    formation: str
    gained: int
    checks: list[RollRecord]
    failed: bool
    sheets: list[SheetResult] = field(default_factory=list)
    explanation: Explanation = field(default_factory=Explanation)


def vehicle_step_losses(
    track: VehicleMoraleTrack,
    steps: int,
    dice: DiceSource,
    *,
    formation_units: Iterable[str] = (),
    sheets: Sequence[OpSheet] = (),
    options: TcsOptions = DEFAULT_OPTIONS,
) -> VehicleLossResult:
    """Apply step losses one at a time, checking after each point gained [17.8.a–e].

    Once the formation fails, later points in the same loss add to the value without more
    rolls. On failure `formation_units` leave every implemented sheet in `sheets` [17.8.c].
    """
    exp = Explanation()
    if steps < 1 or track.steps_lost + steps > track.total_steps:
        raise RuleError(
            msg(
                "%(formation)s has %(v)s steps left",
                formation=track.formation,
                v=track.total_steps - track.steps_lost,
            ),
            rule="17.8.a",
        )
    checks: list[RollRecord] = []
    failed = False
    gained = 0
    for _ in range(steps):
        lost = track.steps_lost + options.vehicle_doubling_counts_current_loss
        box = track.boxes[track.filled]
        track.filled += 1
        track.steps_lost += 1
        points = box.points
        if points and 2 * lost >= track.total_steps:
            points *= 2
            exp.add(
                "17.8.e",
                msg(
                    "%(lost)s of %(total_steps)s steps already lost: doubled",
                    lost=lost,
                    total_steps=track.total_steps,
                ),
            )
        before = track.value
        track.value += points
        gained += points
        exp.add(
            "17.8.a",
            msg("marker in box %(filled)s (%(shape)s)", filled=track.filled, shape=box.shape.value),
            points,
        )
        if track.filled == len(track.boxes):
            track.recorded.append(track.value)
            track.filled = 0
            exp.add("17.8.a", msg("track full: value recorded, markers cleared"), track.value)
        for point in range(1, points + 1):
            if failed:
                break
            current = before + point if options.vehicle_check_after_each_point else track.value
            roll = dice.roll(
                "d6",
                purpose=msg("vehicle morale of %(formation)s", formation=track.formation),
                rule="17.8.b",
            )
            checks.append(roll)
            failed = roll.value <= current
            exp.add(
                "17.8.b",
                msg("check %(roll)s against %(current)s", roll=roll.value, current=current),
                "fail" if failed else "pass",
                roll=roll,
            )
    results = fail_units(formation_units, sheets) if failed else []
    for result in results:
        exp.extend(result.explanation)
    return VehicleLossResult(track.formation, gained, checks, failed, results, exp)


def vehicle_recovery(
    track: VehicleMoraleTrack,
    turn: Turn,
    dice: DiceSource,
    *,
    formation_units: Iterable[str],
    sheets: Sequence[OpSheet],
    options: TcsOptions = DEFAULT_OPTIONS,
) -> RecoveryResult:
    """Hourly recovery like battalions [17.8.d]; at night on even hours (ambiguity 9)."""
    result = recovery_roll(
        track.value,
        track.formation,
        turn,
        dice,
        attacking=attacking(formation_units, sheets),
        rule="17.8.d",
        even_hours_at_night=options.vehicle_recovery_even_hours_at_night,
    )
    track.value = result.after
    return result

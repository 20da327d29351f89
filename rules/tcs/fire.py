"""Direct fire: area fire [11] and point fire [12] on user-supplied charts.

Every chart value comes from `FireCharts` (validated user data) or from `entered` (the value
the player read off the printed chart now, by shift name); when neither has it the procedure
raises `DecisionRequired` before any die is rolled. With `dice=None` a procedure stops
before the roll and returns the column and its odds (result None). Exact odds over the 36 d66 readings (or
the 36 2d6 throws of an AT roll) come with every result.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules.dice import D66, DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg, nmsg
from rules.tcs.fire_tables import (
    CHART_WORDS,
    MORALE_CHECK,
    NO_EFFECT,
    POSTURE_WORDS,
    TERRAIN_WORDS,
    Band,
    FireCharts,
    FireTable,
    Posture,
    Terrain,
)
from rules.tcs.losses import AreaLossSplit, LossTarget, split_area_losses
from rules.tcs.rounding import round_std

SHIFT_RANGE = tuple(range(-20, 21))


class FirerKind(StrEnum):
    INFANTRY = "infantry"
    MG = "mg"
    MORTAR = "mortar"
    TRANSPORT = "transport"
    AT_GUN = "at_gun"
    GUN = "gun"  # infantry gun, AA gun
    ARTILLERY = "artillery"  # on-map artillery
    VEHICLE = "vehicle"


MULTI_STEP = {FirerKind.VEHICLE, FirerKind.GUN, FirerKind.AT_GUN, FirerKind.ARTILLERY}
HIGH_TRAJECTORY = {FirerKind.MORTAR, FirerKind.ARTILLERY}


@dataclass(frozen=True)
class Firer:
    """A firing unit: printed factor (an AT gun's is its point-fire factor), remaining and
    printed steps, range to the target; `high_trajectory` for IGs and such vehicles; a
    `p_firer` may area fire to twice its printed range [11.1.e]."""

    id: str
    kind: FirerKind
    af: int
    steps: int
    range: int
    max_steps: int | None = None
    high_trajectory: bool = False
    printed_range: int | None = None
    p_firer: bool = False

    @property
    def low_trajectory(self) -> bool:
        return not (self.high_trajectory or self.kind in HIGH_TRAJECTORY)


class TargetType(StrEnum):
    A = "A"
    P = "P"
    B0 = "B-0"
    B1 = "B-1"


@dataclass(frozen=True)
class TargetUnit:
    """A unit in the target hex. `carried` = riding a true transport; `on_vehicle` = riding
    a vehicle (counted normally [24.1.e]); `towed` counts too [11.3.e]."""

    id: str
    steps: int
    type: TargetType = TargetType.A
    posture: Posture = Posture.FIRE
    p_defense: int = 0
    carried: bool = False
    on_vehicle: bool = False
    towed: bool = False


@dataclass(frozen=True)
class Shift:
    rule: str
    name: str
    value: int


@dataclass
class FireResult:
    """Where the attack landed, what the dice said and the odds of each result."""

    base_column: int
    shifts: list[Shift]
    column: int | None
    roll: RollRecord | None
    result: Any
    morale_check: bool
    odds: dict[Any, Fraction]
    steps: int = 0
    split: AreaLossSplit | None = None
    explanation: Explanation = field(default_factory=Explanation)


SHIFT_NAMES: dict[str, Msg] = {
    "terrain/posture": msg("terrain/posture"),
    "range": msg("range"),
    "stacking": msg("stacking"),
    "differential": msg("differential"),
    "vehicle with P-defence 2+": msg("vehicle with P-defence 2+"),
    "road movement": msg("road movement"),
}


def result_words(cell: Any) -> Msg:
    if cell == NO_EFFECT:
        return msg("No Effect")
    if cell == MORALE_CHECK:
        return msg("Morale Check")
    return nmsg("%(n)s step loss", "%(n)s step losses", cell)


def chart_value(
    name: str, rule: str, value: int | None, entered: Mapping[str, int], prompt: Msg
) -> int:
    """A chart value: entered by the player, else the supplied chart's, else ask."""
    if name in entered:
        return entered[name]
    if value is None:
        raise DecisionRequired(Decision(f"shift:{name}", rule, prompt, SHIFT_RANGE))
    return value


def _num(value: Fraction) -> int | float:
    """An exact value for the explanation: whole, or a half such as 1.5."""
    return int(value) if value.denominator == 1 else float(value)


def find_band(bands: Sequence[Band] | None, value: int) -> Band | None:
    return next((b for b in bands or () if b.holds(value)), None)


def firing_value(firers: Sequence[Firer], exp: Explanation) -> int:
    """Sum of the area factors [11.0]: steps × printed for multi-step counters [11.1.f],
    mortars and transports halved after a step loss [10.0.b], the infantry bonus at range
    0/1 [11.3.d], AT guns at half their point factor, summed then rounded up [24.4]."""
    if not firers:
        raise RuleError(msg("name at least one firing unit"), rule="11.0")
    plain, at_guns = Fraction(0), Fraction(0)
    for f in firers:
        if f.steps < 1 or f.af < 0 or f.range < 0:
            raise RuleError(
                msg("%(unit)s: at least 1 step; factor and range not negative", unit=f.id),
                rule="11.0",
            )
        if f.printed_range is not None:
            limit = 2 * f.printed_range if f.p_firer else f.printed_range
            if f.range > limit:
                raise RuleError(
                    msg(
                        "%(unit)s: range %(d)s is beyond %(limit)s",
                        unit=f.id,
                        d=f.range,
                        limit=limit,
                    ),
                    rule="11.1.e" if f.p_firer else "11.1.a",
                )
        value = Fraction(f.af)
        if f.kind in MULTI_STEP:
            value *= f.steps
            exp.add(
                "11.1.f",
                msg("%(unit)s: %(steps)s steps × %(af)s", unit=f.id, steps=f.steps, af=f.af),
                _num(value),
            )
        if (
            f.kind in (FirerKind.MORTAR, FirerKind.TRANSPORT)
            and f.max_steps
            and f.steps < f.max_steps
        ):
            value /= 2
            exp.add(
                "10.0.b", msg("%(unit)s has lost a step: factor halved", unit=f.id), _num(value)
            )
        if f.kind is FirerKind.INFANTRY and f.range <= 1:
            bonus = f.steps if f.range == 0 else round_std(Fraction(f.steps, 2))
            value += bonus
            exp.add(
                "11.3.d",
                msg(
                    "%(unit)s at range %(range)s: + %(bonus)s for remaining steps",
                    unit=f.id,
                    range=f.range,
                    bonus=bonus,
                ),
                _num(value),
            )
        if f.kind is FirerKind.AT_GUN:
            at_guns += value
        else:
            plain += value
    total = round_std(plain)
    if at_guns:
        half = math.ceil(at_guns / 2)
        exp.add("24.4", msg("AT guns: half of %(sum)s, rounded up", sum=_num(at_guns)), half)
        total += half
    return exp.add("11.0", msg("firing value"), total)


def place_column(table: FireTable, base: int, shifts: list[Shift], exp: Explanation) -> int | None:
    net = sum(s.value for s in shifts)
    for s in shifts:
        exp.add(s.rule, msg("shift: %(name)s", name=SHIFT_NAMES.get(s.name, s.name)), s.value)
    index = base + net
    last = len(table.columns) - 1
    if index < 0:
        exp.add("11.0", msg("net shift %(net)s goes left of the first column: No Effect", net=net))
        return None
    if index > last:
        exp.add("11.0", msg("net shift %(net)s stops at the last column", net=net))
        index = last
    exp.add("11.0", msg("Fire Table column %(label)s", label=table.columns[index].label))
    return index


def odds(table: FireTable, column: int | None) -> dict[Any, Fraction]:
    """Exact chance of each result in a column over the 36 d66 readings."""
    out: dict[Any, Fraction] = {}
    for faces in D66.outcomes():
        cell = NO_EFFECT if column is None else table.cell(column, D66.value(faces))
        out[cell] = out.get(cell, Fraction(0)) + Fraction(1, 36)
    return out


def roll_cell(
    table: FireTable,
    column: int | None,
    dice: DiceSource | None,
    purpose: Msg,
    rule: str,
    exp: Explanation,
) -> tuple[RollRecord | None, Any]:
    """The d66 and its cell; (None, None) when only the odds are wanted (no dice)."""
    if column is None:
        return None, NO_EFFECT
    if dice is None:
        return None, None
    roll = dice.roll(D66, purpose=purpose, rule=rule)
    cell = table.cell(column, roll.value)
    exp.add(
        rule,
        msg("roll %(roll)s: %(result)s", roll=roll.value, result=result_words(cell)),
        cell,
        roll=roll,
    )
    return roll, cell


def area_fire(
    firers: Sequence[Firer],
    targets: Sequence[TargetUnit],
    terrain: Terrain,
    charts: FireCharts,
    dice: DiceSource | None,
    *,
    spotted: bool = True,
    road_movement: bool = False,
    other: Sequence[tuple[str, int]] = (),
    entered: Mapping[str, int] | None = None,
    first_step_choice: str | None = None,
) -> FireResult:
    """One area attack on a hex [11.0]: column from the firing value, shifts for terrain and
    posture [11.3.a–b], the worst range for the firer [11.3.c], stacking [11.3.e] and other
    modifiers [11.3.f] (`other`: name → shift read off the Other Modifiers chart), the d66,
    then step losses split by 10.0.f; any result but No Effect forces a morale check."""
    exp, entered = Explanation(), entered or {}
    table = charts.fire
    infantry_fired = any(f.kind is FirerKind.INFANTRY for f in firers)
    low = any(f.low_trajectory for f in firers)
    hit = [
        t
        for t in targets
        if t.type is not TargetType.P
        and not (t.type is TargetType.B1 and infantry_fired)
        and not t.carried
    ]
    if infantry_fired and any(t.type is TargetType.B1 for t in targets):
        exp.add("11.1.b", msg("infantry fired: B-1 targets and their riders are immune"))
    value = firing_value(firers, exp)
    base = exp.add("11.0", msg("column for firing value %(v)s", v=value), table.column_for(value))
    unspotted = not spotted and low
    shifts = []
    posed = [t for t in hit if not t.on_vehicle]  # mounted units are ignored [11.3.b]
    if posed:
        column = "area_unspotted" if unspotted else "area"
        shifts.append(posture_shift(posed, terrain, charts, entered, column))
    shifts.append(_range_shift(firers, charts, entered))
    steps = sum(t.steps for t in hit)
    exp.add("11.3.e", msg("steps counted for stacking"), steps)
    band = find_band(charts.stacking, steps)
    key = "unspotted_shift" if unspotted else "shift"
    shifts.append(
        Shift(
            "11.3.e",
            "stacking",
            chart_value(
                "stacking",
                "11.3.e",
                (band.extra.get(key) if unspotted else band.shift) if band else None,
                entered,
                msg("Read the stacking modifier for %(steps)s steps", steps=steps),
            ),
        )
    )
    if low and any(
        t.type is not TargetType.A and t.p_defense >= 2 and not t.carried for t in targets
    ):
        shifts.append(Shift("11.3.f", "vehicle with P-defence 2+", -2))
    if road_movement:
        shifts.append(Shift("11.3.f", "road movement", 2))
    shifts.extend(Shift("11.3.f", name, v) for name, v in other)
    column = place_column(table, base, shifts, exp)
    chances = odds(table, column)
    roll, cell = roll_cell(table, column, dice, msg("Fire Table (area fire)"), "11.0", exp)
    check = cell not in (NO_EFFECT, None)
    if check:
        exp.add("17.0.b", msg("the hex checks morale"))
    result = FireResult(base, shifts, column, roll, cell, check, chances, explanation=exp)
    if isinstance(cell, int):
        result.split = split_area_losses(
            cell, [LossTarget(t.id, t.steps) for t in hit], first_step_choice=first_step_choice
        )
        result.steps = result.split.total
        exp.extend(result.split.explanation)
    return result


def posture_shift(
    targets: Sequence[TargetUnit], terrain: Terrain, charts: FireCharts, entered, column: str
) -> Shift:
    """The posture least favourable to the defender (the highest shift) [11.3.b, 12.1.a]."""
    best = None
    for posture in sorted({t.posture for t in targets}):
        name = f"terrain_posture:{posture}"
        row = (charts.terrain_posture or {}).get((terrain, posture), {})
        v = chart_value(
            name,
            "11.3.a" if column != "point" else "12.1.a",
            row.get(column),
            entered,
            msg(
                "Read the Target Terrain/Posture Table (%(column)s): %(terrain)s, %(posture)s",
                column=CHART_WORDS[column],
                terrain=TERRAIN_WORDS[terrain],
                posture=POSTURE_WORDS[posture],
            ),
        )
        best = v if best is None else max(best, v)
    return Shift("11.3.a" if column != "point" else "12.1.a", "terrain/posture", best)


def _range_shift(firers: Sequence[Firer], charts: FireCharts, entered) -> Shift:
    """Each firer's range modifier; the one most favourable to the defender [11.3.c]."""
    values = []
    for f in firers:
        row = (
            "infantry"
            if f.kind is FirerKind.INFANTRY
            else ("low_trajectory" if f.low_trajectory else "high_trajectory")
        )
        band = find_band((charts.area_range or {}).get(row), f.range)
        values.append(
            chart_value(
                f"range:{row}:{f.range}",
                "11.3.c",
                band.shift if band else None,
                entered,
                msg(
                    "Read the Area Fire Range Modifier Table: %(row)s, range %(range)s",
                    row=CHART_WORDS[row],
                    range=f.range,
                ),
            )
        )
    return Shift("11.3.c", "range", min(values))


def range_band(printed: int, distance: int) -> str:
    """Close ≤ half the printed range rounded up, nominal ≤ printed, long ≤ twice [12.1.b]."""
    if distance <= math.ceil(Fraction(printed, 2)):
        return "close"
    if distance <= printed:
        return "nominal"
    if distance <= 2 * printed:
        return "long"
    raise RuleError(msg("range %(d)s is beyond twice the printed range", d=distance), rule="12.1.b")


def point_fire(
    firers: Sequence[Firer],
    targets: Sequence[TargetUnit],
    terrain: Terrain,
    charts: FireCharts,
    dice: DiceSource | None,
    *,
    other: Sequence[tuple[str, int]] = (),
    entered: Mapping[str, int] | None = None,
) -> FireResult:
    """Point fire [12.0] at the selected targets: start in the column for the number of
    firing steps, shift for terrain/posture of the selected targets, the defender's best
    range band, the differential (lowest P-factor − highest P-defence [12.1.c]; a B-target
    with a printed morale defends at 0 [12.2.d]); the number read = targets destroyed
    [12.2.e]; never a morale check [12.2.f]. Allocate with `losses.allocate_point_fire`."""
    exp, entered = Explanation(), entered or {}
    table = charts.fire
    if not firers or not targets:
        raise RuleError(msg("point fire needs firers and selected targets"), rule="12.0")
    steps = exp.add("12.0", msg("firing steps"), sum(f.steps for f in firers))
    labelled = [
        i for i, c in enumerate(table.columns) if c.p_firers is not None and c.p_firers <= steps
    ]
    if "column" in entered:
        base = entered["column"]
    elif labelled:
        base = max(labelled, key=lambda i: table.columns[i].p_firers)
    else:
        raise DecisionRequired(
            Decision(
                "point_column",
                "12.0",
                msg("Which Fire Table column do %(steps)s firing steps start on?", steps=steps),
                tuple(range(len(table.columns))),
            )
        )
    exp.add("12.0", msg("start on column %(label)s", label=table.columns[base].label), base)
    shifts = [posture_shift(targets, terrain, charts, entered, "point")]
    values = []
    for f in firers:
        if f.printed_range is None:
            raise RuleError(msg("%(unit)s: give its printed range", unit=f.id), rule="12.1.b")
        band = range_band(f.printed_range, f.range)
        exp.add(
            "12.1.b",
            msg("%(unit)s at %(d)s: %(band)s range", unit=f.id, d=f.range, band=CHART_WORDS[band]),
        )
        values.append(
            chart_value(
                f"range:{band}",
                "12.1.b",
                (charts.point_range or {}).get(band),
                entered,
                msg(
                    "Read the Point Fire Range Modifier Table: %(band)s range",
                    band=CHART_WORDS[band],
                ),
            )
        )
    shifts.append(Shift("12.1.b", "range", min(values)))
    diff = min(f.af for f in firers) - max(t.p_defense for t in targets)
    exp.add("12.1.c", msg("differential"), diff)
    band = find_band(charts.differential, diff)
    shifts.append(
        Shift(
            "12.1.c",
            "differential",
            chart_value(
                "differential",
                "12.1.c",
                band.shift if band else None,
                entered,
                msg("Read the differential shift for %(d)s", d=diff),
            ),
        )
    )
    shifts.extend(Shift("12.1.d", name, v) for name, v in other)
    column = place_column(table, base, shifts, exp)
    chances = odds(table, column)
    roll, cell = roll_cell(table, column, dice, msg("Fire Table (point fire)"), "12.0", exp)
    kills = min(cell if isinstance(cell, int) else 0, sum(t.steps for t in targets))
    exp.add("12.2.e", msg("targets destroyed"), kills)
    exp.add("12.2.f", msg("point fire causes no morale check"))
    return FireResult(base, shifts, column, roll, cell, False, chances, kills, explanation=exp)

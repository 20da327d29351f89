"""Minefields [21]: the marker, placement [21.1], the attack on entering [21.0, 21.2, 9.3.b]
and breaching [21.3].

Units entering on foot take an area attack of AF 18 shifted only by stacking; each step
entering with vehicle movement rolls two dice (summed, A26) and dies on 8+ [21.0.b]. A
breach attempt is attacked on the Fire Table column holding 9 (A25) with only the stacking
shift [21.3.c]. The Fire Table is the operation's (`FireCharts`) or, without one, the
result the player read off the printed chart. Results are returned for the caller to
apply (losses, then the morale check any area result but No Effect forces).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from math import comb
from typing import Any

from rules.dice import TWO_D6, DiceSource
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg
from rules.tcs.fire import (
    FireResult,
    Shift,
    chart_value,
    find_band,
    odds,
    place_column,
    result_words,
    roll_cell,
)
from rules.tcs.fire_tables import MORALE_CHECK, NO_EFFECT, FireCharts
from rules.tcs.losses import LossTarget, split_area_losses
from rules.tcs.prepared_defense import PreparedDefenseResult
from rules.tcs.units import UnitCategory

FOOT_AF = 18  # 21.0.b: area attack of factor 18 on units moving on foot
VEHICLE_KILL = 8  # 21.0.b: two dice (summed, A26) per vehicle-moving step, 8+ destroys it
BREACH_AF = 9  # 21.3.c: the Fire Table "9" column (A25: the column whose range holds 9)
ENTRY_MP = 2  # 21.2, 21.3.d: extra MP to enter a minefield hex, breached or not
PLACE_NEAR = 4  # 21.1: within 4 hexes of the two platoons that generated it
PLACE_FAR = 5  # 21.1: at least 5 hexes from the nearest enemy unit
PREGAME = "pregame"
STEP_KILL_P = Fraction(sum(1 for f in TWO_D6.outcomes() if sum(f) >= VEHICLE_KILL), 36)


class Movement(StrEnum):
    FOOT = "foot"
    VEHICLE = "vehicle"


class Contact(StrEnum):
    ENTER = "enter"
    LEAVE = "leave"
    STAY = "stay"


@dataclass(frozen=True)
class MinefieldMarker:
    """A *Minefield* marker: its hex, whether flipped to *Breach*, and where it came from
    (`PREGAME` or the code of the Prepared Defense sheet that laid it [21.1])."""

    hex: str
    breached: bool = False
    source: str = PREGAME

    def to_dict(self) -> dict[str, Any]:
        return {"hex": self.hex, "breached": self.breached, "source": self.source}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MinefieldMarker:
        hex_, breached, source = data.get("hex"), data.get("breached", False), data.get("source")
        if not isinstance(hex_, str) or not hex_.strip():
            raise RuleError(msg("a minefield marker names its hex"), rule="21.0")
        if not isinstance(breached, bool):
            raise RuleError(msg("a minefield is breached or not (true/false)"), rule="21.3")
        if not isinstance(source, str) or not source.strip():
            raise RuleError(
                msg("a minefield comes from the set-up (pregame) or an op sheet code"), rule="21.1"
            )
        return cls(hex_, breached, source)


@dataclass(frozen=True)
class MineTarget:
    """A unit entering the minefield hex and how it moves. Carried and towed units do not
    roll: their carrier's losses reach them [24.1.d, 10.0.g]."""

    id: str
    steps: int
    movement: Movement = Movement.FOOT


@dataclass(frozen=True)
class MinefieldAttack:
    """What a minefield did: the area result on foot units (`foot`, None if none entered on
    foot or the hex did not attack), the steps each vehicle-moving unit lost, the odds."""

    attacked: bool
    foot: FireResult | None = None
    vehicle_rolls: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    vehicle_losses: Mapping[str, int] = field(default_factory=dict)
    vehicle_odds: Mapping[str, Mapping[int, Fraction]] = field(default_factory=dict)
    explanation: Explanation = field(default_factory=Explanation)

    @property
    def morale_check(self) -> bool:
        return bool(self.foot and self.foot.morale_check)


def vehicle_loss_odds(steps: int) -> dict[int, Fraction]:
    """Exact chance of losing k of `steps` vehicle steps, each dying with P(2d6 ≥ 8)."""
    return {
        k: comb(steps, k) * STEP_KILL_P**k * (1 - STEP_KILL_P) ** (steps - k)
        for k in range(steps + 1)
    }


def attack_due(
    marker: MinefieldMarker,
    exp: Explanation,
    *,
    contact: Contact = Contact.ENTER,
    retreat: bool = False,
    assault: bool = False,
) -> bool:
    """Whether the minefield attacks: only units entering [21.0.c]; a breach lets them in
    unattacked [21.3.d] except in a retreat [17.4.h, 21.3.d] or an assault [22.0 step 5]."""
    if contact is not Contact.ENTER:
        exp.add("21.0.c", msg("a minefield attacks only units entering it"), False)
        return False
    if not marker.breached:
        return exp.add("21.0.b", msg("units entering the minefield are attacked"), True)
    if retreat:
        return exp.add("17.4.h", msg("a retreat through a breach is attacked normally"), True)
    if assault:
        return exp.add("22.0", msg("assaulters cannot use the breach: attacked"), True)
    return exp.add("21.3.d", msg("entering through the breach: no attack"), False)


@dataclass(frozen=True)
class Crossing:
    """Entering a minefield hex: the extra MP (breached or not) [21.2, 21.3.d] and whether
    the minefield attacks, after the movement's overwatch [21.2]."""

    extra_mp: int
    attacked: bool
    explanation: Explanation = field(default_factory=Explanation)


def crossing(marker: MinefieldMarker, *, retreat: bool = False, assault: bool = False) -> Crossing:
    exp = Explanation()
    mp = exp.add("21.2", msg("extra MP to enter the minefield hex"), ENTRY_MP)
    return Crossing(mp, attack_due(marker, exp, retreat=retreat, assault=assault), exp)


def minefield_attack(
    marker: MinefieldMarker,
    targets: Sequence[MineTarget],
    charts: FireCharts | None,
    dice: DiceSource | None,
    *,
    contact: Contact = Contact.ENTER,
    retreat: bool = False,
    assault: bool = False,
    entered: Mapping[str, int] | None = None,
    result: Any = None,
    stacking_steps: int | None = None,
    first_step_choice: str | None = None,
) -> MinefieldAttack:
    """The attack on units entering [21.0.b], after their movement overwatch [21.2]: one
    area attack (AF 18, stacking only, no terrain [9.3.b]) on the foot units, then two dice
    per vehicle-moving step. `stacking_steps` overrides the steps counted for stacking
    (default: the foot units attacked). With `dice=None` only the odds are returned."""
    exp = Explanation()
    if any(t.steps < 1 for t in targets):
        raise RuleError(msg("every unit entering has at least 1 step"), rule="21.0.b")
    if not attack_due(marker, exp, contact=contact, retreat=retreat, assault=assault):
        return MinefieldAttack(False, explanation=exp)
    if not targets:
        raise RuleError(msg("name the units entering the minefield"), rule="21.0.b")
    foot = [t for t in targets if t.movement is Movement.FOOT]
    riders = [t for t in targets if t.movement is Movement.VEHICLE]
    foot_result = None
    if foot:
        foot_result = _mine_area_attack(
            FOOT_AF,
            "21.0.b",
            [LossTarget(t.id, t.steps) for t in foot],
            charts,
            dice,
            exp,
            entered=entered or {},
            result=result,
            stacking_steps=stacking_steps,
            first_step_choice=first_step_choice,
        )
    rolls: dict[str, tuple[int, ...]] = {}
    losses: dict[str, int] = {}
    chances = {t.id: vehicle_loss_odds(t.steps) for t in riders}
    if riders:
        exp.add(
            "21.0.b",
            msg("each vehicle step rolls two dice: 8+ destroys it"),
            float(STEP_KILL_P),
        )
    for t in riders if dice is not None else ():
        values = []
        for i in range(t.steps):
            roll = dice.roll(
                TWO_D6,
                purpose=msg("minefield: %(unit)s step %(i)s", unit=t.id, i=i + 1),
                rule="21.0.b",
            )
            values.append(roll.value)
            killed = roll.value >= VEHICLE_KILL
            exp.add(
                "21.0.b",
                msg("%(unit)s: roll %(roll)s", unit=t.id, roll=roll.value)
                if not killed
                else msg("%(unit)s: roll %(roll)s destroys a step", unit=t.id, roll=roll.value),
                killed,
                roll=roll,
            )
        rolls[t.id] = tuple(values)
        losses[t.id] = exp.add(
            "21.0.b",
            msg("%(unit)s: vehicle steps destroyed", unit=t.id),
            sum(v >= VEHICLE_KILL for v in values),
        )
    if assault and foot_result is not None:
        exp.add("22.0", msg("morale: use the target hex's terrain modifiers"))
    return MinefieldAttack(True, foot_result, rolls, losses, chances, exp)


def _mine_area_attack(
    factor: int,
    rule: str,
    targets: Sequence[LossTarget],
    charts: FireCharts | None,
    dice: DiceSource | None,
    exp: Explanation,
    *,
    entered: Mapping[str, int],
    result: Any,
    stacking_steps: int | None,
    first_step_choice: str | None,
) -> FireResult:
    """An area attack at a fixed factor shifted only by stacking [21.0.b, 21.3.c, 9.3.b]."""
    exp.add("9.3.b", msg("terrain has no effect on minefield attacks"))
    steps = exp.add(
        "11.3.e",
        msg("steps counted for stacking"),
        sum(t.steps for t in targets) if stacking_steps is None else stacking_steps,
    )
    if charts is None:
        shifts = [Shift("11.3.e", "stacking", entered["stacking"])] if "stacking" in entered else []
        cell = _read_result(result, rule, factor, targets)
        exp.add(
            rule,
            msg("result read off the printed Fire Table: %(result)s", result=result_words(cell)),
            cell,
        )
        fire = FireResult(-1, shifts, None, None, cell, False, {}, explanation=exp)
    else:
        band = find_band(charts.stacking, steps)
        shift = Shift(
            "11.3.e",
            "stacking",
            chart_value(
                "stacking",
                "11.3.e",
                band.shift if band else None,
                entered,
                msg("Read the stacking modifier for %(steps)s steps", steps=steps),
            ),
        )
        table = charts.fire
        base = exp.add(
            rule, msg("column for attack factor %(v)s", v=factor), table.column_for(factor)
        )
        column = place_column(table, base, [shift], exp)
        roll, cell = roll_cell(table, column, dice, msg("Fire Table (minefield)"), rule, exp)
        fire = FireResult(
            base, [shift], column, roll, cell, False, odds(table, column), explanation=exp
        )
    fire.morale_check = fire.result not in (NO_EFFECT, None)
    if fire.morale_check:
        exp.add("17.0.b", msg("the attacked units check morale"))
    if isinstance(fire.result, int):
        fire.split = split_area_losses(fire.result, targets, first_step_choice=first_step_choice)
        fire.steps = fire.split.total
        exp.extend(fire.split.explanation)
    return fire


def _read_result(result: Any, rule: str, factor: int, targets: Sequence[LossTarget]) -> Any:
    """Without a Fire Table the player enters the cell read off the printed chart."""
    ok = result in (NO_EFFECT, MORALE_CHECK) or (
        isinstance(result, int) and not isinstance(result, bool) and result >= 1
    )
    if ok:
        return result
    most = sum(t.steps for t in targets)
    raise DecisionRequired(
        Decision(
            "minefield_result",
            rule,
            msg("Read the Fire Table result (column for %(v)s, stacking shift only)", v=factor),
            (NO_EFFECT, MORALE_CHECK, *range(1, most + 1)),
        )
    )


# ---------------------------------------------------------------------------------------------
# Breaching [21.3]


@dataclass(frozen=True)
class BreachCandidate:
    """A unit declared to breach: what it is and what it has done this Action Phase.
    `start_distance`: hexes from the minefield when the phase began (0 = in it)."""

    id: str
    category: UnitCategory
    start_distance: int
    mounted: bool = False
    suppressed: bool = False
    paralyzed: bool = False
    moved: bool = False  # other than the move into the hex [21.3.b]
    changed_mode: bool = False
    made_sfa: bool = False
    made_at_roll: bool = False


def check_breach(
    marker: MinefieldMarker, units: Sequence[BreachCandidate], *, enemy_in_hex: bool
) -> Explanation:
    """Who may try to breach [21.3, 21.3.a]; raises `RuleError` naming every refusal. The
    attempt moves the units into the hex (an overwatch event) [21.3.b]; afterwards they may
    not move, change mode, SFA or make AT rolls this phase."""
    exp = Explanation()
    if not units:
        raise RuleError(msg("name the units trying to breach"), rule="21.3")
    if marker.breached:
        raise RuleError(msg("the minefield is already breached"), rule="21.3.c")
    if enemy_in_hex:
        raise RuleError(msg("a minefield hex held by the enemy cannot be breached"), rule="21.3")
    bad: list[tuple[str, str, Msg]] = []
    for u in units:
        problems: list[tuple[str, Msg]] = []
        if u.category is not UnitCategory.INFANTRY:
            problems.append(("3.1.a", msg("only infantry can clear minefields")))
        if u.mounted:
            problems.append(("21.3.a", msg("only dismounted infantry can breach")))
        if u.suppressed:
            problems.append(("21.3.a", msg("Suppressed units cannot breach")))
        if u.paralyzed:
            problems.append(("21.3.a", msg("Paralyzed units cannot breach")))
        if u.start_distance > 1:
            problems.append(("21.3.a", msg("did not begin the phase in or adjacent to the hex")))
        if u.moved or u.changed_mode or u.made_sfa or u.made_at_roll:
            problems.append(
                ("21.3", msg("moved, changed mode, made an SFA or an AT roll this phase"))
            )
        bad.extend((u.id, r, w) for r, w in problems)
    if bad:
        reasons = [msg("%(unit)s [%(rule)s] %(why)s", unit=u, rule=r, why=w) for u, r, w in bad]
        raise RuleError(msg("may not breach: %(reasons)s", reasons=reasons), rule="21.3")
    exp.add("21.3.b", msg("move into the minefield hex: an overwatch event"), [u.id for u in units])
    exp.add("21.3", msg("this phase they may not move, change mode, SFA or make AT rolls"))
    return exp


def breach_attack(
    marker: MinefieldMarker,
    units: Sequence[MineTarget],
    charts: FireCharts | None,
    dice: DiceSource | None,
    *,
    entered: Mapping[str, int] | None = None,
    result: Any = None,
    first_step_choice: str | None = None,
) -> MinefieldAttack:
    """After overwatch and artillery, the minefield attacks the breaching units still in
    the hex on the "9" column with only the stacking shift [21.3.c]."""
    exp = Explanation()
    if marker.breached:
        raise RuleError(msg("the minefield is already breached"), rule="21.3.c")
    if not units:
        exp.add("21.3.c", msg("no breaching unit is left in the hex: no attack, no breach"))
        return MinefieldAttack(False, explanation=exp)
    if any(t.steps < 1 for t in units):
        raise RuleError(msg("every unit entering has at least 1 step"), rule="21.3.c")
    fire = _mine_area_attack(
        BREACH_AF,
        "21.3.c",
        [LossTarget(t.id, t.steps) for t in units],
        charts,
        dice,
        exp,
        entered=entered or {},
        result=result,
        stacking_steps=None,
        first_step_choice=first_step_choice,
    )
    return MinefieldAttack(True, fire, explanation=exp)


@dataclass(frozen=True)
class BreacherAfter:
    """A breaching unit once the attack's losses and morale result are applied."""

    id: str
    in_hex: bool = True  # False if eliminated or retreated
    suppressed: bool = False
    paralyzed: bool = False


@dataclass(frozen=True)
class BreachOutcome:
    made: bool
    marker: MinefieldMarker
    explanation: Explanation = field(default_factory=Explanation)


def breach_outcome(
    marker: MinefieldMarker, units: Sequence[BreacherAfter], *, every_unit: bool = False
) -> BreachOutcome:
    """The breach is made if a breaching unit is still in the hex and neither Paralyzed
    nor Suppressed; the marker flips to *Breach* [21.3.c]. `every_unit=True` asks that of
    every breaching unit."""
    exp = Explanation()
    fit = [u.id for u in units if u.in_hex and not (u.suppressed or u.paralyzed)]
    exp.add("21.3.c", msg("still in the hex, neither Paralyzed nor Suppressed"), fit)
    made = bool(fit) and (not every_unit or len(fit) == len(units))
    if not made:
        exp.add("21.3.c", msg("no breach"), False)
        return BreachOutcome(False, marker, exp)
    exp.add("21.3.c", msg("breach made: flip the marker to Breach"), True)
    return BreachOutcome(True, replace(marker, breached=True), exp)


# ---------------------------------------------------------------------------------------------
# Placement [21.1]


@dataclass(frozen=True)
class Placement:
    """A hex to mine on implementing a Prepared Defense sheet: its distance to each of the
    two infantry platoons that generate it and to the nearest enemy unit."""

    hex: str
    platoon_distances: tuple[int, int]
    enemy_distance: int


def place_sheet_minefields(
    defense: PreparedDefenseResult, sheet: str, placements: Sequence[Placement]
) -> tuple[tuple[MinefieldMarker, ...], Explanation]:
    """Markers laid at the moment the sheet is implemented: at most the count the sheet
    gives (`prepared_defense`), each within 4 hexes of its two platoons and at least 5 from
    the nearest enemy [21.1]."""
    exp = Explanation()
    if len(placements) > defense.minefields:
        raise RuleError(msg("the sheet gives %(n)s minefields", n=defense.minefields), rule="21.1")
    hexes = [p.hex for p in placements]
    if len(set(hexes)) < len(hexes):
        raise RuleError(msg("one minefield per hex"), rule="21.1")
    for p in placements:
        if max(p.platoon_distances) > PLACE_NEAR:
            raise RuleError(
                msg("%(hex)s is more than 4 hexes from its two platoons", hex=p.hex), rule="21.1"
            )
        if p.enemy_distance < PLACE_FAR:
            raise RuleError(
                msg("%(hex)s is closer than 5 hexes to an enemy unit", hex=p.hex), rule="21.1"
            )
    markers = tuple(MinefieldMarker(h, False, sheet) for h in hexes)
    exp.add("21.1", msg("minefields laid"), hexes)
    return markers, exp


def place_pregame(
    hex_: str, *, enemy_may_deploy: bool, placing_first: bool = True
) -> MinefieldMarker:
    """A set-up minefield: the side placing first may not mine hexes where the enemy may
    deploy [21.1]."""
    if placing_first and enemy_may_deploy:
        raise RuleError(
            msg("%(hex)s: the enemy may deploy there, it cannot be mined", hex=hex_), rule="21.1"
        )
    return MinefieldMarker(hex_, False, PREGAME)

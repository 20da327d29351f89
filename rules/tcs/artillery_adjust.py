"""Artillery adjustment [18.7, 18.6.c]: the Artillery Adjustment Table (user data, or the
result read off the printed chart), the adjustment itself and the scatter the seed prints.

Split from `rules.tcs.artillery` (factors, barrage, point fire), which re-exports these
names for its callers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from rules.dice import D6, D66, DiceSource
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg
from rules.tcs.d66_grid import D66Grid, blank

OPPONENT_PLACES_WITHIN = 3  # scatter roll 6 [18.7.c]


class MissionKind(StrEnum):
    HE = "he"
    CONTINUOUS = "continuous"
    SMOKE = "smoke"
    ILLUM = "illum"
    ROCKET = "rocket"


class Shoot(StrEnum):
    NO_SHOOT = "no_shoot"
    SCATTER = "scatter"
    BAD_SHOOT = "bad_shoot"
    GOOD_SHOOT = "good_shoot"


SHOOT_WORDS: dict[Shoot, Msg] = {
    Shoot.NO_SHOOT: msg("No Shoot"),
    Shoot.SCATTER: msg("Scatter"),
    Shoot.BAD_SHOOT: msg("Bad Shoot"),
    Shoot.GOOD_SHOOT: msg("Good Shoot"),
}
_SHOOT_ALIASES = {
    "no shoot": Shoot.NO_SHOOT,
    "ns": Shoot.NO_SHOOT,
    "scatter": Shoot.SCATTER,
    "bad shoot": Shoot.BAD_SHOOT,
    "bad": Shoot.BAD_SHOOT,
    "good shoot": Shoot.GOOD_SHOOT,
    "good": Shoot.GOOD_SHOOT,
}


def parse_shoot(word: Any) -> Shoot | None:
    if word is None:
        return None
    text = " ".join(str(word).lower().replace("_", " ").split())
    return _SHOOT_ALIASES.get(text)


@dataclass(frozen=True)
class AdjustmentTable(D66Grid[Shoot]):
    """A validated Artillery Adjustment Table [18.7.a]: columns are adjustment values (after
    column modifiers), rows d66 ranges, cells No Shoot / Scatter / Bad Shoot / Good Shoot."""

    RULE: ClassVar[str] = "18.7.a"
    RESULTS: ClassVar[type[StrEnum]] = Shoot

    @classmethod
    def parse_cell(cls, word: Any) -> Shoot | None:
        return parse_shoot(word)

    @classmethod
    def cell_problem(cls, row: int, column: int, cell: Any) -> Msg | None:
        if parse_shoot(cell) is not None:
            return None
        return msg(
            "row %(n)s, column %(c)s: %(cell)s is not a result (No Shoot, Scatter, "
            "Bad Shoot, Good Shoot)",
            n=row,
            c=column,
            cell=blank(cell),
        )

    @classmethod
    def not_a_grid(cls) -> tuple[str | Msg, Msg]:
        return cls.title(), msg("give a set of columns and rows")

    @classmethod
    def title(cls) -> Msg:
        return msg("Artillery Adjustment Table")

    @classmethod
    def empty_csv(cls) -> Msg:
        return msg("the CSV is empty")


@dataclass(frozen=True)
class Scatter:
    """Where a scattered mission went: `distance` hexes towards `direction` (1–6 on the map's
    diagram), or `opponent_places` within 3 hexes [18.7.c]."""

    distance: int | None
    direction: int | None
    opponent_places: bool = False


@dataclass(frozen=True)
class Adjustment:
    shoot: Shoot | None  # None: only the odds were asked for (no dice)
    fires_as: Shoot | None  # Good or Bad Shoot side used; None: nothing fires
    scatter: Scatter | None
    refund: bool
    odds: dict[Shoot, Fraction]
    explanation: Explanation


def scatter(dice: DiceSource, exp: Explanation) -> Scatter:
    """The Artillery Scatter Table as the text prints it [18.7.c]: 1–3 → 1 hex, 4–5 → 2
    hexes (direction by a die), 6 → the opponent places it within 3 hexes."""
    roll = dice.roll(D6, purpose=msg("Artillery Scatter Table"), rule="18.7.c")
    if roll.value == 6:
        exp.add(
            "18.7.c",
            msg("scatter roll 6: the opponent places the mission within 3 hexes"),
            OPPONENT_PLACES_WITHIN,
            roll=roll,
        )
        return Scatter(None, None, True)
    distance = 1 if roll.value <= 3 else 2
    exp.add("18.7.c", msg("scatter distance"), distance, roll=roll)
    way = dice.roll(D6, purpose=msg("scatter direction"), rule="18.7.c")
    exp.add("18.7.c", msg("scatter direction"), way.value, roll=way)
    return Scatter(distance, way.value)


def rocket_scatter(dice: DiceSource, exp: Explanation) -> Scatter:
    """Rockets: red die direction, white die distance; never on the target hex [18.6.c]."""
    roll = dice.roll(D66, purpose=msg("rocket scatter"), rule="18.6.c")
    direction, distance = divmod(roll.value, 10)
    exp.add(
        "18.6.c",
        msg("rocket scatter: direction (red), distance (white)"),
        [direction, distance],
        roll=roll,
    )
    return Scatter(distance, direction)


def adjust(
    kind: MissionKind,
    dice: DiceSource | None,
    *,
    table: AdjustmentTable | None = None,
    value: int | None = None,
    modifiers: Sequence[tuple[str, int]] = (),
    entered: Shoot | str | None = None,
    observer_los: bool = True,
    all_water: bool = False,
) -> Adjustment:
    """Adjust one mission [18.7]. Rockets skip the table (Good Shoot, always scatter). Without
    a valid observer LOS the mission is No Shoot [18.3]. Otherwise the result comes from
    `entered` (read off the printed chart) or the d66 on `table` at `value` + column
    modifiers; with `dice=None` only the odds are returned (shoot None). With neither table
    nor entered result a `DecisionRequired` asks for the result read off the chart."""
    kind, exp = MissionKind(kind), Explanation()
    if kind is MissionKind.ILLUM:
        raise RuleError(msg("illumination missions are not adjusted"), rule="18.3")
    if kind is MissionKind.ROCKET:
        exp.add("18.7", msg("rockets: always Good Shoot and always scatter"), "good_shoot")
        where = rocket_scatter(dice, exp) if dice else None
        return Adjustment(Shoot.GOOD_SHOOT, Shoot.GOOD_SHOOT, where, False, {}, exp)
    if not observer_los:
        exp.add("18.3", msg("no valid observer LOS: No Shoot"), "no_shoot")
        return _settle(kind, Shoot.NO_SHOOT, dice, {}, exp, all_water)
    chances: dict[Shoot, Fraction] = {}
    if table is not None and value is not None:
        column_value = value + sum(v for _, v in modifiers)
        for name, v in modifiers:
            exp.add("18.7.a", msg("column modifier: %(name)s", name=name), v)
        exp.add("18.7.a", msg("adjustment value after column modifiers"), column_value)
        chances = table.odds(column_value)
    if entered is not None:
        shoot = parse_shoot(entered) if not isinstance(entered, Shoot) else entered
        if shoot is None:
            raise RuleError(msg("enter No Shoot, Scatter, Bad Shoot or Good Shoot"), rule="18.7")
        exp.add("18.7", msg("result read off the chart: %(r)s", r=SHOOT_WORDS[shoot]), shoot.value)
    elif table is not None and value is not None:
        if dice is None:
            return Adjustment(None, None, None, False, chances, exp)
        roll = dice.roll(D66, purpose=msg("Artillery Adjustment Table"), rule="18.7.a")
        shoot = table.result(column_value, roll.value)
        exp.add(
            "18.7.a",
            msg("roll %(roll)s: %(r)s", roll=roll.value, r=SHOOT_WORDS[shoot]),
            shoot.value,
            roll=roll,
        )
    else:
        raise DecisionRequired(
            Decision(
                "adjustment",
                "18.7.a",
                msg("Roll on the Artillery Adjustment Table and enter the result"),
                tuple(s.value for s in Shoot),
            )
        )
    return _settle(kind, shoot, dice, chances, exp, all_water)


def _settle(
    kind: MissionKind,
    shoot: Shoot,
    dice: DiceSource | None,
    chances: dict[Shoot, Fraction],
    exp: Explanation,
    all_water: bool,
) -> Adjustment:
    if shoot is Shoot.NO_SHOOT:
        exp.add("18.7.b", msg("No Shoot: marker removed, ammunition returned"))
        return Adjustment(shoot, None, None, True, chances, exp)
    where = None
    if shoot is Shoot.SCATTER:
        if dice is None:
            raise RuleError(msg("roll on the Artillery Scatter Table"), rule="18.7.c")
        where = scatter(dice, exp)
        exp.add("18.7.c", msg("a scattered mission fires as Bad Shoot"), "bad_shoot")
    if kind is MissionKind.SMOKE:
        if all_water:
            exp.add("19.1.b", msg("smoke in an all-water hex: No Shoot"), "no_shoot")
            return Adjustment(Shoot.NO_SHOOT, None, where, True, chances, exp)
        exp.add("18.5.c", msg("smoke succeeds on anything but No Shoot"))
        return Adjustment(
            shoot, shoot if shoot is not Shoot.SCATTER else None, where, False, chances, exp
        )
    fires = Shoot.BAD_SHOOT if shoot is Shoot.SCATTER else shoot
    return Adjustment(shoot, fires, where, False, chances, exp)

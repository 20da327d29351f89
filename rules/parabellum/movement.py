"""Movement actions (§5) with the terrain caps of §3.1 and All-terrain soldiers (§8.4.3).

Positions are the table's business: the caller says what the move went through (open or
rough terrain, a passable obstacle, where the soldier started) and how far it went.
"""

from __future__ import annotations

from typing import Literal

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl

Terrain = Literal["open", "rough", "impassable"]
MOVES = ("no_move", "cautious", "double_time", "crawl")
MOVE_CAP_CM = {"no_move": 0, "cautious": 15, "double_time": 30, "crawl": 10}
DOUBLE_TIME_MIN_CM = 16
ALL_TERRAIN_CAP_CM = 25
ROUGH_OR_OBSTACLE_CAP_CM = 15
TURN_CAP_CM = 30
OBSTACLE_CAP = msg("rough terrain or a passable obstacle: 15 cm at most")
CAUTIOUS_OR_CRAWL_PER_TURN = 2


def movement_cap(
    move: str,
    *,
    terrain: Terrain = "open",
    all_terrain: bool = False,
    started_in_rough: bool = False,
    started_touching_obstacle: bool = False,
    crosses_obstacle: bool = False,
    any_double_time_distance: bool = False,
    ex: Explanation | None = None,
) -> tuple[int, int]:
    """The shortest and longest legal `move` in cm here; refuses a move the terrain forbids.

    A double-time move is 16-30 cm (§5) unless `any_double_time_distance`; crossing a passable
    obstacle caps it at 15 cm (§3.1), which then waives the 16 cm minimum."""
    ex = ex if ex is not None else Explanation()
    name = pbl.label(pbl.ACTIONS, move)
    if terrain == "impassable":
        raise RuleError(msg("soldiers cannot enter or cross impassable terrain"), rule="3.1")
    cap = ex.add(
        "5", msg("%(move)s: up to %(cm)s cm", move=name, cm=MOVE_CAP_CM[move]), MOVE_CAP_CM[move]
    )
    if move != "double_time":
        if cap > ROUGH_OR_OBSTACLE_CAP_CM and (terrain == "rough" or crosses_obstacle):
            cap = ex.add("3.1", OBSTACLE_CAP, ROUGH_OR_OBSTACLE_CAP_CM)
        return 0, cap
    hard = (
        terrain == "rough"
        or started_in_rough
        or (crosses_obstacle and not started_touching_obstacle)
    )
    if hard and not all_terrain:
        if terrain == "rough" or started_in_rough:
            raise RuleError(
                msg("a double-time move may not start in or go through rough terrain"), rule="5"
            )
        raise RuleError(
            msg(
                "a double-time move crosses a passable obstacle only when the activation "
                "started touching it"
            ),
            rule="5",
        )
    if all_terrain and (terrain == "rough" or started_in_rough or crosses_obstacle):
        return ex.add(
            "8.4.3",
            msg("All-terrain: double time through rough terrain or obstacles, 25 cm at most"),
            (0 if any_double_time_distance else DOUBLE_TIME_MIN_CM, ALL_TERRAIN_CAP_CM),
        )
    if crosses_obstacle:
        return 0, ex.add("3.1", OBSTACLE_CAP, ROUGH_OR_OBSTACLE_CAP_CM)
    low = 0 if any_double_time_distance else DOUBLE_TIME_MIN_CM
    ex.add("5", msg("double time: between %(low)s and 30 cm", low=low), low)
    return low, cap

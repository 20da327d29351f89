"""RS.1 Battlefield, RS.2 Axis and Allies, RS.3 Troop Quality, RS.4 Objectives."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from rules.cc.common import Faction, Nation, roll
from rules.cc.generator.state import OBJECTIVES, MapEdge, Orientation, ScenarioState, StepResult
from rules.cc.generator.tables import (
    ALLIES_VS_GERMANY,
    ALLIES_VS_ITALY,
    AXIS_NATIONALITY,
    AXIS_YEAR,
    QUALITY,
    QUALITY_COLUMN_YEARS,
    UNPRINTED_QUALITY_YEARS,
)
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Decision, Explanation

Die = Literal["white", "coloured"]

# [RS.1, 2.2.2] compass 1 is the top of the map, 4 the bottom, 2-3 the right, 5-6 the left.
COMPASS_EDGE = {
    1: MapEdge.TOP,
    2: MapEdge.RIGHT,
    3: MapEdge.RIGHT,
    4: MapEdge.BOTTOM,
    5: MapEdge.LEFT,
    6: MapEdge.LEFT,
}


def edge_orientation(edge: MapEdge) -> Orientation:
    """Top/bottom edges face each other across the 10 rows ("ancho"), the sides across the
    15 lettered columns ("largo") – derived from the 10×15 map [Consejos]."""
    return Orientation.WIDE if edge in (MapEdge.TOP, MapEdge.BOTTOM) else Orientation.LONG


def _check_player(state: ScenarioState, player: str, rule: str) -> None:
    if player not in state.players:
        raise RuleError(f"{player!r} is not one of the players {state.players}", rule=rule)


def rs_1_map_choice(state: ScenarioState, dice: DiceSource, *, roller: str) -> StepResult:
    """RS.1: `roller` rolls; even, he chooses the map, odd, his opponent does."""
    _check_player(state, roller, "RS.1")
    exp = Explanation()
    record = roll(dice, purpose="RS.1 who chooses the map", rule="RS.1")
    even = record.value % 2 == 0
    chooser = roller if even else state.other_player(roller)
    exp.add(
        "RS.1",
        f"{roller} rolls {record.value} ({'even' if even else 'odd'}): {chooser} chooses the map",
        chooser,
        roll=record,
    )
    return StepResult(replace(state, map_chooser=chooser), exp)


def rs_1_orient_map(
    state: ScenarioState, dice: DiceSource, *, map_id: str, die: Die | None = None
) -> StepResult:
    """RS.1: the player who did not choose rolls, picks the white or the coloured die, and the
    compass direction of that face points at him: his friendly edge. VP marker on "0"."""
    if state.map_chooser is None:
        raise RuleError("decide who chooses the map first", rule="RS.1")
    if not map_id:
        raise RuleError("name the map chosen", rule="RS.1")
    player = state.other_player(state.map_chooser)
    exp = Explanation()
    record = state.pending.get("RS.1")
    if record is None:
        record = roll(dice, purpose="RS.1 map orientation", rule="RS.1")
        state = state.with_roll("RS.1", record)
        exp.add("RS.1", f"{player} rolls to orient map {map_id}", record.faces, roll=record)
    if die is None:
        white, coloured = record.die("white"), record.die("coloured")
        decision = Decision(
            key="rs_1_die",
            rule="RS.1",
            prompt=f"Use the white die ({white}) or the coloured die ({coloured})?",
            options=("white", "coloured"),
            chooser=player,
        )
        return StepResult(state, exp, decision)
    if die not in ("white", "coloured"):
        raise RuleError(f"choose the white or the coloured die, not {die!r}", rule="RS.1")
    compass = record.die(die)
    edge = exp.add(
        "RS.1",
        f"{die} die shows {compass}: that compass side faces {player}",
        COMPASS_EDGE[compass],
    )
    orientation = exp.add("RS.1", "players face each other across the map", edge_orientation(edge))
    exp.add("RS.1", "VP marker on 0", 0)
    edges = {player: edge, state.map_chooser: edge.opposite}
    state = state.finish("RS.1", map_id=map_id, edges=edges, orientation=orientation, vp_axis=0)
    return StepResult(state, exp)


def rs_2_axis_and_allies(state: ScenarioState, dice: DiceSource, *, flipper: str) -> StepResult:
    """RS.2: coin for sides (a d2: 1 heads → `flipper` is Axis, 2 tails → Allies); Axis
    nationality and year [RS.2.1]; Allied nationality [RS.2.2 vs. Germany, RS.2.3 vs. Italy]."""
    _check_player(state, flipper, "RS.2.1")
    exp = Explanation()
    coin = dice.roll("d2", purpose="RS.2.1 coin: 1 heads (cara), 2 tails (cruz)", rule="RS.2.1")
    heads = coin.value == 1
    axis_player = flipper if heads else state.other_player(flipper)
    exp.add(
        "RS.2.1",
        f"{flipper} flips {'heads' if heads else 'tails'}: {axis_player} plays the Axis",
        axis_player,
        roll=coin,
    )
    allied_player = state.other_player(axis_player)

    record = roll(dice, purpose="RS.2.1 Axis nationality", rule="RS.2.1")
    exp.add("RS.2.1", "Axis nationality roll", record.value, roll=record)
    axis = AXIS_NATIONALITY.lookup_range(record.value, exp)
    record = roll(dice, purpose="RS.2.1 year", rule="RS.2.1")
    exp.add("RS.2.1", "year roll", record.value, roll=record)
    year = AXIS_YEAR[axis].lookup_range(record.value, exp)
    table = ALLIES_VS_GERMANY if axis is Nation.GERMANY else ALLIES_VS_ITALY
    record = roll(dice, purpose="RS.2.2/RS.2.3 Allied nationality", rule=table[str(year)].rule)
    exp.add(table[str(year)].rule, "Allied nationality roll", record.value, roll=record)
    allies = table[str(year)].lookup_range(record.value, exp)

    state = replace(state, year=year).with_side(Faction.AXIS, player=axis_player, nation=axis)
    return StepResult(state.with_side(Faction.ALLIES, player=allied_player, nation=allies), exp)


def quality_column(nation: Nation, year: int, opponent: Nation) -> str:
    """The printed RS.3 column a nation reads in a year (Italy's depends on the opponent)."""
    rule = "RS.3.1" if nation.faction is Faction.AXIS else "RS.3.2"
    if nation is Nation.ITALY:
        if opponent is not Nation.RUSSIA and year <= 1943:
            return "1939-43 vs. non-Russians"
        if opponent is Nation.RUSSIA and year <= 1940:
            return "1939-40 vs. Russia"
        if opponent is Nation.RUSSIA and year <= 1944:
            return "1941-44 vs. Russia"
    else:
        for column, years in QUALITY_COLUMN_YEARS[nation].items():
            if year in years:
                return column
    raise RuleError(
        f"the {nation} quality table has no column for {year} vs. {opponent}", rule=rule
    )


def rs_3_troop_quality(state: ScenarioState, dice: DiceSource) -> StepResult:
    """RS.3: the Axis, then the Allied player, rolls on his nation's quality table."""
    if state.year is None or state.axis.nation is None or state.allies.nation is None:
        raise RuleError("roll year and nationalities first", rule="RS.3")
    exp = Explanation()
    for faction in (Faction.AXIS, Faction.ALLIES):
        nation = state.side(faction).nation
        opponent = state.side(faction.other).nation
        assert nation is not None and opponent is not None
        column = quality_column(nation, state.year, opponent)
        table = QUALITY[nation][column]
        if (nation, state.year) in UNPRINTED_QUALITY_YEARS:
            exp.add(table.rule, f"no printed {state.year} column: reading column {column!r}")
        record = roll(dice, purpose=f"{table.rule} {nation} troop quality", rule=table.rule)
        exp.add(table.rule, f"{faction} troop quality roll", record.value, roll=record)
        state = state.with_side(faction, quality=table.lookup_range(record.value, exp))
    return StepResult(state, exp)


def rs_4_objectives(
    state: ScenarioState,
    *,
    known: str,
    known_values: Mapping[int, int],
    axis_secret: str,
    allied_secret: str,
) -> StepResult:
    """RS.4: one open (Known) chit and one secret chit per player, drawn from the 22 chits.

    The chit list is not printed: `known_values` is what the Known chit says each Objective
    is worth (objective → VP), read by the players, so later steps can score control [7.3.3].
    """
    chits = (known, axis_secret, allied_secret)
    if not all(chits) or len(set(chits)) != 3:
        raise RuleError("three different chits are drawn from the cup", rule="RS.4")
    for objective, value in known_values.items():
        if objective not in OBJECTIVES or value < 0:
            raise RuleError(
                f"objective {objective} worth {value} VP is not a chit value", rule="RS.4"
            )
    exp = Explanation()
    exp.add("RS.4", "Known objective chit (centre of the Objective box)", known)
    exp.add("RS.4", "Known chit values by Objective", dict(known_values))
    exp.add("RS.4", "Axis secret chit drawn")
    exp.add("RS.4", "Allied secret chit drawn")
    state = replace(state, known_objective=known, known_values=dict(known_values))
    state = state.with_side(Faction.AXIS, secret_objective=axis_secret)
    return StepResult(state.with_side(Faction.ALLIES, secret_objective=allied_secret), exp)

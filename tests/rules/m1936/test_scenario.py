"""Scenario creation (M36-I): seed tables, sector assignment (T30), placement, objectives,
user tables for Costa/Ciudad, restrictions (T31), and the scenario's weather."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import EnteredDice, SeededDice
from rules.errors import RuleError, TableDataError
from rules.explain import DecisionRequired
from rules.m1936.army import Role
from rules.m1936.scenario import (
    ELEMENTS,
    SECTOR_TABLE_SCHEMA,
    FeatureKind,
    LayoutFeature,
    ScenarioOptions,
    ScenarioSheet,
    Terrain,
    check_layout,
    create_scenario,
    order_tied_sectors,
    place_objectives,
    plan_sector,
    roll_scenario_weather,
    sector_table,
)
from rules.m1936.weather import Season, Weather

CAMPO_A, CAMPO_B, PUEBLO, RIO = (
    "Sector de Campo A",
    "Sector de Campo B",
    "Sector de Pueblo",
    "Sector de Río",
)


@pytest.mark.parametrize(
    ("terrain", "sector_type", "element", "cells"),
    [
        (Terrain.LLANURA, RIO, "Bosque", (0, 1)),
        (Terrain.LLANURA, PUEBLO, "Muro", (2, 4)),
        (Terrain.LLANURA, CAMPO_A, "Sembrado", (1, 2)),
        (Terrain.COLINAS, "Terreno Abrupto A", "Línea de arbustos (5)", (0, 2)),
        (Terrain.COLINAS, "Terreno Abrupto B", "Línea de arbustos (5)", (1, 3)),
        (Terrain.COLINAS, "Terreno Abrupto B", "Zona de arbustos (5)", (1, 3)),
        (Terrain.COLINAS, "Sector de Bosque", "Elevaciones nivel 1", (1, 1)),
        (Terrain.BOSQUE, "Sector de Bosque C", "Bosque", (1, 2)),
        (Terrain.BOSQUE, PUEBLO, "Zona de arbustos (5)", (2, 3)),
    ],
)
def test_M36_I_2_sector_tables_match_the_seed(terrain, sector_type, element, cells):
    table = sector_table(terrain)
    assert table.ranges[sector_type][element] == cells and table.provenance == "seed"
    assert all(tuple(cols) == ELEMENTS for cols in table.ranges.values())


def t30_sheet():
    # d6 per sector type in table order: Campo A 4, Campo B 2, Pueblo 2, Río 5
    return create_scenario(Terrain.LLANURA, EnteredDice([4, 2, 2, 5]))


def test_M36_I_4_T30_tie_is_ordered_by_the_placer_of_the_first_sector():
    sheet = t30_sheet()
    assert sheet.sectors == {} and sheet.pending.chooser == "Atacante"
    assert set(sheet.pending.options) == {(CAMPO_B, PUEBLO), (PUEBLO, CAMPO_B)}
    sheet = order_tied_sectors(sheet, (PUEBLO, CAMPO_B))
    assert sheet.sectors == {1: PUEBLO, 2: CAMPO_B, 3: CAMPO_A, 4: RIO}
    assert [s.roll.value for s in sheet.explanation if s.roll] == [4, 2, 2, 5]
    with pytest.raises(RuleError):
        order_tied_sectors(sheet, (PUEBLO, CAMPO_B))


def test_M36_I_4_no_tie_assigns_lowest_first():
    sheet = create_scenario(Terrain.BOSQUE, EnteredDice([6, 1, 3, 2]))
    assert sheet.pending is None
    assert sheet.sectors == {
        1: "Sector de Bosque B",
        2: "Sector de Pueblo",
        3: "Sector de Bosque C",
        4: "Sector de Bosque A",
    }


RIO_COUNTS = {"Bosque": 1, "Carretera": 1, "Línea de arbustos (5)": 3, "Río": 1}


def test_M36_I_4_T30_sector_4_defender_places_all_but_the_last_piece():
    sheet = order_tied_sectors(t30_sheet(), (PUEBLO, CAMPO_B))
    counts = {**RIO_COUNTS, "Zona de arbustos (5)": 1}
    sheet = plan_sector(sheet, 4, counts, last_piece="Río")
    plan = sheet.plans[4]
    assert plan.placer is Role.DEFENSOR and plan.counts["Muro"] == 0  # fixed 0-0
    assert plan.by_opponent == {"Río": 1}
    assert plan.by_placer == {**counts, "Río": 0}
    per_type = plan_sector(
        order_tied_sectors(t30_sheet(), (PUEBLO, CAMPO_B)),
        4,
        counts,
        options=ScenarioOptions(last_piece_per_element=True),
    ).plans[4]
    assert per_type.by_opponent == dict.fromkeys(counts, 1)
    assert sum(per_type.by_placer.values()) == 7 - 5


def test_M36_I_4_missing_choices_are_decisions():
    sheet = order_tied_sectors(t30_sheet(), (PUEBLO, CAMPO_B))
    with pytest.raises(DecisionRequired) as missing:
        plan_sector(sheet, 4, RIO_COUNTS)  # Zona de arbustos is 1-3 in a Río sector
    assert missing.value.decision.options == (("Zona de arbustos (5)", (1, 2, 3)),)
    assert missing.value.decision.chooser == "Defensor"
    with pytest.raises(DecisionRequired) as last:
        plan_sector(sheet, 4, {**RIO_COUNTS, "Zona de arbustos (5)": 2})
    assert set(last.value.decision.options) == {*RIO_COUNTS, "Zona de arbustos (5)"}


def test_M36_I_2_counts_outside_the_range_are_all_reported():
    sheet = order_tied_sectors(t30_sheet(), (PUEBLO, CAMPO_B))
    with pytest.raises(RuleError) as err:
        plan_sector(
            sheet, 4, {**RIO_COUNTS, "Muro": 1, "Río": 2, "Zona de arbustos (5)": 1, "X": 1}
        )
    assert err.value.rule == "M36-I.2 · Llanura"
    said = str(err.value.message)
    assert "Wall: choose from" in said and "River: choose from 0 to 1" in said
    assert "X is not a scenery element here" in said


def full_sheet():
    sheet = order_tied_sectors(t30_sheet(), (PUEBLO, CAMPO_B))
    for sector, sector_type in sheet.sectors.items():
        lows = {e: lo for e, (lo, _) in sheet.table.ranges[sector_type].items()}
        present = [e for e, n in lows.items() if n]
        sheet = plan_sector(sheet, sector, lows, last_piece=present[0] if present else None)
    return sheet


def test_M36_I_4_objectives_after_the_battlefield_is_placed():
    with pytest.raises(RuleError):
        place_objectives(order_tied_sectors(t30_sheet(), (PUEBLO, CAMPO_B)))
    sheet = full_sheet()
    done = place_objectives(sheet)
    assert done.objectives == (2, 3, 4) and done.complete
    free = ScenarioOptions(objectives_one_per_sector=False)
    with pytest.raises(DecisionRequired):
        place_objectives(sheet, options=free)
    assert place_objectives(sheet, (4, 4, 2), options=free).objectives == (4, 4, 2)
    with pytest.raises(RuleError):
        place_objectives(sheet, (1, 2, 3), options=free)
    with pytest.raises(RuleError):
        place_objectives(sheet, (2, 2, 3))


def test_M36_XV_1_weather_rolled_after_scenario_and_sheet_round_trips():
    sheet = roll_scenario_weather(
        place_objectives(full_sheet()), Season.INVIERNO, EnteredDice([12])
    )
    assert sheet.weather.weather is Weather.VENTISCA
    again = ScenarioSheet.from_dict(sheet.to_dict())
    assert again == sheet and again.explanation.as_list() == sheet.explanation.as_list()
    pending = t30_sheet()
    assert ScenarioSheet.from_dict(pending.to_dict()).pending == pending.pending


def user_rows(**overrides):
    rows = [
        {"sector": f"Sector de Playa {i}", "element": e, "min": 0, "max": 1}
        for i in range(4)
        for e in ELEMENTS
    ]
    rows[0].update(overrides)
    return rows


def test_M36_I_2_costa_and_ciudad_need_a_user_table():
    with pytest.raises(RuleError):
        create_scenario(Terrain.COSTA, SeededDice(1))
    with pytest.raises(RuleError):
        sector_table(Terrain.LLANURA, user_rows())
    table = sector_table(Terrain.CIUDAD, user_rows())
    assert table.provenance == "user" and len(table.sector_types) == 4
    sheet = create_scenario(Terrain.COSTA, EnteredDice([1, 2, 3, 4]), user_table=user_rows())
    assert sheet.sectors[1] == "Sector de Playa 0"
    assert SECTOR_TABLE_SCHEMA.describe()["rule"] == "M36-I.2"


@pytest.mark.parametrize(
    "rows",
    [
        user_rows(min=2),  # min > max
        user_rows(element="Volcán"),
        user_rows()[:-1],  # one element missing
        user_rows()[:36],  # 3 sector types
        [*user_rows(), user_rows()[0]],  # repeated element
    ],
    ids=["min-max", "element", "missing", "three-sectors", "repeat"],
)
def test_M36_I_2_bad_user_tables_are_refused(rows):
    with pytest.raises(TableDataError) as err:
        sector_table(Terrain.COSTA, rows)
    assert err.value.problems


@pytest.mark.parametrize(
    ("feature", "breaches"),
    [
        (LayoutFeature(FeatureKind.ROAD), 0),
        (LayoutFeature(FeatureKind.ROAD, ends_at_edge=False), 1),
        (LayoutFeature(FeatureKind.RIVER, in_end_thirds=True), 1),
        (LayoutFeature(FeatureKind.RIVER, starts_at_edge=False, in_end_thirds=True), 2),
        (LayoutFeature(FeatureKind.HAMLET, crossed_by_road=False), 1),
        (LayoutFeature(FeatureKind.TOWN, crossed_by_road=False), 1),
        (LayoutFeature(FeatureKind.TOWN), 0),
    ],
)
def test_M36_I_5_T31_restrictions(feature, breaches):
    result = check_layout([feature])
    assert len(result.violations) == breaches and result.valid is (breaches == 0)
    assert all(v.rule == "M36-I.5" for v in result.violations)


def test_M36_I_5_T31_river_in_end_third_and_town_without_road_both_reported():
    result = check_layout(
        [
            LayoutFeature(FeatureKind.RIVER, "north", in_end_thirds=True),
            LayoutFeature(FeatureKind.TOWN, "Belchite", crossed_by_road=False),
        ]
    )
    assert [v.entry for v in result.violations] == [0, 1] and not result.valid


@settings(max_examples=60, deadline=None)
@given(
    terrain=st.sampled_from([Terrain.LLANURA, Terrain.COLINAS, Terrain.BOSQUE]),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_M36_I_4_any_legal_counts_give_a_consistent_plan(terrain, seed, data):
    sheet = create_scenario(terrain, SeededDice(seed))
    while sheet.pending is not None:
        sheet = order_tied_sectors(sheet, sheet.pending.options[-1])
    assert sorted(sheet.sectors.values()) == sorted(sheet.table.sector_types)
    for sector, sector_type in sheet.sectors.items():
        ranges = sheet.table.ranges[sector_type]
        counts = {e: data.draw(st.integers(lo, hi)) for e, (lo, hi) in ranges.items()}
        present = [e for e, n in counts.items() if n]
        last = data.draw(st.sampled_from(present)) if present else None
        sheet = plan_sector(sheet, sector, counts, last_piece=last)
        plan = sheet.plans[sector]
        for element, (lo, hi) in ranges.items():
            total = plan.by_placer.get(element, 0) + plan.by_opponent.get(element, 0)
            assert lo <= plan.counts[element] == total <= hi
        assert sum(plan.by_opponent.values()) == (1 if present else 0)

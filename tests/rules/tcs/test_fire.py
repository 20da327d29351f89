"""Direct fire [9–16] on user-supplied charts: digest cases T40–T53.

FICTIONAL TEST DATA: the seed prints none of the TCS charts. The fixture below holds the
few values the seed's examples give (marked "seed") and invented numbers everywhere else,
only so the procedures can be exercised. Never ship these numbers as a game's charts.
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import EnteredDice
from rules.errors import RuleError, TableDataError
from rules.explain import DecisionRequired, Explanation
from rules.tcs.fire import (
    Firer,
    FirerKind,
    TargetType,
    TargetUnit,
    area_fire,
    firing_value,
    odds,
    point_fire,
    range_band,
)
from rules.tcs.fire_actions import (
    EventKind,
    FirerState,
    at_rolls,
    check_at_rolls,
    check_overwatch,
    check_pfa,
    check_sfa,
)
from rules.tcs.fire_tables import (
    FireCharts,
    FireTable,
    Posture,
    Terrain,
    at_roll_table_from_csv,
    parse_band,
)

LABELS = ["0", "1", "2", "3", "4", "5", "6", "7-8", "9-10", "11-13", "14-16", "17-20"]
LABELS += ["21-25", "26-30", "31-40", "41-50", "51-70", "71-100", "101+"]


def _row(*runs):
    """Cells from (value, count) runs, left to right."""
    return [v for v, n in runs for _ in range(n)]


# FICTIONAL TEST DATA except: column 14-16 roll 65 → 3 (T41); column 6 rolls 65 → 1, 66 → 2
# (T44); two columns left of 4, roll 62 → nothing, 63 → 1 (T45); 1 P-firer → column 4.
FIRE = {
    "columns": LABELS,
    "p_firers": {"4": 1, "5": 2, "6": 3},
    "rows": [
        {"rolls": "11-36", "cells": _row(("-", 9), ("MC", 4), (1, 3), (2, 3))},
        {"rolls": "41-46", "cells": _row(("-", 6), ("MC", 4), (1, 4), (2, 3), (3, 2))},
        {"rolls": "51-56", "cells": _row(("-", 4), ("MC", 4), (1, 4), (2, 3), (3, 2), (4, 2))},
        {"rolls": "61-62", "cells": _row(("-", 2), ("MC", 3), (1, 4), (2, 4), (3, 3), (4, 3))},
        {
            "rolls": "63-64",
            "cells": _row(("-", 1), ("MC", 1), (1, 6), (2, 4), (3, 3), (4, 3), (5, 1)),
        },
        {"rolls": "65", "cells": _row(("MC", 1), (1, 6), (2, 3), (3, 4), (4, 3), (5, 1), (6, 1))},
        {"rolls": "66", "cells": _row((1, 2), (2, 5), (3, 3), (4, 4), (5, 3), (6, 2))},
    ],
}
TP = [  # seed: open/move area +2, partly/fire −2, protective/fire −3, protective/dug in −5,
    # open/fire point 0. The rest FICTIONAL.
    {"terrain": t, "posture": p, "area": a, "area_unspotted": a - 1, "point": pt}
    for t, p, a, pt in [
        ("billiard_table", "move", 3, 2),
        ("billiard_table", "fire", 1, 1),
        ("billiard_table", "dug_in", 0, 0),
        ("open", "move", 2, 1),
        ("open", "fire", 0, 0),
        ("open", "dug_in", -2, -1),
        ("partly_protective", "move", 0, 0),
        ("partly_protective", "fire", -2, -1),
        ("partly_protective", "dug_in", -4, -2),
        ("protective", "move", -1, -1),
        ("protective", "fire", -3, -2),
        ("protective", "dug_in", -5, -3),
    ]
]
CHARTS_DATA = {
    "fire": FIRE,
    "terrain_posture": TP,
    "area_range": [  # seed: infantry at 4 → −1; the rest FICTIONAL
        {"firer": "infantry", "from": 0, "to": 2, "shift": 0},
        {"firer": "infantry", "from": 3, "to": 4, "shift": -1},
        {"firer": "infantry", "from": 5, "to": None, "shift": -2},
        {"firer": "low_trajectory", "from": 0, "to": 5, "shift": 0},
        {"firer": "low_trajectory", "from": 6, "to": None, "shift": -1},
        {"firer": "high_trajectory", "from": 0, "to": 20, "shift": 0},
        {"firer": "high_trajectory", "from": 21, "to": None, "shift": -1},
    ],
    "stacking": [  # seed: 6 steps → 0, 8 → +1; the rest FICTIONAL
        {"from": 0, "to": 6, "shift": 0, "unspotted_shift": -1},
        {"from": 7, "to": 8, "shift": 1, "unspotted_shift": 0},
        {"from": 9, "to": None, "shift": 2, "unspotted_shift": 1},
    ],
    "point_range": [  # seed: long 0; FICTIONAL close/nominal
        {"band": "close", "shift": 1},
        {"band": "nominal", "shift": 0},
        {"band": "long", "shift": 0},
    ],
    "differential": [  # seed: +2 → +2, −1 → −2; the rest FICTIONAL
        {"from": None, "to": -2, "shift": -4},
        {"from": -1, "to": -1, "shift": -2},
        {"from": 0, "to": 0, "shift": 0},
        {"from": 1, "to": 1, "shift": 1},
        {"from": 2, "to": None, "shift": 2},
    ],
    "at_roll": [  # seed: protective, one hex → 8; the rest FICTIONAL
        {"terrain": "billiard_table", "in_hex": 6, "one_hex": 5},
        {"terrain": "open", "in_hex": 7, "one_hex": 6},
        {"terrain": "partly_protective", "in_hex": 8, "one_hex": 7},
        {"terrain": "protective", "in_hex": 9, "one_hex": 8},
    ],
}
CHARTS = FireCharts.from_data(CHARTS_DATA)
INF, MG, MORTAR, AT, VEH = (
    FirerKind.INFANTRY,
    FirerKind.MG,
    FirerKind.MORTAR,
    FirerKind.AT_GUN,
    FirerKind.VEHICLE,
)


def dice(*values):
    return EnteredDice(values)


def label(result):
    return CHARTS.fire.columns[result.column].label


# ---------------------------------------------------------------------------------------------
# Firing value


def test_t40_11_1_f_tiger_five_steps_af_25():
    assert firing_value([Firer("tiger", VEH, 5, 5, 2)], Explanation()) == 25


def test_t52_11_3_d_infantry_bonus_from_remaining_steps():
    assert firing_value([Firer("p", INF, 4, 3, 1)], Explanation()) == 6
    assert firing_value([Firer("p", INF, 4, 3, 0)], Explanation()) == 7
    assert firing_value([Firer("p", INF, 4, 3, 2)], Explanation()) == 4


def test_t53_24_4_at_guns_summed_then_rounded_up():
    guns = [Firer(f"at{i}", AT, 3, 1, 3) for i in range(3)]
    assert firing_value(guns, Explanation()) == 5


def test_10_0_b_mortar_halved_after_a_step_loss():
    assert firing_value([Firer("m", MORTAR, 4, 1, 5, max_steps=2)], Explanation()) == 2
    assert firing_value([Firer("m", MORTAR, 4, 2, 5, max_steps=2)], Explanation()) == 4


# ---------------------------------------------------------------------------------------------
# Area fire


def t41_targets():
    return [
        TargetUnit("platoon", 5, posture=Posture.MOVE),
        TargetUnit("halftrack", 1, TargetType.B1, Posture.MOVE, p_defense=1),
        TargetUnit("riders", 5, posture=Posture.MOVE, carried=True),
        TargetUnit("halftrack2", 1, TargetType.B1, Posture.MOVE, p_defense=1),
        TargetUnit("atgun", 1, TargetType.B0, Posture.MOVE, towed=True),
    ]


def test_t41_11_1_f_sfa_column_14_16_roll_65_three_steps():
    firers = [Firer("i1", INF, 4, 5, 4), Firer("i2", INF, 4, 5, 4), Firer("m", MORTAR, 3, 2, 8)]
    r = area_fire(firers, t41_targets(), Terrain.OPEN, CHARTS, dice(65))
    assert label(r) == "14-16" and CHARTS.fire.columns[r.base_column].label == "11-13"
    assert [(s.name, s.value) for s in r.shifts] == [
        ("terrain/posture", 2),
        ("range", -1),
        ("stacking", 0),
    ]
    assert r.result == 3 and r.morale_check
    assert (r.split.first_step, r.split.defender_steps, r.split.attacker_steps) == (
        "platoon",
        1,
        1,
    )


def test_t46_13_0_sfa_af_18_net_minus_2_column_11_13():
    firers = [
        Firer("i1", INF, 4, 5, 3),
        Firer("i2", INF, 4, 5, 4),
        Firer("mg1", MG, 2, 2, 4),
        Firer("mg2", MG, 2, 2, 4),
        Firer("at1", AT, 2, 1, 3),
        Firer("at2", AT, 2, 1, 3),
        Firer("m", MORTAR, 4, 2, 16, max_steps=2),
    ]
    targets = [
        TargetUnit("platoon", 5),
        TargetUnit("mg", 2),
        TargetUnit("atgun", 1, TargetType.B0),
    ]
    r = area_fire(firers, targets, Terrain.PARTLY_PROTECTIVE, CHARTS, dice(11))
    assert CHARTS.fire.columns[r.base_column].label == "17-20"
    assert sum(s.value for s in r.shifts) == -2 and label(r) == "11-13"
    assert r.result == "MC" and r.morale_check and r.steps == 0


def test_11_0_shift_left_of_the_0_column_is_no_effect_without_a_roll():
    firers = [Firer("i", INF, 1, 5, 5)]
    r = area_fire(
        firers, [TargetUnit("p", 5, posture=Posture.DUG_IN)], Terrain.PROTECTIVE, CHARTS, dice()
    )
    assert r.column is None and r.roll is None and r.result == "-" and not r.morale_check
    assert r.odds == {"-": 1}


def test_11_0_shift_right_stops_at_101_plus():
    firers = [Firer("tigers", VEH, 30, 5, 2)]
    r = area_fire(
        firers,
        [TargetUnit("p", 5, posture=Posture.MOVE)],
        Terrain.BILLIARD_TABLE,
        CHARTS,
        dice(11),
        other=[("crossfire", 3)],
    )
    assert label(r) == "101+"


def test_11_3_f_vehicle_with_p_defence_2_gives_minus_2_to_low_trajectory_fire():
    targets = [TargetUnit("p", 5), TargetUnit("tank", 1, TargetType.P, p_defense=3)]
    r = area_fire([Firer("i", INF, 4, 5, 2)], targets, Terrain.OPEN, CHARTS, dice(11))
    assert ("vehicle with P-defence 2+", -2) in [(s.name, s.value) for s in r.shifts]
    r = area_fire([Firer("m", MORTAR, 4, 2, 2)], targets, Terrain.OPEN, CHARTS, dice(11))
    assert "vehicle with P-defence 2+" not in [s.name for s in r.shifts]


def test_7_1_d_unspotted_low_trajectory_uses_the_bold_and_asterisked_values():
    r = area_fire(
        [Firer("i", INF, 4, 5, 2)],
        [TargetUnit("p", 5)],
        Terrain.OPEN,
        CHARTS,
        dice(11),
        spotted=False,
    )
    assert [s.value for s in r.shifts] == [-1, 0, -1]


def test_11_0_missing_chart_value_asks_the_player_before_rolling():
    charts = FireCharts.from_data({"fire": FIRE})
    roller = dice(65)
    with pytest.raises(DecisionRequired) as asked:
        area_fire([Firer("i", INF, 4, 5, 4)], [TargetUnit("p", 5)], Terrain.OPEN, charts, roller)
    assert asked.value.decision.key == "shift:terrain_posture:fire" and roller.remaining == 1
    entered = {"terrain_posture:fire": 0, "range:infantry:4": -1, "stacking": 0}
    r = area_fire(
        [Firer("i", INF, 4, 5, 4)],
        [TargetUnit("p", 5)],
        Terrain.OPEN,
        charts,
        roller,
        entered=entered,
    )
    assert label(r) == "3" and r.result == 1 and r.roll.value == 65


# ---------------------------------------------------------------------------------------------
# Point fire


def test_t43_12_1_b_range_bands():
    assert [range_band(7, d) for d in (4, 5, 7, 8, 14)] == [
        "close",
        "nominal",
        "nominal",
        "long",
        "long",
    ]
    assert [range_band(5, d) for d in (3, 4, 5, 6, 10)] == [
        "close",
        "nominal",
        "nominal",
        "long",
        "long",
    ]
    with pytest.raises(RuleError):
        range_band(7, 15)


def test_t44_12_2_g_panther_column_6_roll_65_one_sherman_66_both():
    panther = [Firer("panther", VEH, 5, 1, 8, printed_range=7)]
    shermans = [TargetUnit("shermans", 2, TargetType.P, p_defense=3)]
    r = point_fire(panther, shermans, Terrain.OPEN, CHARTS, dice(65))
    assert label(r) == "6" and [s.value for s in r.shifts] == [0, 0, 2]
    assert r.steps == 1 and not r.morale_check
    assert point_fire(panther, shermans, Terrain.OPEN, CHARTS, dice(66)).steps == 2


def test_t45_12_2_g_sherman_differential_minus_1_two_left_62_misses_63_kills():
    sherman = [Firer("sherman", VEH, 3, 1, 8, printed_range=7)]
    panther = [TargetUnit("panther", 1, TargetType.P, p_defense=4)]
    miss = point_fire(sherman, panther, Terrain.OPEN, CHARTS, dice(62))
    assert label(miss) == "2" and miss.steps == 0
    assert point_fire(sherman, panther, Terrain.OPEN, CHARTS, dice(63)).steps == 1


def test_t42_12_1_a_only_the_selected_targets_give_the_posture():
    gun = [TargetUnit("atgun", 1, TargetType.B0, Posture.DUG_IN)]
    r = point_fire([Firer("t", VEH, 3, 1, 2, printed_range=7)], gun, Terrain.OPEN, CHARTS, dice(11))
    assert r.shifts[0].value == -1  # open, dug in (fictional point value)


# ---------------------------------------------------------------------------------------------
# AT rolls


def test_t50_16_1_two_steps_vs_five_tanks_protective_smoke_9_and_4():
    r = at_rolls(2, 5, Terrain.PROTECTIVE, 1, CHARTS, dice(9, 4), modifiers=[("smoke", 1)])
    assert (r.needed, r.modifier, len(r.rolls), r.kills, r.attacker_losses) == (8, 1, 2, 1, 0)
    assert r.p_kill == Fraction(21, 36)  # 7+ on 2d6


def test_t49_16_0_five_steps_vs_four_target_steps_four_rolls():
    assert len(at_rolls(5, 4, Terrain.OPEN, 0, CHARTS, dice(7, 7, 7, 7)).rolls) == 4


def test_t51_16_1_e_unmodified_3_or_less_destroys_the_attacking_step():
    r = at_rolls(2, 2, Terrain.OPEN, 1, CHARTS, dice(3, 2))
    assert r.attacker_losses == 2 and r.p_attacker_loss == Fraction(3, 36)


def test_16_1_d_at_rolls_reach_one_hex():
    with pytest.raises(RuleError):
        at_rolls(2, 2, Terrain.OPEN, 2, CHARTS, dice(7))


# ---------------------------------------------------------------------------------------------
# Charts as data


def test_fire_table_names_bad_cells_in_words():
    bad = {**FIRE, "rows": [{**FIRE["rows"][0], "cells": ["x", *FIRE["rows"][0]["cells"][1:]]}]}
    with pytest.raises(TableDataError) as err:
        FireTable.from_data(bad)
    assert "Fire Table, row 1: cells 1: a cell is" in str(err.value)
    with pytest.raises(TableDataError) as err:
        FireTable.from_data({**FIRE, "rows": FIRE["rows"][:1]})
    assert "no row for rolls 41, 42" in str(err.value)


def test_fire_table_columns_must_run_on_without_gaps():
    with pytest.raises(TableDataError) as err:
        FireTable.from_data({**FIRE, "columns": ["0", "2", *LABELS[2:]]})
    assert "starts one above" in str(err.value)


def test_fire_table_from_csv_matches_the_data():
    lines = ["rolls," + ",".join(LABELS), "p_firers,,,,,1,2,3" + "," * 12]
    lines += [r["rolls"] + "," + ",".join(map(str, r["cells"])) for r in FIRE["rows"]]
    table = FireTable.from_csv("\n".join(lines))
    assert table == CHARTS.fire


def test_at_roll_table_rejects_an_impossible_value():
    with pytest.raises(TableDataError) as err:
        FireCharts.from_data({"fire": FIRE, "at_roll": [{"terrain": "open", "in_hex": 14}]})
    assert "In-hex" in str(err.value)


def test_parse_band():
    assert [parse_band(t) for t in ("4", "11-13", "101+", "13-11", "x")] == [
        (4, 4),
        (11, 13),
        (101, None),
        None,
        None,
    ]


# ---------------------------------------------------------------------------------------------
# Odds and properties


@pytest.mark.parametrize("column", range(len(LABELS)))
def test_odds_match_brute_force_over_36_rolls(column):
    counts = {}
    for red in range(1, 7):
        for white in range(1, 7):
            cell = CHARTS.fire.cell(column, 10 * red + white)
            counts[cell] = counts.get(cell, 0) + 1
    assert odds(CHARTS.fire, column) == {k: Fraction(v, 36) for k, v in counts.items()}
    assert sum(odds(CHARTS.fire, column).values()) == 1


@given(st.integers(0, 300), st.integers(-30, 30))
def test_11_0_a_shift_never_leaves_the_table_and_columns_rise_with_firing_value(af, net):
    table = CHARTS.fire
    base = table.column_for(af)
    assert table.column_for(af + 1) >= base
    r = area_fire(
        [Firer("g", FirerKind.ARTILLERY, af, 1, 1)],
        [TargetUnit("p", 6)],
        Terrain.OPEN,
        CHARTS,
        dice(11),
        entered={"terrain_posture:fire": net, "range:high_trajectory:1": 0, "stacking": 0},
    )
    if base + net < 0:
        assert r.column is None and r.result == "-"
    else:
        assert r.column == min(base + net, len(table.columns) - 1)
        assert r.result in {c for _, _, cells in table.rows for c in cells}


# ---------------------------------------------------------------------------------------------
# Who may fire [13–16]


def test_13_1_sfa_marks_every_firer_fired_and_opens_overwatch_on_their_hexes():
    action = check_sfa([FirerState("i1", INF, "10.10"), FirerState("mg", MG, "11.10")])
    assert action.fired_markers == ("i1", "mg") and action.overwatch_hexes == ("10.10", "11.10")


def test_13_1_sfa_refusals_name_each_unit_and_rule():
    firers = [
        FirerState("i1", INF, fired_marker=True),
        FirerState("i2", INF, unassigned=True),
        FirerState("p", INF, paralyzed=True),
        FirerState("ok", INF),
    ]
    with pytest.raises(RuleError) as err:
        check_sfa(firers)
    text = str(err.value)
    assert "i1 [13.1.b]" in text and "i2 [13.1.c]" in text and "p [9.1.d]" in text
    assert "ok" not in text
    with pytest.raises(RuleError, match=r"\[13\.1\.h\]"):
        check_sfa([FirerState("ok", INF)], hex_already_hit=True)


def test_16_1_g_at_roll_only_sfa_places_no_fired_marker_and_ignores_the_hex_limit():
    action = check_sfa([FirerState("i", INF)], hex_already_hit=True, at_rolls_only=True)
    assert action.fired_markers == ()


def test_14_1_pfa_limits():
    assert check_pfa([FirerState("t", VEH, "5.05", pfas=2)]).fired_markers == ()
    with pytest.raises(RuleError, match=r"\[14\.1\.c\]"):
        check_pfa([FirerState("t", VEH, pfas=3)])
    with pytest.raises(RuleError, match=r"\[14\.1\.a\]"):
        check_pfa([FirerState("t", VEH)], targets_spotted=False)


def test_15_3_fired_units_overwatch_at_range_1_only_mgs_exempt():
    fired = [FirerState("i", INF, "1.01", fired_marker=True)]
    with pytest.raises(RuleError, match=r"\[15\.3\.b\]"):
        check_overwatch(fired, EventKind.MOVEMENT, distance=2)
    check_overwatch(fired, EventKind.MOVEMENT, distance=1)
    check_overwatch(fired, EventKind.RECOVERY, distance=5)
    check_overwatch([FirerState("mg", MG, fired_marker=True)], EventKind.FIRE, distance=6)
    with pytest.raises(RuleError, match=r"\[15\.3\.a\]"):
        check_overwatch([FirerState("s", INF, suppressed=True)], EventKind.FIRE, distance=1)
    with pytest.raises(RuleError, match=r"\[15\.0\]"):
        check_overwatch(
            [FirerState("a", INF, "1.01"), FirerState("b", INF, "1.02")], EventKind.FIRE, distance=1
        )


def test_16_1_a_at_roll_eligibility():
    check_at_rolls([FirerState("i", INF)], distance=1)
    check_at_rolls([FirerState("p", INF, paralyzed=True)], distance=0, in_assault=True)
    with pytest.raises(RuleError, match=r"\[16\.1\.a\]"):
        check_at_rolls([FirerState("p", INF, paralyzed=True)], distance=0, in_overrun=True)
    with pytest.raises(RuleError, match=r"\[16\.1\.a\]"):
        check_at_rolls([FirerState("m", INF, mounted=True)], distance=1)


def test_11_0_without_dice_only_the_column_and_its_odds():
    firers = [Firer("i1", INF, 4, 5, 4), Firer("i2", INF, 4, 5, 4), Firer("m", MORTAR, 3, 2, 8)]
    r = area_fire(firers, t41_targets(), Terrain.OPEN, CHARTS, None)
    assert label(r) == "14-16" and r.roll is None and r.result is None and not r.morale_check
    assert r.odds[3] == Fraction(1, 36) and sum(r.odds.values()) == 1


def test_11_1_a_e_area_fire_range_limits():
    firing_value([Firer("t", VEH, 5, 1, 14, printed_range=7, p_firer=True)], Explanation())
    with pytest.raises(RuleError, match=r"\[11\.1\.e\]"):
        firing_value([Firer("t", VEH, 5, 1, 15, printed_range=7, p_firer=True)], Explanation())
    with pytest.raises(RuleError, match=r"\[11\.1\.a\]"):
        firing_value([Firer("i", INF, 4, 5, 9, printed_range=8)], Explanation())


def test_11_3_e_overlapping_stacking_rows_are_named():
    rows = [{"from": 0, "to": 6, "shift": 0}, {"from": 6, "to": None, "shift": 1}]
    with pytest.raises(TableDataError) as err:
        FireCharts.from_data({"fire": FIRE, "stacking": rows})
    assert "stacking modifiers, row 2: overlaps row 1" in str(err.value)


def test_16_0_at_roll_table_from_csv():
    text = "terrain,in_hex,one_hex\nprotective,9,8\nopen,,6\n"
    charts = FireCharts.from_data({"fire": FIRE, "at_roll": at_roll_table_from_csv(text)})
    assert charts.at_roll[Terrain.PROTECTIVE] == {0: 9, 1: 8}
    assert charts.at_roll[Terrain.OPEN] == {0: None, 1: 6}

"""The counter table [3, 3.1, 3.1.6, 11.4, 11.5]: validation from data and CSV, look-ups.

Every value below is FICTIONAL TEST DATA: the seed prints no counter values, so a battle's
table is entered by its players from their counters and player aids.
"""

from __future__ import annotations

import json

import pytest

from rules.cc.battle import counters as ct
from rules.cc.battle.counters import CounterTable, PrintedValues, WeaponType
from rules.cc.battle.units import FIGURES, UnitKind
from rules.errors import RuleError, TableDataError
from rules.serial import from_data, to_data

# FICTIONAL TEST DATA — not the values of any real counter
UNITS_CSV = """\
nationality,name,kind,vp,fp,range,move,morale,command,boxed,broken_fp,broken_range,broken_move,broken_morale,broken_command,broken_boxed
Testland,Test Squad,squad,2,5,5,4,8,,fp,3,4,4,7,,
Testland,Test Team,team,1,3,4,5,7,,,2,3,5,6,,
Testland,Sgt. Fiction,leader,1,1,1,6,9,2,move,0,1,6,7,1,
"""
WEAPONS_CSV = """\
nationality,name,fp,range,move,boxed,artillery,smoke,fix,elim
Testland,Test MG,6,8,-1,range,no,no,1-2,3
Testland,Test Mortar,4,2-12,-2,,yes,yes,1,2-3
"""
TABLE = ct.table_from_csv(UNITS_CSV, WEAPONS_CSV)


def test_3_1_values_of_each_side_of_a_counter():
    assert ct.unit_values(TABLE, "Testland", "Test Squad") == PrintedValues(
        5, 5, 4, 8, None, frozenset({"fp"})
    )
    assert ct.unit_values(TABLE, "Testland", "Test Squad", broken=True) == PrintedValues(3, 4, 4, 7)
    leader = ct.unit_values(TABLE, "Testland", "Sgt. Fiction", broken=True)
    assert (leader.command, leader.fp) == (1, 0)
    assert ct.unit_type(TABLE, "Testland", "Test Squad").vp == 2


def test_3_figures_come_from_the_kind():
    assert [u.figures for u in TABLE.units] == [4, 2, 1]
    assert FIGURES[UnitKind.HERO] == 1


def test_11_weapon_values_range_span_fix_and_elim():
    mortar = ct.weapon_values(TABLE, "Testland", "Test Mortar")
    assert (mortar.range_min, mortar.range_max, mortar.artillery, mortar.smoke) == (
        2,
        12,
        True,
        True,
    )
    assert (mortar.fix, mortar.elim) == ((1, 1), (2, 3))
    mg = ct.weapon_values(TABLE, "Testland", "Test MG")
    assert mg == WeaponType(
        "Testland", "Test MG", 6, 8, -1, 0, frozenset({"range"}), False, False, (1, 2), (3, 3)
    )


def test_3_1_a_unit_not_in_the_table_is_named_in_the_error():
    with pytest.raises(RuleError, match="no Testland unit called Rifle Squad") as err:
        ct.unit_values(TABLE, "Testland", "Rifle Squad")
    assert err.value.rule == "3.1"
    with pytest.raises(RuleError, match="no Otherland Weapon called Test MG"):
        ct.weapon_values(TABLE, "Otherland", "Test MG")


def test_3_1_the_same_table_from_json_data_with_numbers():
    data = {
        "units": [
            {
                "nationality": "Testland",
                "name": "Data Squad",
                "kind": "squad",
                "vp": 2,
                "fp": 4,
                "range": 6,
                "move": 4,
                "morale": 7,
                "boxed": ["range"],
                "broken_fp": 2,
                "broken_range": 5,
                "broken_move": 4,
                "broken_morale": 6,
            }
        ],
        "weapons": [
            {
                "nationality": "Testland",
                "name": "W",
                "fp": 4,
                "range": [1, 9],
                "move": 0,
                "smoke": True,
            }
        ],
    }
    table = ct.table_from_data(json.loads(json.dumps(data)))
    assert table.units[0].good.boxed == frozenset({"range"})
    assert table.weapons[0].range_min == 1 and table.weapons[0].smoke


def test_3_1_every_problem_is_reported_at_once_in_words():
    bad = UNITS_CSV.replace("Test Team,team,1,3,4,5,7", "Test Team,team,1,3,4,5,13").replace(
        "Sgt. Fiction,leader,1,1,1,6,9,2", "Sgt. Fiction,leader,1,1,1,6,9,"
    )
    bad += "Testland,Odd,platoon,x,5,5,4,8,3,fp wings,3,4,4,7,,\nTestland,Test Squad,squad,2,5,5,4,8,,,3,4,4,7,,\n"
    with pytest.raises(TableDataError) as err:
        ct.table_from_csv(bad)
    problems = [(str(path), str(text)) for path, text in err.value.problems]
    assert problems == [
        ("Testland, row 2 (Test Team)", "Morale: enter a whole number from 1 to 12"),
        ("Testland, row 3 (Sgt. Fiction)", "Command: a Leader has a Command value; enter it"),
        ("Testland, row 4 (Odd)", "Kind: enter squad, team, leader or hero"),
        ("Testland, row 4 (Odd)", "VP value: enter a whole number from 0 to 30"),
        ("Testland, row 4 (Odd)", "Boxed values: list any of fp, range, move"),
        ("Testland, row 5 (Test Squad)", "this name is already in the table"),
    ]
    assert err.value.rule == "3.1"
    assert "Testland, row 2 (Test Team): Morale: enter a whole number from 1 to 12" in str(
        err.value
    )


def test_3_1_5_only_leaders_have_a_command_value():
    bad = UNITS_CSV.replace("Test Squad,squad,2,5,5,4,8,,", "Test Squad,squad,2,5,5,4,8,1,")
    with pytest.raises(TableDataError, match="only Leaders have a Command value"):
        ct.table_from_csv(bad)


@pytest.mark.parametrize(
    ("row", "text"),
    [
        (
            "Testland,W,6,12-2,0,,no,no,,",
            "Range: enter a number or a span such as 2-5, from 0 to 30",
        ),
        ("Testland,W,6,8,0,,maybe,no,,", "White band (Artillery): enter yes or no"),
        (
            "Testland,W,6,8,0,,no,no,1-3,3",
            "Fix and Elim: a random-hex number cannot both repair and eliminate",
        ),
        ("Testland,W,6,8,9,,no,no,,", "Movement: enter a whole number from -6 to 6"),
        (",W,6,8,0,,no,no,,", "Nationality: enter it as printed"),
    ],
)
def test_11_4_weapon_rows_are_checked(row, text):
    with pytest.raises(TableDataError) as err:
        ct.table_from_csv(UNITS_CSV, WEAPONS_CSV + row + "\n")
    assert [str(t) for _, t in err.value.problems] == [text]


def test_3_1_a_table_that_is_not_lists_is_refused():
    with pytest.raises(TableDataError, match="lists of units and weapons"):
        ct.table_from_data({"units": "none"})


def test_serial_round_trip_of_the_table():
    assert from_data(CounterTable, json.loads(json.dumps(to_data(TABLE)))) == TABLE

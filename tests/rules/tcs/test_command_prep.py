"""Command Prep Table implementation [6.9.f], preliminary instructions [6.14.a] and units added
to implemented sheets [6.13.c]: digest cases T19–T21.

Only the cells the seed's examples give are used: Attack, key 5, columns 22 → 52 and 28 → 45
[6.9.f example]; Move, key 3, column 8 → 44 [6.14.a example]. The Attack cell for key 3 at
9 weighted turns (55) is entered by the player, as its column is not named in the seed.
"""

import pytest

from rules.errors import RuleError, TableDataError
from rules.explain import DecisionRequired
from rules.tcs.additions import add_units
from rules.tcs.clock import Turn
from rules.tcs.command_prep import (
    COMMAND_PREP_SCHEMA,
    AttemptMode,
    CommandPrepTable,
    PrepOutcome,
    attempt_implementation,
)
from rules.tcs.opsheet import OpSheetType, SheetStatus, draw_sheet
from rules.tcs.options import KeyOffTable, TcsOptions
from rules.tcs.weighted_turns import accumulate_weighted_turns

from .helpers import battalion, dice, oob_of, tank_battalion, units_of

A, MV, HD = OpSheetType.ATTACK, OpSheetType.MOVE, OpSheetType.HASTY_DEFENSE
SEED_CELLS = [
    {"type": "attack", "columns": [22, 28], "rows": {"5": [52, 45]}},
    {"type": "move", "columns": [8], "rows": {"3": [44]}},
]
TABLE = CommandPrepTable.from_data(SEED_CELLS)
DAY = Turn(1, 10 * 60)


def regiment_sheet():
    oob = oob_of(battalion("1-123"), battalion("2-123"), battalion("3-123"))
    listed = units_of("1-123", oob) + units_of("2-123", oob) + units_of("3-123", oob)
    return oob, draw_sheet("Regt", dict.fromkeys(listed, A), oob, [], rating=3).sheet


def test_t19_t20_6_9_f_regiment_attack_sheet_52_then_45():
    oob, sheet = regiment_sheet()
    for _ in range(9):  # out of contact, all unassigned, daylight: 3 a turn
        accumulate_weighted_turns(sheet, oob, [sheet], DAY)
    assert (sheet.weighted_turns, sheet.size) == (27, 2)
    first = attempt_implementation(sheet, [sheet], rating=3, dice=dice(43), table=TABLE)
    assert first.thresholds[A].column == 22 and first.thresholds[A].value == 52
    assert first.outcome is PrepOutcome.NOT_IMPLEMENTED
    assert sheet.status is SheetStatus.UNIMPLEMENTED
    accumulate_weighted_turns(sheet, oob, [sheet], DAY)
    assert sheet.weighted_turns == 30
    second = attempt_implementation(sheet, [sheet], rating=3, dice=dice(61), table=TABLE)
    assert second.thresholds[A].value == 45
    assert second.outcome is PrepOutcome.IMPLEMENTED and sheet.status is SheetStatus.IMPLEMENTED
    assert second.roll.value == 61 and second.explanation.rolls == [second.roll]


@pytest.mark.parametrize(
    ("mode", "roll", "outcome"),
    [
        # T21: full attempt, 46 < 55 on Attack but ≥ 44 on Move → prelims start
        (AttemptMode.FULL, 46, PrepOutcome.PRELIMS_STARTED),
        (AttemptMode.FULL, 55, PrepOutcome.IMPLEMENTED),
        (AttemptMode.FULL, 43, PrepOutcome.NOT_IMPLEMENTED),
        (AttemptMode.PRELIMS_ONLY, 44, PrepOutcome.PRELIMS_STARTED),
        (AttemptMode.PRELIMS_ONLY, 66, PrepOutcome.PRELIMS_STARTED),
    ],
)
def test_t21_6_14_a_sherman_prelims_through_the_move_row(mode, roll, outcome):
    oob = oob_of(tank_battalion("Sherman"))
    sheet = draw_sheet(
        "S",
        dict.fromkeys(units_of("Sherman", oob), A),
        oob,
        [],
        rating=3,
        preliminary_instructions=True,
    ).sheet
    accumulate_weighted_turns(sheet, oob, [sheet], DAY)
    assert (sheet.size, sheet.weighted_turns) == (0, 9)
    result = attempt_implementation(
        sheet, [sheet], rating=3, dice=dice(roll), mode=mode, table=TABLE, entered={A: 55}
    )
    assert result.outcome is outcome
    assert result.thresholds[MV].column == 8 and result.thresholds[MV].value == 44
    expected = {
        PrepOutcome.PRELIMS_STARTED: SheetStatus.PRELIMS_ACTIVE,
        PrepOutcome.IMPLEMENTED: SheetStatus.IMPLEMENTED,
        PrepOutcome.NOT_IMPLEMENTED: SheetStatus.UNIMPLEMENTED,
    }
    assert sheet.status is expected[outcome]


def test_6_14_a_prelims_active_sheet_rolls_only_its_own_row():
    oob = oob_of(tank_battalion("Sherman"))
    sheet = draw_sheet(
        "S",
        dict.fromkeys(units_of("Sherman", oob), A),
        oob,
        [],
        rating=3,
        preliminary_instructions=True,
    ).sheet
    sheet.weighted_turns = 9
    attempt_implementation(sheet, [sheet], rating=3, dice=dice(46), entered={A: 55, MV: 44})
    with pytest.raises(RuleError, match="no preliminary"):
        attempt_implementation(
            sheet, [sheet], rating=3, dice=dice(46), mode=AttemptMode.PRELIMS_ONLY, entered={}
        )
    again = attempt_implementation(sheet, [sheet], rating=3, dice=dice(56), entered={A: 55})
    assert set(again.thresholds) == {A} and sheet.status is SheetStatus.IMPLEMENTED


def test_6_9_f_missing_threshold_asks_the_player_before_rolling():
    _oob, sheet = regiment_sheet()
    sheet.weighted_turns = 27
    rolls = dice(61)
    with pytest.raises(DecisionRequired) as asked:
        attempt_implementation(sheet, [sheet], rating=3, dice=rolls)
    decision = asked.value.decision
    assert decision.rule == "6.9.f" and decision.key == "threshold:attack"
    assert 11 in decision.options and 66 in decision.options and 17 not in decision.options
    assert rolls.remaining == 1
    answered = attempt_implementation(sheet, [sheet], rating=3, dice=rolls, entered={A: 52})
    assert answered.outcome is PrepOutcome.IMPLEMENTED
    assert answered.thresholds[A].source == "entered"


def test_6_9_f_entered_threshold_must_be_a_d66_reading():
    _, sheet = regiment_sheet()
    with pytest.raises(RuleError) as err:
        attempt_implementation(sheet, [sheet], rating=3, dice=dice(61), entered={A: 17})
    assert err.value.rule == "6.9.f"


def test_6_9_f_weighted_turns_below_the_first_column_cannot_implement():
    _, sheet = regiment_sheet()
    sheet.weighted_turns = 21
    rolls = dice(66)
    result = attempt_implementation(sheet, [sheet], rating=3, dice=rolls, table=TABLE)
    assert result.outcome is PrepOutcome.NOT_IMPLEMENTED and result.roll is None
    assert rolls.remaining == 1


def test_6_9_f_ambiguity_36_key_off_the_table():
    _, sheet = regiment_sheet()  # key 4 + 2 = 6: the test table only has row 5
    sheet.weighted_turns = 30
    result = attempt_implementation(sheet, [sheet], rating=4, dice=dice(45), table=TABLE)
    assert result.thresholds[A].value == 45 and result.outcome is PrepOutcome.IMPLEMENTED
    strict = TcsOptions(key_off_table=KeyOffTable.ERROR)
    sheet.status = SheetStatus.UNIMPLEMENTED
    with pytest.raises(RuleError, match="no row 6"):
        attempt_implementation(sheet, [sheet], rating=4, dice=dice(45), table=TABLE, options=strict)


def test_6_9_f_implementation_strikes_units_from_older_sheets():
    oob = oob_of(battalion("1-123"))
    units = units_of("1-123", oob)
    old = draw_sheet("old", dict.fromkeys(units, HD), oob, [], rating=3, pregame=True).sheet
    new = draw_sheet("new", dict.fromkeys(units, A), oob, [old], rating=3).sheet
    result = attempt_implementation(new, [old, new], rating=3, dice=dice(51), entered={A: 51})
    assert result.released == {"old": tuple(units)}
    assert old.active_units == [] and old.discardable


def test_6_9_f_command_prep_schema_reports_every_problem():
    bad = [
        {"type": "attack", "columns": [28, 22], "rows": {"5": [52, 45]}},
        {"type": "move", "columns": [8], "rows": {"3": [44, 40]}},
        {"type": "hasty_defense", "columns": [0], "rows": {"x": [44]}},
        {"type": "prepared_defense", "columns": [0, 4], "rows": {"3": [17, 70]}},
        {"type": "assault", "columns": [0], "rows": {"3": [11]}},
        {"type": "attack", "columns": [0], "rows": {"3": [11]}},
    ]
    problems = COMMAND_PREP_SCHEMA.validate(bad)
    paths = [str(p) for p, _ in problems]
    rows = [f"Command Prep Table, row {n}" for n in range(1, 7)]
    assert paths == [*rows[:4], f"{rows[4]}, op sheet type", f"{rows[5]}, op sheet type"]
    assert str(problems[0][1]) == "the column headings go up from 0, each different"
    assert str(problems[1][1]) == "row 3: give one threshold per column (1)"
    assert str(problems[4][1]).startswith("choose one of: prepared_defense, attack")
    assert str(problems[5][1]) == "attack appears twice"
    with pytest.raises(TableDataError):
        CommandPrepTable.from_data(bad)


def test_6_9_f_command_prep_table_round_trips_and_allows_blank_cells():
    data = [{"type": "attack", "columns": [0, 22], "rows": {"5": [None, 52]}}]
    table = CommandPrepTable.from_data(data)
    assert table.to_data() == data
    assert CommandPrepTable.from_data(TABLE.to_data()) == TABLE


def test_6_13_c_added_units_have_their_own_size_weighted_turns_and_roll():
    oob = oob_of(battalion("1-123"), battalion("2-123"))
    host = draw_sheet(
        "H", dict.fromkeys(units_of("1-123", oob), A), oob, [], rating=3, pregame=True
    ).sheet
    added = ["2-123/1", "2-123/2", "2-123/3"]
    result = add_units(host, dict.fromkeys(added, A), oob, [host], addition_id="B")
    addition = host.additions[0]
    assert (addition.raw_size, addition.size, addition.row) == (1, 1, A)
    assert result.size.size == 1
    acc = accumulate_weighted_turns(host, oob, [host], DAY)
    # the added units are all unassigned (not yet acting under H), daylight → 3 [6.9.d]
    assert [c.counter for c in acc.counters] == ["H/B"] and addition.weighted_turns == 3
    assert host.acting_mission("2-123/1") is None
    outcome = attempt_implementation(
        host, [host], rating=3, dice=dice(41), entered={A: 41}, addition_id="B"
    )
    assert outcome.outcome is PrepOutcome.IMPLEMENTED
    assert host.acting_mission("2-123/1") is A and not host.pending_additions


def test_6_13_c_vehicles_only_join_vehicle_sheets():
    oob = oob_of(battalion("1-123"), tank_battalion("A-58"))
    host = draw_sheet(
        "H", dict.fromkeys(units_of("1-123", oob), A), oob, [], rating=3, pregame=True
    ).sheet
    with pytest.raises(RuleError) as err:
        add_units(host, {"A-58/1": A}, oob, [host], addition_id="T")
    assert err.value.rule == "6.13.c"
    lenient = TcsOptions(vehicles_only_join_vehicle_sheets=False)
    add_units(host, {"A-58/1": A}, oob, [host], addition_id="T", options=lenient)
    assert host.additions[0].units == ("A-58/1",)

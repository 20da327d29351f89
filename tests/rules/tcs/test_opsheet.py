"""Op sheet types and priority [6.6], assignment limits [6.7.c: T25], the state machine
[6.8–6.13] and JSON round-trips of the state."""

import json

import pytest

from rules.errors import RuleError
from rules.explain import Explanation
from rules.tcs.additions import add_units
from rules.tcs.clock import Phase
from rules.tcs.command_prep import attempt_implementation
from rules.tcs.opsheet import (
    C2Status,
    EntryStatus,
    OpSheet,
    OpSheetType,
    SheetStatus,
    c2_status,
    categorise,
    check_assignment,
    draw_sheet,
)
from rules.tcs.reserves import commit_reserves, roll_check
from rules.tcs.transitions import (
    declare_failure,
    declare_success,
    eliminate,
    start_prelims,
    strike_units,
)
from rules.tcs.units import OrderOfBattle

from .helpers import battalion, dice, oob_of, units_of

PD, A, HD, MV = list(OpSheetType)
OOB = oob_of(battalion("1-123"), battalion("2-123"))
BN1 = units_of("1-123", OOB)


def draw(sheet_id, units, kind, sheets=(), **kw):
    kw.setdefault("rating", 3)
    return draw_sheet(sheet_id, dict.fromkeys(units, kind), OOB, list(sheets), **kw).sheet


@pytest.mark.parametrize(
    ("missions", "category"),
    [
        ([MV, HD], HD),
        ([HD, A, MV], A),
        ([A, PD], PD),
        ([MV], MV),
    ],
)
def test_6_6_sheet_takes_its_highest_priority_mission(missions, category):
    assert categorise(missions) is category


def test_6_6_multi_mission_sheet_is_categorised_on_draw():
    missions = {u: (A if i < 6 else HD) for i, u in enumerate(BN1)}
    sheet = draw_sheet("S", missions, OOB, [], rating=3).sheet
    assert sheet.type is A and sheet.missions == {A, HD}


def test_t25_6_7_c_two_sheets_at_most():
    imp = draw("imp", BN1, HD, pregame=True)
    unimp = draw("unimp", BN1, A, [imp])
    with pytest.raises(RuleError) as err:
        draw("third", BN1[:1], MV, [imp, unimp])
    assert err.value.rule == "6.7.c"


def test_t25_6_7_c_no_two_unimplemented_sheets_of_one_type():
    hasty = draw("hasty", BN1, HD)
    draw("prepared", BN1, PD, [hasty])  # Hasty and Prepared Defense are different types
    with pytest.raises(RuleError, match="two unimplemented hasty_defense"):
        draw("hasty2", BN1[:1], HD, [hasty])


def test_6_7_c_two_implemented_sheets_are_never_allowed():
    first = draw("first", BN1, HD, pregame=True)
    with pytest.raises(RuleError, match="two implemented"):
        draw("second", BN1[:1], A, [first], pregame=True)


def test_6_7_c_closed_sheets_do_not_count():
    imp = draw("imp", BN1, HD, pregame=True)
    unimp = draw("unimp", BN1, A, [imp])
    declare_success(imp, Phase.COMMAND)
    check_assignment(BN1[0], MV, [imp, unimp])


def test_6_8_pregame_sheets_start_implemented_and_others_unimplemented():
    assert draw("p", BN1, A, pregame=True).status is SheetStatus.IMPLEMENTED
    assert draw("n", BN1, A).status is SheetStatus.UNIMPLEMENTED


def test_6_8_old_sheet_keeps_control_until_the_new_one_starts():
    old = draw("old", BN1, HD, pregame=True)
    new = draw("new", BN1, A, [old], preliminary_instructions=True)
    assert c2_status(BN1[0], [old, new]) is C2Status.ASSIGNED
    assert old.acting_mission(BN1[0]) is HD
    start_prelims(new, [old, new], Explanation())
    assert old.entry(BN1[0]).status is EntryStatus.REASSIGNED  # 6.13.a
    assert c2_status(BN1[0], [old, new]) is C2Status.PRELIMS


def test_6_11_a_success_only_in_the_command_phase_and_rally_points_kept():
    sheet = draw("s", BN1, A, pregame=True)
    with pytest.raises(RuleError) as err:
        declare_success(sheet, Phase.OWN_ACTION)
    assert err.value.rule == "6.11.a"
    declare_success(sheet, Phase.COMMAND)
    assert sheet.status is SheetStatus.SUCCEEDED and not sheet.discardable
    assert c2_status(BN1[0], [sheet]) is C2Status.UNASSIGNED
    nxt = draw("next", BN1, HD, [sheet])
    attempt_implementation(nxt, [sheet, nxt], rating=3, dice=dice(66), entered={HD: 11})
    assert sheet.discardable  # 6.11.a: struck once on another implemented sheet


def test_6_11_b_failure_only_in_own_action_phase():
    sheet = draw("s", BN1, A, pregame=True)
    for phase in (Phase.COMMAND, Phase.ENEMY_ACTION, Phase.AIR_ARTILLERY):
        with pytest.raises(RuleError):
            declare_failure(sheet, phase)
    result = declare_failure(sheet, Phase.OWN_ACTION)
    assert sheet.status is SheetStatus.FAILED and set(result.units) == set(BN1)


def test_6_11_d_6_13_a_partial_success_and_failure():
    sheet = draw("s", BN1, HD, pregame=True)
    declare_failure(sheet, Phase.OWN_ACTION, BN1[:3])
    declare_success(sheet, Phase.COMMAND, BN1[3:6])
    assert sheet.status is SheetStatus.IMPLEMENTED
    assert [sheet.entry(u).status for u in BN1[2:4]] == [EntryStatus.FAILED, EntryStatus.SUCCEEDED]
    assert sheet.active_units == BN1[6:]
    declare_success(sheet, Phase.COMMAND, BN1[6:])
    assert sheet.status is SheetStatus.SUCCEEDED


def test_6_13_b_striking_keeps_size_and_weighted_turns():
    sheet = draw("s", BN1 + units_of("2-123", OOB), A)
    sheet.weighted_turns = 12
    strike_units(sheet, units_of("2-123", OOB))
    assert (sheet.size, sheet.raw_size, sheet.weighted_turns) == (1, 2, 12)
    implemented = draw("i", units_of("2-123", OOB), A, pregame=True)
    with pytest.raises(RuleError):
        strike_units(implemented, units_of("2-123", OOB)[:1])


def test_6_14_b_reserves_are_prelims_until_their_check_passes():
    sheet = draw_sheet(
        "s", dict.fromkeys(BN1[:5], HD), OOB, [], rating=3, reserves=BN1[5:], pregame=True
    ).sheet
    assert sheet.type is A  # ambiguity 10: reserves hold an Attack order
    assert c2_status(BN1[6], [sheet]) is C2Status.PRELIMS
    commit_reserves(sheet, "g1", BN1[5:7], A, rating=3)
    assert c2_status(BN1[6], [sheet]) is C2Status.PRELIMS
    roll_check(sheet, "g1", rating=3, dice=dice(4))
    assert sheet.acting_mission(BN1[6]) is A


def test_10_0_c_eliminated_units_leave_sheets_and_additions():
    oob = OOB
    host = draw("h", BN1, A, pregame=True)
    add_units(host, {"2-123/1": A}, oob, [host], addition_id="x")
    eliminate(BN1[0], [host])
    eliminate("2-123/1", [host])
    assert host.entry(BN1[0]).status is EntryStatus.ELIMINATED
    assert host.additions[0].units == ()


def test_6_5_op_sheet_state_round_trips_through_json():
    old = draw("old", BN1, HD, pregame=True)
    sheet = draw_sheet(
        "s",
        dict.fromkeys(BN1[:5], A),
        OOB,
        [old],
        rating=3,
        reserves=BN1[5:],
        alternatives={"maple": BN1[:2]},
        preliminary_instructions=True,
    ).sheet
    attempt_implementation(sheet, [old, sheet], rating=3, dice=dice(66), entered={A: 11, MV: 11})
    commit_reserves(sheet, "g1", BN1[5:6], HD, rating=3)
    roll_check(sheet, "g1", rating=3, dice=dice(2))
    add_units(
        sheet, dict.fromkeys(units_of("2-123", OOB)[:2], A), OOB, [old, sheet], addition_id="b"
    )
    for state in (old, sheet):
        data = json.loads(json.dumps(state.to_dict()))
        assert OpSheet.from_dict(data) == state
    assert OrderOfBattle.from_dict(json.loads(json.dumps(OOB.to_dict()))) == OOB

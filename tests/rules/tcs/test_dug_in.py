"""Losing Dug In [6.16.c-d], reinforcements entering [27.2.b] and a battalion loss taken
back off the box when steps are given back (digest T26, T65 in reverse)."""

import pytest

from rules.errors import RuleError
from rules.explain import Explanation
from rules.tcs.clock import Phase
from rules.tcs.morale import BattalionMorale, battalion_loss_undone, record_loss
from rules.tcs.opsheet import OpSheetType, SheetStatus, draw_sheet
from rules.tcs.prepared_defense import dug_in_losses, keeps_dug_in, prepared_defense
from rules.tcs.transitions import declare_failure, may_enter, release_elsewhere, strike_units

from .helpers import HW, INF, VEH, battalion, oob_of, units_of

PD = OpSheetType.PREPARED_DEFENSE
OOB = oob_of(battalion("1-123", 4))
P = units_of("1-123", OOB)


def _pd(units, reserves=(), code="PD"):
    return draw_sheet(
        code, dict.fromkeys(units, PD), OOB, [], rating=3, reserves=reserves, pregame=True
    ).sheet


def test_T26_6_16_a_fire_mode_digs_in_and_keeps_it_while_defending():
    sheet = _pd(P[:3])
    result = prepared_defense(sheet, fire_mode=set(P[:2]), oob=OOB)
    assert result.dug_in == tuple(P[:2]) and result.not_dug_in == (P[2],)
    assert keeps_dug_in(P[0], [sheet]) is None


def test_6_16_c_move_mode_loses_dug_in():
    sheet = _pd(P[:2])
    assert "Move mode" in str(keeps_dug_in(P[0], [sheet], mode="move"))
    lost, exp = dug_in_losses([P[0], P[1]], [sheet], {P[0]: "move"})
    assert list(lost) == [P[0]] and [s.rule for s in exp] == ["6.16.c"]


def test_6_16_d_unassigned_after_failure_loses_dug_in():
    sheet = _pd(P[:2])
    declare_failure(sheet, Phase.OWN_ACTION, [P[0]])
    lost, exp = dug_in_losses(P[:2], [sheet])
    assert list(lost) == [P[0]] and "unassigned" in str(lost[P[0]])
    assert exp.steps[0].rule == "6.16.d"


def test_6_16_d_assigned_to_another_mission_loses_dug_in():
    old = _pd(P[:2])
    attack = draw_sheet("A", {P[0]: OpSheetType.ATTACK}, OOB, [old], rating=3).sheet
    attack.status = SheetStatus.IMPLEMENTED
    release_elsewhere([P[0]], "A", [old, attack], Explanation())
    assert "Attack" in str(keeps_dug_in(P[0], [old, attack]))
    assert keeps_dug_in(P[1], [old, attack]) is None


def test_6_16_d_starting_preliminary_instructions_loses_dug_in():
    old = _pd(P[:2])
    new = draw_sheet("H", {P[0]: PD}, OOB, [old], rating=3, preliminary_instructions=True).sheet
    new.status = SheetStatus.PRELIMS_ACTIVE
    assert "preliminary" in str(keeps_dug_in(P[0], [old, new]))


def test_6_14_b_an_uncommitted_reserve_is_never_dug_in():
    sheet = _pd(P[:2], reserves=[P[3]])
    assert prepared_defense(sheet, fire_mode=set(P), oob=OOB).dug_in == tuple(P[:2])
    assert "reserve" in str(keeps_dug_in(P[3], [sheet]))


def test_6_16_d_struck_from_a_sheet_in_prep_stays_dug_in_on_the_old_one():
    old = _pd(P[:2])
    new = draw_sheet("A", {P[0]: OpSheetType.ATTACK}, OOB, [old], rating=3).sheet
    strike_units(new, [P[0]])
    assert keeps_dug_in(P[0], [old, new]) is None


def test_27_2_b_reinforcements_enter_only_on_an_implemented_or_prelims_sheet():
    implemented = _pd(P[:1])
    prep = draw_sheet("M", {P[1]: OpSheetType.MOVE}, OOB, [implemented], rating=3).sheet
    assert [s.rule for s in may_enter([P[0]], [implemented, prep])] == ["27.2.b"]
    with pytest.raises(RuleError, match=P[1]) as err:
        may_enter([P[0], P[1]], [implemented, prep])
    assert err.value.rule == "27.2.b"
    prep.status = SheetStatus.PRELIMS_ACTIVE
    assert len(may_enter([P[1]], [implemented, prep]).steps) == 1


def _t65_box():
    box = BattalionMorale("1-123")
    record_loss(box, INF)
    record_loss(box, HW)
    record_loss(box, HW)
    assert box.value == 1
    record_loss(box, HW)  # the third non-infantry unit (a mortar)
    assert (box.value, box.other_losses) == (2, 3)
    return box


def test_T65_17_1_a_in_reverse_the_third_other_unit_back_drops_the_value():
    box = _t65_box()
    change = battalion_loss_undone(box, HW, unit="mortar")
    assert (change.before, change.after, box.other_losses) == (2, 1, 2)
    change = battalion_loss_undone(box, HW, unit="mg")  # 2 → 1: no multiple of 3 passed
    assert (change.after, box.other_losses) == (1, 1)
    change = battalion_loss_undone(box, INF, unit="platoon")
    assert change.after == 0


def test_17_1_a_undone_never_below_zero_and_vehicles_untouched():
    box = BattalionMorale("1-123")
    assert battalion_loss_undone(box, INF).after == 0
    assert battalion_loss_undone(box, HW).after == 0 and box.other_losses == 0
    box = _t65_box()
    assert battalion_loss_undone(box, VEH).after == 2

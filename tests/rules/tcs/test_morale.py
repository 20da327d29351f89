"""Battalion morale [17.1]: digest cases T65, T66, and the nearest-battalion rule."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.tcs.clock import Light, Turn
from rules.tcs.morale import (
    BattalionMorale,
    battalion_loss,
    battalion_recovery,
    record_loss,
    recovery_roll,
)
from rules.tcs.opsheet import OpSheetType, draw_sheet
from rules.tcs.units import Formation, MoraleKind, Unit

from .helpers import HW, INF, TRN, VEH, battalion, dice, oob_of, units_of

BN = battalion("1-123")
OOB = oob_of(
    BN,
    battalion("2-123"),
    (Formation("123-HW", MoraleKind.NONE), [Unit("123-HW/1", HW, "123-HW")]),
    loose=[Unit("recon", INF)],
)


def test_t65_17_1_a_platoon_and_every_third_other_unit():
    box = BattalionMorale("1-123")
    assert record_loss(box, INF).after == 1
    assert record_loss(box, HW).after == 1
    assert record_loss(box, HW).after == 1
    change = record_loss(box, HW)  # a mortar: the third non-infantry loss
    assert (change.before, change.after) == (1, 2)


def test_17_1_a_transports_count_as_other_units_and_vehicles_never():
    box = BattalionMorale("1-123")
    for category in (TRN, TRN, VEH, VEH):
        record_loss(box, category)
    assert (box.value, box.other_losses) == (0, 2)
    assert record_loss(box, TRN).after == 1


def test_17_1_a_non_combat_losses_are_ignored():
    box = BattalionMorale("1-123")
    assert record_loss(box, INF, combat=False).after == 0


def test_17_1_c_units_without_a_battalion_count_for_the_nearest():
    boxes = {}
    change = battalion_loss("123-HW/1", OOB, boxes, nearest=["2-123"])
    assert change.battalion == "2-123" and boxes["2-123"].other_losses == 1
    with pytest.raises(DecisionRequired) as asked:
        battalion_loss("recon", OOB, boxes, nearest=["1-123", "2-123"])
    decision = asked.value.decision
    assert decision.chooser == "opponent" and decision.options == ("1-123", "2-123")
    assert (
        battalion_loss("recon", OOB, boxes, nearest=["1-123", "2-123"], choice="1-123").after == 1
    )
    with pytest.raises(RuleError) as err:
        battalion_loss("recon", OOB, boxes)
    assert err.value.rule == "17.1.c"


def test_17_1_a_own_battalion_ignores_nearest():
    boxes = {}
    assert battalion_loss("1-123/1", OOB, boxes, nearest=["2-123"]).battalion == "1-123"


@pytest.mark.parametrize(
    ("turn", "roll", "after"),
    [
        (Turn(1, 9 * 60), 2, 1),  # T66: 0900, d6 2 ≤ 2 → 1
        (Turn(1, 9 * 60), 3, 2),  # T66: d6 3 > 2 → stays 2
        (Turn(1, 9 * 60 + 20), None, 2),  # not a whole hour: no roll
        (Turn(1, 21 * 60, Light.NIGHT), None, 2),  # T66: 2100 night, odd hour: no roll
        (Turn(1, 22 * 60, Light.NIGHT), 1, 1),  # 26.1.d: 2200 night rolls
        (Turn(1, 24 * 60, Light.NIGHT), 2, 1),  # 2400 is an even hour
        (Turn(1, 19 * 60, Light.DUSK), 2, 1),  # dusk is not night [26.0]
    ],
)
def test_t66_17_1_d_hourly_recovery(turn, roll, after):
    box = BattalionMorale("1-123", value=2)
    rolls = dice(*([roll] if roll else []))
    result = battalion_recovery(box, turn, rolls, oob=OOB, sheets=[])
    assert box.value == after and (result.roll is None) is (roll is None)


def test_17_1_e_attacking_battalion_cannot_recover():
    units = units_of("1-123", OOB)
    missions = {
        u: (OpSheetType.ATTACK if i < 3 else OpSheetType.HASTY_DEFENSE) for i, u in enumerate(units)
    }
    attack = draw_sheet("A", missions, OOB, [], rating=3, pregame=True).sheet
    box = BattalionMorale("1-123", value=3)
    result = battalion_recovery(box, Turn(1, 600), dice(1), oob=OOB, sheets=[attack])
    assert result.roll is None and box.value == 3
    assert any(s.rule == "17.1.d" and "attacking" in str(s.text) for s in result.explanation)


def test_17_1_e_reserves_and_defending_groups_are_not_attacking():
    units = units_of("1-123", OOB)
    missions = {u: OpSheetType.HASTY_DEFENSE for u in units[:6]}
    sheet = draw_sheet("A", missions, OOB, [], rating=3, reserves=units[6:], pregame=True).sheet
    assert sheet.type is OpSheetType.ATTACK
    box = BattalionMorale("1-123", value=3)
    assert battalion_recovery(box, Turn(1, 600), dice(1), oob=OOB, sheets=[sheet]).after == 2


def test_17_1_morale_round_trips():
    box = BattalionMorale("1-123", 4, 5)
    assert BattalionMorale.from_dict(json.loads(json.dumps(box.to_dict()))) == box
    with pytest.raises(RuleError):
        BattalionMorale("1-123", -1)


events = st.lists(
    st.one_of(
        st.sampled_from([INF, HW, TRN, VEH]),
        st.integers(1, 6),  # a recovery roll
    ),
    max_size=40,
)


@given(events)
def test_17_1_morale_never_negative(sequence):
    box = BattalionMorale("1-123")
    for event in sequence:
        if isinstance(event, int):
            battalion_recovery(box, Turn(1, 600), dice(event), oob=OOB, sheets=[])
        else:
            record_loss(box, event)
        assert box.value >= 0


@given(st.integers(0, 20), st.integers(1, 6), st.booleans())
def test_17_1_d_recovery_never_below_zero_and_at_most_one(value, roll, attacking):
    result = recovery_roll(value, "x", Turn(1, 600), dice(roll), attacking=attacking, rule="17.1.d")
    assert result.after >= 0 and value - result.after in (0, 1)

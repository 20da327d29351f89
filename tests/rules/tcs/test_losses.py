"""Step-loss allocation [10.0.e–h]: digest cases T47, T48, and T44's two Shermans."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.tcs.losses import (
    LossTarget,
    allocate_area_losses,
    allocate_point_fire,
    carried_step_losses,
    split_area_losses,
)
from rules.tcs.options import CarriedRounding, TcsOptions

T47_HEX = [LossTarget("plt1", 5), LossTarget("plt2", 5), LossTarget("at", 1)]


def test_t47_10_0_f_eight_losses_split_first_then_4_and_3():
    with pytest.raises(DecisionRequired) as asked:
        split_area_losses(8, T47_HEX)
    assert asked.value.decision.chooser == "defender"
    assert asked.value.decision.options == ("plt1", "plt2")
    split = split_area_losses(8, T47_HEX, first_step_choice="plt1")
    assert (split.first_step, split.defender_steps, split.attacker_steps) == ("plt1", 4, 3)
    # B spreads 4 over the platoons; A kills the AT gun and puts 2 on the worse platoon
    allocation = allocate_area_losses(split, T47_HEX, {"plt1": 2, "plt2": 2}, {"at": 1, "plt2": 2})
    assert allocation.losses == {"plt1": 3, "plt2": 4, "at": 1}
    assert allocation.eliminated == ("at",)


def test_10_0_f_largest_unit_takes_the_first_step_and_riders_are_exempt():
    hexes = [LossTarget("plt", 3), LossTarget("mg", 2), LossTarget("riders", 5, True)]
    split = split_area_losses(3, hexes)
    assert (split.first_step, split.defender_steps, split.attacker_steps) == ("plt", 1, 1)
    with pytest.raises(RuleError):
        allocate_area_losses(split, hexes, {"riders": 1}, {"mg": 1})


def test_10_0_e_excess_losses_are_ignored():
    split = split_area_losses(20, [LossTarget("plt", 5), LossTarget("mg", 2)])
    assert split.total == 7 and split.defender_steps + split.attacker_steps == 6


@pytest.mark.parametrize(
    ("defender", "attacker"),
    [
        ({"plt1": 3}, {"at": 1, "plt2": 2}),  # defender owes 4
        ({"plt1": 2, "plt2": 2}, {"at": 2, "plt2": 1}),  # the AT gun has one step
    ],
)
def test_10_0_f_allocations_are_checked(defender, attacker):
    split = split_area_losses(8, T47_HEX, first_step_choice="plt1")
    with pytest.raises(RuleError):
        allocate_area_losses(split, T47_HEX, defender, attacker)


@pytest.mark.parametrize(
    ("carrier", "lost", "carried", "rounding", "steps"),
    [
        (2, 1, 5, CarriedRounding.STANDARD, 3),  # T48: 50 % of 5 = 2.5 → 3
        (2, 2, 5, CarriedRounding.STANDARD, 5),  # 24.1.d: destroyed carrier, all lost
        (3, 1, 4, CarriedRounding.STANDARD, 1),  # ambiguity 39: 1.33 → 1
        (3, 1, 4, CarriedRounding.UP, 2),  # … or always up
        (3, 1, 5, CarriedRounding.STANDARD, 2),  # 1.67 → 2
    ],
)
def test_t48_10_0_g_carried_units_lose_the_same_proportion(carrier, lost, carried, rounding, steps):
    options = TcsOptions(carried_rounding=rounding)
    assert carried_step_losses(carrier, lost, carried, options).steps == steps


def test_t44_10_0_h_point_fire_picks_alternate_from_the_firer():
    shermans = [LossTarget("sherman1", 1), LossTarget("sherman2", 1)]
    with pytest.raises(DecisionRequired) as asked:
        allocate_point_fire(2, shermans)
    assert asked.value.decision.chooser == "firer"
    with pytest.raises(DecisionRequired) as asked:
        allocate_point_fire(2, shermans, ["sherman1"])
    assert asked.value.decision.chooser == "target owner"
    assert asked.value.decision.options == ("sherman2",)
    done = allocate_point_fire(2, shermans, ["sherman1", "sherman2"])
    assert done.picks == [("firer", "sherman1"), ("target owner", "sherman2")]
    assert allocate_point_fire(5, shermans, ["sherman2", "sherman1"]).losses == {
        "sherman2": 1,
        "sherman1": 1,
    }


@given(
    st.integers(0, 30),
    st.lists(st.tuples(st.integers(1, 6), st.booleans()), min_size=1, max_size=6),
)
def test_10_0_f_split_adds_up_and_defender_gets_the_rounded_half(losses, spec):
    targets = [LossTarget(f"u{i}", s, c) for i, (s, c) in enumerate(spec)]
    capacity = sum(s for s, c in spec if not c)
    try:
        split = split_area_losses(losses, targets)
    except DecisionRequired as asked:
        split = split_area_losses(losses, targets, first_step_choice=asked.decision.options[0])
    assert split.total == min(losses, capacity)
    if split.total:
        assert 1 + split.defender_steps + split.attacker_steps == split.total
        assert split.defender_steps - split.attacker_steps in (0, 1)

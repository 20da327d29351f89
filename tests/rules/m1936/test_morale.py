"""Morale states (M36-XI.2: T22, T23 states) and battalion morale (M36-XI.7: T24)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.m1936.morale import BattalionMorale, UnitState, battalion_morale, morale_state

D, P, N = UnitState.DESTROYED, UnitState.PANICKED, UnitState.NORMAL


@pytest.mark.parametrize(
    ("morale", "state"),
    [
        (10 - 4 - 2, UnitState.PINNED),
        (8, UnitState.NORMAL),
        (5, UnitState.NORMAL),
        (0, UnitState.PANICKED),
        (1, UnitState.PINNED),
    ],
    ids=["T22-pinned", "T22-recovered", "5", "T23-panicked", "1"],
)
def test_M36_XI_2_T22_T23_morale_states(morale, state):
    assert morale_state(morale) is state


@pytest.mark.parametrize("morale", [-1, 2.5, True])
def test_M36_XI_1_morale_never_below_zero(morale):
    with pytest.raises(RuleError):
        morale_state(morale)


@pytest.mark.parametrize(
    ("states", "broken"),
    [
        ([D] * 3 + [P] * 2 + [N] * 5, False),
        ([D] * 3 + [P] * 3 + [N] * 4, True),
        ([P], True),
        ([N, D], False),
    ],
    ids=["T24-five-of-ten", "T24-six-of-ten", "one-panicked", "half"],
)
def test_M36_XI_7_T24_battalion_morale(states, broken):
    result = battalion_morale(states)
    assert result.broken is broken
    assert BattalionMorale.from_dict(result.to_dict()) == result


def test_M36_XI_7_needs_units():
    with pytest.raises(RuleError):
        battalion_morale([])


@given(st.lists(st.sampled_from(list(UnitState)), min_size=1))
def test_M36_XI_7_breaks_exactly_past_half(states):
    out = sum(s in (D, P) for s in states)
    assert battalion_morale(states).broken is (out > len(states) / 2)

"""Property: any sequence of ledger calls, refused ones ignored, keeps the ledger legal."""

import dataclasses
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.i18n import Msg
from rules.parabellum.activation import (
    ACTION_COSTS,
    SideTurn,
    act,
    anticipate,
    end_activation,
    legal_problems,
    new_side_turn,
    set_state,
    start_activation,
)
from rules.parabellum.roster import new_roster


def _roster(squad, recruits=(), **specialists):
    r = new_roster(squad)
    for sid in recruits:
        r = r.replace(dataclasses.replace(r.soldier(sid), experience="recruit"))
    for sid, kind in specialists.items():
        weapon = "pistol" if kind == "political_officer" else r.soldier(sid).weapon
        r = r.replace(dataclasses.replace(r.soldier(sid), specialist=kind, weapon=weapon))
    return r


ROSTERS = [
    _roster("GER/grenadier", recruits=("rifleman-4", "rifleman-5"), **{"rifleman-1": "medic"}),
    _roster("USSR/rifle_squad", recruits=("rifleman-3",), **{"rifleman-1": "political_officer"}),
    _roster("FIN/jalkavaki"),
    _roster("USA/rifleman", recruits=("rifleman-2",)),
]
IDS = [
    "officer",
    "nco",
    "mg_gunner",
    "mg_assistant-1",
    "rifleman-1",
    "rifleman-2",
    "rifleman-3",
    "rifleman-4",
]

start = st.tuples(
    st.just("start"), st.sampled_from(IDS), st.sampled_from(["blue", "order", "anticipation"])
)
action = st.tuples(
    st.just("act"),
    st.sampled_from(sorted(ACTION_COSTS)),
    st.fixed_dictionaries(
        {
            "distance_cm": st.sampled_from([None, 0, 5, 10, 15, 20, 25, 31]),
            "target": st.one_of(st.none(), st.sampled_from(IDS)),
            "terrain": st.sampled_from(["open", "open", "rough"]),
            "crosses_obstacle": st.sampled_from([False, False, True]),
            "started_touching_obstacle": st.booleans(),
            "target_distance_cm": st.sampled_from([None, 2, 10, 20, 35, 70]),
            "target_in_los": st.sampled_from([True, True, False]),
        }
    ),
)
end = st.tuples(st.just("end"))
ant = st.tuples(
    st.just("anticipate"), st.lists(st.sampled_from(IDS), max_size=3), st.integers(0, 4)
)
hit = st.tuples(
    st.just("state"), st.sampled_from(IDS), st.booleans(), st.sampled_from([False] * 5 + [True])
)
OPS = st.lists(
    st.tuples(st.integers(0, 19), start, action, end, ant, hit).map(
        lambda t: t[
            1 if t[0] < 4 else 2 if t[0] < 15 else 3 if t[0] < 17 else 4 if t[0] < 18 else 5
        ]
    ),
    min_size=10,
    max_size=80,
)


def filled(m) -> bool:
    """A message id whose placeholders (nested ones too) all have parameters."""
    if not isinstance(m, Msg):
        return False
    nested = [v for v in m.params.values() if isinstance(v, Msg)]
    return set(re.findall(r"%\((\w+)\)s", m.id)) <= set(m.params) and all(map(filled, nested))


def apply(side: SideTurn, roster, op) -> SideTurn:
    kind = op[0]
    if kind == "start":
        return start_activation(side, roster, op[1], via=op[2]).side
    if kind == "act":
        return act(side, roster, op[1], **op[2]).side
    if kind == "end":
        return end_activation(side).side
    if kind == "anticipate":
        return anticipate(side, roster, op[1], op[2])[0]
    return set_state(
        side,
        op[1],
        suppressed=op[2],
        out=op[3] and op[1] != (side.active and side.active.soldier_id),
    )


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ROSTERS), OPS)
def test_any_sequence_keeps_the_ledger_legal(roster, ops):
    side = new_side_turn(roster, suppressed={"rifleman-2"})
    for op in ops:
        try:
            new = apply(side, roster, op)
        except RuleError as err:
            assert filled(err.message), err.message
            continue
        if (
            new.active is not None
            and side.active is not None
            and new.active.soldier_id == side.active.soldier_id
        ):
            assert new.active.pa_left <= side.active.pa_left
        side = new
        assert legal_problems(side, roster) == []
        assert all(r.activations <= 2 for r in side.soldiers.values())
        assert side.orders_given <= 3
        if side.active is not None:
            assert 0 <= side.active.pa_left <= 3
    assert SideTurn.from_dict(side.to_dict()) == side

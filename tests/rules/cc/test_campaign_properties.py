"""Random campaigns through the state machines (hypothesis): invariants of ST-C and NO-C."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st_

from rules.cc import normandy as no
from rules.cc import stalingrad as st
from rules.cc.campaign import Phase
from rules.cc.common import Faction
from rules.cc.stalingrad import CarriedUnit, StalingradResult
from rules.dice import SeededDice
from tests.rules.cc.campaign_helpers import NORMANDY_TABLES, STALINGRAD_TABLES, play


def check_pools(pools):
    for pool in pools:
        assert 0 <= pool.balance <= pool.cap
        assert pool.cap + sum(e.amount for e in pool.ledger) == pool.balance


def survivors(rng):
    return {
        side: [
            CarriedUnit(f"{side.value}{i}", "squad", rng.choice([None, "LMG"]), rng.random() < 0.3)
            for i in range(rng.randint(0, 9))
        ]
        for side in Faction
    }


@settings(max_examples=60, deadline=None)
@given(st_.integers(0, 10**6))
def test_st_c3_random_campaigns_end_by_battle_13_with_pools_on_their_caps(seed):
    rng, dice, state = random.Random(seed), SeededDice(seed), st.new_campaign()
    battles = [state.battle]
    while state.phase is not Phase.ENDED:
        state = play(
            lambda s, c: st.prepare_forces(s, STALINGRAD_TABLES, dice, c), state, rng
        ).state
        state = play(lambda s, c: st.prepare_support(s, STALINGRAD_TABLES, c), state, rng).state
        result = StalingradResult(rng.choice(list(Faction)), survivors(rng))
        state = play(
            lambda s, c, r=result: st.conclude_battle(s, r, STALINGRAD_TABLES, dice, c), state, rng
        ).state
        check_pools(state.fort_points.values())
        assert state.position in st.POSITIONS
        assert state.battle >= battles[-1] and state.battle <= 13
        battles.append(state.battle)
        state = st.StalingradState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert state.victory in ("decisive", "tactical")
    assert state.winner is state.current.winner
    if state.victory == "decisive":
        assert state.position == st.DECISIVE_AT[state.winner]


@settings(max_examples=60, deadline=None)
@given(st_.integers(0, 10**6))
def test_no_c3_random_campaigns_end_when_a_side_has_four_wins(seed):
    rng, dice, state = random.Random(seed), SeededDice(seed), no.new_campaign()
    while state.phase is not Phase.ENDED:
        before = state.battle
        state = play(lambda s, c: no.prepare_forces(s, NORMANDY_TABLES, dice, c), state, rng).state
        state = play(lambda s, c: no.prepare_support(s, NORMANDY_TABLES, c), state, rng).state
        winner = rng.choice(list(Faction))
        state = play(
            lambda s, c, w=winner: no.conclude_battle(s, w, NORMANDY_TABLES, dice, c), state, rng
        ).state
        check_pools([*state.armor.values(), state.artillery, state.fortification])
        for battle in state.battles:
            spent = [e for e in state.artillery.ledger if e.battle == battle.number]
            assert sum(-e.amount for e in spent) <= no.ARTILLERY_PER_BATTLE
        assert state.position in no.POSITIONS
        assert state.battle >= before and max(state.wins.values()) <= 4
        state = no.NormandyState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert state.wins[state.winner] == 4 and state.wins[state.winner.other] < 4
    assert len(state.battles) == sum(state.wins.values()) <= 7

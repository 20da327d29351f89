"""ST-C1/ST-C3 rule by rule: the digest's §6 cases 4–14 and the seed's text."""

import pytest

from rules.cc import stalingrad as st
from rules.cc.campaign import BattleRecord, Phase
from rules.cc.campaign_tables import CampaignTables
from rules.cc.common import Faction, Posture, Quality
from rules.cc.stalingrad import CarriedUnit, StalingradResult
from rules.dice import EnteredDice
from rules.errors import RuleError
from tests.rules.cc.campaign_helpers import STALINGRAD_TABLES as TABLES
from tests.rules.cc.campaign_helpers import done, example_priced

G, R = Faction.AXIS, Faction.ALLIES
POSTURES = {"defend": Posture.DEFEND, "recon": Posture.RECON, "attack": Posture.ATTACK}
OPPOSITE = {
    Posture.DEFEND: Posture.ATTACK,
    Posture.ATTACK: Posture.DEFEND,
    Posture.RECON: Posture.RECON,
}


def after_battle(battle=1, position="O", winner=G, posture=Posture.DEFEND):
    state = st.new_campaign()
    state.battle, state.position, state.phase = battle, position, Phase.BATTLE
    record = BattleRecord(battle, position, st.MAPS[position])
    record.posture = {winner: posture, winner.other: OPPOSITE[posture]}
    state.battles.append(record)
    return state


def conclude(state, winner, dice=None, choices=None, survivors=None):
    return st.conclude_battle(
        state, StalingradResult(winner, survivors or {}), TABLES, dice, choices
    )


@pytest.mark.parametrize(("battle", "rubble"), [(1, 4), (2, 8), (3, 12), (10, 40), (12, 40)])
def test_st_c1_1_rubble_count(battle, rubble):
    assert st.rubble_count(battle) == rubble


def test_st_c1_1_positions_and_maps():
    assert st.POSITIONS == ("G2", "G1", "O", "R1", "R2")
    assert st.MAPS == {"G2": 24, "G1": 23, "O": 37, "R1": 32, "R2": 36}
    assert st.new_campaign().position == "O"


def test_st_c1_1_russian_orients_with_the_white_die():
    out = st.prepare_forces(
        st.new_campaign(),
        TABLES,
        EnteredDice([(5, 2)]),
        {"purchase.axis": [], "purchase.allies": []},
    )
    assert done(out).current.orientation == 5


def test_st_c1_5_5_no_secret_purchase_opens_while_a_patrol_cost_is_missing():
    with pytest.raises(RuleError) as err:
        st.prepare_forces(
            st.new_campaign(), CampaignTables.example("stalingrad"), EnteredDice([(1, 1)])
        )
    assert err.value.rule == "ST-C1.5.5"
    for patrol in ("C", "D", "F", "Pionier", "A", "B", "E", "Assault Engineers"):
        assert patrol in str(err.value.message)


def test_st_c1_5_3_command_patrol_battle_one_from_the_example_data():
    out = st.prepare_forces(
        st.new_campaign(),
        example_priced("stalingrad"),
        EnteredDice([(1, 1)]),
        {"purchase.axis": [], "purchase.allies": []},
    )
    texts = [str(s.text) for s in out.explanation if s.rule == "ST-C1.5.3"]
    assert texts == [
        "Germans: Command Patrol (Line): 3 Rifle squads",
        "Soviets: Command Patrol (Line): 5 Rifle squads",
    ]


def test_st_c1_5_4_sealed_purchase_asks_each_side_for_its_pool():
    out = st.prepare_forces(st.new_campaign(), TABLES, EnteredDice([(1, 1)]))
    assert out.decision.key == "purchase.axis" and out.decision.chooser == "axis"
    assert out.decision.options == ("C", "D", "F", "Pionier")
    out = st.prepare_forces(out.state, TABLES, EnteredDice(), {"purchase.axis": ["C"]})
    assert out.decision.key == "purchase.allies"
    assert out.decision.options == ("A", "B", "E", "Assault Engineers")


def test_st_c1_5_4_example_purchase():
    state = done(
        st.prepare_forces(
            st.new_campaign(),
            TABLES,
            EnteredDice([(1, 1)]),
            {"purchase.axis": ["C", "D"], "purchase.allies": ["Assault Engineers"]},
        )
    )
    assert state.pool[G] == ["F", "Pionier"]
    assert state.pool[R] == ["A", "B", "E"]
    assert state.current.fielded == {
        G: ["German Command Patrol", "C", "D"],
        R: ["Russian Command Patrol", "Assault Engineers"],
    }


def test_st_c1_5_4_patrol_not_in_pool_is_illegal():
    with pytest.raises(RuleError) as err:
        st.prepare_forces(
            st.new_campaign(), TABLES, EnteredDice([(1, 1)]), {"purchase.axis": ["A"]}
        )
    assert err.value.rule == "ST-C1.5.4"


def test_st_c1_5_5_patrol_cost_missing_from_tables_names_the_rule():
    with pytest.raises(RuleError) as err:
        st.prepare_forces(
            st.new_campaign(),
            CampaignTables.example("stalingrad"),
            EnteredDice([(1, 1)]),
            {"purchase.axis": ["C"], "purchase.allies": []},
        )
    assert err.value.rule == "ST-C1.5.5"


@pytest.mark.parametrize(
    ("charge_fill_ins", "german_cost"), [(False, 2 + 2 + 1), (True, 2 + 3 + 2)]
)
def test_st_c1_5_5_vp_cost_per_reinforcement_unit_and_weapon(charge_fill_ins, german_cost):
    state = st.new_campaign(st.StalingradOptions(charge_fill_ins=charge_fill_ins))
    state.reinforcements[G] = [
        CarriedUnit("g1", "Rifle squad", "LMG"),
        CarriedUnit("g2", "Rifle squad"),
        CarriedUnit("g3", "Rifle squad", "MMG"),
    ]
    choices = {"purchase.axis": ["C"], "purchase.allies": [], "fill_ins.axis": ["g3"]}
    state = done(st.prepare_forces(state, TABLES, EnteredDice([(1, 1)]), choices))
    # Patrol C (2) + units g1, g2 (2) + weapon LMG (1); the filled-in g3 (+MMG) only if charged.
    assert state.current.vp_ledger[0].delta_axis == -german_cost
    assert [u.id for u in state.reinforcements[G]] == ["g1", "g2"]


def support_state():
    return done(
        st.prepare_forces(
            st.new_campaign(),
            TABLES,
            EnteredDice([(1, 1)]),
            {"purchase.axis": [], "purchase.allies": []},
        )
    )


def test_st_c1_9_fortification_points_not_paid_in_vp():
    state = done(
        st.prepare_support(support_state(), TABLES, {"fortify.axis": 11, "fortify.allies": 4})
    )
    assert state.fort_points[G].balance == 0 and state.fort_points[R].balance == 7
    assert state.current.vp_axis == 0
    assert state.fort_points[G].ledger[0].rule == "ST-C1.9"


def test_st_c1_9_cannot_spend_past_the_campaign_cap():
    state = support_state()
    state.fort_points[G].balance = 2
    with pytest.raises(RuleError) as err:
        st.prepare_support(state, TABLES, {"fortify.axis": 3})
    assert err.value.rule == "ST-C1.9"


@pytest.mark.parametrize(
    ("winner", "position", "battle"), [(R, "G2", 1), (R, "G2", 7), (G, "R2", 3)]
)
def test_st_c3_1_decisive_victory_at_the_enemy_end(winner, position, battle):
    state = done(conclude(after_battle(battle, position, winner), winner))
    assert (state.phase, state.winner, state.victory, state.battle) == (
        Phase.ENDED,
        winner,
        "decisive",
        battle,
    )


@pytest.mark.parametrize(
    ("battle", "roll", "ends"),
    [
        (5, (2, 3), False),
        (5, (6, 6), False),
        (5, (1, 3), True),
        (7, (3, 3), True),
        (12, (6, 6), False),
        (13, (6, 6), True),
    ],
)
def test_st_c3_1_campaign_sudden_death_roll(battle, roll, ends):
    state = after_battle(battle, "O", R, Posture.RECON)
    outcome = conclude(state, R, EnteredDice([roll, (1, 1), (1, 1), (1, 1)]), {"quality": "none"})
    state = done(outcome)
    if ends:
        assert (state.phase, state.victory, state.winner, state.battle) == (
            Phase.ENDED,
            "tactical",
            R,
            battle,
        )
    else:
        assert (state.phase, state.battle, state.position) == (Phase.FORCES, battle + 1, "G1")


def test_st_c3_1_no_campaign_roll_before_battle_5_and_the_marker_advances():
    state = after_battle(4, "O", G, Posture.RECON)
    state = done(conclude(state, G, EnteredDice([(1, 1), (1, 1), (1, 1)]), {"quality": "none"}))
    assert (state.battle, state.position) == (5, "R1")


@pytest.mark.parametrize(
    ("winner", "posture", "position", "options"),
    [
        (G, "attack", "O", ("R1", "R2")),
        (R, "defend", "O", ("O", "G1")),
        (R, "recon", "O", ("G1",)),
        (R, "attack", "O", ("G1", "G2")),
        (G, "attack", "R1", ("R2",)),
        (R, "defend", "R2", ("R2", "R1")),
    ],
)
def test_st_c3_2_position_options(winner, posture, position, options):
    assert st.position_options(position, winner, POSTURES[posture]) == options


def test_st_c3_2_winner_chooses_and_illegal_position_names_the_rule():
    state = after_battle(1, "O", G, Posture.ATTACK)
    out = conclude(state, G, EnteredDice())
    assert out.decision.key == "position" and out.decision.chooser == "axis"
    assert out.decision.options == ("R1", "R2")
    with pytest.raises(RuleError) as err:
        conclude(out.state, G, EnteredDice(), {"position": "G1"})
    assert err.value.rule == "ST-C3.2"


@pytest.mark.parametrize(
    ("winner_q", "loser_q", "options"),
    [
        ("line", "line", ("raise_own", "lower_opponent", "none")),
        ("elite", "line", ("lower_opponent", "none")),
        ("green", "green", ("raise_own", "none")),
    ],
)
def test_st_c3_3_quality_options(winner_q, loser_q, options):
    state = after_battle(1, "O", G, Posture.RECON)
    state.quality = {G: Quality(winner_q), R: Quality(loser_q)}
    out = conclude(state, G, EnteredDice())
    assert out.decision.key == "quality" and out.decision.options == options


def test_st_c3_3_no_effective_option_needs_no_decision():
    state = after_battle(1, "O", G, Posture.RECON)
    state.quality = {G: Quality.ELITE, R: Quality.GREEN}
    out = conclude(state, G, EnteredDice([(1, 1), (1, 1), (1, 1)]))
    assert done(out).quality == {G: Quality.ELITE, R: Quality.GREEN}


@pytest.mark.parametrize(
    ("survivors", "marker", "allowance"),
    [(4, 2, 2), (7, 2, 4), (9, 4, 3), (12, 2, 6), (12, 3, 4), (12, 4, 3), (0, 5, 0)],
)
def test_st_c3_4_reinforcement_allowance(survivors, marker, allowance):
    assert st.reinforcement_allowance(survivors, marker) == allowance


def test_st_c3_4_more_reinforcements_than_allowed_names_the_rule():
    state = after_battle(1, "O", G, Posture.RECON)
    survivors = {G: [CarriedUnit(f"g{i}", "Rifle squad") for i in range(4)]}
    with pytest.raises(RuleError) as err:
        conclude(
            state,
            G,
            EnteredDice(),
            {"quality": "none", "reinforcements.axis": ["g0", "g1", "g2"]},
            survivors,
        )
    assert err.value.rule == "ST-C3.4"


def test_st_c3_5_divisional_reserve_result_already_in_pool_gives_nothing():
    state = after_battle(1, "O", G, Posture.RECON)
    # Russian (loser) rolls 3 → A (in his pool); German rolls 9 → F and 10 → Pionier (both in pool).
    out = conclude(
        state, G, EnteredDice([(1, 2), (4, 5), (4, 6)]), {"quality": "none", "divisional.axis": "F"}
    )
    state = done(out)
    assert state.pool == st.INITIAL_POOL
    assert str([s.text for s in out.explanation if s.rule == "ST-C3.5"][-1]).endswith(
        "receive nothing"
    )


def test_st_c3_5_a_result_that_would_bring_nothing_is_not_offered():
    state = after_battle(1, "O", G, Posture.RECON)
    state.pool[G] = ["C", "D", "F"]
    # German rolls 9 → F (already in the pool: nothing) and 10 → Pionier (available).
    out = conclude(state, G, EnteredDice([(1, 2), (4, 5), (4, 6)]), {"quality": "none"})
    assert done(out).pool[G] == ["C", "D", "F", "Pionier"]


def test_st_c3_5_the_winner_keeps_one_of_two_rolls():
    state = after_battle(1, "O", G, Posture.RECON)
    state.pool[G] = ["F"]
    out = conclude(state, G, EnteredDice([(1, 2), (1, 1), (3, 3)]), {"quality": "none"})
    assert out.decision.key == "divisional.axis" and out.decision.options == ("C", "D")
    rolls = out.state.pending.rolls
    # Answering later reuses the stored rolls: no dice are needed any more.
    state = done(conclude(out.state, G, None, {"divisional.axis": "D"}))
    assert state.pool[G] == ["F", "D"] and len(rolls) == 3


def test_st_c3_6_next_battle_starts_again_at_st_c1_1():
    state = after_battle(1, "O", G, Posture.RECON)
    out = conclude(state, G, EnteredDice([(1, 1)] * 3), {"quality": "none", "divisional.axis": "C"})
    assert done(out).phase is Phase.FORCES
    assert out.explanation.steps[-1].rule == "ST-C3.6"


def test_st_c3_procedures_refuse_the_wrong_phase():
    with pytest.raises(RuleError):
        conclude(st.new_campaign(), G)

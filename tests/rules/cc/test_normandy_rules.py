"""NO-C1/NO-C3 rule by rule: the digest's §6 cases 15–27 and the seed's text."""

import pytest

from rules.cc import normandy as no
from rules.cc.campaign import BattleRecord, Phase, Session
from rules.cc.campaign_steps import force_totals
from rules.cc.campaign_tables import CampaignTables
from rules.cc.common import Faction
from rules.dice import EnteredDice
from rules.errors import RuleError
from tests.rules.cc.campaign_helpers import NORMANDY_TABLES as TABLES
from tests.rules.cc.campaign_helpers import done, example_priced

US, G = Faction.ALLIES, Faction.AXIS
NOTHING = {"purchase.allies": [], "purchase.axis": []}


def forces(state=None, choices=NOTHING, tables=TABLES):
    return no.prepare_forces(state or no.new_campaign(), tables, EnteredDice([(1, 1)]), choices)


def after_battle(battle=1, position="A1", played=("A1",)):
    state = no.new_campaign()
    state.battle, state.position, state.played, state.phase = (
        battle,
        position,
        list(played),
        Phase.BATTLE,
    )
    state.battles.append(
        BattleRecord(
            battle, position, no.MAPS[position], fielded={US: ["Craighead"], G: ["Heinzmann"]}
        )
    )
    return state


def test_no_c1_11_positions_and_maps():
    assert no.MAPS == {"A1": 2, "A2": 42, "A3": 43, "A4": 44, "G1": 2}
    state = no.new_campaign()
    assert (state.position, state.armor[US].balance, state.armor[G].balance) == ("A1", 5, 1)
    assert (state.artillery.balance, state.fortification.balance, state.air_superiority) == (
        11,
        7,
        "recall",
    )


def test_no_c1_56_no_secret_purchase_opens_while_a_section_cost_is_missing():
    with pytest.raises(RuleError) as err:
        forces(tables=CampaignTables.example("normandy"))
    assert err.value.rule == "NO-C1.56"
    assert all(name in str(err.value.message) for name in ("Krauss", "Bowen", "Cawthon", "Ehnert"))


def test_no_c1_54_command_section_battle_one_from_the_example_data():
    out = forces(tables=example_priced("normandy"))
    texts = [str(s.text) for s in out.explanation if s.rule == "NO-C1.54"]
    assert texts == [
        "Americans: Command Section led by Sgt Craighead: 3 Line squads, 1 MMG",
        "Germans: Command Section led by Sgt Heinzmann: 1 Scout, 3 Rifle squads, 2 Light Mortars",
    ]


def test_no_c1_55_example_purchase_and_the_command_leader_is_not_offered():
    out = forces(choices={})
    assert out.decision.options == ("Krauss", "Bowen", "Cawthon")
    state = done(
        forces(choices={"purchase.allies": ["Krauss", "Bowen"], "purchase.axis": ["Ehnert"]})
    )
    assert state.regimental == {US: ["Craighead", "Cawthon"], G: ["Heinzmann", "Hummel", "Becker"]}
    assert state.current.fielded == {
        US: ["Craighead", "Krauss", "Bowen"],
        G: ["Heinzmann", "Ehnert"],
    }


def test_no_c1_56_the_us_pays_first():
    state = done(forces(choices={"purchase.allies": ["Krauss"], "purchase.axis": ["Ehnert"]}))
    assert [(e.delta_axis, e.rule) for e in state.current.vp_ledger] == [
        (2, "NO-C1.56"),
        (-3, "NO-C1.56"),
    ]


def test_no_c1_8_orders_initiative_and_surrender_examples_from_the_seed_data():
    record = BattleRecord(
        1, "A1", 2, fielded={US: ["Craighead", "Krauss", "Bowen"], G: ["Heinzmann", "Ehnert"]}
    )
    ctx = Session(no.new_campaign(), {}, None)
    force_totals(ctx, CampaignTables.example("normandy"), record, rule="NO-C1.51")
    assert record.totals[US] == {
        "orders": 2 + 1 + 1,
        "initiative": 2 + 4 + 4,
        "surrender": 3 + 3 + 3,
    }
    assert record.totals[G] == {"orders": None, "initiative": 1 + 4, "surrender": 3 + 3}
    assert record.extras["initiative_card"] == "allies"


def support(choices, state=None):
    return no.prepare_support(state or done(forces()), TABLES, {"rs9.cost": 0, **choices})


def test_no_c1_73_german_armor_cancels_us_armor():
    out = support({"us_armor": True, "german_armor": True, "fortify.axis": 0})
    state = done(out)
    assert state.armor[US].balance == 4 and state.armor[G].balance == 0
    assert state.current.extras["us_armor"] == "cancelled"
    assert [e.delta_axis for e in state.current.vp_ledger][-3:] == [4, 1, -4]
    assert "pre_registered_fire" not in state.current.extras  # no artillery decision was asked
    assert state.air_superiority == "ground_support"


def test_no_c1_73_refund_option_returns_the_us_radio_vp():
    state = no.new_campaign(no.NormandyOptions(refund_cancelled_armor_vp=True))
    out = support({"us_armor": True, "german_armor": True, "fortify.axis": 0}, done(forces(state)))
    assert done(out).current.vp_axis == 4 + 1 - 4 - 4


def test_no_c1_74_german_artillery_two_points():
    state = done(
        support(
            {"us_armor": False, "german_armor": False, "german_artillery": 2, "fortify.axis": 0}
        )
    )
    assert state.artillery.balance == 9
    assert state.current.extras["pre_registered_fire"] == 2
    assert [e.delta_axis for e in state.current.vp_ledger][-1] == -5


def test_no_c1_74_at_most_three_points_a_battle():
    out = support({"us_armor": False, "german_armor": False})
    assert out.decision.key == "german_artillery" and out.decision.options == (0, 1, 2, 3)
    with pytest.raises(RuleError) as err:
        support({"us_armor": False, "german_armor": False, "german_artillery": 4})
    assert err.value.rule == "NO-C1.74"


def test_no_c1_72_no_armor_left_means_no_question_and_ground_support():
    state = done(forces())
    state.armor[US].balance = 0
    state = done(support({"german_armor": False, "german_artillery": 0, "fortify.axis": 0}, state))
    assert state.current.extras["us_armor"] is False and state.air_superiority == "ground_support"


def test_no_c1_9_defense_in_depth_paid_from_points_and_vp():
    state = done(
        support(
            {"us_armor": False, "german_armor": False, "german_artillery": 0, "fortify.axis": 7}
        )
    )
    assert state.fortification.balance == 0 and state.current.vp_axis == -7
    state.fortification.balance = 0
    with pytest.raises(RuleError) as err:
        state.fortification.change(-1, reason="x", rule="NO-C1.9", battle=1)
    assert err.value.rule == "NO-C1.9"


@pytest.mark.parametrize(
    ("position", "played", "us_won", "expected"),
    [
        ("A1", ["A1"], True, "A2"),
        ("A1", ["A1"], False, "G1"),
        ("G1", ["A1"], True, "A2"),
        ("G1", ["A1"], False, "G1"),
        ("A4", ["A1", "A2", "A3", "A4"], False, "A4"),
        ("A3", ["A1", "A2", "A3"], False, "G1"),
    ],
)
def test_no_c3_3_campaign_position(position, played, us_won, expected):
    assert no.next_position(position, played, us_won) == expected


def test_no_c3_3_results_w_l_w_w_visit_a1_a2_g1_a3_a4():
    position, played, visited = "A1", [], []
    for us_won in (True, False, True, True):
        visited.append(position)
        if position in no.ADVANCE:
            played.append(position)
        position = no.next_position(position, played, us_won)
    assert [*visited, position] == ["A1", "A2", "G1", "A3", "A4"]


def conclude(state, winner, choices, dice=((1, 1),) * 3):
    if not isinstance(dice, EnteredDice):
        dice = EnteredDice(list(dice))
    return no.conclude_battle(state, winner, TABLES, dice, choices)


def test_no_c3_1_fourth_win_ends_the_campaign():
    state = after_battle(7, "G1")
    state.wins = {US: 3, G: 3}
    state = done(conclude(state, G, {}, ()))
    assert (state.phase, state.winner, state.victory) == (Phase.ENDED, G, "four_wins")


def test_no_c3_2_section_leaders_become_exhausted():
    state = after_battle()
    state.current.fielded = {US: ["Craighead", "Krauss"], G: ["Heinzmann"]}
    state = done(conclude(state, US, {"quality": "none"}))
    assert state.exhausted == {US: ["Krauss"], G: []}
    assert "Craighead" in state.regimental[US]


def test_no_c3_4_promotion_sgt_2lt_1lt_capt():
    state = after_battle()
    ranks = []
    for _ in range(3):
        state = done(conclude(state, US, {"quality": "none"}))
        ranks.append(state.command_leader(US))
        state.phase = Phase.BATTLE
        state.battles.append(
            BattleRecord(
                state.battle, state.position, 2, fielded={US: ["Craighead"], G: ["Heinzmann"]}
            )
        )
        state.rest_day_done = True
    assert ranks == ["2Lt Craighead", "1Lt Craighead", "Capt Craighead"]
    assert state.command_leader(G) == "Sgt Heinzmann"


def test_no_c3_6_rest_day_once_after_three_battles():
    state = after_battle(3, "G1")
    state.exhausted = {US: ["Krauss"], G: ["Ehnert"]}
    # German rest-day rolls: 4 → Ehnert (exhausted), 6 → Wetteman; then the NO-C3.7 rolls.
    dice = EnteredDice([(2, 2), (3, 3), (1, 1), (1, 1), (1, 1)])
    out = conclude(state, US, {"quality": "none"}, dice)
    assert out.decision.key == "rest_day.allies" and out.decision.options == ("Krauss",)
    out = conclude(out.state, US, {"rest_day.allies": ["Krauss"]}, dice)
    assert out.decision.key == "rest_day.axis" and out.decision.options == ("Ehnert",)
    state = done(conclude(out.state, US, {"rest_day.axis": ["Ehnert"]}, dice))
    assert dice.remaining == 0
    assert state.exhausted == {US: [], G: []} and state.rest_day_done
    assert "Krauss" in state.divisional[US] and "Ehnert" in state.divisional[G]


def test_no_c3_6_no_rest_day_after_battle_four():
    state = after_battle(4, "G1")
    state.exhausted = {US: ["Krauss"], G: []}
    state = done(conclude(state, US, {"quality": "none"}))
    assert state.exhausted[US] == ["Krauss"] and not state.rest_day_done


def test_no_c3_7_result_not_in_divisional_resources_gives_nothing():
    state = after_battle()
    # German (loser) rolls 4 → Ehnert, who is in the Regimental Reserve: nothing.
    out = conclude(
        state, US, {"quality": "none", "divisional.allies": "Slingsluff"}, [(2, 2), (2, 2), (3, 4)]
    )
    state = done(out)
    assert state.regimental[G] == no.REGIMENTAL[G]
    assert state.regimental[US] == [*no.REGIMENTAL[US], "Slingsluff"]


def test_no_c3_8_vp_and_air_superiority_reset():
    state = after_battle()
    state.air_superiority = "ground_support"
    state = done(conclude(state, G, {"quality": "none"}))
    assert (state.air_superiority, state.battle, state.phase) == ("recall", 2, Phase.FORCES)

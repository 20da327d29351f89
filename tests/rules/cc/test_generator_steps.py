"""RS.1–RS.17 as steps over a ScenarioState, with entered dice computed by hand."""

from dataclasses import replace

import pytest

from rules.cc.common import Faction, Posture, Quality
from rules.cc.generator import (
    EndReason,
    GeneratorData,
    MapEdge,
    Nation,
    Orientation,
    ScenarioState,
    SecondBuyer,
    rs_1_map_choice,
    rs_1_orient_map,
    rs_2_axis_and_allies,
    rs_3_troop_quality,
    rs_4_objectives,
    rs_5_order_of_battle,
    rs_6_leaders,
    rs_7_support,
    rs_8_posture,
    rs_9_fortifications,
    rs_10_defender_setup,
    rs_11_1_asset_request,
    rs_11_2_attacker_setup,
    rs_12_fortification_setup,
    rs_13_recon_setup,
    rs_14_markers,
    rs_15_cards,
    rs_16_zero_hour,
    rs_17_battle_result,
)
from rules.dice import EnteredDice
from rules.errors import RuleError, TableDataError

AXIS, ALLIES = Faction.AXIS, Faction.ALLIES


def ob(nation, letter, *, pv, orders, initiative, surrender, leaders, quality="line"):
    return {
        "nation": nation,
        "size": "Company",
        "letter": letter,
        "first_year": 1943,
        "last_year": 1945,
        "quality": quality,
        "point_value": pv,
        "orders": orders,
        "initiative": initiative,
        "surrender": surrender,
        "leaders": leaders,
    }


DATA = GeneratorData.from_raw(
    {
        "orders_of_battle": [
            ob("germany", "B", pv=6, orders=3, initiative=2, surrender=10, leaders=2),
            ob("usa", "S", pv=4, orders=4, initiative=3, surrender=11, leaders=1),
            ob("usa", "T", pv=4, orders=4, initiative=3, surrender=11, leaders=1, quality="elite"),
        ],
        "leader_tables": {
            "germany": [{"roll": r, "leader": n} for r, n in enumerate("ABCDEFG", start=1)],
        },
        "support_tables": {
            "usa": [
                {
                    "roll_low": 5,
                    "roll_high": 7,
                    "item": "Sgt + squad",
                    "cost": 3,
                    "from_year": 1942,
                },
                {
                    "roll_low": 6,
                    "roll_high": 6,
                    "item": "Radio 105",
                    "cost": 2,
                    "from_year": 1943,
                    "radio": True,
                },
                {
                    "roll_low": 6,
                    "roll_high": 8,
                    "item": "Bazooka team",
                    "cost": 1,
                    "from_year": 1944,
                },
                {
                    "roll_low": 6,
                    "roll_high": 6,
                    "item": "Old gun",
                    "cost": 1,
                    "from_year": 1940,
                    "to_year": 1942,
                },
            ],
            "germany": [
                {
                    "roll_low": 8,
                    "roll_high": 10,
                    "item": "Pionier squad",
                    "cost": 2,
                    "from_year": 1939,
                },
                {
                    "roll_low": 9,
                    "roll_high": 9,
                    "item": "Radio 81",
                    "cost": 1,
                    "from_year": 1939,
                    "radio": True,
                },
            ],
        },
    }
)


def start():
    return ScenarioState(players=("Ana", "Ben"))


@pytest.mark.parametrize(
    ("faces", "chooser"), [((3, 5), "Ana"), ((2, 2), "Ana"), ((3, 4), "Ben"), ((6, 5), "Ben")]
)
def test_rs_1_even_roll_roller_chooses_the_map(faces, chooser):
    result = rs_1_map_choice(start(), EnteredDice([faces]), roller="Ana")
    assert result.state.map_chooser == chooser


@pytest.mark.parametrize(
    ("face", "edge", "orientation"),
    [
        (1, MapEdge.TOP, Orientation.WIDE),
        (2, MapEdge.RIGHT, Orientation.LONG),
        (3, MapEdge.RIGHT, Orientation.LONG),
        (4, MapEdge.BOTTOM, Orientation.WIDE),
        (5, MapEdge.LEFT, Orientation.LONG),
        (6, MapEdge.LEFT, Orientation.LONG),
    ],
)
def test_rs_1_chosen_die_sets_friendly_edge(face, edge, orientation):
    # digest §6 #3: 2-3 right side, 5-6 left side, 1 top edge, 4 bottom edge
    state = rs_1_map_choice(start(), EnteredDice([(1, 1)]), roller="Ana").state
    dice = EnteredDice([(face, 6 if face != 6 else 1)])
    asked = rs_1_orient_map(state, dice, map_id="12")
    assert asked.decision.options == ("white", "coloured")
    assert asked.decision.chooser == "Ben"
    done = rs_1_orient_map(asked.state, dice, map_id="12", die="white").state
    assert done.edges == {"Ben": edge, "Ana": edge.opposite}
    assert done.orientation is orientation
    assert done.vp_axis == 0 and dice.remaining == 0


def test_rs_1_coloured_die_may_be_chosen():
    state = rs_1_map_choice(start(), EnteredDice([(1, 2)]), roller="Ana").state  # odd: Ben chooses
    done = rs_1_orient_map(state, EnteredDice([(2, 4)]), map_id="3", die="coloured").state
    assert done.edges["Ana"] is MapEdge.BOTTOM


def test_rs_2_coin_nationality_year_and_allies():
    # tails: Ben (flipper) is Allied; 10 → Italy; 7 → 1940; RS.2.3 1940 roll 7 → Britain
    state = rs_2_axis_and_allies(start(), EnteredDice([2, 10, 7, 7]), flipper="Ben").state
    assert (state.axis.player, state.axis.nation, state.year) == ("Ana", Nation.ITALY, 1940)
    assert (state.allies.player, state.allies.nation) == ("Ben", Nation.BRITAIN)


def _through_rs_4():
    dice = EnteredDice([(3, 5), (1, 4), 2, 7, 9, 4, 7, 10])
    state = rs_1_map_choice(start(), dice, roller="Ana").state
    state = rs_1_orient_map(state, dice, map_id="12", die="coloured").state
    state = rs_2_axis_and_allies(state, dice, flipper="Ben").state
    state = rs_3_troop_quality(state, dice).state
    state = rs_4_objectives(
        state, known="C", known_values={3: 1}, axis_secret="G", allied_secret="K"
    ).state
    assert dice.remaining == 0
    return state


def test_rs_1_to_rs_4_walkthrough():
    state = _through_rs_4()
    assert state.map_chooser == "Ana" and state.edges["Ben"] is MapEdge.BOTTOM
    assert state.orientation is Orientation.WIDE
    assert (state.axis.player, state.axis.nation, state.year, state.allies.nation) == (
        "Ana",
        Nation.GERMANY,
        1944,
        Nation.USA,
    )
    # German 1943-44 roll 7 → Line; American 1944 roll 10 → Line
    assert (state.axis.quality, state.allies.quality) == (Quality.LINE, Quality.LINE)


def test_rs_5_to_rs_16_attack_defend_walkthrough():
    state = _through_rs_4()
    asked = rs_5_order_of_battle(state, DATA)
    assert asked.decision.options == (("Company", "B"),)
    state = rs_5_order_of_battle(state, DATA, axis=("Company", "B"), allies=("Company", "S")).state
    assert state.vp_axis == -6 + 4  # Allies ahead by 2: the cheaper OB

    # RS.6: white 2+1 = 3 → C; 2+1 again → re-roll; 5+1 = 6 → F
    dice = EnteredDice([(2, 6), (2, 1), (5, 5)])
    state = rs_6_leaders(state, dice, DATA, faction=AXIS, modifier=1).state
    assert state.axis.leaders == ("C", "F")

    # RS.7: Allies (ahead) roll 6: non-Radio units of 1944 in column 6
    dice = EnteredDice([6, 9])
    asked = rs_7_support(state, dice, DATA)
    assert set(asked.decision.options) == {"Sgt + squad", "Bazooka team"}
    assert asked.decision.chooser == "Ben"
    # pays 3: marker from Allies +2 to Axis +1 → Axis rolls 9 and must buy
    asked = rs_7_support(asked.state, dice, DATA, purchases=["Sgt + squad"])
    assert asked.state.vp_axis == 1
    assert asked.decision.options == ("Pionier squad",)
    state = rs_7_support(asked.state, dice, DATA, purchases=["Pionier squad"]).state
    assert state.vp_axis == -1 and "RS.7" in state.done

    state = rs_8_posture(state).state
    assert (state.axis.posture, state.allies.posture) == (Posture.ATTACK, Posture.DEFEND)

    asked = rs_9_fortifications(state)
    assert asked.decision.options == ("Atrincheramientos de Urgencia",)  # budget 1 VP
    state = rs_9_fortifications(state, purchases=["Atrincheramientos de Urgencia"]).state
    assert state.vp_axis == 0

    state = rs_10_defender_setup(state).state
    assert state.allies.setup_depth == 8
    assert state.vp_axis == -1  # Allies control Objective 3, Known chit worth 1

    dice = EnteredDice([9])
    state = rs_11_1_asset_request(state, dice, DATA, request=True).state
    assert state.axis.radio.item == "Radio 81" and state.vp_axis == -2

    state = rs_11_2_attacker_setup(state, occupied={3}).state
    assert state.axis.setup_depth == 2
    assert state.control[3] is AXIS and state.vp_axis == 0  # swing of 2 × 1

    assert rs_12_fortification_setup(state).explanation.steps[-1].value == 8

    state = rs_14_markers(state).state
    assert (state.time_space, state.sudden_death) == (0, 7)  # 3 + 4 Orders
    assert (state.axis.surrender, state.allies.surrender) == (10, 11)

    state = rs_15_cards(state).state
    assert state.initiative is ALLIES  # Initiative 3 > 2
    assert (state.axis.hand_size, state.allies.hand_size) == (6, 4)
    assert (state.axis.deck, state.allies.deck) == ("German", "American")
    assert rs_16_zero_hour(state).state.first_turn is ALLIES


def _after_rs_5(allied_letter="S", axis_vp=None):
    state = rs_5_order_of_battle(
        _through_rs_4(), DATA, axis=("Company", "B"), allies=("Company", allied_letter)
    ).state
    return state if axis_vp is None else replace(state, vp_axis=axis_vp)


def test_rs_5_ob_must_match_quality():
    with pytest.raises(RuleError) as err:
        rs_5_order_of_battle(_through_rs_4(), DATA, axis=("Company", "B"), allies=("Company", "T"))
    assert err.value.rule == "RS.5"


def test_rs_6_leader_modifier_must_come_from_the_player():
    with pytest.raises(TypeError):
        rs_6_leaders(_after_rs_5(), EnteredDice([1, 2]), DATA, faction=AXIS)


def test_rs_6_too_few_leaders_in_reach_is_refused():
    small = GeneratorData.from_raw({"leader_tables": {"germany": [{"roll": 1, "leader": "A"}]}})
    with pytest.raises(RuleError) as err:
        rs_6_leaders(_after_rs_5(), EnteredDice([]), small, faction=AXIS, modifier=0)
    assert err.value.rule == "RS.6"


def test_rs_4_three_different_chits():
    with pytest.raises(RuleError) as err:
        rs_4_objectives(start(), known="C", known_values={3: 1}, axis_secret="C", allied_secret="K")
    assert err.value.rule == "RS.4"


def test_rs_11_1_asset_request_is_optional():
    state = rs_8_posture(_after_rs_5(axis_vp=-2)).state
    asked = rs_11_1_asset_request(state, EnteredDice([]), DATA)
    assert asked.decision.options == (True, False) and asked.decision.chooser == "Ana"
    declined = rs_11_1_asset_request(state, EnteredDice([]), DATA, request=False).state
    assert declined.axis.radio is None and declined.vp_axis == -2
    # roll 2: no Radio in that column → nothing bought, VP unchanged
    none = rs_11_1_asset_request(state, EnteredDice([2]), DATA, request=True).state
    assert none.axis.radio is None and "RS.11.1" in none.done


@pytest.mark.parametrize(
    ("reading", "second"), [(SecondBuyer.PAST_ZERO, False), (SecondBuyer.AT_OR_PAST_ZERO, True)]
)
def test_rs_7_second_buyer_when_marker_stops_on_zero(reading, second):
    state = _after_rs_5(axis_vp=-3)  # Allies ahead by 3
    dice = EnteredDice([5, 9])
    result = rs_7_support(state, dice, DATA, purchases=["Sgt + squad"], second_buyer=reading)
    assert result.state.vp_axis == 0
    assert (result.decision is not None) is second


def test_rs_7_vp_on_zero_skips_support():
    result = rs_7_support(_after_rs_5(axis_vp=0), EnteredDice([]), DATA)
    assert "RS.7" in result.state.done and result.decision is None


def test_rs_7_radios_cannot_be_bought():
    with pytest.raises(RuleError) as err:
        rs_7_support(_after_rs_5(), EnteredDice([6]), DATA, purchases=["Radio 105"])
    assert err.value.rule == "RS.7"


def test_rs_7_repeat_purchases_are_allowed():
    state = _after_rs_5(axis_vp=-5)
    state = rs_7_support(
        state, EnteredDice([6]), DATA, purchases=["Bazooka team", "Bazooka team"]
    ).state
    assert state.vp_axis == -3 and len(state.allies.support) == 2


def test_rs_8_marker_on_zero_makes_both_recon():
    state = rs_8_posture(_after_rs_5(axis_vp=0)).state
    assert state.axis.posture is state.allies.posture is Posture.RECON


def _defending_allies(vp):
    return rs_8_posture(_after_rs_5(axis_vp=-vp)).state


@pytest.mark.parametrize(
    ("buy", "strength"),
    [
        (["Complejo de Búnkeres", "Campo de Minas de Organizados"], 8),
        (["Campo de Minas", "Alambre de Espino"], 7),
        (["Campo de Minas de Urgencia", "Campo de Minas de Urgencia"], 6),
    ],
)
def test_rs_9_minefields_of_one_strength(buy, strength):
    state = rs_9_fortifications(_defending_allies(30), purchases=buy).state
    assert state.mine_strength == strength
    assert rs_14_markers(state).state.mine_strength == strength


@pytest.mark.parametrize(
    "buy",
    [
        ["Complejo de Búnkeres", "Campo de Minas"],
        ["Complejo de Búnkeres", "Campo de Minas de Urgencia"],
        ["Campo de Minas", "Campo de Minas de Organizados"],
    ],
)
def test_rs_9_mixed_minefield_strengths_are_refused(buy):
    with pytest.raises(RuleError) as err:
        rs_9_fortifications(_defending_allies(30), purchases=buy)
    assert err.value.rule == "RS.9"


def test_rs_9_cannot_spend_more_than_defender_vp():
    with pytest.raises(RuleError):
        rs_9_fortifications(_defending_allies(5), purchases=["Campo de Minas de Urgencia"])
    state = rs_9_fortifications(
        _defending_allies(6), purchases=["Campo de Minas de Urgencia"]
    ).state
    assert state.vp_axis == 0


def test_rs_13_recon_setup_and_initiative_tie():
    state = rs_8_posture(_after_rs_5(axis_vp=0)).state
    result = rs_13_recon_setup(state, axis_only={1}, allied_only={3})
    assert result.explanation.steps[2].value == "allies"  # Initiative 3 > 2 sets up first
    assert result.state.axis.setup_depth == result.state.allies.setup_depth == 4
    assert result.state.vp_axis == -1  # Known chit: Objective 3 (1 VP) to the Allies

    tied = GeneratorData.from_raw(
        {
            "orders_of_battle": [
                ob("germany", "B", pv=4, orders=3, initiative=3, surrender=10, leaders=2),
                ob("usa", "S", pv=4, orders=4, initiative=3, surrender=11, leaders=1),
            ]
        }
    )
    state = rs_8_posture(
        rs_5_order_of_battle(
            _through_rs_4(), tied, axis=("Company", "B"), allies=("Company", "S")
        ).state
    ).state
    asked = rs_13_recon_setup(state, axis_only=(), allied_only=())
    assert asked.decision.options == (AXIS, ALLIES)
    assert rs_15_cards(state).decision is not None
    assert rs_15_cards(state, initiative=AXIS).state.initiative is AXIS


def test_rs_14_sudden_death_out_of_range_is_bad_ob_data():
    big = GeneratorData.from_raw(
        {
            "orders_of_battle": [
                ob("germany", "B", pv=4, orders=6, initiative=1, surrender=10, leaders=2),
                ob("usa", "S", pv=4, orders=5, initiative=3, surrender=11, leaders=1),
            ]
        }
    )
    state = rs_5_order_of_battle(
        _through_rs_4(), big, axis=("Company", "B"), allies=("Company", "S")
    ).state
    with pytest.raises(RuleError) as err:
        rs_14_markers(state)
    assert err.value.rule == "RS.14"


def test_rs_generator_tables_are_validated():
    with pytest.raises(TableDataError) as err:
        GeneratorData.from_raw(
            {
                "orders_of_battle": [
                    ob("germany", "S", pv=1, orders=1, initiative=1, surrender=1, leaders=1)
                ]
            }
        )
    assert "the OB letters of germany are A to J" in str(err.value)


@pytest.mark.parametrize(
    ("end", "vp", "losers", "secret", "winner"),
    [
        (EndReason.SURRENDER, 9, [AXIS], 0, ALLIES),
        (EndReason.LAST_UNIT_ELIMINATED, -4, [ALLIES], 0, AXIS),
        (EndReason.SURRENDER, 0, [AXIS, ALLIES], 0, ALLIES),
        (EndReason.SUDDEN_DEATH, -3, [], 4, AXIS),
        (EndReason.SUDDEN_DEATH, 2, [], -2, ALLIES),
        (EndReason.LAST_UNIT_EXITED, 0, [], 0, ALLIES),
    ],
)
def test_rs_17_battle_result(end, vp, losers, secret, winner):
    result = rs_17_battle_result(
        end=end, vp_axis=vp, initiative=ALLIES, losers=losers, secret_vp_axis=secret
    )
    assert result.winner is winner

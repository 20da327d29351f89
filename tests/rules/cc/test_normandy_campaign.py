"""A whole Normandy campaign (NO-C1/NO-C3) played with entered dice and explicit choices.

Results W, L, W, L, W, W for the US: battles at A1, A2, G1, A3, G1, A4; the US wins 4-2.
Section costs are the fictional test values of campaign_helpers (US 2, Richardson 3; German 3,
Von Hoffman 4); Orders/Initiative/Surrender of Craighead, Krauss, Bowen, Heinzmann and Ehnert
follow the seed's examples.
"""

from rules.cc import normandy as no
from rules.cc.campaign import Phase
from rules.cc.common import Faction, Posture, Quality
from rules.dice import EnteredDice
from tests.rules.cc.campaign_helpers import NORMANDY_TABLES as TABLES
from tests.rules.cc.campaign_helpers import done

US, G = Faction.ALLIES, Faction.AXIS


def battle(state, dice, forces, support, winner, after):
    state = done(no.prepare_forces(state, TABLES, dice, forces))
    state = done(no.prepare_support(state, TABLES, support))
    state = done(no.conclude_battle(state, winner, TABLES, dice, after))
    return no.NormandyState.from_dict(state.to_dict())


def vp_moves(state, n):
    return [e.delta_axis for e in state.battles[n - 1].vp_ledger]


def test_no_c1_c3_whole_campaign_us_wins_four_of_six():
    state = no.new_campaign()
    dice = EnteredDice()

    # Battle 1 at A1: the NO-C1.55 example purchase; US armor, German artillery 2, German FP 2.
    dice.push((5, 2), (2, 2), (3, 4), (1, 1))
    state = battle(
        state,
        dice,
        {"purchase.allies": ["Krauss", "Bowen"], "purchase.axis": ["Ehnert"]},
        {
            "rs7.vp_axis": -1,
            "us_armor": True,
            "german_armor": False,
            "german_artillery": 2,
            "rs9.cost": 1,
            "fortify.axis": 2,
        },
        US,
        {"quality": "none", "divisional.allies": "Richardson"},
    )
    b1 = state.battles[0]
    assert (b1.position, b1.map, b1.orientation) == ("A1", 2, 5)
    assert vp_moves(state, 1) == [4, -3, -2, 4, 1, -5, 1, -2]
    assert b1.posture == {US: Posture.DEFEND, G: Posture.ATTACK}
    assert b1.totals[US] == {"orders": 4, "initiative": 10, "surrender": 9}  # RS.8/RS.16 examples
    assert b1.totals[G]["initiative"] == 5 and b1.totals[G]["surrender"] == 6
    assert b1.extras["initiative_card"] == "allies"
    assert b1.extras["pre_registered_fire"] == 2
    assert (state.battle, state.position, state.wins) == (2, "A2", {US: 1, G: 0})
    assert state.command_leader(US) == "2Lt Craighead"
    assert state.exhausted == {US: ["Krauss", "Bowen"], G: ["Ehnert"]}
    assert state.regimental == {
        US: ["Craighead", "Cawthon", "Richardson"],
        G: ["Heinzmann", "Hummel", "Becker"],
    }
    assert state.divisional[US] == ["Slingsluff", "Miller", "Ewing"]
    assert (state.armor[US].balance, state.artillery.balance, state.fortification.balance) == (
        4,
        9,
        5,
    )
    assert state.air_superiority == "recall"

    # Battle 2 at A2: German armor (no artillery); no US armor → Ground Support. German wins.
    dice.push((3, 3), (5, 5), (1, 2), (3, 3))
    state = battle(
        state,
        dice,
        {"purchase.allies": ["Cawthon"], "purchase.axis": ["Hummel", "Becker"]},
        {
            "rs7.vp_axis": 1,
            "us_armor": False,
            "german_armor": True,
            "rs9.cost": 0,
            "fortify.axis": 0,
        },
        G,
        {"quality": "lower_opponent", "divisional.axis": "Wetteman"},
    )
    b2 = state.battles[1]
    assert vp_moves(state, 2) == [2, -6, 5, -4]
    assert b2.extras["german_armor"] is True and "pre_registered_fire" not in b2.extras
    assert b2.posture[US] is Posture.DEFEND
    assert (state.battle, state.position, state.wins) == (3, "G1", {US: 1, G: 1})
    assert state.command_leader(G) == "2Lt Heinzmann"
    assert state.quality == {US: Quality.GREEN, G: Quality.LINE}
    assert state.regimental == {
        US: ["Craighead", "Richardson", "Ewing"],
        G: ["Heinzmann", "Wetteman"],
    }
    assert state.armor[G].balance == 0

    # Battle 3 at G1; the US wins; the rest day follows (once).
    dice.push((2, 6), (2, 2), (6, 6), (4, 4), (2, 4), (4, 6))
    state = battle(
        state,
        dice,
        {"purchase.allies": ["Ewing"], "purchase.axis": []},
        {
            "rs7.vp_axis": -2,
            "us_armor": True,
            "german_artillery": 3,
            "rs9.cost": 2,
            "fortify.axis": 5,
        },
        US,
        {
            "quality": "raise_own",
            "rest_day.allies": ["Krauss", "Ewing"],
            "rest_day.axis": ["Ehnert"],
            "divisional.allies": "Ewing",
        },
    )
    assert vp_moves(state, 3) == [2, 0, -4, 4, 1, -5, 2, -5]
    assert (state.battle, state.position, state.wins) == (4, "A3", {US: 2, G: 1})
    # NO-C3.4 example: after 2 US wins and 1 German win, 1Lt Craighead and 2Lt Heinzmann.
    assert (state.command_leader(US), state.command_leader(G)) == ("1Lt Craighead", "2Lt Heinzmann")
    assert state.rest_day_done
    assert state.exhausted == {US: ["Bowen", "Cawthon"], G: ["Hummel", "Becker"]}
    assert state.divisional == {
        US: ["Slingsluff", "Miller", "Krauss"],
        G: ["Gessler", "Von Hoffman", "Ehnert"],
    }
    assert state.regimental == {
        US: ["Craighead", "Richardson", "Ewing"],
        G: ["Heinzmann", "Wetteman", "Rubart"],
    }
    assert state.quality[US] is Quality.LINE
    assert (state.armor[US].balance, state.artillery.balance, state.fortification.balance) == (
        3,
        6,
        0,
    )

    # Battle 4 at A3: both Recon; the German wins; the US goes back to G1.
    dice.push((4, 1), (3, 5), (5, 6), (1, 4))
    state = battle(
        state,
        dice,
        {"purchase.allies": ["Richardson", "Ewing"], "purchase.axis": ["Wetteman"]},
        {"rs7.vp_axis": 0, "us_armor": False, "german_artillery": 0},
        G,
        {"quality": "none", "divisional.axis": "Ehnert"},
    )
    assert vp_moves(state, 4) == [5, -3, -2]
    assert state.battles[3].posture == {US: Posture.RECON, G: Posture.RECON}
    assert (state.battle, state.position, state.wins) == (5, "G1", {US: 2, G: 2})
    assert state.command_leader(G) == "1Lt Heinzmann"
    assert state.regimental == {US: ["Craighead", "Miller"], G: ["Heinzmann", "Rubart", "Ehnert"]}

    # Battle 5 at G1: the US wins and goes to the next A-position not yet played, A4.
    dice.push((6, 6), (1, 1), (2, 2), (3, 3))
    state = battle(
        state,
        dice,
        {"purchase.allies": ["Miller"], "purchase.axis": ["Rubart", "Ehnert"]},
        {"rs7.vp_axis": -1, "us_armor": True, "german_artillery": 3, "rs9.cost": 1},
        US,
        {"quality": "raise_own"},
    )
    assert (state.battle, state.position, state.wins) == (6, "A4", {US: 3, G: 2})
    assert state.command_leader(US) == "Capt Craighead"
    assert state.quality == {US: Quality.ELITE, G: Quality.LINE}
    assert state.regimental == {US: ["Craighead", "Slingsluff"], G: ["Heinzmann", "Von Hoffman"]}
    assert (state.armor[US].balance, state.artillery.balance) == (2, 3)

    # Battle 6 at A4: the fourth US win ends the campaign.
    dice.push((1, 2))
    state = battle(
        state,
        dice,
        {"purchase.allies": [], "purchase.axis": []},
        {"us_armor": False, "german_artillery": 3, "rs9.cost": 0},
        US,
        {},
    )
    assert vp_moves(state, 6) == [0, 0, -5]
    assert state.battles[5].map == 44
    assert state.phase is Phase.ENDED
    assert (state.winner, state.victory, state.wins) == (US, "four_wins", {US: 4, G: 2})
    assert state.artillery.balance == 0 and [e.amount for e in state.artillery.ledger] == [
        -2,
        -3,
        -3,
        -3,
    ]
    assert dice.remaining == 0

"""A whole Stalingrad campaign (ST-C1/ST-C3) played with entered dice and explicit choices.

Expected values are worked by hand from the seed's rules and the fictional test tables in
campaign_helpers (Patrol costs C, D, A, B = 2; F, Pionier, E, Assault Engineers = 3).
"""

from rules.cc import stalingrad as st
from rules.cc.campaign import Phase
from rules.cc.common import Faction, Posture, Quality
from rules.cc.stalingrad import CarriedUnit, StalingradResult
from rules.dice import EnteredDice
from tests.rules.cc.campaign_helpers import STALINGRAD_TABLES as TABLES
from tests.rules.cc.campaign_helpers import done

G, R = Faction.AXIS, Faction.ALLIES


def battle(state, dice, forces, support, winner, survivors, after):
    state = done(st.prepare_forces(state, TABLES, dice, forces))
    state = done(st.prepare_support(state, TABLES, support))
    outcome = st.conclude_battle(state, StalingradResult(winner, survivors), TABLES, dice, after)
    state = done(outcome)
    # JSON round trip between sessions, as the site stores it.
    return st.StalingradState.from_dict(state.to_dict()), outcome


def test_st_c1_c3_whole_campaign_ends_in_tactical_victory():
    state = st.new_campaign()
    dice = EnteredDice()

    # Battle 1 at O. German buys C+D (4 VP), Russian the Assault Engineers (3 VP): VP -4 → -1.
    dice.push((3, 4), (1, 2), (2, 3), (1, 1))
    state, out = battle(
        state,
        dice,
        {"purchase.axis": ["C", "D"], "purchase.allies": ["Assault Engineers"]},
        {"rs7.vp_axis": 2, "rs9.cost": 1, "fortify.axis": 3, "fortify.allies": 2},
        G,
        {
            G: [
                CarriedUnit("g1", "Rifle squad", "LMG", veteran=True),
                CarriedUnit("g2", "Rifle squad"),
                CarriedUnit("g3", "Sgt Biermann", leader_of="C"),
                CarriedUnit("g4", "Rifle squad"),
            ],
            R: [
                CarriedUnit("r1", "Rifle squad", "MMG"),
                CarriedUnit("r2", "Rifle squad", veteran=True),
                *(CarriedUnit(f"r{i}", "Rifle squad") for i in range(3, 7)),
                CarriedUnit("r7", "Lt Gulikevich", leader_of="Assault Engineers"),
            ],
        },
        {
            "position": "R1",
            "quality": "raise_own",
            "reinforcements.axis": ["g1", "g3"],
            "weapons.axis": ["g1"],
            "reinforcements.allies": ["r1", "r2", "r3", "r7"],
            "weapons.allies": [],
            "divisional.axis": "D",
        },
    )
    record = state.battles[0]
    assert (record.position, record.map, record.orientation, record.extras["rubble"]) == (
        "O",
        37,
        3,
        4,
    )
    assert record.posture == {G: Posture.DEFEND, R: Posture.ATTACK}
    assert record.vp_axis == 1  # -4 + 3 = -1 → RS.7 2 → RS.9 German pays 1
    assert record.totals[G] == {"orders": 4, "initiative": 7, "surrender": 8}
    assert state.battle == 2 and state.position == "R1"
    assert state.quality == {G: Quality.ELITE, R: Quality.LINE}
    assert state.fort_points[G].balance == 8 and state.fort_points[R].balance == 9
    assert state.pool == {G: ["F", "Pionier", "D"], R: ["A", "B", "E"]}
    assert [(u.id, u.weapon, u.veteran) for u in state.reinforcements[G]] == [
        ("g1", "LMG", True),
        ("g3", None, False),
    ]
    assert [u.id for u in state.reinforcements[R]] == ["r1", "r2", "r3", "r7"]
    assert state.reinforcements[R][0].weapon is None  # the MMG went back
    allowances = [s.value for s in out.explanation if s.rule == "ST-C3.4" and "÷" in str(s.text)]
    assert allowances == [2, 4]  # the seed's ST-C3.4 example: 4 → 2, 7 → 4

    # Battle 2 at R1. German pays 2 units + 1 weapon = 3; Russian A (2) + 4 units = 6.
    dice.push((6, 1), (5, 5), (2, 2), (6, 6))
    state, _ = battle(
        state,
        dice,
        {"purchase.axis": [], "purchase.allies": ["A"]},
        {"rs7.vp_axis": -2, "rs9.cost": 2, "fortify.axis": 0, "fortify.allies": 4},
        R,
        {
            G: [CarriedUnit("g1", "Rifle squad", "LMG", veteran=True), CarriedUnit("g5", "x")],
            R: [
                CarriedUnit("r2", "y", veteran=True),
                CarriedUnit("r8", "y"),
                CarriedUnit("r9", "y", "LMG"),
            ],
        },
        {
            "position": "O",
            "quality": "lower_opponent",
            "reinforcements.axis": ["g1"],
            "weapons.axis": ["g1"],
            "reinforcements.allies": ["r9"],
            "weapons.allies": ["r9"],
            "divisional.allies": "Assault Engineers",
        },
    )
    assert [e.delta_axis for e in state.battles[1].vp_ledger] == [-3, 6, -5, 2]
    assert state.battles[1].posture == {R: Posture.DEFEND, G: Posture.ATTACK}
    assert (state.battle, state.position) == (3, "O")
    assert state.quality == {G: Quality.LINE, R: Quality.LINE}
    assert state.fort_points[R].balance == 5
    assert state.pool == {G: ["F", "Pionier", "D"], R: ["B", "E", "Assault Engineers"]}

    # Battle 3 at O: both Recon; the Russian win moves the campaign automatically to G1.
    dice.push((2, 5), (3, 3), (4, 5), (1, 3))
    state, _ = battle(
        state,
        dice,
        {"purchase.axis": ["F"], "purchase.allies": ["B"]},
        {"rs7.vp_axis": 0, "fortify.axis": 2, "fortify.allies": 0},
        R,
        {
            G: [],
            R: [CarriedUnit("r9", "y", "LMG"), CarriedUnit("r10", "y"), CarriedUnit("r11", "y")],
        },
        {"quality": "raise_own", "reinforcements.allies": ["r10"], "divisional.allies": "A"},
    )
    assert state.battles[2].extras["rubble"] == 12
    assert [e.delta_axis for e in state.battles[2].vp_ledger] == [-5, 4, 1]
    assert state.battles[2].posture == {G: Posture.RECON, R: Posture.RECON}
    assert (state.battle, state.position) == (4, "G1")
    assert state.quality == {G: Quality.LINE, R: Quality.ELITE}
    assert state.reinforcements == {G: [], R: [CarriedUnit("r10", "y")]}
    assert state.pool == {G: ["Pionier", "D"], R: ["E", "Assault Engineers", "A"]}

    # Battle 4 at G1: the German attacker wins and takes the next battle back to O.
    dice.push((1, 6), (6, 5), (2, 1), (3, 2))
    state, _ = battle(
        state,
        dice,
        {"purchase.axis": ["D", "Pionier"], "purchase.allies": []},
        {"rs7.vp_axis": -1, "rs9.cost": 0, "fortify.axis": 6, "fortify.allies": 5},
        G,
        {
            G: [CarriedUnit("g6", "Sgt Esser", leader_of="D"), CarriedUnit("g7", "x")],
            R: [CarriedUnit("r10", "y")],
        },
        {
            "position": "O",
            "quality": "raise_own",
            "reinforcements.axis": ["g6"],
            "reinforcements.allies": [],
            "divisional.axis": "C",
        },
    )
    assert [e.delta_axis for e in state.battles[3].vp_ledger] == [-5, 1, 3]
    assert (state.battle, state.position) == (5, "O")
    assert state.quality == {G: Quality.ELITE, R: Quality.ELITE}
    assert state.fort_points[G].balance == 0 and state.fort_points[R].balance == 0
    assert [e.amount for e in state.fort_points[G].ledger] == [-3, -2, -6]
    assert state.pool == {G: ["C"], R: ["E", "Assault Engineers", "A"]}
    assert [u.id for u in state.reinforcements[G]] == ["g6"] and state.reinforcements[R] == []

    # Battle 5 at O: the Russian wins; campaign Sudden Death roll 4 < 5 ends the campaign.
    dice.push((4, 4), (1, 3))
    state, out = battle(
        state,
        dice,
        {"purchase.axis": ["C"], "purchase.allies": ["E", "A"]},
        {"rs7.vp_axis": -3, "rs9.cost": 3},
        R,
        {},
        {},
    )
    assert [e.delta_axis for e in state.battles[4].vp_ledger] == [-3, 5, -5, 3]
    assert state.phase is Phase.ENDED
    assert (state.winner, state.victory, state.battle) == (R, "tactical", 5)
    assert dice.remaining == 0
    assert out.explanation.rolls[-1].value == 4

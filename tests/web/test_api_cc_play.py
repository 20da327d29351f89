"""Combat Commander campaigns played from creation to their end through the REST API only.

Each flow is played twice: with the site's dice (the server source patched to a script) and
with every roll entered at the table (each roll decision answered with the same faces). The
same faces give the same campaign, so both modes assert the same exact state after every
battle: its number and position, qualities, wins, pools, the winner recorded and the log.
The answers each flow gives are chosen from the rules (rules/cc/stalingrad.py, normandy.py,
gastadores.py); the comments say what each one leads to.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.cc.campaign_helpers import NORMANDY_DATA, STALINGRAD_DATA
from tests.web.api_play import ApiTable, BattlePlan, DiceScript, check, finished, side_list

pytestmark = pytest.mark.django_db

DICE_MODES = pytest.mark.parametrize("dice_mode", ["server", "entered"])
GERMANS, SOVIETS = 0, 1  # Stalingrad's sides, in order
AMERICANS, NORMANDY_GERMANS = 0, 1  # Normandy's and Gastadores' sides, in order
RECON = {"axis": "recon", "allies": "recon"}


@pytest.fixture
def script(dice_mode, monkeypatch) -> DiceScript:
    script = DiceScript()
    if dice_mode == "server":
        script.patch_server(monkeypatch)
    return script


@pytest.fixture
def players(make_user):
    return [make_user("axel"), make_user("boris")]


# --- Stalingrad (Scenario 45): ST-C1 set-up, ST-C3 after a battle ----------------------------

SURVIVORS_NONE = {"survivors_axis": "", "survivors_allies": ""}

DECISIVE = [
    # Battle 1 at O. Germans buy C (2) and F (3), Soviets A (2): VP 3 on the Soviet side;
    # RS.7 moves it to 4; the Soviets (ahead) defend and spend 1 on RS.9; both fortify.
    BattlePlan(
        setup_rolls=[(3, 1)],
        setup={
            "purchase.axis": ["C", "F"],
            "purchase.allies": ["A"],
            "rs7.vp_axis": -4,
            "rs9.cost": 1,
            "fortify.axis": 2,
            "fortify.allies": 3,
        },
        expect_setup={
            "orientation": 3,
            "vp_axis": -3,
            "posture": {"axis": "attack", "allies": "defend"},
            "fielded": {
                "axis": ["German Command Patrol", "C", "F"],
                "allies": ["Russian Command Patrol", "A"],
            },
        },
        winner=GERMANS,
        result={
            "survivors_axis": "g1; Rifle squad; LMG; veteran\ng2; Weapon team; MMG",
            "survivors_allies": "s1; Rifle squad",
        },
        # The Germans won attacking: R1 or R2. 2 survivors ÷ Battle marker 2 → keep 1.
        # Divisional: Soviet 4 → A (bought: back); German 3 → C and 9 → F, keep F.
        after={
            "position": "R1",
            "quality": "raise_own",
            "reinforcements.axis": ["g1"],
            "weapons.axis": ["g1"],
            "reinforcements.allies": ["s1"],
            "divisional.axis": "F",
        },
        after_rolls=[(2, 2), (1, 2), (4, 5)],
    ),
    # Battle 2 at R1: Reinforcements cost 2 (German unit and LMG) and 1 (Soviet unit).
    BattlePlan(
        setup_rolls=[(6, 4)],
        setup={
            "purchase.axis": [],
            "purchase.allies": [],
            "rs7.vp_axis": -1,
            "rs9.cost": 0,
            "fortify.axis": 0,
            "fortify.allies": 0,
        },
        expect_setup={
            "orientation": 6,
            "vp_axis": -1,
            "posture": {"axis": "attack", "allies": "defend"},
        },
        winner=GERMANS,
        result=SURVIVORS_NONE,
        # R1 → R2 is the only move; Elite Germans can only lower the Soviets. Divisional:
        # Soviet 6 → B (in the pool: nothing); German 2 → C (granted), 7 → D (in the pool).
        after={"quality": "lower_opponent"},
        after_rolls=[(3, 3), (1, 1), (3, 4)],
    ),
    # Battle 3 at R2, VP 0: both Recon, no RS.7/RS.9. A German win here is decisive.
    BattlePlan(
        setup_rolls=[(2, 5)],
        expect_setup={"orientation": 2, "vp_axis": 0, "posture": RECON},
        setup={
            "purchase.axis": [],
            "purchase.allies": [],
            "fortify.axis": 0,
            "fortify.allies": 0,
        },
        winner=GERMANS,
        result=SURVIVORS_NONE,
    ),
]


@DICE_MODES
def test_st_stalingrad_decisive_victory_through_the_api(dice_mode, script, players, make_user):
    organiser = make_user("olga")
    table = ApiTable(organiser, players, dice_mode, script)
    table.create("stalingrad", role="none", opt_charge_fill_ins=False)
    assert table.side_names == ["Germans", "Soviets"]
    table.seat(GERMANS)
    table.seat(SOVIETS)
    table.put_tables(STALINGRAD_DATA)
    fort = ("German Fortification Points", "Soviet Fortification Points")

    battle = table.play(1, DECISIVE[0])
    check(
        table, 1, DECISIVE[0], battle,
        battle_number=2, position="R1", phase="forces",
        quality0="elite", quality1="line", wins0=1, wins1=0,
        pools={fort[0]: 9, fort[1]: 8},
    )  # fmt: skip
    dash = table.dashboard()
    assert side_list(dash, GERMANS, "Regimental pool") == ["D", "Pionier", "F"]
    assert side_list(dash, SOVIETS, "Regimental pool") == ["B", "E", "Assault Engineers", "A"]
    assert side_list(dash, GERMANS, "Reinforcements") == ["g1 (Rifle squad, LMG, veteran)"]
    assert side_list(dash, SOVIETS, "Reinforcements") == ["s1 (Rifle squad)"]

    battle = table.play(2, DECISIVE[1])
    check(
        table, 2, DECISIVE[1], battle,
        battle_number=3, position="R2", phase="forces",
        quality0="elite", quality1="green", wins0=2, wins1=0,
        pools={fort[0]: 9, fort[1]: 8},
    )  # fmt: skip
    dash = table.dashboard()
    assert side_list(dash, GERMANS, "Regimental pool") == ["D", "Pionier", "F", "C"]
    assert side_list(dash, GERMANS, "Reinforcements") == []

    battle = table.play(3, DECISIVE[2])
    check(table, 3, DECISIVE[2], battle, battle_number=3, position="R2", wins0=3)
    finished(
        table,
        "Germans — decisive",
        "The campaign is over: Germans win a decisive victory.",
    )
    assert any("won at CP R2: Germans Decisive Victory" in s for s in table.log("rule"))
    assert [b["number"] for b in table.rows("battles/")] == [1, 2, 3]


def _recon(fortify_axis: int = 0, fortify_allies: int = 0) -> dict[str, Any]:
    """Nothing bought, VP 0: both sides Recon; only the Fortification Points are asked."""
    return {
        "purchase.axis": [],
        "purchase.allies": [],
        "fortify.axis": fortify_axis,
        "fortify.allies": fortify_allies,
    }


NOTHING_AVAILABLE = [(1, 1), (2, 2), (6, 6)]
"""Divisional Reserve rolls naming Patrols still in the pools: nobody receives anything."""


def _sudden_death_plan() -> list[BattlePlan]:
    """Germans and Soviets trade wins between O and R1 (Recon: one step each time)."""
    plans = []
    for number in range(1, 7):
        german = number % 2 == 1
        after_rolls = list(NOTHING_AVAILABLE)
        if number == 5:
            after_rolls = [(4, 4), *after_rolls]  # Sudden Death 8 ≥ 5: the campaign goes on
        if number == 6:
            after_rolls = [(1, 2)]  # Sudden Death 3 < 6: it ends at once
        plans.append(
            BattlePlan(
                setup_rolls=[(number, 7 - number)],
                setup=_recon(4, 1) if number == 1 else _recon(),
                winner=GERMANS if german else SOVIETS,
                result=SURVIVORS_NONE,
                after={} if number == 6 else {"quality": "none"},
                after_rolls=after_rolls,
            )
        )
    return plans


@DICE_MODES
def test_st_stalingrad_tactical_victory_by_the_sudden_death_roll_through_the_api(
    dice_mode, script, players
):
    table = ApiTable(players[0], players, dice_mode, script)
    table.create("stalingrad", role=str(GERMANS), visibility="public")
    table.sat_down(GERMANS)
    table.join(SOVIETS)
    table.put_tables(STALINGRAD_DATA)
    positions = ["R1", "O", "R1", "O", "R1"]
    for number, plan in enumerate(_sudden_death_plan(), start=1):
        battle = table.play(number, plan)
        if number < 6:
            german_wins = (number + 1) // 2
            check(
                table, number, plan, battle,
                battle_number=number + 1, position=positions[number - 1], phase="forces",
                quality0="line", quality1="line",
                wins0=german_wins, wins1=number - german_wins,
                pools={"German Fortification Points": 7, "Soviet Fortification Points": 10},
            )  # fmt: skip
    check(table, 6, plan, battle, battle_number=6, position="R1", wins0=3, wins1=3)
    finished(
        table,
        "Soviets — tactical",
        "The campaign is over: Soviets win a tactical victory.",
    )
    rules = table.log("rule") + table.log("roll")
    assert any("campaign Sudden Death roll 8 ≥ 5: it goes on" in s for s in rules)
    assert any(
        "campaign Sudden Death roll 3 < 6 battles: the campaign ends, Soviets Tactical Victory" in s
        for s in rules
    )


@DICE_MODES
def test_st_corrected_result_replays_its_consequences_through_the_api(dice_mode, script, players):
    """ST-C3 applied to a wrong result, then again to the organiser's correction."""
    table = ApiTable(players[0], players, dice_mode, script)
    table.create("stalingrad", role=str(GERMANS), visibility="public")
    table.sat_down(GERMANS)
    table.join(SOVIETS)
    table.put_tables(STALINGRAD_DATA)
    wrong = BattlePlan(
        setup_rolls=[(4, 4)],
        setup=_recon(),
        winner=SOVIETS,
        result=SURVIVORS_NONE,
        after={"quality": "raise_own"},
        after_rolls=NOTHING_AVAILABLE,
    )
    table.play(1, wrong)
    assert (
        table.dashboard()["position"] == "G1"
        and table.dashboard()["sides"][1]["quality"] == "elite"
    )

    fix = {
        "winner": table.side_ids[GERMANS],
        **SURVIVORS_NONE,
        "reason": "we misread the VP track",
        "confirm": True,
    }
    table.call(table.player(SOVIETS), "post", "battles/1/correction/", fix, expect=403)
    table.script.load(NOTHING_AVAILABLE)
    battle = table.call(table.player(GERMANS), "post", "battles/1/correction/", fix)
    assert battle["winner"] == table.side_ids[GERMANS]
    table.settle({"quality": "lower_opponent"}, "battle 1 corrected")
    assert table.battle(1)["winner"] == table.side_ids[GERMANS]
    dash = table.dashboard()
    assert (dash["battle_number"], dash["position"], dash["phase"]) == (2, "R1", "forces")
    assert [side["quality"] for side in dash["sides"]] == ["line", "green"]
    assert any(
        s.startswith("Result of battle 1 corrected: now won by Germans (we misread the VP track)")
        for s in table.log("correction")
    )
    assert "Battle 1 won by Soviets." in table.log("result")  # nothing is erased
    table.script.load([(2, 3)])
    table.advance()  # the campaign goes on from the corrected result
    table.settle(_recon(), "battle 2 set-up", at_once=True)
    assert table.battle(2)["position"] == "R1"


# --- Normandy toward St-Lô (Scenario 56): NO-C1 set-up, NO-C3 after a battle -----------------

NORMANDY = [
    # Battle 1 at A1. US buys Krauss (2), Germans Ehnert (3): VP 1 on the US side. US Armor
    # (+4, Satchels +1), German Artillery 2 points (−5): VP 1 US side, so the US defends.
    BattlePlan(
        setup_rolls=[(4, 3)],
        setup={
            "purchase.allies": ["Krauss"],
            "purchase.axis": ["Ehnert"],
            "rs7.vp_axis": -1,
            "us_armor": True,
            "german_armor": False,
            "german_artillery": 2,
            "rs9.cost": 0,
            "fortify.axis": 2,
        },
        expect_setup={
            "orientation": 4,
            "vp_axis": -3,
            "posture": {"allies": "defend", "axis": "attack"},
            "fielded": {"allies": ["Craighead", "Krauss"], "axis": ["Heinzmann", "Ehnert"]},
        },
        winner=AMERICANS,
        # German 7 → Wetteman (granted); US 5 → Slingsluff and 8 → Miller: keep Miller.
        after={"quality": "raise_own", "divisional.allies": "Miller"},
        after_rolls=[(3, 4), (2, 3), (4, 4)],
    ),
    # Battle 2 at A2. Germans buy Hummel and take their Armor point (no Artillery then).
    BattlePlan(
        setup_rolls=[(1, 6)],
        setup={
            "purchase.allies": [],
            "purchase.axis": ["Hummel"],
            "rs7.vp_axis": -3,
            "us_armor": False,
            "german_armor": True,
            "rs9.cost": 1,
            "fortify.axis": 0,
        },
        expect_setup={
            "orientation": 1,
            "vp_axis": -6,
            "posture": {"allies": "defend", "axis": "attack"},
        },
        winner=NORMANDY_GERMANS,
        # US 3 → Richardson (granted); German 9 → Rubart and 10 → Gessler: keep Gessler.
        after={"quality": "lower_opponent", "divisional.axis": "Gessler"},
        after_rolls=[(1, 2), (4, 5), (5, 5)],
    ),
    # Battle 3 at G1: after it, the rest day (NO-C3.6).
    BattlePlan(
        setup_rolls=[(2, 2)],
        setup={
            "purchase.allies": ["Bowen"],
            "purchase.axis": [],
            "rs7.vp_axis": 2,
            "us_armor": False,
            "german_artillery": 0,
            "rs9.cost": 0,
            "fortify.axis": 0,
        },
        expect_setup={
            "orientation": 2,
            "vp_axis": 2,
            "posture": {"allies": "attack", "axis": "defend"},
        },
        winner=AMERICANS,
        # Rest day: German rolls 4 → Ehnert, 12 → Hummel; Ehnert goes back. Divisional:
        # German 5 → Ehnert (back in Divisional: granted); US 6 → Slingsluff, 11 → Ewing.
        after={
            "quality": "none",
            "rest_day.allies": ["Krauss"],
            "rest_day.axis": ["Ehnert"],
            "divisional.allies": "Ewing",
        },
        after_rolls=[(2, 2), (6, 6), (1, 4), (3, 3), (5, 6)],
    ),
    # Battle 4 at A3: nothing bought, VP 0.
    BattlePlan(
        setup_rolls=[(5, 5)],
        setup={
            "purchase.allies": [],
            "purchase.axis": [],
            "us_armor": False,
            "german_artillery": 0,
            "fortify.axis": 0,
        },
        winner=AMERICANS,
        # German 2 → Von Hoffman (granted); US 7 → Miller, 10 → Ewing: both already out.
        after={"quality": "raise_own"},
        after_rolls=[(1, 1), (3, 4), (6, 4)],
    ),
    # Battle 5 at A4: the fourth US win ends the campaign.
    BattlePlan(
        setup_rolls=[(6, 1)],
        setup={
            "purchase.allies": [],
            "purchase.axis": [],
            "us_armor": False,
            "german_artillery": 0,
            "fortify.axis": 0,
        },
        winner=AMERICANS,
    ),
]

NORMANDY_STATE = [
    # position, wins, qualities, US leader, German leader, pools
    ("A2", (1, 0), ("elite", "line"), "2Lt Craighead", "Sgt Heinzmann", (4, 1, 9, 5)),
    ("G1", (1, 1), ("line", "line"), "2Lt Craighead", "2Lt Heinzmann", (4, 0, 9, 5)),
    ("A3", (2, 1), ("line", "line"), "1Lt Craighead", "2Lt Heinzmann", (4, 0, 9, 5)),
    ("A4", (3, 1), ("elite", "line"), "Capt Craighead", "2Lt Heinzmann", (4, 0, 9, 5)),
]
NORMANDY_POOLS = (
    "US Armor Support Points",
    "German Armor Support Point",
    "German Artillery Support Points",
    "German Fortification Points",
)


@DICE_MODES
def test_no_normandy_four_wins_through_the_rest_day_and_promotions_through_the_api(
    dice_mode, script, players, make_user
):
    gm = make_user("gamemaster")
    table = ApiTable(gm, players, dice_mode, script)
    table.create(
        "normandy",
        role="gm",
        opt_satchels_with_armor=True,  # the defaults, said explicitly
        opt_refund_cancelled_armor_vp=False,
        opt_ground_support_after_cancel=True,
    )
    table.seat(AMERICANS)
    table.seat(NORMANDY_GERMANS)
    table.put_tables(NORMANDY_DATA)
    for number, plan in enumerate(NORMANDY[:4], start=1):
        battle = table.play(number, plan)
        position, wins, quality, us_leader, german_leader, pools = NORMANDY_STATE[number - 1]
        check(
            table, number, plan, battle,
            battle_number=number + 1, position=position, phase="forces",
            quality0=quality[0], quality1=quality[1], wins0=wins[0], wins1=wins[1],
            pools=dict(zip(NORMANDY_POOLS, pools, strict=True)),
        )  # fmt: skip
        dash = table.dashboard()
        assert side_list(dash, AMERICANS, "Command leader") == [us_leader]
        assert side_list(dash, NORMANDY_GERMANS, "Command leader") == [german_leader]
        if number == 3:  # the rest day
            assert side_list(dash, AMERICANS, "Exhausted") == ["Bowen"]
            assert side_list(dash, NORMANDY_GERMANS, "Exhausted") == ["Hummel"]
            assert side_list(dash, AMERICANS, "Divisional reserves") == ["Slingsluff", "Krauss"]
            assert side_list(dash, NORMANDY_GERMANS, "Regimental pool")[-1] == "Ehnert"
            rules = table.log("rule")
            assert "American leaders back to Divisional Resources Available: Krauss" in rules
            assert "German leaders back to Divisional Resources Available: Ehnert" in rules
    battle = table.play(5, NORMANDY[4])
    check(table, 5, NORMANDY[4], battle, battle_number=5, position="A4", wins0=4, wins1=1)
    finished(
        table,
        "Americans — four wins",
        "The campaign is over: Americans win a victory with four battles won.",
    )
    assert "Americans: Command Section leader promoted: Capt Craighead" in table.log("rule")


# --- Gastadores (C3i): three linked scenarios decided on net VP --------------------------------

GASTADORES = [
    # Phase I (33): Americans by 20 VP. German resource 9 → Rifle Section (counters: in the
    # countermix); the Americans cede the pick and roll 6 → German Lack of Coordination.
    BattlePlan(
        winner=AMERICANS,
        result={"method": "vp", "vp_margin": 20},
        after={"resource_available.axis": True, "option": "cede", "scenario": "105"},
        after_rolls=[(4, 5), (3, 3)],
    ),
    # Phase II (105): Germans by surrender (counts 30). American resource 8 → Airborne
    # Artillery, counters missing; the Germans pick the last scenario.
    BattlePlan(
        winner=NORMANDY_GERMANS,
        result={"method": "surrender", "vp_margin": 0},
        after={"resource_available.allies": False, "option": "choose", "scenario": "34"},
        after_rolls=[(4, 4)],
    ),
    # Phase III (34): Americans by Objective 5 (30). Split II/III: net VP 20 − 30 + 30 = 20.
    BattlePlan(winner=AMERICANS, result={"method": "objective_5", "vp_margin": 0}),
]


@DICE_MODES
def test_gas_gastadores_campaign_to_its_end_on_net_vp_through_the_api(dice_mode, script, players):
    table = ApiTable(players[0], players, dice_mode, script)
    table.create("gastadores", role=str(AMERICANS), visibility="public", opt_count_phase_one=True)
    table.sat_down(AMERICANS)
    table.join(NORMANDY_GERMANS)
    expected = [
        ("Scenario 105", 20, ["German Lack of Coordination"], ["Rifle Section"]),
        ("Scenario 34", -10, [], []),  # resources are rolled anew for each phase
    ]
    for number, plan in enumerate(GASTADORES, start=1):
        battle = table.play(number, plan, set_up=False)
        if number < 3:
            position, net_us, us_resources, german_resources = expected[number - 1]
            check(
                table, number, plan, battle,
                battle_number=number + 1, position=position, phase="battle",
                wins0=1, wins1=number - 1,
            )  # fmt: skip
            dash = table.dashboard()
            assert side_list(dash, AMERICANS, "Net VP") == [str(net_us)]
            assert side_list(dash, NORMANDY_GERMANS, "Net VP") == [str(-net_us)]
            assert side_list(dash, AMERICANS, "Resources") == us_resources
            assert side_list(dash, NORMANDY_GERMANS, "Resources") == german_resources
    dash = table.dashboard()
    assert side_list(dash, AMERICANS, "Net VP") == ["20"]
    check(table, 3, GASTADORES[2], battle, battle_number=3, wins0=2, wins1=1)
    finished(
        table,
        "Americans — substantial",
        "The campaign is over: Americans win a substantial victory.",
    )

"""Gastadores campaign: digest §6 cases 49–52 and the phase routine."""

import pytest

from rules.cc import gastadores as gs
from rules.cc.campaign import Phase
from rules.cc.common import Faction
from rules.cc.gastadores import ScenarioResult, WinMethod
from rules.dice import EnteredDice
from rules.errors import RuleError

US, G = Faction.ALLIES, Faction.AXIS


def play(results, choices_by_phase=({}, {})):
    state = gs.new_campaign()
    dice = EnteredDice([(1, 1)] * 4)
    for i, result in enumerate(results):
        choices = {"option": "choose", "scenario": gs.SCENARIOS[i + 2][0]} if i < 2 else {}
        if i < 2:
            choices.update(choices_by_phase[i])
        out = gs.record_result(state, result, dice, choices)
        assert out.decision is None, out.decision
        state = gs.GastadoresState.from_dict(out.state.to_dict())
    return state


@pytest.mark.parametrize(
    ("results", "winner", "victory", "net"),
    [
        (  # case 49: −8 + 30 + 12 = 34
            [
                ("33", G, WinMethod.VP, 8),
                ("26", US, WinMethod.SURRENDER, 0),
                ("34", US, WinMethod.VP, 12),
            ],
            US,
            "substantial",
            34,
        ),
        (  # case 50: −20 + 5 + 3 = −12, won II and III: narrow
            [("33", G, WinMethod.VP, 20), ("26", US, WinMethod.VP, 5), ("34", US, WinMethod.VP, 3)],
            US,
            "narrow",
            -12,
        ),
        (  # case 51: split; German net 4 − 10 + 10 = 4
            [("33", G, WinMethod.VP, 4), ("26", US, WinMethod.VP, 10), ("34", G, WinMethod.VP, 10)],
            G,
            "narrow",
            4,
        ),
        (  # > 40 is decisive, for the German too (printed "Sustancial")
            [
                ("33", G, WinMethod.OBJECTIVE_5, 0),
                ("26", G, WinMethod.CONCESSION, 0),
                ("34", G, WinMethod.VP, 1),
            ],
            G,
            "decisive",
            61,
        ),
    ],
)
def test_gastadores_victory(results, winner, victory, net):
    state = play([ScenarioResult(*r) for r in results])
    assert (state.phase, state.winner, state.victory, state.net_vp[winner]) == (
        Phase.ENDED,
        winner,
        victory,
        net,
    )


def test_gastadores_tied_net_vp_goes_to_the_initiative_holder():
    state = gs.new_campaign()
    dice = EnteredDice([(1, 1)] * 4)
    for result, choices in (
        (ScenarioResult("33", G, WinMethod.VP, 0), {"option": "choose", "scenario": "105"}),
        (ScenarioResult("105", US, WinMethod.VP, 5), {"option": "choose", "scenario": "28"}),
    ):
        state = gs.record_result(state, result, dice, choices).state
    out = gs.record_result(state, ScenarioResult("28", G, WinMethod.VP, 5), dice)
    assert out.decision.key == "initiative_holder"
    state = gs.record_result(
        out.state, ScenarioResult("28", G, WinMethod.VP, 5), dice, {"initiative_holder": "allies"}
    ).state
    assert (state.winner, state.victory) == (US, "narrow")


@pytest.mark.parametrize(("surrender", "halved"), [(13, 7), (12, 6), (1, 1)])
def test_gastadores_lack_of_coordination_halves_rounding_up(surrender, halved):
    assert gs.lack_of_coordination(surrender) == halved


def test_gastadores_loser_rolls_and_the_winner_may_cede_the_pick():
    state = gs.new_campaign()
    # German loser rolls 6 (Exhausted Paratroopers); the US cedes and rolls 9 (Airborne Infantry).
    out = gs.record_result(
        state,
        ScenarioResult("33", US, WinMethod.VP, 3),
        EnteredDice([(3, 3), (4, 5)]),
        {"option": "cede"},
    )
    assert out.decision.key == "resource_available.allies"
    out = gs.record_result(
        out.state,
        ScenarioResult("33", US, WinMethod.VP, 3),
        None,
        {"resource_available.allies": True},
    )
    assert out.decision.key == "scenario" and out.decision.chooser == "axis"
    assert out.decision.options == ("26", "105", "6")
    state = gs.record_result(
        out.state, ScenarioResult("33", US, WinMethod.VP, 3), None, {"scenario": "6"}
    ).state
    assert (state.stage, state.scenario) == (2, "6")
    assert state.resources == {G: ["Exhausted Paratroopers"], US: ["Airborne Infantry"]}


@pytest.mark.parametrize(
    ("roll", "name"),
    [(2, "Preliminary Bombardment"), (5, "Advance Reconnaissance"), (12, "Trench Line")],
)
def test_gastadores_german_resource_table(roll, name):
    assert str(gs.RESOURCES[G].lookup_range(roll).name) == name


def test_gastadores_result_must_be_for_the_current_scenario():
    with pytest.raises(RuleError):
        gs.record_result(gs.new_campaign(), ScenarioResult("26", US), None)

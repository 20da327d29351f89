"""Events that change units [E42–E77, 1.9.1, PA-E55]: WE-01, WE-03, WE-24."""

import itertools

import pytest

from rules.cc.battle.events import (
    PRIVATE_COMMAND,
    PRIVATE_MORALE,
    EventResult,
    air_support,
    battle_harden,
    bushido,
    commissar,
    commissar_odds,
    cower,
    elan,
    field_promotion,
    hero,
    interdiction,
    kia,
    medic,
    prisoners_of_war,
    resolve_triggered_roll,
    shell_shock,
    suppressing_fire,
    walking_wounded,
)
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.rout import RoutOutcome, rout_roll
from rules.cc.battle.units import Change, Unit, UnitChange, UnitKind
from rules.cc.common import Faction
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.serial import from_data, to_data

AX, AL = Faction.AXIS, Faction.ALLIES
FACES = list(itertools.product(range(1, 7), repeat=2))


def test_WE01_event_resolved_first_then_rout_roll_applies_1_9_1():
    unit = Unit("sq", AX, broken=True)
    rolled = rout_roll(unit=unit, morale=6, dice=EnteredDice([(4, 3)]), trigger=Trigger.EVENT)
    assert rolled.roll.trigger is Trigger.EVENT and rolled.outcome is RoutOutcome.RETREAT
    event = medic(receiver=AX, units=(unit,))
    outcome = resolve_triggered_roll(
        unit=unit, trigger_changes=event.changes, roll_changes=rolled.changes
    )
    assert not outcome.unit.broken  # rallied by the Event...
    assert [s.rule for s in outcome.explanation] == ["E64", "O23.3"]  # ...and still retreats 1 hex
    assert rolled.changes == (UnitChange("sq", Change.RETREAT, "O23.3", 1),)


def test_1_9_1_unit_eliminated_by_the_trigger_escapes_the_roll_result():
    unit = Unit("sq", AX, broken=True)
    outcome = resolve_triggered_roll(
        unit=unit,
        trigger_changes=(UnitChange("sq", Change.BREAK, "1.9.1.3"),),
        roll_changes=(UnitChange("sq", Change.RETREAT, "O23.3", 2),),
    )
    assert outcome.unit.eliminated
    assert "already eliminated" in str(outcome.explanation.steps[-1].text)


def test_WE03_walking_wounded_returns_the_only_eliminated_unit_even_an_enemy_E76():
    result = walking_wounded(
        receiver=AX, casualties=(Unit("us-squad", AL, eliminated=True, veteran=True),), hex="D4"
    )
    (placed,) = result.placed
    assert placed.unit == Unit("us-squad", AL, broken=True, hex="D4")
    with pytest.raises(DecisionRequired) as asked:
        walking_wounded(receiver=AX, casualties=(Unit("a", AL), Unit("b", AX)), hex="D4")
    assert asked.value.decision.options == ("a", "b") and asked.value.decision.chooser == "axis"
    assert walking_wounded(receiver=AX, casualties=(), hex="D4").declined
    assert walking_wounded(
        receiver=AX, casualties=(Unit("a", AL),), hex="D4", enemy_in_hex=True
    ).melee_possible


def test_WE24_interdiction_suppresses_broken_squad_in_cover_below_1_E60():
    us = Unit("us", AL, broken=True)
    result = interdiction(receiver=AX, units=(us, Unit("ger", AX)), cover={"us": -1, "ger": 2})
    assert result.changes == (UnitChange("us", Change.SUPPRESS, "E60"),)
    with pytest.raises(RuleError, match="Cover less than 1"):
        interdiction(receiver=AX, units=(us,), cover={"us": 1}, chosen="us")
    assert interdiction(
        receiver=AX, units=(Unit("s", AL, suppressed=True),), cover={"s": 0}
    ).declined


def test_E44_battle_harden_needs_own_unit_without_veteran():
    units = (Unit("a", AX, veteran=True), Unit("b", AX), Unit("c", AL))
    assert battle_harden(receiver=AX, units=units).changes == (
        UnitChange("b", Change.VETERAN, "E44"),
    )
    with pytest.raises(RuleError):
        battle_harden(receiver=AX, units=units, chosen="a")


@pytest.mark.parametrize(
    ("faces", "change"),
    [((3, 4), Change.RALLY), ((4, 4), Change.ELIMINATE), ((1, 1), Change.RALLY)],
)
def test_E50_commissar_tie_rallies_digest_7_2_11(faces, change):
    result = commissar(
        receiver=AL, units=(Unit("r", AL, broken=True),), morale=7, dice=EnteredDice([faces])
    )
    assert result.changes == (UnitChange("r", change, "E50"),)


@pytest.mark.parametrize("morale", [1, 4, 7, 12])
def test_E50_commissar_odds_equal_brute_force(morale):
    rallies = sum(
        commissar(
            receiver=AL, units=(Unit("r", AL, broken=True),), morale=morale, dice=EnteredDice([f])
        )
        .changes[0]
        .change
        is Change.RALLY
        for f in FACES
    )
    assert commissar_odds(morale=morale) * 36 == rallies


def test_E50_commissar_with_seeded_and_server_dice():
    for dice in (SeededDice(9), ServerDice()):
        result = commissar(receiver=AL, units=(Unit("r", AL, broken=True),), morale=7, dice=dice)
        assert result.changes[0].change in (Change.RALLY, Change.ELIMINATE)
        assert len(result.explanation.rolls) == 1


def test_E51_cower_suppresses_own_unsuppressed_squads_outside_command():
    units = (
        Unit("a", AX),
        Unit("b", AX, suppressed=True),
        Unit("t", AX, UnitKind.TEAM),
        Unit("c", AX),
        Unit("e", AL),
    )
    result = cower(receiver=AX, units=units, outside_command=frozenset({"a", "b", "t", "e"}))
    assert [c.unit for c in result.changes] == ["a"]


def test_E62_kia_and_E64_medic_pick_a_broken_unit_friend_or_foe():
    units = (Unit("a", AX), Unit("b", AL, broken=True))
    assert kia(receiver=AX, units=units).changes == (UnitChange("b", Change.ELIMINATE, "E62"),)
    assert medic(receiver=AX, units=units).changes == (UnitChange("b", Change.RALLY, "E64"),)
    with pytest.raises(RuleError, match="broken unit"):
        kia(receiver=AX, units=units, chosen="a")


def test_E66_prisoners_of_war_own_broken_unit_next_to_enemy():
    units = (Unit("a", AX, broken=True), Unit("b", AX, broken=True), Unit("e", AL, broken=True))
    assert (
        prisoners_of_war(receiver=AX, units=units, near_enemy=frozenset({"b", "e"})).changes[0].unit
        == "b"
    )


def test_E75_suppressing_fire_is_optional():
    units = (Unit("e", AL), Unit("f", AL, suppressed=True))
    assert suppressing_fire(
        receiver=AX, units=units, in_working_mg_range=frozenset({"e", "f"})
    ).declined
    chosen = suppressing_fire(
        receiver=AX, units=units, in_working_mg_range=frozenset({"e"}), chosen="e"
    )
    assert chosen.changes == (UnitChange("e", Change.SUPPRESS, "E75"),)


def test_E72_shell_shock_and_E43_air_support_break():
    assert shell_shock(receiver=AX, nearest=(Unit("x", AL),)).changes[0].change is Change.BREAK
    both = air_support(units_in_hex=(Unit("x", AL), Unit("y", AX)), break_them=True)
    assert [c.unit for c in both.changes] == ["x", "y"]
    assert air_support(units_in_hex=(Unit("x", AL),), break_them=False).declined


def test_E56_field_promotion_private_morale_6_command_2():
    units = (Unit("sq", AX, broken=True, hex="K5"),)
    result = field_promotion(
        receiver=AX, units=units, private="Pvt. Schmidt", private_on_map=False, hex="K5"
    )
    (placed,) = result.placed
    assert (placed.morale, placed.command) == (PRIVATE_MORALE, PRIVATE_COMMAND) == (6, 2)
    assert placed.unit.kind is UnitKind.LEADER and placed.unit.hex == "K5"
    with pytest.raises(RuleError, match="broken units"):
        field_promotion(receiver=AX, units=units, private="p", private_on_map=False, hex="L6")
    assert field_promotion(
        receiver=AX, units=units, private="p", private_on_map=True, hex="K5"
    ).declined


def test_E58_hero_must_be_placed_in_a_friendly_hex_and_may_rally():
    units = (Unit("sq", AX, broken=True, hex="K5"), Unit("e", AL, hex="L6"))
    result = hero(
        receiver=AX, units=units, hero_name="Hero", hero_on_map=False, hex="K5", rally="sq"
    )
    assert result.placed[0].unit.kind is UnitKind.HERO
    assert result.changes == (UnitChange("sq", Change.RALLY, "E58"),)
    with pytest.raises(DecisionRequired):
        hero(receiver=AX, units=units, hero_name="Hero", hero_on_map=False)
    with pytest.raises(RuleError, match="not a friendly hex"):
        hero(receiver=AX, units=units, hero_name="Hero", hero_on_map=False, hex="L6")
    assert hero(receiver=AX, units=units, hero_name="Hero", hero_on_map=True).declined


def test_PA_E55_bushido_rallies_and_gives_veteran():
    result = bushido(units=(Unit("j", AX, broken=True),))
    assert [c.change for c in result.changes] == [Change.RALLY, Change.VETERAN]
    assert [
        c.change for c in bushido(units=(Unit("j", AX, broken=True, veteran=True),)).changes
    ] == [Change.RALLY]


def test_E54_elan_moves_surrender_marker_up_one_space():
    assert elan(surrender_space=5).surrender_space == 6


def test_E42_event_result_round_trips():
    result = field_promotion(
        receiver=AX,
        units=(Unit("sq", AX, broken=True, hex="K5"),),
        private="p",
        private_on_map=False,
        hex="K5",
    )
    assert from_data(EventResult, to_data(result)) == result

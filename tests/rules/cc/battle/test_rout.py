"""Rout and Retreat [O23]: WE-39, WE-40 [V9], edges of the Retreat, exact odds."""

import itertools
from fractions import Fraction

import pytest

from rules.cc.battle.rout import (
    OFF_MAP,
    LeaderMode,
    RetreatEnd,
    RetreatResult,
    RetreatStep,
    RoutOutcome,
    begin_rout,
    retreat,
    retreat_odds,
    rout,
    rout_odds,
    rout_roll,
)
from rules.cc.battle.units import Change, Unit, UnitKind
from rules.cc.common import Faction
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.serial import from_data, to_data

A, B = Faction.AXIS, Faction.ALLIES
FACES = list(itertools.product(range(1, 7), repeat=2))


def broken(name, owner=A, kind=UnitKind.SQUAD, **kw):
    return Unit(name, owner, kind, broken=True, **kw)


@pytest.mark.parametrize(
    ("faces", "outcome", "hexes"),
    [
        ((5, 4), RoutOutcome.RETREAT, 2),
        ((4, 3), RoutOutcome.SUPPRESSED, 0),
        ((4, 1), RoutOutcome.NO_EFFECT, 0),
    ],
)
def test_WE39_rout_9_7_5_against_morale_7_O23_2(faces, outcome, hexes):
    result = rout_roll(unit=broken("sq"), morale=7, dice=EnteredDice([faces]))
    assert (result.outcome, result.retreat_hexes) == (outcome, hexes)


def test_O23_2_tie_suppresses_only_if_not_already_suppressed():
    fresh = rout_roll(unit=broken("sq"), morale=7, dice=EnteredDice([7]))
    assert [c.change for c in fresh.changes] == [Change.SUPPRESS]
    again = rout_roll(unit=broken("sq", suppressed=True), morale=7, dice=EnteredDice([7]))
    assert again.outcome is RoutOutcome.SUPPRESSED and again.changes == ()


def test_WE40_V9_leader_subtracts_command_O23_2():
    building = rout_roll(
        unit=broken("sq"),
        morale=8 + 3,
        leader_command=2,
        leader_mode=LeaderMode.SUBTRACT,
        v9=True,
        dice=EnteredDice([(5, 5)]),
    )
    assert building.morale == 9 and building.retreat_hexes == 1
    stays = rout_roll(
        unit=broken("sq"),
        morale=11,
        leader_command=2,
        leader_mode=LeaderMode.SUBTRACT,
        v9=True,
        dice=EnteredDice([(5, 4)]),
    )
    assert stays.outcome is RoutOutcome.SUPPRESSED
    open_road = rout_roll(
        unit=broken("sq"),
        morale=8 + 0 - 1,
        leader_command=2,
        leader_mode=LeaderMode.SUBTRACT,
        v9=True,
        dice=EnteredDice([(3, 3)]),
    )
    assert open_road.morale == 5 and open_road.retreat_hexes == 1


def test_O23_2_core_leader_adds_and_cannot_subtract_without_V9():
    core = rout_roll(unit=broken("sq"), morale=7, leader_command=2, dice=EnteredDice([9]))
    assert core.morale == 9 and core.outcome is RoutOutcome.SUPPRESSED
    with pytest.raises(RuleError, match="Only optional rule V9"):
        rout_roll(
            unit=broken("sq"),
            morale=7,
            leader_command=2,
            leader_mode=LeaderMode.SUBTRACT,
            dice=EnteredDice([9]),
        )


def test_V9_choice_is_asked_of_the_owner_once_per_hex_and_lasts_the_order():
    with pytest.raises(DecisionRequired) as asked:
        rout_roll(
            unit=broken("sq", B, hex="K8"),
            morale=7,
            leader_command=1,
            v9=True,
            dice=EnteredDice([9]),
        )
    assert asked.value.decision.chooser == "allies" and asked.value.decision.key == "V9:K8"
    units = (broken("a", hex="K8"), broken("b", hex="K8"), broken("c", hex="L5"))
    result = rout(
        target=A,
        units=units,
        morale={"a": 7, "b": 7, "c": 7},
        leader_command={"a": 1, "b": 1},
        hex_modes={"K8": LeaderMode.SUBTRACT},
        v9=True,
        dice=EnteredDice([7, 7, 7]),
    )
    assert [r.morale for r in result.rolls] == [6, 6, 7]
    assert [r.retreat_hexes for r in result.rolls] == [1, 1, 0]


def test_3_3_1_2_leaders_never_boost_a_routing_leader():
    with pytest.raises(RuleError, match="another Leader"):
        rout_roll(
            unit=broken("lt", kind=UnitKind.LEADER),
            morale=8,
            leader_command=1,
            dice=EnteredDice([9]),
        )


def test_O23_1_activation_limits():
    units = (broken("sq"), Unit("ok", B))
    with pytest.raises(RuleError, match="already activated for Recover or Rout"):
        begin_rout(target=A, units=units, already_activated=True)
    with pytest.raises(RuleError, match="at least one broken unit"):
        begin_rout(target=B, units=units)
    with pytest.raises(RuleError, match="not available in the Pacific"):
        begin_rout(target=A, units=units, pacific=True)


def test_O23_2_active_player_orders_the_rolls_and_late_breakers_do_not_roll():
    units = (broken("x"), broken("y"), broken("foe", B))
    assert begin_rout(target=A, units=units).to_roll == ("x", "y")
    assert begin_rout(target=A, units=units, order=("y", "x")).to_roll == ("y", "x")
    with pytest.raises(RuleError, match="exactly the units"):
        begin_rout(target=A, units=units, order=("y", "foe"))
    with pytest.raises(RuleError, match="broke during this Rout order"):
        rout_roll(unit=broken("x"), morale=7, dice=EnteredDice([9]), broken_at_announcement=False)


def test_O23_2_seeded_and_server_dice_follow_the_rule():
    for dice in (SeededDice(11), ServerDice()):
        for _ in range(20):
            r = rout_roll(unit=broken("sq"), morale=7, dice=dice)
            assert r.retreat_hexes == max(0, r.roll.value - 7)


@pytest.mark.parametrize("morale", [2, 5, 7, 9, 12, 14])
def test_O23_2_odds_equal_brute_force(morale):
    outcomes = dict.fromkeys(RoutOutcome, 0)
    lengths = {}
    for faces in FACES:
        r = rout_roll(unit=broken("sq"), morale=morale, dice=EnteredDice([faces]))
        outcomes[r.outcome] += 1
        lengths[r.retreat_hexes] = lengths.get(r.retreat_hexes, 0) + 1
    assert {o: p * 36 for o, p in rout_odds(morale=morale).items()} == outcomes
    assert {h: p * 36 for h, p in retreat_odds(morale=morale).items()} == lengths


def test_O23_2_odds_of_retreat_at_morale_7():
    assert rout_odds(morale=7)[RoutOutcome.RETREAT] == Fraction(15, 36)


def step(hex_, distance, **kw):
    return RetreatStep(hex_, distance, **kw)


def test_O23_3_retreat_two_hexes_each_closer_to_the_edge():
    result = retreat(
        unit=broken("sq", hex="K5"), hexes=2, start_distance=4, path=(step("K6", 3), step("K7", 2))
    )
    assert (result.end, result.final_hex, result.eliminated) == (RetreatEnd.COMPLETED, "K7", False)


def test_O23_3_every_hex_strictly_closer():
    with pytest.raises(RuleError, match="not closer"):
        retreat(
            unit=broken("sq", hex="K5"),
            hexes=2,
            start_distance=4,
            path=(step("K6", 3), step("J6", 3)),
        )


def test_O23_3_path_length_must_match():
    with pytest.raises(RuleError, match="must cover"):
        retreat(unit=broken("sq", hex="K5"), hexes=2, start_distance=4, path=(step("K6", 3),))
    with pytest.raises(RuleError, match="longer than"):
        retreat(
            unit=broken("sq", hex="K5"),
            hexes=1,
            start_distance=4,
            path=(step("K6", 3), step("K7", 2)),
        )


def test_O23_3_adjacent_to_friendly_edge_is_eliminated_and_opponent_scores():
    result = retreat(unit=broken("sq", hex="A1"), hexes=1, start_distance=0, path=())
    assert result.end is RetreatEnd.OFF_EDGE and result.eliminated and result.vp_to_opponent
    assert [c.change for c in result.changes] == [Change.ELIMINATE]


def test_O23_3_5_rout_off_the_edge_mid_retreat():
    result = retreat(
        unit=broken("sq", hex="B2"),
        hexes=3,
        start_distance=1,
        path=(step("A2", 0), step("", OFF_MAP)),
    )
    assert result.end is RetreatEnd.OFF_EDGE and result.final_hex == ""


@pytest.mark.parametrize(
    ("flags", "end"),
    [
        ({"enemy": True}, RetreatEnd.SURRENDERED),
        ({"impassable": True}, RetreatEnd.IMPASSABLE),
        ({"cliff": True}, RetreatEnd.CLIFF),
    ],
)
def test_O23_3_5_blocked_retreat_eliminates(flags, end):
    result = retreat(
        unit=broken("sq", hex="K5"), hexes=2, start_distance=4, path=(step("K6", 3, **flags),)
    )
    assert result.end is end and result.eliminated


def test_O23_3_5_forced_only_when_no_safe_hex_digest_7_2_21():
    path = (step("K6", 3, enemy=True, safe_alternative=True),)
    with pytest.raises(RuleError, match="not forced there"):
        retreat(unit=broken("sq", hex="K5"), hexes=1, start_distance=4, path=path)
    result = retreat(
        unit=broken("sq", hex="K5"),
        hexes=1,
        start_distance=4,
        path=path,
        allow_eliminating_choice=True,
    )
    assert result.end is RetreatEnd.SURRENDERED


def test_E58_1_a_hero_eliminated_in_retreat_gives_no_vp():
    hero = broken("hero", kind=UnitKind.HERO, hex="A1")
    assert not retreat(unit=hero, hexes=1, start_distance=0, path=()).vp_to_opponent


def test_O23_3_4_mines_attack_on_leaving_and_entering():
    result = retreat(
        unit=broken("sq", hex="K5"),
        hexes=2,
        start_distance=4,
        start_mines=True,
        path=(step("K6", 3), step("K7", 2, mines=True)),
    )
    assert result.mines_attacks == ("K5", "K7")


def test_V10_leader_goes_along_and_breaks():
    lt = Unit("lt", A, UnitKind.LEADER, hex="K5")
    result = retreat(
        unit=broken("sq", hex="K5"),
        hexes=1,
        start_distance=4,
        path=(step("K6", 3),),
        escort=lt,
        v10=True,
    )
    assert [(c.unit, c.change) for c in result.changes] == [("lt", Change.BREAK)]
    with pytest.raises(RuleError, match="V10"):
        retreat(
            unit=broken("sq", hex="K5"), hexes=1, start_distance=4, path=(step("K6", 3),), escort=lt
        )


def test_O23_3_retreat_result_round_trips():
    result = retreat(
        unit=broken("sq", hex="K5"), hexes=1, start_distance=4, path=(step("K6", 3, mines=True),)
    )
    assert from_data(RetreatResult, to_data(result)) == result

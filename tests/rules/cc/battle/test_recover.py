"""Recover [O22] and Revive [PA-O31]: WE-38, WE-51, ordering, once a Turn, exact odds."""

import itertools

import pytest

from rules.cc.battle.recover import (
    RallyOutcome,
    RallyResult,
    begin_recover,
    rally_odds,
    rally_roll,
    recover,
    revive,
)
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.units import Change, Unit, UnitChange, UnitKind
from rules.cc.common import Faction
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RollNeeded, RuleError
from rules.serial import from_data, to_data

A, B = Faction.AXIS, Faction.ALLIES
FACES = list(itertools.product(range(1, 7), repeat=2))


def broken(name, kind=UnitKind.SQUAD, owner=A, **kw):
    return Unit(name, owner, kind, broken=True, **kw)


@pytest.mark.parametrize(
    ("faces", "outcome", "changes"),
    [
        ((4, 1), RallyOutcome.RALLIED, (Change.RALLY,)),
        ((4, 3), RallyOutcome.SUPPRESSED, (Change.SUPPRESS,)),
        ((5, 4), RallyOutcome.NO_EFFECT, ()),
    ],
)
def test_WE38_rally_5_7_9_against_morale_7_O22_3(faces, outcome, changes):
    result = rally_roll(unit=broken("sq"), morale=7, dice=EnteredDice([faces]))
    assert result.outcome is outcome
    assert tuple(c.change for c in result.changes) == changes


def test_O22_2_markers_off_first_then_rolls_for_units_broken_at_announcement():
    units = (
        Unit("ok", A, suppressed=True),
        broken("b1", suppressed=True),
        broken("b2"),
        Unit("enemy", B, suppressed=True, broken=True),
    )
    start = begin_recover(player=A, units=units)
    assert [c.unit for c in start.unsuppressed] == ["ok", "b1"]
    assert all(c.change is Change.UNSUPPRESS for c in start.unsuppressed)
    assert start.to_roll == ("b1", "b2")


def test_O22_3_note_leaders_rally_first_by_default_and_player_may_reorder():
    units = (broken("team", UnitKind.TEAM), broken("sq"), broken("lt", UnitKind.LEADER))
    assert begin_recover(player=A, units=units).to_roll == ("lt", "sq", "team")
    chosen = ("team", "lt", "sq")
    assert begin_recover(player=A, units=units, order=chosen).to_roll == chosen
    with pytest.raises(RuleError, match="exactly the units"):
        begin_recover(player=A, units=units, order=("lt", "sq"))


def test_O22_1_once_per_turn_refused_in_words():
    with pytest.raises(RuleError, match="already activated for Recover or Rout") as err:
        begin_recover(player=A, units=(broken("sq"),), already_activated=True)
    assert err.value.rule == "O22.1"


def test_O22_1_needs_a_broken_or_suppressed_unit():
    with pytest.raises(RuleError, match="at least one broken or suppressed unit"):
        begin_recover(player=A, units=(Unit("ok", A), broken("foe", owner=B)))
    assert begin_recover(player=A, units=(Unit("s", A, suppressed=True),)).to_roll == ()


def test_O22_2_unit_broken_during_the_order_makes_no_roll():
    with pytest.raises(RuleError, match="broke during this Recover order"):
        rally_roll(
            unit=broken("sq"), morale=7, dice=EnteredDice([(1, 1)]), broken_at_announcement=False
        )


def test_O22_2_one_rally_roll_per_unit_per_order():
    with pytest.raises(RuleError, match="already made its Rally roll"):
        rally_roll(unit=broken("sq"), morale=7, dice=EnteredDice([(1, 1)]), already_rolled=True)


def test_O22_whole_order_rolls_in_order_with_given_morale():
    units = (broken("sq"), broken("lt", UnitKind.LEADER, suppressed=True))
    result = recover(
        player=A, units=units, morale={"sq": 8, "lt": 6}, dice=EnteredDice([(2, 2), (6, 6)])
    )
    assert [r.unit for r in result.rallies] == ["lt", "sq"]
    assert [r.outcome for r in result.rallies] == [RallyOutcome.RALLIED, RallyOutcome.NO_EFFECT]
    assert result.changes == (
        UnitChange("lt", Change.UNSUPPRESS, "O22.2"),
        UnitChange("lt", Change.RALLY, "O22.3"),
    )
    with pytest.raises(RuleError, match="current Morale of sq"):
        recover(player=A, units=units, morale={"lt": 6}, dice=EnteredDice([(2, 2)]))


def test_1_9_1_2_jammed_never_triggers_on_a_rally_roll_and_event_is_kept():
    jam = rally_roll(
        unit=broken("sq"), morale=7, dice=EnteredDice([(1, 1)]), trigger=Trigger.JAMMED
    )
    assert jam.trigger is Trigger.NONE
    event = rally_roll(
        unit=broken("sq"), morale=7, dice=EnteredDice([(1, 1)]), trigger=Trigger.EVENT
    )
    assert event.trigger is Trigger.EVENT
    assert any(s.rule == "1.9.1" for s in event.explanation)
    inside = rally_roll(
        unit=broken("sq"),
        morale=7,
        dice=EnteredDice([(1, 1)]),
        trigger=Trigger.EVENT,
        in_trigger=True,
    )
    assert inside.trigger is Trigger.NONE


def test_O22_3_server_and_seeded_dice_agree_with_the_rule():
    for dice in (SeededDice(3), ServerDice()):
        for _ in range(20):
            r = rally_roll(unit=broken("sq"), morale=7, dice=dice)
            expected = (
                "rallied"
                if r.roll.value < 7
                else "suppressed"
                if r.roll.value == 7
                else "no_effect"
            )
            assert r.outcome.value == expected


def test_O22_3_entered_total_is_enough_for_a_rally_roll():
    assert (
        rally_roll(unit=broken("sq"), morale=7, dice=EnteredDice([6])).outcome
        is RallyOutcome.RALLIED
    )
    with pytest.raises(RollNeeded):
        rally_roll(unit=broken("sq"), morale=7, dice=EnteredDice([]))


@pytest.mark.parametrize("morale", [1, 2, 5, 7, 9, 12, 13, 15])
def test_O22_3_odds_equal_brute_force(morale):
    counts = dict.fromkeys(RallyOutcome, 0)
    for faces in FACES:
        counts[rally_roll(unit=broken("sq"), morale=morale, dice=EnteredDice([faces])).outcome] += 1
    odds = rally_odds(morale=morale)
    assert {o: p * 36 for o, p in odds.items()} == counts
    assert sum(odds.values()) == 1


def test_O22_3_rally_result_round_trips():
    result = rally_roll(
        unit=broken("sq"), morale=7, dice=EnteredDice([(3, 1)]), trigger=Trigger.SNIPER
    )
    assert from_data(RallyResult, to_data(result)) == result


@pytest.mark.parametrize(
    ("unsuppress", "rally"),
    [(("s1", "s2"), ()), ((), ("b1", "b2")), (("s1",), ("b1",))],
)
def test_WE51_revive_2_PA_O31(unsuppress, rally):
    units = (
        Unit("s1", A, suppressed=True),
        Unit("s2", A, suppressed=True),
        broken("b1"),
        broken("b2"),
    )
    result = revive(player=A, units=units, points=2, unsuppress=unsuppress, rally=rally)
    assert len(result.changes) == 2 and result.unspent == 0


def test_PA_O31_same_unit_both_ways_limits_and_lost_points():
    units = (broken("b1", suppressed=True), Unit("ok", A))
    result = revive(player=A, units=units, points=3, unsuppress=("b1",), rally=("b1",))
    assert [c.change for c in result.changes] == [Change.UNSUPPRESS, Change.RALLY]
    assert result.unspent == 1
    with pytest.raises(RuleError, match="pays for only 1"):
        revive(player=A, units=units, points=1, unsuppress=("b1",), rally=("b1",))
    with pytest.raises(RuleError, match="1 to 5 points"):
        revive(player=A, units=units, points=6)
    with pytest.raises(RuleError, match="not a broken friendly unit"):
        revive(player=A, units=units, points=2, rally=("ok",))
    with pytest.raises(RuleError, match="at least one broken or suppressed"):
        revive(player=A, units=(Unit("ok", A),), points=2)

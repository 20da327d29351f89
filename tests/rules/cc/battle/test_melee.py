"""Melee [O16.4, A25, A38, PA-A34, ST-3.2], Urban Melee timing [ST-7, PA-19.2], exact odds."""

import itertools

import pytest

from rules.cc.battle.melee import (
    Ambush,
    FortificationTie,
    MeleeMoment,
    MeleeResult,
    MeleeRules,
    MeleeSide,
    MeleeUnit,
    melee,
    melee_fp,
    melee_odds,
    melee_schedule,
    no_quarter,
    resolve_ambushes,
)
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.units import Change, Unit
from rules.cc.common import Faction, Nation
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.serial import from_data, to_data

AX, AL = Faction.AXIS, Faction.ALLIES
FACES = list(itertools.product(range(1, 7), repeat=2))


def side(faction, *fps, **kw):
    units = tuple(MeleeUnit(f"{faction.value}{i}", fp, boxed) for i, (fp, boxed) in enumerate(fps))
    return MeleeSide(faction, units, **kw)


def test_O16_4_1_melee_fp_sums_current_fp_plus_one_per_boxed():
    assert melee_fp(side(AX, (6, True), (2, False), (1, True))) == 11


def test_O16_4_2_inactive_rolls_first_and_lower_total_loses_everything():
    result = melee(
        inactive=side(AL, (5, False)),
        active=side(AX, (3, False), (2, True)),
        dice=EnteredDice([(3, 3), (1, 2)]),
    )
    assert result.rolls[0].value == 6 and result.rolls[1].value == 3
    assert result.totals == {AL: 11, AX: 9}
    assert result.eliminated == {AX}
    assert [c.unit for c in result.changes] == ["axis0", "axis1"]
    assert all(c.change is Change.ELIMINATE for c in result.changes)


def test_O16_4_3_tie_eliminates_both_sides():
    result = melee(
        inactive=side(AL, (4, False)), active=side(AX, (4, False)), dice=EnteredDice([7, 7])
    )
    assert result.eliminated == {AX, AL} and len(result.changes) == 2


@pytest.mark.parametrize("holder", [AX, AL])
def test_O16_4_3_F101_F104_tie_won_by_side_that_began_in_bunker(holder):
    result = melee(
        inactive=side(AL, (4, False)),
        active=side(AX, (4, False)),
        dice=EnteredDice([7, 7]),
        fortification=FortificationTie(started_in=holder, last_sole_occupant=holder),
    )
    assert result.eliminated == {holder.other}


def test_O16_4_3_bunker_does_not_matter_without_a_tie():
    result = melee(
        inactive=side(AL, (4, False)),
        active=side(AX, (4, False)),
        dice=EnteredDice([8, 7]),
        fortification=FortificationTie(started_in=AX),
    )
    assert result.eliminated == {AX}


def test_digest_7_2_22_last_sole_occupant_reading_is_a_flag():
    tie = FortificationTie(started_in=AX, last_sole_occupant=AL)
    sides = {"inactive": side(AL, (4, False)), "active": side(AX, (4, False))}
    assert melee(**sides, dice=EnteredDice([7, 7]), fortification=tie).eliminated == {AL}
    flagged = melee(
        **sides, dice=EnteredDice([7, 7]), fortification=tie, tie_by_last_sole_occupant=True
    )
    assert flagged.eliminated == {AX}


def test_PA_A34_bayonets_and_ST_3_2_urban_sniper_add_to_the_roll():
    result = melee(
        inactive=side(AL, (4, False), bayonets=1),
        active=side(AX, (4, False), urban_sniper=4),
        dice=EnteredDice([7, 6]),
    )
    assert result.totals == {AL: 13, AX: 14}
    with pytest.raises(RuleError, match="Urban Sniper"):
        melee(
            inactive=side(AL, (4, False), urban_sniper=3),
            active=side(AX, (4, False)),
            dice=EnteredDice([7, 6]),
        )


def test_O16_4_2_trigger_that_empties_a_side_ends_melee_without_second_roll():
    dice = EnteredDice([(2, 3), (6, 6)])
    result = melee(
        inactive=side(AL, (4, False), trigger=Trigger.SNIPER, emptied=frozenset({AX})),
        active=side(AX, (9, False)),
        dice=dice,
    )
    assert result.ended_by_trigger and result.eliminated == frozenset() and dice.remaining == 1


def test_O16_4_2_fp_locked_a_trigger_that_leaves_units_changes_nothing():
    result = melee(
        inactive=side(AL, (4, False), trigger=Trigger.EVENT),
        active=side(AX, (4, False)),
        dice=EnteredDice([8, 7]),
    )
    assert result.fp == {AL: 4, AX: 4} and result.eliminated == {AX}
    with pytest.raises(RuleError, match="only a trigger"):
        melee(
            inactive=side(AL, (4, False), emptied=frozenset({AX})),
            active=side(AX, (4, False)),
            dice=EnteredDice([8, 7]),
        )


def test_E42_melee_inside_an_event_ignores_triggers():
    result = melee(
        inactive=side(AL, (4, False), trigger=Trigger.SNIPER, emptied=frozenset({AX})),
        active=side(AX, (4, False)),
        dice=EnteredDice([8, 7]),
        in_event=True,
    )
    assert not result.ended_by_trigger and result.eliminated == {AX}


def test_A25_ambushes_inactive_first_break_then_eliminate():
    units = (Unit("ax", AX), Unit("al", AL, broken=True), Unit("al2", AL))
    result = resolve_ambushes(active=AX, units=units, ambushes=(Ambush(AL, "ax"), Ambush(AX, "al")))
    assert [(c.unit, c.change) for c in result.changes] == [
        ("ax", Change.BREAK),
        ("al", Change.BREAK),
    ]
    assert [u.name for u in result.units] == ["ax", "al2"] and not result.melee_ends
    with pytest.raises(RuleError, match="before the active player's first"):
        resolve_ambushes(active=AX, units=units, ambushes=(Ambush(AX, "al"), Ambush(AL, "ax")))
    with pytest.raises(RuleError, match="not a participating unit of the opponent"):
        resolve_ambushes(active=AX, units=units, ambushes=(Ambush(AL, "al2"),))


def test_A25_ambush_that_empties_a_side_ends_melee():
    units = (Unit("ax", AX, broken=True), Unit("al", AL))
    result = resolve_ambushes(active=AX, units=units, ambushes=(Ambush(AL, "ax"),))
    assert result.melee_ends
    ended = melee(inactive=side(AL, (4, False)), active=MeleeSide(AX, ()), dice=EnteredDice([]))
    assert ended.eliminated == frozenset() and ended.rolls == ()


def test_O16_4_core_melee_resolves_at_end_of_order_active_chooses_order():
    with pytest.raises(DecisionRequired) as asked:
        melee_schedule(
            rules=MeleeRules.CORE, moment=MeleeMoment.END_OF_ORDER, active=AL, hexes=("K5", "L6")
        )
    assert asked.value.decision.chooser == "allies"
    plan = melee_schedule(
        rules=MeleeRules.CORE,
        moment=MeleeMoment.END_OF_ORDER,
        active=AL,
        hexes=("K5", "L6"),
        order=("L6", "K5"),
    )
    assert (
        plan.resolve_now
        and plan.hexes == ("L6", "K5")
        and plan.first_roller is AX
        and plan.triggers_allowed
    )
    event = melee_schedule(
        rules=MeleeRules.CORE, moment=MeleeMoment.END_OF_EVENT, active=AL, hexes=("K5",)
    )
    assert event.resolve_now and not event.triggers_allowed


def test_O16_4_core_melee_never_waits_for_a_turn():
    with pytest.raises(RuleError, match="resolved at once"):
        melee_schedule(
            rules=MeleeRules.CORE, moment=MeleeMoment.START_OF_TURN, active=AX, hexes=("K5",)
        )


def test_ST_7_2_urban_melee_waits_for_the_axis_turn():
    deferred = melee_schedule(
        rules=MeleeRules.STALINGRAD, moment=MeleeMoment.END_OF_ORDER, active=AX, hexes=("K5",)
    )
    assert not deferred.resolve_now
    russian_turn = melee_schedule(
        rules=MeleeRules.STALINGRAD, moment=MeleeMoment.START_OF_TURN, active=AL, hexes=("K5",)
    )
    assert not russian_turn.resolve_now
    axis_turn = melee_schedule(
        rules=MeleeRules.STALINGRAD,
        moment=MeleeMoment.START_OF_TURN,
        active=AX,
        hexes=("K5", "L6"),
        order=("K5", "L6"),
    )
    assert axis_turn.resolve_now and axis_turn.chooser is AX and axis_turn.first_roller is AL


def test_PA_19_2_melee_at_start_of_allied_turn_japanese_roll_first_order_reading():
    plan = melee_schedule(
        rules=MeleeRules.PACIFIC,
        moment=MeleeMoment.START_OF_TURN,
        active=AL,
        hexes=("K5", "L6"),
        order=("K5", "L6"),
    )
    assert plan.resolve_now and plan.first_roller is AX and plan.chooser is AX
    flagged = melee_schedule(
        rules=MeleeRules.PACIFIC,
        moment=MeleeMoment.START_OF_TURN,
        active=AL,
        hexes=("K5",),
        pacific_order_by_allies=True,
    )
    assert flagged.chooser is AL
    assert not melee_schedule(
        rules=MeleeRules.PACIFIC, moment=MeleeMoment.START_OF_TURN, active=AX, hexes=("K5",)
    ).resolve_now


def test_A38_no_quarter():
    assert no_quarter(player=Nation.GERMANY, opponent=Nation.RUSSIA, survivors=1) == 2
    assert no_quarter(player=Nation.RUSSIA, opponent=Nation.USA, survivors=2) == 2
    with pytest.raises(RuleError, match="only a German player"):
        no_quarter(player=Nation.GERMANY, opponent=Nation.USA, survivors=1)
    with pytest.raises(RuleError, match="survived"):
        no_quarter(player=Nation.RUSSIA, opponent=Nation.GERMANY, survivors=0)


@pytest.mark.parametrize(
    ("inactive", "active", "fort"),
    [
        (side(AL, (4, False)), side(AX, (4, False)), None),
        (side(AL, (6, True), bayonets=1), side(AX, (2, False), (3, True)), None),
        (side(AL, (4, False)), side(AX, (5, False)), FortificationTie(started_in=AL)),
    ],
)
def test_O16_4_odds_equal_brute_force_over_all_card_pairs(inactive, active, fort):
    counts = {"inactive": 0, "active": 0, "both": 0}
    for a, b in itertools.product(FACES, FACES):
        lost = melee(
            inactive=inactive, active=active, dice=EnteredDice([a, b]), fortification=fort
        ).eliminated
        counts["inactive"] += inactive.faction in lost
        counts["active"] += active.faction in lost
        counts["both"] += len(lost) == 2
    odds = melee_odds(inactive=inactive, active=active, fortification=fort)
    assert odds.inactive_eliminated * 1296 == counts["inactive"]
    assert odds.active_eliminated * 1296 == counts["active"]
    assert odds.both_eliminated * 1296 == counts["both"]


def test_O16_4_seeded_and_server_dice():
    for dice in (SeededDice(5), ServerDice()):
        result = melee(inactive=side(AL, (4, False)), active=side(AX, (4, False)), dice=dice)
        assert result.totals[AL] == 4 + result.rolls[0].value
        assert result.eliminated


def test_O16_4_melee_result_round_trips():
    result = melee(
        inactive=side(AL, (4, False)), active=side(AX, (4, False)), dice=EnteredDice([8, 7])
    )
    assert from_data(MeleeResult, to_data(result)) == result
    assert from_data(MeleeSide, to_data(side(AL, (4, True), emptied=frozenset({AX})))) == side(
        AL, (4, True), emptied=frozenset({AX})
    )

"""Counters from the counter table and the registry [3.1, 3.2, 11, 11.4, 11.6, E44.1].

Every counter value here is FICTIONAL TEST DATA, not the values of any real counter."""

import pytest

from rules.cc.battle.counters import table_from_data
from rules.cc.battle.fire import Attack, Piece, Target, TargetUnit, attack_roll, fire_power
from rules.cc.battle.registered import (
    broken_weapon,
    carrier_of,
    registered_unit,
    registered_weapon,
    table_unit,
    weapon_repaired,
    weapons_break,
    weapons_used_up,
)
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.state import (
    BattleMode,
    Place,
    RegisteredUnit,
    UnitStatus,
    new_battle,
    register_unit,
)
from rules.cc.battle.units import UnitKind
from rules.cc.battle.values import WeaponKind
from rules.cc.battle.weapons import RepairOutcome
from rules.cc.common import Faction, Posture
from rules.dice import EnteredDice
from rules.errors import RuleError

# FICTIONAL TEST DATA — not the values of any real counter
TABLE = table_from_data(
    {
        "units": [
            {"nationality": "Testland", "name": "Line Squad", "kind": "squad", "vp": 2,
             "fp": 5, "range": 5, "move": 4, "morale": 7, "boxed": "fp",
             "broken_fp": 3, "broken_range": 3, "broken_move": 4, "broken_morale": 8},
            {"nationality": "Testland", "name": "Sgt. Test", "kind": "leader", "vp": 1,
             "fp": 1, "range": 1, "move": 6, "morale": 9, "command": 2,
             "broken_fp": 0, "broken_range": 0, "broken_move": 6, "broken_morale": 7,
             "broken_command": 0},
        ],
        "weapons": [
            {"nationality": "Testland", "name": "Test MG", "fp": 4, "range": 8, "move": -1,
             "fix": "1-2", "elim": "6"},
            {"nationality": "Testland", "name": "Test Charge", "fp": 6, "range": 1, "move": 0},
        ],
    }
)  # fmt: skip


def battle():
    state = new_battle(
        time=0,
        sudden_death=5,
        initiative=Faction.AXIS,
        first_player=Faction.AXIS,
        postures={Faction.AXIS: Posture.ATTACK, Faction.ALLIES: Posture.DEFEND},
        surrender={Faction.AXIS: 5, Faction.ALLIES: 5},
        mode=BattleMode.FULL,
    )
    for unit in (
        RegisteredUnit("w1", Faction.AXIS, "Testland", UnitKind.WEAPON, "Test MG"),
        RegisteredUnit("w2", Faction.AXIS, "Testland", UnitKind.WEAPON, "Test Charge"),
        RegisteredUnit("s1", Faction.AXIS, "Testland", UnitKind.SQUAD, "Line Squad",
                       weapons=("w1",), veteran=True),
        RegisteredUnit("s2", Faction.AXIS, "Testland", UnitKind.SQUAD, "Line Squad",
                       weapons=("w2",)),
    ):  # fmt: skip
        state = register_unit(state, unit).state
    return state


def test_3_2_1_a_registered_unit_takes_the_tables_side_and_the_registrys_markers():
    state = battle()
    unit = registered_unit(state, TABLE, "s1")
    assert (unit.name, unit.printed.fp, unit.veteran, unit.boxed_fp) == ("Line Squad (s1)", 5, 1, 1)
    broken = table_unit(TABLE, "Testland", "Line Squad", broken=True, suppressed=True)
    assert (broken.printed.morale, broken.suppressed, broken.boxed_fp) == (8, True, False)
    with pytest.raises(RuleError, match="no Testland unit called Guards"):
        table_unit(TABLE, "Testland", "Guards")


def test_E44_1_a_veterans_weapon_keeps_its_printed_fp_unless_the_reading_says_otherwise():
    state = battle()
    weapon, carrier = registered_weapon(state, TABLE, "w1", WeaponKind.MG)
    assert carrier.name == "Line Squad (s1)" and carrier_of(state, "w1").id == "s1"
    attack = Attack((Piece(carrier, 3, weapon),), Target((TargetUnit(carrier),)))
    assert fire_power(attack=attack).fp == 4
    assert fire_power(attack=attack, veteran_weapons=True).fp == 5


def test_1_9_1_2_jammed_breaks_a_registered_weapon_and_a_second_break_eliminates_it():
    state = battle()
    weapon, carrier = registered_weapon(state, TABLE, "w1", WeaponKind.MG)
    shot = Attack((Piece(carrier, 3, weapon),), Target((TargetUnit(carrier),)))
    rolled = attack_roll(attack=shot, dice=EnteredDice([(3, 4)]), trigger=Trigger.JAMMED)
    assert rolled.total == 4 + 7 and rolled.weapons_broken == ("Test MG (w1)",)
    once = weapons_break(state, {"w1": 1}, rule="1.9.1.2").state
    assert once.units["w1"].status is UnitStatus.BROKEN and once.units["s1"].weapons == ("w1",)
    again = weapons_break(once, {"w1": 1}, rule="11.4").state
    assert again.units["w1"].eliminated and again.units["w1"].place is Place.WEAPON_BOX
    assert again.units["s1"].weapons == ()
    assert weapons_break(state, {"w1": 2}, rule="A41").state.units["w1"].eliminated


def test_11_6_a_single_use_weapon_leaves_the_registry_after_its_roll():
    state = weapons_used_up(battle(), ("w2",)).state
    assert state.units["w2"].eliminated and state.units["s2"].weapons == ()
    with pytest.raises(RuleError, match="not on the map"):
        registered_weapon(state, TABLE, "w2", WeaponKind.SATCHEL)


@pytest.mark.parametrize(
    ("hex_number", "result"),
    [(1, RepairOutcome.FIXED), (4, RepairOutcome.STILL_BROKEN), (6, RepairOutcome.ELIMINATED)],
)
def test_11_4_fix_and_elim_come_from_the_table_and_change_the_registry(hex_number, result):
    state = weapons_break(battle(), {"w1": 1}, rule="11.4").state
    printed = broken_weapon(state, TABLE, "w1")
    assert (printed.fix, printed.elim) == ((1, 2), (6, 6))
    after = weapon_repaired(state, "w1", result).units["w1"]
    assert (after.status is UnitStatus.GOOD_ORDER) is (result is RepairOutcome.FIXED)
    assert after.eliminated is (result is RepairOutcome.ELIMINATED)
    with pytest.raises(RuleError, match="not a broken Weapon"):
        broken_weapon(battle(), TABLE, "w1")
    with pytest.raises(RuleError, match="no Fix and Elim"):
        broken_weapon(weapons_break(battle(), {"w2": 1}, rule="11.4").state, TABLE, "w2")

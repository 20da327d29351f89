"""Campaign HOUSE RULES (not in the rulebook): off by default, each option on its own."""

import dataclasses
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import EnteredDice, SeededDice
from rules.parabellum.battle import Battle, BattleSide, Casualty, SideState, TurnState
from rules.parabellum.house_rules import HouseRules, SquadOutcome, apply_post_battle, outcome_for
from rules.parabellum.roster import Roster, new_roster, validate_roster

ALL_IDS = [s.id for s in new_roster("USA/rifleman").soldiers]


def outcome(*eliminated, po=0):
    return SquadOutcome(tuple(eliminated), tuple(ALL_IDS), po)


def test_hr_off_by_default_changes_nothing():
    roster = new_roster("USA/rifleman")
    result = apply_post_battle(
        roster, outcome("rifleman-1", "officer", po=4), HouseRules(), EnteredDice([])
    )
    assert result.roster == roster and result.changes == []


def test_hr_1_recovery_roll_medic_style():
    hr = HouseRules(casualties_carry_over=True)
    dice = EnteredDice([(2, 3, 4), (4, 4, 5)])  # 9 < 11 dies; 13 ≥ 11 recovers
    result = apply_post_battle(
        new_roster("USA/rifleman"), outcome("rifleman-1", "rifleman-2"), hr, dice
    )
    assert result.roster.soldier("rifleman-1").status == "dead"
    assert result.roster.soldier("rifleman-2").status == "active"
    assert [c.rule for c in result.changes] == ["HR-1", "HR-1"]
    assert all(c.roll is not None for c in result.changes)
    report = validate_roster(result.roster, understrength_ok=hr.understrength_ok)
    assert report.valid and not validate_roster(result.roster).valid


def test_hr_3_dead_scout_replaced_by_a_recruit():
    hr = HouseRules(casualties_carry_over=True, replacements=True)
    roster = new_roster("USA/rangers")  # Rangers offer no recruits: replacements are exempt
    result = apply_post_battle(roster, outcome("rifleman-1"), hr, EnteredDice([(1, 2, 3)]))
    new = result.roster.soldier("rifleman-1-r1")
    assert (new.role, new.weapon, new.experience, new.scout, new.replaces) == (
        "rifleman",
        "semi_auto_rifle",
        "recruit",
        True,
        "rifleman-1",
    )
    report = validate_roster(result.roster)
    assert report.valid, report.violations
    assert report.starting_po == 8 + 1  # floor(8.5) + the recruit's PO (§8.2.2)
    again = apply_post_battle(result.roster, outcome(), hr, EnteredDice([]))
    assert len(again.roster.soldiers) == len(result.roster.soldiers)  # replaced only once


def test_hr_2_promotion_toward_veteran_is_free():
    hr = HouseRules(promotion=True, battles_to_veteran=2)
    roster = new_roster("GER/grenadier")
    roster = roster.replace(dataclasses.replace(roster.soldier("rifleman-5"), experience="recruit"))
    first = apply_post_battle(roster, outcome("rifleman-1"), hr, EnteredDice([]))
    assert first.roster.soldier("rifleman-5").experience == "regular"
    assert first.roster.soldier("rifleman-2").service == 1
    assert first.roster.soldier("rifleman-1").service == 0  # eliminated: no service
    second = apply_post_battle(first.roster, outcome(), hr, EnteredDice([]))
    vet = second.roster.soldier("rifleman-2")
    assert (vet.experience, vet.experience_source) == ("veteran", "campaign")
    assert validate_roster(second.roster).pm_spent == 0


def test_hr_4_operative_points_carry_over_with_cap():
    hr = HouseRules(carry_over_po=True, po_carry_over_cap=3)
    result = apply_post_battle(new_roster("GBR/commando"), outcome(po=5), hr, EnteredDice([]))
    assert result.roster.carried_po == 3
    assert validate_roster(result.roster).starting_po == 6 + 3
    assert HouseRules.from_dict(json.loads(json.dumps(hr.to_dict()))) == hr


def test_hr_outcome_from_a_battle_record_ignores_healed_soldiers():
    roster = new_roster("GER/grenadier")
    side = BattleSide(
        "A",
        roster,
        "attacker",
        10,
        casualties=(Casualty("rifleman-1", 2), Casualty("rifleman-2", 3, healed_turn=4)),
    )
    battle = Battle(
        "simple",
        (side, dataclasses.replace(side, role="defender")),
        (TurnState(5, (SideState(3), SideState(0))),),
    )
    result = outcome_for(battle, 0)
    assert result.eliminated == ("rifleman-1",) and result.po_left == 3


@st.composite
def campaign_steps(draw):
    roster = new_roster("USA/rifleman")
    dead = draw(st.sets(st.sampled_from(ALL_IDS)))
    roster = Roster(
        roster.squad_type,
        tuple(
            dataclasses.replace(s, status="dead") if s.id in dead else s for s in roster.soldiers
        ),
    )
    eliminated = draw(st.lists(st.sampled_from(ALL_IDS), unique=True))
    hr = HouseRules(
        casualties_carry_over=False,
        promotion=draw(st.booleans()),
        replacements=False,
        carry_over_po=draw(st.booleans()),
    )
    return roster, SquadOutcome(tuple(eliminated), tuple(ALL_IDS), draw(st.integers(0, 9))), hr


@settings(max_examples=60, deadline=None)
@given(campaign_steps(), st.integers(0, 10_000))
def test_property_recovery_off_never_resurrects_or_kills(step, seed):
    roster, result_of_battle, hr = step
    after = apply_post_battle(roster, result_of_battle, hr, SeededDice(seed=seed)).roster
    before_status = {s.id: s.status for s in roster.soldiers}
    assert {s.id: s.status for s in after.soldiers} == before_status

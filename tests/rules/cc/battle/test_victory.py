"""Victory points [7.1, 7.2, 7.3, 4.2, A36, E58.1, PA-17.2] and the worked examples WE-05–WE-07.

The VP values of units are FICTIONAL TEST DATA (the seed gives only one: a US Squad is worth
2 VP, Fire example G), entered as the player aid would give them.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.cc.battle import objective_chits as oc
from rules.cc.battle import state as st
from rules.cc.battle import victory as vi
from rules.cc.battle.state import (
    BattleMode,
    ChitKind,
    EndCause,
    EndEvent,
    ObjectiveChit,
    Place,
    RegisteredUnit,
    UnitStatus,
    VPSource,
)
from rules.cc.battle.units import UnitKind
from rules.cc.common import Faction, Posture
from rules.errors import RuleError
from rules.i18n import msg

AX, AL = Faction.AXIS, Faction.ALLIES


def battle(**kw):
    args = dict(
        time=2,
        sudden_death=6,
        initiative=AX,
        first_player=AX,
        postures={AX: Posture.ATTACK, AL: Posture.DEFEND},
        surrender={AX: 3, AL: 2},
        sides={AX: msg("Germans"), AL: msg("Americans")},
    )
    return st.new_battle(**(args | kw))


def chit(letter, objective=None, vp=0, kind=ChitKind.OBJECTIVE, **kw):
    return ObjectiveChit(letter, kind=kind, objective=objective, vp=vp, **kw)


def full(**kw):
    s = battle(mode=BattleMode.FULL, **kw)
    for unit in (
        RegisteredUnit("mg", AL, "usa", UnitKind.WEAPON, "BAR", status=UnitStatus.BROKEN),
        RegisteredUnit("sq", AL, "usa", UnitKind.SQUAD, "Rifle", weapons=("mg",), veteran=True),
        RegisteredUnit("hero", AL, "usa", UnitKind.HERO, "Hero"),
        RegisteredUnit("ge", AX, "germany", UnitKind.SQUAD, "Rifle"),
    ):
        s = st.register_unit(s, unit).state
    return s


# --- 7.3: Objectives and chits -------------------------------------------------------------


def test_WE05_chits_C_G_K_make_objective_3_worth_6_7_3_2():
    s = battle(chits=(chit("C", 3, 1), chit("G", 3, 2), chit("K", 3, 3), chit("A", 1, 4)))
    assert vi.objective_value(s, 3) == 6
    assert vi.objective_value(s, 2) == 0


def test_7_3_2_all_objectives_chit_adds_to_each_of_the_five():
    s = battle(chits=(chit("C", 3, 1), chit("Z", vp=2, kind=ChitKind.ALL_OBJECTIVES)))
    assert [vi.objective_value(s, n) for n in st.OBJECTIVES] == [2, 2, 3, 2, 2]


def test_WE06_an_open_4_vp_objective_changing_hands_swings_8_7_3_3():
    s = battle(objectives={2: AX}, vp_axis=4, chits=(chit("A", 2, 4),))
    new, why = vi.set_objective_control(s, objective=2, side=AL)
    assert new.vp_axis - s.vp_axis == -8
    assert new.objectives[2] is AL
    assert [str(x.text) for x in why][1:] == [
        "Germans lose 4 VP (Objective 2, worth 4 VP): VP marker on 0",
        "Americans gain 4 VP (Objective 2, worth 4 VP): VP marker 4 on the side of the Americans",
    ]


def test_7_3_1_an_uncontrolled_objective_only_gives_and_a_secret_chit_gives_nothing_yet():
    s = battle(chits=(chit("A", 2, 4), chit("Q", 2, 5, owner=AL, secret=True)))
    new = vi.set_objective_control(s, objective=2, side=AL).state
    assert new.vp_axis == -4


def test_7_3_1_control_edges():
    s = battle(objectives={1: AX})
    with pytest.raises(RuleError, match="already control Objective 1"):
        vi.set_objective_control(s, objective=1, side=AX)
    with pytest.raises(RuleError, match="numbered 1 to 5") as err:
        vi.set_objective_control(s, objective=6, side=AX)
    assert err.value.rule == "2.3"


def test_E42_no_objective_control_from_an_event_after_sudden_death_unless_flagged():
    s = battle(time=6, chits=(chit("A", 2, 4),))
    frozen = vi.set_objective_control(s, objective=2, side=AX, by_event=True)
    assert frozen.state == s
    played = vi.set_objective_control(
        s, objective=2, side=AX, by_event=True, freeze_event_vp_after_sudden_death=False
    )
    assert played.state.vp_axis == 4
    assert vi.set_objective_control(s, objective=2, side=AX).state.vp_axis == 4  # no Event


def test_E67_revealed_secret_chit_scores_for_current_controllers_7_3_3():
    s = battle(objectives={3: AX, 4: AL}, chits=(ObjectiveChit("K", owner=AL, secret=True),))
    with pytest.raises(RuleError, match="enter what its face says"):
        oc.reveal_chit(s, letter="K")
    new, why = oc.reveal_chit(s, letter="K", face=chit("K", 3, 3))
    assert new.vp_axis == 3 and not new.chits[0].secret
    assert str(why.steps[0].text) == "revealed: chit K: Objective 3 is worth 3 VP"
    assert vi.objective_value(new, 3) == 3  # now open: it moves with control
    with pytest.raises(RuleError, match="no secret chit K"):
        oc.reveal_chit(new, letter="K")


def test_7_3_2_all_objectives_chit_revealed_scores_each_controlled_objective():
    s = battle(
        objectives={1: AX, 2: AX, 3: AL},
        chits=(chit("Y", vp=2, kind=ChitKind.ALL_OBJECTIVES, owner=AX, secret=True),),
    )
    assert oc.reveal_chit(s, letter="Y").state.vp_axis == 2 * 2 - 2


def test_6_3_2_final_count_reveals_every_secret_chit():
    s = battle(
        objectives={1: AX, 5: AL},
        chits=(chit("A", 1, 2, owner=AX, secret=True), ObjectiveChit("B", owner=AL, secret=True)),
    )
    with pytest.raises(RuleError, match="secret chits B") as err:
        oc.final_count(s)
    assert err.value.rule == "6.3.2"
    new = oc.final_count(s, faces={"B": chit("B", 5, 3)}).state
    assert new.vp_axis == 2 - 3 and not any(c.secret for c in new.chits)


# --- 7.1, 4.2: elimination -------------------------------------------------------------------


def test_7_1_elimination_gives_the_opponent_the_units_vp_and_fills_the_casualty_track_4_2():
    # Fire example G: a US Squad eliminated, placed on the Casualty track, Axis +2 VP
    new, why = vi.eliminate_unit(battle(), side=AL, name="Rifle Squad", vp_value=2)
    assert new.vp_axis == 2 and new.casualties[AL] == ("Rifle Squad",)
    assert new.ledger[-1].source is VPSource.ELIMINATION
    assert "placed on space 1 of the Americans Casualty track" in [str(x.text) for x in why]
    assert new.pending_end == ()


def test_WE07_overstacked_team_eliminated_gives_elimination_vp_8_2():
    # Allied turn ends; a German Squad Deploys into two broken Teams, one is eliminated
    team_vp = 1  # FICTIONAL TEST DATA: the Team's value in the player aid
    new = vi.eliminate_unit(battle(), side=AX, name="Team", vp_value=team_vp).state
    assert new.vp_axis == -team_vp and new.casualties[AX] == ("Team",)


def test_7_3_2_elimination_vp_doubled_by_its_chit():
    s = battle(chits=(chit("E", kind=ChitKind.ELIMINATION_DOUBLED),))
    assert vi.eliminate_unit(s, side=AL, name="R", vp_value=2).state.vp_axis == 4


def test_4_2_the_unit_on_the_surrender_space_surrenders_6_3():
    s = battle()
    s = vi.eliminate_unit(s, side=AL, name="A", vp_value=1).state
    assert s.pending_end == ()
    s, why = vi.eliminate_unit(s, side=AL, name="B", vp_value=1)
    assert s.pending_end == (EndEvent(EndCause.SURRENDER, AL),)
    assert (
        str(why.steps[-1].text) == "that space holds the Surrender marker: the Americans surrender"
    )


def test_pa_11_2_no_surrender_marker_no_surrender():
    s = battle(surrender={AX: None, AL: 2})
    for name in "ABCD":
        s = vi.eliminate_unit(s, side=AX, name=name, vp_value=1).state
    assert s.pending_end == () and len(s.casualties[AX]) == 4


def test_E58_1_a_hero_gives_no_vp_and_goes_back_to_the_counter_mix():
    new = vi.eliminate_unit(full(), side=AL, unit_id="hero", vp_value=None).state
    assert new.vp_axis == 0 and new.casualties[AL] == ()
    assert st.get_unit(new, "hero").place is Place.COUNTER_MIX


def test_7_1_the_vp_value_is_required_for_a_non_hero():
    with pytest.raises(RuleError, match="enter the VP value of R") as err:
        vi.eliminate_unit(battle(), side=AL, name="R", vp_value=None)
    assert err.value.rule == "7.1"
    with pytest.raises(RuleError, match="say which unit"):
        vi.eliminate_unit(battle(), side=AL, name="", vp_value=1)


def test_4_2_full_mode_weapon_to_the_weapon_box_markers_lost():
    new = vi.eliminate_unit(full(), side=AL, unit_id="sq", vp_value=2).state
    unit, weapon = st.get_unit(new, "sq"), st.get_unit(new, "mg")
    assert (unit.place, unit.eliminated, unit.veteran, unit.weapons) == (
        Place.CASUALTY_TRACK,
        True,
        False,
        (),
    )
    assert (weapon.place, weapon.status) == (Place.WEAPON_BOX, UnitStatus.BROKEN)  # as it was
    assert new.casualties[AL] == ("sq",)
    with pytest.raises(RuleError, match="is not on the map"):
        vi.eliminate_unit(new, side=AL, unit_id="sq", vp_value=2)
    with pytest.raises(RuleError, match="is not a unit"):
        vi.eliminate_unit(new, side=AL, unit_id="mg", vp_value=0)


def test_4_the_registry_knows_whose_unit_it_is():
    with pytest.raises(RuleError, match="Rifle belongs to the Americans"):
        vi.eliminate_unit(full(), side=AX, unit_id="sq", vp_value=2)
    assert vi.eliminate_unit(full(), unit_id="sq", vp_value=2).state.vp_axis == 2
    with pytest.raises(RuleError, match="and whose"):
        vi.eliminate_unit(battle(), name="R", vp_value=2)


def test_7_2_2_retreat_off_the_friendly_edge_is_an_elimination_weapon_unbroken():
    new, why = vi.eliminate_unit(full(), side=AL, unit_id="sq", vp_value=2, off_map=True)
    assert why.steps[0].rule == "7.2.2" and new.vp_axis == 2
    assert st.get_unit(new, "mg").status is UnitStatus.GOOD_ORDER


def test_6_3_last_unit_eliminated_full_and_light():
    s = full()
    s = vi.eliminate_unit(s, side=AL, unit_id="sq", vp_value=2).state
    assert s.pending_end == ()
    s = vi.eliminate_unit(s, side=AL, unit_id="hero", vp_value=None).state
    assert s.pending_end == (EndEvent(EndCause.LAST_UNIT_ELIMINATED, AL),)
    light = vi.eliminate_unit(battle(), side=AX, name="L", vp_value=1, last_unit=True).state
    assert light.pending_end == (EndEvent(EndCause.LAST_UNIT_ELIMINATED, AX),)


def test_E42_an_event_after_the_sudden_death_space_changes_no_vp():
    s = battle(time=6)
    frozen = vi.eliminate_unit(s, side=AL, name="R", vp_value=2, by_event=True).state
    assert frozen.vp_axis == 0 and frozen.casualties[AL] == ("R",)
    flagged = vi.eliminate_unit(
        s, side=AL, name="R", vp_value=2, by_event=True, freeze_event_vp_after_sudden_death=False
    )
    assert flagged.state.vp_axis == 2
    assert (
        vi.eliminate_unit(
            battle(time=5), side=AL, name="R", vp_value=2, by_event=True
        ).state.vp_axis
        == 2
    )


def test_pa_17_2_banzai_units_go_to_the_next_time_space_with_their_weapon():
    postures = {AX: Posture.ATTACK, AL: Posture.BANZAI}
    light = vi.eliminate_unit(battle(postures=postures), side=AL, name="R", vp_value=2).state
    assert light.vp_axis == 2 and light.casualties[AL] == ()
    assert light.reinforcements[AL] == {3: ("R",)}
    s = full(postures=postures)
    s = st.set_unit_status(s, unit_id="sq", status=UnitStatus.BROKEN).state
    new = vi.eliminate_unit(s, side=AL, unit_id="sq", vp_value=2).state
    unit = st.get_unit(new, "sq")
    assert (unit.place, unit.time_space, unit.status, unit.weapons) == (
        Place.TIME_TRACK,
        3,
        UnitStatus.GOOD_ORDER,
        ("mg",),
    )


# --- 7.2.1: voluntary exit -------------------------------------------------------------------


def test_7_2_1_exit_gives_the_owner_the_units_vp_and_a_time_track_space():
    new = vi.exit_unit(battle(), side=AX, name="Rifle", vp_value=2, time_space=4).state
    assert new.vp_axis == 2 and new.reinforcements[AX] == {4: ("Rifle",)}
    assert new.exited[AX] == ("Rifle",) and new.ledger[-1].source is VPSource.EXIT


def test_7_3_2_exit_vp_doubled_by_its_chit():
    s = battle(chits=(chit("X", kind=ChitKind.EXIT_DOUBLED),))
    assert vi.exit_unit(s, side=AL, name="R", vp_value=3, time_space=3).state.vp_axis == -6


def test_7_2_1_full_mode_exit_in_good_order_weapon_repaired_markers_lost():
    s = st.set_unit_status(full(), unit_id="sq", status=UnitStatus.BROKEN, suppressed=True).state
    new = vi.exit_unit(s, side=AL, unit_id="sq", vp_value=2, time_space=5).state
    unit = st.get_unit(new, "sq")
    assert (unit.place, unit.time_space, unit.status, unit.exited) == (
        Place.TIME_TRACK,
        5,
        UnitStatus.GOOD_ORDER,
        True,
    )
    assert not unit.suppressed and not unit.veteran and unit.weapons == ("mg",)
    assert st.get_unit(new, "mg").status is UnitStatus.GOOD_ORDER
    assert st.waiting_on(new, 5)[AL] == ("sq",)


def test_7_2_1_the_time_space_must_lie_ahead_of_the_time_marker():
    with pytest.raises(RuleError, match="after the Time marker") as err:
        vi.exit_unit(battle(), side=AX, name="R", vp_value=2, time_space=2)
    assert err.value.rule == "7.2.1"


def test_E58_1_a_hero_exits_for_no_vp_to_the_counter_mix():
    new = vi.exit_unit(full(), side=AL, unit_id="hero", vp_value=None, time_space=None).state
    assert new.vp_axis == 0 and st.get_unit(new, "hero").place is Place.COUNTER_MIX


def test_6_3_last_unit_exited():
    light = vi.exit_unit(battle(), side=AL, name="R", vp_value=1, time_space=3, last_unit=True)
    assert light.state.pending_end == (EndEvent(EndCause.LAST_UNIT_EXITED, AL),)
    s = vi.eliminate_unit(full(), side=AL, unit_id="hero", vp_value=None).state
    s = vi.exit_unit(s, side=AL, unit_id="sq", vp_value=2, time_space=4).state
    assert s.pending_end == (EndEvent(EndCause.LAST_UNIT_EXITED, AL),)


def test_7_3_2_secret_doubling_chit_revealed_doubles_vp_already_scored():
    s = battle(chits=(ObjectiveChit("D", owner=AX, secret=True),))
    s = vi.eliminate_unit(s, side=AL, name="A", vp_value=2).state  # Axis +2
    s = vi.eliminate_unit(s, side=AX, name="B", vp_value=1).state  # Allies +1
    face = chit("D", kind=ChitKind.ELIMINATION_DOUBLED)
    assert oc.reveal_chit(s, letter="D", face=face).state.vp_axis == 2
    late = oc.reveal_chit(s, letter="D", face=face, retroactive_doubling=False).state
    assert late.vp_axis == 1
    assert vi.eliminate_unit(late, side=AL, name="C", vp_value=2).state.vp_axis == 5


# --- other VP ---------------------------------------------------------------------------------


def test_A36_light_wounds_costs_its_player_1_vp():
    new, why = vi.light_wounds(battle(), side=AL)
    assert new.vp_axis == 1 and why.steps[0].rule == "A36"


def test_A38_no_quarter_a_plain_award():
    new = vi.move_vp(battle(), side=AX, vp=2, source=VPSource.NO_QUARTER, rule="A38").state
    assert new.vp_axis == 2 and new.ledger[-1] == st.VPEntry(
        2, VPSource.NO_QUARTER, "A38", st.VP_SOURCE_LABELS[VPSource.NO_QUARTER]
    )


def test_6_3_nothing_changes_once_the_battle_is_over():
    over = replace(battle(), outcome=st.Outcome(AX, EndCause.SURRENDER, "6.3.1", 0))
    with pytest.raises(RuleError, match="the battle is over"):
        vi.eliminate_unit(over, side=AL, name="R", vp_value=1)

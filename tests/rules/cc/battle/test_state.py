"""Battle state [4, 6.1.1, 6.2.1, 9]: set-up, the units registry, labels and round trips."""

from __future__ import annotations

import json

import pytest

from rules.cc.battle import state as st
from rules.cc.battle.state import (
    BattleMode,
    BattleState,
    Cards,
    ChitKind,
    EndCause,
    ObjectiveChit,
    Outcome,
    Place,
    RegisteredUnit,
    UnitStatus,
)
from rules.cc.battle.units import KIND_LABELS, SIDE_LABELS, UnitKind
from rules.cc.common import Faction, Posture
from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.serial import from_data, to_data

AX, AL = Faction.AXIS, Faction.ALLIES


def battle(**kw) -> BattleState:
    args = dict(
        time=0,
        sudden_death=5,
        initiative=AX,
        first_player=AX,
        postures={AX: Posture.ATTACK, AL: Posture.DEFEND},
        surrender={AX: 8, AL: 6},
        sides={AX: msg("Germans"), AL: msg("Americans")},
    )
    return st.new_battle(**(args | kw))


def full() -> BattleState:
    """A registry with a Squad carrying an MG and a Leader (FICTIONAL TEST DATA)."""
    s = battle(mode=BattleMode.FULL)
    s = st.register_unit(s, RegisteredUnit("w1", AX, "germany", UnitKind.WEAPON, "MG")).state
    s = st.register_unit(
        s, RegisteredUnit("u1", AX, "germany", UnitKind.SQUAD, "Rifle", weapons=("w1",))
    ).state
    return st.register_unit(s, RegisteredUnit("l1", AX, "germany", UnitKind.LEADER, "Sgt")).state


def test_6_1_1_new_battle_places_the_markers_as_the_scenario_says():
    s = battle(time=1, objectives={3: AL}, cards={AX: Cards(40, 2), AL: Cards(50)})
    assert (s.time, s.sudden_death, s.initiative, s.active) == (1, 5, AX, AX)
    assert s.objectives == {1: None, 2: None, 3: AL, 4: None, 5: None}
    assert s.casualties == {AX: (), AL: ()} and s.mode is BattleMode.LIGHT
    assert s.cards[AX] == Cards(40, 2, 0)


@pytest.mark.parametrize(
    "bad",
    [
        {"time": -1},
        {"surrender": {AX: 0, AL: 6}},
        {"surrender": {AX: 3}},
        {"objectives": {6: AX}},
        {"chits": (ObjectiveChit("A", secret=True), ObjectiveChit("A", secret=True))},
    ],
)
def test_6_1_1_impossible_set_up_is_refused(bad):
    with pytest.raises(RuleError):
        battle(**bad)


def test_7_3_3_an_open_chit_needs_its_face_and_an_objective_chit_its_objective():
    with pytest.raises(RuleError, match="enter what its face says"):
        battle(chits=(ObjectiveChit("B"),))
    with pytest.raises(RuleError, match="name its Objective"):
        battle(chits=(ObjectiveChit("C", kind=ChitKind.OBJECTIVE, objective=7, vp=1),))


def test_pa_11_2_a_side_may_have_no_surrender_marker():
    assert battle(surrender={AX: None, AL: 6}).surrender[AX] is None


def test_4_1_1_vp_marker_in_words():
    s = battle(vp_axis=3)
    assert str(st.vp_words(s)) == "VP marker 3 on the side of the Germans"
    assert str(st.vp_words(s, -2)) == "VP marker 2 on the side of the Americans"
    assert str(st.vp_words(s, 0)) == "VP marker on 0"


def test_4_registry_is_refused_in_light_mode():
    with pytest.raises(RuleError, match="keeps only the tracks") as err:
        st.register_unit(battle(), RegisteredUnit("u1", AX, "germany", UnitKind.SQUAD, "Rifle"))
    assert err.value.rule == "4"


def test_3_register_and_read_units():
    s = full()
    assert st.get_unit(s, "u1").weapons == ("w1",)
    assert [u.id for u in st.units_on_map(s, AX)] == ["u1", "l1"]  # the MG is no unit
    assert st.units_on_map(s, AL) == []
    with pytest.raises(RuleError, match="no unit zz"):
        st.get_unit(s, "zz")
    with pytest.raises(RuleError, match="already registered"):
        st.register_unit(s, RegisteredUnit("u1", AX, "germany", UnitKind.TEAM, "T"))


def test_8_1_1_a_unit_carries_at_most_one_weapon_and_only_weapons():
    s = full()
    with pytest.raises(RuleError, match="at most one Weapon") as err:
        st.register_unit(s, RegisteredUnit("u2", AX, "g", UnitKind.TEAM, "T", weapons=("a", "b")))
    assert err.value.rule == "8.1.1"
    with pytest.raises(RuleError, match="is not a Weapon"):
        st.register_unit(s, RegisteredUnit("u2", AX, "g", UnitKind.TEAM, "T", weapons=("l1",)))


def test_3_2_2_markers_stay_when_the_counter_flips():
    s = full()
    s, why = st.set_unit_status(s, unit_id="u1", suppressed=True, veteran=True)
    s, why = st.set_unit_status(s, unit_id="u1", status=UnitStatus.BROKEN)
    unit = st.get_unit(s, "u1")
    assert (unit.status, unit.suppressed, unit.veteran) == (UnitStatus.BROKEN, True, True)
    assert str(why.steps[-1].text) == "Rifle: broken, Suppressed, Veteran"
    s, _ = st.set_unit_status(s, unit_id="u1", status=UnitStatus.GOOD_ORDER)  # rally [3.2.5]
    assert st.get_unit(s, "u1").suppressed


def test_3_2_4_breaking_a_broken_unit_is_an_elimination_not_a_flip():
    s, _ = st.set_unit_status(full(), unit_id="u1", status=UnitStatus.BROKEN)
    with pytest.raises(RuleError, match="breaking it again eliminates it") as err:
        st.set_unit_status(s, unit_id="u1", status=UnitStatus.BROKEN)
    assert err.value.rule == "3.2.4"


def test_8_1_1_only_units_take_suppressed_or_veteran_markers():
    with pytest.raises(RuleError, match="only units take"):
        st.set_unit_status(full(), unit_id="w1", suppressed=True)


def test_3_2_a_unit_off_the_map_cannot_flip():
    s = battle(mode=BattleMode.FULL)
    waiting = RegisteredUnit("r1", AL, "usa", UnitKind.SQUAD, "R", place=Place.TIME_TRACK)
    s = st.register_unit(s, waiting).state
    with pytest.raises(RuleError, match="is not on the map"):
        st.set_unit_status(s, unit_id="r1", suppressed=True)


def test_6_3_a_finished_battle_refuses_changes():
    s = battle()
    over = BattleState(**{**s.__dict__, "outcome": Outcome(AL, EndCause.SURRENDER, "6.3.1", 0)})
    with pytest.raises(RuleError, match="the battle is over: Americans won"):
        st.require_open(over)


def test_6_1_2_waiting_on_a_time_space_in_both_modes():
    s = battle(mode=BattleMode.FULL)
    unit = RegisteredUnit("r1", AL, "usa", UnitKind.SQUAD, "R", place=Place.TIME_TRACK)
    s = st.register_unit(s, replace_space(unit, 2)).state
    assert st.waiting_on(s, 2) == {AX: (), AL: ("r1",)}
    light = st.put_on_time_track(battle(), AX, 3, "Rifle Squad")
    assert st.waiting_on(light, 3) == {AX: ("Rifle Squad",), AL: ()}


def replace_space(unit: RegisteredUnit, space: int) -> RegisteredUnit:
    return RegisteredUnit(**{**unit.__dict__, "time_space": space})


@pytest.mark.parametrize(
    ("labels", "enum"),
    [
        (st.MODE_LABELS, BattleMode),
        (KIND_LABELS, UnitKind),
        (st.STATUS_LABELS, UnitStatus),
        (st.PLACE_LABELS, Place),
        (st.VP_SOURCE_LABELS, st.VPSource),
        (st.CHIT_LABELS, ChitKind),
        (st.END_LABELS, EndCause),
        (SIDE_LABELS, Faction),
        (st.POSTURE_LABELS, Posture),
    ],
)
def test_every_enum_value_a_person_reads_has_a_label(labels, enum):
    assert set(labels) == set(enum) and all(isinstance(v, Msg) for v in labels.values())


def test_serial_round_trip_of_a_full_state():
    s = full()
    s = BattleState(
        **{
            **s.__dict__,
            "vp_axis": -3,
            "casualties": {AX: ("u9",), AL: ()},
            "chits": (
                ObjectiveChit("C", kind=ChitKind.OBJECTIVE, objective=3, vp=1),
                ObjectiveChit("Q", owner=AL, secret=True),
            ),
            "ledger": (st.VPEntry(-3, st.VPSource.ELIMINATION, "7.1", msg("elimination")),),
            "reinforcements": {AX: {4: ("Rifle",)}, AL: {}},
            "pending_end": (st.EndEvent(EndCause.SURRENDER, AL),),
            "outcome": Outcome(AX, EndCause.SURRENDER, "6.3.1", -3, tie_break=True),
        }
    )
    data = json.loads(json.dumps(s.as_data()))
    assert BattleState.from_data(data) == s
    assert from_data(BattleState, to_data(s)) == s
    assert data["objectives"]["1"] is None and data["sides"]["axis"] == {"id": "Germans"}


def test_change_unpacks_and_round_trips():
    change = st.register_unit(
        battle(mode=BattleMode.FULL), RegisteredUnit("u", AX, "g", UnitKind.TEAM, "T")
    )
    new, why = change
    assert new is change.state and why is change.explanation
    assert from_data(st.Change, json.loads(json.dumps(to_data(change)))).state == new

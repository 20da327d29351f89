"""Unit status in battle: morale, suppression, casualties, vehicle crews (M36-XI), the end of
turn (M36-V.6, XI.4) and battalion morale through `morale.battalion_morale` (T22–T25)."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.m1936.command import mark_acted, mark_reacted, start_prolonged
from rules.m1936.data import Faction, catalogue
from rules.m1936.morale import battalion_morale
from rules.m1936.recovery import end_of_phase, end_of_turn
from rules.m1936.units import (
    Hit,
    MoraleOptions,
    UnitStatus,
    battalion_state,
    begin_retreat,
    effective_fa,
    end_retreat,
    friends_see_panic,
    legal_problems,
    new_status,
    take_fire,
    take_vehicle_damage,
)

NAT, REP = Faction.NACIONALES, Faction.REPUBLICANOS


def unit(
    name="Sección Infantería de Línea", quality="Regulares", capacity=6, faction=NAT, key=None
):
    profile = catalogue().profile(faction, name)
    return new_status(
        key=key or name, name=name, profile=profile, quality=quality, casualty_capacity=capacity
    )


def tank(quality="Regulares", name="Panzer I Ausf A/B"):
    return new_status(
        key=name,
        name=name,
        profile=catalogue().profile(NAT, name),
        quality=quality,
        casualty_capacity=0,
    )


def one(hits):
    (hit,) = hits
    return hit.unit


@pytest.mark.parametrize(("quality", "morale"), [("Verdes", 8), ("Regulares", 10), ("Élite", 12)])
def test_M36_XI_1_base_morale_by_quality(quality, morale):
    u = unit(quality=quality)
    assert (u.morale, u.max_morale, u.state, u.kind) == (morale, morale, "Normal", "infantry")
    assert legal_problems(u) == []
    assert UnitStatus.from_dict(u.to_dict()) == u


def test_M36_XI_5_vehicles_get_pe_and_crew_morale():
    t = tank("Veteranos")
    assert (t.kind, t.pe, t.pe_initial, t.morale) == ("vehicle", 4, 4, 12)
    assert unit("Oficial", capacity=1).kind == "individual"


@pytest.mark.parametrize("capacity", [0, -1, True])
def test_M36_XI_8_capacity_is_required(capacity):
    with pytest.raises(RuleError):
        unit(capacity=capacity)


def test_M36_XI_5_vehicle_has_no_casualty_points():
    with pytest.raises(RuleError):
        new_status(
            key="t",
            name="t",
            profile=catalogue().profile(NAT, "T-26 B (capturado)"),
            quality="Regulares",
            casualty_capacity=3,
        )


def test_T22_M36_XI_1_pinned_then_recovers_next_quiet_turn():
    hit = take_fire(unit(), suppression=4, casualties=2)
    u = hit.unit
    assert (u.morale, u.suppression, u.casualties, u.state, u.fired_upon) == (
        4,
        4,
        2,
        "Pinned",
        True,
    )
    every = MoraleOptions(suppression_back_every_turn=True)
    assert one(end_of_turn([u], options=every)).morale == 8
    u = one(end_of_turn([u]))
    assert (u.morale, u.state) == (4, "Pinned")  # fired upon this turn: suppression stays
    u = one(end_of_turn([u]))
    assert (u.morale, u.suppression, u.state) == (8, 0, "Normal")
    assert Hit.from_dict(hit.to_dict()) == hit


def test_T23_M36_XI_2_green_panics_and_friends_lose_morale():
    hit = take_fire(unit(quality="Verdes"), suppression=8, casualties=0)
    assert hit.panicked_now and hit.unit.state == "Panicked"
    assert (hit.unit.morale, hit.unit.casualties) == (0, 1)
    friends = [unit(), unit("Sección Milicia de la Falange"), unit("Sección Milicias Requetés")]
    hits = friends_see_panic(friends)
    assert [h.unit.morale for h in hits] == [9, 7, 10]


def test_M36_XI_2_panicked_extra_casualty_per_suppression():
    u = take_fire(unit(quality="Verdes"), suppression=8, casualties=0).unit
    assert take_fire(u, suppression=2, casualties=0).unit.casualties == 2
    assert take_fire(u, suppression=0, casualties=1).unit.casualties == 2
    per_point = MoraleOptions(panicked_casualty_per_point=True)
    assert take_fire(u, suppression=2, casualties=0, options=per_point).unit.casualties == 3


def test_M36_XI_2_panic_from_friends_cascades():
    u = replace(unit(), morale=1, suppression=0, casualties=0)
    (hit,) = friends_see_panic([u])
    assert hit.panicked_now and hit.unit.casualties == 1


def test_M36_III_Terror_once_per_turn_and_for_that_turn():
    u = take_fire(unit(), suppression=0, casualties=0, terror=True).unit
    assert (u.morale, u.terror_loss) == (9, 1)
    u = take_fire(u, suppression=0, casualties=0, terror=True).unit
    assert u.morale == 9
    u = one(end_of_turn([u]))
    assert (u.morale, u.terrorised) == (10, False)
    assert take_fire(u, suppression=0, casualties=0, terror=True).unit.morale == 9


def test_T25_M36_XI_8_decimation():
    u = take_fire(unit(capacity=4), suppression=0, casualties=2).unit
    assert u.decimated and u.max_morale == 7 and u.morale == 7
    assert [effective_fa(u, fa) for fa in (5, 4, 2)] == [2, 2, 1]
    assert take_fire(unit(capacity=5), suppression=0, casualties=2).unit.decimated is False


def test_M36_XI_8_all_casualty_points_lost_destroys():
    hit = take_fire(unit(capacity=2), suppression=0, casualties=5)
    assert hit.destroyed_now and hit.unit.casualties == 2 and hit.unit.state == "Destroyed"
    with pytest.raises(RuleError):
        take_fire(hit.unit, suppression=1, casualties=0)
    keep = MoraleOptions(destroyed_at_full_casualties=False)
    assert (
        take_fire(unit(capacity=2), suppression=0, casualties=5, options=keep).unit.state
        == "Normal"
    )


def test_M36_XI_5_crew_withdraws_then_abandons():
    t = take_vehicle_damage(tank(), crew_suppression=6, pe_loss=1, armour_loss={"front": 1})
    assert (t.unit.state, t.unit.pe, t.unit.armour_loss) == ("Pinned", 3, {"front": 1})
    out = take_vehicle_damage(t.unit, crew_suppression=4, pe_loss=0, armour_loss={"front": 1})
    assert out.destroyed_now and out.unit.state == "Out of action" and "crew_out" in out.unit.flags
    assert out.unit.armour_loss == {"front": 2}


def test_M36_VI_3_pe_zero_destroys_by_default():
    t = take_vehicle_damage(tank(), crew_suppression=0, pe_loss=9, flags=("immobilised",))
    assert t.unit.state == "Destroyed" and {"destroyed", "immobilised"} <= set(t.unit.flags)
    opt = MoraleOptions(pe_zero="out_of_action")
    assert take_vehicle_damage(tank(), crew_suppression=0, pe_loss=9, options=opt).unit.state == (
        "Out of action"
    )
    with pytest.raises(RuleError):
        take_vehicle_damage(tank(), crew_suppression=0, pe_loss=0, flags=("on_fire",))
    with pytest.raises(RuleError):
        take_vehicle_damage(unit(), crew_suppression=0, pe_loss=0)


def test_M36_XI_4_lider_once_fanatico_stacks():
    u = replace(unit("Sección Milicia de la Falange"), morale=5)
    assert one(end_of_turn([u], leader_in_range={u.key})).morale == 7
    plain = replace(unit(), morale=5)
    assert one(end_of_turn([plain], leader_in_range={plain.key})).morale == 6
    assert one(end_of_turn([plain], granted_fanatico={plain.key})).morale == 6
    assert one(end_of_turn([plain])).morale == 5


def test_M36_XI_4_recovery_never_eats_suppression_still_held():
    u = take_fire(unit(), suppression=3, casualties=1).unit
    u = one(end_of_turn([u], leader_in_range={u.key}))
    assert (u.morale, u.suppression) == (7, 3)


def test_M36_XI_4_regroup_removes_panicked():
    u = take_fire(unit(quality="Verdes"), suppression=8, casualties=0).unit
    u = one(end_of_turn([u]))  # fired upon: suppression held, morale 0, still Panicked
    assert u.state == "Panicked"
    u = one(end_of_turn([u], regrouped={u.key}))  # quiet turn: suppression back, then regroup
    assert (u.state, u.morale) == ("Normal", 7)


def test_M36_XI_4_panicked_sticky_without_regroup():
    u = replace(unit("Sección Milicia de la Falange"), morale=0, state="Panicked")
    u = one(end_of_turn([u]))
    assert (u.morale, u.state) == (1, "Panicked")
    loose = MoraleOptions(panic_ends_with_morale=True)
    assert one(end_of_turn([u], options=loose)).state == "Pinned"


def test_M36_V_5_reorganizacion_clears_suppression_and_gives_two():
    u = take_fire(unit(capacity=8), suppression=2, casualties=3).unit
    u = one(end_of_turn([u]))
    u = one(end_of_turn([u]))  # quiet: morale 7
    u, _ = start_prolonged(u, "Reorganización")
    u = take_fire(u, suppression=3, casualties=0).unit
    assert (u.morale, u.acted) == (4, True)
    u = one(end_of_turn([u]))
    assert (u.morale, u.suppression, u.prolonged, u.state, u.acted) == (9, 0, None, "Normal", False)


def test_M36_V_5_green_prolonged_takes_two_turns():
    u, _ = start_prolonged(unit(quality="Verdes"), "Observación")
    u = one(end_of_turn([u]))
    assert (u.prolonged, u.acted, u.observation_bonus) == ("Observación", True, False)
    u = one(end_of_turn([u]))
    assert (u.prolonged, u.acted, u.observation_bonus) == (None, False, True)


def test_M36_XI_3_voluntary_retreat():
    u = take_fire(unit(), suppression=6, casualties=0).unit
    r = begin_retreat(u)
    assert r.state == "Retreating"
    assert end_retreat(r).state == "Pinned"
    with pytest.raises(RuleError):
        begin_retreat(unit())
    assert take_fire(r, suppression=9, casualties=0).panicked_now


def test_M36_V_4_prone_ends_with_phase():
    assert end_of_phase([replace(unit(), prone=True, reacted=True)])[0].prone is False


@pytest.mark.parametrize(("lost", "broken"), [(5, False), (6, True)], ids=["five", "six"])
def test_T24_M36_XI_7_battalion_from_statuses(lost, broken):
    units = [unit(key=str(i)) for i in range(10)]
    for i in range(lost):
        if i % 2:
            units[i] = take_fire(units[i], suppression=10, casualties=0).unit
        else:
            units[i] = take_fire(units[i], suppression=0, casualties=6).unit
    assert battalion_morale([battalion_state(u) for u in units]).broken is broken


OPS = st.one_of(
    st.tuples(st.just("fire"), st.integers(0, 12), st.integers(0, 8), st.booleans()),
    st.tuples(
        st.just("vehicle"),
        st.integers(0, 12),
        st.integers(0, 5),
        st.sampled_from(
            [(), ("immobilised",), ("crew_out",), ("destroyed",), ("main_gun_out", "bogged")]
        ),
    ),
    st.tuples(st.just("panic"), st.just(0), st.just(0), st.just(())),
    st.tuples(st.just("retreat"), st.booleans(), st.just(0), st.just(0)),
    st.tuples(st.just("mark"), st.booleans(), st.just(0), st.just(0)),
    st.tuples(st.just("end"), st.booleans(), st.booleans(), st.booleans()),
    st.tuples(
        st.just("prolonged"),
        st.sampled_from(["Reorganización", "Observación"]),
        st.just(0),
        st.just(0),
    ),
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), OPS), max_size=25),
    st.booleans(),
    st.booleans(),
)
def test_M36_XI_any_sequence_keeps_status_legal(ops, per_point, casualties_first):
    options = MoraleOptions(
        panicked_casualty_per_point=per_point, casualties_before_suppression=casualties_first
    )
    units = [
        unit(capacity=4, quality="Verdes"),
        unit("Sección Milicia de la Falange", capacity=3),
        unit("Sección Milicias Requetés", capacity=5, quality="Élite"),
        tank(),
    ]
    for i, (op, a, b, c) in ops:
        u = units[i]
        try:
            if op == "fire":
                units[i] = take_fire(u, suppression=a, casualties=b, terror=c, options=options).unit
            elif op == "vehicle":
                units[i] = take_vehicle_damage(
                    u,
                    crew_suppression=a,
                    pe_loss=b,
                    armour_loss={"side": 1},
                    flags=c,
                    options=options,
                ).unit
            elif op == "panic":
                units = [h.unit for h in friends_see_panic(units, options=options)]
            elif op == "end":
                keys = {x.key for x in units}
                units = [
                    h.unit
                    for h in end_of_turn(
                        units,
                        leader_in_range=keys if a else (),
                        regrouped=keys if b else (),
                        granted_fanatico=keys if c else (),
                        options=options,
                    )
                ]
            elif op == "retreat":
                units[i] = begin_retreat(u) if a else end_retreat(u)
            elif op == "mark":
                units[i] = mark_acted(u) if a else mark_reacted(u)
            else:
                units[i] = start_prolonged(u, a)[0]
        except RuleError:
            pass
        for x in units:
            assert legal_problems(x) == [], (x, legal_problems(x))
    assert [UnitStatus.from_dict(x.to_dict()) for x in units] == units

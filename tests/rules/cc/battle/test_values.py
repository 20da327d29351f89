"""Current unit values [3.1–3.3, 13.2, E44.1, F106.1, T78.3, T93, V15] and terrain Cover."""

import pytest

from rules.cc.battle.terrain import (
    Fortification,
    HexCover,
    Hexside,
    Terrain,
    hex_cover,
    smoke,
)
from rules.cc.battle.units import UnitKind
from rules.cc.battle.values import (
    ZERO_COVER,
    Candidate,
    Printed,
    Unit,
    UnitValues,
    Weapon,
    WeaponKind,
    activation,
    current_values,
    weapon_values,
)
from rules.errors import RuleError
from rules.serial import from_data, to_data


def squad(name="Squad", morale=7, fp=5, rng=5, move=4, broken_morale=8, **kw):
    return Unit(
        name,
        UnitKind.SQUAD,
        Printed(fp, rng, move, morale),
        Printed(fp - 2, rng - 2, move - 1, broken_morale),
        **kw,
    )


def team(name="Team", morale=7, **kw):
    return Unit(name, UnitKind.TEAM, Printed(2, 4, 4, morale), Printed(1, 2, 3, 7), **kw)


def leader(name="Leader", command=2, morale=8, **kw):
    return Unit(
        name, UnitKind.LEADER, Printed(1, 1, 6, morale, command), Printed(0, 0, 5, 7, 0), **kw
    )


def morale_in(unit, ground, **kw):
    return current_values(unit=unit, cover=hex_cover(ground=ground, **kw)).morale


def test_WE41_cover_of_brush_and_alternative_foxholes_T78_3():
    assert morale_in(team(morale=7), HexCover(Terrain.BRUSH)) == 8
    foxholes = HexCover(Terrain.BRUSH, fortification=Fortification.FOXHOLES)
    assert morale_in(team(morale=7), foxholes) == 10  # 3, not 1 + 3


def test_WE42_building_with_a_road_T93():
    assert hex_cover(ground=HexCover(Terrain.BUILDING, road=True)).value == 2


def test_WE43_open_ground_road_and_foxholes_T93():
    road = HexCover(Terrain.OPEN_GROUND, road=True)
    assert morale_in(squad(morale=7), road) == 6
    foxholes = HexCover(Terrain.OPEN_GROUND, fortification=Fortification.FOXHOLES, road=True)
    assert morale_in(squad(morale=7), foxholes) == 9


def test_WE08_overstacking_lowers_cover_V15():
    orchard = HexCover(Terrain.ORCHARD)
    assert morale_in(squad(morale=7), orchard, figures=8, overstack_cover=True) == 7
    assert hex_cover(ground=orchard, figures=12, overstack_cover=True).value == -4
    assert morale_in(squad(morale=7), orchard, figures=12, overstack_cover=True) == 3
    # 8.2(a), the core rule: no Cover penalty
    assert morale_in(squad(morale=7), orchard, figures=12) == 8


def test_fortification_cover_plus_one_vs_mortars_and_artillery_F101_F105():
    for fort, value in [
        (Fortification.BUNKER, 6),
        (Fortification.PILLBOX, 5),
        (Fortification.TRENCH, 4),
        (Fortification.FOXHOLES, 3),
    ]:
        ground = HexCover(Terrain.OPEN_GROUND, fortification=fort)
        assert hex_cover(ground=ground).value == value
        assert hex_cover(ground=ground, vs_mortar_or_artillery=True).value == value + 1
    assert hex_cover(ground=HexCover(fortification=Fortification.WIRE)).value == 0


def test_hedge_and_wall_cover_only_when_crossed_and_not_vs_artillery_T87_T97():
    wall = HexCover(Terrain.OPEN_GROUND, hexside_crossed=Hexside.WALL)
    assert hex_cover(ground=wall).value == 2
    assert hex_cover(ground=wall, vs_mortar_or_artillery=True).value == 0
    hedge_in_woods = HexCover(Terrain.WOODS, hexside_crossed=Hexside.HEDGE)
    assert hex_cover(ground=hedge_in_woods).value == 2  # best single, never 3


def test_flamethrower_sets_cover_to_zero_unmodified_11_6():
    ground = HexCover(Terrain.STREAM, road=True)
    assert (
        hex_cover(
            ground=ground,
            zero_cover=ZERO_COVER[WeaponKind.FLAMETHROWER],
            figures=12,
            overstack_cover=True,
        ).value
        == 0
    )
    assert hex_cover(ground=ground).value == -2


def test_module_terrain_cover_is_an_input_T78_3():
    assert hex_cover(ground=HexCover(cover=4)).value == 4


def test_smoke_hindrance_range_T94():
    assert smoke(10) == 10
    with pytest.raises(RuleError) as err:
        smoke(11)
    assert err.value.rule == "T94"


def test_leader_command_veteran_suppressed_wire_3_3_1_2_E44_1_13_2_F106_1():
    v = current_values(unit=squad(veteran=True, suppressed=True), leader_commands=[2, 1], wire=True)
    # printed 5/5/4/7; +3 leaders; +1 -1; wire -1 to FP, Range, Morale
    assert (v.fp, v.range, v.move, v.morale) == (7, 7, 7, 9)
    rules_applied = {s.rule for s in v.explanation}
    assert {"3.3.1.2", "E44.1", "13.2", "F106.1"} <= rules_applied


def test_leaders_never_boost_leaders_and_command_is_unchanged_3_3_1_2_13_2():
    v = current_values(
        unit=leader(command=2, veteran=True, suppressed=True), leader_commands=[1], wire=True
    )
    assert v.command == 2  # §7.2 #28: Command unchanged
    assert (v.fp, v.morale) == (0, 7)  # 1 + 1 - 1 - 1; 8 + 1 - 1 - 1
    assert current_values(unit=leader(command=2, broken=True)).command == 0


def test_road_bonus_and_weapon_move_T93_11_1():
    v = current_values(unit=squad(move=4), road_bonus=True, weapon_move=-1)
    assert v.move == 4


def test_WE20_broken_squad_fires_range_three_with_the_leader_3_3_1_2():
    broken = squad(rng=4, broken=True)  # broken side Range 2
    assert current_values(unit=broken, leader_commands=[1]).range == 3


def test_weapon_gets_command_unless_white_band_or_leader_carrier_3_3_1_3():
    hmg = Weapon("HMG", WeaponKind.MG, 8, 16)
    assert weapon_values(weapon=hmg, carrier=squad(), leader_commands=[1]).fp == 9
    assert weapon_values(weapon=hmg, carrier=leader(), leader_commands=[1]).fp == 8
    mortar = Weapon("Mortar", WeaponKind.MORTAR, 6, 14, 2, artillery=True)
    assert weapon_values(weapon=mortar, carrier=squad(), leader_commands=[2]).fp == 6
    vet = squad(veteran=True)
    assert weapon_values(weapon=hmg, carrier=vet).fp == 8  # §7.2 #13
    assert weapon_values(weapon=hmg, carrier=vet, veteran_weapons=True).fp == 9


def test_WE19_a_leader_activates_non_leaders_in_command_only_3_3_1_1():
    grein = leader("Sgt. Grein", command=2)
    out = activation(
        leader=grein,
        candidates=[
            Candidate(team("Team"), 1),
            *(Candidate(squad(f"Squad {i}"), i % 3) for i in range(4)),
            Candidate(leader("Lt. Bolter"), 1),
            Candidate(squad("Far"), 3),
            Candidate(squad("Done"), 0, activated_this_turn=True),
        ],
    )
    assert out.activated == ("Team", "Squad 0", "Squad 1", "Squad 2", "Squad 3")
    assert out.refused == ("Lt. Bolter", "Far", "Done")


def test_command_zero_activates_its_own_hex_3_3_1_1():
    out = activation(
        leader=leader(command=0), candidates=[Candidate(squad("In"), 0), Candidate(squad("Out"), 1)]
    )
    assert out.activated == ("In",)


def test_values_round_trip_serial():
    v = current_values(unit=squad(veteran=True), cover=hex_cover(ground=HexCover(Terrain.WOODS)))
    assert from_data(UnitValues, to_data(v)) == v
    u = squad(suppressed=True)
    assert from_data(Unit, to_data(u)) == u


@pytest.mark.parametrize("kind", [UnitKind.WEAPON, UnitKind.RADIO])
def test_3_1_a_weapon_or_radio_has_no_unit_values(kind):
    with pytest.raises(RuleError, match="not a unit") as refused:
        Unit("LMG", kind, Printed(2, 6, 0, 0), Printed(2, 6, 0, 0))
    assert refused.value.rule == "3.1"


def test_E58_1_a_hero_is_a_leader_for_command_and_activation():
    hero = Unit("Hero", UnitKind.HERO, Printed(1, 1, 6, 10, 1), Printed(0, 0, 5, 9, 0))
    assert hero.command == 1 and hero.figures == 1
    got = current_values(unit=hero, leader_commands=(2,))
    assert (got.fp, got.morale, got.command) == (1, 10, 1)  # no Leader adds to a Leader [3.3.1.2]
    done = activation(leader=hero, candidates=[Candidate(squad(), 1), Candidate(leader(), 0)])
    assert done.activated == ("Squad",) and done.refused == ("Leader",)

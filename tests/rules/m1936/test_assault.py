"""Infantry assault (M36-IX) and vehicle assault (M36-X): T13, T14, T26."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.m1936.assault import (
    AT_WEAPONS,
    AssaultOptions,
    AssaultResult,
    AssaultSide,
    assault_advantage,
    find_at_weapon,
    infantry_assault,
    vehicle_assault,
    vehicle_assault_odds,
)
from rules.m1936.data import Faction, catalogue
from rules.m1936.fire import Weapon
from rules.m1936.vehicles import Facing, Vehicle, VehicleOptions, fire_at_vehicle


def side(name="A", fac=5, bases=3, **kw):
    return AssaultSide(name, fac, bases, **kw)


T26_A = side("A", 5, 3, performance=1, rules=frozenset({"Granadas de Mano"}))
T26_B = side("B", 4, 2, performance=0)


def test_T26_M36_IX_simultaneous_assault():
    res = infantry_assault(T26_A, T26_B)
    # on A: 4 + 0 + 2 − 3 = 3; on B: 5 + 1 + 3 − 2 = 7, casualties 3 capped at 2 bases
    assert (res.fa_eff, res.suppression, res.casualties) == ((3, 7), (3, 7), (1, 2))
    assert res.terror == (False, False)


def test_T26_M36_IX_2_3_advantage_added_by_engine_option():
    res = infantry_assault(T26_A, T26_B, AssaultOptions(advantage_in_r=False))
    assert res.fa_eff == (3 - 2, 7 + 2)


def test_M36_IX_2_2_pinned_and_panicked_penalties():
    a = side("A", 5, 2, state="Pinned")
    b = side("B", 5, 2, state="Panicked")
    assert infantry_assault(a, b).fa_eff == (5 - 3, 5 - 2)
    only_initiator = AssaultOptions(state_penalty_initiator_only=True)
    assert infantry_assault(a, b, only_initiator).fa_eff == (5, 5 - 2)


def test_M36_IX_2_4_cap_by_own_bases_option():
    a = side("A", 12, 1, performance=3)
    b = side("B", 1, 3)
    assert infantry_assault(a, b).casualties[1] == 3  # (12 + 3 + 1 − 3) // 2 = 6 → 3
    assert infantry_assault(a, b, AssaultOptions(cap_by_own_bases=True)).casualties[1] == 1


def test_M36_III_terror_in_assault():
    a = side("Regulares", rules=frozenset({"Asalto(2)", "Terror"}))
    assert infantry_assault(a, side("B")).terror == (False, True)


@pytest.mark.parametrize(
    ("kw", "adv"),
    [
        ({"rules": frozenset({"Granadas de Mano"})}, 2),
        ({"rules": frozenset({"Bombas de Gasolina"})}, 1),
        ({"rules": frozenset({"Subfusiles(2)", "Granadas de Mano"})}, 4),
        ({"rules": frozenset({"Asalto(2)"})}, 2),
        ({"rules": frozenset({"Asalto(2)"}), "defensive_fire_received": True}, 0),
        ({"rules": frozenset({"Carga"}), "mounted": True}, 2),
        ({"rules": frozenset({"Carga"})}, 0),
        ({"rules": frozenset({"Combate Callejero"}), "in_town": True}, 1),
        ({"rules": frozenset({"Combate Callejero"})}, 0),
        ({"rules": frozenset({"LMG(1)", "Casco"})}, 0),
    ],
)
def test_M36_III_assault_advantage(kw, adv):
    total, exp = assault_advantage(side(**kw))
    assert total == adv
    assert exp.steps[-1].value == adv


@pytest.mark.parametrize("bad", [0, -1, 1.0])
def test_M36_IX_1_needs_bases_in_contact(bad):
    with pytest.raises(RuleError):
        infantry_assault(side(bases=bad), side())


def test_M36_IX_performance_must_be_int():
    with pytest.raises(RuleError):
        infantry_assault(side(performance="2"), side())


def test_M36_IX_result_round_trips_json():
    res = infantry_assault(T26_A, T26_B)
    assert AssaultResult.from_dict(res.to_dict()) == res


@given(
    fac=st.tuples(st.integers(-2, 12), st.integers(-2, 12)),
    bases=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    r=st.tuples(st.integers(-6, 6), st.integers(-6, 6)),
    states=st.tuples(*[st.sampled_from(["Normal", "Pinned", "Panicked"])] * 2),
)
def test_M36_IX_property_effects_bounded(fac, bases, r, states):
    a, b = (
        side(n, fac[i], bases[i], performance=r[i], state=states[i]) for i, n in enumerate("AB")
    )
    res = infantry_assault(a, b)
    for i in (0, 1):
        assert res.suppression[i] == max(0, res.fa_eff[i])
        assert 0 <= res.casualties[i] <= bases[i]


def nat_tiznao():
    p = catalogue().profile(Faction.NACIONALES, "Tiznao")
    return Vehicle.from_stats(p.name, p.stats, p.rules)


def test_M36_X_AT_weapon_table():
    assert AT_WEAPONS == {
        "Granadas de mano": (6, 1),
        "Bomba de gasolina": (12, 4),
        "Explosivos": (18, 3),
    }
    assert find_at_weapon("Bombas de Gasolina") == ("Bomba de gasolina", 12, 4)
    with pytest.raises(RuleError):
        find_at_weapon("Panzerfaust")


def test_T14_M36_X_explosives_destroy_tiznao_from_the_rear():
    zapadores = side("Zapadores", 4, 1, rules=frozenset({"Explosivos"}))
    h = vehicle_assault(
        attacker=zapadores,
        at_weapon="Explosivos",
        vehicle=nat_tiznao(),
        facing=Facing.REAR,
        performance=0,
        dice=EnteredDice(),
    )
    assert (h.hit, h.penetrated, h.df, h.outcome, h.destroyed) == (
        True,
        True,
        6,
        "destroyed",
        True,
    )


def test_T14_M36_X_bases_add_to_fa_option():
    a = side("A", 0, 1, rules=frozenset({"Granadas de Mano"}))
    kw = {"at_weapon": "Granadas de mano", "vehicle": nat_tiznao(), "facing": Facing.FRONT}
    assert vehicle_assault(attacker=a, performance=0, dice=EnteredDice([1]), **kw).hit
    literal = AssaultOptions(bases_add_to_vehicle_fa=False)
    h = vehicle_assault(
        attacker=a, performance=0, dice=EnteredDice(), assault_options=literal, **kw
    )
    assert (h.hit, h.outcome) == (False, "miss")


def test_T13_M36_X_2_severe_result_3_is_secondary_armament():
    armoured = Vehicle("box", {"frente": 10, "lateral": 10, "trasera": 10}, 2)
    a = side("A", 4, 1, rules=frozenset({"Granadas de Mano"}))
    h = vehicle_assault(
        attacker=a,
        at_weapon="Granadas de Mano",
        vehicle=armoured,
        facing=Facing.SIDE,
        performance=1,
        dice=EnteredDice([1]),
    )
    # no penetration (6 + 1 < 10); DF 1 + 1 = 2 = PE → severe: 1 + 2 = 3
    assert (h.penetrated, h.outcome, h.severe_total) == (False, "severe", 3)
    assert (h.severe_result, h.pe_loss, h.crew_suppression) == ("secondary_out", 1, 0)
    assert h.flags == ("secondary_out",)
    shot = fire_at_vehicle(
        weapon=Weapon("grenades", fa=5, p=6, d=1),
        vehicle=armoured,
        facing=Facing.SIDE,
        performance=1,
        dice=EnteredDice([1]),
    )
    assert (shot.severe_result, shot.pe_loss, shot.armour_loss) == (
        "armour_degraded",
        0,
        {"lateral": 1},
    )


def test_M36_X_4_immobilise_without_HE():
    a = side("A", 4, 1, rules=frozenset({"Explosivos"}))
    h = vehicle_assault(
        attacker=a,
        at_weapon="Explosivos",
        vehicle=nat_tiznao(),
        facing=Facing.SIDE,
        performance=0,
        dice=EnteredDice(),
        immobilise=True,
    )
    assert (h.outcome, h.severe_result, h.flags, h.destroyed) == (
        "severe",
        "immobilised",
        ("immobilised",),
        False,
    )
    assert h.pe_loss == 2  # penetration + every X result


def test_M36_X_severe_table_option_applies_to_assaults():
    armoured = Vehicle("box", {"frente": 10, "lateral": 10, "trasera": 10}, 2)
    a = side("A", 4, 1, rules=frozenset({"Granadas de Mano"}))
    h = vehicle_assault(
        attacker=a,
        at_weapon="Granadas de mano",
        vehicle=armoured,
        facing=Facing.SIDE,
        performance=1,
        dice=EnteredDice([1]),
        options=VehicleOptions(severe_table="VI"),
    )
    assert h.severe_result == "armour_degraded"


def test_M36_X_1_needs_equipment():
    kw = {"vehicle": nat_tiznao(), "facing": Facing.FRONT, "performance": 0}
    with pytest.raises(RuleError):
        vehicle_assault(attacker=side(), at_weapon=None, dice=EnteredDice(), **kw)
    with pytest.raises(RuleError):
        vehicle_assault(attacker=side(), at_weapon="Explosivos", dice=EnteredDice(), **kw)


@pytest.mark.parametrize("r", [-2, 0, 1, 3])
@pytest.mark.parametrize("facing", list(Facing))
def test_M36_X_vehicle_assault_odds_match_every_severe_die(r, facing):
    """The exact odds of an assault on a vehicle against the six faces of the severe d6."""
    armoured = Vehicle("box", {"frente": 6, "lateral": 4, "trasera": 3}, 3)
    a = side("A", 4, 2, rules=frozenset({"Granadas de Mano"}))
    kw = {"attacker": a, "at_weapon": "Granadas de Mano", "vehicle": armoured, "facing": facing}
    odds = vehicle_assault_odds(performance=r, **kw)
    brute: dict[str, Fraction] = {}
    for face in range(1, 7):
        h = vehicle_assault(performance=r, dice=EnteredDice([face]), **kw)
        key = h.severe_result or h.outcome
        brute[key] = brute.get(key, Fraction(0)) + Fraction(1, 6)
    assert {k: v for k, v in odds.items() if v} == brute

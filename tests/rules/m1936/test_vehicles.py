"""Direct fire against vehicles (M36-VI.3) and severe damage (M36-VI.3.2): T8–T12, odds."""

import itertools
from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.errors import RollNeeded, RuleError
from rules.m1936.data import Faction, catalogue
from rules.m1936.fire import Band, Weapon, weapon_at
from rules.m1936.vehicles import (
    Facing,
    Vehicle,
    VehicleFireMods,
    VehicleHit,
    VehicleOptions,
    damaged,
    fire_at_vehicle,
    moved_modifier,
    severe_row,
    vehicle_hit_odds,
)


def profile(name, faction=Faction.NACIONALES):
    return catalogue().profile(faction, name)


def panzer():
    p = profile("Panzer I Ausf A/B")
    return Vehicle.from_stats(p.name, p.stats, p.rules)


def t26(band=Band.MEDIUM, ammo="AP"):
    p = profile("T-26 B", Faction.REPUBLICANOS)
    return weapon_at(p.stats, band, ammo=ammo, rules=p.rules, name=p.name)


def fire(weapon, vehicle, facing, r, dice=(), **kw):
    return fire_at_vehicle(
        weapon=weapon,
        vehicle=vehicle,
        facing=facing,
        performance=r,
        dice=EnteredDice(dice),
        **kw,
    )


def test_M36_VI_3_vehicle_from_profile():
    v = panzer()
    assert v.armour == {"frente": 6, "lateral": 6, "trasera": 5}
    assert v.pe == 4
    with pytest.raises(RuleError):
        Vehicle.from_stats("section", profile("Sección Infantería de Línea").stats)


def test_T8_M36_VI_3_t26_penetrates_panzer_front_no_effect():
    h = fire(t26(), panzer(), Facing.FRONT, 0)
    assert (h.hit, h.penetrated, h.df, h.outcome) == (True, True, 2, "no_effect")
    assert (h.crew_suppression, h.pe_loss, h.flags) == (1, 1, ())
    assert damaged(panzer(), h).pe == 3


def test_T8_M36_XVI_6_no_effect_keeps_pe_option():
    h = fire(t26(), panzer(), Facing.FRONT, 0, options=VehicleOptions(pe_loss_on_no_effect=False))
    assert (h.outcome, h.pe_loss, h.crew_suppression) == ("no_effect", 0, 1)


def test_T9_M36_VI_3_pe_loss_before_compare_destroys():
    h = fire(t26(), panzer(), Facing.FRONT, 2)
    assert (h.df, h.outcome, h.destroyed, h.severe_roll) == (6, "destroyed", True, None)


def test_T9_M36_VI_3_pe_loss_after_compare_is_severe():
    opts = VehicleOptions(pe_loss_before_compare=False)
    h = fire(t26(), panzer(), Facing.FRONT, 2, dice=[4], options=opts)
    # severe: 1d6 (4) + D + R (1 + 2) = 7 → controllable fire
    assert (h.outcome, h.severe_roll, h.severe_total) == ("severe", 4, 7)
    assert h.severe_result == "controllable_fire"
    assert (h.crew_suppression, h.pe_loss, h.flags) == (1 + 4, 1 + 1, ("controllable_fire",))
    assert h.explanation.rolls[0].kind == "d6"


def test_T10_M36_VI_3_line_section_bounces_off_panzer_side():
    p = profile("Sección Infantería de Línea")
    w = weapon_at(p.stats, Band.SHORT, rules=p.rules)
    h = fire(w, panzer(), Facing.SIDE, 1)  # no dice: none may be asked for
    assert (h.hit, h.penetrated, h.df, h.outcome, h.pe_loss) == (True, False, 1, "no_effect", 0)


def test_M36_VI_3_1_miss_below_1():
    h = fire(Weapon("gun", fa=1, p=9, d=3), panzer(), Facing.REAR, -1)
    assert (h.hit, h.outcome, h.crew_suppression) == (False, "miss", 0)


@pytest.mark.parametrize(
    ("cm", "mod"), [(0, 0), (18, -1), (20, -1), (22, -2), (25, -2), (30, -3), (31, -3)]
)
def test_T11_M36_VI_3_moved_modifier(cm, mod):
    assert moved_modifier(cm) == mod


def test_T11_M36_VI_3_moved_26_29_option():
    assert moved_modifier(27) == -2
    assert moved_modifier(27, VehicleOptions(moved_26_29=-3)) == -3
    with pytest.raises(RuleError):
        moved_modifier(-1)


def test_T11_M36_VI_3_moved_applies_to_hit():
    w = Weapon("gun", fa=2, p=0, d=0)
    h = fire(w, panzer(), Facing.FRONT, 0, mods=VehicleFireMods(moved_cm=22))
    assert h.outcome == "miss"  # 2 + 0 − 2 = 0


@pytest.mark.parametrize(
    ("total", "key", "supp", "pe", "armour", "flags"),
    [
        (-1, "minor", 1, 0, 0, ()),
        (1, "minor", 1, 0, 0, ()),
        (2, "minor", 1, 0, 0, ()),
        (3, "armour_degraded", 2, 0, 1, ()),
        (4, "turret_jammed", 3, 1, 0, ("turret_jammed",)),
        (5, "main_gun_out", 4, 1, 0, ("main_gun_out",)),
        (6, "immobilised", 4, 1, 0, ("immobilised",)),
        (7, "controllable_fire", 4, 1, 0, ("controllable_fire",)),
        (8, "crew_out", 0, 0, 0, ("crew_out",)),
        (9, "uncontrollable_fire", 0, 0, 0, ("destroyed",)),
        (14, "uncontrollable_fire", 0, 0, 0, ("destroyed",)),
    ],
)
def test_T12_M36_VI_3_2_severe_table_rows(total, key, supp, pe, armour, flags):
    row = severe_row(total, "VI")
    assert (row.key, row.suppression, row.pe_loss, row.armour_loss, row.flags) == (
        key,
        supp,
        pe,
        armour,
        flags,
    )


@pytest.mark.parametrize(
    ("total", "key"),
    [
        (0, "minor"),
        (3, "secondary_out"),
        (4, "turret_jammed"),
        (5, "main_gun_out"),
        (6, "immobilised"),
        (7, "controllable_fire"),
        (8, "crew_out"),
        (10, "uncontrollable_fire"),
    ],
)
def test_T13_M36_X_2_severe_table_every_result_loses_pe(total, key):
    row = severe_row(total, "X")
    assert (row.key, row.pe_loss, row.suppression) == (key, 1, 0)


def test_M36_XVI_6_every_severe_result_loses_pe_option():
    assert severe_row(2, "VI").pe_loss == 0
    assert severe_row(2, "VI", VehicleOptions(every_severe_result_loses_pe=True)).pe_loss == 1


def test_T12_M36_VI_3_2_armour_degraded_on_the_side_hit():
    opts = VehicleOptions(pe_loss_before_compare=False, severe_bonus="d")
    h = fire(t26(), panzer(), Facing.FRONT, 2, dice=[2], options=opts)  # 2 + D 1 = 3
    assert (h.severe_result, h.armour_loss) == ("armour_degraded", {"frente": 1})
    after = damaged(panzer(), h)
    assert (after.armour["frente"], after.pe) == (5, 3)


def test_M36_VI_3_2_severe_bonus_final_damage_option():
    opts = VehicleOptions(pe_loss_before_compare=False, severe_bonus="final_damage")
    h = fire(t26(), panzer(), Facing.FRONT, 2, dice=[1], options=opts)
    assert (h.severe_total, h.severe_result) == (1 + 6, "controllable_fire")


def test_M36_VI_3_2_severe_table_can_be_forced_to_X():
    opts = VehicleOptions(pe_loss_before_compare=False, severe_bonus="d", severe_table="X")
    h = fire(t26(), panzer(), Facing.FRONT, 2, dice=[2], options=opts)
    assert (h.severe_result, h.pe_loss, h.crew_suppression) == ("secondary_out", 2, 1)


def test_M36_VI_3_severe_roll_asked_when_missing():
    with pytest.raises(RollNeeded):
        fire(t26(), panzer(), Facing.FRONT, 2, options=VehicleOptions(pe_loss_before_compare=False))


def test_M36_VI_3_2_immobilise_needs_HE():
    with pytest.raises(RuleError):
        fire(t26(band=Band.SHORT), panzer(), Facing.REAR, 2, immobilise=True)


def test_M36_VI_3_2_immobilise_damage_over_structure():
    he = t26(band=Band.SHORT, ammo="HE")  # FA 2, P 3, D 2
    h = fire(he, panzer(), Facing.REAR, 2, immobilise=True)
    # hit 2 + 2 − 1; pen 3 + 2 ≥ 5; DF (2 + 1 + 2) × 2 = 10 > PE 3: immobilised, no roll
    assert (h.penetrated, h.df, h.outcome, h.severe_result, h.severe_roll) == (
        True,
        10,
        "severe",
        "immobilised",
        None,
    )
    assert (h.flags, h.pe_loss, h.crew_suppression, h.destroyed) == (
        ("immobilised",),
        2,
        5,
        False,
    )


def test_M36_VI_3_2_immobilise_at_equal_pe_option():
    w = Weapon("gun", fa=3, p=0, d=3, he=True)
    v = Vehicle("box", {"frente": 10, "lateral": 10, "trasera": 10}, 4)
    literal = fire(w, v, Facing.FRONT, 0, dice=[1], immobilise=True)
    # D 3 + 1 = DF 4 = PE: not over it, so the severe roll: 1 + 4 = 5
    assert (literal.df, literal.severe_roll, literal.severe_result) == (4, 1, "main_gun_out")
    opts = VehicleOptions(immobilise_at_equal_pe=True)
    h = fire(w, v, Facing.FRONT, 0, immobilise=True, options=opts)
    assert (h.severe_roll, h.severe_result) == (None, "immobilised")


@pytest.mark.parametrize(
    ("rules", "facing", "higher", "df"),
    [
        ({"Blindaje Inclinado"}, Facing.FRONT, False, 3 - 1),
        ({"Blindaje Inclinado"}, Facing.FRONT, True, 3),
        ({"Blindaje Inclinado"}, Facing.SIDE, False, 3),
        ({"Blindaje Muy Inclinado"}, Facing.FRONT, True, 3 - 2),
        ({"Acero de Alta Calidad"}, Facing.REAR, False, 3 - 1),
        ({"Fragmentación de Blindaje"}, Facing.SIDE, False, 3 + 2),
    ],
)
def test_M36_III_non_penetrating_damage_rules(rules, facing, higher, df):
    v = Vehicle("tank", {"frente": 20, "lateral": 20, "trasera": 20}, 9, frozenset(rules))
    h = fire(Weapon("gun", fa=3, p=0, d=3), v, facing, 0, mods=VehicleFireMods(from_higher=higher))
    assert (h.penetrated, h.df) == (False, df)


def test_M36_III_bajo_perfil_and_perfil_alto():
    w = Weapon("gun", fa=2, p=0, band=Band.MEDIUM)
    low = Vehicle("cv33", {"frente": 9, "lateral": 9, "trasera": 9}, 3, frozenset({"Bajo Perfil"}))
    assert fire(w, low, Facing.FRONT, 0, mods=VehicleFireMods(concealed=True)).outcome == "miss"
    high = Vehicle("t", {"frente": 9, "lateral": 9, "trasera": 9}, 3, frozenset({"Perfil Alto"}))
    h = fire(w, high, Facing.FRONT, -1, mods=VehicleFireMods(concealed=True))
    assert h.hit  # conceal ignored at medium range: 2 − 1 = 1


def test_M36_III_tirador_selecto_aim_doubles_p():
    w = Weapon("gun", fa=0, p=2, d=0, rules=frozenset({"Tirador Selecto"}))
    h = fire(w, panzer(), Facing.FRONT, 0, mods=VehicleFireMods(aim=True))
    assert (h.hit, h.penetrated) == (True, True)  # FA 0 + 2; P 2 + 4 ≥ 6


def _key(h: VehicleHit) -> str:
    return h.severe_result if h.outcome == "severe" else h.outcome


OPTION_SETS = [
    VehicleOptions(),
    VehicleOptions(pe_loss_before_compare=False),
    VehicleOptions(severe_bonus="d", every_severe_result_loses_pe=True),
    VehicleOptions(severe_bonus="final_damage", severe_table="X"),
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_M36_VI_3_odds_match_brute_force(options):
    weapons = [t26(), t26(Band.SHORT, "HE"), Weapon("lmg", fa=3, p=3, d=-1)]
    checked_severe = 0
    for w, facing, r, immobilise in itertools.product(weapons, Facing, range(-3, 6), (False, True)):
        if immobilise and not w.he:
            continue
        kw = {"immobilise": immobilise, "options": options}
        odds = vehicle_hit_odds(weapon=w, vehicle=panzer(), facing=facing, performance=r, **kw)
        counts: dict[str, int] = {}
        for face in range(1, 7):
            dice = EnteredDice([face])
            h = fire_at_vehicle(
                weapon=w, vehicle=panzer(), facing=facing, performance=r, dice=dice, **kw
            )
            counts[_key(h)] = counts.get(_key(h), 0) + 1
            if dice.remaining:  # no severe roll: the outcome does not depend on the die
                assert h.severe_roll is None
        assert odds == {k: Fraction(c, 6) for k, c in counts.items()}
        assert sum(odds.values()) == 1
        checked_severe += len(odds) > 1
    assert checked_severe > 0


def test_M36_VI_3_hit_round_trips_json():
    opts = VehicleOptions(pe_loss_before_compare=False)
    h = fire(t26(), panzer(), Facing.FRONT, 2, dice=[4], options=opts)
    assert VehicleHit.from_dict(h.to_dict()) == h

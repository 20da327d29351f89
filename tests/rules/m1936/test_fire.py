"""Direct fire against infantry (M36-VI.2) and cover (M36-VIII.2): E1, E2, T6, T7, T25."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.m1936.construction import COVER_TYPES
from rules.m1936.data import Faction, catalogue
from rules.m1936.fire import (
    Band,
    FireOptions,
    InfantryFireMods,
    InfantryFireResult,
    Weapon,
    fire_at_infantry,
    infantry_fire_table,
    weapon_at,
)


def profile(name, faction=Faction.NACIONALES):
    return catalogue().profile(faction, name)


def line_section(bases=3):
    p = profile("Sección Infantería de Línea")
    return weapon_at(p.stats, Band.SHORT, bases=bases, rules=p.rules, name=p.name)


def test_E1_M36_VIII_2_casa_penetrated_skips_cover():
    w = Weapon("rifles", fa=5, p=1, bases=3)
    r = fire_at_infantry(weapon=w, performance=2, cover="Casa")
    assert (r.cover_penetrated, r.fa_eff) == (True, 7)


def test_E1_M36_VIII_2_casa_not_penetrated_costs_3():
    w = Weapon("rifles", fa=5, p=1, bases=3)
    r = fire_at_infantry(weapon=w, performance=1, cover="Casa")
    assert (r.cover_penetrated, r.fa_eff) == (False, 5 + 1 - 3)


def test_E2_M36_VIII_2_trench_light_weapon_does_not_penetrate():
    r = fire_at_infantry(weapon=Weapon("LMG", fa=5, p=2), performance=2, cover="Trinchera")
    assert (r.cover_penetrated, r.fa_eff) == (False, 5 + 2 - 2)


def test_E2_M36_VIII_2_trench_heavy_gun_penetrates():
    r = fire_at_infantry(weapon=Weapon("155", fa=3, p=7), performance=1, cover="Trinchera")
    assert (r.cover_penetrated, r.fa_eff) == (True, 4)


def test_T6_M36_VI_2_line_section_vs_trench():
    r = fire_at_infantry(weapon=line_section(3), performance=1, cover="Trinchera")
    assert (r.cover_penetrated, r.fa_eff, r.suppression, r.casualties) == (False, 4, 4, 2)
    assert not r.terror


def test_T7_M36_VI_2_casualties_capped_by_firing_bases():
    r = fire_at_infantry(weapon=line_section(1), performance=0, mods=InfantryFireMods(prone=True))
    assert (r.cover_penetrated, r.fa_eff, r.suppression, r.casualties) == (None, 4, 4, 1)


def test_T25_M36_XI_8_decimation_halves_fa_rounding_down():
    stats = {"fac": 5, "fam": 4, "fal": 2, "pc": 2, "pm": 2, "pl": 1, "d": 0}
    got = [weapon_at(stats, b, decimated=True).fa for b in Band]
    assert got == [2, 2, 1]
    assert weapon_at(stats, Band.LONG).p == 1


def test_M36_III_AP_HE_pairs_pick_the_ammunition():
    t26 = profile("T-26 B", Faction.REPUBLICANOS)
    ap = weapon_at(t26.stats, Band.MEDIUM, rules=t26.rules)
    he = weapon_at(t26.stats, Band.MEDIUM, ammo="HE", rules=t26.rules)
    assert (ap.fa, ap.p, ap.d, ap.he) == (2, 8, 1, False)
    assert (he.fa, he.p, he.d, he.he) == (2, 3, 2, True)


def test_M36_III_HE_needs_HE_ammunition():
    p = profile("Sección Infantería de Línea")
    with pytest.raises(RuleError):
        weapon_at(p.stats, Band.SHORT, ammo="HE", rules=p.rules)


def test_M36_VI_2_1_unit_without_fa_cannot_fire():
    tiznao = profile("Tiznao")
    with pytest.raises(RuleError):
        weapon_at(tiznao.stats, Band.SHORT, rules=tiznao.rules)


@pytest.mark.parametrize("bases", [0, -1, 1.5, True])
def test_M36_VI_2_firing_bases_must_be_positive(bases):
    with pytest.raises(RuleError):
        weapon_at({"fac": 4, "pc": 1}, Band.SHORT, bases=bases)


@pytest.mark.parametrize(
    ("flag", "fa_delta"),
    [
        ("prone", -1),
        ("small_target", -1),
        ("concealed", -1),
        ("limited_shot", -1),
        ("under_fire", -2),
        ("moving", -1),
        ("flank", 1),
        ("rear", 2),
        ("exposed", 2),
        ("aim", 1),
        ("deep_trench", -1),
    ],
)
def test_M36_VI_2_3_modifier_table_fa_column(flag, fa_delta):
    r = fire_at_infantry(
        weapon=Weapon("w", fa=4, p=1, bases=9),
        performance=0,
        mods=InfantryFireMods(**{flag: True}),
    )
    assert r.fa_eff == 4 + fa_delta


def test_M36_III_fanatico_under_fire_only_minus_1():
    w = Weapon("legion", fa=5, p=2, bases=3, rules=frozenset({"Fanático"}))
    r = fire_at_infantry(weapon=w, performance=0, mods=InfantryFireMods(under_fire=True))
    assert r.fa_eff == 4


def test_M36_III_tirador_selecto_ignores_small_target_and_doubles_aim():
    w = Weapon("sniper", fa=1, p=0, rules=frozenset({"Tirador Selecto"}))
    small = fire_at_infantry(weapon=w, performance=0, mods=InfantryFireMods(small_target=True))
    assert small.fa_eff == 1
    aimed = fire_at_infantry(weapon=w, performance=0, cover="Casa", mods=InfantryFireMods(aim=True))
    assert aimed.cover_penetrated is True  # P 0 + 4 ≥ Blindaje 3
    assert aimed.fa_eff == 1 + 2


def test_M36_III_impreciso_cannot_aim():
    w = Weapon("mg", fa=4, p=3, rules=frozenset({"Impreciso"}))
    with pytest.raises(RuleError):
        fire_at_infantry(weapon=w, performance=0, mods=InfantryFireMods(aim=True))


def test_M36_III_troneras_minus_1():
    w = Weapon("tiznao", fa=3, p=3, rules=frozenset({"Troneras"}))
    assert fire_at_infantry(weapon=w, performance=0).fa_eff == 2


@pytest.mark.parametrize("rule", ["Lanzallamas", "Terror"])
def test_M36_III_terror_rules(rule):
    w = Weapon("w", fa=3, p=3, rules=frozenset({rule}))
    assert fire_at_infantry(weapon=w, performance=0).terror is True


def test_M36_VI_2_3_p_mods_in_cover_check_option():
    w = Weapon("w", fa=4, p=1)
    mods = InfantryFireMods(aim=True)
    assert fire_at_infantry(weapon=w, performance=0, cover="Casa", mods=mods).cover_penetrated
    literal = FireOptions(p_mods_in_cover_check=False)
    r = fire_at_infantry(weapon=w, performance=0, cover="Casa", mods=mods, options=literal)
    assert (r.cover_penetrated, r.fa_eff) == (False, 4 + 1 - 3)


def test_M36_III_tiro_parabolico_reduces_house_cover_to_1():
    w = Weapon("mortar", fa=4, p=1)
    r = fire_at_infantry(weapon=w, performance=0, cover="Casa", parabolic=True)
    assert r.fa_eff == 4 - 1
    wood = fire_at_infantry(weapon=w, performance=0, cover="Bosque", parabolic=True)
    assert wood.fa_eff == 4 - 2


def test_M36_III_tiro_alto_angulo_only_hills():
    w = Weapon("gun", fa=4, p=1)
    hill = fire_at_infantry(weapon=w, performance=0, cover="Colina nivel 2", high_angle=True)
    trench = fire_at_infantry(weapon=w, performance=0, cover="Trinchera", high_angle=True)
    assert (hill.fa_eff, trench.fa_eff) == (3, 2)


def test_M36_VIII_2_unknown_cover_refused():
    with pytest.raises(RuleError):
        fire_at_infantry(weapon=Weapon("w", fa=4, p=1), performance=0, cover="Castillo")


def test_M36_VI_2_3_negative_fa_gives_no_suppression():
    r = fire_at_infantry(weapon=Weapon("w", fa=1, p=0), performance=-3, cover="Trinchera")
    assert (r.fa_eff, r.suppression, r.casualties) == (-4, 0, 0)


def test_M36_VI_2_3_performance_must_be_entered_int():
    with pytest.raises(RuleError):
        fire_at_infantry(weapon=Weapon("w", fa=1, p=0), performance=1.5)


def test_M36_VI_2_result_round_trips_json():
    r = fire_at_infantry(weapon=line_section(), performance=1, cover="Trinchera")
    back = InfantryFireResult.from_dict(r.to_dict())
    assert back == r
    assert back.explanation.steps[0].rule == "M36-VI.2.3"


mods_strategy = st.builds(
    InfantryFireMods, **{k: st.booleans() for k in InfantryFireMods().__dict__}
)


@given(
    fa=st.integers(-3, 12),
    p=st.integers(-1, 20),
    bases=st.integers(1, 6),
    r=st.integers(-6, 6),
    cover=st.sampled_from([None, *COVER_TYPES]),
    mods=mods_strategy,
    parabolic=st.booleans(),
)
def test_M36_VI_2_property_effects_bounded(fa, p, bases, r, cover, mods, parabolic):
    w = Weapon("w", fa=fa, p=p, bases=bases)
    res = fire_at_infantry(weapon=w, performance=r, cover=cover, mods=mods, parabolic=parabolic)
    assert res.suppression >= 0
    assert 0 <= res.casualties <= bases
    assert res.suppression == max(0, res.fa_eff)
    assert res.casualties == min(res.suppression // 2, bases)


@given(
    fa=st.integers(-2, 10),
    p=st.integers(0, 16),
    bases=st.integers(1, 4),
    cover=st.sampled_from([None, *COVER_TYPES]),
    mods=mods_strategy,
)
def test_M36_VI_2_preview_table_agrees_with_fire(fa, p, bases, cover, mods):
    w = Weapon("w", fa=fa, p=p, bases=bases)
    table = infantry_fire_table(weapon=w, cover=cover, mods=mods)
    assert [r for r, _ in table] == list(range(-3, 4))
    for r, res in table:
        assert res == fire_at_infantry(weapon=w, performance=r, cover=cover, mods=mods)

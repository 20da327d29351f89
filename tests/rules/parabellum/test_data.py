"""Nation and squad data against the seed's nation lists (TOC 10, §6.6, §8)."""

from decimal import Decimal

import pytest

from rules.parabellum.data import all_squad_types, generic_weapons, nation, squad_type, weapon

# (squad id, PM, extra squad rules, veterans cap, recruits cap) — read from the seed lists.
SQUADS = [
    ("GER/grenadier", "10", set(), None, None),
    ("GER/waffen_ss", "7.5", {"tenacious", "assault_troops"}, None, 0),
    ("GER/fallschirmjager", "8", {"tenacious"}, None, 2),
    ("USA/rifleman", "10", set(), None, None),
    ("USA/rangers", "8.5", {"recon", "assault_troops"}, None, 0),
    ("USA/parachute", "8", {"tenacious"}, None, 2),
    ("GBR/riflemen", "10", set(), None, None),
    ("GBR/parachute", "8", {"tenacious"}, None, 2),
    ("GBR/commando", "6.5", {"recon", "assault_troops", "tenacious"}, None, 0),
    ("USSR/rifle_squad", "10", set(), 3, None),
    ("USSR/guards", "8", {"tenacious"}, 3, 2),
    ("ITA/fucilieri", "10", set(), None, None),
    ("ITA/alpini", "8", {"recon", "all_terrain"}, None, 0),
    ("ITA/paracadutisti", "8", {"tenacious"}, None, 2),
    ("FIN/jalkavaki", "8", {"all_terrain"}, None, 2),
    ("FIN/jaakari", "7", {"all_terrain", "recon"}, None, 0),
]
NATION_RULES = {
    "GER": {"independence", "mg42"},
    "USA": {"scouts", "squad_sniper"},
    "GBR": {"stonk", "light_mortar"},
    "USSR": {"quality_of_quantity"},
    "ITA": {"defence_of_homeland", "mg42"},
    "FIN": {"motti", "sissu"},
}


def test_sixteen_squad_types():
    assert len(all_squad_types()) == 16


@pytest.mark.parametrize(("squad_id", "pm", "extra", "veterans", "recruits"), SQUADS)
def test_nation_list_squad_values(squad_id, pm, extra, veterans, recruits):
    st = squad_type(squad_id)
    assert st.pm == Decimal(pm)
    assert st.special_rules == NATION_RULES[st.nation] | extra
    assert (st.veterans, st.recruits) == (veterans, recruits)
    assert st.ref.startswith("10 ")


# (nation, size, officer, nco, assistants, gunner weapon, riflemen, rifle weapon)
BASIC = [
    ("GER", 10, "smg", "smg", 2, "mg", 5, "rifle"),
    ("USA", 10, "smg", "carbine", 2, "automatic_rifle", 5, "semi_auto_rifle"),
    ("GBR", 10, "smg", "smg", 2, "mg", 5, "rifle"),
    ("USSR", 11, "smg", "rifle", 1, "mg", 7, "rifle"),
    ("ITA", 10, "smg", "smg", 2, "mg", 5, "rifle"),
    ("FIN", 9, "smg", "smg", 2, "mg", 4, "rifle"),
]


@pytest.mark.parametrize(("code", "size", "off", "nco", "ast", "mg", "rif", "rifle"), BASIC)
def test_8_1_basic_squads(code, size, off, nco, ast, mg, rif, rifle):
    n = nation(code)
    assert sum(s.count for s in n.basic_squad) == n.size == size
    assert (n.base_weapon("officer"), n.base_weapon("nco")) == (off, nco)
    assert (n.role_count("mg_assistant"), n.base_weapon("mg_assistant")) == (ast, rifle)
    assert (n.base_weapon("mg_gunner"), n.role_count("rifleman")) == (mg, rif)


def test_ambiguity_automatic_rifle_range_bar_60_generic_50():
    assert generic_weapons()["automatic_rifle"].range_cm == 50
    bar = weapon("USA", "automatic_rifle")
    assert bar.range_cm == 60 and not bar.has("cumbersome")


@pytest.mark.parametrize(
    ("code", "key", "model", "range_cm", "rules"),
    [
        ("GER", "assault_rifle", "STG-44", 50, {"semi_automatic", "automatic", "aim", "assault"}),
        ("GER", "mg", "MG-42", 60, {"automatic", "assistant", "cumbersome"}),
        ("USSR", "pistol", "Tokapeba TT", 30, {"semi_automatic", "assault"}),
        ("USA", "carbine", "Carabine M1", 40, {"semi_automatic", "aim", "assault"}),
        ("FIN", "panzerfaust", "Panzerfaust", 30, {"grenade_projector", "single_use"}),
        ("GBR", "rifle", "Lee-Enfield", 50, {"bolt", "aim"}),
    ],
)
def test_6_6_nation_weapons(code, key, model, range_cm, rules):
    w = weapon(code, key)
    assert (w.model, w.range_cm, set(w.rules)) == (model, range_cm, rules)


def test_m7_range_20_to_40_and_grenades_20():
    m7 = weapon("USA", "grenade_launcher")
    assert (m7.min_range_cm, m7.range_cm) == (20, 40)
    assert weapon("GBR", "grenades").range_cm == 20

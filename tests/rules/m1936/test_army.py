"""Army lists (M36-II): catalogue data checked against the seed, budgets, costs, validation.

Expected values are read from the seed rulebook's Section II tables and computed by hand.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.m1936.army import (
    ArmyEntry,
    ArmyList,
    ArmyOptions,
    GameSize,
    Role,
    budget,
    effective_quality,
    effective_rules,
    effective_stats,
    entry_cost,
    quality_effects,
)
from rules.m1936.data import Category, Faction, Quality, catalogue
from rules.m1936.validation import legal_options, validate_army

NAC, REP = Faction.NACIONALES, Faction.REPUBLICANOS


def fa_p(stats):
    return (stats["fac"], stats["fam"], stats["fal"]), (stats["pc"], stats["pm"], stats["pl"])


# --- catalogue -----------------------------------------------------------------------------


def test_M36_II_catalogue_has_every_row_of_both_lists():
    counts = {}
    for p in catalogue().profiles:
        counts[(p.faction, p.category)] = counts.get((p.faction, p.category), 0) + 1
        assert p.section.startswith("M36-II ·") and p.seed_row.startswith(p.name)
    assert counts[(NAC, Category.INFANTRY)] == 18 and counts[(REP, Category.INFANTRY)] == 21
    assert (
        counts[(NAC, Category.LIGHT_VEHICLE)] == 4 and counts[(REP, Category.LIGHT_VEHICLE)] == 12
    )
    assert counts[(NAC, Category.ARTILLERY)] == 9 and counts[(REP, Category.ARTILLERY)] == 10
    assert counts[(NAC, Category.AIRCRAFT)] == 6 and counts[(REP, Category.AIRCRAFT)] == 5
    assert len(catalogue().profiles) == 117


@pytest.mark.parametrize(
    ("faction", "name", "cost", "stat", "value"),
    [
        (NAC, "Sección Milicia de la Falange", 70, "i", 5),
        (NAC, "Sección de Zapadores (bien equipada)", 125, "pc", 6),
        (NAC, "Oficial", 60, "d", -1),
        (NAC, "Hispano Suiza 45mm", 125, "pc", (9, 3)),
        (REP, "Hispano Suiza 45mm", 155, "pc", (9, 3)),
        (NAC, "Schneider 155/17 155mm", 140, "d", 8),
        (REP, "Schneider 155/17 155mm", 140, "d", 7),  # seed row 10-17777: D 7, not 8
        (REP, "Trubia Naval", 70, "bf", 10),
        (REP, "BA-6", 165, "e", 3),
        (NAC, "Krupp FK 96 n.A. 77mm", 75, "i", 1),
        (REP, "Oficial", 40, "pc", 1),
        (NAC, "Camión", 10, "e", 1),
        (REP, "Tiznao Pesado", 80, "bf", 11),
        (NAC, "8,8 cm Flak 18", 160, "pc", 9),
    ],
)
def test_M36_II_profile_values_match_the_seed(faction, name, cost, stat, value):
    p = catalogue().profile(faction, name)
    assert p.cost == cost and p.stats[stat] == value


def test_M36_II_uncertain_reconstructions_are_marked():
    assert catalogue().profile(REP, "76,2mm 3-K").uncertain == ("cost", "i")
    assert catalogue().profile(REP, "Trubia Naval").uncertain == ("bf",)
    fiat = catalogue().profile(NAC, "Fiat CR.32")
    assert fiat.unlabelled_stats == (2, 3) and fiat.cost == 25 and fiat.stats == {}


@pytest.mark.parametrize(
    ("upgrade", "nac", "rep"),
    [
        ("Explosivos", 10, 5),
        ("Cascos", 5, 10),
        ("Veteranos", 5, 10),
        ("Palas reglamentarias", 5, 10),
        ("Ametralladora Ligera", 10, 10),
        ("Munición", 10, 10),
    ],
)
def test_M36_II_Mejoras_costs_per_faction(upgrade, nac, rep):
    assert catalogue().upgrade(NAC, upgrade).cost == nac
    assert catalogue().upgrade(REP, upgrade).cost == rep


# --- budgets (T1, T2) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "attacker", "defender"),
    [(GameSize.PEQUENA, 1200, 800), (GameSize.MEDIANA, 2250, 1500), (GameSize.GRANDE, 4500, 3000)],
    ids=["T2-small", "T1-medium", "T2-large"],
)
def test_M36_II_T1_T2_budget_by_game_size(size, attacker, defender):
    assert budget(Role.ATACANTE, size).points == attacker
    assert budget(Role.DEFENSOR, size).points == defender
    assert attacker * 2 == defender * 3  # the attacker always has 50 % more


@given(st.integers(min_value=1, max_value=100_000))
def test_M36_II_agreed_budget_gives_the_attacker_half_as_much_again(defender):
    down = budget(Role.ATACANTE, defender_points=defender, options=ArmyOptions(rounding="down"))
    up = budget(Role.ATACANTE, defender_points=defender, options=ArmyOptions(rounding="up"))
    assert down.points == (defender * 3) // 2 and up.points == -(-defender * 3 // 2)
    assert budget(Role.DEFENSOR, defender_points=defender).points == defender


def test_M36_II_budget_needs_exactly_one_source():
    with pytest.raises(RuleError):
        budget(Role.ATACANTE)
    with pytest.raises(RuleError):
        budget(Role.ATACANTE, GameSize.PEQUENA, defender_points=800)
    with pytest.raises(RuleError):
        budget(Role.DEFENSOR, defender_points=0)


# --- costs (T3) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "rounding", "cost"),
    [
        (Quality.VETERANOS, "half_up", 98),  # 75 × 1.30 = 97.5
        (Quality.VETERANOS, "down", 97),
        (Quality.VERDES, "half_up", 60),  # 75 × 0.80
        (Quality.ELITE, "half_up", 109),  # 75 × 1.45 = 108.75
        (Quality.ELITE, "down", 108),
        (Quality.REGULARES, "half_up", 75),
    ],
)
def test_M36_II_T3_quality_cost_modifier(quality, rounding, cost):
    entry = ArmyEntry("Sección Infantería de Línea")
    assert entry_cost(entry, NAC, quality, ArmyOptions(rounding=rounding)).total == cost


def test_M36_II_quality_percent_on_base_only_unless_option():
    entry = ArmyEntry("Sección Infantería de Línea", ("Cascos",))  # 75 + 5 (Nac.)
    assert entry_cost(entry, NAC, Quality.VERDES).total == 60 + 5
    options = ArmyOptions(quality_applies_to_upgrades=True)
    assert entry_cost(entry, NAC, Quality.VERDES, options).total == 64  # 80 × 0.8


@pytest.mark.parametrize(
    ("quality", "prolonged", "morale", "ventaja"),
    [
        (Quality.VERDES, 1, 8, -1),
        (Quality.REGULARES, 0, 10, 0),
        (Quality.VETERANOS, -1, 12, 1),
        (Quality.ELITE, -1, 12, 2),
    ],
)
def test_M36_II_XI_1_quality_effects(quality, prolonged, morale, ventaja):
    fx = quality_effects(quality)
    assert (fx.prolonged_turns, fx.morale, fx.ventaja) == (prolonged, morale, ventaja)


# --- statistics after upgrades (T4, T5) -----------------------------------------------------


@pytest.mark.parametrize(
    ("upgrades", "fa", "p"),
    [
        (("Ametralladora Ligera",), (5, 4, 2), (2, 2, 1)),
        (("Ametralladora Ligera", "Ametralladora Ligera"), (6, 4, 2), (2, 2, 1)),
        (("Ametralladora Ligera",) * 3, (6, 5, 2), (2, 2, 1)),
    ],
    ids=["T4-LMG1", "T4-LMG2", "LMG3"],
)
def test_M36_III_T4_lmg_on_a_plain_section(upgrades, fa, p):
    entry = ArmyEntry("Sección Milicia UGT/PSOE", upgrades)  # plain 4/3/2, 1/1/1
    assert fa_p(effective_stats(entry, REP)) == (fa, p)


def test_M36_III_T5_subfusiles_2_and_lmg_2_match_guardias_de_asalto():
    entry = ArmyEntry(
        "Sección Milicia UGT/PSOE", ("Ametralladora Ligera",) * 2 + ("Subfusiles",) * 2
    )
    stats = effective_stats(entry, REP)
    guardias = catalogue().profile(REP, "Sección de Guardias de Asalto").stats
    assert fa_p(stats) == fa_p(guardias) == ((8, 4, 1), (2, 2, 1))


def test_M36_III_upgrade_on_a_listed_level_adds_only_the_difference():
    # Línea has LMG(1) (5/4/2); one more LMG makes LMG(2): +1 FAC only.
    entry = ArmyEntry("Sección Infantería de Línea", ("Ametralladora Ligera",))
    assert fa_p(effective_stats(entry, NAC)) == ((6, 4, 2), (2, 2, 1))


@pytest.mark.parametrize(
    ("faction", "quality", "level"),
    [
        (NAC, Quality.VERDES, 3),
        (NAC, Quality.REGULARES, 2),
        (NAC, Quality.VETERANOS, 1),
        (NAC, Quality.ELITE, 2),
        (REP, Quality.VERDES, 3),  # Líder(3) + 1 capped at MaxLevel 3
    ],
)
def test_M36_III_lider_quality_modifiers(faction, quality, level):
    assert effective_rules(ArmyEntry("Oficial"), faction, quality)["Líder"] == level


def test_M36_III_veterania_raises_one_quality_level():
    entry = ArmyEntry("Sección Infantería de Línea", ("Veteranos",))
    assert effective_quality(entry, NAC, Quality.REGULARES) is Quality.VETERANOS
    assert entry_cost(entry, NAC, Quality.REGULARES).total == 75 + 5


# --- validation -----------------------------------------------------------------------------


def small_nac(*entries, role=Role.DEFENSOR, quality=Quality.REGULARES):
    return ArmyList(NAC, role, quality, tuple(entries), GameSize.PEQUENA)


def test_M36_II_validation_reports_every_violation_and_points_left():
    army = small_nac(
        ArmyEntry("Sección Milicia de la Falange", ("Granadas de Mano",)),  # already has it
        ArmyEntry("Camión", ("Cascos",)),  # not infantry
        ArmyEntry("Mortero Valero M-32 50mm", ("Munición",)),  # legal
        ArmyEntry("Oficial", ("Munición",)),  # does not bombard
        ArmyEntry("Sección Cazadores de Montaña", ("Ametralladora Ligera",) * 2),  # LMG(4)
        ArmyEntry("Panzer IV"),  # not in the list
        ArmyEntry("Sección de la Legión", quality=Quality.ELITE),  # per-unit quality
        ArmyEntry("Sección de Reconocimiento", ("Bombas de Nada",)),
    )
    result = validate_army(army)
    assert [v.entry for v in result.violations] == [0, 1, 3, 4, 5, 6, 7]
    assert all(v.rule.startswith("M36-II") for v in result.violations)
    # 75 + 15 + 60 + 70 + 120 + Legión 105 × 1.45 = 152.25 → 152 + Reconocimiento 80
    assert result.entry_costs == (75, 15, 60, 70, 120, None, 152, 80)
    assert result.spent == 572 and result.points_left == 800 - 572 and not result.valid


@pytest.mark.parametrize(("sections", "left", "valid"), [(8, 0, True), (9, -100, False)])
def test_M36_II_budget_violation(sections, left, valid):
    army = small_nac(*[ArmyEntry("Sección Cazadores de Montaña")] * sections)
    result = validate_army(army)
    assert (result.points_left, result.valid) == (left, valid)
    assert valid or result.violations[-1].rule == "M36-II Puntos base por tamaño de partida"


def test_M36_II_attacker_budget_is_larger():
    army = small_nac(*[ArmyEntry("Sección Cazadores de Montaña")] * 9, role=Role.ATACANTE)
    assert validate_army(army).points_left == 1200 - 900


def test_M36_II_veteranos_cannot_raise_elite():
    army = small_nac(ArmyEntry("Sección de Regulares", ("Veteranos",)), quality=Quality.ELITE)
    assert "Elite unit" in str(validate_army(army).violations[0].message)


def test_M36_XIV_1_fog_of_war_numbers_at_most_15_units():
    army = small_nac(*[ArmyEntry("Francotirador")] * 16)
    assert validate_army(army).valid  # 16 × 30 = 480 ≤ 800; fog of war is optional
    limited = validate_army(army, ArmyOptions(fog_of_war_token_limit=True))
    assert [v.rule for v in limited.violations] == ["M36-XIV.1"]


def test_M36_II_legal_options_for_the_builder():
    army = small_nac(ArmyEntry("Sección Cazadores de Montaña", ("Ametralladora Ligera",)))
    options = legal_options(army, 0)
    assert options.points_left == 800 - 110
    ups = {u.name: u for u in options.upgrades}
    assert not ups["Ametralladora Ligera"].legal  # LMG(3) already
    assert ups["Subfusiles"].legal and ups["Subfusiles"].cost == 10
    assert not ups["Munición"].legal and not ups["Tirador Selecto"].legal
    units = {u.name: u for u in options.units}
    assert units["8,8 cm Flak 18"].cost == 160 and units["8,8 cm Flak 18"].affordable
    assert len(units) == len(catalogue().faction_profiles(NAC))
    with pytest.raises(RuleError):
        legal_options(army, 3)


def test_M36_III_cavar_keeps_the_best_level():
    army = ArmyList(
        REP,
        Role.DEFENSOR,
        Quality.REGULARES,
        (ArmyEntry("Sección del Quinto Regimiento (bien equipada)"),),  # Cavar(3)
        GameSize.PEQUENA,
    )
    ups = {u.name: u for u in legal_options(army, 0).upgrades}
    assert ups["Palas reglamentarias"].legal and not ups["Palas improvisadas"].legal
    entry = ArmyEntry("Sección del Quinto Regimiento (bien equipada)", ("Palas reglamentarias",))
    assert effective_rules(entry, REP, Quality.REGULARES)["Cavar"] == 2
    assert effective_rules(entry, REP, Quality.VERDES)["Cavar"] == 3


def test_M36_II_army_list_round_trips():
    army = small_nac(ArmyEntry("Oficial", ("Tirador Selecto",), Quality.VERDES, "HQ"))
    assert ArmyList.from_dict(army.to_dict()) == army
    result = validate_army(army)
    again = type(result).from_dict(result.to_dict())
    assert again == result and again.explanation.as_list() == result.explanation.as_list()

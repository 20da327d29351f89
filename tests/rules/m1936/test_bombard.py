"""Indirect fire (M36-VII): dispersion, deviation odds, templates, bombarding a unit (T15–T18,
T20), side effects and planning with Munición, Disparo Rápido and Observar."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import EnteredDice, SeededDice
from rules.errors import RuleError
from rules.m1936.bombard import (
    DISPERSION,
    TEMPLATES,
    Battery,
    BombardOptions,
    BombardResult,
    BombardTarget,
    Template,
    allowed_templates,
    bombard_unit,
    bombardment_side_effects,
    deviation_odds,
    dispersion_dice,
    dispersion_rule,
    on_table_distance_class,
    plan_bombardment,
    roll_deviation,
)
from rules.m1936.data import Faction, catalogue
from rules.m1936.fog import Token
from rules.m1936.weather import Weather

# VII.3 as printed in the seed: Plantilla, Limite de Bajas, Daño Total run together.
SEED_TEMPLATE_ROWS = """pequeña11
pequeña24
mediana16
mediana28
pequeña310
grande112
pequeña414
mediana316
grande218
mediana422
grande326
grande430"""


def piece(name):
    return catalogue().profile(Faction.NACIONALES, name)


def test_M36_VII_3_templates_match_the_seed_rows():
    rows = []
    for line in SEED_TEMPLATE_ROWS.splitlines():
        size = line.rstrip("0123456789")
        digits = line[len(size) :]
        rows.append(Template(size, int(digits[0]), int(digits[1:])))
    assert tuple(rows) == TEMPLATES


def test_T15_M36_VII_3_two_schneider_75():
    d = piece("Schneider 75mm 1900").stats["d"]
    assert d == 3
    allowed = allowed_templates(2 * d)
    assert [(t.size, t.casualty_limit, t.total_damage) for t in allowed] == [
        ("pequeña", 1, 1),
        ("pequeña", 2, 4),
        ("mediana", 1, 6),
    ]


def test_T15_M36_VII_3_four_vickers_105_22():
    d = piece("Vickers 105/22 105mm").stats["d"]
    assert d == 5
    allowed = allowed_templates(4 * d)
    assert Template("grande", 2, 18) in allowed
    assert Template("mediana", 3, 16) in allowed
    assert Template("mediana", 4, 22) not in allowed
    assert len(allowed) == 9


def test_M36_VII_3_no_template_below_1():
    assert allowed_templates(0) == []
    assert allowed_templates(-2) == []


@given(st.integers(-5, 40), st.integers(-5, 40))
def test_M36_VII_3_allowed_templates_monotonic(a, b):
    low, high = sorted((a, b))
    assert set(allowed_templates(low)) <= set(allowed_templates(high))
    for t in TEMPLATES:
        assert (t in allowed_templates(high)) is (t.total_damage <= high)


def test_T16_M36_VII_5_section_in_open_prone():
    r = bombard_unit(
        fa=4, p=3, performance=0, template_limit=2, target=BombardTarget("s", prone=True)
    )
    assert (r.fa_eff, r.cover_penetrated, r.suppression, r.casualties) == (3, None, 4, 1)


def test_T17_M36_VII_5_casa_tiro_parabolico():
    target = BombardTarget("s", prone=True, cover="Casa")
    r = bombard_unit(fa=4, p=3, performance=-1, template_limit=2, target=target, parabolic=True)
    assert (r.fa_eff, r.cover_penetrated, r.suppression, r.casualties) == (1, False, 2, 0)


def test_T17_M36_III_casco_in_cover_not_penetrated():
    target = BombardTarget("s", prone=True, cover="Casa", casco=True)
    r = bombard_unit(fa=4, p=3, performance=-1, template_limit=2, target=target, parabolic=True)
    assert (r.fa_eff, r.suppression, r.casualties) == (0, 1, 0)


def test_M36_III_casco_no_effect_when_cover_penetrated():
    target = BombardTarget("s", cover="Trinchera", casco=True)
    r = bombard_unit(fa=4, p=7, performance=1, template_limit=4, target=target)
    assert r.cover_penetrated is True
    assert (r.fa_eff, r.suppression, r.casualties) == (5, 6, 2)


def test_M36_VII_5_casa_without_parabolic_keeps_cover_3():
    target = BombardTarget("s", cover="Casa")
    r = bombard_unit(fa=4, p=2, performance=0, template_limit=4, target=target)
    assert (r.cover_penetrated, r.fa_eff) == (False, 1)


@pytest.mark.parametrize(
    ("cover", "parabolic", "high_angle", "fa_eff"),
    [
        ("Colina nivel 2", False, True, 3),  # hill cover 2 → 1
        ("Colina nivel 2", False, False, 2),
        ("Trinchera", False, True, 2),  # Alto Ángulo only cuts hills
        ("Trinchera", True, False, 3),
        ("Muro", True, False, 3),
        ("Bosque", True, False, 2),  # woods are not listed
        ("Búnker", True, False, 1),
    ],
)
def test_M36_III_parabolic_and_high_angle_cover(cover, parabolic, high_angle, fa_eff):
    r = bombard_unit(
        fa=4,
        p=0,
        performance=0,
        template_limit=4,
        target=BombardTarget("s", cover=cover),
        parabolic=parabolic,
        high_angle=high_angle,
    )
    assert r.cover_penetrated is False
    assert r.fa_eff == fa_eff


def test_M36_III_parabolic_emplacements_option():
    r = bombard_unit(
        fa=4,
        p=0,
        performance=0,
        template_limit=4,
        target=BombardTarget("s", cover="Búnker"),
        parabolic=True,
        options=BombardOptions(parabolic_emplacements=True),
    )
    assert r.fa_eff == 3


def test_M36_VII_5_small_target_counts_once_and_vehicle_minus_1():
    both = BombardTarget("s", small_target=True, section_half_outside=True)
    assert bombard_unit(fa=5, p=0, performance=0, template_limit=4, target=both).fa_eff == 4
    vehicle = BombardTarget("v", vehicle_or_individual=True, prone=True, small_target=True)
    assert bombard_unit(fa=5, p=0, performance=0, template_limit=4, target=vehicle).fa_eff == 2


def test_M36_VII_5_casualties_capped_by_template_limit():
    r = bombard_unit(fa=8, p=0, performance=2, template_limit=2, target=BombardTarget("s"))
    assert (r.fa_eff, r.suppression, r.casualties) == (10, 11, 2)
    r = bombard_unit(
        fa=8, p=0, performance=2, template_limit=2, target=BombardTarget("s"), casualties_so_far=1
    )
    assert r.casualties == 1


@pytest.mark.parametrize(("zero", "fa_eff", "suppression"), [(True, 0, 1), (False, -3, 0)])
def test_M36_VII_5_negative_fa_option(zero, fa_eff, suppression):
    r = bombard_unit(
        fa=1,
        p=0,
        performance=-3,
        template_limit=1,
        target=BombardTarget("s", prone=True),
        options=BombardOptions(negative_fa_is_zero=zero),
    )
    assert (r.fa_eff, r.suppression, r.casualties) == (fa_eff, suppression, 0)


@pytest.mark.parametrize(("fa", "removed"), [(2, True), (1, False)])
def test_T20_M36_VII_6_wire_removed_by_one_casualty(fa, removed):
    r = bombard_unit(
        fa=fa, p=0, performance=0, template_limit=1, target=BombardTarget("wire", alambrada=True)
    )
    assert r.wire_removed is removed
    assert r.casualties == (1 if removed else 0)


def test_M36_VII_5_refuses_bad_inputs():
    with pytest.raises(RuleError):
        bombard_unit(fa=4, p=0, performance=0, template_limit=0, target=BombardTarget("s"))
    with pytest.raises(RuleError):
        bombard_unit(fa=4, p=0, performance=1.5, template_limit=1, target=BombardTarget("s"))
    with pytest.raises(RuleError):
        bombard_unit(
            fa=4, p=0, performance=0, template_limit=1, target=BombardTarget("s", cover="Castillo")
        )


def test_M36_VII_5_result_round_trips():
    r = bombard_unit(
        fa=4, p=3, performance=-1, template_limit=2, target=BombardTarget("s", cover="Casa")
    )
    again = BombardResult.from_dict(r.to_dict())
    assert again == r
    assert [s.rule for s in again.explanation] == [s.rule for s in r.explanation]


@pytest.mark.parametrize(
    ("rule", "distance", "dice"),
    [
        ("Dispersión Variable Limitada", "short", 2),
        ("Dispersión Variable Limitada", "medium", 3),
        ("Dispersión Variable Limitada", "long", 4),
        ("Dispersión Variable", 0, 2),
        ("Dispersión Variable", 1, 4),
        ("Dispersión Variable", "short", 2),
        ("Dispersión Variable", "medium", 4),
        ("Dispersión Constante", 0, 3),
        ("Dispersión Constante", 3, 3),
        ("Dispersión Constante", "medium", 3),
        ("Dispersión Reducida", 3, 3),
        ("Dispersión Reducida", 4, 4),
        ("Dispersión Máxima", 1, 4),
        ("Dispersión Máxima", 2, 5),
        ("Dispersión Baja", 1, 4),
        ("Dispersión Baja", 2, 2),
        ("Dispersión Baja", 4, 2),
        ("Variable", 1, 4),
    ],
)
def test_M36_III_dispersion_rows(rule, distance, dice):
    assert dispersion_dice(rule, distance_class=distance) == dice


@pytest.mark.parametrize(
    ("rule", "distance"),
    [
        ("Dispersión Variable", 2),
        ("Dispersión Variable", "long"),
        ("Dispersión Constante", 4),
        ("Dispersión Reducida", 5),
        ("Dispersión Máxima", 3),
        ("Dispersión Máxima", "short"),
        ("Dispersión Baja", 5),
        ("Dispersión Variable Limitada", 1),
        ("Dispersión Variable", "near"),
        ("Dispersión Variable", True),
        ("Dispersión Perfecta", 0),
    ],
)
def test_M36_III_dispersion_out_of_reach(rule, distance):
    with pytest.raises(RuleError):
        dispersion_dice(rule, distance_class=distance)


def test_T18_M36_VII_2_variable_on_table():
    assert on_table_distance_class("Dispersión Variable", 60) == "short"
    assert dispersion_dice("Dispersión Variable", distance_class="short") == 2
    assert on_table_distance_class("Dispersión Variable", 100) == "medium"
    assert dispersion_dice("Dispersión Variable", distance_class="medium") == 4
    assert dispersion_dice(None, distance_class="medium") == 4
    assert on_table_distance_class(None, 60) == "short"


def test_T18_M36_VII_2_exactly_80cm():
    assert on_table_distance_class("Dispersión Variable", 80) == "short"
    opts = BombardOptions(variable_80cm_is_medium=True)
    assert on_table_distance_class("Dispersión Variable", 80, opts) == "medium"
    assert on_table_distance_class("Dispersión Constante", 150) == "short"
    with pytest.raises(RuleError):
        on_table_distance_class("Dispersión Máxima", 30)


def test_M36_VII_2_dispersion_rule_of_a_profile():
    assert dispersion_rule(piece("Schneider 155/17 155mm").rules) == "Dispersión Reducida"
    assert dispersion_rule(("HE", "Bombardeo(3)")) == "Dispersión Variable"
    assert set(DISPERSION) >= {dispersion_rule(p.rules) for p in catalogue().profiles}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_M36_VII_2_deviation_odds_brute_force(n):
    counts = Counter(sum(f) for f in itertools.product(range(1, 7), repeat=n))
    expected = {v: Fraction(c, 6**n) for v, c in counts.items()}
    assert dict(deviation_odds(n).probs) == expected


def test_M36_VII_2_roll_deviation_entered_and_seeded():
    dev = roll_deviation("Dispersión Variable", distance_class=1, dice=EnteredDice([(1, 2, 3, 4)]))
    assert (dev.dice, dev.distance_cm) == (4, 10)
    assert dev.explanation.rolls[0].kind == "4d6"
    seeded = roll_deviation("Dispersión Máxima", distance_class=2, dice=SeededDice(seed=3))
    assert seeded.dice == 5
    assert 5 <= seeded.distance_cm <= 30


def test_M36_XIV_7_XIV_5_side_effects():
    tokens = (Token(3, "sec-1", "C4"), Token(7, None, "C4"), Token(9, "sec-2", "D5"))
    fx = bombardment_side_effects(weather=Weather.LLUVIA, squares={"C4"}, enemy_tokens=tokens)
    assert (fx.smoke_disperse, fx.smoke_dissipate) == (0, 1)
    assert fx.revealed == (3,)
    assert fx.decoys_removed == (7,)
    assert [t.number for t in fx.tokens] == [3, 9]
    assert fx.tokens[0].revealed and not fx.tokens[1].revealed
    assert len(fx.notes) == 3
    sunny = bombardment_side_effects()
    assert (sunny.smoke_disperse, sunny.smoke_dissipate) == (1, 2)


def battery(name="75", pieces=2, d=3, ammo=2, rules=frozenset()):
    return Battery(name, pieces, d, 4, 5, ammo, frozenset(rules))


def test_M36_VII_3_plan_totals_damage_and_spends_ammo():
    plan = plan_bombardment([battery(), battery("mortar", 1, 3, None)])
    assert plan.total_damage == 9
    assert plan.templates[-1] == Template("mediana", 2, 8)
    assert [b.ammo_left for b in plan.batteries] == [1, None]
    assert plan.second_bombardment == ()


def test_M36_III_municion_exhausted():
    with pytest.raises(RuleError):
        plan_bombardment([battery(ammo=0)])


def test_M36_III_disparo_rapido_two_then_ends():
    rockets = battery("rockets", ammo=3, rules={"Disparo Rápido"})
    first = plan_bombardment([rockets])
    assert first.second_bombardment == ("rockets",)
    second = plan_bombardment(first.batteries, second=True)
    assert second.bombardment_ends == ("rockets",)
    assert second.batteries[0].ammo_left == 1
    with pytest.raises(RuleError):
        plan_bombardment([rockets, battery()], second=True)


def test_M36_III_disparo_rapido_last_round_ends():
    plan = plan_bombardment([battery("rockets", ammo=1, rules={"Disparo Rápido"})])
    assert plan.second_bombardment == ()
    assert plan.bombardment_ends == ("rockets",)


def test_M36_III_observar_hidden_and_approach_salvo():
    with pytest.raises(RuleError):
        plan_bombardment([battery()], hidden=True)
    hidden = plan_bombardment([battery()], hidden=True, observer_rules={"Observar(2)"})
    assert hidden.actions_remaining is None
    salvo = plan_bombardment(
        [battery()], approach_salvo=True, observer_rules={"Observar(2)"}, actions_remaining=3
    )
    assert salvo.actions_remaining == 2
    plain = plan_bombardment([battery()], approach_salvo=True, actions_remaining=3)
    assert plain.actions_remaining == 3


def test_M36_VII_1_commander_must_see_and_damage_must_reach_a_template():
    with pytest.raises(RuleError):
        plan_bombardment([battery()], commander_sees_aim_point=False)
    with pytest.raises(RuleError):
        plan_bombardment([battery(d=0)])
    with pytest.raises(RuleError):
        plan_bombardment([])

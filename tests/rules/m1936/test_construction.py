"""Construction points and fortifications (M36-VIII): T21 pool and purchases, T19 structure."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.m1936.construction import (
    COVER_TYPES,
    ConstructionOptions,
    ConstructionPool,
    Fortification,
    buy_fortification,
    construction_pool,
    damage_fortification,
)

LINEA_BE = ["LMG(1)", "Casco", "Granadas de Mano", "Palas reglamentarias", "Cavar(2)"]
ZAPADORES = ["Palas reglamentarias", "Herramientas de Excavación", "Explosivos", "Cavar(2)"]
T21_UNITS = {
    "Línea 1": LINEA_BE,
    "Línea 2": LINEA_BE,
    "Zapadores": ZAPADORES,
    "Oficial": ["Líder(2)"],
}


@pytest.mark.parametrize(
    ("options", "points", "tools"),
    [
        (ConstructionOptions(), 4 + 4 + 16 + 2 * 4, True),
        (ConstructionOptions(shovels_add_to_tools=True), 4 + 4 + 16 + 4 + 2 * 4, True),
        (ConstructionOptions(excavation_tools_count=False), 4 + 4 + 4 + 2 * 4, False),
    ],
    ids=["T21-32", "T21-36", "no-tools"],
)
def test_M36_VIII_5_T21_construction_pool(options, points, tools):
    pool = construction_pool(T21_UNITS, waiting_days=2, options=options)
    assert pool.balance == points and pool.has_construction_tools is tools
    assert all(e.amount > 0 and e.rule.startswith("M36-VIII.5") for e in pool.entries)


def test_M36_VIII_5_cavar_from_a_bought_upgrade_counts_as_shovels():
    assert construction_pool({"Milicia": ["Fanático", "Cavar(3)"]}).balance == 4


def test_M36_VIII_5_T21_purchases_spend_the_pool_to_zero():
    pool = construction_pool(T21_UNITS, waiting_days=2)
    for kind, count in [("Búnker", 1), ("Trinchera", 2), ("Pozo de tirador", 2), ("Alambrada", 8)]:
        pool = buy_fortification(pool, kind, count)
    assert pool.balance == 0 and len(pool.fortifications) == 13
    assert [e.amount for e in pool.entries][-4:] == [-12, -8, -4, -8]
    with pytest.raises(RuleError):
        buy_fortification(pool, "Alambrada")
    assert pool.balance == 0
    assert ConstructionPool.from_dict(pool.to_dict()) == pool


@pytest.mark.parametrize("kind", ["Trinchera reforzada", "Nido", "Blocao", "Casamata", "Búnker"])
def test_M36_VIII_5_4_some_fortifications_need_construction_tools(kind):
    pool = construction_pool({"Línea": LINEA_BE}, waiting_days=10)
    with pytest.raises(RuleError) as err:
        buy_fortification(pool, kind)
    assert err.value.rule == "M36-VIII.5.4"


@pytest.mark.parametrize("kind", ["Casa", "Escombros", "Bosque", "Colina nivel 2"])
def test_M36_VIII_5_4_only_fortifications_with_a_cost_are_built(kind):
    with pytest.raises(RuleError):
        buy_fortification(construction_pool(T21_UNITS, 5), kind)


@pytest.mark.parametrize(
    ("kind", "armour", "cover", "structure", "cost"),
    [
        ("Escombros", 6, 1, None, None),
        ("Casa", 3, 3, 4, None),
        ("Pozo de tirador", 7, 2, 4, 2),
        ("Trinchera", 8, 2, 6, 4),
        ("Trinchera reforzada", 9, 2, 7, 6),
        ("Nido", 9, 3, 6, 3),
        ("Blocao", 9, 3, 7, 8),
        ("Casamata", 15, 3, 8, 8),
        ("Búnker", 15, 3, 8, 12),
        ("Colina nivel 0-1", 30, 2, None, None),
        ("Alambrada", 3, 1, 1, 1),
    ],
)
def test_M36_VIII_1_cover_table(kind, armour, cover, structure, cost):
    c = COVER_TYPES[kind]
    assert (c.armour, c.cover, c.structure, c.cost) == (armour, cover, structure, cost)


def test_M36_VIII_3_T19_he_damage_wears_a_casa_down_to_rubble():
    casa = Fortification.of("Casa")
    first = damage_fortification(casa, 5, he=True)  # 5 ≥ 4
    assert first.fortification.structure == 3
    second = damage_fortification(first.fortification, 3, he=True)  # 3 ≥ 3
    assert second.fortification.structure == 2
    assert damage_fortification(second.fortification, 1, he=True).structure_lost == 0
    assert damage_fortification(second.fortification, 9, he=False).structure_lost == 0
    last = damage_fortification(Fortification("Casa", 1, 4), 1, he=True)
    assert last.destroyed and last.fortification.kind == "Escombros"
    assert COVER_TYPES[last.fortification.kind].armour == 6


@given(st.lists(st.tuples(st.booleans(), st.integers(1, 20)), max_size=40))
def test_M36_VIII_5_pool_never_goes_negative(steps):
    pool = construction_pool({}, waiting_days=1)
    for gain, amount in steps:
        try:
            pool = pool.add(amount if gain else -amount, "step")
        except RuleError:
            assert not gain and amount > pool.balance
        assert pool.balance >= 0
        assert pool.balance == sum(e.amount for e in pool.entries)

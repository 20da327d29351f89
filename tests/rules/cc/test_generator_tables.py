"""RS.2 and RS.3 tables as printed in the seed, and RS.9 Fortification OBs."""

import pytest

from rules.cc.common import Nation, Quality
from rules.cc.generator.battlefield import quality_column
from rules.cc.generator.tables import (
    ALLIES_VS_GERMANY,
    ALLIES_VS_ITALY,
    AXIS_NATIONALITY,
    AXIS_YEAR,
    FORTIFICATIONS,
    QUALITY,
)
from rules.errors import RuleError
from rules.explain import Explanation

E, L, G = Quality.ELITE, Quality.LINE, Quality.GREEN
GER, ITA, USA, GB, FR, RU = list(Nation)


@pytest.mark.parametrize(("roll", "nation"), [(2, GER), (9, GER), (10, ITA), (12, ITA)])
def test_rs_2_1_axis_nationality(roll, nation):
    assert AXIS_NATIONALITY.lookup_range(roll) is nation


@pytest.mark.parametrize(
    ("roll", "germany", "italy"),
    [
        (2, 1943, 1942),
        (4, 1940, 1939),
        (5, 1945, 1944),
        (7, 1942, 1940),
        (10, 1944, 1941),
        (11, 1944, 1942),
        (12, 1944, 1942),
    ],
)
def test_rs_2_1_year(roll, germany, italy):
    assert AXIS_YEAR[GER].lookup_range(roll) == germany
    assert AXIS_YEAR[ITA].lookup_range(roll) == italy


@pytest.mark.parametrize(
    ("year", "roll", "nation"),
    [
        ("1939", 12, FR),
        ("1940", 9, GB),
        ("1941", 5, RU),
        ("1942", 2, RU),
        ("1943", 2, FR),
        ("1943", 3, USA),
        ("1943", 9, RU),
        ("1944", 3, RU),
        ("1944", 6, USA),
        ("1945", 10, GB),
    ],
)
def test_rs_2_2_allied_nationality_vs_germany(year, roll, nation):
    assert ALLIES_VS_GERMANY[year].lookup_range(roll) is nation


@pytest.mark.parametrize(
    ("year", "roll", "nation"),
    [
        ("1939", 2, FR),
        ("1939", 3, RU),
        ("1940", 6, FR),
        ("1940", 7, GB),
        ("1941", 5, GB),
        ("1941", 9, RU),
        ("1942", 7, RU),
        ("1943", 8, USA),
        ("1944", 2, RU),
    ],
)
def test_rs_2_3_allied_nationality_vs_italy(year, roll, nation):
    assert ALLIES_VS_ITALY[year].lookup_range(roll) is nation


@pytest.mark.parametrize(
    ("nation", "year", "opponent", "roll", "quality"),
    [
        (GER, 1941, RU, 6, E),
        (GER, 1942, RU, 12, G),
        (GER, 1943, USA, 6, L),
        (GER, 1944, USA, 11, G),
        (GER, 1945, RU, 5, L),
        (GER, 1945, RU, 9, G),
        (ITA, 1942, GB, 5, L),
        (ITA, 1942, GB, 9, G),
        (ITA, 1940, RU, 12, E),
        (ITA, 1941, RU, 6, L),
        (ITA, 1944, RU, 12, G),
        (USA, 1943, GER, 4, L),
        (USA, 1944, GER, 4, E),
        (USA, 1945, GER, 11, L),
        (GB, 1941, GER, 6, E),
        (GB, 1943, GER, 7, E),
        (GB, 1944, GER, 8, E),
        (GB, 1945, GER, 5, L),
        (FR, 1939, GER, 12, L),
        (FR, 1940, GER, 2, E),
        (FR, 1941, ITA, 8, G),
        (FR, 1943, GER, 12, E),
        (RU, 1939, ITA, 4, E),
        (RU, 1941, GER, 4, L),
        (RU, 1942, GER, 10, G),
        (RU, 1943, GER, 5, E),
        (RU, 1945, GER, 6, E),
    ],
)
def test_rs_3_troop_quality_tables(nation, year, opponent, roll, quality):
    column = quality_column(nation, year, opponent)
    assert QUALITY[nation][column].lookup_range(roll) is quality


def test_rs_3_german_1940_reads_the_1941_column():
    assert quality_column(GER, 1940, FR) == "1941"


def test_rs_3_british_1940_reads_the_first_printed_column():
    # printed "1941 | 1941-42": the first column is read as 1940, 1941 goes to "1941-42"
    assert quality_column(GB, 1940, GER) == "1941"
    assert quality_column(GB, 1941, GER) == "1941-42"
    assert QUALITY[GB]["1941"].lookup_range(10) is G


@pytest.mark.parametrize(
    ("nation", "year", "opponent"), [(FR, 1942, GER), (USA, 1942, GER), (ITA, 1944, GB)]
)
def test_rs_3_no_column_is_a_rule_error(nation, year, opponent):
    with pytest.raises(RuleError) as err:
        quality_column(nation, year, opponent)
    assert err.value.rule.startswith("RS.3")


def _generated():
    """Every (Axis, year, Allied nation) RS.2 can produce."""
    for axis in (GER, ITA):
        table = ALLIES_VS_GERMANY if axis is GER else ALLIES_VS_ITALY
        for year in set(AXIS_YEAR[axis].rows.values()):
            for allied in set(table[str(year)].rows.values()):
                yield axis, year, allied


@pytest.mark.parametrize(("axis", "year", "allied"), sorted(_generated()))
def test_rs_3_every_rs_2_outcome_has_quality_columns(axis, year, allied):
    for roll in range(2, 13):
        assert QUALITY[axis][quality_column(axis, year, allied)].lookup_range(roll) in Quality
        assert QUALITY[allied][quality_column(allied, year, axis)].lookup_range(roll) in Quality


def test_rs_2_2_the_1939_column_is_never_reached_by_germany():
    assert 1939 not in AXIS_YEAR[GER].rows.values()


@pytest.mark.parametrize(
    ("name", "cost", "strength"),
    [
        ("Atrincheramientos de Urgencia", 1, None),
        ("Atrincheramientos", 2, None),
        ("Atrincheramientos Organizados", 3, None),
        ("Línea de Trincheras de Urgencia", 2, None),
        ("Línea de Trincheras", 4, None),
        ("Línea de Trincheras Organizada", 6, None),
        ("Alambre de Espino", 3, None),
        ("Punto Fuerte", 2, None),
        ("Complejo de Búnkeres", 10, 8),
        ("Campo de Minas de Urgencia", 6, 6),
        ("Campo de Minas", 9, 7),
        ("Campo de Minas de Organizados", 12, 8),
    ],
)
def test_rs_9_fortification_ob_costs(name, cost, strength):
    exp = Explanation()
    fort = FORTIFICATIONS.lookup(name, exp)
    assert (fort.cost, fort.mine_strength) == (cost, strength)
    assert exp.steps[0].rule == "RS.9"

"""Bogging down (M36-IV.7) with the entered performance roll (T32) and weather risk (XV.2)."""

import pytest

from rules.errors import RuleError
from rules.m1936.bogging import Ground, bog_check, bog_risk, unbog_check
from rules.m1936.data import Faction, catalogue
from rules.m1936.weather import Weather


def unit(name, faction=Faction.REPUBLICANOS):
    return catalogue().profile(faction, name)


@pytest.mark.parametrize(
    ("r", "bogged"), [(-2, True), (-3, True), (-1, False), (0, False), (2, False)]
)
def test_M36_IV_7_T32_bog_check(r, bogged):
    assert bog_check(r).bogged is bogged


@pytest.mark.parametrize(("r", "still_bogged"), [(1, False), (3, False), (0, True), (-2, True)])
def test_M36_IV_7_T32_unbogging_needs_plus_1(r, still_bogged):
    assert unbog_check(r, tractor_in_contact=True).bogged is still_bogged


def test_M36_IV_7_rescue_needs_a_tractor_in_contact():
    with pytest.raises(RuleError):
        unbog_check(2, tractor_in_contact=False)


@pytest.mark.parametrize("r", [1.0, "2", None, True])
def test_M36_VI_2_3_performance_result_must_be_an_int(r):
    with pytest.raises(RuleError):
        bog_check(r)


@pytest.mark.parametrize(
    ("name", "ground", "weather", "risk"),
    [
        ("T-26 B", Ground.WOODS, Weather.SOLEADO, True),
        ("T-26 B", Ground.OPEN, Weather.SOLEADO, False),
        ("Trubia Naval", Ground.OPEN, Weather.SOLEADO, True),  # Poco Fiable
        ("Trubia Naval", Ground.ROAD, Weather.SOLEADO, False),
        ("Camión", Ground.OPEN, Weather.NEVADA, True),
        ("Camión", Ground.ROAD, Weather.VENTISCA, False),
        ("BA-6", Ground.ROAD, Weather.TEMPESTAD, True),
        ("Camión", Ground.OPEN, Weather.TEMPESTAD, False),
        ("45mm M-32 (19-K)", Ground.WOODS, Weather.SOLEADO, True),  # Parcialmente Transportable
        ("Sección Milicia CNT", Ground.WOODS, Weather.NEVADA, False),
    ],
)
def test_M36_IV_7_XV_2_bog_risk(name, ground, weather, risk):
    assert bog_risk(unit(name), ground, weather).at_risk is risk

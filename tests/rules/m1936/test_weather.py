"""Weather (M36-XV): determination (T27), change every 10 turns (T28), effects, smoke (T29)."""

import pytest

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.m1936.weather import (
    Season,
    SmokeOrigin,
    Weather,
    WeatherChange,
    check_weather_change,
    determine_weather,
    smoke_timing,
    weather_effects,
)


@pytest.mark.parametrize(
    ("season", "roll", "weather"),
    [
        (Season.VERANO, 9, Weather.VIENTO),
        (Season.INVIERNO, 12, Weather.VENTISCA),
        (Season.OTONO, 8, Weather.LLUVIA),
        (Season.VERANO, 2, Weather.NOCHE),
        (Season.OTONO, 2, Weather.NOCHE),
        (Season.INVIERNO, 2, Weather.NOCHE),
        (Season.PRIMAVERA, 2, Weather.NOCHE),
        (Season.PRIMAVERA, 8, Weather.VIENTO),
        (Season.INVIERNO, 11, Weather.NEVADA),
        (Season.VERANO, 10, Weather.NUBLADO),
        (Season.OTONO, 5, Weather.VIENTO),
        (Season.PRIMAVERA, 3, Weather.SOLEADO),
    ],
)
def test_M36_XV_1_T27_weather_by_season(season, roll, weather):
    result = determine_weather(season, EnteredDice([roll]))
    assert result.weather is weather and result.roll == roll
    assert result.explanation.rolls[0].kind == "2d6"


@pytest.mark.parametrize(
    ("rolls", "changed", "weather"),
    [
        ([10, 7], True, Weather.SOLEADO),
        ([12, 12], True, Weather.VENDAVAL),
        ([9], False, Weather.LLUVIA),
    ],
)
def test_M36_XV_4_T28_weather_change_on_10_or_more(rolls, changed, weather):
    dice = EnteredDice(rolls)
    result = check_weather_change(10, Season.VERANO, Weather.LLUVIA, dice)
    assert (result.changed, result.weather) == (changed, weather) and dice.remaining == 0
    assert WeatherChange.from_dict(result.to_dict()) == result


@pytest.mark.parametrize("turn", [0, 7, 15, -10, True])
def test_M36_XV_4_change_only_every_10_turns(turn):
    with pytest.raises(RuleError):
        check_weather_change(turn, Season.VERANO, Weather.SOLEADO, EnteredDice([10]))


@pytest.mark.parametrize(
    ("weather", "drift", "smoke", "fires", "visibility", "air", "bog"),
    [
        (Weather.VENDAVAL, 10, -2, None, "normal", 2, "none"),
        (Weather.VIENTO, 5, 0, None, "normal", 0, "none"),
        (Weather.NEVADA, 0, 0, None, "normal", 2, "vehicles_off_road"),
        (Weather.VENTISCA, 10, -2, None, "corta", None, "vehicles_off_road"),
        (Weather.TEMPESTAD, 10, -2, 2, "media", None, "armour_any_terrain"),
        (Weather.LLUVIA, 0, -1, 2, "normal", 2, "none"),
        (Weather.NOCHE, 0, 0, None, "corta", None, "none"),
        (Weather.SOLEADO, 0, 0, None, "normal", 0, "none"),
        (Weather.NUBLADO, 0, 0, None, "normal", 2, "none"),
    ],
)
def test_M36_XV_3_effects_table(weather, drift, smoke, fires, visibility, air, bog):
    fx = weather_effects(weather)
    assert (fx.smoke_drift_cm, fx.smoke_turns, fx.fires_out_turns) == (drift, smoke, fires)
    assert (fx.visibility, fx.air_delay, fx.bog, fx.air_support) == (
        visibility,
        air,
        bog,
        air is not None,
    )


@pytest.mark.parametrize(
    ("origin", "weather", "disperse", "dissipate"),
    [
        (SmokeOrigin.SMOKE_BOMBS, Weather.LLUVIA, 3, 4),
        (SmokeOrigin.SMOKE_BOMBS, Weather.VENDAVAL, 2, 3),
        (SmokeOrigin.SMOKE_BOMBS, Weather.SOLEADO, 4, 5),
        (SmokeOrigin.BOMBARDMENT, Weather.VENDAVAL, 0, 0),  # 1−2, 2−2: floored at 0
        (SmokeOrigin.BOMBARDMENT, Weather.LLUVIA, 0, 1),
        (SmokeOrigin.BURNING_VEHICLE, Weather.SOLEADO, None, None),  # permanent
        (SmokeOrigin.BURNING_VEHICLE, Weather.TEMPESTAD, None, 2),  # fire out in 2 turns
    ],
)
def test_M36_XIV_7_T29_smoke_timing_with_weather(origin, weather, disperse, dissipate):
    timing = smoke_timing(origin, weather)
    assert (timing.disperse, timing.dissipate) == (disperse, dissipate)

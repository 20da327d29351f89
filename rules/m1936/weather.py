"""Weather: determination on the season table, change every 10 turns, effects (Section XV),
and weather-adjusted smoke timings (XIV.7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.serial import Serializable
from rules.tables import Table

DETERMINE_RULE = "M36-XV.1"
EFFECTS_RULE = "M36-XV.3"
CHANGE_RULE = "M36-XV.4"
SMOKE_RULE = "M36-XIV.7"
CHANGE_EVERY = 10
CHANGE_AT_LEAST = 10


class Season(StrEnum):
    VERANO = "Verano"
    OTONO = "Otoño"
    INVIERNO = "Invierno"
    PRIMAVERA = "Primavera"


class Weather(StrEnum):
    VENDAVAL = "Vendaval"
    VIENTO = "Viento"
    NEVADA = "Nevada"
    VENTISCA = "Ventisca"
    TEMPESTAD = "Tempestad"
    LLUVIA = "Lluvia"
    NOCHE = "Noche"
    SOLEADO = "Soleado"
    NUBLADO = "Nublado"


W = Weather
_ROWS = {  # XV.1 as printed: 2d6 → (Verano, Otoño, Invierno, Primavera)
    12: (W.VENDAVAL, W.TEMPESTAD, W.VENTISCA, W.TEMPESTAD),
    11: (W.LLUVIA, W.TEMPESTAD, W.NEVADA, W.LLUVIA),
    10: (W.NUBLADO, W.LLUVIA, W.VENDAVAL, W.LLUVIA),
    9: (W.VIENTO, W.LLUVIA, W.TEMPESTAD, W.NUBLADO),
    8: (W.SOLEADO, W.LLUVIA, W.TEMPESTAD, W.VIENTO),
    7: (W.SOLEADO, W.NUBLADO, W.LLUVIA, W.SOLEADO),
    6: (W.SOLEADO, W.NUBLADO, W.NUBLADO, W.SOLEADO),
    5: (W.SOLEADO, W.VIENTO, W.VIENTO, W.SOLEADO),
    4: (W.SOLEADO, W.VIENTO, W.VIENTO, W.SOLEADO),
    3: (W.SOLEADO, W.SOLEADO, W.SOLEADO, W.SOLEADO),
    2: (W.NOCHE, W.NOCHE, W.NOCHE, W.NOCHE),
}
DETERMINATION: dict[Season, Table] = {
    season: Table(
        f"m36-weather-{season.name.lower()}",
        DETERMINE_RULE,
        f"Weather ({season})",
        {roll: row[column] for roll, row in _ROWS.items()},
    )
    for column, season in enumerate(Season)
}

Visibility = Literal["normal", "corta", "media"]
BogScope = Literal["none", "vehicles_off_road", "armour_any_terrain"]


@dataclass(frozen=True)
class WeatherEffects(Serializable):
    """One row of XV.3. `smoke_turns` adds to turns to disperse and to dissipate;
    `air_delay` is extra turns before aircraft arrive, None when no air support."""

    smoke_drift_cm: int
    smoke_turns: int
    fires_out_turns: int | None
    visibility: Visibility
    air_delay: int | None
    bog: BogScope
    wind_direction_roll: bool

    @property
    def air_support(self) -> bool:
        return self.air_delay is not None


EFFECTS = Table(
    "m36-weather-effects",
    EFFECTS_RULE,
    "Weather effects",
    {
        W.VENDAVAL: WeatherEffects(10, -2, None, "normal", 2, "none", True),
        W.VIENTO: WeatherEffects(5, 0, None, "normal", 0, "none", True),
        W.NEVADA: WeatherEffects(0, 0, None, "normal", 2, "vehicles_off_road", False),
        W.VENTISCA: WeatherEffects(10, -2, None, "corta", None, "vehicles_off_road", True),
        W.TEMPESTAD: WeatherEffects(10, -2, 2, "media", None, "armour_any_terrain", True),
        W.LLUVIA: WeatherEffects(0, -1, 2, "normal", 2, "none", False),
        W.NOCHE: WeatherEffects(0, 0, None, "corta", None, "none", False),
        W.SOLEADO: WeatherEffects(0, 0, None, "normal", 0, "none", False),
        W.NUBLADO: WeatherEffects(0, 0, None, "normal", 2, "none", False),
    },
    note="Ventisca: the summary table's 'No' air support is used (the text says delayed).",
)


def weather_effects(weather: Weather, explanation: Explanation | None = None) -> WeatherEffects:
    return EFFECTS.lookup(Weather(weather), explanation)


@dataclass(frozen=True)
class WeatherResult(Serializable):
    season: Season
    roll: int
    weather: Weather
    effects: WeatherEffects
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def determine_weather(season: Season, dice: DiceSource) -> WeatherResult:
    """Roll 2d6 on the season's column after creating the scenario (XV.1)."""
    exp = Explanation()
    season = Season(season)
    record = dice.roll(
        "2d6", purpose=msg("weather (%(season)s)", season=season), rule=DETERMINE_RULE
    )
    exp.add(
        DETERMINE_RULE,
        msg("2d6 for the weather in %(season)s", season=season),
        record.value,
        roll=record,
    )
    weather = DETERMINATION[season].lookup(record.value, exp)
    effects = weather_effects(weather, exp)
    if effects.wind_direction_roll:
        exp.add(
            DETERMINE_RULE,
            msg("%(weather)s: roll a scatter die for the wind direction", weather=weather),
        )
    return WeatherResult(season, record.value, weather, effects, exp)


@dataclass(frozen=True)
class WeatherChange(Serializable):
    turn: int
    roll: int
    changed: bool
    weather: Weather
    new_roll: WeatherResult | None = None
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def check_weather_change(
    turn: int, season: Season, current: Weather, dice: DiceSource
) -> WeatherChange:
    """Every 10 game turns roll 2d6: 10 or more re-rolls the weather on the season table."""
    if isinstance(turn, bool) or not isinstance(turn, int) or turn <= 0 or turn % CHANGE_EVERY:
        raise RuleError(
            msg(
                "the weather change roll is made every %(change_every)s turns, not on turn %(turn)s",
                change_every=CHANGE_EVERY,
                turn=str(turn),
            ),
            rule=CHANGE_RULE,
        )
    exp = Explanation()
    record = dice.roll(
        "2d6", purpose=msg("weather change, turn %(turn)s", turn=turn), rule=CHANGE_RULE
    )
    exp.add(
        CHANGE_RULE,
        msg("2d6 for a weather change on turn %(turn)s", turn=turn),
        record.value,
        roll=record,
    )
    changed = exp.add(
        CHANGE_RULE,
        msg("%(change_at_least)s+ changes the weather", change_at_least=CHANGE_AT_LEAST),
        record.value >= CHANGE_AT_LEAST,
    )
    if not changed:
        return WeatherChange(turn, record.value, False, Weather(current), None, exp)
    new = determine_weather(season, dice)
    exp.extend(new.explanation)
    return WeatherChange(turn, record.value, True, new.weather, new, exp)


class SmokeOrigin(StrEnum):
    BURNING_VEHICLE = "Vehículo ardiendo"
    BOMBARDMENT = "Bombardeo convencional"
    SMOKE_BOMBS = "Bombardeo de humo"


SMOKE = Table(
    "m36-smoke",
    SMOKE_RULE,
    "Smoke summary",
    {
        SmokeOrigin.BURNING_VEHICLE: None,
        SmokeOrigin.BOMBARDMENT: (1, 2),
        SmokeOrigin.SMOKE_BOMBS: (4, 5),
    },
)


@dataclass(frozen=True)
class SmokeTiming(Serializable):
    """Turns until the smoke disperses and dissipates (None: permanent)."""

    origin: SmokeOrigin
    weather: Weather
    disperse: int | None
    dissipate: int | None
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def smoke_timing(origin: SmokeOrigin, weather: Weather) -> SmokeTiming:
    """XIV.7 timings with the weather's smoke modifier, floored at 0 (end of this turn).

    A burning vehicle's smoke is permanent unless the weather puts fires out (Lluvia,
    Tempestad: 2 turns).
    """
    exp = Explanation()
    origin, weather = SmokeOrigin(origin), Weather(weather)
    effects = weather_effects(weather, exp)
    base = SMOKE.rows[origin]
    if base is None:
        out = effects.fires_out_turns
        exp.add(SMOKE_RULE, msg("burning vehicle smoke lasts until the fire is out"), out)
        return SmokeTiming(origin, weather, None, out, exp)
    exp.add(SMOKE_RULE, msg("%(origin)s: turns to disperse / dissipate", origin=origin), base)
    disperse, dissipate = (max(0, t + effects.smoke_turns) for t in base)
    exp.add(
        EFFECTS_RULE,
        msg(
            "%(weather)s: %(smoke_turns)s turns, never below 0",
            weather=weather,
            smoke_turns=format(effects.smoke_turns, "+d"),
        ),
        (disperse, dissipate),
    )
    return SmokeTiming(origin, weather, disperse, dissipate, exp)

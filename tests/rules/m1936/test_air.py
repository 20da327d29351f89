"""Air support (M36-XIII placeholder): weather availability (XV.2–3) and XVI.3 modifiers."""

import pytest

from rules.errors import RuleError
from rules.m1936.air import (
    AirAttackMods,
    AirAvailability,
    AirOptions,
    air_attack_modifier,
    air_available,
    arrival_turn,
)
from rules.m1936.weather import Weather

# XV.3 "Apoyo aereo" column as printed: +2 turnos / Normal / No.
SEED_AIR_COLUMN = {
    "Vendaval": "+2 turnos",
    "Viento": "Normal",
    "Nevada": "+2 turnos",
    "Ventisca": "No",
    "Tempestad": "No",
    "Lluvia": "+2 turnos",
    "Noche": "No",
    "Soleado": "Normal",
    "Nublado": "+2 turnos",
}


@pytest.mark.parametrize(("weather", "cell"), SEED_AIR_COLUMN.items())
def test_M36_XV_3_air_support_every_weather(weather, cell):
    status = air_available(Weather(weather))
    if cell == "No":
        assert (status.available, status.delay_turns) == (False, None)
    else:
        assert status.available is True
        assert status.delay_turns == (2 if cell == "+2 turnos" else 0)


def test_M36_XV_2_ventisca_text_reading_option():
    status = air_available(Weather.VENTISCA, AirOptions(ventisca_follows_text=True))
    assert (status.available, status.delay_turns) == (True, 2)
    assert (
        air_available(Weather.TEMPESTAD, AirOptions(ventisca_follows_text=True)).available is False
    )


def test_M36_XV_3_arrival_turn_adds_weather_delay_to_base():
    turn, exp = arrival_turn(requested_turn=3, base_turns=1, weather=Weather.NUBLADO)
    assert turn == 6
    assert exp.steps[-1].value == 6
    assert arrival_turn(requested_turn=3, base_turns=1, weather=Weather.SOLEADO)[0] == 4
    assert arrival_turn(requested_turn=3, base_turns=1, weather=Weather.NOCHE)[0] is None
    with pytest.raises(RuleError):
        arrival_turn(requested_turn=3, base_turns=-1, weather=Weather.SOLEADO)


def test_M36_XV_3_availability_round_trips():
    status = air_available(Weather.LLUVIA)
    assert AirAvailability.from_dict(status.to_dict()) == status


@pytest.mark.parametrize(
    ("mods", "total"),
    [
        (AirAttackMods(), 0),
        (AirAttackMods(prone=True), -1),
        (AirAttackMods(small_target=True), -1),
        (AirAttackMods(concealed=True), -1),
        (AirAttackMods(prone=True, concealed=True), -2),
        (AirAttackMods(prone=True, small_target=True, concealed=True), -3),
    ],
)
def test_M36_XVI_3_air_attack_modifiers(mods, total):
    value, exp = air_attack_modifier(mods)
    assert value == total
    assert sum(s.value for s in exp.steps[:-1]) == total

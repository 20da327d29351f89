"""Smoke and Illum markers [19, 24.3.c, 24.5.a, 26.2]."""

import pytest

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.tcs.clock import Light
from rules.tcs.smoke import MarkerKind, Markers, Source

NEIGHBOURS = {"0101": ["0102", "0201"], "0102": ["0101"], "0201": ["0101"], "0505": []}


def near(hex_):
    return NEIGHBOURS.get(hex_, [])


def test_19_2_artillery_smoke_lasts_two_clean_ups():
    m = Markers()
    m.place_artillery_smoke("0101", "A", all_water=False)
    assert m.smoked("0101", near) and m.smoked("0102", near)  # neighbours count [19.3.b]
    m.clean_up()
    assert m.markers[0].level == 1
    m.clean_up()
    assert m.markers == []


def test_19_1_b_no_smoke_in_all_water_hexes():
    m = Markers()
    m.place_artillery_smoke("0101", "A", all_water=True)
    assert m.markers == []
    with pytest.raises(RuleError):
        m.fire_mortar_smoke(
            "0101",
            "A",
            EnteredDice([6]),
            mortar=True,
            calibre_mm=81,
            all_water=True,
            success_from=4,
        )


def test_19_3_c_mortar_smoke_fills_one_hex_and_goes_at_owner_action_phase():
    m = Markers()
    result = m.fire_mortar_smoke(
        "0101", "A", EnteredDice([5]), mortar=True, calibre_mm=81, success_from=4
    )  # FICTIONAL chart number
    assert result.placed and m.smoked("0101", near) and not m.smoked("0102", near)
    m.clean_up()
    assert len(m.markers) == 1
    m.start_action_phase("B")
    assert len(m.markers) == 1
    m.start_action_phase("A")
    assert m.markers == []


def test_24_3_c_mortar_smoke_refusals_and_questions():
    m = Markers()
    assert not m.fire_mortar_smoke(
        "0101", "A", EnteredDice([2]), mortar=True, calibre_mm=81, success_from=4
    ).placed
    assert m.fire_mortar_smoke(
        "0101", "A", None, mortar=False, calibre_mm=105, succeeded=True
    ).placed
    with pytest.raises(RuleError):
        m.fire_mortar_smoke("0101", "A", None, mortar=True, calibre_mm=60, succeeded=True)
    with pytest.raises(RuleError):
        m.fire_mortar_smoke("0101", "A", None, mortar=False, calibre_mm=75, succeeded=True)
    with pytest.raises(DecisionRequired):
        m.fire_mortar_smoke("0101", "A", EnteredDice([2]), mortar=True, calibre_mm=81)


def test_26_2_illum_radius_and_light():
    m = Markers()
    m.place_illum("0505", "A", Source.ARTILLERY, Light.NIGHT)
    m.place_illum("0101", "A", Source.MORTAR_IG, Light.NIGHT)
    assert [x.radius for x in m.markers] == [5, 3]
    for light in (Light.DAWN, Light.DUSK, Light.TWILIGHT):
        with pytest.raises(RuleError):
            m.place_illum("0505", "A", Source.ARTILLERY, light)
    m.clean_up()
    assert [(x.kind, x.source) for x in m.markers] == [(MarkerKind.ILLUM, Source.MORTAR_IG)]
    assert Markers.from_dict(m.to_dict()) == m

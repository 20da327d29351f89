"""HOUSE RULES (not in the 1936 rulebook): carry-over of unit condition between battles."""

import pytest

from rules.m1936.house_rules import CarryOver, HouseRules, UnitCondition, carry_over

AFTER = UnitCondition(
    casualties=3,
    decimated=True,
    destroyed=False,
    structure_lost=1,
    armour_degraded={"BF": 1},
    damage=("Torreta inmovilizada",),
)


def test_HOUSE_M36_carry_over_is_off_by_default():
    house = HouseRules()
    assert "not in the 1936 rulebook" in house.label
    result = carry_over(AFTER, house)
    assert result.condition == UnitCondition()
    assert all(s.rule.startswith("HOUSE-") for s in result.explanation)


@pytest.mark.parametrize(
    ("house", "expected"),
    [
        (HouseRules(carry_casualties=True), UnitCondition(casualties=3)),
        (HouseRules(carry_decimation=True), UnitCondition(decimated=True)),
        (
            HouseRules(carry_vehicle_damage=True),
            UnitCondition(
                structure_lost=1, armour_degraded={"BF": 1}, damage=("Torreta inmovilizada",)
            ),
        ),
        (HouseRules(carry_destroyed=True), UnitCondition()),
    ],
)
def test_HOUSE_M36_each_option_carries_only_its_part(house, expected):
    assert carry_over(AFTER, house).condition == expected


def test_HOUSE_M36_round_trip():
    house = HouseRules(carry_casualties=True)
    assert HouseRules.from_dict(house.to_dict()) == house
    result = carry_over(AFTER, house)
    assert CarryOver.from_dict(result.to_dict()) == result

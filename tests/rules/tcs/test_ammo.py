"""Ammunition records [18.2, 24.6.c]: digest cases T74, T75 and the record's refusals."""

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.tcs.ammo import AmmoRecord, AmmoType, Battery, Stock, legacy_allocation
from rules.tcs.artillery import MissionKind, fire_mission, mission_factors

HE, SMOKE, ILLUM = AmmoType.HE, AmmoType.SMOKE, AmmoType.ILLUM


def record(he=6, smoke=2, illum=2):
    return AmmoRecord(
        "Allies",
        [
            Stock(HE, "105", he, he),
            Stock(SMOKE, "105", smoke, smoke),
            Stock(ILLUM, "105", 2, illum),
        ],
        [
            Battery("A", "105", 105, good_af=10, bad_af=6),
            Battery("B", "105", 105, good_af=10, bad_af=6),
            Battery("C", "105", 105, good_af=10, bad_af=6),
            Battery("G", "155", 155, on_map=True),
        ],
    )


def test_T75_18_2_legacy_allocation_quartered_except_illum():
    assert legacy_allocation(HE, 12) == 3
    assert legacy_allocation(ILLUM, 4) == 4
    assert legacy_allocation(SMOKE, 10) == 3  # 2.5 → 3 by standard rounding
    with pytest.raises(RuleError):
        legacy_allocation(HE, -1)


def test_T74_18_7_b_refund_restores_the_stock():
    r = record()
    change = r.spend_mission(["A"], HE, 1)
    assert r.stock(HE, "105").remaining == 5
    exp = r.refund(change.spent)
    assert r.stock(HE, "105").remaining == 6 and exp.steps[0].rule == "18.7.b"
    assert r.battery("A").mission_used  # a mission cannot be cancelled [18.1.c]


def test_18_1_b_one_mission_plus_one_illum_per_battery_per_turn():
    r = record()
    r.spend_mission(["A"], HE, 1)
    r.spend_mission(["A"], ILLUM, 1, illum=True)
    with pytest.raises(RuleError) as err:
        r.spend_mission(["A"], SMOKE, 1)
    assert err.value.rule == "18.1.b"
    with pytest.raises(RuleError):
        r.spend_mission(["A"], ILLUM, 1, illum=True)
    r.new_turn()
    r.spend_mission(["A"], SMOKE, 1)
    assert r.stock(SMOKE, "105").remaining == 1


def test_18_2_c_battalion_and_rapid_costs():
    r = record(he=12)
    factors = mission_factors(
        MissionKind.CONTINUOUS, 10, battalion=True, rapid=True, calibre_mm=105
    )
    fire_mission(r, ["A", "B", "C"], factors)
    assert r.stock(HE, "105").remaining == 3


@pytest.mark.parametrize(
    "batteries, ammo, volleys, kwargs, rule",
    [
        (["A"], HE, 7, {}, "18.2.a"),  # beyond stock
        (["Z"], HE, 1, {}, "18.2.a"),  # no such battery
        ([], HE, 1, {}, "18.2.a"),
        (["A", "A"], HE, 1, {}, "18.2.a"),
        (["A"], ILLUM, 1, {}, "18.2.b"),  # Illum ammo for a barrage
        (["A"], HE, 1, {"illum": True}, "18.2.b"),
        (["A", "G"], HE, 2, {}, "18.2.b"),  # mixed calibres
        (["G"], SMOKE, 1, {}, "18.2.a"),  # no 155 smoke stock
        (["A"], HE, 0, {}, "18.2.c"),
    ],
)
def test_spend_refusals_leave_the_record_untouched(batteries, ammo, volleys, kwargs, rule):
    r = record()
    before = r.to_dict()
    with pytest.raises(RuleError) as err:
        r.spend_mission(batteries, ammo, volleys, **kwargs)
    assert err.value.rule == rule and r.to_dict() == before


def test_refund_cannot_exceed_the_issue():
    r = record()
    change = r.spend_mission(["A"], HE, 1)
    r.refund(change.spent)
    with pytest.raises(RuleError):
        r.refund(change.spent)


def test_24_6_c_direct_fire_one_volley_per_phase():
    r = record()
    r.stocks.append(Stock(HE, "155", 3, 3))
    r.spend_direct_fire("G", "t1-action-A")
    r.spend_direct_fire("G", "t1-action-A")
    assert r.stock(HE, "155").remaining == 2
    r.spend_direct_fire("G", "t1-action-B")
    assert r.stock(HE, "155").remaining == 1
    with pytest.raises(RuleError):
        r.spend_direct_fire("A", "t1-action-A")


def test_record_round_trips_as_json_data():
    r = record()
    r.spend_mission(["B"], HE, 3)
    r.add_stock(HE, "155", 2)
    with pytest.raises(RuleError):
        r.add_stock(HE, "155", 2)
    assert AmmoRecord.from_dict(r.to_dict()) == r


@given(
    st.integers(0, 9),
    st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), st.integers(1, 9)), max_size=6),
)
def test_spend_then_refund_restores_stock_and_never_goes_negative(he, spends):
    r = record(he=he)
    start = [s.remaining for s in r.stocks]
    spent = []
    for name, volleys in spends:
        with contextlib.suppress(RuleError):
            spent.append(r.spend_mission([name], HE, volleys).spent)
        assert all(s.remaining >= 0 for s in r.stocks)
    for item in spent:
        r.refund(item)
    assert [s.remaining for s in r.stocks] == start

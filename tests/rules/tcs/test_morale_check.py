"""Morale checks [17.0–17.7], assault escalation [22.0.c] and the Morale Table as user data.

FICTIONAL TEST DATA: the seed prints no Morale Table. `FICTIONAL_TABLE` is invented for these
tests, except the one cell the seed's 17.2 example gives (column 9, roll 46 → SYR). It is
monotone: for every roll, a higher total never gives a milder result.
"""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import D66, entered_roll
from rules.errors import RuleError, TableDataError
from rules.explain import DecisionRequired, Explanation
from rules.tcs.morale import BattalionMorale, record_loss
from rules.tcs.morale_check import (
    Mode,
    Modifiers,
    MoraleState,
    StackUnit,
    apply_result,
    check_morale,
    checking_unit,
    morale_total,
    read_result,
    recover,
)
from rules.tcs.morale_table import (
    D66_READINGS,
    SEVERITY,
    MoraleResult,
    MoraleTable,
    at_least_as_bad,
)

from .helpers import HW, INF, TRN, VEH, dice

NONE, SUP, PAR, SYR, SUR = (
    MoraleResult.NO_EFFECT,
    MoraleResult.SUPPRESSED,
    MoraleResult.PARALYZED,
    MoraleResult.SYR,
    MoraleResult.SURRENDER,
)
# FICTIONAL TEST DATA (only column 8-9 / roll 46 → syr comes from the seed, 17.2 example)
FICTIONAL_DATA = {
    "columns": ["≤3", "4-5", "6-7", "8-9", "10-11", "12+"],
    "rows": [
        {"rolls": "11-26", "results": ["none", "none", "none", "none", "suppressed", "suppressed"]},
        {"rolls": "31-36", "results": ["none", "none", "suppressed", "suppressed", "suppressed", "paralyzed"]},
        {"rolls": "41-45", "results": ["none", "suppressed", "suppressed", "paralyzed", "paralyzed", "syr"]},
        {"rolls": "46-56", "results": ["suppressed", "suppressed", "paralyzed", "syr", "syr", "syr"]},
        {"rolls": "61-64", "results": ["suppressed", "paralyzed", "syr", "syr", "surrender", "surrender"]},
        {"rolls": "65-66", "results": ["paralyzed", "syr", "syr", "surrender", "surrender", "surrender"]},
    ],
}  # fmt: skip
FICTIONAL_TABLE = MoraleTable.from_data(FICTIONAL_DATA)


def platoon(uid="pl", morale=4, lost=0, **kw):
    return StackUnit(uid, INF, 5, lost, morale, **kw)


def test_t60_17_2_night_platoon_total_9_roll_46_syr_whole_stack_retreats():
    stack = [platoon(lost=3, battalion_morale=1), StackUnit("mg", HW, 2, 0, 3, battalion_morale=1)]
    out = check_morale(stack, dice(46), table=FICTIONAL_TABLE, modifiers=Modifiers(night=1))
    assert out.total == 9 and out.roll.value == 46 and out.result is SYR
    assert out.retreat_hexes == 3
    assert {e.unit for e in out.effects} == {"pl", "mg"}
    assert all(e.state is MoraleState.SUPPRESSED and e.mode is Mode.FIRE for e in out.effects)
    assert out.explanation.rolls == [out.roll]


def test_t61_17_2_a_worst_unit_checks_and_just_eliminated_may_be_chosen():
    a, b = StackUnit("A", INF, 5, 0, 3), StackUnit("B", INF, 5, 1, 4)
    assert checking_unit([a, b], Explanation()).id == "B"
    gone = StackUnit("C", INF, 5, 0, 3, eliminated=True)
    assert checking_unit([a, b, gone], Explanation()).id == "C"
    assert morale_total([a, b, gone]).total == 8


def test_17_2_a_equal_values_the_unassigned_unit_checks_6_3_b():
    a, b = platoon("a", 4, 1), platoon("b", 5, 0, unassigned=True)
    total = morale_total([a, b], Modifiers(crossfire=1, terrain=-1, other=(("smoke", 1),)))
    assert (total.unit, total.total) == ("b", 5 + 2 + 1 - 1 + 1)


def test_17_0_a_vehicles_alone_never_check():
    with pytest.raises(RuleError):
        morale_total([StackUnit("tk", VEH, 3)])


def test_17_3_suppressed_move_mode_flips_riders_on_vehicles_dismount_vehicles_ignore():
    stack = [
        platoon("walk", mode=Mode.MOVE),
        platoon("truck_riders", mode=Mode.MOVE, carried_by="truck"),
        platoon("tank_riders", mode=Mode.MOVE, carried_by="tank"),
        StackUnit("truck", TRN, 2, mode=Mode.MOVE),
        StackUnit("tank", VEH, 3, mode=Mode.MOVE),
    ]
    out = apply_result(stack, SUP)
    by = {e.unit: e for e in out.effects}
    assert set(by) == {"walk", "truck_riders", "tank_riders"}
    assert by["walk"] == by["walk"].__class__("walk", MoraleState.SUPPRESSED, Mode.FIRE)
    assert by["truck_riders"].mode is Mode.MOVE and not by["truck_riders"].dismount
    assert by["tank_riders"].dismount and by["tank_riders"].mode is Mode.FIRE


def test_17_5_d_paralyzed_stack_ignores_suppressed_outside_assault_and_17_5_paralyzes():
    out = apply_result([platoon(state=MoraleState.PARALYZED)], SUP)
    assert out.effects[0].state is MoraleState.PARALYZED
    out = apply_result([platoon(state=MoraleState.SUPPRESSED), platoon("b")], PAR)
    assert {e.state for e in out.effects} == {MoraleState.PARALYZED}


def test_17_2_no_effect_changes_nothing():
    out = apply_result([platoon()], NONE)
    assert out.effects == [] and out.losses == [] and out.retreat_hexes == 0


def test_17_4_step_3_guns_eliminated_unless_towed_or_moving_on_integrated_transport():
    stack = [
        platoon(state=MoraleState.SUPPRESSED),
        StackUnit("at", HW, 1, 0, 3, gun=True),
        StackUnit("towed", HW, 1, 0, 3, gun=True, carried_by="truck"),
        StackUnit("sp", HW, 1, 0, 3, gun=True, mode=Mode.MOVE, integrated_transport=True),
        StackUnit("truck", TRN, 2, mode=Mode.MOVE),
    ]
    out = apply_result(stack, SYR)
    assert [(x.unit, x.eliminated) for x in out.losses] == [("at", True)]
    by = {e.unit: e for e in out.effects}
    assert by["pl"].state is MoraleState.SUPPRESSED and by["pl"].mode is Mode.FIRE
    assert by["towed"].mode is Mode.MOVE and by["sp"].mode is Mode.MOVE
    assert by["truck"].state is MoraleState.NORMAL and out.retreat_hexes == 3


def test_t63_17_4_c_vehicle_stacks_retreat_6_others_3():
    riders = [
        StackUnit("tank", VEH, 3, mode=Mode.MOVE),
        StackUnit("ht", TRN, 1, mode=Mode.MOVE),
        platoon(mode=Mode.MOVE, carried_by="ht"),
    ]
    assert apply_result(riders, SYR).retreat_hexes == 6
    assert apply_result([*riders, platoon("foot")], SYR).retreat_hexes == 3


def test_17_4_i_retreating_units_ignore_all_but_surrender():
    stack = [platoon("r", retreating=True), platoon("here")]
    out = apply_result(stack, SYR)
    assert {e.unit for e in out.effects} == {"here"}
    assert apply_result([platoon("r", retreating=True)], PAR).effects == []
    assert {x.unit for x in apply_result(stack, SUR).losses} == {"r", "here"}


def test_17_4_l_artillery_syr_may_become_paralyzed_at_the_owners_option():
    with pytest.raises(DecisionRequired) as asked:
        apply_result([platoon()], SYR, artillery_air_phase=True)
    assert asked.value.decision.chooser == "owner"
    out = apply_result([platoon()], SYR, artillery_air_phase=True, syr_as_paralyzed=True)
    assert out.result is PAR and out.effects[0].state is MoraleState.PARALYZED
    out = apply_result([platoon()], SYR, artillery_air_phase=True, syr_as_paralyzed=False)
    assert out.result is SYR and out.retreat_hexes == 3


def test_17_6_surrender_removes_the_whole_hex_vehicles_included():
    stack = [platoon(lost=2), StackUnit("tank", VEH, 3, 1), StackUnit("mortar", HW, 2, 0, 3)]
    out = apply_result(stack, SUR)
    assert [(x.unit, x.category, x.steps, x.eliminated) for x in out.losses] == [
        ("pl", INF, 3, True),
        ("tank", VEH, 2, True),
        ("mortar", HW, 2, True),
    ]


def test_t64_22_0_c_paralyzed_platoon_suppressed_retreats_losing_half_paralyzed_surrenders():
    para = platoon(state=MoraleState.PARALYZED)
    out = apply_result([para], SUP, in_assault=True)
    assert out.result is SYR and out.retreat_hexes == 3
    assert [(x.unit, x.steps, x.eliminated) for x in out.losses] == [("pl", 3, False)]
    assert apply_result([para], PAR, in_assault=True).result is SUR


def test_17_4_k_one_step_paralyzed_unit_eliminated_by_the_assault_retreat():
    out = apply_result([platoon(lost=4, state=MoraleState.PARALYZED)], SYR, in_assault=True)
    assert [(x.steps, x.eliminated, x.rule) for x in out.losses] == [(1, True, "17.4")]
    assert out.effects == []


def test_22_0_c_suppressed_again_retreat_or_lose_a_step_from_the_largest():
    stack = [platoon("a", lost=1, state=MoraleState.SUPPRESSED), platoon("b", lost=3)]
    with pytest.raises(DecisionRequired):
        apply_result(stack, SUP, in_assault=True)
    assert apply_result(stack, SUP, in_assault=True, assault_choice="retreat").result is SYR
    out = apply_result(stack, SUP, in_assault=True, assault_choice="step_loss")
    assert [(x.unit, x.steps) for x in out.losses] == [("a", 1)] and out.result is SUP
    tied = [platoon("a", state=MoraleState.SUPPRESSED), platoon("b")]
    with pytest.raises(DecisionRequired) as asked:
        apply_result(tied, SUP, in_assault=True, assault_choice="step_loss")
    assert asked.value.decision.options == ("a", "b")
    out = apply_result(tied, SUP, in_assault=True, assault_choice="step_loss", largest_choice="b")
    assert out.losses[0].unit == "b"
    last = [platoon("a", lost=4, state=MoraleState.SUPPRESSED), StackUnit("m", HW, 1, 0, 3)]
    out = apply_result(last, SUP, in_assault=True, assault_choice="step_loss", largest_choice="a")
    assert out.losses[0].eliminated and [e.unit for e in out.effects] == ["m"]


def test_17_7_recovery_one_level_per_stack_not_in_an_artillery_zone():
    stack = [platoon("p", state=MoraleState.PARALYZED), platoon("s", state=MoraleState.SUPPRESSED)]
    out = recover(stack, in_artillery_zone=False, recovered_this_phase=False)
    assert [(e.unit, e.state) for e in out.effects] == [
        ("p", MoraleState.SUPPRESSED),
        ("s", MoraleState.NORMAL),
    ]
    with pytest.raises(RuleError, match=r"17\.7\.b"):
        recover(stack, in_artillery_zone=True, recovered_this_phase=False)
    with pytest.raises(RuleError, match=r"17\.7\.d"):
        recover(stack, in_artillery_zone=False, recovered_this_phase=True)
    with pytest.raises(RuleError):
        recover([platoon()], in_artillery_zone=False, recovered_this_phase=False)


def test_17_2_without_a_table_the_player_reads_the_chart_for_the_roll():
    with pytest.raises(DecisionRequired) as asked:
        check_morale([platoon()], dice(46))
    assert asked.value.decision.key == "morale_result:46"
    roll = entered_roll(D66, 46, purpose="morale", rule="17.2")
    out = check_morale([platoon()], dice(), roll=roll, entered=SUP)
    assert out.result is SUP and out.roll is roll
    total = morale_total([platoon()])
    assert read_result(total, roll, FICTIONAL_TABLE) is SUP


def test_17_2_morale_table_names_every_bad_cell():
    bad = {
        "columns": ["3", "4-5", "7+"],
        "rows": [
            {"rolls": "11-36", "results": ["none", "panic", ""]},
            {"rolls": "36-56", "results": ["none", "none"]},
        ],
    }
    with pytest.raises(TableDataError) as err:
        MoraleTable.from_data(bad)
    text = str(err.value)
    for words in (
        "first column must be open below",
        "columns 4-5 and 7+",
        "panic is not a result",
        "column 3: (blank)",
        "roll 36 is in rows 1 and 2",
        "row 2: give one result per column (3)",
        "no row covers roll(s) 61, 62",
    ):
        assert words in text
    with pytest.raises(TableDataError):
        MoraleTable.from_data([])
    with pytest.raises(TableDataError):
        MoraleTable.from_data({"columns": ["x"], "rows": [{"rolls": "70", "results": ["none"]}]})


def test_17_2_morale_table_from_csv_and_round_trip():
    lines = ["rolls," + ",".join(FICTIONAL_DATA["columns"])]
    lines += [r["rolls"] + "," + ",".join(r["results"]) for r in FICTIONAL_DATA["rows"]]
    table = MoraleTable.from_csv("\n".join(lines))
    assert table == FICTIONAL_TABLE
    assert MoraleTable.from_data(table.to_data()) == table
    assert table.result(-5, 11) is NONE and table.result(40, 66) is SUR
    with pytest.raises(TableDataError):
        MoraleTable.from_csv("  ")


def test_17_2_odds_match_brute_force_over_the_36_rolls():
    for total in range(0, 14):
        odds = FICTIONAL_TABLE.odds(total)
        assert sum(odds.values()) == 1
        for result in MoraleResult:
            hits = sum(FICTIONAL_TABLE.result(total, r) is result for r in D66_READINGS)
            assert odds[result] == Fraction(hits, 36)
    assert FICTIONAL_TABLE.odds(9)[SYR] == Fraction(7 + 4, 36)  # 46, 51-56 and 61-64


@st.composite
def monotone_tables(draw):
    """FICTIONAL random tables: per roll, results never get milder to the right."""
    width = draw(st.integers(2, 6))
    cuts = sorted(draw(st.sets(st.integers(1, 35), max_size=5)))
    bounds = [0, *cuts, 36]
    rows = []
    for lo, hi in itertools.pairwise(bounds):
        ranks = sorted(draw(st.lists(st.integers(0, 4), min_size=width, max_size=width)))
        rolls = f"{D66_READINGS[lo]}-{D66_READINGS[hi - 1]}"
        rows.append({"rolls": rolls, "results": [list(MoraleResult)[k].value for k in ranks]})
    start = draw(st.integers(0, 8))
    columns = [f"≤{start}", *(str(start + i) for i in range(1, width - 1)), f"{start + width - 1}+"]
    return MoraleTable.from_data({"columns": columns, "rows": rows})


@given(monotone_tables(), st.integers(1, 6), st.integers(0, 4), st.integers(0, 4))
def test_17_2_property_more_steps_lost_never_gives_a_better_distribution(table, morale, lost, more):
    """ "Better" = first-order stochastic dominance on the severity order none < Suppressed <
    Paralyzed < SYR < Surrender: every P(result at least as bad as r) is no smaller."""
    before = morale_total([platoon(morale=morale, lost=lost)]).total
    after = morale_total([platoon(morale=morale, lost=min(lost + more, 5))]).total
    worse, base = at_least_as_bad(table.odds(after)), at_least_as_bad(table.odds(before))
    assert all(worse[r] >= base[r] for r in MoraleResult)
    assert sum(SEVERITY[r] * p for r, p in table.odds(after).items()) >= sum(
        SEVERITY[r] * p for r, p in table.odds(before).items()
    )


units = st.builds(
    StackUnit,
    id=st.text("abcdef", min_size=1, max_size=3),
    category=st.sampled_from([INF, HW, VEH, TRN]),
    steps=st.just(5),
    steps_lost=st.integers(0, 4),
    morale=st.integers(1, 7),
    battalion_morale=st.integers(0, 4),
    eliminated=st.booleans(),
    unassigned=st.booleans(),
)


@given(st.lists(units, min_size=1, max_size=6))
def test_17_2_a_property_the_checking_unit_has_the_highest_value(stack):
    checkers = [u for u in stack if u.category in (INF, HW)]
    if not checkers:
        with pytest.raises(RuleError):
            checking_unit(stack, Explanation())
        return
    chosen = checking_unit(stack, Explanation())
    assert chosen.category in (INF, HW)
    assert chosen.worst_value == max(u.worst_value for u in checkers)
    lost = chosen.steps if chosen.eliminated else chosen.steps_lost
    assert chosen.worst_value == chosen.morale + lost + chosen.battalion_morale


def test_17_6_surrender_losses_feed_battalion_morale_17_1_a():
    stack = [
        platoon(),
        *(StackUnit(f"hw{i}", HW, 2, 0, 3) for i in range(3)),
        StackUnit("t", VEH, 2),
    ]
    box = BattalionMorale("1-123")
    for loss in apply_result(stack, SUR).losses:
        record_loss(box, loss.category)
    assert box.value == 2 and box.other_losses == 3

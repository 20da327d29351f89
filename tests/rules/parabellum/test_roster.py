"""Roster building and validation (§8.1-§8.3, nation lists) and the builder's slot options."""

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parabellum.data import all_squad_types
from rules.parabellum.roster import (
    Roster,
    apply_choice,
    new_roster,
    slot_options,
    validate_roster,
)


def build(squad_id, *edits):
    roster = new_roster(squad_id)
    for soldier_id, field, value in edits:
        roster = apply_choice(roster, soldier_id, field, value)
    return roster


def codes(report):
    return {v.code for v in report.violations}


@pytest.mark.parametrize("squad_id", [s.id for s in all_squad_types()])
def test_8_1_every_basic_squad_is_valid_with_full_po(squad_id):
    report = validate_roster(new_roster(squad_id))
    assert report.valid, report.violations
    assert report.pm_spent == 0
    # §8.2.4: every unspent whole PM becomes 1 PO; half points are lost.
    assert report.starting_po == int(report.pm_budget)


def test_d1_grenadier_four_pm_spent_one_recruit_seven_po():
    roster = build(
        "GER/grenadier",
        ("rifleman-1", "weapon", "assault_rifle"),
        ("rifleman-2", "weapon", "assault_rifle"),
        ("rifleman-3", "extras", ("panzerfaust",)),
        ("rifleman-4", "extras", ("panzerfaust",)),
        ("officer", "experience", "veteran"),
        ("nco", "experience", "veteran"),
        ("rifleman-3", "specialist", "radio"),
        ("rifleman-4", "specialist", "medic"),
        ("rifleman-5", "experience", "recruit"),
    )
    report = validate_roster(roster)
    assert report.valid, report.violations
    assert report.pm_spent == Decimal("4.0")
    assert report.starting_po == 7  # floor(10 - 4) + 1


def test_d2_waffen_ss_half_point_lost():
    assert validate_roster(new_roster("GER/waffen_ss")).starting_po == 7  # floor(7.5)


def test_d3_commando_one_veteran():
    report = validate_roster(build("GBR/commando", ("officer", "experience", "veteran")))
    assert (report.pm_left, report.starting_po) == (Decimal("6.0"), 6)


def test_8_2_every_violation_reported_at_once():
    edits = [("officer", "specialist", "medic"), ("rifleman-1", "specialist", "radio")]
    edits += [("rifleman-2", "specialist", "medic"), ("rifleman-3", "weapon", "carbine")]
    edits += [("rifleman-4", "experience", "recruit")]
    others = ["officer", "nco", "mg_gunner", "mg_assistant-1", "mg_assistant-2"]
    others += ["rifleman-1", "rifleman-2", "rifleman-3", "rifleman-5"]
    edits += [(sid, "experience", "veteran") for sid in others]
    edits += [(f"rifleman-{i}", "extras", ("panzerfaust",)) for i in range(1, 6)]
    report = validate_roster(build("GER/waffen_ss", *edits))
    assert codes(report) == {
        "specialist_eligible",  # 8.2.3: the officer
        "specialists:count",  # 8.2.3: three specialists
        "specialists:medic",  # 8.2.3: one of each type
        "swap",  # 8.2.1: no carbine for Waffen-SS
        "cap:recruit",  # Waffen-SS offers no recruits
        "limit:panzerfaust",  # at most 4
        "budget",  # 9 veterans 4.5 + 3 specialists 1.5 + 5 Panzerfausts 2.5 = 8.5 > 7.5
    }
    assert report.pm_spent == Decimal("8.5")
    assert report.starting_po == 1  # nothing left, +1 recruit
    for v in report.violations:
        assert v.text.startswith(f"[{v.rule}] ")
    by_code = {v.code: v for v in report.violations}
    assert by_code["specialists:count"].rule == "8.2.3"
    assert "Waffen-SS" in str(by_code["cap:recruit"].message)


@pytest.mark.parametrize(
    ("squad_id", "edits", "expected"),
    [
        (
            "GER/grenadier",
            [(f"rifleman-{i}", "weapon", "smg") for i in (1, 2, 3)],
            "limit:smg_swap",
        ),
        ("GER/grenadier", [("mg_gunner", "weapon", "smg")], "swap"),
        ("USA/rifleman", [("nco", "weapon", "smg")], "swap"),
        (
            "USSR/rifle_squad",
            [(f"rifleman-{i}", "experience", "veteran") for i in range(1, 5)],
            "cap:veteran",
        ),
        (
            "USSR/guards",
            [(f"rifleman-{i}", "experience", "recruit") for i in (1, 2, 3)],
            "cap:recruit",
        ),
        (
            "USSR/rifle_squad",
            [(f"rifleman-{i}", "extras", ("panzerfaust",)) for i in (1, 2)],
            "limit:panzerfaust",
        ),
        ("GER/grenadier", [("rifleman-1", "specialist", "political_officer")], "specialist_kind"),
        (
            "GER/grenadier",
            [("rifleman-1", "experience", "recruit"), ("rifleman-1", "specialist", "medic")],
            "specialist_eligible",
        ),
        ("ITA/fucilieri", [("mg_assistant-1", "specialist", "radio")], "specialist_eligible"),
        ("GBR/riflemen", [("rifleman-1", "extras", ("panzerfaust",))], "extras"),
        ("USA/rifleman", [("rifleman-1", "scout", False)], "scouts"),
        ("USA/rifleman", [("rifleman-1", "scout", False), ("nco", "scout", True)], "scout_role"),
        ("GER/grenadier", [("rifleman-1", "scout", True)], "scouts"),
    ],
)
def test_8_2_single_violations(squad_id, edits, expected):
    assert expected in codes(validate_roster(build(squad_id, *edits)))


@pytest.mark.parametrize(
    ("squad_id", "edits"),
    [
        # "Cualquier soldado puede cambiar su fusil por subfusil" (Fallschirmjäger).
        (
            "GER/fallschirmjager",
            [
                (s, "weapon", "smg")
                for s in (
                    "mg_assistant-1",
                    "mg_assistant-2",
                    *(f"rifleman-{i}" for i in range(1, 6)),
                )
            ],
        ),
        # Officer's SMG → STG-44 ("su fusil o subfusil por fusil de asalto").
        (
            "GER/grenadier",
            [("officer", "weapon", "assault_rifle"), ("nco", "weapon", "assault_rifle")],
        ),
        # USSR NCO carries a rifle, so may take an SMG; political officer armed with a pistol.
        (
            "USSR/rifle_squad",
            [("nco", "weapon", "smg"), ("rifleman-1", "specialist", "political_officer")],
        ),
        # US parachute: every semi-auto rifle to carbine or SMG; two M7s.
        (
            "USA/parachute",
            [(f"rifleman-{i}", "weapon", "carbine") for i in range(1, 6)]
            + [
                ("rifleman-1", "extras", ("grenade_launcher",)),
                ("rifleman-2", "extras", ("grenade_launcher",)),
            ],
        ),
        # Veteran specialist is fine; the veteran cap of 3 (USSR) holds.
        (
            "USSR/guards",
            [
                ("rifleman-1", "experience", "veteran"),
                ("rifleman-1", "specialist", "medic"),
                ("officer", "experience", "veteran"),
                ("nco", "experience", "veteran"),
            ],
        ),
    ],
)
def test_8_2_legal_rosters(squad_id, edits):
    report = validate_roster(build(squad_id, *edits))
    assert report.valid, report.violations


def test_8_3_3_political_officer_takes_and_returns_the_pistol():
    roster = build("USSR/rifle_squad", ("rifleman-1", "specialist", "political_officer"))
    assert roster.soldier("rifleman-1").weapon == "pistol"
    roster = apply_choice(roster, "rifleman-1", "specialist", None)
    assert roster.soldier("rifleman-1").weapon == "rifle"


def test_8_1_composition_and_understrength():
    roster = new_roster("FIN/jalkavaki")
    short = Roster(roster.squad_type, roster.soldiers[:-1])
    assert codes(validate_roster(short)) == {"composition:rifleman"}
    assert validate_roster(short, understrength_ok=True).valid


def test_slot_options_offer_only_legal_values():
    roster = build(
        "GER/grenadier",
        ("rifleman-1", "weapon", "smg"),
        ("rifleman-2", "weapon", "smg"),
        ("rifleman-3", "specialist", "radio"),
    )
    opts = slot_options(roster, "rifleman-4")
    weapons = {c.value: c.pm_delta for c in opts.choices["weapon"]}
    assert weapons == {"rifle": 0, "assault_rifle": Decimal("0.5")}  # SMG swaps used up
    assert [c.value for c in opts.choices["specialist"]] == [None, "medic"]
    officer = slot_options(roster, "officer")
    assert [c.value for c in officer.choices["specialist"]] == [None]
    assert {c.value for c in officer.choices["weapon"]} == {"smg", "assault_rifle"}
    json.dumps(opts.to_dict())


def test_slot_options_respect_the_budget():
    sids = ["officer", "nco", "mg_gunner", "mg_assistant-1", "mg_assistant-2"]
    sids += ["rifleman-1", "rifleman-2", "rifleman-3", "rifleman-4"]
    edits = [(sid, "experience", "veteran") for sid in sids]  # 4.5 PM
    edits += [
        ("rifleman-1", "extras", ("panzerfaust",)),
        ("rifleman-2", "extras", ("panzerfaust",)),
    ]
    edits += [("rifleman-3", "extras", ("panzerfaust",)), ("rifleman-4", "weapon", "assault_rifle")]
    roster = build("GER/waffen_ss", *edits)  # 4.5 + 1.5 + 0.5 = 6.5 of 7.5
    assert validate_roster(roster).pm_left == 1
    opts = slot_options(roster, "rifleman-5")
    assert {c.value for c in opts.choices["experience"]} == {"regular", "veteran"}  # no recruits
    roster = apply_choice(roster, "rifleman-5", "experience", "veteran")
    roster = apply_choice(roster, "rifleman-5", "specialist", "medic")  # 7.5 of 7.5
    opts = slot_options(roster, "rifleman-1")
    assert [c.value for c in opts.choices["weapon"]] == ["rifle", "smg"]  # STG costs 0.5


def test_roster_round_trip_through_json():
    roster = build(
        "USSR/rifle_squad",
        ("rifleman-1", "specialist", "political_officer"),
        ("rifleman-2", "extras", ("panzerfaust",)),
    )
    again = Roster.from_dict(json.loads(json.dumps(roster.to_dict())))
    assert again == roster
    json.dumps(validate_roster(roster).to_dict())


@st.composite
def built_rosters(draw):
    squad = draw(st.sampled_from([s.id for s in all_squad_types()]))
    roster = new_roster(squad)
    for _ in range(draw(st.integers(0, 12))):
        soldier = draw(st.sampled_from(roster.soldiers)).id
        choices = slot_options(roster, soldier).choices
        field = draw(st.sampled_from(sorted(choices)))
        if choices[field]:
            roster = apply_choice(
                roster, soldier, field, draw(st.sampled_from(choices[field])).value
            )
    return roster


@settings(max_examples=40, deadline=None)
@given(built_rosters())
def test_property_builder_edits_keep_rosters_valid_and_round_trip(roster):
    report = validate_roster(roster)
    assert report.valid, report.violations
    assert report.pm_left == report.pm_budget - report.pm_spent >= 0
    recruits = sum(s.experience == "recruit" for s in roster.soldiers)
    assert report.starting_po == int(report.pm_left) + recruits
    again = Roster.from_dict(json.loads(json.dumps(roster.to_dict())))
    assert again == roster and validate_roster(again) == report

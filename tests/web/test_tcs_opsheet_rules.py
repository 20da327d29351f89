"""The remaining op-sheet rules on the site: Dug In follows the sheets [6.16.a, 6.16.c-d],
reinforcement sheets and arrivals [6.13.e, 27.2], a battalion loss taken back off the box
when steps are given back [17.1.a, T65 in reverse], and the turn's phases in order [2.0].
Through the pages and the API, with the other side's view checked each time."""

import json

import pytest
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsFormation, TcsUnit
from campaigns.permissions import viewer_context
from campaigns.selectors import campaign_with_sides
from campaigns.selectors.tcs_turn import tcs_turn_phases
from campaigns.services.tcs import (
    tcs_losses_record,
    tcs_operation_start,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_sheet_draw,
    tcs_sheet_prepared_defense,
)
from tests.web import tcs_turn_fixtures
from tests.web.test_tcs_pages import bloody_110, sides

pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"
J = {"format": "json"}
BN1 = ["1-123/1", "1-123/2", "1-123/3"]
# the operation and the two players' API clients, shared with the API tests
op, alice, bob = tcs_turn_fixtures.op, tcs_turn_fixtures.alice, tcs_turn_fixtures.bob


def _unit(code):
    return TcsUnit.objects.get(code=code)


def _dug():
    return set(TcsUnit.objects.filter(dug_in=True).values_list("code", flat=True))


def _pd_sheet(op, user, code="PD", units=BN1):
    germans, _ = sides(op)
    return tcs_sheet_draw(
        side=germans,
        actor=user,
        code=code,
        missions=dict.fromkeys(units, "prepared_defense"),
        pregame=True,
    )


# --- Dug In [6.16] -------------------------------------------------------------------------


def test_T26_6_16_a_the_sheet_page_digs_in_the_units_in_fire_mode(client, op, user, alice, bob):
    germans, _ = sides(op)
    sheet = _pd_sheet(op, user)
    client.force_login(user)
    url = reverse("tcs-sheet-defense", args=[op.pk, sheet.pk])
    client.post(url, {"pd-addition": "", "pd-fire_mode": BN1[:2]}, follow=True)
    assert _dug() == set(BN1[:2])  # BN1[2] was in Move mode: not dug in
    mine = json.dumps(alice.get(f"{API}/sides/{germans.pk}/").json())
    assert '"code": "1-123/1", "category": "infantry"' in mine and '"dug_in": true' in mine
    assert bob.get(f"{API}/sides/{germans.pk}/").status_code == 404
    theirs = json.dumps(bob.get(f"{API}/operations/{op.pk}/").json())
    assert '"dug_in"' not in theirs and '"PD"' not in theirs


def test_T26_6_16_a_through_the_api_and_uncommitted_reserves_never_dig_in(op, user, alice):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="PD",
        missions=dict.fromkeys(BN1[:2], "prepared_defense"),
        reserves=[BN1[2]],
        pregame=True,
    )
    done = alice.post(f"{API}/op-sheets/{sheet.pk}/prepared-defense/", {"fire_mode": BN1}, **J)
    assert done.status_code == 200 and done.json()["result"]["dug_in"] == BN1[:2]
    assert _dug() == set(BN1[:2])


def test_6_16_d_a_unit_that_fails_off_its_sheet_is_no_longer_dug_in(client, op, user, other_user):
    germans, _ = sides(op)
    sheet = _pd_sheet(op, user)
    tcs_sheet_prepared_defense(sheet=sheet, actor=user, fire_mode=BN1)
    tcs_operation_start(campaign=op, actor=user)
    tcs_phase_complete(phase=tcs_phase_open(side=germans, actor=user), actor=user)
    client.force_login(user)
    client.post(
        reverse("tcs-sheet-fail", args=[op.pk, sheet.pk]), {"confirm": "on", "units": [BN1[0]]}
    )
    assert _dug() == set(BN1[1:])
    entry = LogEntry.objects.get(campaign=op, rule="6.16.d")
    assert entry.private_to == germans and BN1[0] in entry.summary and "unassigned" in entry.summary
    client.force_login(other_user)
    log = client.get(reverse("campaign-log", args=[op.pk])).text
    assert "no longer dug in" not in log


def test_6_16_d_success_declared_through_the_api_ends_dug_in(op, user, alice):
    germans, _ = sides(op)
    sheet = _pd_sheet(op, user)
    tcs_sheet_prepared_defense(sheet=sheet, actor=user, fire_mode=BN1)
    tcs_operation_start(campaign=op, actor=user)
    tcs_phase_open(side=germans, actor=user)
    done = alice.post(f"{API}/op-sheets/{sheet.pk}/succeed/", {}, **J)
    assert done.status_code == 200
    assert _dug() == set()
    assert LogEntry.objects.filter(campaign=op, rule="6.16.d", private_to=germans).count() == 3


def test_6_16_d_a_new_attack_sheet_implementing_ends_dug_in(op, user, alice):
    germans, _ = sides(op)
    sheet = _pd_sheet(op, user)
    tcs_sheet_prepared_defense(sheet=sheet, actor=user, fire_mode=BN1)
    tcs_operation_start(campaign=op, actor=user)
    attack = tcs_sheet_draw(side=germans, actor=user, code="A", missions={BN1[0]: "attack"})
    phase = tcs_phase_open(side=germans, actor=user)
    assert (
        alice.post(f"{API}/command-phases/{phase.pk}/weighted-turns/", {}, **J).status_code == 200
    )
    body = {"sheet": attack.pk, "mode": "full", "threshold": "11", "dice": "entered"}
    result = alice.post(f"{API}/command-phases/{phase.pk}/attempt/", {**body, "roll": "66"}, **J)
    assert result.status_code == 200, result.content
    attack.refresh_from_db()
    assert attack.status == "implemented"
    assert _dug() == set(BN1[1:])
    assert "Attack" in LogEntry.objects.get(campaign=op, rule="6.16.d").summary


# --- reinforcements [6.13.e, 27.2] ---------------------------------------------------------


def test_27_2_d_a_reinforcement_sheet_drawn_before_play_is_implemented(op, user, alice, bob):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="Reinf",
        missions={BN1[0]: "move"},
        pregame=True,
        reinforcement=True,
    )
    assert sheet.state["reinforcement"] is True and sheet.status == "implemented"
    assert LogEntry.objects.get(campaign=op, rule="27.2.d").private_to == germans
    tcs_operation_start(campaign=op, actor=user)
    url = f"{API}/operations/{op.pk}/reinforcements/"
    done = alice.post(url, {"side": germans.pk, "units": [BN1[0]]}, **J)
    assert done.status_code == 200 and BN1[0] in done.json()["detail"]
    assert LogEntry.objects.get(campaign=op, rule="27.2.a").private_to == germans
    theirs = json.dumps(bob.get(f"{API}/operations/{op.pk}/").json())
    assert '"reinforcement": true' not in theirs and '"Reinf"' not in theirs
    mine = json.dumps(alice.get(f"{API}/operations/{op.pk}/").json())
    assert '"reinforcement": true' in mine
    assert bob.post(url, {"side": germans.pk, "units": [BN1[0]]}, **J).status_code == 404


def test_27_2_b_a_unit_on_a_sheet_in_command_prep_may_not_enter(op, user, alice):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="R2", missions={BN1[1]: "move"}, reinforcement=True
    )
    assert sheet.status == "unimplemented"
    assert LogEntry.objects.get(campaign=op, rule="27.2.e").private_to == germans
    url = f"{API}/operations/{op.pk}/reinforcements/"
    refused = alice.post(url, {"side": germans.pk, "units": [BN1[1], BN1[2]]}, **J)
    assert refused.status_code == 400
    text = json.dumps(refused.json())
    assert "27.2.b" in text and BN1[1] in text and BN1[2] in text
    assert not LogEntry.objects.filter(campaign=op, rule="27.2.a").exists()


# --- battalion morale given back [17.1.a] ---------------------------------------------------


def _t65(op, user):
    """T65: the battalion loses 1 platoon and 2 MGs (morale 1), then a mortar (morale 2)."""
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    hw = TcsFormation.objects.get(code="123-HW")
    TcsUnit.objects.create(
        campaign=op, side=germans, formation=hw, code="123-HW/3", category="heavy_weapon", steps=2
    )
    tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=5)
    for code in ("123-HW/1", "123-HW/2", "123-HW/3"):
        tcs_losses_record(unit=_unit(code), actor=user, steps=2, nearest=["1-123"])
    box = TcsFormation.objects.get(code="1-123")
    assert (box.state["value"], box.state["other_losses"]) == (2, 3)
    return germans, box


def test_T65_17_1_a_in_reverse_through_the_api_and_the_side_page(client, op, user, alice, bob):
    germans, box = _t65(op, user)
    mortar = _unit("123-HW/3")
    assert mortar.credited_to == box
    done = alice.post(f"{API}/units/{mortar.pk}/restore/", {"steps": 2, "reason": "x"}, **J)
    assert done.status_code == 200
    box.refresh_from_db()
    assert (box.state["value"], box.state["other_losses"]) == (1, 2)
    assert box.history[-1]["cause"] == "correction"
    assert _unit("123-HW/3").credited_to is None
    entries = LogEntry.objects.filter(campaign=op, rule="17.1.a", data__tcs__formation=box.pk)
    entry = next(e for e in entries if "battalion morale 2 → 1" in str(e.summary))
    assert entry.private_to == germans and "123-HW/3 is back in play" in str(entry.summary)
    client.force_login(user)
    client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]),
        {
            "action": "restore",
            "restore-unit": _unit("1-123/1").pk,
            "restore-steps": "5",
            "restore-reason": "wrong unit",
        },
    )
    box.refresh_from_db()
    assert box.state["value"] == 0
    assert "1-123" not in json.dumps(bob.get(f"{API}/operations/{op.pk}/").json())


def test_17_1_a_giving_back_one_step_of_two_leaves_the_box_as_it_is(op, user, alice):
    _germans, box = _t65(op, user)
    mg = _unit("123-HW/1")
    alice.post(f"{API}/units/{mg.pk}/restore/", {"steps": 1, "reason": "x"}, **J)
    box.refresh_from_db()
    assert box.state["value"] == 1 and box.state["other_losses"] == 2
    # the MG is back in play: the third loss that raised the value is gone (3 → 2)


# --- the turn's phases [2.0] ---------------------------------------------------------------


def test_2_0_the_phases_in_order_on_the_page_and_in_the_api(
    client, op, user, other_user, alice, bob
):
    germans, americans = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    client.force_login(user)
    page = client.get(reverse("tcs-operation", args=[op.pk])).text
    assert 'aria-current="step"' in page
    assert "Next for you: complete the Command Phase of Germans." in page
    order = [
        page.index(t)
        for t in (
            "Command Phase: Germans",
            "Air &amp; Artillery Phase",
            "Action Phase: Germans",
            "Clean-up",
        )
    ]
    assert order == sorted(order)
    data = alice.get(f"{API}/operations/{op.pk}/").json()["phases"]
    assert [p["key"] for p in data["phases"]] == [
        f"command:{germans.pk}",
        f"command:{americans.pk}",
        "air_artillery",
        f"action:{germans.pk}",
        f"action:{americans.pk}",
        "clean_up",
    ]
    assert [p["status"] for p in data["phases"]] == ["now", "now", "next", "next", "next", "next"]
    tcs_phase_complete(phase=tcs_phase_open(side=germans, actor=user), actor=user)
    mine = alice.get(f"{API}/operations/{op.pk}/").json()["phases"]
    assert mine["phases"][0]["status"] == "done"
    assert mine["next_text"] == "Next: Americans completes its Command Phase."
    theirs = bob.get(f"{API}/operations/{op.pk}/").json()["phases"]
    assert theirs["next_text"] == "Next for you: complete the Command Phase of Americans."
    tcs_phase_complete(phase=tcs_phase_open(side=americans, actor=other_user), actor=other_user)
    done = bob.get(f"{API}/operations/{op.pk}/").json()["phases"]
    assert [p["status"] for p in done["phases"]] == ["done", "done", "now", "now", "now", "now"]
    assert "Air & Artillery" in done["next_text"]


def test_2_0_phases_in_set_up_and_bounded_queries(op, user, django_assert_max_num_queries):
    campaign = campaign_with_sides(op.pk)
    viewer = viewer_context(user, campaign)
    phases = tcs_turn_phases(campaign, viewer)
    assert {p.status for p in phases.phases} == {"next"} and "Set-up" in phases.next_text
    tcs_operation_start(campaign=op, actor=user)
    campaign = campaign_with_sides(op.pk)
    campaign.state  # noqa: B018 - fetched once, as the page does
    with django_assert_max_num_queries(1):
        phases = tcs_turn_phases(campaign, viewer)
    assert len(phases.phases) == 6


def test_17_1_d_recovery_on_the_whole_hour_is_listed_in_the_command_phase(user, other_user):
    op = bloody_110(user, other_user)
    op.state = {**op.state, "turn": {"number": 1, "minutes": 600, "light": "day"}}
    op.status = "active"
    op.save()
    viewer = viewer_context(user, op)
    steps = tcs_turn_phases(op, viewer).phases[0].steps
    assert any("17.1.d" in s for s in steps)
    op.state = {**op.state, "turn": {"number": 2, "minutes": 620, "light": "day"}}
    op.save()
    assert not any("17.1.d" in s for s in tcs_turn_phases(op, viewer).phases[0].steps)

"""Changing op sheets in play: adding units [6.13.c, 6.13.d], striking them [6.13.b], partial
success and failure [6.13.a, 6.11.d], and what a Prepared Defense does when it implements
[6.16.a, 21.1]. Digest cases T22, T26, T27 through services and pages."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import OpSheetRecord
from campaigns.services.tcs import (
    tcs_operation_start,
    tcs_phase_attempt,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_phase_weighted_turns,
    tcs_sheet_add_units,
    tcs_sheet_declare_success,
    tcs_sheet_draw,
    tcs_sheet_prepared_defense,
    tcs_sheet_strike_units,
)
from tests.web.test_tcs_pages import bloody_110, sides

pytestmark = pytest.mark.django_db

BN1 = ["1-123/1", "1-123/2", "1-123/3"]
BN2 = ["2-123/1", "2-123/2", "2-123/3"]
BN3 = ["3-123/1", "3-123/2", "3-123/3"]
HTMX = {"HX-Request": "true"}


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def _set_wt(sheet, wt):
    OpSheetRecord.objects.filter(pk=sheet.pk).update(state={**sheet.state, "weighted_turns": wt})
    sheet.refresh_from_db()


def _add_post(missions, **extra):
    return {"action": "add", **{f"m_{u}": m for u, m in missions.items()}, **extra}


def test_t22_6_13_d_adding_a_battalion_cuts_weighted_turns_27_to_18(client, op, user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="Regt", missions=dict.fromkeys(BN1 + BN2, "attack")
    )
    assert (sheet.state["raw_size"], sheet.state["size"]) == (2, 1)
    _set_wt(sheet, 27)
    tcs_phase_open(side=germans, actor=user)
    client.force_login(user)
    url = reverse("tcs-sheet-units", args=[op.pk, sheet.pk])
    page = client.get(url)
    assert page.status_code == 200 and "m_3-123/1" in page.text and "[6.13.d]" in page.text
    response = client.post(url, _add_post(dict.fromkeys(BN3, "attack")), follow=True)
    assert "27 → 18" in response.text
    sheet.refresh_from_db()
    assert (sheet.weighted_turns, sheet.state["raw_size"], sheet.state["size"]) == (18, 3, 2)
    entry = LogEntry.objects.get(campaign=op, rule="6.13.d", data__value=18)
    assert entry.private_to == germans and "27 × 2/3" in entry.summary


def test_6_13_units_are_added_only_in_the_command_phase_and_bad_input_changes_nothing(
    client, op, user
):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(side=germans, actor=user, code="A", missions={BN1[0]: "attack"})
    before = dict(sheet.state)
    with pytest.raises(ValidationError, match="Command Phase"):
        tcs_sheet_add_units(sheet=sheet, actor=user, missions={BN1[1]: "attack"})
    tcs_phase_open(side=germans, actor=user)
    client.force_login(user)
    url = reverse("tcs-sheet-units", args=[op.pk, sheet.pk])
    assert client.post(url, {"action": "add"}).status_code == 400  # no mission given
    junk = client.post(url, _add_post({BN1[1]: "charge"}))
    assert junk.status_code == 400
    unknown = client.post(url, _add_post({"nope/1": "attack"}))  # not offered: ignored
    assert unknown.status_code == 400
    assert client.post(url, {"action": "strike", "units": ["nope/1"]}).status_code == 400
    assert client.post(url, {"action": "bogus"}).status_code == 404
    sheet.refresh_from_db()
    assert sheet.state == before
    with pytest.raises(ValidationError, match=r"eliminated|Choose units"):
        tcs_sheet_add_units(sheet=sheet, actor=user, missions={"Sherman/1": "attack"})


def test_6_13_c_added_units_roll_their_own_command_prep_in_the_assistant(
    client, op, user, other_user
):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="A", missions={BN1[0]: "attack"}, pregame=True
    )
    tcs_operation_start(campaign=op, actor=user)
    phase = tcs_phase_open(side=germans, actor=user)
    client.force_login(user)
    url = reverse("tcs-sheet-units", args=[op.pk, sheet.pk])
    done = client.post(url, _add_post({BN2[0]: "attack"}), follow=True)
    assert "add1" in done.text and "[6.13.c]" in done.text
    sheet.refresh_from_db()
    addition = sheet.state["additions"][0]
    assert (addition["id"], addition["row"], addition["weighted_turns"]) == ("add1", "attack", 0)
    assert BN2[0] not in [e["unit"] for e in sheet.entries]  # not on the sheet until it passes
    command = reverse("tcs-command", args=[op.pk, germans.pk])
    ticked = client.post(command, {"action": "ticks"}, headers=HTMX)
    assert "A/add1 +" in ticked.text and 'name="addition_id" value="add1"' in ticked.text
    prefix = f"a{sheet.pk}xadd1"
    rolled = client.post(
        command,
        {
            "action": "attempt",
            "sheet_pk": sheet.pk,
            "addition_id": "add1",
            f"{prefix}-sheet": sheet.pk,
            f"{prefix}-mode": "full",
            f"{prefix}-dice": "entered",
            f"{prefix}-roll": "55",
            f"{prefix}-threshold": "33",
        },
        headers=HTMX,
    )
    assert "A/add1: rolled 55 — implemented" in rolled.text
    sheet.refresh_from_db()
    assert sheet.state["additions"][0]["status"] == "implemented"
    assert BN2[0] in [e["unit"] for e in sheet.entries if e["status"] == "active"]
    assert LogEntry.objects.filter(campaign=op, rule="6.13.c", private_to=germans).exists()
    with pytest.raises(ValidationError, match="already had"):
        tcs_phase_attempt(
            phase=phase,
            sheet=sheet,
            actor=user,
            roll=60,
            thresholds={"attack": 33},
            addition_id="add1",
        )


def test_6_13_c_vehicles_only_join_a_vehicle_sheet(client, op, user, other_user):
    _, americans = sides(op)
    sheet = tcs_sheet_draw(
        side=americans, actor=other_user, code="I", missions={"2-9/1": "attack"}, pregame=True
    )
    tcs_operation_start(campaign=op, actor=other_user)
    tcs_phase_open(side=americans, actor=other_user)
    client.force_login(other_user)
    response = client.post(
        reverse("tcs-sheet-units", args=[op.pk, sheet.pk]), _add_post({"Sherman/1": "attack"})
    )
    assert response.status_code == 400 and "[6.13.c]" in response.text
    sheet.refresh_from_db()
    assert sheet.state["additions"] == []


def test_6_13_b_striking_keeps_size_and_weighted_turns(client, op, user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="Regt", missions=dict.fromkeys(BN1 + BN2, "attack")
    )
    _set_wt(sheet, 9)
    tcs_phase_open(side=germans, actor=user)
    client.force_login(user)
    url = reverse("tcs-sheet-units", args=[op.pk, sheet.pk])
    client.post(url, {"action": "strike", "units": BN2}, follow=True)
    sheet.refresh_from_db()
    assert (sheet.weighted_turns, sheet.state["size"], sheet.state["raw_size"]) == (9, 1, 2)
    struck = [e["unit"] for e in sheet.entries if e["status"] == "struck"]
    assert struck == BN2
    assert LogEntry.objects.get(campaign=op, rule="6.13.b").private_to == germans
    with pytest.raises(ValidationError, match=r"6\.13\.b"):  # a second click: nothing more
        tcs_sheet_strike_units(sheet=sheet, actor=user, units=BN2[:1])


def test_6_13_a_partial_success_in_the_command_phase(client, op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="A", missions=dict.fromkeys(BN1, "attack"), pregame=True
    )
    tcs_operation_start(campaign=op, actor=user)
    tcs_phase_open(side=germans, actor=user)
    client.force_login(user)
    response = client.post(
        reverse("tcs-command", args=[op.pk, germans.pk]),
        {
            "action": "success",
            "sheet_pk": sheet.pk,
            f"s{sheet.pk}-sheet": sheet.pk,
            f"s{sheet.pk}-units": BN1[:2],
        },
        headers=HTMX,
    )
    assert "Success declared for 1-123/1, 1-123/2" in response.text
    sheet.refresh_from_db()
    assert sheet.status == "implemented"
    assert [e["status"] for e in sheet.entries] == ["succeeded", "succeeded", "active"]
    assert LogEntry.objects.filter(campaign=op, rule="6.13.a", private_to=germans).exists()
    bad = client.post(
        reverse("tcs-command", args=[op.pk, germans.pk]),
        {
            "action": "success",
            "sheet_pk": sheet.pk,
            f"s{sheet.pk}-sheet": sheet.pk,
            f"s{sheet.pk}-units": ["1-123/1"],  # already succeeded: no longer offered
        },
        headers=HTMX,
    )
    assert bad.status_code == 200 and "not one of the available choices" in bad.text


def test_6_11_d_partial_failure_from_the_sheet_page(client, op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="A", missions=dict.fromkeys(BN1, "attack"), pregame=True
    )
    tcs_operation_start(campaign=op, actor=user)
    tcs_phase_complete(phase=tcs_phase_open(side=germans, actor=user), actor=user)
    client.force_login(user)
    url = reverse("tcs-sheet-fail", args=[op.pk, sheet.pk])
    client.post(url, {"confirm": "on", "units": [BN1[0]]})
    sheet.refresh_from_db()
    assert sheet.status == "implemented"
    assert [e["status"] for e in sheet.entries] == ["failed", "active", "active"]
    assert LogEntry.objects.filter(campaign=op, rule="6.11.d", private_to=germans).exists()
    client.post(url, {"confirm": "on", "units": ["nope"]})  # not on it: nothing happens
    client.post(url, {"confirm": "on"})
    sheet.refresh_from_db()
    assert sheet.status == "failed"


def test_t26_t27_6_16_a_21_1_prepared_defense_digs_in_units_in_fire_mode(client, op, user):
    germans, _ = sides(op)
    platoons = BN1 + BN2[:2]
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="PD",
        missions=dict.fromkeys(platoons, "prepared_defense"),
        pregame=True,
    )
    client.force_login(user)
    page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk]))
    assert "Prepared Defense implemented" in page.text and 'name="pd-fire_mode"' in page.text
    url = reverse("tcs-sheet-defense", args=[op.pk, sheet.pk])
    response = client.post(url, {"pd-addition": "", "pd-fire_mode": platoons[:3]}, follow=True)
    assert "Minefields to place now: 2" in response.text
    sheet.refresh_from_db()
    assert sheet.prepared_defense[0]["dug_in"] == platoons[:3]
    assert sheet.prepared_defense[0]["not_dug_in"] == platoons[3:]
    assert LogEntry.objects.get(campaign=op, rule="21.1", data__value=2).private_to == germans
    again = client.post(url, {"pd-addition": "", "pd-fire_mode": platoons}, follow=True)
    assert "Nothing to record" in again.text
    with pytest.raises(ValidationError, match="already recorded"):
        tcs_sheet_prepared_defense(sheet=sheet, actor=user, fire_mode=platoons)
    sheet.refresh_from_db()
    assert len(sheet.prepared_defense) == 1


def test_6_16_only_an_implemented_prepared_defense_sheet(op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="A", missions={BN1[0]: "attack"}, pregame=True
    )
    with pytest.raises(ValidationError, match=r"\[6\.16\]"):
        tcs_sheet_prepared_defense(sheet=sheet, actor=user, fire_mode=[BN1[0]])
    with pytest.raises(ValidationError):
        tcs_sheet_prepared_defense(sheet=sheet, actor=user, fire_mode=["not-on-it"])


def test_partial_success_leaves_the_other_units_on_the_sheet_service(op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="A", missions=dict.fromkeys(BN1, "attack"), pregame=True
    )
    tcs_operation_start(campaign=op, actor=user)
    phase = tcs_phase_open(side=germans, actor=user)
    tcs_phase_weighted_turns(phase=phase, actor=user)
    with pytest.raises(ValidationError) as err:
        tcs_sheet_declare_success(phase=phase, sheet=sheet, actor=user, units=["2-123/1"])
    assert "units" in err.value.message_dict and "[6.13.a]" in str(err.value)

"""Every TCS API operation (campaigns/api/tcs/): its success, a 400 whose body names the
problem, 403/404 for the other side and for strangers, and nothing private reaching the
other side through an answer or an error message.

Set-up data comes from the page tests' helpers (services); every request under test goes
through the API.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from campaigns.models import Campaign
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsDecision, TcsFormation, TcsUnit
from campaigns.services.tcs import (
    tcs_losses_record,
    tcs_operation_start,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_sheet_draw,
    tcs_turn_advance,
)
from tests.web.test_tcs_pages import (
    GERMAN_CSV,
    GERMAN_REGIMENT,
    SEED_CELLS,
    sides,
)
from tests.web.upload_helpers import png_upload

pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"
SECRET = "Strike at dawn through the orchard"
J = {"format": "json"}

pytest_plugins = ["tests.web.tcs_api_fixtures"]


@pytest.fixture
def carol(make_user):
    api = APIClient()
    api.force_authenticate(make_user("carol"))
    return api


@pytest.fixture
def secret(op, user):
    """A German sheet drawn during set-up (implemented), with secret texts."""
    germans, _ = sides(op)
    return tcs_sheet_draw(
        side=germans,
        actor=user,
        code="Orchard",
        missions={"1-123/1": "attack", "1-123/2": "attack"},
        reserves=["1-123/3"],
        alternatives={"north": ["1-123/2"]},
        texts={"task_organization": SECRET, "alternatives_text": "north: 1-123/2"},
    )


def messages(response) -> str:
    """Every message of a refusal, flattened; a refusal always has one."""
    body = response.json()
    assert body, f"{response.status_code} with an empty body"
    flat = json.dumps(body, ensure_ascii=False)
    assert len(flat) > 4
    return flat


def refused(response, code: int, text: str = "") -> str:
    assert response.status_code == code, (response.status_code, response.content)
    found = messages(response)
    assert text in found, found
    return found


def unit_pk(code: str) -> int:
    return TcsUnit.objects.get(code=code).pk


def formation_pk(code: str) -> int:
    return TcsFormation.objects.get(code=code).pk


def started(op, user):
    tcs_operation_start(campaign=op, actor=user)
    op.refresh_from_db()
    return op


# --- operations -----------------------------------------------------------------------------


CREATE = {
    "name": "Omaha",
    "side_a": "Germans",
    "rating_a": 4,
    "side_b": "Americans",
    "rating_b": 3,
    "start_clock": "0620",
    "light": "dawn",
    "role": "1",
    "visibility": "private",
}


def test_create_an_operation(alice):
    response = alice.post(f"{API}/operations/", CREATE, **J)
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "setup" and body["turn"]["clock"] == "0620"
    assert [s["rating"] for s in body["sides"]] == [4, 3]
    assert [s["can_act"] for s in body["sides"]] == [False, True]


@pytest.mark.parametrize(
    ("field", "value", "text"),
    [
        ("rating_a", 13, "less than or equal to 12"),
        ("start_clock", "25:00", "between 0000 and 2359"),
        ("role", "umpire", "role"),
        ("side_b", "", "required"),
    ],
)
def test_create_refusals_name_the_field(alice, field, value, text):
    refused(alice.post(f"{API}/operations/", {**CREATE, field: value}, **J), 400, text)
    assert not Campaign.objects.filter(system="tcs").exists()


def test_create_needs_a_login_and_an_object():
    assert APIClient().post(f"{API}/operations/", CREATE, **J).status_code in (401, 403)


def test_malformed_bodies_are_400_not_500(alice, op):
    refused(alice.post(f"{API}/operations/", [1, 2], **J), 400, "JSON object")
    refused(alice.post(f"{API}/operations/", "{not json", content_type="application/json"), 400)
    germans, _ = sides(op)
    refused(alice.patch(f"{API}/sides/{germans.pk}/", [1], **J), 400)
    refused(alice.post(f"{API}/op-sheets/", {"side": germans.pk, "missions": [1]}, **J), 400)
    assert alice.get(f"{API}/operations/abc/").status_code == 404
    assert alice.get(f"{API}/sides/abc/").status_code == 404


def test_operation_detail_says_what_it_waits_for_without_the_other_sides_codes(
    op, secret, alice, bob, carol, other_user
):
    tcs_sheet_draw(
        side=sides(op)[0],
        actor=op.sides.first().players.first(),
        code="Hidden",
        missions={"2-123/1": "move"},
    )
    OpSheetRecord.objects.filter(code="Hidden").update(
        state={**OpSheetRecord.objects.get(code="Hidden").state, "status": "unimplemented"}
    )
    mine = alice.get(f"{API}/operations/{op.pk}/").json()
    theirs = bob.get(f"{API}/operations/{op.pk}/").json()
    assert "Hidden" in json.dumps(mine) and "Orchard" in json.dumps(mine)
    assert "Hidden" not in json.dumps(theirs) and SECRET not in json.dumps(theirs)
    assert "Orchard" not in json.dumps(theirs)
    assert any("1 unimplemented op sheet" in w["what"] for w in theirs["waiting"])
    assert carol.get(f"{API}/operations/{op.pk}/").status_code == 404


def test_start_next_turn_and_their_refusals(op, alice, bob, carol):
    refused(carol.post(f"{API}/operations/{op.pk}/start/"), 404)
    assert bob.post(f"{API}/operations/{op.pk}/start/").json()["status"] == "active"
    again = refused(bob.post(f"{API}/operations/{op.pk}/start/"), 400)
    assert "already" in again or "started" in again or "setup" in again.lower()
    refused(alice.post(f"{API}/operations/{op.pk}/next-turn/", {"light": "noon"}, **J), 400)
    blocked = alice.post(
        f"{API}/operations/{op.pk}/next-turn/", {"light": "day", "expected_turn": 1}, **J
    )
    refused(blocked, 400, "Command Phase")


def test_a_public_operation_is_readable_but_not_playable_by_strangers(op, carol):
    Campaign.objects.filter(pk=op.pk).update(visibility=Campaign.Visibility.PUBLIC)
    assert carol.get(f"{API}/operations/{op.pk}/").status_code == 200
    refused(carol.post(f"{API}/operations/{op.pk}/start/"), 403, "players or game master")
    refused(carol.post(f"{API}/operations/{op.pk}/end/", {"confirm": True}, **J), 403)
    germans, _ = sides(op)
    assert carol.get(f"{API}/sides/{germans.pk}/").status_code == 404


def test_end_needs_confirmation_agreement_and_withdrawal(op, user, alice, bob, carol):
    started(op, user)
    refused(bob.post(f"{API}/operations/{op.pk}/end/", {}, **J), 400, "Tick the box")
    refused(carol.post(f"{API}/operations/{op.pk}/end/withdraw/"), 404)
    agreed = bob.post(f"{API}/operations/{op.pk}/end/", {"confirm": True}, **J).json()
    assert agreed["status"] == "active" and len(agreed["end_agreed"]) == 1
    assert bob.post(f"{API}/operations/{op.pk}/end/withdraw/").json()["end_agreed"] == []
    over = alice.post(f"{API}/operations/{op.pk}/end/", {"confirm": "true"}, **J).json()
    assert over["status"] == "finished"
    refused(alice.post(f"{API}/operations/{op.pk}/start/"), 400, "over")


def test_readings_read_by_players_changed_by_the_organiser(op, alice, bob, carol):
    url = f"{API}/operations/{op.pk}/readings/"
    rows = bob.get(url).json()
    assert rows["can_change"] is False and len(rows["readings"]) >= 5
    refused(bob.patch(url, {"day_turn_minutes": 30}, **J), 403)
    refused(carol.get(url), 404)
    refused(alice.patch(url, {"day_turn_minutes": 0}, **J), 400, "day_turn_minutes")
    refused(alice.patch(url, {"carried_rounding": "sideways"}, **J), 400, "carried_rounding")
    done = alice.patch(url, {"values": {"day_turn_minutes": 30, "key_off_table": "error"}}, **J)
    assert done.status_code == 200
    values = {r["name"]: r["is_default"] for r in done.json()["readings"]}
    assert values["day_turn_minutes"] is False and values["key_off_table"] is False
    assert values["carried_rounding"] is True
    flags = alice.patch(url, {"reserves_count_as_attack": True}, **J)
    assert flags.status_code == 200


def test_timeline_and_export_keep_the_other_sides_secrets(op, secret, bob):
    timeline = bob.get(f"{API}/operations/{op.pk}/timeline/").json()
    assert "Orchard" not in json.dumps(timeline)
    export = bob.get(f"{API}/operations/{op.pk}/export/")
    assert export.status_code == 200 and SECRET not in export.text
    assert "1-123" not in export.text


# --- sides ----------------------------------------------------------------------------------


def test_side_detail_is_private_to_the_side(op, alice, bob, carol):
    germans, americans = sides(op)
    mine = alice.get(f"{API}/sides/{germans.pk}/").json()
    assert {f["code"] for f in mine["formations"]} >= {"1-123", "123-HW"}
    assert bob.get(f"{API}/sides/{germans.pk}/").status_code == 404
    assert carol.get(f"{API}/sides/{americans.pk}/").status_code == 404
    assert alice.get(f"{API}/sides/999999/").status_code == 404


def test_side_settings(op, alice, bob):
    germans, _ = sides(op)
    url = f"{API}/sides/{germans.pk}/"
    bad = [{"type": "attack", "columns": [28, 22], "rows": {"5": [52, 45]}}]
    refused(
        alice.patch(url, {"rating": 3, "prep_table": bad}, **J),
        400,
        "the column headings go up from 0",
    )
    refused(alice.patch(url, {"rating": 3, "prep_table": "[{"}, **J), 400, "not valid JSON")
    refused(alice.patch(url, {"rating": 14}, **J), 400, "rating")
    refused(bob.patch(url, {"rating": 3}, **J), 404)
    done = alice.patch(url, {"rating": 2, "prep_table": SEED_CELLS}, **J).json()
    assert done["side"]["rating"] == 2 and done["side"]["prep_table"] == SEED_CELLS
    form = alice.patch(url, {"rating": "2", "prep_table": json.dumps(SEED_CELLS)})
    assert form.status_code == 200


def test_formations_units_and_csv(op, alice, bob):
    germans, americans = sides(op)
    url = f"{API}/sides/{germans.pk}"
    ok = alice.post(
        f"{url}/formations/",
        {"code": "4-123", "morale": "battalion", "is_battalion": True, "start_value": 1},
        **J,
    )
    assert ok.status_code == 201
    refused(alice.post(f"{url}/formations/", {"code": "4-123", "morale": "battalion"}, **J), 400)
    refused(alice.post(f"{url}/formations/", {"code": "X", "morale": "elan"}, **J), 400, "morale")
    refused(bob.post(f"{url}/formations/", {"code": "Y", "morale": "none"}, **J), 404)
    unit = {"code": "4-123/1", "formation": formation_pk("4-123"), "category": "infantry"}
    assert alice.post(f"{url}/units/", {**unit, "steps": 4}, **J).status_code == 201
    refused(alice.post(f"{url}/units/", {**unit, "code": "Z", "steps": 0}, **J), 400, "steps")
    other = {**unit, "code": "Z", "steps": 2, "formation": formation_pk("2-9")}
    refused(alice.post(f"{url}/units/", other, **J), 400, "formation")
    refused(alice.post(f"{url}/oob-csv/", {}, **J), 400, "Choose a CSV file")
    refused(alice.post(f"{url}/oob-csv/", {"csv": "a,b\n1,2\n"}, **J), 400, "csv")
    csv = "type,id,name,formation,category,steps,morale,battalion,track\nunit,P/1,,,infantry,2,,,\n"
    upload = SimpleUploadedFile("p.csv", csv.encode(), content_type="text/csv")
    assert (
        alice.post(f"{url}/oob-csv/", {"csv_file": upload}, format="multipart").status_code == 201
    )
    refused(bob.post(f"{url}/oob-csv/", {"csv": GERMAN_CSV}, **J), 404)
    assert TcsUnit.objects.filter(code="P/1", side=germans).exists()
    assert not TcsFormation.objects.filter(code="Y").exists()
    assert americans.tcs_units.count() == 5


def test_seats_join_and_invite(user, alice, carol, make_user):
    created = alice.post(f"{API}/operations/", {**CREATE, "visibility": "public"}, **J).json()
    first, second = (s["id"] for s in created["sides"])
    refused(carol.post(f"{API}/sides/{second}/join/"), 400, "already has a player")
    joined = carol.post(f"{API}/sides/{first}/join/").json()
    assert joined["sides"][0]["players"] == ["carol"]
    make_user("dave")
    refused(carol.post(f"{API}/sides/{first}/seat/", {"username": "dave"}, **J), 400)
    refused(alice.post(f"{API}/sides/{first}/seat/", {"username": "nobody"}, **J), 400, "nobody")
    refused(alice.post(f"{API}/sides/999999/seat/", {"username": "dave"}, **J), 404)


# --- op sheets ------------------------------------------------------------------------------


def draw(client, side, **extra):
    return client.post(f"{API}/op-sheets/", {"side": side.pk, "code": "N1", **extra}, **J)


def test_draw_a_sheet_with_a_graphic_and_its_refusals(op, alice, bob, carol):
    germans, _ = sides(op)
    png = png_upload("m.png")
    done = alice.post(
        f"{API}/op-sheets/",
        {"side": germans.pk, "code": "G", "m_1-123/1": "attack", "graphic": png},
        format="multipart",
    )
    assert done.status_code == 201 and done.json()["sheet"]["has_graphic"]
    sheet_id = done.json()["sheet"]["id"]
    assert alice.get(f"{API}/op-sheets/{sheet_id}/graphic/").status_code == 200
    assert bob.get(f"{API}/op-sheets/{sheet_id}/graphic/").status_code == 404
    refused(draw(alice, germans), 400, "at least one unit a mission")
    refused(draw(alice, germans, missions={"1-123/1": "charge"}), 400, "m_1-123/1")
    refused(draw(bob, germans, missions={"1-123/1": "attack"}), 404)
    refused(draw(carol, germans, missions={"1-123/1": "attack"}), 404)
    refused(alice.post(f"{API}/op-sheets/", {"code": "x"}, **J), 400, "side")
    exe = SimpleUploadedFile("m.exe", b"MZ\0\0", content_type="application/octet-stream")
    bad = alice.post(
        f"{API}/op-sheets/",
        {"side": germans.pk, "code": "H", "m_1-123/2": "move", "graphic": exe},
        format="multipart",
    )
    refused(bad, 400, "graphic")
    refused(
        draw(alice, germans, missions={"1-123/1": "move"}, alternatives_text="north"),
        400,
        "name: unit ids",
    )


def test_edit_delete_and_reveal(op, secret, user, alice, bob):
    url = f"{API}/op-sheets/{secret.pk}/"
    assert bob.get(url).status_code == 404
    refused(bob.patch(url, {"written_notes": "x"}, **J), 404)
    refused(bob.delete(url), 404)
    refused(bob.post(f"{url}reveal/"), 404)
    edited = alice.patch(url, {"written_notes": "via the sunken lane"}, **J).json()
    assert edited["sheet"]["written_notes"] == "via the sunken lane"
    assert edited["sheet"]["task_organization"] == SECRET  # the other texts stay
    refused(alice.patch(url, {"alternatives_text": "oops"}, **J), 400, "name: unit ids")
    shown = alice.post(f"{url}reveal/").json()
    assert shown["sheet"]["revealed"]
    assert bob.get(url).json()["task_organization"] == SECRET
    refused(bob.patch(url, {"written_notes": "x"}, **J), 403)  # visible, not theirs
    started(op, user)
    refused(alice.delete(url), 400, "never took effect")
    fresh = tcs_sheet_draw(
        side=sides(op)[0], actor=user, code="Fresh", missions={"2-123/1": "move"}
    )
    gone = alice.delete(f"{API}/op-sheets/{fresh.pk}/")
    assert gone.status_code == 200 and "Fresh" in gone.json()["detail"]
    assert not OpSheetRecord.objects.filter(pk=fresh.pk).exists()


def test_fail_succeed_and_prepared_defense(op, secret, user, alice, bob):
    url = f"{API}/op-sheets/{secret.pk}/"
    refused(bob.post(f"{url}fail/", {"confirm": True}, **J), 404)
    refused(alice.post(f"{url}fail/", {}, **J), 400, "Tick the box")
    refused(alice.post(f"{url}fail/", {"units": ["2-9/1"], "confirm": True}, **J), 400, "units")
    refused(alice.post(f"{url}prepared-defense/", {}, **J), 400, "Nothing to record")
    started(op, user)
    refused(alice.post(f"{url}succeed/", {}, **J), 400, "Open this turn's Command Phase")
    phase = tcs_phase_open(side=sides(op)[0], actor=user)
    refused(alice.post(f"{url}fail/", {"confirm": True}, **J), 400, "Action Phase")
    done = alice.post(f"{url}succeed/", {"units": ["1-123/1"]}, **J)
    assert done.status_code == 200
    assert alice.post(phase_url(phase.pk, "complete")).status_code == 200
    failed = alice.post(f"{url}fail/", {"confirm": True}, **J).json()
    assert failed["sheet"]["state"]["status"] == "failed"


def test_prepared_defense_records_who_dug_in(op, user, alice):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="PD", missions={"3-123/1": "prepared_defense"}
    )
    url = f"{API}/op-sheets/{sheet.pk}/prepared-defense/"
    refused(alice.post(url, {"fire_mode": ["1-123/1"]}, **J), 400, "fire_mode")
    done = alice.post(url, {"fire_mode": ["3-123/1"]}, **J).json()
    assert "3-123/1" in done["detail"] and done["result"]["dug_in"] == ["3-123/1"]


def test_add_and_strike_units(op, user, alice, bob):
    germans, _ = sides(op)
    started(op, user)
    sheet = tcs_sheet_draw(side=germans, actor=user, code="R", missions={"2-123/1": "attack"})
    url = f"{API}/op-sheets/{sheet.pk}/units/"
    refused(
        alice.post(url, {"action": "add", "missions": {"2-123/2": "attack"}}, **J), 400, "step 5"
    )
    tcs_phase_open(side=germans, actor=user)
    refused(alice.post(url, {"action": "dance"}, **J), 400, "add or strike")
    refused(alice.post(url, {"action": "add"}, **J), 400, "at least one unit a mission")
    refused(alice.post(url, {"action": "add", "missions": {"2-9/1": "attack"}}, **J), 400)
    added = alice.post(url, {"action": "add", "missions": {"2-123/2": "attack"}}, **J).json()
    assert {e["unit"] for e in added["sheet"]["state"]["entries"]} == {"2-123/1", "2-123/2"}
    refused(alice.post(url, {"action": "strike"}, **J), 400, "units")
    struck = alice.post(url, {"action": "strike", "units": ["2-123/2"]}, **J)
    assert struck.status_code == 200
    refused(bob.post(url, {"action": "strike", "units": ["2-123/1"]}, **J), 404)


# --- the Command Phase ------------------------------------------------------------------------


@pytest.fixture
def playing(op, secret, user):
    """In play: the Germans (rated 3, no table) have the implemented Orchard sheet with a
    reserve and an alternative, and an attack sheet in Command Prep."""
    started(op, user)
    prep = tcs_sheet_draw(
        side=sides(op)[0],
        actor=user,
        code="Regt",
        missions=dict.fromkeys(GERMAN_REGIMENT[3:], "attack"),
    )
    return op, prep


def phase_url(pk, step=""):
    return f"{API}/command-phases/{pk}/{step + '/' if step else ''}"


def test_open_phase_and_its_privacy(playing, alice, bob, carol):
    op, _prep = playing
    germans, americans = sides(op)
    refused(bob.post(f"{API}/command-phases/", {"side": germans.pk}, **J), 404)
    refused(carol.post(f"{API}/command-phases/", {"side": germans.pk}, **J), 404)
    refused(alice.post(f"{API}/command-phases/", {}, **J), 400, "side")
    opened = alice.post(f"{API}/command-phases/", {"side": germans.pk}, **J)
    assert opened.status_code == 201
    pk = opened.json()["phase"]["id"]
    assert "add the weighted turns" in json.dumps(opened.json()["phase"]["blockers"])
    assert bob.get(phase_url(pk)).status_code == 404
    refused(bob.post(phase_url(pk, "complete")), 404)
    listed = bob.get(f"{API}/command-phases/?campaign={op.pk}").json()["results"]
    assert all("steps" not in p for p in listed)  # the list says only which were played
    # the Americans' own phase is theirs to open
    assert bob.post(f"{API}/command-phases/", {"side": americans.pk}, **J).status_code == 201


def test_weighted_turns_attempts_and_completion(playing, user, alice):
    op, prep = playing
    germans, _ = sides(op)
    pk = alice.post(f"{API}/command-phases/", {"side": germans.pk}, **J).json()["phase"]["id"]
    refused(alice.post(phase_url(pk, "complete")), 400, "weighted turns")
    body = {"sheet": prep.pk, "mode": "full", "threshold": "45", "dice": "entered", "roll": "52"}
    refused(alice.post(phase_url(pk, "attempt"), body, **J), 400, "weighted turns first")
    refused(alice.post(phase_url(pk, "weighted-turns"), {"fired": [999999]}, **J), 400, "fired")
    ticked = alice.post(phase_url(pk, "weighted-turns"), {"fired": [prep.pk]}, **J).json()
    assert ticked["result"] == {"Regt": ticked["result"]["Regt"]} and ticked["result"]["Regt"] > 0
    refused(alice.post(phase_url(pk, "attempt"), {**body, "roll": "17"}, **J), 400, "11 to 66")
    refused(alice.post(phase_url(pk, "attempt"), {**body, "roll": ""}, **J), 400, "Enter what you")
    no_threshold = {"sheet": prep.pk, "mode": "full", "dice": "server"}
    refused(alice.post(phase_url(pk, "attempt"), no_threshold, **J), 400, "Command Prep Table")
    other = OpSheetRecord.objects.create(
        campaign=op, side=sides(op)[1], code="Theirs", state=prep.state
    )
    refused(
        alice.post(phase_url(pk, "attempt"), {**body, "sheet": other.pk}, **J), 400, "this side"
    )
    done = alice.post(phase_url(pk, "attempt"), body, **J).json()
    assert done["result"] == {"outcome": "implemented", "roll": 52}
    refused(alice.post(phase_url(pk, "attempt"), body, **J), 400, "already had")
    completed = alice.post(phase_url(pk, "complete")).json()
    assert completed["phase"]["status"] == "completed"
    assert alice.post(phase_url(pk, "complete")).status_code == 200  # idempotent


def test_reserves_alternatives_and_check_rolls(playing, secret, alice):
    op, _prep = playing
    germans, _ = sides(op)
    pk = alice.post(f"{API}/command-phases/", {"side": germans.pk}, **J).json()["phase"]["id"]
    refused(
        alice.post(phase_url(pk, "commit-reserves"), {"sheet": secret.pk, "units": ["x"]}, **J),
        400,
        "units",
    )
    committed = alice.post(
        phase_url(pk, "commit-reserves"),
        {"sheet": secret.pk, "units": ["1-123/3"], "order": "attack"},
        **J,
    ).json()
    group = committed["result"]["group"]
    refused(
        alice.post(phase_url(pk, "alternative"), {"sheet": secret.pk, "alternative": "z"}, **J),
        400,
        "alternative",
    )
    chosen = alice.post(
        phase_url(pk, "alternative"), {"sheet": secret.pk, "alternative": "north"}, **J
    ).json()
    check = {"sheet": secret.pk, "group": group, "dice": "entered", "roll": "9"}
    refused(alice.post(phase_url(pk, "check-roll"), check, **J), 400, "roll")
    refused(
        alice.post(phase_url(pk, "check-roll"), {**check, "group": "nope", "roll": "5"}, **J), 400
    )
    passed = alice.post(phase_url(pk, "check-roll"), {**check, "roll": "5"}, **J).json()
    assert passed["result"] == {"passed": True}
    alt = {**check, "group": chosen["result"]["group"], "roll": "1"}
    assert alice.post(phase_url(pk, "check-roll"), alt, **J).json()["result"] == {"passed": False}


def to_turn_2(op, user, other_user):
    """Play turn 1 with nothing to do: turn 2 starts at 1000, a whole hour [2.0]."""
    started(op, user)
    for side, actor in zip(sides(op), (user, other_user), strict=True):
        tcs_phase_complete(phase=tcs_phase_open(side=side, actor=actor), actor=actor)
    tcs_turn_advance(campaign=op, actor=user, light="day")
    op.refresh_from_db()
    return op


def test_recovery_on_the_hour(op, user, other_user, alice):
    op = to_turn_2(op, user, other_user)
    assert alice.get(f"{API}/operations/{op.pk}/").json()["turn"]["clock"] == "1000"
    germans, _ = sides(op)
    TcsFormation.objects.filter(code="1-123").update(
        state={"battalion": "1-123", "value": 2, "other_losses": 0}
    )
    pk = tcs_phase_open(side=germans, actor=user).pk
    refused(alice.post(phase_url(pk, "complete")), 400, "roll morale recovery")
    refused(alice.post(phase_url(pk, "recovery"), {"dice": "entered"}, **J), 400, "roll_")
    refused(alice.post(phase_url(pk, "recovery"), {"dice": "entered", "rolls": [1]}, **J), 400)
    bad = {"dice": "entered", "rolls": {str(formation_pk("1-123")): 7}}
    refused(alice.post(phase_url(pk, "recovery"), bad, **J), 400)
    good = {"dice": "entered", "rolls": {str(formation_pk("1-123")): 2}}
    done = alice.post(phase_url(pk, "recovery"), good, **J).json()
    assert done["result"] == {"1-123": [2, 1]}
    refused(alice.post(phase_url(pk, "recovery"), good, **J), 400, "already")
    assert alice.post(phase_url(pk, "complete")).json()["phase"]["status"] == "completed"


def test_an_earlier_turns_phase_takes_no_step(op, user, other_user, alice):
    op = to_turn_2(op, user, other_user)
    phase = CommandPhase.objects.get(side=sides(op)[0], turn=1)
    refused(alice.post(phase_url(phase.pk, "complete")), 400, "earlier turn")
    refused(alice.post(phase_url(phase.pk, "weighted-turns")), 400, "earlier turn")


# --- losses, steps given back, morale corrections, the opponent's choice -----------------------


def test_losses(op, user, alice, bob, carol):
    started(op, user)
    url = f"{API}/losses/"
    refused(bob.post(url, {"unit": unit_pk("1-123/1"), "steps": 1}, **J), 404)
    refused(carol.post(url, {"unit": unit_pk("1-123/1"), "steps": 1}, **J), 404)
    refused(alice.post(url, {"steps": 1}, **J), 400, "unit")
    refused(alice.post(url, {"unit": unit_pk("1-123/1"), "steps": 0}, **J), 400, "steps")
    refused(alice.post(url, {"unit": "x", "steps": 1}, **J), 404)
    done = alice.post(url, {"unit": unit_pk("1-123/1"), "steps": 2, "combat": True}, **J)
    assert done.status_code == 201 and done.json()["unit"]["steps_lost"] == 2
    tank = {"unit": unit_pk("Sherman/1"), "steps": 2, "combat": True, "dice": "entered"}
    refused(bob.post(url, {**tank, "rolls": "9"}, **J), 400, "rolls")
    refused(bob.post(url, tank, **J), 400)
    assert bob.post(url, {**tank, "rolls": "5"}, **J).json()["result"]["checks"] == [5]


def test_restore_and_morale_correction(op, user, alice, bob):
    started(op, user)
    unit = TcsUnit.objects.get(code="1-123/1")
    url = f"{API}/units/{unit.pk}/restore/"
    refused(alice.post(url, {"steps": 1, "reason": "x"}, **J), 400, "steps")  # nothing lost
    tcs_losses_record(unit=unit, actor=user, steps=2)
    refused(alice.post(url, {"steps": 1}, **J), 400, "reason")
    refused(alice.post(url, {"steps": 3, "reason": "x"}, **J), 400, "steps")
    refused(bob.post(url, {"steps": 1, "reason": "x"}, **J), 404)
    done = alice.post(url, {"steps": 1, "reason": "a suppression, not a loss"}, **J).json()
    assert done["unit"]["steps_lost"] == 1 and "Steps given back" in done["detail"]
    fix = f"{API}/formations/{formation_pk('1-123')}/morale-correction/"
    refused(alice.post(fix, {"value": 2}, **J), 400, "reason")
    refused(alice.post(fix, {"value": -1, "reason": "x"}, **J), 400, "value")
    refused(bob.post(fix, {"value": 2, "reason": "x"}, **J), 404)
    none = f"{API}/formations/{formation_pk('123-HW')}/morale-correction/"
    refused(alice.post(none, {"value": 2, "reason": "x"}, **J), 400, "keeps no morale")
    done = alice.post(fix, {"value": 2, "reason": "recount"}, **J).json()
    assert done["formation"]["state"]["value"] == 2


def test_the_opponents_choice(op, user, alice, bob, carol):
    started(op, user)
    tcs_losses_record(
        unit=TcsUnit.objects.get(code="123-HW/1"), actor=user, steps=2, nearest=["1-123", "2-123"]
    )
    decision = TcsDecision.objects.get()
    assert alice.get(f"{API}/decisions/").json()["count"] == 0
    listed = bob.get(f"{API}/decisions/?campaign={op.pk}").json()["results"]
    assert [d["options"] for d in listed] == [["1-123", "2-123"]]
    assert "value" not in json.dumps(listed)  # never the battalions' morale
    url = f"{API}/decisions/{decision.pk}/resolve/"
    refused(alice.post(url, {"choice": "1-123"}, **J), 404)
    refused(carol.post(url, {"choice": "1-123"}, **J), 404)
    refused(bob.post(url, {"choice": "3-123"}, **J), 400, "choice")
    done = bob.post(url, {"choice": "2-123"}, **J).json()
    assert done["status"] != "open" and done["choice"] == "2-123"
    refused(bob.post(url, {"choice": "2-123"}, **J), 404)  # no longer open


# --- the schema -------------------------------------------------------------------------------

OPERATIONS = {
    ("post", "/api/v1/tcs/operations/"),
    ("get", "/api/v1/tcs/operations/{id}/"),
    ("post", "/api/v1/tcs/operations/{id}/start/"),
    ("post", "/api/v1/tcs/operations/{id}/next-turn/"),
    ("post", "/api/v1/tcs/operations/{id}/end/"),
    ("post", "/api/v1/tcs/operations/{id}/end/withdraw/"),
    ("get", "/api/v1/tcs/operations/{id}/readings/"),
    ("patch", "/api/v1/tcs/operations/{id}/readings/"),
    ("get", "/api/v1/tcs/operations/{id}/timeline/"),
    ("get", "/api/v1/tcs/operations/{id}/export/"),
    ("get", "/api/v1/tcs/sides/{id}/"),
    ("patch", "/api/v1/tcs/sides/{id}/"),
    ("post", "/api/v1/tcs/sides/{id}/formations/"),
    ("post", "/api/v1/tcs/sides/{id}/units/"),
    ("post", "/api/v1/tcs/sides/{id}/oob-csv/"),
    ("post", "/api/v1/tcs/sides/{id}/join/"),
    ("post", "/api/v1/tcs/sides/{id}/seat/"),
    ("post", "/api/v1/tcs/op-sheets/"),
    ("patch", "/api/v1/tcs/op-sheets/{id}/"),
    ("delete", "/api/v1/tcs/op-sheets/{id}/"),
    ("post", "/api/v1/tcs/op-sheets/{id}/reveal/"),
    ("post", "/api/v1/tcs/op-sheets/{id}/fail/"),
    ("post", "/api/v1/tcs/op-sheets/{id}/succeed/"),
    ("post", "/api/v1/tcs/op-sheets/{id}/prepared-defense/"),
    ("post", "/api/v1/tcs/op-sheets/{id}/units/"),
    ("get", "/api/v1/tcs/op-sheets/{id}/graphic/"),
    ("post", "/api/v1/tcs/command-phases/"),
    ("get", "/api/v1/tcs/command-phases/{id}/"),
    ("post", "/api/v1/tcs/command-phases/{id}/weighted-turns/"),
    ("post", "/api/v1/tcs/command-phases/{id}/attempt/"),
    ("post", "/api/v1/tcs/command-phases/{id}/check-roll/"),
    ("post", "/api/v1/tcs/command-phases/{id}/commit-reserves/"),
    ("post", "/api/v1/tcs/command-phases/{id}/alternative/"),
    ("post", "/api/v1/tcs/command-phases/{id}/recovery/"),
    ("post", "/api/v1/tcs/command-phases/{id}/complete/"),
    ("post", "/api/v1/tcs/losses/"),
    ("post", "/api/v1/tcs/units/{id}/restore/"),
    ("post", "/api/v1/tcs/formations/{id}/morale-correction/"),
    ("get", "/api/v1/tcs/decisions/"),
    ("post", "/api/v1/tcs/decisions/{id}/resolve/"),
}


def test_every_tcs_operation_is_in_the_schema_with_its_refusals():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = {(m, p) for p, item in schema["paths"].items() for m in item if p.startswith(API)}
    assert found >= OPERATIONS, OPERATIONS - found
    for method, path in OPERATIONS:
        responses = schema["paths"][path][method]["responses"]
        if method in ("post", "patch"):
            assert {"400", "403"} <= set(responses), (method, path)
        if "{" in path and method != "get":
            assert "404" in responses, (method, path)


def test_no_phase_or_sheet_id_leaks_through_a_refusal(playing, bob):
    _op, prep = playing
    for url in (
        f"{API}/op-sheets/{prep.pk}/",
        f"{API}/op-sheets/{prep.pk}/fail/",
        f"{API}/op-sheets/{prep.pk}/units/",
    ):
        response = bob.post(url, {"confirm": True}, **J)
        assert response.status_code in (404, 405)
        assert "Regt" not in response.text and SECRET not in response.text
    assert CommandPhase.objects.count() == 0


GARBAGE = [
    {},
    [1, 2],
    "text",
    {
        "sheet": "x",
        "units": 5,
        "steps": "many",
        "dice": "entered",
        "roll": [1],
        "rolls": "x",
        "fired": "all",
        "missions": "attack",
        "confirm": {"a": 1},
        "choice": None,
        "side": [1],
        "unit": {"x": 1},
        "light": 3,
        "expected_turn": "one",
        "prep_table": 5,
        "rating": "three",
        "csv": ["x"],
        "action": ["add"],
        "value": "high",
    },
]


@pytest.mark.parametrize("garbage", GARBAGE, ids=["empty", "list", "string", "wrong-types"])
def test_every_write_refuses_garbage_with_a_message_never_a_500(playing, user, alice, garbage):
    """Malformed input is a 400 (or 404 for an id that names nothing), with a body that says
    what is wrong; never a 500 and never an empty body."""
    op, prep = playing
    germans, _ = sides(op)
    phase = tcs_phase_open(side=germans, actor=user)
    tcs_losses_record(
        unit=TcsUnit.objects.get(code="123-HW/1"), actor=user, steps=2, nearest=["1-123", "2-123"]
    )
    decision = TcsDecision.objects.get()
    bob = APIClient()
    bob.force_authenticate(decision.chooser.players.first())
    writes = [
        (alice, "post", "/operations/"),
        (alice, "post", f"/operations/{op.pk}/next-turn/"),
        (alice, "post", f"/operations/{op.pk}/end/"),
        (alice, "patch", f"/operations/{op.pk}/readings/"),
        (alice, "patch", f"/sides/{germans.pk}/"),
        (alice, "post", f"/sides/{germans.pk}/formations/"),
        (alice, "post", f"/sides/{germans.pk}/units/"),
        (alice, "post", f"/sides/{germans.pk}/oob-csv/"),
        (alice, "post", f"/sides/{germans.pk}/seat/"),
        (alice, "post", "/op-sheets/"),
        (alice, "patch", f"/op-sheets/{prep.pk}/"),
        (alice, "post", f"/op-sheets/{prep.pk}/fail/"),
        (alice, "post", f"/op-sheets/{prep.pk}/succeed/"),
        (alice, "post", f"/op-sheets/{prep.pk}/prepared-defense/"),
        (alice, "post", f"/op-sheets/{prep.pk}/units/"),
        (alice, "post", "/command-phases/"),
        (alice, "post", f"/command-phases/{phase.pk}/weighted-turns/"),
        (alice, "post", f"/command-phases/{phase.pk}/attempt/"),
        (alice, "post", f"/command-phases/{phase.pk}/check-roll/"),
        (alice, "post", f"/command-phases/{phase.pk}/commit-reserves/"),
        (alice, "post", f"/command-phases/{phase.pk}/alternative/"),
        (alice, "post", f"/command-phases/{phase.pk}/recovery/"),
        (alice, "post", "/losses/"),
        (alice, "post", f"/units/{unit_pk('1-123/1')}/restore/"),
        (alice, "post", f"/formations/{formation_pk('1-123')}/morale-correction/"),
        (bob, "post", f"/decisions/{decision.pk}/resolve/"),
    ]
    for client, method, path in writes:
        response = getattr(client, method)(f"{API}{path}", garbage, **J)
        if response.status_code == 200 and (garbage == {} or method == "patch"):
            continue  # needs nothing (weighted turns), or a correction naming no field of it
        assert response.status_code in (400, 404), (path, response.status_code, response.content)
        messages(response)
    assert OpSheetRecord.objects.filter(campaign=op).count() == 2


def test_the_other_side_learns_nothing_private_from_any_endpoint(playing, secret, user, bob):
    """Every German object, named by its id to the Americans' player: 404 or a refusal that
    names no German sheet, unit, morale or order; the lists leave them out."""
    op, prep = playing
    germans, americans = sides(op)
    phase = tcs_phase_open(side=germans, actor=user)
    TcsFormation.objects.filter(code="1-123").update(
        state={"battalion": "1-123", "value": 3, "other_losses": 0}
    )
    own = bob.post(f"{API}/command-phases/", {"side": americans.pk}, **J).json()["phase"]["id"]
    private = ["Orchard", "Regt", SECRET, "1-123", "2-123", "3-123", "123-HW"]
    probes = [
        ("get", f"/sides/{germans.pk}/", None),
        ("get", f"/op-sheets/{secret.pk}/", None),
        ("get", f"/op-sheets/{prep.pk}/graphic/", None),
        ("get", f"/command-phases/{phase.pk}/", None),
        ("get", f"/formations/{formation_pk('1-123')}/", None),
        ("patch", f"/sides/{germans.pk}/", {"rating": 1}),
        ("post", f"/sides/{germans.pk}/formations/", {"code": "Q", "morale": "none"}),
        ("post", f"/op-sheets/{prep.pk}/reveal/", {}),
        ("post", f"/op-sheets/{prep.pk}/succeed/", {}),
        ("post", f"/command-phases/{phase.pk}/weighted-turns/", {}),
        ("post", f"/command-phases/{phase.pk}/recovery/", {}),
        ("post", "/command-phases/", {"side": germans.pk}),
        ("post", "/losses/", {"unit": unit_pk("1-123/1"), "steps": 1}),
        ("post", f"/units/{unit_pk('1-123/1')}/restore/", {"steps": 1, "reason": "x"}),
        (
            "post",
            f"/formations/{formation_pk('1-123')}/morale-correction/",
            {"value": 0, "reason": "x"},
        ),
        ("post", f"/command-phases/{own}/attempt/", {"sheet": prep.pk, "threshold": "33"}),
        ("post", f"/command-phases/{own}/check-roll/", {"sheet": secret.pk, "group": "r1"}),
        ("post", f"/command-phases/{own}/alternative/", {"sheet": secret.pk, "alternative": "n"}),
        ("post", f"/op-sheets/{secret.pk}/", {}),
    ]
    for method, path, data in probes:
        response = getattr(bob, method)(f"{API}{path}", data, **J)
        assert response.status_code in (400, 404, 405), (path, response.status_code)
        for word in private:
            assert word not in response.text, (path, word, response.text)
    lists = [
        f"/op-sheets/?campaign={op.pk}",
        f"/formations/?campaign={op.pk}",
        f"/command-phases/?campaign={op.pk}",
        f"/operations/{op.pk}/",
        f"/operations/{op.pk}/timeline/",
        f"/operations/{op.pk}/export/",
        f"/sides/{americans.pk}/",
        "/decisions/",
    ]
    for path in lists:
        response = bob.get(f"{API}{path}")
        assert response.status_code == 200, path
        for word in ["Orchard", "Regt", SECRET, "1-123/1", "123-HW"]:
            assert word not in response.text, (path, word)
    assert OpSheetRecord.objects.get(pk=prep.pk).revealed_at is None
    assert TcsFormation.objects.get(code="1-123").state["value"] == 3


def test_anonymous_reads_a_public_operation_but_writes_nothing(op, secret):
    Campaign.objects.filter(pk=op.pk).update(visibility=Campaign.Visibility.PUBLIC)
    anonymous = APIClient()
    for path in ("/", "timeline/", "export/", "readings/"):
        response = anonymous.get(f"{API}/operations/{op.pk}/{path}")
        assert response.status_code in (200, 404), path
        assert SECRET not in response.text and "Orchard" not in response.text
    assert anonymous.get(f"{API}/operations/{op.pk}/").status_code == 200
    for path in ("start/", "end/", "next-turn/"):
        response = anonymous.post(f"{API}/operations/{op.pk}/{path}", {}, **J)
        assert response.status_code in (401, 403) and messages(response)


def test_correct_a_sheet_with_a_new_graphic(op, secret, alice, bob):
    url = f"{API}/op-sheets/{secret.pk}/"
    png = png_upload("o.png")
    done = alice.patch(url, {"rally_points": "1-123: 29.17", "graphic": png}, format="multipart")
    assert done.status_code == 200, done.content
    sheet = done.json()["sheet"]
    assert sheet["has_graphic"] and sheet["rally_points"] == "1-123: 29.17"
    assert sheet["task_organization"] == SECRET
    graphic = alice.get(f"{url}graphic/")
    assert graphic.status_code == 200 and graphic["Cache-Control"] == "private, no-store"
    assert bob.get(f"{url}graphic/").status_code == 404
    text = SimpleUploadedFile("o.txt", b"hello", content_type="text/plain")
    refused(alice.patch(url, {"graphic": text}, format="multipart"), 400, "graphic")

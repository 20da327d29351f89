"""TCS operations on the site: creation, sides, order of battle by form and CSV, op sheets.

Helpers here (`make_operation`, `GERMAN_CSV` …) are imported by the other test_tcs* files.
"""

import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Campaign, LogEntry
from campaigns.models.tcs import OpSheetRecord, TcsFormation, TcsSide, TcsUnit
from campaigns.services import side_join
from campaigns.services.tcs import (
    tcs_oob_import,
    tcs_operation_create,
    tcs_operation_start,
    tcs_sheet_draw,
)
from tests.web.upload_helpers import png_upload

pytestmark = pytest.mark.django_db

HEADER = "type,id,name,formation,category,steps,morale,battalion,track\n"
GERMAN_CSV = HEADER + "".join(
    [f"formation,{b}-123,{b}st Bn,,,0,battalion,yes,\n" for b in (1, 2, 3)]
    + ["formation,123-HW,Regt heavy weapons,,,,none,no,\n"]
    + [f"unit,{b}-123/{p},,{b}-123,infantry,5,,,\n" for b in (1, 2, 3) for p in (1, 2, 3)]
    + ["unit,123-HW/1,,123-HW,heavy_weapon,2,,,\n", "unit,123-HW/2,,123-HW,heavy_weapon,2,,,\n"]
)
AMERICAN_CSV = HEADER + "".join(
    [
        "formation,Sherman,Tank Bn,,,,vehicle,yes,0 1 1\n",
        "formation,2-9,Inf Bn,,,0,battalion,yes,\n",
    ]
    + [f"unit,Sherman/{i},,Sherman,vehicle,3,,,\n" for i in (1, 2, 3)]
    + [f"unit,2-9/{i},,2-9,infantry,5,,,\n" for i in (1, 2)]
)
# Only the cells the seed's worked examples give [6.9.f, 6.14.a examples]
SEED_CELLS = [
    {"type": "attack", "columns": [22, 28], "rows": {"5": [52, 45]}},
    {"type": "move", "columns": [8], "rows": {"3": [44]}},
]
GERMAN_REGIMENT = [f"{b}-123/{p}" for b in (1, 2, 3) for p in (1, 2, 3)]
SHERMANS = ["Sherman/1", "Sherman/2", "Sherman/3"]


def make_operation(creator, opponent, *, creator_side=0, start="0940"):
    op = tcs_operation_create(
        creator=creator,
        name="Bloody 110",
        side_names=["Germans", "Americans"],
        ratings=[3, 3],
        start_clock=start,
        creator_side=creator_side,
    )
    germans, americans = op.sides.order_by("order")
    if opponent is not None:
        side_join(user=opponent, side=americans if creator_side == 0 else germans)
    return op, germans, americans


def with_oob(op, germans, americans, gm_or_players):
    german_actor, american_actor = gm_or_players
    tcs_oob_import(side=germans, actor=german_actor, text=GERMAN_CSV)
    tcs_oob_import(side=americans, actor=american_actor, text=AMERICAN_CSV)


def bloody_110(user, other_user):
    """Bloody 110: alice plays the Germans, bob the Americans; both orders of battle in."""
    op, germans, americans = make_operation(user, other_user)
    with_oob(op, germans, americans, (user, other_user))
    return op


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def sides(op):
    return tuple(op.sides.order_by("order"))


# --- creation -------------------------------------------------------------------------------


def test_create_an_operation_from_the_new_campaign_page(client, user):
    client.force_login(user)
    assert reverse("tcs-new") in client.get(reverse("campaign-new")).text
    page = client.get(reverse("tcs-new"))
    assert page.status_code == 200 and "Command Prep rating" in page.text
    response = client.post(
        reverse("tcs-new"),
        {
            "name": "Omaha",
            "side_a": "Germans",
            "rating_a": "4",
            "side_b": "Americans",
            "rating_b": "3",
            "start_clock": "0620",
            "light": "dawn",
            "role": "1",
            "visibility": "private",
        },
        follow=True,
    )
    op = Campaign.objects.get(name="Omaha")
    assert (op.system, op.template, op.status) == ("tcs", "tcs-operation", "setup")
    assert [
        t.rating for t in TcsSide.objects.filter(side__campaign=op).order_by("side__order")
    ] == [
        4,
        3,
    ]
    assert list(op.sides.get(order=1).players.all()) == [user]
    assert op.state["turn"] == {"number": 0, "minutes": 380, "light": "dawn"}
    assert "play starts at 0620" in response.text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rating_a", "13", "less than or equal to 12"),
        ("start_clock", "25:00", "between 0000 and 2359"),
        ("start_clock", "8am", "four digits"),
        ("side_b", "", "required"),
    ],
)
def test_bad_operation_input_names_the_field_and_creates_nothing(
    client, user, field, value, message
):
    client.force_login(user)
    data = {
        "name": "X",
        "side_a": "A",
        "rating_a": "3",
        "side_b": "B",
        "rating_b": "3",
        "start_clock": "0800",
        "light": "day",
        "role": "gm",
        "visibility": "private",
        field: value,
    }
    response = client.post(reverse("tcs-new"), data)
    assert response.status_code == 200 and message in response.text
    assert not Campaign.objects.filter(system="tcs").exists()


def test_a_cc_campaign_has_no_tcs_pages(client, campaign, user):
    client.force_login(user)
    assert client.get(reverse("tcs-operation", args=[campaign.pk])).status_code == 404


# --- Command Prep settings ------------------------------------------------------------------


def test_command_prep_table_is_validated_with_the_schema_and_nothing_changes(client, op, user):
    germans, _ = sides(op)
    client.force_login(user)
    url = reverse("tcs-side", args=[op.pk, germans.pk])
    bad = [{"type": "attack", "columns": [28, 22], "rows": {"5": [52, 45]}}, {"type": "charge"}]
    response = client.post(
        url, {"action": "settings", "settings-rating": "3", "settings-prep_table": json.dumps(bad)}
    )
    assert response.status_code == 400
    assert (
        "Command Prep Table, row 1: the column headings go up from 0, each different"
        in response.text
    )
    assert "row 2" in response.text
    assert TcsSide.objects.get(side=germans).prep_table is None
    broken = client.post(
        url, {"action": "settings", "settings-rating": "3", "settings-prep_table": "[{"}
    )
    assert "not valid JSON" in broken.text
    ok = client.post(
        url,
        {
            "action": "settings",
            "settings-rating": "3",
            "settings-prep_table": json.dumps(SEED_CELLS),
        },
    )
    assert ok.status_code == 302
    assert TcsSide.objects.get(side=germans).prep_table == SEED_CELLS


# --- order of battle ------------------------------------------------------------------------


def test_formations_and_units_by_form(client, user, other_user):
    op, germans, _ = make_operation(user, other_user)
    client.force_login(user)
    url = reverse("tcs-side", args=[op.pk, germans.pk])
    client.post(
        url,
        {
            "action": "formation",
            "formation-code": "1-123",
            "formation-morale": "battalion",
            "formation-is_battalion": "on",
            "formation-start_value": "1",
        },
    )
    formation = TcsFormation.objects.get(code="1-123")
    assert formation.state == {"battalion": "1-123", "value": 1, "other_losses": 0}
    response = client.post(
        url,
        {
            "action": "unit",
            "unit-code": "1-123/1",
            "unit-formation": str(formation.pk),
            "unit-category": "infantry",
            "unit-steps": "5",
        },
    )
    assert response.status_code == 302
    assert TcsUnit.objects.get(code="1-123/1").formation == formation
    duplicate = client.post(
        url,
        {
            "action": "unit",
            "unit-code": "1-123/1",
            "unit-category": "infantry",
            "unit-steps": "5",
        },
    )
    assert duplicate.status_code == 400 and "Unit 1-123/1 already exists" in duplicate.text
    bad_track = client.post(
        url,
        {
            "action": "formation",
            "formation-code": "T",
            "formation-morale": "vehicle",
            "formation-track": "x",
        },
    )
    assert "0 for a circle" in bad_track.text
    assert not TcsFormation.objects.filter(code="T").exists()


def test_csv_import_adds_everything(op):
    germans, _ = sides(op)
    assert TcsFormation.objects.filter(side=germans).count() == 4
    assert TcsUnit.objects.filter(side=germans).count() == 11
    track = TcsFormation.objects.get(code="Sherman")
    assert [b["shape"] for b in track.state["boxes"]] == ["circle", "square", "square"]


def test_csv_import_lists_row_errors_and_imports_nothing(client, user, other_user):
    op, germans, _ = make_operation(user, other_user)
    client.force_login(user)
    text = HEADER + (
        "formation,A,,,,0,battalion,yes,\n"
        "unit,A/1,,A,tank,5,,,\n"
        "unit,A/2,,B,infantry,5,,,\n"
        "platoon,A/3,,A,infantry,5,,,\n"
        "unit,A/4,,A,infantry,0,,,\n"
    )
    response = client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]), {"action": "import", "import-csv": text}
    )
    assert response.status_code == 400
    for expected in (
        "row 3, category",
        "row 4, formation: unknown formation B",
        "row 5, type",
        "row 6, steps: A unit has 1 to 30 steps",
    ):
        assert expected in response.text, expected
    assert not TcsFormation.objects.filter(campaign=op).exists()
    assert not TcsUnit.objects.filter(campaign=op).exists()
    upload = SimpleUploadedFile("oob.csv", GERMAN_CSV.encode(), content_type="text/csv")
    ok = client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]),
        {"action": "import", "import-csv_file": upload},
    )
    assert ok.status_code == 302 and TcsUnit.objects.filter(campaign=op).count() == 11
    no_header = client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]),
        {"action": "import", "import-csv": "a,b\n1,2"},
    )
    assert "must name the columns" in no_header.text


# --- op sheet editor ------------------------------------------------------------------------


def _draw_post(code="A1", missions=None, **extra):
    data = {
        "code": code,
        "time_drawn": "",
        "written_notes": "Take Hill 110 from the north.",
        "failure_instructions": "Rapid move to the rally point.",
        "rally_points": "1-123: 29.17",
    }
    for unit, mission in (missions or {}).items():
        data[f"m_{unit}"] = mission
    data.update(extra)
    return data


def test_draw_an_op_sheet_with_a_graphic(client, op, user):
    germans, _ = sides(op)
    client.force_login(user)
    url = reverse("tcs-sheet-new", args=[op.pk, germans.pk])
    page = client.get(url)
    assert "Task organization" in page.text and "m_1-123/1" in page.text
    png = png_upload("plan.png")
    response = client.post(
        url,
        _draw_post(
            missions=dict.fromkeys(GERMAN_REGIMENT, "attack"),
            pregame="on",
            graphic=png,
            preliminary_text="Assemble in the woods at 31.20",
        ),
    )
    sheet = OpSheetRecord.objects.get(code="A1")
    assert response.status_code == 302
    assert (sheet.status, sheet.sheet_type, sheet.state["size"]) == ("implemented", "attack", 2)
    assert sheet.state["preliminary_instructions"] is True and sheet.time_drawn == "0940"
    assert sheet.graphic and sheet.graphic.name.startswith(f"tcs/{op.pk}/")
    graphic = client.get(reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk]))
    assert graphic.status_code == 200 and graphic["Cache-Control"] == "private, no-store"
    assert b"".join(graphic.streaming_content).startswith(b"\x89PNG")
    assert graphic["Content-Disposition"].startswith("attachment;")
    detail = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert "Take Hill 110 from the north." in detail and "[6.9.c]" in detail


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (
            SimpleUploadedFile("x.svg", b"<svg onload=alert(1)>", content_type="image/svg+xml"),
            "PNG, JPEG",
        ),
        (
            SimpleUploadedFile(
                "x.png", b"\x89PNG\r\n\x1a\n" + b"0" * (5 * 1024 * 1024), content_type="image/png"
            ),
            "at most 5 MB",
        ),
    ],
)
def test_graphic_type_and_size_are_checked(client, op, user, upload, message):
    germans, _ = sides(op)
    client.force_login(user)
    response = client.post(
        reverse("tcs-sheet-new", args=[op.pk, germans.pk]),
        _draw_post(missions={"1-123/1": "attack"}, graphic=upload),
    )
    assert response.status_code == 400 and message in response.text
    assert not OpSheetRecord.objects.exists()


@pytest.mark.parametrize(
    ("missions", "message"),
    [
        ({}, "at least one unit a mission"),
        ({"1-123/1": "attack", "1-123/2": "reserve", "1-123/3": "reserve"}, "[6.14.b]"),
    ],
)
def test_draw_errors_name_the_rule_and_change_nothing(client, op, user, missions, message):
    germans, _ = sides(op)
    client.force_login(user)
    response = client.post(
        reverse("tcs-sheet-new", args=[op.pk, germans.pk]), _draw_post(missions=missions)
    )
    assert response.status_code == 400 and message in response.text
    assert not OpSheetRecord.objects.exists()


def test_6_7_c_a_unit_on_two_unimplemented_sheets_of_one_type_is_refused(op, user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    tcs_sheet_draw(side=germans, actor=user, code="A", missions={"1-123/1": "attack"})
    with pytest.raises(ValidationError) as err:
        tcs_sheet_draw(side=germans, actor=user, code="B", missions={"1-123/1": "attack"})
    assert "[6.7.c]" in str(err.value.message_dict["missions"])
    assert OpSheetRecord.objects.count() == 1


def test_27_1_f_a_sheet_drawn_during_set_up_starts_implemented(client, op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(side=germans, actor=user, code="A", missions={"1-123/1": "attack"})
    assert sheet.status == "implemented"
    client.force_login(user)
    client.post(reverse("tcs-start", args=[op.pk]))
    op.refresh_from_db()
    assert op.status == "active"


def test_sheet_corrections_are_logged_and_implemented_sheets_are_locked(client, op, user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="A",
        missions={"1-123/1": "attack"},
        texts={"written_notes": "old"},
    )
    client.force_login(user)
    url = reverse("tcs-sheet-edit", args=[op.pk, sheet.pk])
    response = client.post(url, {"written_notes": "new plan", "rally_points": "29.17"})
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.written_notes == "new plan"
    entry = LogEntry.objects.get(campaign=op, kind="correction")
    assert entry.private_to == germans and "written notes" in entry.summary
    OpSheetRecord.objects.filter(pk=sheet.pk).update(state={**sheet.state, "status": "implemented"})
    locked = client.post(url, {"written_notes": "again"})
    assert locked.status_code == 400 and "[6.5]" in locked.text


def test_tcs_strings_are_wrapped_for_translation():
    root = Path(__file__).resolve().parents[2] / "templates" / "tcs"
    for template in root.glob("*.html"):
        text = template.read_text()
        assert "{% load i18n" in text, template.name

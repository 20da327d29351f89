"""Op sheets are private to their side [TCS 1.5] until revealed or the operation ends: in
pages, htmx partials, the API, the log and the export. The other side and strangers get a
404 or nothing; a neutral game master sees everything."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import LogEntry
from campaigns.models.tcs import OpSheetRecord, TcsDecision, TcsFormation, TcsUnit
from campaigns.services import side_join
from campaigns.services.tcs import (
    tcs_losses_record,
    tcs_operation_end,
    tcs_operation_start,
    tcs_phase_attempt,
    tcs_phase_open,
    tcs_phase_weighted_turns,
    tcs_sheet_add_units,
    tcs_sheet_draw,
    tcs_sheet_reveal,
)
from tests.web.test_tcs_pages import (
    GERMAN_REGIMENT,
    bloody_110,
    make_operation,
    sides,
    with_oob,
)
from tests.web.upload_helpers import png_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


SECRET = "SECRET-FLANK-MARCH"
CODE = "Kampfgruppe-Nord"


@pytest.fixture
def secret(op, user):
    """The Germans draw a sheet with a graphic and play a Command Phase on it."""
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code=CODE,
        missions=dict.fromkeys(GERMAN_REGIMENT[:3], "attack"),
        texts={"written_notes": SECRET, "rally_points": "29.17"},
        graphic=png_upload("g.png"),
    )
    phase = tcs_phase_open(side=germans, actor=user)
    tcs_phase_weighted_turns(phase=phase, actor=user)
    tcs_phase_attempt(phase=phase, sheet=sheet, actor=user, roll=33, thresholds={"attack": 44})
    return sheet


def _urls(op, sheet, germans):
    return {
        "operation": reverse("tcs-operation", args=[op.pk]),
        "campaign": op.get_absolute_url(),
        "campaign-htmx": op.get_absolute_url() + "?kind=rule",
        "log": reverse("campaign-log", args=[op.pk]),
        "log-htmx": reverse("campaign-log", args=[op.pk]) + "?kind=roll",
        "timeline": reverse("tcs-timeline", args=[op.pk]),
        "export": reverse("tcs-export", args=[op.pk]),
        "api-sheets": "/api/v1/tcs/op-sheets/",
        "api-formations": "/api/v1/tcs/formations/",
        "api-log": f"/api/v1/campaigns/{op.pk}/log/",
    }


def _private_urls(op, sheet, germans):
    return [
        reverse("tcs-sheet", args=[op.pk, sheet.pk]),
        reverse("tcs-sheet", args=[op.pk, sheet.pk]) + "?partial=log",
        reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk]),
        reverse("tcs-sheet-edit", args=[op.pk, sheet.pk]),
        reverse("tcs-side", args=[op.pk, germans.pk]),
        reverse("tcs-command", args=[op.pk, germans.pk]),
        reverse("tcs-sheet-new", args=[op.pk, germans.pk]),
        reverse("tcs-sheet-units", args=[op.pk, sheet.pk]),
        f"/api/v1/tcs/op-sheets/{sheet.pk}/",
    ]


def _body(client, url):
    headers = {"HX-Request": "true"} if "htmx" in url or "partial" in url else {}
    response = client.get(url.replace("-htmx", ""), headers=headers)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_other_side_sees_neither_the_sheet_nor_its_log(client, op, secret, other_user):
    germans, _ = sides(op)
    client.force_login(other_user)
    for name, url in _urls(op, secret, germans).items():
        body = _body(client, url)
        assert SECRET not in body and CODE not in body, name
        assert "1-123" not in body or name in ("campaign", "campaign-htmx", "log", "log-htmx"), name
    for url in _private_urls(op, secret, germans):
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 404, url
    # the Command Prep roll itself is private
    assert not LogEntry.objects.filter(rule="6.9.f", private_to__isnull=True).exists()
    api = APIClient()
    api.force_authenticate(other_user)
    assert api.post(f"/api/v1/tcs/op-sheets/{secret.pk}/reveal/").status_code == 404
    assert client.post(reverse("tcs-sheet-reveal", args=[op.pk, secret.pk])).status_code == 404
    secret.refresh_from_db()
    assert secret.revealed_at is None


def test_strangers_see_nothing_of_a_public_operation(client, op, secret, make_user):
    op.visibility = "public"
    op.save()
    germans, _ = sides(op)
    carol = make_user("carol")
    for viewer in (carol, None):
        client.logout()
        if viewer:
            client.force_login(viewer)
        for name, url in _urls(op, secret, germans).items():
            if name.startswith("api") and viewer is None:
                continue
            body = _body(client, url)
            assert SECRET not in body and CODE not in body, (viewer, name)
        for url in _private_urls(op, secret, germans):
            assert client.get(url).status_code in (302, 404), url  # 302: log in first


def test_private_operation_is_404_for_strangers(client, op, secret, make_user):
    client.force_login(make_user("carol"))
    assert client.get(reverse("tcs-operation", args=[op.pk])).status_code == 404
    assert client.get(reverse("tcs-export", args=[op.pk])).status_code == 404


def test_the_owner_sees_everything(client, op, secret, user):
    client.force_login(user)
    assert SECRET in client.get(reverse("tcs-sheet", args=[op.pk, secret.pk])).text
    assert CODE in _body(client, reverse("tcs-operation", args=[op.pk]))
    assert SECRET in _body(client, reverse("tcs-export", args=[op.pk]))
    assert CODE in _body(client, "/api/v1/tcs/op-sheets/")
    partial = _body(client, reverse("tcs-sheet", args=[op.pk, secret.pk]) + "?partial=log")
    assert "<html" not in partial and "[6.9.f]" in partial


def test_a_neutral_game_master_sees_both_sides(client, user, other_user, make_user):
    op, germans, americans = make_operation(user, None, creator_side=None)
    carol = make_user("carol")
    side_join(user=other_user, side=germans)
    side_join(user=carol, side=americans)
    with_oob(op, germans, americans, (other_user, carol))
    sheet = tcs_sheet_draw(
        side=germans,
        actor=other_user,
        code=CODE,
        missions={"1-123/1": "attack"},
        texts={"written_notes": SECRET},
        pregame=True,
    )
    client.force_login(user)  # the GM
    for url in _private_urls(op, sheet, germans):
        assert client.get(url).status_code in (200, 404), url
    assert SECRET in client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert CODE in client.get(reverse("tcs-operation", args=[op.pk])).text
    assert client.get(reverse("tcs-side", args=[op.pk, americans.pk])).status_code == 200
    assert SECRET in client.get(reverse("tcs-export", args=[op.pk])).text
    api = APIClient()
    api.force_authenticate(user)
    assert [s["code"] for s in api.get("/api/v1/tcs/op-sheets/").json()["results"]] == [CODE]
    client.force_login(carol)
    assert CODE not in client.get(reverse("tcs-operation", args=[op.pk])).text
    assert client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).status_code == 404


def test_revealing_makes_the_sheet_and_its_log_public(client, op, secret, user, other_user):
    germans, _ = sides(op)
    client.force_login(user)
    response = client.post(reverse("tcs-sheet-reveal", args=[op.pk, secret.pk]), follow=True)
    assert "revealed" in response.text
    client.force_login(other_user)
    assert SECRET in client.get(reverse("tcs-sheet", args=[op.pk, secret.pk])).text
    log = client.get(reverse("campaign-log", args=[op.pk])).text
    assert "Command Prep roll" in log and "revealed op sheet" in log
    assert client.get(reverse("tcs-sheet-graphic", args=[op.pk, secret.pk])).status_code == 200
    # the rest of the side stays private
    assert client.get(reverse("tcs-side", args=[op.pk, germans.pk])).status_code == 404
    api = APIClient()
    api.force_authenticate(other_user)
    assert api.get(f"/api/v1/tcs/op-sheets/{secret.pk}/").json()["written_notes"] == SECRET
    assert tcs_sheet_reveal(sheet=secret, actor=user).revealed_at is not None  # idempotent


def test_ending_the_operation_reveals_everything_after_confirmation(
    client, op, secret, user, other_user
):
    germans, _ = sides(op)
    client.force_login(user)
    page = client.get(reverse("tcs-end", args=[op.pk]))
    assert "cannot be undone" in page.text
    refused = client.post(reverse("tcs-end", args=[op.pk]), {})
    assert "Tick the box" in refused.text
    op.refresh_from_db()
    assert op.status == "active"
    client.post(reverse("tcs-end", args=[op.pk]), {"confirm": "on"})
    op.refresh_from_db()
    assert op.status == "finished"
    client.force_login(other_user)
    assert SECRET in client.get(reverse("tcs-sheet", args=[op.pk, secret.pk])).text
    assert client.get(reverse("tcs-side", args=[op.pk, germans.pk])).status_code == 200
    assert not LogEntry.objects.filter(
        campaign=op, private_to__isnull=False, data__has_key="tcs"
    ).exists()
    api = APIClient()
    api.force_authenticate(other_user)
    assert CODE in str(api.get("/api/v1/tcs/op-sheets/").json())
    assert "1-123" in str(api.get("/api/v1/tcs/formations/").json())
    # nothing more can be changed
    with pytest.raises(ValidationError, match="over"):
        tcs_operation_end(campaign=op, actor=user, confirm=True)


def test_api_bad_filter_is_400_naming_the_field(op, user):
    api = APIClient()
    api.force_authenticate(user)
    response = api.get("/api/v1/tcs/op-sheets/?campaign=abc")
    assert response.status_code == 400 and "campaign" in response.json()


def test_other_sides_formations_are_absent_from_the_api(op, secret, other_user):
    api = APIClient()
    api.force_authenticate(other_user)
    codes = {f["code"] for f in api.get("/api/v1/tcs/formations/").json()["results"]}
    assert codes == {"Sherman", "2-9"}
    assert OpSheetRecord.objects.count() == 1


def test_the_other_side_cannot_change_or_read_sheet_units_defense_or_outcomes(
    client, op, secret, user, other_user
):
    """The new writes answer 404 to the other side and change nothing; what a Prepared
    Defense did and who was added or struck stays in the owner's private log."""
    before = OpSheetRecord.objects.get(pk=secret.pk).state
    client.force_login(other_user)
    posts = {
        reverse("tcs-sheet-units", args=[op.pk, secret.pk]): {
            "action": "strike",
            "units": ["1-123/1"],
        },
        reverse("tcs-sheet-defense", args=[op.pk, secret.pk]): {"pd-fire_mode": ["1-123/1"]},
        reverse("tcs-sheet-fail", args=[op.pk, secret.pk]): {"confirm": "on"},
    }
    for url, data in posts.items():
        assert client.post(url, data, headers={"HX-Request": "true"}).status_code == 404, url
    assert OpSheetRecord.objects.get(pk=secret.pk).state == before
    # the owner strikes a unit in the Command Phase: logged for the Germans only
    tcs_sheet_add_units(sheet=secret, actor=user, missions={"2-123/1": "attack"})
    assert not LogEntry.objects.filter(rule__startswith="6.13", private_to__isnull=True).exists()
    for url in ("/api/v1/tcs/op-sheets/", reverse("campaign-log", args=[op.pk])):
        assert "2-123/1" not in client.get(url).content.decode(), url


def test_the_opponents_choice_shows_no_morale_and_strangers_cannot_choose(
    client, op, user, other_user, make_user
):
    tcs_operation_start(campaign=op, actor=user)
    TcsFormation.objects.filter(code="1-123").update(
        state={"battalion": "1-123", "value": 977, "other_losses": 2}
    )
    tcs_losses_record(
        unit=TcsUnit.objects.get(code="123-HW/1"), actor=user, steps=2, nearest=["1-123", "2-123"]
    )
    decision = TcsDecision.objects.get()
    client.force_login(other_user)
    page = client.get(reverse("tcs-decisions", args=[op.pk])).text
    assert "123-HW/1" in page and "1-123" in page
    assert "977" not in re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    client.force_login(make_user("carol"))
    response = client.post(
        reverse("tcs-decisions", args=[op.pk]),
        {"decision": decision.pk, f"d{decision.pk}-choice": "1-123"},
    )
    assert response.status_code == 404
    decision.refresh_from_db()
    assert decision.status == "open"

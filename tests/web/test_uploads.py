"""Op-sheet graphics are checked by their content, stored under generated names with the
extension of the detected type, and served as inert downloads (campaigns/tcs/graphics.py,
campaigns/files.py).

Every accepted type goes through the page and the API (multipart); every hostile file
(polyglots, SVG, renamed programs, HTML named .pdf, active PDFs, decompression bombs…) is
refused through both with a message naming what is accepted, and nothing is stored.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.urls import reverse
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, TextStringObject
from rest_framework.test import APIClient

from campaigns.files import INERT_CSP
from campaigns.models.tcs import SHEET_TEXT_FIELDS, OpSheetRecord, private_storage
from campaigns.services.tcs import tcs_sheet_draw
from campaigns.tcs.graphics import GIF, JPEG, PDF, PNG, WEBP, check_graphic
from tests.web.test_tcs_pages import _draw_post, sides
from tests.web.upload_helpers import (
    HTML,
    animated_gif,
    launch_action,
    pdf,
    picture,
    png_declaring,
    png_upload,
    upload,
)

pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"
ACCEPTED = "Upload a PNG, JPEG, GIF, WebP or PDF"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

pytest_plugins = ["tests.web.tcs_api_fixtures"]


def _private_files() -> set[Path]:
    return {p for p in Path(settings.PRIVATE_MEDIA_ROOT).rglob("*") if p.is_file()}


@pytest.fixture
def new_files():
    """The private files stored since the test began (the folder is shared by the session)."""
    before = _private_files()
    return lambda: sorted(_private_files() - before)


def page_draw(client, op, graphic, code="A1"):
    germans, _ = sides(op)
    return client.post(
        reverse("tcs-sheet-new", args=[op.pk, germans.pk]),
        _draw_post(code=code, missions={"1-123/1": "attack"}, graphic=graphic),
    )


def api_draw(api, op, graphic, code="A1"):
    germans, _ = sides(op)
    return api.post(
        f"{API}/op-sheets/",
        {"side": germans.pk, "code": code, "m_1-123/1": "attack", "graphic": graphic},
        format="multipart",
    )


def draw_with_graphic(op, user, graphic=None, code="A1") -> OpSheetRecord:
    germans, _ = sides(op)
    return tcs_sheet_draw(
        side=germans,
        actor=user,
        code=code,
        missions={"1-123/1": "attack"},
        graphic=graphic or png_upload(),
    )


# --- accepted ---------------------------------------------------------------------------------

ACCEPTED_FILES = [
    pytest.param("plan.png", picture("PNG"), PNG, id="png"),
    pytest.param("plan.jpeg", picture("JPEG"), JPEG, id="jpeg"),
    pytest.param("plan.gif", animated_gif(), GIF, id="animated-gif"),
    pytest.param("plan.webp", picture("WEBP"), WEBP, id="webp"),
    pytest.param("plan.pdf", pdf(), PDF, id="pdf"),
    pytest.param("map.pdf", pdf(link=b"https://example.org/map"), PDF, id="pdf-with-a-link"),
    pytest.param("plan.html", picture("PNG"), PNG, id="png-named-html"),
    pytest.param("plan", picture("JPEG"), JPEG, id="jpeg-without-extension"),
]


def assert_stored(op, sheet, data: bytes, kind) -> None:
    assert re.fullmatch(rf"tcs/{op.pk}/[0-9a-f]{{32}}\{kind.extension}", sheet.graphic.name)
    with sheet.graphic.open("rb") as handle:
        assert handle.read() == data


def assert_inert(response, sheet, data: bytes, kind) -> None:
    assert response.status_code == 200
    assert response["Content-Type"] == kind.content_type
    stem = re.sub(r"[^a-z0-9-]", "", sheet.code.lower())
    assert (
        response["Content-Disposition"] == f'attachment; filename="op-sheet-{stem}{kind.extension}"'
    )
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == INERT_CSP
    assert response["Cache-Control"] == "private, no-store"
    assert b"".join(response.streaming_content) == data


@pytest.mark.parametrize(("name", "data", "kind"), ACCEPTED_FILES)
def test_accepted_through_the_page(client, op, user, name, data, kind):
    client.force_login(user)
    response = page_draw(client, op, upload(name, data, "application/octet-stream"))
    assert response.status_code == 302, response.content.decode()[:2000]
    sheet = OpSheetRecord.objects.get(code="A1")
    assert_stored(op, sheet, data, kind)
    served = client.get(reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk]))
    assert_inert(served, sheet, data, kind)


@pytest.mark.parametrize(("name", "data", "kind"), ACCEPTED_FILES)
def test_accepted_through_the_api(alice, op, name, data, kind):
    response = api_draw(alice, op, upload(name, data, "text/html"))
    assert response.status_code == 201, response.content
    sheet = OpSheetRecord.objects.get(pk=response.json()["sheet"]["id"])
    assert response.json()["sheet"]["has_graphic"]
    assert_stored(op, sheet, data, kind)
    assert_inert(alice.get(f"{API}/op-sheets/{sheet.pk}/graphic/"), sheet, data, kind)


def test_check_graphic_returns_the_type_and_names_the_upload_after_it():
    file = upload("evil.html", picture("WEBP"), "text/html")
    assert check_graphic(file) is WEBP and file.name == "graphic.webp"
    assert file.read() == picture("WEBP")  # left at the start for storing
    assert check_graphic(None) is None
    page_only = DictionaryObject(
        {NameObject("/S"): NameObject("/GoTo"), NameObject("/D"): ArrayObject([NumberObject(0)])}
    )
    assert check_graphic(upload("p.pdf", pdf(open_action=page_only))) is PDF


# --- refused ----------------------------------------------------------------------------------

JS_OPEN_ACTION = DictionaryObject(
    {
        NameObject("/S"): NameObject("/JavaScript"),
        NameObject("/JS"): TextStringObject("app.alert(1)"),
    }
)
SVG_SCRIPT = (
    b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">'
    b"<script>alert(document.domain)</script></svg>"
)
SVG_PLAIN = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'
BIG_JPEG = picture("JPEG", (64, 64))

REFUSED = [
    pytest.param(
        "plan.html",
        PNG_MAGIC + HTML,
        "also holds web-page or script code",
        id="png-magic-then-html",
    ),
    pytest.param(
        "plan.png",
        picture("PNG") + HTML,
        "also holds web-page or script code",
        id="valid-png-then-html",
    ),
    pytest.param(
        "plan.pdf",
        b"%PDF-1.4\n" + HTML,
        "also holds web-page or script code",
        id="pdf-magic-then-html",
    ),
    pytest.param(
        "plan.png", picture("PNG") + b"\0hidden", "data after the end", id="png-trailing-bytes"
    ),
    pytest.param("plan.png", PNG_MAGIC + b"\0" * 32, "damaged", id="png-magic-only"),
    pytest.param("plan.png", picture("PNG", (64, 64))[:-40], "damaged", id="truncated-png"),
    pytest.param("plan.jpg", BIG_JPEG[: len(BIG_JPEG) // 2], "damaged", id="truncated-jpeg"),
    pytest.param("plan.gif", b"GIF89a" + b"\1" * 40, "damaged", id="forged-gif"),
    pytest.param("plan.webp", b"RIFF\x20\0\0\0WEBPVP8 " + b"\0" * 20, "damaged", id="forged-webp"),
    pytest.param("plan.svg", SVG_SCRIPT, "SVG pictures are refused", id="svg-with-script"),
    pytest.param("plan.png", SVG_PLAIN, "SVG pictures are refused", id="svg-named-png"),
    pytest.param("plan.png", b"MZ\x90\0\3\0\0\0" + b"\0" * 56, "a program", id="exe-named-png"),
    pytest.param("plan.png", b"\x7fELF\2\1\1\0" + b"\0" * 56, "a program", id="elf-named-png"),
    pytest.param("plan.pdf", HTML, "a web page or markup", id="html-named-pdf"),
    pytest.param("plan.pdf", b"%PDF-1.7\nnot a pdf at all\n%%EOF", "damaged", id="forged-pdf"),
    pytest.param("plan.pdf", pdf(js=True), "PDFs with scripts", id="pdf-javascript"),
    pytest.param(
        "plan.pdf", pdf(open_action=JS_OPEN_ACTION), "PDFs with scripts", id="pdf-open-action"
    ),
    pytest.param(
        "plan.pdf", pdf(open_action=launch_action()), "PDFs with scripts", id="pdf-launch"
    ),
    pytest.param("plan.pdf", pdf(attachment=True), "attached", id="pdf-embedded-file"),
    pytest.param(
        "plan.pdf", pdf(link=b"JavaScript:alert(1)"), "PDFs with scripts", id="pdf-script-link"
    ),
    pytest.param("plan.pdf", pdf(password="pw"), "Password-protected", id="pdf-encrypted"),
    pytest.param("plan.png", png_declaring(20_000, 20_000), "too large", id="bomb-400-megapixels"),
    pytest.param("plan.png", png_declaring(8_000, 6_000), "too large", id="bomb-48-megapixels"),
    pytest.param("notes.png", b"Hill 110 from the north", ACCEPTED, id="text-named-png"),
    pytest.param("plan.png", b"", "empty", id="empty"),
    pytest.param("plan.png", PNG_MAGIC + b"\0" * (5 * 1024 * 1024), "at most 5 MB", id="over-5-mb"),
]


def assert_refused_text(text: str, message: str) -> None:
    assert message in text, text[:3000]
    if message not in ("empty", "at most 5 MB"):
        assert ACCEPTED in text


@pytest.mark.parametrize(("name", "data", "message"), REFUSED)
def test_refused_through_the_page(client, op, user, name, data, message, new_files):
    client.force_login(user)
    response = page_draw(client, op, upload(name, data))
    assert response.status_code == 400
    assert_refused_text(response.content.decode(), message)
    assert not OpSheetRecord.objects.exists() and new_files() == []


@pytest.mark.parametrize(("name", "data", "message"), REFUSED)
def test_refused_through_the_api(alice, op, name, data, message, new_files):
    response = api_draw(alice, op, upload(name, data))
    assert response.status_code == 400, response.content
    errors = response.json()
    assert "graphic" in str(errors)
    assert_refused_text(str(errors), message)
    assert not OpSheetRecord.objects.exists() and new_files() == []


# --- serving ----------------------------------------------------------------------------------


def test_the_other_side_cannot_fetch_the_graphic(client, op, user, other_user, bob):
    sheet = draw_with_graphic(op, user)
    client.force_login(other_user)
    assert client.get(reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk])).status_code == 404
    assert bob.get(f"{API}/op-sheets/{sheet.pk}/graphic/").status_code == 404
    client.logout()
    assert client.get(reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk])).status_code == 404
    assert APIClient().get(f"{API}/op-sheets/{sheet.pk}/graphic/").status_code in (401, 403, 404)


def test_no_graphic_and_a_lost_file_answer_404(client, op, user, alice):
    germans, _ = sides(op)
    bare = tcs_sheet_draw(side=germans, actor=user, code="B", missions={"1-123/2": "attack"})
    lost = draw_with_graphic(op, user)
    private_storage().delete(lost.graphic.name)
    client.force_login(user)
    for sheet in (bare, lost):
        assert client.get(reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk])).status_code == 404
        assert alice.get(f"{API}/op-sheets/{sheet.pk}/graphic/").status_code == 404


@pytest.mark.parametrize(
    ("old_name", "data", "content_type", "extension"),
    [
        ("plan.html", PNG_MAGIC + HTML, "image/png", ".png"),  # stored before the check
        ("plan.jpg", b"not a picture", "image/jpeg", ".jpg"),  # by extension
        ("plan.svg", SVG_SCRIPT, "application/octet-stream", ".bin"),
    ],
)
def test_files_stored_under_old_names_are_served_inert(
    client, op, user, alice, old_name, data, content_type, extension
):
    sheet = draw_with_graphic(op, user)
    name = private_storage().save(f"tcs/{op.pk}/{old_name}", ContentFile(data))
    OpSheetRecord.objects.filter(pk=sheet.pk).update(graphic=name)
    client.force_login(user)
    for response in (
        client.get(reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk])),
        alice.get(f"{API}/op-sheets/{sheet.pk}/graphic/"),
    ):
        assert response.status_code == 200
        assert response["Content-Type"] == content_type
        assert response["Content-Disposition"] == f'attachment; filename="op-sheet-a1{extension}"'
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Content-Security-Policy"] == INERT_CSP
        assert b"".join(response.streaming_content) == data


# --- correcting -------------------------------------------------------------------------------


def edit_post(sheet, graphic) -> dict:
    return {**{f: getattr(sheet, f) for f in SHEET_TEXT_FIELDS}, "graphic": graphic}


def test_the_edit_page_of_a_sheet_with_a_graphic_answers(client, op, user):
    sheet = draw_with_graphic(op, user)
    client.force_login(user)
    page = client.get(reverse("tcs-sheet-edit", args=[op.pk, sheet.pk]))
    assert page.status_code == 200
    assert 'type="file"' in page.text and 'accept="image/png,' in page.text


def test_replacing_the_graphic_deletes_the_old_file_after_commit(
    client, op, user, django_capture_on_commit_callbacks, new_files
):
    sheet = draw_with_graphic(op, user)
    old = sheet.graphic.name
    client.force_login(user)
    url = reverse("tcs-sheet-edit", args=[op.pk, sheet.pk])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(url, edit_post(sheet, upload("new.gif", animated_gif())))
        assert response.status_code == 302
        assert private_storage().exists(old)  # not before the commit
    for callback in callbacks:
        callback()
    sheet.refresh_from_db()
    assert not private_storage().exists(old)
    assert_stored(op, sheet, animated_gif(), GIF)
    assert new_files() == [Path(settings.PRIVATE_MEDIA_ROOT) / sheet.graphic.name]


def test_a_refused_replacement_keeps_the_old_graphic(client, op, user, alice, new_files):
    sheet = draw_with_graphic(op, user)
    old = sheet.graphic.name
    client.force_login(user)
    url = reverse("tcs-sheet-edit", args=[op.pk, sheet.pk])
    response = client.post(url, edit_post(sheet, upload("x.png", PNG_MAGIC + HTML)))
    assert response.status_code == 400 and "script code" in response.text
    assert 'accept="image/png,' in response.text
    api = alice.patch(
        f"{API}/op-sheets/{sheet.pk}/",
        {"graphic": upload("x.svg", SVG_SCRIPT)},
        format="multipart",
    )
    assert api.status_code == 400 and "SVG" in str(api.json())
    sheet.refresh_from_db()
    assert sheet.graphic.name == old and private_storage().exists(old)
    assert len(new_files()) == 1


def test_replacing_through_the_api(alice, op, user, django_capture_on_commit_callbacks):
    sheet = draw_with_graphic(op, user)
    old, data = sheet.graphic.name, pdf()
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.patch(
            f"{API}/op-sheets/{sheet.pk}/",
            {"graphic": upload("new.pdf", data, "application/pdf")},
            format="multipart",
        )
    assert response.status_code == 200, response.content
    sheet.refresh_from_db()
    assert not private_storage().exists(old)
    assert_stored(op, sheet, data, PDF)

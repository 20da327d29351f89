"""What an op-sheet graphic may be: a PNG, JPEG, GIF or WebP picture or a PDF of at most 5 MB,
recognised by its content (never by its name or declared type), and how it is served.

One check for the pages, the API and the services, so no path stores an unchecked file:

- the first bytes say which of the five types the file claims to be; anything else is refused
  (SVG, which can carry scripts, HTML, programs, archives…), with a message naming what is
  accepted;
- a file holding web-page or script markup anywhere (a PNG/HTML polyglot) is refused;
- a picture must open, `verify()` and decode whole with Pillow (every frame of an animation),
  within a pixel budget (no decompression bombs), with nothing after its end marker;
- a PDF must parse with pypdf and have a page; one that is encrypted or carries JavaScript,
  automatic or launch actions, forms that submit, or attached files is refused.

`check_graphic` returns the detected type and names the upload after it, so the model's
`upload_to` (`graphic_path`) stores it under a generated name with the detected extension.
`graphic_response` serves a stored graphic as a download that a browser will not render as a
page (see `campaigns.files`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import PurePosixPath

from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    TextStringObject,
)

from campaigns.files import inert_download, open_private

MAX_GRAPHIC_BYTES = 5 * 1024 * 1024
MAX_GRAPHIC_PIXELS = 40_000_000  # one frame: e.g. a 8000 × 5000 scan of a map
MAX_ANIMATION_PIXELS = 100_000_000  # all frames of a GIF or WebP together
MAX_FRAMES = 1000
MAX_PDF_OBJECTS = 200_000  # objects walked looking for active content


@dataclass(frozen=True)
class GraphicType:
    label: str  # as named to the user
    extension: str  # what it is stored and downloaded as
    content_type: str  # what it is served as
    pillow: str = ""  # Pillow's format name; "" for the PDF


PNG = GraphicType("PNG", ".png", "image/png", "PNG")
JPEG = GraphicType("JPEG", ".jpg", "image/jpeg", "JPEG")
GIF = GraphicType("GIF", ".gif", "image/gif", "GIF")
WEBP = GraphicType("WebP", ".webp", "image/webp", "WEBP")
PDF = GraphicType("PDF", ".pdf", "application/pdf")
GRAPHIC_TYPES = (PNG, JPEG, GIF, WEBP, PDF)
GRAPHIC_EXTENSIONS = {t.extension: t for t in GRAPHIC_TYPES} | {".jpeg": JPEG}
ACCEPT = ",".join([t.content_type for t in GRAPHIC_TYPES] + [t.extension for t in GRAPHIC_TYPES])

# Pillow's names for what it opened: a camera's multi-picture JPEG opens as MPO.
PILLOW_FORMATS = {"PNG": PNG, "JPEG": JPEG, "MPO": JPEG, "GIF": GIF, "WEBP": WEBP}

PNG_END = b"IEND\xaeB`\x82"
EXECUTABLE_MAGIC = (
    b"MZ",  # Windows
    b"\x7fELF",  # Linux
    b"\xfe\xed\xfa\xce",  # Mach-O, both byte orders, 32/64 bits and universal
    b"\xfe\xed\xfa\xcf",
    b"\xce\xfa\xed\xfe",
    b"\xcf\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",
    b"#!",  # a script
)
# Markup a browser would run if it ever took the file for a page. Only tags long enough not to
# turn up by chance in compressed picture data (a 4-byte pattern would, in a few MB).
MARKUP = re.compile(
    rb"<\s*(?:script|html|body|iframe|object|embed|!doctype\s+html)[\s>/]|javascript:",
    re.IGNORECASE,
)
SVG = re.compile(rb"<svg[\s>/]|<!doctype\s+svg", re.IGNORECASE)
# PDF names (dictionary keys or values) for content that runs or opens something by itself.
PDF_ACTIVE = {
    "/JS",
    "/JavaScript",
    "/AA",  # additional actions: run on opening a page, focusing a field…
    "/Launch",
    "/SubmitForm",
    "/ImportData",
    "/EmbeddedFile",
    "/EmbeddedFiles",
    "/FileAttachment",
    "/RichMedia",
    "/XFA",
    "/GoToE",
    "/GoToR",
}

ACCEPTED = _("Upload a PNG, JPEG, GIF, WebP or PDF picture of the graphic.")


def _refuse(message, code: str, **params):
    """A refusal: what is wrong, then what is accepted."""
    text = message % params if params else message
    return ValidationError(f"{text} {ACCEPTED}", code=code)


def sniff(head: bytes) -> GraphicType | None:
    """The accepted type the first bytes claim (no more: see `check_graphic`)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if head.startswith(b"\xff\xd8\xff"):
        return JPEG
    if head.startswith((b"GIF87a", b"GIF89a")):
        return GIF
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return WEBP
    if head.startswith(b"%PDF-"):
        return PDF
    return None


def _refused_kind(data: bytes) -> ValidationError:
    """Why a file of no accepted type is refused, named when it is recognised."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(EXECUTABLE_MAGIC):
        return _refuse(_("This file is a program, not a picture."), "program")
    if SVG.search(head):
        return _refuse(_("SVG pictures are refused: they can carry scripts."), "svg")
    if head.startswith(b"<") or MARKUP.search(head):
        return _refuse(_("This file is a web page or markup, not a picture."), "markup")
    return ValidationError(ACCEPTED, code="type")


def check_graphic(upload) -> GraphicType | None:
    """Check an uploaded graphic by its content; raise a ValidationError naming the problem and
    what is accepted, or return its type (None: no file). The upload is renamed after the
    detected type ("graphic.png"), so it is stored with that extension, never its own."""
    if upload is None:
        return None
    if upload.size is not None and upload.size > MAX_GRAPHIC_BYTES:
        raise ValidationError(_("The graphic may be at most 5 MB."), code="too_big")
    upload.seek(0)
    data = upload.read(MAX_GRAPHIC_BYTES + 1)
    upload.seek(0)
    if len(data) > MAX_GRAPHIC_BYTES:
        raise ValidationError(_("The graphic may be at most 5 MB."), code="too_big")
    if not data:
        raise _refuse(_("The file is empty."), "empty")
    digest = hashlib.blake2b(data, digest_size=16).digest()
    checked = getattr(upload, "checked_graphic", None)
    if checked is not None and checked[0] == digest:  # the form checked it, the service asks
        return checked[1]
    kind = sniff(data)
    if kind is None:
        raise _refused_kind(data)
    if MARKUP.search(data):
        raise _refuse(
            _("This %(type)s file also holds web-page or script code."), "polyglot", type=kind.label
        )
    if kind is PDF:
        _check_pdf(data)
    else:
        _check_picture(data, kind)
    upload.name = f"graphic{kind.extension}"
    upload.checked_graphic = (digest, kind)
    return kind


def _damaged(kind: GraphicType) -> ValidationError:
    return _refuse(
        _("This %(type)s file is damaged, incomplete or not what its first bytes claim."),
        "damaged",
        type=kind.label,
    )


def _too_many_pixels() -> ValidationError:
    return _refuse(
        _("The picture is too large: at most %(n)s million pixels."),
        "pixels",
        n=MAX_GRAPHIC_PIXELS // 1_000_000,
    )


def _check_picture(data: bytes, kind: GraphicType) -> None:
    """Open and verify with Pillow, then reopen and decode every frame: a truncated or forged
    file fails one or the other. The size is read from the header before anything is
    decoded, so a small file declaring a huge picture is refused without decoding it. Last,
    nothing may follow the picture's end."""
    try:
        with Image.open(BytesIO(data), formats=[kind.pillow]) as image:
            opened = PILLOW_FORMATS.get(image.format)
            pixels = image.width * image.height
            if opened is not None and pixels <= MAX_GRAPHIC_PIXELS:
                image.verify()
    except Image.DecompressionBombError:
        raise _too_many_pixels() from None
    except Exception:  # Pillow raises many kinds for a broken file; every one is a refusal
        raise _damaged(kind) from None
    if opened is not kind:
        raise _damaged(kind)
    if pixels > MAX_GRAPHIC_PIXELS:
        raise _too_many_pixels()
    try:
        with Image.open(BytesIO(data), formats=[kind.pillow]) as image:
            frames = getattr(image, "n_frames", 1)
            if frames > MAX_FRAMES or frames * pixels > MAX_ANIMATION_PIXELS:
                raise _too_many_pixels()
            for frame in range(frames):
                image.seek(frame)
                image.load()
    except ValidationError:
        raise
    except Image.DecompressionBombError:
        raise _too_many_pixels() from None
    except Exception:
        raise _damaged(kind) from None
    if not _ends_cleanly(data, kind):
        raise _refuse(
            _("This %(type)s file has data after the end of the picture."),
            "trailing",
            type=kind.label,
        )


def _ends_cleanly(data: bytes, kind: GraphicType) -> bool:
    """Nothing after the picture's end marker, where the format has a fixed one. A JPEG may
    carry a camera's trailer after its end; the markup scan covers it."""
    if kind is PNG:
        return data.endswith(PNG_END)
    if kind is GIF:
        return data.endswith(b";")
    if kind is WEBP:
        declared = int.from_bytes(data[4:8], "little") + 8
        return len(data) in (declared, declared + 1)
    return True


def _check_pdf(data: bytes) -> None:
    """Parse with pypdf (its own limits bound decompression), require a page, and walk every
    object reachable from the trailer for active content."""
    try:
        reader = PdfReader(BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise _refuse(_("Password-protected PDFs are refused."), "pdf_encrypted")
        if len(reader.pages) < 1:
            raise _refuse(_("This PDF has no page."), "pdf_empty")
        active = _pdf_active_content(reader)
    except ValidationError:
        raise
    except Exception:  # pypdf raises many kinds for a broken file; every one is a refusal
        raise _damaged(PDF) from None
    if active:
        raise _refuse(
            _(
                "PDFs with scripts, automatic or launch actions, submitting forms or attached "
                "files are refused (found %(what)s); print it to a plain PDF."
            ),
            "pdf_active",
            what=active,
        )


def _pdf_active_content(reader: PdfReader) -> str:
    """The first active-content name reachable from the trailer, or ""."""
    seen: set[tuple[int, int]] = set()
    stack = [reader.trailer]
    walked = 0
    while stack:
        node = stack.pop()
        walked += 1
        if walked > MAX_PDF_OBJECTS:
            return "too many objects"
        if isinstance(node, IndirectObject):
            ref = (node.idnum, node.generation)
            if ref in seen:
                continue
            seen.add(ref)
            stack.append(node.get_object())
        elif isinstance(node, DictionaryObject):
            for key, value in node.items():
                if key in PDF_ACTIVE:
                    return key
                if key == "/OpenAction" and not _harmless_open_action(value):
                    return key
                stack.append(value)
        elif isinstance(node, ArrayObject):
            stack.extend(node)
        elif isinstance(node, NameObject) and node in PDF_ACTIVE:
            return str(node)
        elif isinstance(node, (TextStringObject, ByteStringObject)) and _script_link(node):
            return "javascript:"
    return ""


def _script_link(value) -> bool:
    """A string (a link's /URI, most often) that runs script when followed."""
    text = value.original_bytes if isinstance(value, TextStringObject) else bytes(value)
    return b"javascript:" in text.lower()


def _harmless_open_action(value) -> bool:
    """An OpenAction that only shows a page (a destination, or a GoTo to one)."""
    value = value.get_object() if isinstance(value, IndirectObject) else value
    if isinstance(value, ArrayObject):
        return True
    return isinstance(value, DictionaryObject) and value.get("/S") == "/GoTo"


class GraphicInput(forms.FileInput):
    """The graphic's file chooser: no link to the stored file (it has no public URL; the
    default clearable input asks the storage for one and fails) and no clear box."""

    def __init__(self, attrs=None):
        super().__init__({"accept": ACCEPT, **(attrs or {})})


def stored_type(name: str, head: bytes) -> GraphicType | None:
    """A stored graphic's type: by its first bytes, else (files from before the content
    check) by its extension; None: served as bytes."""
    return sniff(head) or GRAPHIC_EXTENSIONS.get(PurePosixPath(name).suffix.lower())


def is_picture(name: str) -> bool:
    """A stored graphic a page may show as a thumbnail (not a PDF), by its stored extension
    (given from the detected type when it was uploaded)."""
    kind = GRAPHIC_EXTENSIONS.get(PurePosixPath(name).suffix.lower())
    return kind is not None and bool(kind.pillow)


def graphic_response(sheet):
    """A sheet's graphic as an inert download: the caller has checked the viewer may see the
    sheet. Any stored file, old names included, is served by its stored name."""
    if not sheet.graphic:
        raise Http404
    handle = open_private(sheet.graphic)
    head = handle.read(16)
    handle.seek(0)
    kind = stored_type(sheet.graphic.name, head)
    stem = slugify(sheet.code)[:40] or str(sheet.pk)
    return inert_download(
        handle,
        filename=f"op-sheet-{stem}{kind.extension if kind else '.bin'}",
        content_type=kind.content_type if kind else "application/octet-stream",
    )

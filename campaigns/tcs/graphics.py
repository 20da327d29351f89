"""What an op-sheet graphic may be: a picture or a PDF of at most 5 MB, recognised by its first
bytes (never by its name or declared type). SVG is refused: it can carry scripts.

One check for the pages, the API and the services, so no path stores an unchecked file.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_GRAPHIC_BYTES = 5 * 1024 * 1024
GRAPHIC_TYPES = {  # magic bytes → what it is
    b"\x89PNG\r\n\x1a\n": "PNG",
    b"\xff\xd8\xff": "JPEG",
    b"GIF87a": "GIF",
    b"GIF89a": "GIF",
    b"%PDF-": "PDF",
}


def check_graphic(upload) -> None:
    """Raise a ValidationError naming the problem; None (no file) passes."""
    if upload is None:
        return
    if upload.size > MAX_GRAPHIC_BYTES:
        raise ValidationError(_("The graphic may be at most 5 MB."), code="too_big")
    head = upload.read(16)
    upload.seek(0)
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return
    if not any(head.startswith(magic) for magic in GRAPHIC_TYPES):
        raise ValidationError(
            _("Upload a PNG, JPEG, GIF, WebP or PDF picture of the graphic."), code="type"
        )

"""Serving uploaded files from private storage: always as a download a browser will not run.

Whatever a stored file holds, its response is an attachment with a plain ASCII file name,
the type the caller detected, `X-Content-Type-Options: nosniff` (no guessing a page from the
bytes) and `Content-Security-Policy: default-src 'none'; sandbox` (were it ever rendered, it
could load nothing, run nothing and reach no cookie of the site's origin). Private, so never
cached. The pages and the API share this one response.
"""

from __future__ import annotations

from django.http import FileResponse, Http404

INERT_CSP = "default-src 'none'; sandbox"


def open_private(field_file):
    """The stored file open for reading; 404 when it is gone from the storage."""
    try:
        return field_file.open("rb")
    except (FileNotFoundError, IsADirectoryError):
        raise Http404 from None


def inert_download(handle, *, filename: str, content_type: str) -> FileResponse:
    """`handle` as an inert attachment named `filename` (the caller makes it safe: ASCII,
    no path, the extension of the detected type)."""
    response = FileResponse(
        handle, as_attachment=True, filename=filename, content_type=content_type
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = INERT_CSP
    response["Cross-Origin-Resource-Policy"] = "same-origin"
    return response

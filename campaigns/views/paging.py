"""Windows of long lists in the HTML views: the cursor from the query, htmx's "older" fetch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404

from campaigns.paging import BadCursor
from campaigns.views.common import partial_request


def cursor(request, param: str = "before") -> str | None:
    return request.GET.get(param) or None


def more(request) -> str:
    """Which list's next window an htmx "Older" fetch asks for ("" for a whole page)."""
    return request.GET.get("more", "") if partial_request(request) else ""


def window(read: Callable[..., Any], *args, **kwargs) -> Any:
    """Call a windowed selector; a cursor the list did not hand out is a 404, not a 500."""
    try:
        return read(*args, **kwargs)
    except BadCursor:
        raise Http404 from None

"""Cursor (keyset) pagination for the API's history lists: no OFFSET, no COUNT.

DRF's ``CursorPagination`` keeps only the first ordering field in its cursor and counts an
offset over ties; these lists order by a composite key (``played_on, id``) or by a field that
must not be shown (the log's writing order ``seq``, whose gaps would betray another side's
private entries). So the position is every key of the last row, sealed (encrypted and bound to
the list's path, campaigns/paging.py), and the page is a seek on the index. The response keeps
CursorPagination's documented shape: ``{"next", "previous", "results"}``.
"""

from __future__ import annotations

from base64 import b64decode, b64encode
from urllib import parse

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.utils.urls import remove_query_param, replace_query_param

from campaigns.paging import beyond, key_values, seal, unseal


class KeysetCursorPagination(CursorPagination):
    """Seek pagination on ``keys`` (all ascending, or all descending with ``-``)."""

    keys: tuple[str, ...] = ("-id",)
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    invalid_cursor_message = _("Invalid cursor.")

    def _fields(self) -> list[str]:
        return [k.lstrip("-") for k in self.keys]

    def _descending(self) -> bool:
        return self.keys[0].startswith("-")

    def _context(self, request) -> str:
        return "api:" + request.path

    def paginate_queryset(self, queryset, request, view=None):
        self.page_size = self.get_page_size(request)
        self.request = request
        self.base_url = request.build_absolute_uri()
        reverse, position = self._decode(request)
        fields = self._fields()
        forward_lookup = "lt" if self._descending() else "gt"
        backward_lookup = "gt" if self._descending() else "lt"
        order = list(self.keys)
        if reverse:
            order = [k[1:] if k.startswith("-") else f"-{k}" for k in order]
        queryset = queryset.order_by(*order)
        if position is not None:
            lookup = backward_lookup if reverse else forward_lookup
            queryset = queryset.filter(beyond(fields, position, lookup=lookup))
        rows = list(queryset[: self.page_size + 1])
        more = len(rows) > self.page_size
        rows = rows[: self.page_size]
        if reverse:
            rows.reverse()
        self.page = rows
        # forward: an older page exists when more rows came; a newer one when we came from one
        self.has_next = more if not reverse else position is not None
        self.has_previous = position is not None if not reverse else more
        self.next_position = key_values(rows[-1], fields) if rows else None
        self.previous_position = key_values(rows[0], fields) if rows else None
        if not rows and position is not None:
            # past the end: the way back starts where the cursor pointed
            self.has_next = self.has_previous = False
        return rows

    def _decode(self, request):
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None:
            return False, None
        try:
            tokens = parse.parse_qs(b64decode(encoded.encode("ascii")).decode("ascii"))
            reverse = bool(int(tokens.get("r", ["0"])[0]))
            sealed = tokens["p"][0]
        except (TypeError, ValueError, KeyError, UnicodeError):
            raise NotFound(self.invalid_cursor_message) from None
        values = unseal(sealed, self._context(request))
        if values is None or len(values) != len(self.keys):
            raise NotFound(self.invalid_cursor_message)
        return reverse, values

    def _link(self, reverse: bool, position) -> str:
        tokens = {"p": seal(position, self._context(self.request))}
        if reverse:
            tokens["r"] = "1"
        encoded = b64encode(parse.urlencode(tokens, doseq=True).encode("ascii")).decode("ascii")
        return replace_query_param(self.base_url, self.cursor_query_param, encoded)

    def get_next_link(self):
        if not self.has_next or self.next_position is None:
            return None
        return self._link(False, self.next_position)

    def get_previous_link(self):
        if not self.has_previous:
            return None
        if self.previous_position is None:
            return remove_query_param(self.base_url, self.cursor_query_param)
        return self._link(True, self.previous_position)


class LogPagination(KeysetCursorPagination):
    """A campaign's log in writing order, oldest first, as its numbers run."""

    keys = ("seq",)


class ResultPagination(KeysetCursorPagination):
    """League results, latest played first (ties: latest entered first)."""

    keys = ("-played_on", "-id")


class NewestPagination(KeysetCursorPagination):
    """Rows newest first by id (histories appended in order, e.g. rating snapshots)."""

    keys = ("-id",)


class RatingHistoryPagination(KeysetCursorPagination):
    """A player's rating snapshots by system, method, league, then rating period."""

    keys = ("system", "method", "league_id", "seq")

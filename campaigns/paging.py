"""Keyset (seek) windows over an indexed order, with opaque, tamper-proof cursors.

A window is the newest ``size`` rows before a position, in descending key order: the database
seeks into the index and reads ``size + 1`` rows, never an OFFSET or a COUNT. The position of
the next (older) window travels as a sealed token: the key values are encrypted (an
HMAC-SHA256 keystream with a random nonce) and authenticated, bound to one list, so a cursor
reveals nothing (not the writing order ``seq`` of a log, whose gaps would betray another side's
private entries) and cannot be forged to probe hidden rows.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

NONCE = 8
TAG = 12


def _key() -> bytes:
    return hashlib.sha256(b"campaigns.paging:" + settings.SECRET_KEY.encode()).digest()


def _stream(key: bytes, nonce: bytes, n: int) -> bytes:
    out = b""
    block = 0
    while len(out) < n:
        out += hmac.new(key, b"ks" + nonce + block.to_bytes(4, "big"), hashlib.sha256).digest()
        block += 1
    return out[:n]


def _json(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def seal(values: Sequence[Any], context: str) -> str:
    """An opaque token for ``values`` (ints, strings, dates) usable only with ``context``."""
    plain = json.dumps([_json(v) for v in values], separators=(",", ":")).encode()
    key, nonce = _key(), os.urandom(NONCE)
    body = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
    tag = hmac.new(key, b"tag" + context.encode() + nonce + body, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(nonce + body + tag[:TAG]).decode().rstrip("=")


def unseal(token: str, context: str) -> list[Any] | None:
    """The values sealed in ``token`` for ``context``; None when it is not such a token."""
    if not token or len(token) > 400:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (ValueError, TypeError):
        return None
    if len(raw) <= NONCE + TAG:
        return None
    nonce, body, tag = raw[:NONCE], raw[NONCE:-TAG], raw[-TAG:]
    key = _key()
    expected = hmac.new(key, b"tag" + context.encode() + nonce + body, hashlib.sha256).digest()
    if not hmac.compare_digest(expected[:TAG], tag):
        return None
    plain = bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)), strict=True))
    try:
        values = json.loads(plain)
    except ValueError:
        return None
    return values if isinstance(values, list) else None


class BadCursor(ValueError):
    """A cursor that is not one this list handed out (tampered, or from another list)."""


@dataclass
class Window:
    """One window of a list, newest first, and the cursor of the next (older) window."""

    rows: list
    older: str | None = None
    at_start: bool = True

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __bool__(self) -> bool:
        return bool(self.rows)


def beyond(keys: Sequence[str], values: Sequence[Any], *, lookup: str = "lt") -> Q:
    """Rows strictly past ``values`` in the (lexicographic) order of ``keys``: before them with
    ``lt`` (a descending list's next rows), after them with ``gt``."""
    q = Q()
    for i, key in enumerate(keys):
        term = Q(**{k: v for k, v in zip(keys[:i], values[:i], strict=True)})
        term &= Q(**{f"{key}__{lookup}": values[i]})
        q |= term
    return q


def seek(
    qs: QuerySet,
    keys: Sequence[str],
    *,
    cursor: str | None,
    context: str,
    size: int,
    parse: Sequence[Callable[[Any], Any]] | None = None,
) -> Window:
    """The window of ``qs`` ordered by ``keys`` descending that starts after ``cursor``.

    ``keys`` must identify a row (end with a unique field) and be backed by an index. One query
    of ``size + 1`` rows. Raises ``BadCursor`` for a token this list did not hand out.
    """
    if cursor:
        values = unseal(cursor, context)
        if values is None or len(values) != len(keys):
            raise BadCursor(cursor)
        if parse:
            try:
                values = [p(v) for p, v in zip(parse, values, strict=True)]
            except (TypeError, ValueError) as exc:
                raise BadCursor(cursor) from exc
        qs = qs.filter(beyond(keys, values))
    rows = list(qs.order_by(*[f"-{k}" for k in keys])[: size + 1])
    older = None
    if len(rows) > size:
        rows = rows[:size]
        last = rows[-1]
        older = seal(key_values(last, keys), context)
    return Window(rows, older, at_start=not cursor)


def key_values(row: Any, keys: Sequence[str]) -> list[Any]:
    return [_attr(row, k) for k in keys]


def _attr(row: Any, key: str) -> Any:
    if isinstance(row, dict):
        return row[key]
    value = row
    for part in key.split("__"):
        value = value[part] if isinstance(value, dict) else getattr(value, part)
    return value


def as_date(value: Any) -> dt.date:
    return dt.date.fromisoformat(value)


def as_datetime(value: Any) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def as_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value

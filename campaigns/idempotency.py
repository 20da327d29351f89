"""Idempotent writes: the same request twice applies once and answers the same.

Two ways in, one store:

* **API** — a client sends an ``Idempotency-Key`` header (1–255 printable ASCII characters)
  with a create. The first request with a key runs and its answer (status and body) is kept
  for ``IDEMPOTENCY_TTL`` seconds; the same key again with the same body gets that answer
  replayed (header ``Idempotent-Replayed: true``) without running anything. The same key with
  another body is refused with 422; a repeat that arrives while the first is still running
  waits for it (up to ``IDEMPOTENCY_WAIT`` seconds, then 409). Without the header nothing
  changes. Decorate the DRF view method with ``@idempotent_api``.
* **Pages** — a form carries a hidden ``idempotency_token`` generated when the form is
  rendered (``{% idempotency_field %}`` from the ``idempotency`` tag library). A second POST
  with the same token does nothing and gets the first answer again (normally the redirect to
  the result). Decorate the view with ``@idempotent_form``.

Keys are scoped to the user, the method and the path, so one client's key never meets
another's. Only answers below 400 (pages) or 500 (API) are kept: after an error or an
exception the key is released and the request can be sent again.

The store is Django's cache (``IDEMPOTENCY_CACHE``, default ``"default"``): Redis in
production (``REDIS_CACHE_URL``), whose atomic ``add`` makes the claim safe across web
processes; the in-process memory cache in the embedded set-up.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
FORM_FIELD = "idempotency_token"
KEY_PATTERN = re.compile(r"^[\x21-\x7e]{1,255}$")
PENDING = "pending"
DONE = "done"
# Headers of a page answer worth replaying (a redirect's target, htmx instructions).
REPLAY_HEADERS = ("Location", "Content-Type", "HX-Redirect", "HX-Trigger", "HX-Refresh")


# For `extend_schema` of an idempotent operation.
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy(
        "Optional, 1 to 255 printable ASCII characters. The same key with the same body "
        "replays the first answer instead of applying the request again."
    ),
)
IDEMPOTENCY_RESPONSES = {
    409: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description=gettext_lazy("The first request with this key is still being processed."),
    ),
    422: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description=gettext_lazy("This key was already used with a different request body."),
    ),
}


class KeyReused(Exception):
    """The key was used for a different request."""


class InProgress(Exception):
    """The first request with this key has not finished yet."""


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _cache():
    return caches[_setting("IDEMPOTENCY_CACHE", "default")]


def new_token() -> str:
    """A fresh form token."""
    return secrets.token_urlsafe(18)


def valid_key(key: str) -> bool:
    return bool(KEY_PATTERN.match(key or ""))


def fingerprint(data: Any) -> str:
    """A stable digest of a request body (parsed: key order and spacing do not matter)."""
    if hasattr(data, "lists"):  # QueryDict
        data = {k: v for k, v in sorted(data.lists())}
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def cache_key(kind: str, request: HttpRequest, key: str) -> str:
    user = getattr(request, "user", None)
    who = user.pk if user is not None and user.is_authenticated else "anon"
    digest = hashlib.sha256(f"{who}|{request.method}|{request.path}|{key}".encode()).hexdigest()
    return f"idempotency:{kind}:{digest}"


def claim(name: str, digest: str, *, wait: float | None = None) -> dict | None:
    """Claim `name` for the request with body `digest`.

    Answers None when the caller now owns the key and must run the request (then `store` or
    `release` it), or the kept answer of the first request. Raises `KeyReused` when the key
    was used with another body, `InProgress` when the first request is still running after
    `wait` seconds."""
    cache = _cache()
    wait = _setting("IDEMPOTENCY_WAIT", 15.0) if wait is None else wait
    pending_ttl = _setting("IDEMPOTENCY_PENDING_TTL", 120)
    deadline = time.monotonic() + wait
    while True:
        if cache.add(name, {"state": PENDING, "digest": digest}, timeout=pending_ttl):
            return None
        entry = cache.get(name)
        if entry is None:  # released or expired between the two calls: try again
            continue
        if entry.get("digest") != digest:
            raise KeyReused
        if entry.get("state") == DONE:
            return entry
        if time.monotonic() >= deadline:
            raise InProgress
        time.sleep(0.05)


def store(name: str, digest: str, answer: dict) -> None:
    """Keep the first request's answer for replays."""
    _cache().set(
        name,
        {"state": DONE, "digest": digest, **answer},
        timeout=_setting("IDEMPOTENCY_TTL", 24 * 3600),
    )


def release(name: str) -> None:
    """Forget a claim whose request failed, so that it can be sent again."""
    _cache().delete(name)


def run_once(name: str, digest: str, run: Callable[[], Any], keep: Callable[[Any], dict | None]):
    """Claim, run, keep: `keep` turns the answer into what to store (None: do not keep)."""
    kept = claim(name, digest)
    if kept is not None:
        return True, kept
    try:
        answer = run()
    except BaseException:
        release(name)
        raise
    stored = keep(answer)
    if stored is None:
        release(name)
    else:
        store(name, digest, stored)
    return False, answer


# --- API (Django REST framework) ---------------------------------------------------------------


def _api_error(message: str, status: int) -> Response:
    """A refusal shaped like the others: a 400 names the header as its field."""
    return Response({HEADER if status == 400 else "detail": [message]}, status=status)


def idempotent_api(method: Callable) -> Callable:
    """Make a DRF view method (create, a POST action) idempotent under `Idempotency-Key`."""

    @functools.wraps(method)
    def wrapper(self, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return method(self, request, *args, **kwargs)
        if not valid_key(key):
            return _api_error(
                _("The Idempotency-Key header must be 1 to 255 printable ASCII characters."), 400
            )
        name = cache_key("api", request, key)
        try:
            replayed, answer = run_once(
                name,
                fingerprint(request.data),
                lambda: method(self, request, *args, **kwargs),
                _keep_api,
            )
        except KeyReused:
            return _api_error(
                _("This Idempotency-Key was already used with a different request body."), 422
            )
        except InProgress:
            return _api_error(
                _("A request with this Idempotency-Key is still being processed; try again."),
                409,
            )
        if not replayed:
            return answer
        response = Response(answer["data"], status=answer["status"])
        for header, value in answer["headers"].items():
            response[header] = value
        response[REPLAYED_HEADER] = "true"
        return response

    return wrapper


def _keep_api(response) -> dict | None:
    if response.status_code >= 500 or not hasattr(response, "data"):
        return None
    headers = {h: response[h] for h in ("Location",) if response.has_header(h)}
    data = json.loads(JSONRenderer().render(response.data) or b"null")  # plain data to keep
    return {"status": response.status_code, "data": data, "headers": headers}


# --- Pages -----------------------------------------------------------------------------------


def idempotent_form(view: Callable) -> Callable:
    """Make a page's POST idempotent under the form's hidden `idempotency_token`."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        token = request.POST.get(FORM_FIELD, "") if request.method == "POST" else ""
        if not valid_key(token):
            return view(request, *args, **kwargs)
        name = cache_key("form", request, token)
        try:
            replayed, answer = run_once(
                name, "", lambda: view(request, *args, **kwargs), _keep_page
            )
        except InProgress:
            return HttpResponse(
                _("This form is still being processed; reload the page in a moment."),
                status=409,
                content_type="text/plain; charset=utf-8",
            )
        if not replayed:
            return answer
        response = HttpResponse(answer["content"], status=answer["status"])
        for header, value in answer["headers"].items():
            response[header] = value
        response[REPLAYED_HEADER] = "true"
        return response

    return wrapper


def _keep_page(response) -> dict | None:
    if response.status_code >= 400 or getattr(response, "streaming", False):
        return None
    return {
        "status": response.status_code,
        "content": response.content,
        "headers": {h: response[h] for h in REPLAY_HEADERS if response.has_header(h)},
    }

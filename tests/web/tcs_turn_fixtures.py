"""Helpers and fixtures shared by the TCS turn tests, imported normally: the Bloody 110
operation and its two players' API clients (alice plays the Germans, bob the Americans), one
API call with its status checked, and one htmx card post. `tcs_api_fixtures` hands the
fixtures on to the modules that load it with `pytest_plugins`."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.web.test_tcs_pages import bloody_110

API = "/api/v1/tcs"


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


@pytest.fixture
def alice(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


@pytest.fixture
def bob(other_user):
    api = APIClient()
    api.force_authenticate(other_user)
    return api


def call(client, method, path, data=None, status=200, **kw):
    """One API request, its status checked; the JSON answer (None when empty)."""
    response = getattr(client, method)(f"{API}{path}", data, format="json", **kw)
    assert response.status_code == status, (path, response.status_code, response.content)
    return response.json() if response.content else None


def hx_card(client, url, action, **fields):
    """Post one card of a TCS turn page as htmx does: `action` and its fields, each under the
    card's prefix (``fire-kind`` for ``hx_card(client, url, "fire", kind=…)``)."""
    data = {"action": action, **{f"{action}-{name}": value for name, value in fields.items()}}
    return client.post(url, data, HTTP_HX_REQUEST="true")

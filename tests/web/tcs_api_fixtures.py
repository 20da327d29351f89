"""Fixtures shared by the TCS API tests: the Bloody 110 operation and its two players' API
clients (alice plays the Germans, bob the Americans). Loaded with `pytest_plugins`."""

import pytest
from rest_framework.test import APIClient

from tests.web.test_tcs_pages import bloody_110


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

"""Fixtures shared by the TCS API tests: the Bloody 110 operation and its two players' API
clients (alice plays the Germans, bob the Americans). Loaded with `pytest_plugins`; they are
defined in `tests.web.tcs_turn_fixtures`, which the page tests import."""

from tests.web.tcs_turn_fixtures import alice, bob, op  # noqa: F401

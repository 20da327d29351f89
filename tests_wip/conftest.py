"""Work in progress, outside `testpaths`: run with `pytest tests_wip/`. Uses the fixtures of
tests/conftest.py (sign-in throttling off, Celery eager, uploads in a temporary folder)."""

from tests.conftest import *  # noqa: F403

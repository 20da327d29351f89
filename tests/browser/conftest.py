"""Headless Debian Chromium driven by Playwright against pytest-django's live server.

Playwright never downloads a browser here: it launches /usr/bin/chromium. On failure the
page is saved as a screenshot under test-results/ next to the test output.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.conftest import require_service

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-results"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the test
# itself (fixtures, assertions) are synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        require_service(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"{request.node.name}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot saved: {shot}")
    context.close()

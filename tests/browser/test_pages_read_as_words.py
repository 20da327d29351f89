"""Every page reachable from the demo data, as a new player meets it (issue 17): at 390 px
and 1280 px, in English and in Spanish, signed in and not.

Each page must fit the screen (no sideways scroll), show no identifier (`snake_case`) where
a person reads, and, in Spanish, every message the engine stored must have its Spanish words
in the catalogue (tests/web/test_engine_words.py; the catalogue's own coverage is
tests/web/test_translations.py). A failing
page is saved as a screenshot under test-results/.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

import pytest
from django.core.management import call_command
from django.test import Client

from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SKIP = ("/admin/", "/static/", "/media/", "/api/", "/accounts/logout", "/favicon")
DOWNLOADS = re.compile(r"\.(csv|json|pdf|png|jpe?g)$|/export|/download|/graphic")
IDENTIFIER = re.compile(r"(?<![\w./@:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/@])")
WIDTHS = (390, 1280)
LIMIT = 90  # pages per crawl: every kind of page of the demo, not every row of every list

OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.right > w + 1 && getComputedStyle(e).position !== 'fixed' &&
      !e.closest('.scroll, [data-scroll], pre, table, svg');
  }).slice(0, 3).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''));
  return {scroll: document.documentElement.scrollWidth, width: w, wide};
}"""
VISIBLE_TEXT = """() => {
  const skip = new Set(['SCRIPT', 'STYLE', 'CODE', 'PRE', 'TEXTAREA', 'KBD', 'SAMP']);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  while (walker.nextNode()) {
    const n = walker.currentNode, p = n.parentElement;
    if (!p || p.closest('code, pre, textarea, kbd, samp, [data-identifier]')) continue;
    if (skip.has(p.tagName) || !p.offsetParent && getComputedStyle(p).position !== 'fixed') continue;
    out.push(n.textContent);
  }
  return out.join(' ');
}"""


def crawl(client: Client, starts: list[str]) -> list[str]:
    """Pages reachable by links (GET, HTML), at most LIMIT, skipping a list's later rows."""
    seen, queue, pages, shapes = set(), list(starts), [], {}
    while queue and len(pages) < LIMIT:
        url = urldefrag(queue.pop(0))[0]
        if url in seen or url.startswith(SKIP) or DOWNLOADS.search(url):
            continue
        seen.add(url)
        shape = re.sub(r"\d+", "N", url.split("?")[0])
        if shapes.get(shape, 0) >= 2:  # two of each kind of page is enough
            continue
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        shapes[shape] = shapes.get(shape, 0) + 1
        pages.append(url)
        for href in re.findall(r'href="(/[^"]*)"', response.content.decode()):
            queue.append(href.replace("&amp;", "&"))
    return pages


def visit(browser, base_url: str, pages: list[str], cookies: list[dict]) -> list[str]:
    problems = []
    for lang in ("en", "es"):
        for width in WIDTHS:
            context = browser.new_context(
                base_url=base_url, viewport={"width": width, "height": 800}, locale=lang
            )
            context.add_cookies(
                [*cookies, {"name": "django_language", "value": lang, "url": base_url}]
            )
            page = context.new_page()
            page.set_default_timeout(10_000)
            for url in pages:
                page.goto(url)
                found = []
                box = page.evaluate(OVERFLOW)
                if box["scroll"] > box["width"] + 1:
                    found.append(f"{box['scroll']} px wide ({', '.join(box['wide'])})")
                words = set(IDENTIFIER.findall(page.evaluate(VISIBLE_TEXT)))
                if words:
                    found.append(f"identifiers {sorted(words)[:6]}")
                if found:
                    problems.append(f"{lang} {width}px {url}: {'; '.join(found)}")
                    ARTIFACTS.mkdir(exist_ok=True)
                    name = re.sub(r"\W+", "_", f"{lang}_{width}_{url}").strip("_")[:120]
                    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            context.close()
    return problems


@pytest.fixture
def demo():
    call_command("load_demo")
    client = Client()
    assert client.login(username="demo", password="ledger-demo")
    home = client.get("/").content.decode()
    campaign = re.search(r'href="(/campaigns/\d+/)"', home).group(1)
    client.post(campaign + "advance/")  # open the sealed purchase
    return client, campaign


def test_every_page_fits_a_phone_and_reads_as_words(browser, live_server, demo):
    client, campaign = demo
    signed_in = crawl(client, ["/"])
    assert len(signed_in) > 30
    cookie = client.cookies["sessionid"]
    session = [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
    problems = visit(browser, live_server.url, signed_in, session)
    visitor = crawl(Client(), ["/", "/clubs/", campaign])
    problems += visit(browser, live_server.url, visitor, [])
    assert problems == [], "\n".join(problems)

"""Every page reachable from the demo data, as a new player meets it (issue 17): at 390 px
and 1280 px, in English and in Spanish, signed in and not.

Each page must fit the screen (no sideways scroll), show no identifier (`snake_case`) where
a person reads, and, in Spanish, no English sentence outside what the players typed; every
message the engine stored must have its Spanish words in the catalogue (tests/web/test_engine_words.py; the catalogue's own coverage is
tests/web/test_translations.py). A failing
page is saved as a screenshot under test-results/.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

import pytest
from django.core.management import call_command
from django.test import Client

from campaigns.models import (
    Campaign,
    Club,
    League,
    Roster,
    SkirmishBattle,
    TcsFormation,
)
from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SKIP = ("/admin/", "/static/", "/media/", "/api/", "/accounts/logout", "/favicon")
DOWNLOADS = re.compile(r"\.(csv|json|pdf|png|jpe?g)$|/export|/download|/graphic")
IDENTIFIER = re.compile(r"(?<![\w./@:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/@])")
WIDTHS = (390, 1280)
LIMIT = 160  # pages per crawl: every kind of page of the demo, not every row of every list
PER_SHAPE = 3  # pages of each kind (same URL but for its numbers)
ENGLISH = re.compile(r"\b(?:the|and|with|which|your|you|must|has|have|is|are|of)\b")
"""Words of English sentences: on a Spanish page they mean an untranslated text."""

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
        if shapes.get(shape, 0) >= PER_SHAPE:
            continue
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        shapes[shape] = shapes.get(shape, 0) + 1
        pages.append(url)
        for href in re.findall(r'href="(/[^"]*)"', response.content.decode()):
            queue.append(href.replace("&amp;", "&"))
    return pages


def typed_words() -> list[str]:
    """What players typed (names, descriptions): their words, never translated; longest first
    so a name is taken out before a shorter one inside it."""
    fields = [
        (Campaign, ("name", "description")),
        (Club, ("name", "description")),
        (League, ("name",)),
        (Roster, ("name",)),
        (SkirmishBattle, ("title",)),
        (TcsFormation, ("name",)),
    ]
    found = {
        text.strip()
        for model, names in fields
        for row in model.objects.values_list(*names)
        for text in row
        if text and text.strip()
    }
    return sorted(found, key=len, reverse=True)


def english_left(text: str, typed: list[str]) -> list[str]:
    """Bits of English sentences on a Spanish page, once the players' own words are out."""
    for words in typed:
        text = text.replace(words, " ")
    text = re.sub(r"\s+", " ", text)
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in ENGLISH.finditer(text)]


def visit(browser, base_url: str, pages: list[str], cookies: list[dict]) -> list[str]:
    problems, typed = [], typed_words()
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
                text = page.evaluate(VISIBLE_TEXT)
                words = set(IDENTIFIER.findall(text))
                if words:
                    found.append(f"identifiers {sorted(words)[:6]}")
                english = english_left(text, typed) if lang == "es" else []
                if english:
                    found.append(f"English {english[:4]}")
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
    campaign = Campaign.objects.get(name="Stalingrad: Mamayev Kurgan").get_absolute_url()
    client.post(campaign + "advance/")  # open the sealed purchase
    return client, campaign


def test_every_page_fits_a_phone_and_reads_as_words(browser, live_server, demo):
    client, campaign = demo
    battles = [b.get_absolute_url() for b in SkirmishBattle.objects.filter(status="playing")]
    signed_in = crawl(client, ["/", *battles])
    assert len(signed_in) > 30 and set(battles) <= set(signed_in)
    cookie = client.cookies["sessionid"]
    session = [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
    problems = visit(browser, live_server.url, signed_in, session)
    visitor = crawl(Client(), ["/", "/clubs/", campaign])
    problems += visit(browser, live_server.url, visitor, [])
    assert problems == [], "\n".join(problems)

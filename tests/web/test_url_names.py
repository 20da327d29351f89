"""Every URL name a template or view reverses exists (a missing one is a 500 at runtime)."""

import re
from pathlib import Path

from django.urls import get_resolver

ROOT = Path(__file__).resolve().parents[2]


def _names(resolver, prefix=""):
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            ns = f"{pattern.namespace}:" if pattern.namespace else ""
            yield from _names(pattern, prefix + ns)
        elif pattern.name:
            yield prefix + pattern.name


def test_every_reversed_url_name_exists():
    names = set(_names(get_resolver()))
    used = set()
    for path in (ROOT / "templates").rglob("*.html"):
        used |= {
            (m, path.name) for m in re.findall(r"{%\s*url\s+['\"]([^'\"]+)['\"]", path.read_text())
        }
    for path in (ROOT / "campaigns").rglob("*.py"):
        text = path.read_text()
        used |= {
            (m, path.name)
            for m in re.findall(r"(?:reverse|redirect)\(\s*['\"]([a-z0-9:_-]+)['\"]", text)
        }
    assert len(used) > 100
    assert sorted((n, f) for n, f in used if n not in names) == []

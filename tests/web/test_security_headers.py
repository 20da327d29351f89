"""Security headers on every response: Content-Security-Policy (django-csp), Permissions-Policy,
Referrer-Policy; and no inline script or style left in the templates for the CSP to block."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


def _assert_headers(response):
    csp = _directives(response)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["form-action"] == ["'self'"]
    assert csp["base-uri"] == ["'self'"]
    header = response["Content-Security-Policy"]
    assert "unsafe-eval" not in header
    assert "unsafe-inline" not in header
    permissions = response["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/dice/odds/?kind=2d6",
        "/api/v1/",
        "/api/v1/campaigns/",
        "/api/schema/",
        "/healthz",
        "/no-such-page/",
        "/api/v1/no-such-thing/",
    ],
)
def test_every_response_carries_the_security_headers(client, url):
    _assert_headers(client.get(url))


def test_headers_on_writes_redirects_and_errors(client, user):
    _assert_headers(client.post(reverse("login"), {"username": "alice", "password": "x"}))
    client.force_login(user)
    _assert_headers(client.get(reverse("campaign-new")))
    _assert_headers(client.post("/api/v1/campaigns/", {}, content_type="application/json"))
    _assert_headers(client.post(reverse("logout")))  # a redirect


def test_static_files_carry_them_too(client, settings):
    # whitenoise serves from the finders here (in production, from collectstatic's folder).
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    response = client.get("/static/js/ledger.js")
    assert response.status_code == 200
    _assert_headers(response)


def test_api_docs_page_has_its_own_policy_and_no_inline_script(client):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    csp = _directives(response)
    assert csp["script-src"] == ["'self'"]  # Swagger UI's start-up script is a separate file
    assert csp["style-src"] == ["'self'", "'unsafe-inline'"]
    assert csp["img-src"] == ["'self'", "data:"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    html = response.content.decode()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
    start_up = re.findall(r'<script src="([^"]*script=[^"]*)"', html)[0].replace("&amp;", "&")
    script = client.get(start_up)
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
    # The rest of the site keeps the strict policy.
    assert "unsafe-inline" not in client.get("/")["Content-Security-Policy"]


INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)


def test_templates_have_no_inline_script_handler_style_or_eval():
    offenders = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        for what, pattern in [
            ("inline <script>", INLINE_SCRIPT),
            ("on* handler", INLINE_HANDLER),
            ("style attribute", re.compile(r"\sstyle\s*=", re.I)),
            ("<style> element", re.compile(r"<style\b", re.I)),
            ("hx-on (needs eval)", re.compile(r"\shx-on[:-]", re.I)),
            ("javascript: URL", re.compile(r"javascript:", re.I)),
            ("js: value (needs eval)", re.compile(r"hx-(vals|vars)=['\"]js:", re.I)),
        ]:
            if pattern.search(text):
                offenders.append(f"{path.relative_to(ROOT)}: {what}")
    assert offenders == []


def test_htmx_is_configured_for_the_csp(client):
    html = client.get("/").content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'', html).group(1)
    assert '"includeIndicatorStyles": false' in config
    assert '"allowEval": false' in config
    assert "js/ledger.js" in html

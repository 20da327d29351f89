"""No input causes a server error: every URL pattern and every API operation, fed bad input.

Signed in as a player of the demo data (plus a TCS operation with an op sheet carrying a
graphic, a skirmish and a club invite), the suite walks every URL pattern of the resolver
and every operation of the OpenAPI schema and sends: NUL bytes in the path, the query and
the body; JSON that is not an object or is nested far too deep; oversized strings; huge
numbers (1e308, 10**30); wrong content types; unusual methods (TRACE, OPTIONS, PUT). Any
5xx is a failure naming the request. The counts are printed (run with ``-s``).
"""

import json
import re
from collections import Counter
from html import unescape as html_unescape
from io import BytesIO
from urllib.parse import quote, urlencode

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Q
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from PIL import Image

from campaigns.jsontext import JSONTextError, loads_checked
from campaigns.middleware import find_control_character
from campaigns.models import (
    Battle,
    Campaign,
    ClubMembership,
    Decision,
    League,
    Result,
    Roster,
    SkirmishBattle,
)
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsDecision, TcsFormation, TcsUnit
from campaigns.services.club_admin import club_invite_create
from campaigns.services.skirmish import skirmish_create
from campaigns.services.tcs import tcs_sheet_draw
from tests.web.test_tcs_pages import bloody_110

pytestmark = pytest.mark.django_db

NUL = "a\x00b"
CONTROL = "a\x07b"
BIG_TEXT = "x" * 200_000
DEEP_JSON = "[" * 5_000 + "]" * 5_000
DEEP_OBJECT = '{"a": ' * 3_000 + "1" + "}" * 3_000
HUGE_FLOAT_TEXT = "1e308"
HUGE_INT_TEXT = str(10**30)
# Every pattern gets GETs, odd methods and NUL values; these get no bodies (the admin is for
# staff only and answers a player with a redirect; signing out would end the run).
NO_BODIES = ("/admin/", "/api/docs", "/api/schema", "/accounts/logout")
COUNTS: Counter = Counter()
BAD_FILES = (
    ("nul.csv", b"type,id,name,played_on,team_a,team_b,outcome\nunit,a\x00b,x,2026-01-01,a,b,a\n"),
    ("deep.json", DEEP_JSON.encode()),
    ("big.csv", b"type,id\n" + b"x" * 300_000 + b"\n"),
    ("latin1.csv", "type,id\nunit,\u00e9\n".encode("latin-1")),
    ("plan.html", b"\x89PNG\r\n\x1a\n<html><script>alert(1)</script>"),
)
# Every query parameter a page reads (grep request.GET), sent with odd values.
QUERY_NAMES = (
    "q", "page", "entry", "battle", "kind", "roll_kind", "modifier", "tb", "status", "system",
    "partial", "player", "finished", "club", "campaign", "method", "league", "outcome",
)  # fmt: skip


# --- the data ------------------------------------------------------------------------------


def _png() -> SimpleUploadedFile:
    buffer = BytesIO()
    Image.new("RGB", (4, 4), "white").save(buffer, format="PNG")
    return SimpleUploadedFile("plan.png", buffer.getvalue(), content_type="image/png")


@pytest.fixture
def world():
    """Demo-like objects; ``ids`` maps a URL parameter (in its context) to a real value."""
    call_command("load_demo")
    users = get_user_model().objects
    demo, rival = users.get(username="demo"), users.get(username="rival")
    client = Client(raise_request_exception=False)
    client.force_login(demo)
    cc = Campaign.objects.get(name="Stalingrad: Mamayev Kurgan")
    client.post(f"/campaigns/{cc.pk}/advance/")  # opens the sealed purchase: a decision
    op = bloody_110(demo, rival)
    germans = op.sides.order_by("order").first()
    sheet = tcs_sheet_draw(
        side=germans, actor=demo, code="A", missions={"1-123/1": "attack"}, graphic=_png()
    )
    assert sheet.graphic  # the op-sheet edit page answered 500 for a sheet with a graphic
    club = cc.club
    invite = club_invite_create(club=club, actor=demo)
    roster = Roster.objects.filter(owner=demo, system="parabellum").first()
    skirmish = skirmish_create(
        creator=demo, roster=roster, role="attacker", opponent=rival, mode="orders"
    )
    battle = Battle.objects.filter(campaign=cc).first()
    decision = Decision.objects.first()
    ids = {
        "cc": cc.pk,
        "tcs": op.pk,
        "tcs_side": germans.pk,
        "cc_side": cc.sides.order_by("order").first().pk,
        "battle": battle.number if battle else 1,
        "decision": decision.pk if decision else 1,
        "sheet": sheet.pk,
        "club": club.slug,
        "invite": invite.pk,
        "token": str(getattr(invite, "token", "x")),
        "member": ClubMembership.objects.filter(club=club, user=rival).first().pk,
        "rival": rival.pk,
        "league": League.objects.first().pk,
        "result": Result.objects.first().pk,
        "roster": roster.pk,
        "skirmish": skirmish.pk,
        "phase": getattr(CommandPhase.objects.first(), "pk", 1),
        "tcs_decision": getattr(TcsDecision.objects.first(), "pk", 1),
        "formation": TcsFormation.objects.filter(side__campaign=op).first().pk,
        "unit": TcsUnit.objects.filter(side__campaign=op).first().pk,
    }
    assert OpSheetRecord.objects.filter(pk=sheet.pk).exists()
    assert SkirmishBattle.objects.filter(pk=skirmish.pk).exists()
    return client, ids


# Which object a `pk`/`id` parameter names, by the path around it (first match wins).
CONTEXTS = (
    ("command-phases", "phase"),
    ("tcs/decisions", "tcs_decision"),
    ("tcs/formations", "formation"),
    ("tcs/units", "unit"),
    ("op-sheets", "sheet"),
    ("tcs/sides", "tcs_side"),
    ("tcs/operations", "tcs"),
    ("/tcs", "tcs"),
    ("club-invites", "invite"),
    ("club-members", "member"),
    ("leagues", "league"),
    ("results", "result"),
    ("rosters", "roster"),
    ("skirmishes", "skirmish"),
    ("campaign", "cc"),
)
BY_NAME = {
    "side_pk": lambda path: "tcs_side" if "/tcs/" in path else "cc_side",
    "decision_pk": lambda path: "decision",
    "number": lambda path: "battle",
    "sheet_pk": lambda path: "sheet",
    "invite_pk": lambda path: "invite",
    "user_pk": lambda path: "rival",
    "rid": lambda path: "result",
    "slug": lambda path: "club",
    "token": lambda path: "token",
}
LITERALS = {
    "username": "demo",
    "template": "stalingrad",
    "action": "void",
    "seq": "1",
    "name": "orders",
    "format": "json",
    "content_type_id": "1",
    "object_id": "1",
}


def value_for(name: str, path: str, ids: dict) -> str:
    if name in LITERALS:
        return LITERALS[name]
    if name in BY_NAME:
        if name == "slug" and "templates" in path:
            return "stalingrad"
        return str(ids[BY_NAME[name](path)])
    for marker, key in CONTEXTS:
        if marker in path:
            return str(ids[key])
    return "1"


# --- the URL patterns ---------------------------------------------------------------------

PARAM = re.compile(r"<(?:(\w+):)?(\w+)>|\(\?P<(\w+)>[^)]*\)")
STRING_CONVERTERS = {"str", "slug", "path", None}


def url_patterns():
    def walk(resolver, prefix=""):
        for entry in resolver.url_patterns:
            pattern = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from walk(entry, pattern)
            elif isinstance(entry, URLPattern):
                yield pattern

    return list(walk(get_resolver()))


def build_path(pattern: str, ids: dict, bad: str | None = None) -> str | None:
    """The path for `pattern` with real values; with `bad`, every string parameter gets it
    (None when the pattern has no string parameter to carry it)."""
    carried = False

    def substitute(match):
        nonlocal carried
        converter, name = match.group(1), match.group(2) or match.group(3)
        regex = match.group(0)
        takes_text = (match.group(3) is None and converter in STRING_CONVERTERS) or (
            match.group(3) is not None and "[^/" in regex
        )
        if bad is not None and takes_text and name != "format":
            carried = True
            return quote(bad, safe="")
        return quote(value_for(name, pattern, ids), safe="")

    path = PARAM.sub(substitute, pattern)
    path = "/" + path.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
    if bad is not None and not carried:
        return None
    return path


FIELD = re.compile(r"<(input|textarea|select)\b([^>]*)>", re.I)
ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.I | re.S)


def form_fields(html: str, path: str) -> dict[str, dict[str, str]]:
    """Per form action (a path), its field names and types from a page."""
    forms: dict[str, dict[str, str]] = {}
    for attrs, body in FORM.findall(html):
        action = dict(ATTR.findall(attrs)).get("action") or path
        fields = forms.setdefault(action.split("?")[0].replace("&amp;", "&"), {})
        for tag, field_attrs in FIELD.findall(body):
            attributes = dict(ATTR.findall(field_attrs))
            name = attributes.get("name")
            if name and name != "csrfmiddlewaretoken":
                fields[name] = attributes.get("type", tag).lower()
    return forms


OPTION = re.compile(r"<option\b([^>]*)>", re.I)
TEXTAREA = re.compile(r"<textarea\b([^>]*)>(.*?)</textarea>", re.I | re.S)
SELECT = re.compile(r"<select\b([^>]*)>(.*?)</select>", re.I | re.S)


def filled_forms(html: str, path: str):
    """Each form of a page as (action, values a browser would send, field kinds)."""
    for attrs, body in FORM.findall(html):
        action = dict(ATTR.findall(attrs)).get("action") or path
        values, kinds = {}, {}
        for field_attrs in re.findall(r"<input\b([^>]*)>", body, re.I):
            a = dict(ATTR.findall(field_attrs))
            kind = a.get("type", "text").lower()
            if not a.get("name") or kind == "submit" or a["name"].startswith("csrf"):
                continue
            if kind == "file":
                kinds[a["name"]] = kind
                continue
            if kind in ("checkbox", "radio") and "checked" not in field_attrs:
                continue
            values[a["name"]], kinds[a["name"]] = html_unescape(a.get("value", "")), kind
        for field_attrs, text in TEXTAREA.findall(body):
            name = dict(ATTR.findall(field_attrs)).get("name")
            if name:
                values[name], kinds[name] = html_unescape(text.strip()), "textarea"
        for field_attrs, options in SELECT.findall(body):
            name = dict(ATTR.findall(field_attrs)).get("name")
            choices = [dict(ATTR.findall(o)) | {"selected": "selected" in o} for o in
                       OPTION.findall(options)]  # fmt: skip
            chosen = [c for c in choices if c["selected"]] or [c for c in choices if c.get("value")]
            if name and chosen:
                values[name], kinds[name] = html_unescape(chosen[0].get("value", "")), "select"
        yield action.split("?")[0].replace("&amp;", "&"), values, kinds


def one_bad_field(values: dict, kinds: dict):
    """The form as filled, with one field at a time out of bounds."""
    for name, kind in kinds.items():
        if kind in ("number", "hidden"):
            bad = (HUGE_INT_TEXT, HUGE_FLOAT_TEXT, "\u00b2")
        elif kind in ("text", "textarea", "search", "email", "url"):
            bad = (BIG_TEXT, DEEP_JSON) if kind == "textarea" else (BIG_TEXT, HUGE_INT_TEXT)
        elif kind == "select":
            bad = (HUGE_INT_TEXT,)
        else:
            continue
        for value in bad:
            yield f"{name}={value[:12]!r}", values | {name: value}


def form_bodies(fields: dict[str, str]):
    """Form bodies with every field set to one bad value (files get a tiny bad file)."""
    names = [n for n, kind in fields.items() if kind != "file"] or ["q", "name", "notes"]
    for label, value in (
        ("NUL", NUL),
        ("oversized", BIG_TEXT),
        ("1e308", HUGE_FLOAT_TEXT),
        ("10**30", HUGE_INT_TEXT),
        ("deep JSON", DEEP_JSON),
    ):
        yield label, dict.fromkeys(names, value)
    yield "NUL name", {NUL: "1"}


INT_RANGES = {
    "SmallIntegerField": 2**15 - 1,
    "PositiveSmallIntegerField": 2**15 - 1,
    "IntegerField": 2**31 - 1,
    "PositiveIntegerField": 2**31 - 1,
}


def postgres_would_refuse() -> list[str]:
    """Rows SQLite stored but PostgreSQL refuses with a server error: text over its
    max_length or holding NUL, integers beyond their column, non-finite floats."""
    problems = []
    for model in apps.get_models():
        rows = model._default_manager.all()
        for f in model._meta.concrete_fields:
            kind = f.get_internal_type()
            if kind in ("CharField", "SlugField", "TextField", "EmailField", "URLField"):
                values = [v for v in rows.values_list(f.name, flat=True) if v]
                if any("\x00" in v for v in values):
                    problems.append(f"{model.__name__}.{f.name} holds NUL")
                too_long = kind != "TextField" and f.max_length
                if too_long and any(len(v) > f.max_length for v in values):
                    problems.append(f"{model.__name__}.{f.name} over {f.max_length}")
            elif kind in INT_RANGES:
                limit = INT_RANGES[kind]
                if rows.filter(Q(**{f"{f.name}__gt": limit}) | Q(**{f"{f.name}__lt": -limit})):
                    problems.append(f"{model.__name__}.{f.name} beyond {kind}")
            elif kind == "FloatField" and rows.filter(
                Q(**{f"{f.name}__gt": 1e300}) | Q(**{f"{f.name}__lt": -1e300})
            ):
                problems.append(f"{model.__name__}.{f.name} huge or infinite")
    return problems


def _check(failures, client_response, what):
    COUNTS["requests"] += 1
    COUNTS[f"{client_response.status_code // 100}xx"] += 1
    if client_response.status_code >= 500:
        failures.append(f"{what} -> {client_response.status_code}")


def test_every_url_pattern_refuses_bad_input_without_a_server_error(world):
    client, ids = world
    failures: list[str] = []
    patterns = url_patterns()
    forms: dict[str, dict[str, str]] = {}
    paths, pages = {}, {}
    for pattern in patterns:
        path = build_path(pattern, ids)
        paths[pattern] = path
        response = client.get(path)
        _check(failures, response, f"GET {path}")
        if "text/html" in response.get("Content-Type", ""):
            pages[path] = response.content.decode()
            for action, fields in form_fields(response.content.decode(), path).items():
                forms.setdefault(action, {}).update(fields)
        _check(failures, client.get(path, {"q": NUL, NUL: "1", "page": HUGE_INT_TEXT}), path)
        for odd in (HUGE_INT_TEXT, "\u00b2"):
            _check(failures, client.get(path, dict.fromkeys(QUERY_NAMES, odd)), f"{path}?{odd!r}")
        for method in ("trace", "options", "put"):
            _check(failures, getattr(client, method)(path, "x\x00"), f"{method} {path}")
        bad_path = build_path(pattern, ids, bad=NUL)
        if bad_path:
            _check(failures, client.get(bad_path), f"GET {bad_path!r}")
            _check(failures, client.post(bad_path, {"x": "1"}), f"POST {bad_path!r}")
        COUNTS["url inputs"] += 1
    for path in paths.values():
        if (
            path.startswith(NO_BODIES)
            or "export" in path
            or path.endswith(("/delete/", "/archive/"))
        ):
            continue  # deleting would hide later answers
        fields = forms.get(path, {})
        for label, body in form_bodies(fields):
            _check(failures, client.post(path, body), f"POST {path} form {label}")
        for label, payload in (("[1]", "[1]"), ("deep", DEEP_JSON)):
            response = client.post(path, payload, content_type="application/json")
            _check(failures, response, f"POST {path} JSON {label}")
        response = client.post(path, "\x00garbage", content_type="text/plain")
        _check(failures, response, f"POST {path} text/plain")
        response = client.post(path, b"--x\r\n\x00", content_type="multipart/form-data; boundary=x")
        _check(failures, response, f"POST {path} broken multipart")
    tried = set()
    for page in paths.values():
        if page in pages:
            for action, values, kinds in filled_forms(pages[page], page):
                key = (action, tuple(sorted(kinds)))
                if key in tried or not action.startswith("/") or action.startswith(NO_BODIES):
                    continue
                tried.add(key)
                _check(failures, client.post(action, values), f"POST {action} as filled")
                for label, body in one_bad_field(values, kinds):
                    _check(failures, client.post(action, body), f"POST {action} {label}")
                for name in (n for n, kind in kinds.items() if kind == "file"):
                    for label, content in BAD_FILES:
                        upload = SimpleUploadedFile(label, content)
                        response = client.post(action, values | {name: upload})
                        _check(failures, response, f"POST {action} {name}={label}")
    COUNTS["url patterns"] = len(patterns)
    failures += postgres_would_refuse()
    print(
        f"\nbad input: {len(patterns)} URL patterns, {len(tried)} filled forms, "
        f"{COUNTS['requests']} requests"
    )
    assert not failures, "\n".join(failures)


# --- the API operations -------------------------------------------------------------------


def api_operations():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {})
            schema_ref = next(iter(body.values()), {}).get("schema", {})
            yield method, path, operation, _properties(schema_ref, components)


def _resolve(schema: dict, components: dict) -> dict:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    for key in ("allOf", "oneOf", "anyOf"):
        if schema.get(key):
            return _resolve(schema[key][0], components)
    return schema


def _properties(schema: dict, components: dict) -> dict[str, tuple[str, object]]:
    """Writable fields: name -> (JSON type, a plausible value)."""
    schema = _resolve(schema, components)
    fields = {}
    for name, field in schema.get("properties", {}).items():
        field = _resolve(field, components)
        if field.get("readOnly"):
            continue
        kind = field.get("type") or "string"
        if isinstance(kind, list):  # OpenAPI 3.1: ["string", "null"]
            kind = next((k for k in kind if k != "null"), "string")
        fields[name] = (kind, _plausible(field, kind))
    return fields


def _plausible(field: dict, kind: str):
    if field.get("enum"):
        return next((v for v in field["enum"] if v not in (None, "")), None)
    if field.get("format") == "date":
        return "2026-01-02"
    return {
        "integer": field.get("minimum", 1),
        "number": field.get("minimum", 1.0),
        "boolean": True,
        "array": [],
        "object": {},
    }.get(kind, "demo")


JSON = "application/json"


def api_bodies(properties: dict[str, str]):
    """(label, body, content type) to send to one operation."""
    names = {n: k for n, (k, _v) in properties.items()} or {"name": "string", "value": "integer"}
    plausible = {n: v for n, (_k, v) in properties.items()}
    for name, kind in names.items():  # a plausible body with one field out of bounds
        for bad in {
            "string": (BIG_TEXT[:100_000], "\u00b2" * 3),
            "integer": (10**15, -(10**15), 2**31),
            "number": (1e15, -1e15),
            "array": ([BIG_TEXT[:50_000]] * 3, [10**15]),
            "object": ({"k": 10**15, "t": BIG_TEXT[:50_000]},),
        }.get(kind, ()):
            yield f"plausible {name}={str(bad)[:10]}", json.dumps(plausible | {name: bad}), JSON
    for label, text_value, number_value in (
        ("NUL", NUL, NUL),
        ("control", CONTROL, 1),
        ("oversized", BIG_TEXT, 10**30),
        ("1e308", "1e308", 1e308),
        ("10**30", HUGE_INT_TEXT, 10**30),
    ):
        body = {
            name: number_value if kind in ("integer", "number") else text_value
            for name, kind in names.items()
        }
        yield label, json.dumps(body), "application/json"
        if label in ("NUL", "oversized"):
            yield label + " (form)", urlencode(body), "application/x-www-form-urlencoded"
    for name, kind in names.items():  # each field alone, so one field's error hides no other
        yield (
            f"{name}=NUL",
            json.dumps({name: NUL if kind != "integer" else 10**30}),
            "application/json",
        )
        yield f"{name}=1e308", json.dumps({name: 1e308}), "application/json"
        yield f"{name}=[]", json.dumps({name: [[[]]]}), "application/json"
    for label, raw in (
        ("[1]", "[1]"),
        ('"x"', '"x"'),
        ("null", "null"),
        ("deep", DEEP_JSON),
        ("deep object", DEEP_OBJECT),
        ("NaN", '{"value": NaN}'),
        ("1e999", '{"value": 1e999}'),
        ("bad JSON", "{"),
        ("NUL escape key", '{"\\u0000": 1}'),
    ):
        yield label, raw, "application/json"
    yield "text/plain", "\x00", "text/plain"
    yield "xml", "<a>\x00</a>", "application/xml"
    yield "charset", "{}", "application/json; charset=bz2_codec"
    yield "broken multipart", "--x\r\n\x00", "multipart/form-data; boundary=x"


def fill(path: str, template: str, ids: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: value_for(m.group(1), template, ids), path)


def test_every_api_operation_refuses_bad_input_without_a_server_error(world):
    client, ids = world
    failures: list[str] = []
    operations = list(api_operations())
    deletes = []
    start = COUNTS["requests"]
    for method, template, operation, properties in operations:
        path = fill(template, template, ids)
        if method == "delete":
            deletes.append(path)
            continue
        call = getattr(client, method)
        _check(failures, call(path), f"{method.upper()} {path}")
        query = {p["name"]: NUL for p in operation.get("parameters", []) if p["in"] == "query"}
        _check(failures, client.get(path, query | {NUL: NUL}), f"GET {path}?NUL")
        for odd in (HUGE_INT_TEXT, "\u00b2", "1e308"):
            _check(failures, client.get(path, dict.fromkeys(query, odd)), f"GET {path}?{odd!r}")
        for name in re.findall(r"\{(\w+)\}", template):
            bad = template.replace("{" + name + "}", quote(NUL))
            bad = fill(bad, template, ids)
            _check(failures, call(bad), f"{method.upper()} {bad!r}")
        for verb in ("trace", "options"):
            _check(failures, getattr(client, verb)(path), f"{verb.upper()} {path}")
        if method in ("post", "put", "patch"):
            for label, body, content_type in api_bodies(properties):
                response = client.generic(method.upper(), path, body, content_type)
                _check(failures, response, f"{method.upper()} {path} {label}")
    for path in deletes:
        _check(failures, client.delete(path, "[1]", content_type="application/json"), path)
        _check(failures, client.delete(path), f"DELETE {path}")
    sent = COUNTS["requests"] - start
    failures += postgres_would_refuse()
    statuses = {k: v for k, v in sorted(COUNTS.items()) if k.endswith("xx")}
    print(f"\nbad input: {len(operations)} API operations, {sent} requests; so far {statuses}")
    assert not failures, "\n".join(failures)


def test_the_seen_server_errors_are_400s_naming_the_problem(world):
    client, ids = world
    for path in ("/players/a%00b/", "/api/v1/clubs/a%00b/", "/clubs/join/%00/", "/?q=%00"):
        response = client.get(path)
        assert response.status_code == 400, path
        assert "control character" in response.content.decode()
    assert client.get("/api/v1/clubs/a%00b/").json()["detail"]
    roster, member = ids["roster"], ids["member"]
    for path, method in (
        (f"/api/v1/rosters/{roster}/house-rules/", "post"),
        (f"/api/v1/club-members/{member}/", "patch"),
        (f"/api/v1/skirmishes/{ids['skirmish']}/actions/orders/", "post"),
    ):
        for body in ("[1]", '"x"', "null"):
            response = getattr(client, method)(path, body, content_type="application/json")
            assert response.status_code == 400, (path, body)
            assert "JSON object" in response.json()["detail"]
        response = getattr(client, method)(path, DEEP_JSON, content_type="application/json")
        assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]
    assert client.get("/api/v1/campaign-exports/abc/").status_code == 404
    assert client.options("/api/v1/campaign-exports/").status_code < 500
    assert client.generic("TRACE", f"/api/v1/results/{ids['result']}/").status_code == 405
    deep = SimpleUploadedFile("tables.json", DEEP_JSON.encode())
    page = client.post(f"/campaigns/{ids['cc']}/tables/", {"action": "upload", "upload": deep})
    assert page.status_code == 200 and "nested too deeply" in page.content.decode()
    sheet_edit = client.get(f"/campaigns/{ids['tcs']}/tcs/sheets/{ids['sheet']}/edit/")
    assert sheet_edit.status_code == 200
    prep = client.post(
        f"/campaigns/{ids['tcs']}/tcs/sides/{ids['tcs_side']}/",
        {"action": "settings", "settings-rating": "3", "settings-prep_table": DEEP_JSON},
    )
    assert prep.status_code == 400 and "nested too deeply" in prep.content.decode()
    answer = f"/api/v1/campaigns/{ids['cc']}/decisions/{ids['decision']}/answer/"
    response = client.post(answer, DEEP_OBJECT, content_type="application/json")
    assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]


def test_the_limits_name_the_problem_and_let_ordinary_text_through(world):
    client, ids = world
    roster = f"/api/v1/rosters/{ids['roster']}/house-rules/"
    big = json.dumps({"a": "x" * 2_100_000})
    response = client.post(roster, big, content_type="application/json")
    assert response.status_code == 400 and "too large" in response.json()["detail"]
    response = client.post(roster, '{"a": 1e999}', content_type="application/json")
    assert response.status_code == 400 and "out of range" in response.json()["detail"]
    response = client.post(roster, '{"a": "b\\u0000"}', content_type="application/json")
    assert response.status_code == 400 and "control character" in response.json()["detail"]
    factory = RequestFactory()
    notes = factory.post("/x/", {"notes": "line one\r\nline two\tend"})
    assert find_control_character(notes) is None
    assert find_control_character(factory.post("/x/", {"notes": "a\x0bb"}))
    assert find_control_character(factory.get("/x/", {"q": "a\tb"}))  # not in a query
    assert loads_checked('{"a": [1, 2.5, "t\\tx"]}') == {"a": [1, 2.5, "t\tx"]}
    with pytest.raises(JSONTextError):
        loads_checked("[" * 33 + "]" * 33)


def test_huge_league_points_are_refused_and_standings_survive_a_stored_one(world):
    client, ids = world
    league = League.objects.get(pk=ids["league"])
    url = f"/api/v1/leagues/{league.pk}/"
    for value in (1e308, 10**30):
        response = client.patch(url, json.dumps({"points_win": value}), "application/json")
        assert response.status_code == 400, value
    page = client.post(f"/leagues/{league.pk}/settings/", {"points_win": "1e308"})
    assert page.status_code == 200 and "points_win" in page.content.decode()
    League.objects.filter(pk=league.pk).update(points_win=1e308)  # a row from before the bounds
    standings = client.get(f"/api/v1/leagues/{league.pk}/standings/")
    assert standings.status_code == 200 and "inf" not in standings.content.decode().lower()
    page = client.get(f"/leagues/{league.pk}/")
    assert page.status_code == 200 and ">inf<" not in page.content.decode()

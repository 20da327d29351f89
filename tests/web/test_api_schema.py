"""Every write operation in the OpenAPI schema says what it takes, what it answers and how it
refuses: a client can be written from the schema alone."""

import pytest
from drf_spectacular.generators import SchemaGenerator

WRITES = {"post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def operations():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in WRITES and path.startswith("/api/v1/") and "/auth/token/" not in path
    ]


def test_the_schema_has_write_operations_for_campaigns_and_operations(operations):
    paths = {path for path, _method, _op in operations}
    for expected in (
        "/api/v1/campaigns/{id}/advance/",
        "/api/v1/campaigns/{id}/decisions/{decision_pk}/answer/",
    ):
        assert expected in paths


def test_every_write_documents_its_refusals(operations):
    missing = []
    for path, method, op in operations:
        codes = set(op.get("responses", {}))
        if method != "delete" and "400" not in codes:
            missing.append(f"{method.upper()} {path}: no 400")
        if not codes & {"401", "403"}:
            missing.append(f"{method.upper()} {path}: no 403")
        if "{" in path and "404" not in codes:
            missing.append(f"{method.upper()} {path}: no 404")
    assert missing == []


def test_every_write_documents_its_success_body(operations):
    missing = []
    for path, method, op in operations:
        ok = {c: r for c, r in op.get("responses", {}).items() if c.startswith("2")}
        if not ok:
            missing.append(f"{method.upper()} {path}: no success response")
        elif method != "delete" and not any(r.get("content") for r in ok.values()):
            missing.append(f"{method.upper()} {path}: success without a body")
    assert missing == []

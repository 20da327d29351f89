"""Schemathesis against the whole API of a live server with the demo data, signed in and out.

Every operation of the OpenAPI schema (`/api/schema/`) is called over HTTP on pytest-django's
live server with generated schema-valid requests, and every answer goes through Schemathesis'
default checks: no server error, a documented status code, content type and headers, a body
that matches the declared schema, and a schema-valid request not refused 400. The number of
examples per operation is bounded and the generation derandomised, so a run is reproducible
and takes a few minutes.
"""

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.management import call_command
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.config import ProjectConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

pytestmark = pytest.mark.django_db(transaction=True)

MAX_EXAMPLES = 8

# Rules between fields, or on the state of the game, that JSON Schema cannot state; these
# operations refuse such requests 400 with a message naming the field (tested in
# test_api_cc_endpoints / test_api_tcs_*), so Schemathesis' "schema-valid request refused"
# check does not apply to them; every other check does.
CROSS_FIELD_RULES = {
    ("POST", "/api/v1/tcs/operations/"): "the two sides' names differ",
    ("POST", "/api/v1/campaigns/"): "the sides' names differ, ignoring case",
    ("POST", "/api/v1/rosters/"): "a 1936 list names its faction, role and quality",
    ("PUT", "/api/v1/campaigns/{id}/tables/"): "each table has the rows its printed chart has",
    ("POST", "/api/v1/tcs/combats/{id}/apply/"): "the losses match the fire result and the "
    "stack is named when it forces a check",
    ("POST", "/api/v1/tcs/units/{id}/restore/"): "only steps the unit has lost come back",
}


# Every skirmish battle action depends on the battle's state (whose turn and phase, the
# units' states, the dice still needed): refused 400 in words when the state forbids it.
STATE_DEPENDENT_PREFIXES = ("/api/v1/skirmishes/{id}/actions/",)


def call_and_validate(case):
    if (case.method.upper(), case.path) in CROSS_FIELD_RULES or case.path.startswith(
        STATE_DEPENDENT_PREFIXES
    ):
        case.call_and_validate(excluded_checks=[positive_data_acceptance])
    else:
        case.call_and_validate()


@pytest.fixture
def demo_data(db):
    call_command("load_demo", verbosity=0)


def _schema(live_server):
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json")
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])
    return schema


@pytest.fixture
def api_schema(demo_data, live_server):
    return _schema(live_server)


@pytest.fixture
def api_schema_signed_in(demo_data, live_server):
    """The schema with every request signed in as the demo user with its API token (given as
    the schema's `tokenAuth` scheme, so that the auth checks know it is the credential)."""
    token, _created = Token.objects.get_or_create(
        user=get_user_model().objects.get(username="demo")
    )
    schema = _schema(live_server)
    schema.config.auth = ProjectConfig.from_dict(
        {"auth": {"openapi": {"tokenAuth": {"api_key": f"Token {token.key}"}}}}
    ).auth
    return schema


schema = schemathesis.pytest.from_fixture("api_schema")
schema_signed_in = schemathesis.pytest.from_fixture("api_schema_signed_in")

bounded = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@schema_signed_in.parametrize()
@bounded
def test_api_signed_in(case):
    call_and_validate(case)


@schema.parametrize()
@bounded
def test_api_signed_out(case):
    call_and_validate(case)

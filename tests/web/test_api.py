import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns.models import Campaign, LogEntry
from campaigns.services import campaign_create
from campaigns.services._base import append_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    assert b"/api/v1/campaigns/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content
    assert b"cdn." not in docs.content and b"unpkg" not in docs.content


def test_token_authentication(api, user):
    response = api.post("/api/v1/auth/token/", {"username": "alice", "password": "pw-Ledger-2026!"})
    token = response.json()["token"]
    assert Token.objects.get(user=user).key == token
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").json() == {"id": user.pk, "username": "alice"}


def test_me_needs_authentication(api):
    assert api.get("/api/v1/me/").status_code in (401, 403)


def test_campaign_list_is_paginated_filtered_and_respects_visibility(api, campaign, make_user):
    stranger = make_user("carol")
    campaign_create(
        creator=stranger, name="Open", system="tcs", side_names=["A", "B"], visibility="public"
    )
    campaign_create(creator=stranger, name="Closed", system="tcs", side_names=["A", "B"])
    api.force_authenticate(campaign.created_by)
    body = api.get("/api/v1/campaigns/").json()
    assert body["count"] == 2 and {c["name"] for c in body["results"]} == {"Kurgan", "Open"}
    assert [c["name"] for c in api.get("/api/v1/campaigns/?system=tcs").json()["results"]] == [
        "Open"
    ]
    api.force_authenticate(None)
    assert [c["name"] for c in api.get("/api/v1/campaigns/").json()["results"]] == ["Open"]


def test_create_campaign_via_api_and_bad_input_is_a_400_naming_the_field(api, user):
    api.force_authenticate(user)
    bad = api.post(
        "/api/v1/campaigns/",
        {"name": "X", "system": "cc", "side_names": ["A", "a"]},
        format="json",
    )
    assert bad.status_code == 400 and "side_names" in bad.json()
    assert not Campaign.objects.exists()
    unknown = api.post(
        "/api/v1/campaigns/", {"name": "X", "system": "chess", "side_names": ["A", "B"]}
    )
    assert unknown.status_code == 400 and "system" in unknown.json()
    ok = api.post(
        "/api/v1/campaigns/",
        {"name": "X", "system": "cc", "side_names": ["A", "B"]},
        format="json",
    )
    assert ok.status_code == 201 and [s["name"] for s in ok.json()["sides"]] == ["A", "B"]
    neutral = api.post(
        "/api/v1/campaigns/",
        {"name": "Y", "system": "cc", "side_names": ["A", "B"], "as_game_master": True},
        format="json",
    )
    assert neutral.status_code == 201
    assert Campaign.objects.get(pk=neutral.json()["id"]).game_masters.filter(pk=user.pk).exists()


def test_anonymous_cannot_create(api):
    response = api.post("/api/v1/campaigns/", {"name": "X"}, format="json")
    assert response.status_code in (401, 403)


def test_api_log_never_shows_the_other_sides_private_entries(api, campaign):
    germans, soviets = campaign.sides.order_by("order")
    append_log(campaign, kind=LogEntry.Kind.SETUP, summary="SECRET-GERMAN", private_to=germans)
    api.force_authenticate(soviets.players.get())
    body = api.get(f"/api/v1/campaigns/{campaign.pk}/log/").json()
    assert "SECRET-GERMAN" not in str(body)
    assert len(body["results"]) == campaign.log.count() - 1 and body["next"] is None
    api.force_authenticate(germans.players.get())
    assert "SECRET-GERMAN" in str(api.get(f"/api/v1/campaigns/{campaign.pk}/log/").json())


def test_private_campaign_is_404_for_strangers(api, campaign, make_user):
    api.force_authenticate(make_user("carol"))
    assert api.get(f"/api/v1/campaigns/{campaign.pk}/").status_code == 404
    assert api.get(f"/api/v1/campaigns/{campaign.pk}/log/").status_code == 404


def test_club_create_and_duplicate_name(api, user):
    api.force_authenticate(user)
    assert api.post("/api/v1/clubs/", {"name": "Kampfgruppe"}).status_code == 201
    dup = api.post("/api/v1/clubs/", {"name": "Kampfgruppe"})
    assert dup.status_code == 409 and "name" in dup.json()  # a name already taken


def test_campaign_list_query_count_is_bounded(api, user, django_assert_max_num_queries):
    for i in range(15):
        campaign_create(creator=user, name=f"C{i}", system="cc", side_names=["A", "B"])
    api.force_authenticate(user)
    with django_assert_max_num_queries(8):
        assert api.get("/api/v1/campaigns/").json()["count"] == 15


def test_openapi_schema_generates_without_warnings():
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")

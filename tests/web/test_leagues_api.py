"""The league API: same permissions as the pages, 400s naming the field, nothing changed."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import League, Result

pytest_plugins = ["tests.web.leagues_helpers"]
pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_schema_lists_the_league_endpoints(client):
    schema = client.get("/api/schema/").text
    for path in ("/api/v1/leagues/", "/api/v1/results/", "/api/v1/players/{username}/",
                 "/api/v1/leagues/{id}/standings/", "/api/v1/club-invites/accept/",
                 "/api/v1/campaign-exports/{id}/"):  # fmt: skip
        assert path in schema, path


def test_create_league_needs_the_organiser(api, club, members, organiser):
    body = {"club": club.slug, "name": "Spring", "season": "2026", "system": "parabellum"}
    api.force_authenticate(members["ann"])
    assert api.post("/api/v1/leagues/", body, format="json").status_code == 403
    api.force_authenticate(organiser)
    bad = api.post("/api/v1/leagues/", {**body, "tiebreaks": ["luck"]}, format="json")
    assert bad.status_code == 400 and "tiebreaks" in bad.json()
    bands = api.post(
        "/api/v1/leagues/", {**body, "elo_k_bands": [[100, 10], [100, 5]]}, format="json"
    )
    assert bands.status_code == 400 and "elo_k_bands" in bands.json()  # one K per rating
    assert not League.objects.exists()
    ok = api.post("/api/v1/leagues/", body, format="json")
    assert ok.status_code == 201 and ok.json()["tiebreaks"] == ["points", "h2h", "buchholz", "wins"]
    api.force_authenticate(None)
    assert api.post("/api/v1/leagues/", body, format="json").status_code in (401, 403)


def test_standings_ratings_balance_profile_are_public(api, league, played):
    body = api.get(f"/api/v1/leagues/{league.pk}/standings/").json()
    assert [r["player"] for r in body["rows"]] == ["ann", "cat", "ben", "dan"]
    assert body["rows"][0]["values"] == {"points": 4.0, "h2h": 1.0, "buchholz": 10.0}
    preview = api.get(f"/api/v1/leagues/{league.pk}/standings/?tb=points,median_buchholz").json()
    assert [r["player"] for r in preview["rows"]] == ["cat", "ann", "ben", "dan"]
    bad = api.get(f"/api/v1/leagues/{league.pk}/standings/?tb=luck")
    assert bad.status_code == 400 and "tb" in bad.json()
    ratings = api.get(f"/api/v1/leagues/{league.pk}/ratings/?method=openskill").json()
    assert ratings["up_to_date"] and len(ratings["ratings"]) == 4
    assert api.get(f"/api/v1/leagues/{league.pk}/ratings/?method=glicko").status_code == 400
    balance = api.get(f"/api/v1/leagues/{league.pk}/balance/").json()
    fat = next(r for r in balance if r["scenario"] == "Fat Lipki" and r["side"] == "Germans")
    assert (fat["plays"], fat["wins"], fat["losses"]) == (3, 2, 1) and fat["few_plays"]
    profile = api.get("/api/v1/players/ann/").json()
    assert profile["by_system"] == [
        {"label": "cc", "played": 3, "wins": 1, "draws": 1, "losses": 1}
    ]
    history = api.get("/api/v1/players/ann/rating-history/?system=cc").json()["results"]
    assert [h["method"] for h in history].count("elo") == 3
    assert api.get("/api/v1/players/ann/rating-history/?system=chess").status_code == 400
    csv = api.get(f"/api/v1/leagues/{league.pk}/standings-csv/")
    assert csv.status_code == 200 and csv.content.decode().startswith("rank,player")


def test_results_enter_correct_void_through_the_api(
    api, league, played, members, organiser, django_capture_on_commit_callbacks
):
    body = {"league": league.pk, "played_on": "2026-03-04", "team_a": ["ann"],
            "team_b": ["ben"], "outcome": "b", "details": {"vp_b": 7}}  # fmt: skip
    api.force_authenticate(members["ann"])
    assert api.post("/api/v1/results/", body, format="json").status_code == 403
    rid = played[0].pk
    assert api.post(f"/api/v1/results/{rid}/void/", {"reason": "x"}).status_code == 403
    api.force_authenticate(organiser)
    bad = api.post("/api/v1/results/", {**body, "team_b": ["ghost"]}, format="json")
    assert bad.status_code == 400 and "team_b" in bad.json()
    bad = api.post("/api/v1/results/", {**body, "details": {"vp_b": "many"}}, format="json")
    assert bad.status_code == 400 and "vp_b" in bad.json()
    assert Result.objects.count() == 5
    with django_capture_on_commit_callbacks(execute=True):
        ok = api.post("/api/v1/results/", body, format="json")
    assert ok.status_code == 201 and ok.json()["team_b"] == ["ben"]
    fix = api.post(f"/api/v1/results/{rid}/correct/", {"outcome": "draw"}, format="json")
    assert fix.status_code == 400 and "reason" in fix.json()
    fix = api.post(
        f"/api/v1/results/{rid}/correct/", {"outcome": "draw", "reason": "typo"}, format="json"
    )
    assert fix.status_code == 200 and fix.json()["outcome"] == "draw"
    void = api.post(f"/api/v1/results/{rid}/void/", {"reason": "dup"}, format="json")
    assert void.json()["status"] == "void"
    trace = api.get(f"/api/v1/results/{rid}/trace/").json()
    assert [t["action"] for t in trace] == ["enter", "correct", "void"]
    assert trace[1]["before"]["outcome"] == "a" and trace[1]["after"]["outcome"] == "draw"
    listed = api.get(f"/api/v1/results/?league={league.pk}&status=void").json()
    assert [r["id"] for r in listed["results"]] == [rid]


def test_csv_import_through_the_api(api, league, members, organiser):
    api.force_authenticate(organiser)
    bad = api.post("/api/v1/results/import/",
                   {"league": league.pk, "csv": "played_on,team_a,team_b,outcome\nx,ann,ben,a\n"},
                   format="json")  # fmt: skip
    assert bad.status_code == 400 and bad.json()["file"] == [
        "Row 2, played_on: Enter the date as YYYY-MM-DD."
    ]
    ok = api.post("/api/v1/results/import/",
                  {"league": league.pk, "csv": "played_on,team_a,team_b,outcome\n2026-01-01,ann,ben,a\n"},
                  format="json")  # fmt: skip
    assert ok.status_code == 201 and ok.json() == {"imported": 1}


def test_invites_and_roles_through_the_api(api, club, members, organiser, make_user):
    api.force_authenticate(members["ann"])
    assert api.post("/api/v1/club-invites/", {"club": club.slug}).status_code == 403
    api.force_authenticate(organiser)
    invite = api.post("/api/v1/club-invites/", {"club": club.slug, "role": "member"}).json()
    nina = make_user("nina")
    api.force_authenticate(nina)
    joined = api.post("/api/v1/club-invites/accept/", {"token": invite["token"]})
    assert joined.status_code == 200 and joined.json()["role"] == "member"
    bad = api.post("/api/v1/club-invites/accept/", {"token": "nope"})
    assert bad.status_code == 404 and "does not exist" in bad.json()["detail"]
    members_list = api.get(f"/api/v1/club-members/?club={club.slug}").json()
    mid = next(m["id"] for m in members_list["results"] if m["username"] == "nina")
    assert api.patch(f"/api/v1/club-members/{mid}/", {"role": "organiser"}).status_code == 403
    api.force_authenticate(organiser)
    assert api.patch(f"/api/v1/club-members/{mid}/", {"role": "boss"}).status_code == 400
    ok = api.patch(f"/api/v1/club-members/{mid}/", {"role": "organiser"})
    assert ok.json()["role"] == "organiser"


def test_campaign_export_api_respects_visibility_and_import_is_staff_only(api, campaign, make_user):
    api.force_authenticate(make_user("carol"))
    assert api.get(f"/api/v1/campaign-exports/{campaign.pk}/").status_code == 404
    assert api.post("/api/v1/campaign-exports/", {}, format="json").status_code == 403
    api.force_authenticate(campaign.created_by)
    data = api.get(f"/api/v1/campaign-exports/{campaign.pk}/").json()
    assert data["campaign"]["name"] == "Kurgan"
    staff = make_user("root", is_staff=True)
    api.force_authenticate(staff)
    bad = api.post("/api/v1/campaign-exports/", {"format": "x"}, format="json")
    assert bad.status_code == 400 and "file" in bad.json()

"""Every page action of clubs, leagues, histories, rosters, skirmishes and generic campaigns
has an API operation: the table below maps each page route to its operation (checked against
the OpenAPI schema), and each operation added for parity is tested for success, a 400 that
names the problem, and a 403/404 refusal."""

import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from campaigns.api.rosters.skirmish import SPECIAL
from campaigns.exports import campaign_export
from campaigns.models import ClubInvite, ClubMembership, LeagueParticipant, Roster
from campaigns.services import campaign_create, side_join
from campaigns.services.club_admin import club_invite_accept, club_invite_create
from campaigns.services.rosters import roster_create
from campaigns.services.skirmish import skirmish_create, skirmish_join
from campaigns.views.rosters.battle_actions import ACTIONS
from tests.web.roster_helpers import m1936_list

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.leagues_helpers"]

# page route name → (method, API path); `*` marks operations added for parity. Combat
# Commander, TCS and campaign seats/invitations are covered by their own areas.
PARITY = {
    "campaign-new": ("post", "/api/v1/campaigns/"),
    "club-list": ("post", "/api/v1/clubs/"),
    "club-invite": ("post", "/api/v1/club-invites/"),
    "club-invite-withdraw": ("post", "/api/v1/club-invites/{id}/withdraw/"),  # *
    "club-join": ("post", "/api/v1/club-invites/accept/"),
    "club-role": ("patch", "/api/v1/club-members/{id}/"),
    "league-new": ("post", "/api/v1/leagues/"),
    "league-tiebreaks": ("patch", "/api/v1/leagues/{id}/"),
    "league-settings": ("patch", "/api/v1/leagues/{id}/"),
    "league-join": ("post", "/api/v1/leagues/{id}/participants/"),
    "result-new": ("post", "/api/v1/results/"),
    "result-battle": ("post", "/api/v1/results/from-battle/"),
    "results-import": ("post", "/api/v1/results/import/"),
    "result-correct": ("post", "/api/v1/results/{id}/correct/"),
    "result-status:void": ("post", "/api/v1/results/{id}/void/"),
    "result-status:restore": ("post", "/api/v1/results/{id}/restore/"),
    "campaign-export": ("get", "/api/v1/campaign-exports/{id}/"),
    "campaign-import": ("post", "/api/v1/campaign-exports/"),
    "roster-new": ("post", "/api/v1/rosters/"),
    "roster-edit": ("post", "/api/v1/rosters/{id}/edit/"),
    "roster-settings": ("post", "/api/v1/rosters/{id}/settings/"),  # *
    "roster-house-rules": ("post", "/api/v1/rosters/{id}/house-rules/"),
    "roster-revert": ("post", "/api/v1/rosters/{id}/history/{seq}/undo/"),
    "roster-archive": ("post", "/api/v1/rosters/{id}/archive/"),  # *
    "skirmish-new": ("post", "/api/v1/skirmishes/"),
    "skirmish-action": ("post", "/api/v1/skirmishes/{id}/actions/readings/"),  # and below
    "skirmish-odds": ("post", "/api/v1/skirmishes/{id}/odds/{name}/"),  # *
}


@pytest.fixture
def api():
    return APIClient()


def problem_text(response) -> str:
    return json.dumps(response.json(), ensure_ascii=False)


def test_every_battle_action_has_its_own_documented_operation():
    """Each action of the skirmish pages' table is its own API operation; those that take
    their page form's fields have them in the schema."""
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for name, act in ACTIONS.items():
        operation = paths[f"/api/v1/skirmishes/{{id}}/actions/{name}/"]["post"]
        assert {"200", "400", "404"} <= set(operation["responses"]), name
        form_class = getattr(act.form, "form_class", None)
        if form_class is not None and form_class.base_fields and name not in SPECIAL:
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body["$ref"].endswith("ActionRequest"), name


def test_every_page_action_has_an_operation_in_the_schema():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    missing = [
        f"{page}: {method.upper()} {path}"
        for page, (method, path) in PARITY.items()
        if method not in paths.get(path, {})
    ]
    assert missing == []
    for page, (method, path) in PARITY.items():
        if method != "get":
            assert {"400", "403"} <= set(paths[path][method]["responses"]), page


# --- club invitations: withdraw ---------------------------------------------------------------


def test_withdraw_an_open_invitation(api, club, organiser):
    invite = club_invite_create(club=club, actor=organiser)
    api.force_authenticate(organiser)
    response = api.post(f"/api/v1/club-invites/{invite.pk}/withdraw/")
    assert response.status_code == 200 and response.json()["revoked"] is True
    invite.refresh_from_db()
    assert invite.revoked and not invite.is_open


def test_withdrawing_a_used_invitation_is_a_400_that_says_so(api, club, organiser, make_user):
    invite = club_invite_create(club=club, actor=organiser)
    club_invite_accept(token=invite.token, user=make_user("eve"))
    api.force_authenticate(organiser)
    response = api.post(f"/api/v1/club-invites/{invite.pk}/withdraw/")
    assert response.status_code == 400 and "already been used" in problem_text(response)
    assert not ClubInvite.objects.get(pk=invite.pk).revoked


def test_only_the_clubs_organisers_withdraw(api, club, organiser, members):
    invite = club_invite_create(club=club, actor=organiser)
    url = f"/api/v1/club-invites/{invite.pk}/withdraw/"
    assert api.post(url).status_code == 403  # anonymous
    api.force_authenticate(members["ann"])  # a member, not an organiser
    response = api.post(url)
    assert response.status_code == 404 and response.json()["detail"]
    assert not ClubInvite.objects.get(pk=invite.pk).revoked


# --- club members: role -----------------------------------------------------------------------


def test_role_change_checks_its_input(api, club, organiser, members):
    membership = ClubMembership.objects.get(club=club, user=members["ann"])
    url = f"/api/v1/club-members/{membership.pk}/"
    api.force_authenticate(organiser)
    for bad in ({"role": "general"}, {"role": ["member"]}):
        response = api.patch(url, bad, format="json")
        assert response.status_code == 400 and "role" in response.json()
    response = api.patch(url, ["organiser"], format="json")  # not even an object
    assert response.status_code == 400
    ok = api.patch(url, {"role": "organiser"}, format="json")
    assert ok.status_code == 200 and ok.json()["role"] == "organiser"
    api.force_authenticate(members["ben"])
    refused = api.patch(url, {"role": "member"}, format="json")
    assert refused.status_code == 403 and refused.json()["detail"]


# --- league: a member enters themself -----------------------------------------------------------


def test_a_member_enters_the_league_without_naming_themself(api, league, members):
    api.force_authenticate(members["cat"])
    response = api.post(f"/api/v1/leagues/{league.pk}/participants/", {}, format="json")
    assert response.status_code == 201 and "cat" in response.json()["participants"]
    unknown = api.post(
        f"/api/v1/leagues/{league.pk}/participants/", {"username": "nobody"}, format="json"
    )
    assert unknown.status_code == 400 and "username" in unknown.json()


def test_a_stranger_may_not_enter_a_club_league(api, league, make_user):
    api.force_authenticate(make_user("zed"))
    response = api.post(f"/api/v1/leagues/{league.pk}/participants/", {}, format="json")
    assert response.status_code in (400, 403) and problem_text(response)
    assert not LeagueParticipant.objects.filter(league=league, user__username="zed").exists()


# --- campaign JSON import (/history/import/) ------------------------------------------------


def test_campaign_import_round_trip_and_refusals(api, campaign, make_user):
    staff = make_user("staffer", is_staff=True)
    data = campaign_export(campaign)
    api.force_authenticate(make_user("plain"))
    refused = api.post("/api/v1/campaign-exports/", data, format="json")
    assert refused.status_code == 403 and "staff" in refused.json()["detail"]
    api.force_authenticate(staff)
    bad = api.post("/api/v1/campaign-exports/", {"format": "x"}, format="json")
    assert bad.status_code == 400 and "file" in bad.json()
    broken = dict(data, sides="oops")
    damaged = api.post("/api/v1/campaign-exports/", broken, format="json")
    assert damaged.status_code == 400 and "file" in damaged.json()
    ok = api.post("/api/v1/campaign-exports/", data, format="json")
    assert ok.status_code == 201 and ok.json()["id"] != campaign.pk


# --- rosters: settings and archive -------------------------------------------------------------


@pytest.fixture
def roster(user):
    return m1936_list(user, "Oficial")


def test_roster_settings_rename_and_attach_to_a_campaign(api, roster, user):
    mine = campaign_create(creator=user, name="Ebro", system="m1936", side_names=["N", "R"])
    side_join(user=user, side=mine.sides.order_by("order").first())
    api.force_authenticate(user)
    url = f"/api/v1/rosters/{roster.pk}/settings/"
    response = api.post(url, {"name": "Tercio", "campaign": mine.pk}, format="json")
    assert response.status_code == 200
    assert response.json()["name"] == "Tercio" and response.json()["campaign"] == mine.pk
    detach = api.post(url, {"name": "Tercio", "campaign": None}, format="json")
    assert detach.status_code == 200 and detach.json()["campaign"] is None
    assert roster.changes.filter(kind="settings").count() == 2


def test_roster_settings_refusals_name_the_field(api, roster, user, make_user):
    other = campaign_create(creator=user, name="Kursk", system="tcs", side_names=["A", "B"])
    api.force_authenticate(user)
    url = f"/api/v1/rosters/{roster.pk}/settings/"
    blank = api.post(url, {"name": "  "}, format="json")
    assert blank.status_code == 400 and "name" in blank.json()
    wrong = api.post(url, {"name": "X", "campaign": other.pk}, format="json")
    assert wrong.status_code == 400 and "another game system" in problem_text(wrong)
    junk = api.post(url, {"name": "X", "campaign": "abc"}, format="json")
    assert junk.status_code == 400 and "campaign" in junk.json()
    assert Roster.objects.get(pk=roster.pk).name == "Columna"
    api.force_authenticate(make_user("stranger"))
    assert api.post(url, {"name": "Mine"}, format="json").status_code == 404
    api.force_authenticate(None)
    assert api.post(url, {"name": "Mine"}, format="json").status_code == 403


def test_roster_archive_and_restore(api, roster, user, make_user):
    api.force_authenticate(user)
    url = f"/api/v1/rosters/{roster.pk}/archive/"
    response = api.post(url, {}, format="json")
    assert response.status_code == 200 and response.json()["archived_at"]
    edit = api.post(f"/api/v1/rosters/{roster.pk}/settings/", {"name": "Y"}, format="json")
    assert edit.status_code == 409 and "archived" in problem_text(edit)  # its state forbids
    restored = api.post(url, {"archived": False}, format="json")
    assert restored.status_code == 200 and restored.json()["archived_at"] is None
    bad = api.post(url, {"archived": "perhaps"}, format="json")
    assert bad.status_code == 400 and "archived" in bad.json()
    api.force_authenticate(make_user("stranger"))
    assert api.post(url, {}, format="json").status_code == 404
    assert Roster.objects.get(pk=roster.pk).archived_at is None


def test_house_rules_body_must_be_an_object(api, roster, user):
    api.force_authenticate(user)
    response = api.post(f"/api/v1/rosters/{roster.pk}/house-rules/", [1, 2], format="json")
    assert response.status_code == 400 and response.json()["detail"]


# --- skirmish: odds before rolling ---------------------------------------------------------------


@pytest.fixture
def pb_battle(user, other_user):
    ger = roster_create(owner=user, system="parabellum", name="Gren", squad_type="GER/grenadier")
    usa = roster_create(
        owner=other_user, system="parabellum", name="Easy", squad_type="USA/rifleman"
    )
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode="simple"
    )
    skirmish_join(battle=battle, actor=other_user, roster=usa)
    return battle


SHOT = {
    "turn": 1,
    "shooter": "0:rifleman-1",
    "target": "1:rifleman-3",
    "distance_cm": 30,
    "cover": "heavy",
}


def test_odds_of_a_shot_before_rolling(api, pb_battle, user):
    api.force_authenticate(user)
    before = pb_battle.events.count()
    response = api.post(f"/api/v1/skirmishes/{pb_battle.pk}/odds/shoot/", SHOT, format="json")
    assert response.status_code == 200
    lines = response.json()["lines"]
    assert any("Shot succeeds (11+ or a triple)" in line["label"] for line in lines)
    assert any("%" in line["value"] for line in lines)
    assert pb_battle.events.count() == before  # a preview changes nothing


def test_odds_refusals(api, pb_battle, user, make_user):
    url = f"/api/v1/skirmishes/{pb_battle.pk}/odds/"
    api.force_authenticate(user)
    bad = api.post(url + "shoot/", {**SHOT, "shooter": "9:nobody"}, format="json")
    assert bad.status_code == 400 and "shooter" in bad.json()
    junk = api.post(url + "shoot/", ["x"], format="json")
    assert junk.status_code == 400 and junk.json()["detail"]
    wrong = api.post(url + "casualty/", SHOT, format="json")  # no preview of that name
    assert wrong.status_code == 404
    api.force_authenticate(make_user("stranger"))
    assert api.post(url + "shoot/", SHOT, format="json").status_code == 404
    api.force_authenticate(None)
    assert api.post(url + "shoot/", SHOT, format="json").status_code in (403, 404)


# --- results with the page's fields ------------------------------------------------------------


def test_result_with_the_pages_flat_fields(api, league, members, organiser):
    api.force_authenticate(organiser)
    body = {
        "league": league.pk,
        "played_on": "2026-03-04",
        "team_a": ["ann"],
        "team_b": ["ben"],
        "outcome": "a",
        "win_type": "vp",
        "vp_a": 9,
        "objective_5_in_play": True,
    }
    ok = api.post("/api/v1/results/", body, format="json")
    assert ok.status_code == 201, ok.content
    assert ok.json()["details"] == {"win_type": "vp", "vp_a": 9, "objective_5_in_play": True}
    bad = api.post("/api/v1/results/", {**body, "vp_a": -1000}, format="json")
    assert bad.status_code == 400 and "vp_a" in bad.json()
    bad = api.post("/api/v1/results/", {**body, "win_type": "luck"}, format="json")
    assert bad.status_code == 400 and "win_type" in bad.json()
    rid = ok.json()["id"]
    fix = api.post(
        f"/api/v1/results/{rid}/correct/", {"reason": "VP misread", "vp_a": 11}, format="json"
    )
    assert fix.status_code == 200 and fix.json()["details"]["vp_a"] == 11


def test_csv_import_with_the_pages_text_field(api, league, members, organiser):
    api.force_authenticate(organiser)
    csv = "played_on,team_a,team_b,outcome\n2026-01-01,ann,ben,a\n"
    ok = api.post("/api/v1/results/import/", {"league": league.pk, "text": csv}, format="json")
    assert ok.status_code == 201 and ok.json() == {"imported": 1}
    empty = api.post("/api/v1/results/import/", {"league": league.pk}, format="json")
    assert empty.status_code == 400 and "csv" in empty.json()
    api.force_authenticate(members["ann"])
    refused = api.post("/api/v1/results/import/", {"league": league.pk, "text": csv}, format="json")
    assert refused.status_code == 403 and refused.json()["detail"]

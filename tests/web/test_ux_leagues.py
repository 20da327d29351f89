"""Issue 17, clubs and leagues: campaigns in clubs, games played on the site recorded to a
league, the result form's pickers and game fields, players' own reports, and the words and
phone layout of the standings, ratings and profile pages."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import i18n as site_i18n
from campaigns.models import (
    Campaign,
    LogEntry,
    Rating,
    Result,
    SkirmishBattle,
    SkirmishSide,
)
from campaigns.models.leagues import StandingMatchup
from campaigns.services import campaign_create, club_create, side_join
from campaigns.services.clubs import campaign_club_set
from campaigns.services.leagues import (
    league_create,
    result_confirm,
    result_dispute,
    result_from_operation,
    result_from_skirmish,
    result_report,
    result_settle,
)
from campaigns.services.tcs import tcs_operation_create
from tests.web.leagues_helpers import DAY, enter

pytest_plugins = ["tests.web.leagues_helpers"]
pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def _league(club, organiser, system, name):
    return league_create(club=club, actor=organiser, name=name, season="2026", system=system)


def _skirmish(a, b, *, winner=0, totals=(4, -3), system="parabellum"):
    battle = SkirmishBattle.objects.create(
        system=system,
        title="Ambush at the farm",
        created_by=a,
        status=SkirmishBattle.Status.FINISHED,
        winner_index=winner,
        score={"sides": [{"total": totals[0]}, {"total": totals[1]}]},
        finished_at=timezone.now(),
    )
    for index, (player, role) in enumerate(((a, "attacker"), (b, "defender"))):
        SkirmishSide.objects.create(battle=battle, index=index, role=role, player=player)
    return battle


def _finished_operation(creator, other, club=None):
    op = tcs_operation_create(
        creator=creator,
        name="Goodwood",
        side_names=["British", "Germans"],
        ratings=[3, 4],
        creator_side=0,
        club=club,
    )
    side_join(user=other, side=op.sides.get(order=1))
    Campaign.objects.filter(pk=op.pk).update(status=Campaign.Status.FINISHED)
    op.refresh_from_db()
    return op


# --- Finding 9 / item 4: campaigns in clubs ---------------------------------------------------


def test_every_new_campaign_form_offers_the_users_clubs(client, club, members, make_user):
    other = club_create(creator=make_user("zoe"), name="Other Club")
    client.force_login(members["ann"])
    for url in (
        reverse("campaign-new"),
        reverse("cc-new", args=["stalingrad"]),
        reverse("tcs-new"),
    ):
        page = client.get(url).text
        assert 'name="club"' in page and "Kampfgruppe Madrid" in page, url
        assert "Other Club" not in page, url  # ann is not a member there
    body = {"name": "Fall Blau", "system": "cc", "side_names": "Germans\nSoviets",
            "visibility": "private", "club": club.pk}  # fmt: skip
    assert client.post(reverse("campaign-new"), body).status_code == 302
    assert Campaign.objects.get(name="Fall Blau").club == club
    refused = client.post(reverse("campaign-new"), {**body, "name": "X", "club": other.pk})
    assert refused.status_code == 200 and not Campaign.objects.filter(name="X").exists()
    tcs = {"name": "Epsom", "side_a": "British", "rating_a": 3, "side_b": "Germans",
           "rating_b": 4, "start_clock": "0800", "light": "day", "role": "0",
           "visibility": "private", "club": club.pk}  # fmt: skip
    assert client.post(reverse("tcs-new"), tcs).status_code == 302
    assert Campaign.objects.get(name="Epsom").club == club
    with pytest.raises(ValidationError):
        campaign_create(
            creator=members["ann"], name="Y", system="cc", side_names=["a", "b"], club=other
        )


def test_an_organiser_moves_a_campaign_into_a_club_and_out(client, api, club, members):
    ann, ben = members["ann"], members["ben"]
    campaign = campaign_create(creator=ann, name="Kursk", system="cc", side_names=["G", "S"])
    with pytest.raises(ValidationError):
        campaign_club_set(campaign=campaign, actor=ben, club=club)  # not his campaign
    client.force_login(ben)
    assert client.get(reverse("campaign-club", args=[campaign.pk])).status_code == 404
    client.force_login(ann)
    assert "Put it in a club" in client.get(campaign.get_absolute_url()).text
    response = client.post(reverse("campaign-club", args=[campaign.pk]), {"club": club.pk})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.club == club
    entry = LogEntry.objects.filter(campaign=campaign).latest("seq")
    assert entry.summary == "Campaign moved into the club Kampfgruppe Madrid."
    assert entry.actor == ann
    # the club page lists it, and its battles can be recorded in the club's leagues
    assert "Kursk" in client.get(reverse("club-detail", args=[club.slug])).text
    api.force_authenticate(ben)
    url = f"/api/v1/campaign-clubs/{campaign.pk}/"
    assert api.put(url, {"club": None}, format="json").status_code in (403, 404)
    api.force_authenticate(ann)
    assert api.get(url).json() == {"club": club.slug}
    assert api.put(url, {"club": None}, format="json").json() == {"club": None}
    campaign.refresh_from_db()
    assert campaign.club is None
    assert (
        "taken out of the club" in LogEntry.objects.filter(campaign=campaign).latest("seq").summary
    )


# --- Finding 9 / item 4: games played on the site go to a league --------------------------------


def test_a_finished_skirmish_is_recorded_once_with_its_negative_vp(
    client, club, organiser, members, django_capture_on_commit_callbacks
):
    league = _league(club, organiser, "parabellum", "Parabellum")
    battle = _skirmish(members["ann"], members["ben"])
    client.force_login(organiser)
    games = client.get(reverse("league-games", args=[league.pk])).text
    assert (
        "Ambush at the farm" in games
        and reverse("record-game", args=["skirmish", battle.pk]) in games
    )
    page = client.get(reverse("record-game", args=["skirmish", battle.pk])).text
    assert "-3 VP" in page and "ann" in page and "ben" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("record-game", args=["skirmish", battle.pk]), {"league": league.pk}
        )
    assert response.status_code == 302
    result = Result.objects.get(league=league)
    assert result.skirmish == battle and result.status == Result.Status.ACTIVE
    assert result.outcome == "a" and result.details["vp_a"] == 4 and result.details["vp_b"] == -3
    again = result_from_skirmish(league=league, actor=organiser, skirmish=battle)
    assert again.pk == result.pk and Result.objects.count() == 1
    assert "Ambush at the farm" not in client.get(reverse("league-games", args=[league.pk])).text


def test_a_finished_operation_is_recorded_with_the_outcome_given(client, club, organiser, members):
    league = _league(club, organiser, "tcs", "Operations")
    op = _finished_operation(members["ann"], members["ben"], club=club)
    client.force_login(organiser)
    page = client.get(reverse("record-game", args=["operation", op.pk])).text
    assert 'name="outcome"' in page and "British" in page
    response = client.post(
        reverse("record-game", args=["operation", op.pk]), {"league": league.pk, "outcome": "b"}
    )
    assert response.status_code == 302
    result = Result.objects.get(league=league, operation=op)
    teams = {p.team: p.user.username for p in result.players.all()}
    assert result.outcome == "b" and teams == {"a": "ann", "b": "ben"}
    assert LogEntry.objects.filter(campaign=op, kind=LogEntry.Kind.RESULT).exists()
    same = result_from_operation(league=league, actor=organiser, operation=op, outcome="a")
    assert same.pk == result.pk and same.outcome == "b"


def test_the_league_form_accepts_minus_three_vp(client, league, organiser, members):
    client.force_login(organiser)
    response = client.post(
        reverse("result-new", args=[league.pk]),
        {"played_on": "2026-03-01", "team_a": "ann", "team_b": "ben", "outcome": "a",
         "vp_a": "4", "vp_b": "-3"},
    )  # fmt: skip
    assert response.status_code == 302
    assert Result.objects.get().details == {"vp_a": 4, "vp_b": -3}


# --- Finding 15: pickers and the fields of the league's game ------------------------------------


def test_result_form_picks_players_and_shows_only_the_games_fields(
    client, club, organiser, members
):
    parabellum = _league(club, organiser, "parabellum", "Parabellum")
    client.force_login(organiser)
    page = client.get(reverse("result-new", args=[parabellum.pk])).text
    assert 'type="checkbox" name="team_a" value="ann"' in page
    assert "Usernames joined by" not in page
    for cc_only in ('name="win_type"', 'name="time_space"', 'name="objective_5_in_play"'):
        assert cc_only not in page
    response = client.post(
        reverse("result-new", args=[parabellum.pk]),
        {"played_on": "2026-03-01", "team_a": ["ann", "cat"], "team_b": "ben", "outcome": "a",
         "win_type": "vp"},
    )  # fmt: skip
    assert response.status_code == 302
    result = Result.objects.get(league=parabellum)
    assert "win_type" not in result.details
    assert sorted(p.user.username for p in result.players.filter(team="a")) == ["ann", "cat"]
    with pytest.raises(ValidationError) as err:
        enter(parabellum, organiser, "ann", "ben", "a", details={"time_space": 3})
    assert "time_space" in err.value.message_dict


# --- Item 4: players report, the opponent confirms, the organiser settles ------------------------


def test_report_confirm_dispute_and_settle(
    client, league, organiser, members, django_capture_on_commit_callbacks
):
    ann, ben, cat = members["ann"], members["ben"], members["cat"]
    report = {"played_on": DAY, "team_a": ["ann"], "team_b": ["ben"], "outcome": "a"}
    with pytest.raises(ValidationError):
        result_report(league=league, actor=cat, **report)  # cat did not play it
    first = result_report(league=league, actor=ann, **report)
    assert first.status == Result.Status.REPORTED
    assert not StandingMatchup.objects.filter(league=league).exists()  # does not count yet
    with pytest.raises(ValidationError):
        result_confirm(result=first, actor=ann)  # not her own
    client.force_login(ben)
    page = client.get(league.get_absolute_url()).text
    assert reverse("result-step", args=[league.pk, first.pk, "confirm"]) in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("result-step", args=[league.pk, first.pk, "confirm"]))
    first.refresh_from_db()
    assert first.status == Result.Status.ACTIVE
    assert StandingMatchup.objects.filter(league=league).exists()
    assert Rating.objects.filter(league=league).count() >= 2
    second = result_report(league=league, actor=ann, **report)
    result_dispute(result=second, actor=ben, reason="I won on objective 5")
    second.refresh_from_db()
    assert second.status == Result.Status.DISPUTED
    with pytest.raises(ValidationError):
        result_settle(result=second, actor=ann, reason="mine")
    client.force_login(organiser)
    assert (
        reverse("result-step", args=[league.pk, second.pk, "settle"])
        in client.get(league.get_absolute_url()).text
    )
    client.post(
        reverse("result-step", args=[league.pk, second.pk, "settle"]),
        {"ruling": "b", "reason": "the photo shows objective 5"},
    )
    second.refresh_from_db()
    assert second.status == Result.Status.ACTIVE and second.outcome == "b"
    actions = list(second.trace.values_list("action", flat=True))
    assert actions == ["report", "dispute", "settle"]


def test_report_steps_through_the_api(api, league, organiser, members):
    api.force_authenticate(members["ann"])
    body = {"league": league.pk, "played_on": "2026-03-01", "team_a": ["ann"],
            "team_b": ["ben"], "outcome": "draw"}  # fmt: skip
    made = api.post("/api/v1/results/report/", body, format="json")
    assert made.status_code == 201 and made.json()["status"] == "reported", made.content
    rid = made.json()["id"]
    assert api.post(f"/api/v1/results/{rid}/confirm/").status_code == 403
    api.force_authenticate(members["ben"])
    disputed = api.post(f"/api/v1/results/{rid}/dispute/", {"reason": "no"}, format="json")
    assert disputed.json()["status"] == "disputed"
    assert api.post(f"/api/v1/results/{rid}/confirm/").status_code == 409
    api.force_authenticate(organiser)
    settled = api.post(
        f"/api/v1/results/{rid}/settle/",
        {"ruling": "void", "reason": "never played"},
        format="json",
    )
    assert settled.json()["status"] == "void"


def test_a_player_reports_a_skirmish_for_the_opponent_to_confirm(club, organiser, members):
    league = _league(club, organiser, "parabellum", "Parabellum")
    battle = _skirmish(members["ann"], members["ben"], winner=None, totals=(2, 2))
    result = result_from_skirmish(league=league, actor=members["ben"], skirmish=battle)
    assert result.status == Result.Status.REPORTED and result.outcome == "draw"
    with pytest.raises(ValidationError):
        result_from_skirmish(league=league, actor=members["cat"], skirmish=_skirmish(
            members["ann"], members["dan"]))  # fmt: skip
    result_confirm(result=result, actor=members["ann"])
    result.refresh_from_db()
    assert result.status == Result.Status.ACTIVE


# --- Findings 13, 14, 32, 10, 5, 8 ----------------------------------------------------------


def test_ratings_page_shows_the_initial_rating(client, league):
    page = client.get(reverse("league-ratings", args=[league.pk])).text
    assert "Every player starts at 1500. Ratings updated: After each result." in page


def test_standings_csv_headers_are_distinct_words(client, league, played):
    header = client.get(reverse("league-standings-csv", args=[league.pk])).text.split("\n")[0]
    columns = header.strip().split(",")
    assert len(columns) == len(set(columns))
    assert "head-to-head" in columns and "h2h" not in columns


def test_tiebreak_controls_are_apart_big_and_shareable(client, league, played):
    page = client.get(league.get_absolute_url()).text
    assert '<span class="criterion">' in page
    assert 'class="move"' in page and 'hx-push-url="?tb=' in page
    preview = client.get(league.get_absolute_url() + "?tb=h2h,points").text
    assert "This preview order is in the page address" in preview
    with open("static/css/ledger.css") as css:
        text = css.read()
    assert "min-width: 44px" in text and "min-height: 44px" in text


def test_standings_scroll_in_their_own_box_with_a_cue(client, league, played):
    page = client.get(league.get_absolute_url()).text
    assert 'class="table-scroll standings-box" tabindex="0" role="region"' in page
    assert "Swipe sideways to see every column." in page


def test_profile_names_games_and_methods_in_words(
    client, league, played, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        enter(league, league.club.memberships.get(role="organiser").user, "ann", "ben", "a",
              day=DAY + dt.timedelta(days=1))  # fmt: skip
    page = client.get(reverse("player-profile", args=["ann"])).text
    assert "<td>Combat Commander</td>" in page and "<td>cc</td>" not in page
    assert "Combat Commander · Elo" in page and "cc · elo" not in page


def test_criteria_are_labelled_in_the_readers_language(client, league, played, monkeypatch):
    spanish = {"Head-to-head": "Enfrentamiento directo", "Points": "Puntos"}
    monkeypatch.setattr(site_i18n, "gettext", lambda text: spanish.get(text, text))
    page = client.get(league.get_absolute_url()).text
    assert '<th scope="col">Enfrentamiento directo</th>' in page
    assert '<span class="criterion">Puntos</span>' in page


def test_the_api_creates_campaigns_in_a_club(api, club, members, make_user):
    other = club_create(creator=make_user("zoe"), name="Other Club")
    api.force_authenticate(members["ann"])
    body = {"name": "Bagration", "system": "cc", "side_names": ["Germans", "Soviets"],
            "club": club.slug}  # fmt: skip
    made = api.post("/api/v1/campaigns/", body, format="json")
    assert made.status_code == 201, made.content
    assert Campaign.objects.get(name="Bagration").club == club
    refused = api.post(
        "/api/v1/campaigns/", {**body, "name": "Z", "club": other.slug}, format="json"
    )
    assert refused.status_code == 400 and "club" in refused.json()
    assert not Campaign.objects.filter(name="Z").exists()
    tcs = {"name": "Totalize", "side_a": "Canadians", "rating_a": 3, "side_b": "Germans",
           "rating_b": 4, "start_clock": "0800", "light": "day", "role": "0",
           "visibility": "private", "club": club.pk}  # fmt: skip
    assert api.post("/api/v1/tcs/operations/", tcs, format="json").status_code == 201
    assert Campaign.objects.get(name="Totalize").club == club


def test_elo_k_bands_are_rows_of_numbers_not_typed_pairs(client, league, organiser):
    """Finding 15's spirit: the organiser fills "from rating" and "K" boxes per band."""
    client.force_login(organiser)
    url = reverse("league-settings", args=[league.pk])
    page = client.get(url).text
    assert 'name="elo_k_bands-0-from" value="0"' in page
    assert 'name="elo_k_bands-0-k" value="32"' in page and "0:32" not in page
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if k != "elo_k_bands"}
    data["tiebreaks_0"], data["tiebreaks_1"] = "points", "wins"
    data |= {"elo_k_bands-0-from": "0", "elo_k_bands-0-k": "40", "elo_k_bands-1-from": "2000"}
    response = client.post(url, data)
    assert "Band 2: give both the rating it starts at and its K, as numbers." in response.text
    data["elo_k_bands-1-k"] = "20"
    assert client.post(url, data).status_code == 302
    league.refresh_from_db()
    assert league.elo_k_bands == [[0, 40], [2000, 20]]

"""Clubs: create, invite, join, roles, and the club page."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Club, ClubInvite, ClubMembership
from campaigns.services.club_admin import (
    club_invite_accept,
    club_invite_create,
    club_member_set_role,
)

pytest_plugins = ["tests.web.leagues_helpers"]
pytestmark = pytest.mark.django_db


def test_create_a_club_from_the_page(client, user):
    client.force_login(user)
    response = client.post(reverse("club-list"), {"name": "Los Zapadores", "description": "x"})
    club = Club.objects.get(name="Los Zapadores")
    assert response.url == reverse("club-detail", args=[club.slug])
    assert club.memberships.get().role == "organiser"
    dup = client.post(reverse("club-list"), {"name": "Los Zapadores"})
    assert dup.status_code == 200 and "already exists" in dup.text
    client.logout()
    assert client.post(reverse("club-list"), {"name": "Anon"}).status_code == 302
    assert not Club.objects.filter(name="Anon").exists()


def test_invite_link_and_join(client, club, organiser, make_user):
    newcomer = make_user("nina")
    client.force_login(organiser)
    response = client.post(
        reverse("club-invite", args=[club.slug]), {"role": "member"}, follow=True
    )
    invite = ClubInvite.objects.get()
    assert f"/clubs/join/{invite.token}/" in response.text
    client.force_login(newcomer)
    page = client.get(reverse("club-join", args=[invite.token]))
    assert "Join the club" in page.text
    client.post(reverse("club-join", args=[invite.token]))
    assert ClubMembership.objects.get(club=club, user=newcomer).role == "member"
    other = make_user("otto")
    client.force_login(other)
    client.post(reverse("club-join", args=[invite.token]))  # already used
    assert not ClubMembership.objects.filter(user=other).exists()
    assert client.get(reverse("club-join", args=["nope"])).status_code == 404


def test_named_invitation_is_for_that_user_only(club, organiser, make_user):
    nina, otto = make_user("nina"), make_user("otto")
    invite = club_invite_create(club=club, actor=organiser, username="nina", role="organiser")
    with pytest.raises(ValidationError) as err:
        club_invite_accept(token=invite.token, user=otto)
    assert "token" in err.value.message_dict
    assert club_invite_accept(token=invite.token, user=nina).role == "organiser"
    with pytest.raises(ValidationError) as err:
        club_invite_create(club=club, actor=organiser, username="ghost")
    assert "username" in err.value.message_dict


def test_members_cannot_invite_or_change_roles(client, club, members, organiser):
    ann = members["ann"]
    with pytest.raises(ValidationError):
        club_invite_create(club=club, actor=ann)
    client.force_login(ann)
    assert (
        client.post(reverse("club-invite", args=[club.slug]), {"role": "member"}).status_code == 404
    )
    url = reverse("club-role", args=[club.slug, ann.pk])
    assert client.post(url, {"role": "organiser"}).status_code == 404
    assert ClubMembership.objects.get(club=club, user=ann).role == "member"
    assert not ClubInvite.objects.exists()


def test_roles_keep_one_organiser(club, members, organiser):
    ann = members["ann"]
    club_member_set_role(club=club, actor=organiser, user=ann, role="organiser")
    club_member_set_role(club=club, actor=ann, user=organiser, role="member")
    with pytest.raises(ValidationError) as err:
        club_member_set_role(club=club, actor=ann, user=ann, role="member")
    assert "role" in err.value.message_dict
    assert ClubMembership.objects.get(club=club, user=ann).role == "organiser"


def test_club_page_lists_leagues_members_and_organiser_tools(
    client, club, league, members, organiser
):
    page = client.get(reverse("club-detail", args=[club.slug])).text
    assert "Winter League" in page and "ann" in page and "Create the invitation" not in page
    client.force_login(organiser)
    page = client.get(reverse("club-detail", args=[club.slug])).text
    assert "Create the invitation" in page and "New league" in page
    assert client.get(reverse("club-detail", args=["no-such-club"])).status_code == 404
    assert "Kampfgruppe Madrid" in client.get(reverse("club-list")).text


def test_league_creation_needs_an_organiser_and_valid_settings(client, club, members, organiser):
    url = reverse("league-new", args=[club.slug])
    data = {"name": "Spring", "season": "2026", "system": "tcs", "points_win": 2,
            "points_draw": 1, "points_loss": 0, "tiebreaks_0": "points", "tiebreaks_1": "sos",
            "elo_initial": 1500, "elo_k_bands": "0:40, 2000:20", "elo_period": "day",
            "balance_min_plays": 8}  # fmt: skip
    client.force_login(members["ann"])
    assert client.post(url, data).status_code == 404
    client.force_login(organiser)
    bad = client.post(url, {**data, "tiebreaks_1": "luck", "elo_k_bands": "2000:20, 2000:40"})
    assert bad.status_code == 200 and "Unknown criterion: luck." in bad.text
    assert "ascending pairs" in bad.text and not club.leagues.exists()
    assert client.post(url, data).status_code == 302
    league = club.leagues.get()
    assert league.tiebreaks == ["points", "sos"] and league.elo_k_bands == [[0, 40], [2000, 20]]


def test_member_joins_a_league_and_organiser_enrols_with_handicap(
    client, league, members, organiser
):
    url = reverse("league-join", args=[league.pk])
    client.force_login(members["ann"])
    client.post(url)
    assert league.participants.filter(user=members["ann"], handicapped=False).exists()
    client.post(url, {"username": "ben"})  # a member cannot enrol someone else
    assert not league.participants.filter(user=members["ben"]).exists()
    client.force_login(organiser)
    client.post(url, {"username": "ben", "handicapped": "on"})
    assert league.participants.get(user=members["ben"]).handicapped
    page = client.get(league.get_absolute_url()).text
    assert ">EQ<" in page

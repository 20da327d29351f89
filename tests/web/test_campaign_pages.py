import pytest
from django.urls import reverse

from campaigns.models import Campaign, LogEntry
from campaigns.services import campaign_create, side_join
from campaigns.services._base import append_log

pytestmark = pytest.mark.django_db


def test_create_campaign_through_the_form(client, user):
    client.force_login(user)
    response = client.post(
        reverse("campaign-new"),
        {
            "name": "St-Lô",
            "system": "cc",
            "side_names": "Americans\nGermans",
            "visibility": "private",
        },
        follow=True,
    )
    campaign = Campaign.objects.get(name="St-Lô")
    assert response.redirect_chain[-1][0] == campaign.get_absolute_url()
    assert [s.name for s in campaign.sides.all()] == ["Americans", "Germans"]
    assert campaign.log.get().summary.startswith("Campaign “St-Lô” created")


@pytest.mark.parametrize(
    ("sides", "message"),
    [("Only one", "at least two sides"), ("Same\nsame", "its own name")],
)
def test_bad_sides_are_explained_and_nothing_is_created(client, user, sides, message):
    client.force_login(user)
    response = client.post(
        reverse("campaign-new"),
        {"name": "X", "system": "cc", "side_names": sides, "visibility": "private"},
    )
    assert response.status_code == 200 and message in response.text
    assert not Campaign.objects.exists()


def test_new_campaign_needs_login(client):
    response = client.get(reverse("campaign-new"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_take_an_empty_seat_once(client, user, make_user):
    c = campaign_create(creator=user, name="K", system="cc", side_names=["A", "B"])
    client.force_login(user)
    side = c.sides.first()
    client.post(reverse("side-join", args=[c.pk, side.pk]))
    assert list(side.players.values_list("username", flat=True)) == ["alice"]
    intruder = make_user("carol")
    c.visibility = Campaign.Visibility.PUBLIC
    c.save()
    client.force_login(intruder)
    response = client.post(reverse("side-join", args=[c.pk, side.pk]), follow=True)
    assert "already has a player" in response.text
    assert side.players.count() == 1


def test_log_hides_the_other_sides_private_entries(client, campaign):
    germans, soviets = campaign.sides.order_by("order")
    append_log(campaign, kind=LogEntry.Kind.SETUP, summary="SECRET-GERMAN", private_to=germans)
    append_log(campaign, kind=LogEntry.Kind.SETUP, summary="SECRET-SOVIET", private_to=soviets)
    client.force_login(soviets.players.get())
    page = client.get(campaign.get_absolute_url()).text
    assert "SECRET-SOVIET" in page and "SECRET-GERMAN" not in page
    partial = client.get(
        campaign.get_absolute_url() + "?kind=setup", headers={"HX-Request": "true"}
    ).text
    assert "SECRET-SOVIET" in partial and "SECRET-GERMAN" not in partial and "<html" not in partial


def test_log_seq_increases_per_campaign(campaign):
    entry = append_log(campaign, kind=LogEntry.Kind.EVENT, summary="x")
    assert entry.seq == campaign.log.count()
    assert list(campaign.log.values_list("seq", flat=True)) == list(range(1, entry.seq + 1))


def test_organiser_seats_a_player_by_username(client, user, make_user):
    c = campaign_create(creator=user, name="K", system="cc", side_names=["A", "B"])
    carol = make_user("carol")
    client.force_login(user)
    side = c.sides.get(order=1)
    response = client.post(
        reverse("side-invite", args=[c.pk]), {"username": "Carol", "side": side.pk}, follow=True
    )
    assert "Player seated" in response.text
    assert list(side.players.all()) == [carol]
    missing = client.post(
        reverse("side-invite", args=[c.pk]), {"username": "nobody", "side": side.pk}, follow=True
    )
    assert "No player is called “nobody”" in missing.text


def test_only_the_organiser_may_seat_players(client, user, make_user):
    c = campaign_create(creator=user, name="K", system="cc", side_names=["A", "B"])
    carol = make_user("carol")
    side_join(user=carol, side=c.sides.get(order=0))
    client.force_login(carol)
    response = client.post(
        reverse("side-invite", args=[c.pk]),
        {"username": "carol", "side": c.sides.get(order=1).pk},
        follow=True,
    )
    assert "Only the campaign&#x27;s organiser or game master may invite" in response.text
    assert c.sides.get(order=1).players.count() == 0

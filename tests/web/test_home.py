import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services import campaign_create, side_join

pytestmark = pytest.mark.django_db


def test_anonymous_home_invites_to_sign_up(client):
    response = client.get("/")
    assert response.status_code == 200
    assert reverse("signup") in response.text
    for landmark in ("<header", "<nav", "<main", "<footer", 'class="skip-link"'):
        assert landmark in response.text


def test_empty_state_explains_what_to_do_next(client, user):
    client.force_login(user)
    response = client.get("/")
    assert "You have no campaigns yet" in response.text
    assert reverse("campaign-new") in response.text


def test_home_lists_my_campaigns_and_not_others(client, campaign, make_user):
    stranger = make_user("carol")
    campaign_create(creator=stranger, name="Not mine", system="tcs", side_names=["A", "B"])
    client.force_login(campaign.created_by)
    response = client.get("/")
    assert "Kurgan" in response.text and "Not mine" not in response.text
    assert "alice" in response.text and "bob" in response.text


def test_htmx_filter_returns_only_the_list_partial(client, campaign):
    client.force_login(campaign.created_by)
    response = client.get("/?status=finished", headers={"HX-Request": "true"})
    assert response.text.lstrip().startswith('<section id="campaign-list"')
    assert "<html" not in response.text
    assert "No campaign matches this filter" in response.text


def test_home_query_count_does_not_grow_with_campaigns(
    client, user, other_user, django_assert_max_num_queries
):
    for i in range(12):
        c = campaign_create(creator=user, name=f"C{i}", system="cc", side_names=["A", "B"])
        side_join(user=other_user, side=c.sides.first())
    client.force_login(user)
    with django_assert_max_num_queries(8):
        response = client.get("/")
    assert response.text.count('class="card"') == 12


def test_404_page_is_friendly(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404


def test_private_campaign_is_hidden_from_strangers(client, campaign, make_user):
    client.force_login(make_user("carol"))
    assert client.get(campaign.get_absolute_url()).status_code == 404
    campaign.visibility = Campaign.Visibility.PUBLIC
    campaign.save()
    assert client.get(campaign.get_absolute_url()).status_code == 200

"""Pages read a Combat Commander state decoded once per saved version (issue 16).

A CC state grows with the campaign's battles; the page loader leaves it in the database and
`CCTemplate.read` decodes it once per `updated_at`. These tests pin the two promises that
make that safe: a saved change is seen at once, and other systems' states are still loaded.
"""

import pytest
from django.urls import reverse

from campaigns.cc.engines import template_for
from campaigns.models import Campaign
from campaigns.selectors import campaign_with_sides
from campaigns.services import campaign_create, side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA
from tests.web.test_cc_campaign_flow import _play_setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def kurgan(user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    return c


def test_a_cc_page_load_leaves_the_state_in_the_database(kurgan):
    loaded = campaign_with_sides(kurgan.pk)
    assert "state" in loaded.get_deferred_fields()
    tpl = template_for(loaded.template)
    assert tpl.read(loaded) is tpl.read(campaign_with_sides(kurgan.pk))  # decoded once


def test_other_systems_keep_their_state(user):
    c = campaign_create(creator=user, name="Goodwood", system="tcs", side_names=["A", "B"])
    Campaign.objects.filter(pk=c.pk).update(state={"turn": {"number": 3}})
    loaded = campaign_with_sides(c.pk)
    assert "state" not in loaded.get_deferred_fields()
    assert loaded.state == {"turn": {"number": 3}}


def test_a_saved_change_is_read_at_once(client, kurgan, user, other_user):
    tpl = template_for(kurgan.template)
    before = tpl.read(campaign_with_sides(kurgan.pk))
    _play_setup(kurgan, user, other_user)
    after = tpl.read(campaign_with_sides(kurgan.pk))
    assert after is not before
    assert after.phase != before.phase
    assert tpl.load(Campaign.objects.get(pk=kurgan.pk).state).phase == after.phase
    client.force_login(user)
    assert client.get(reverse("campaign-detail", args=[kurgan.pk])).status_code == 200

"""A set-up missing table values stops before any secret choice and tells everyone why."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.services import side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA

pytestmark = pytest.mark.django_db


def test_st_c1_5_5_missing_costs_stop_the_set_up_before_the_sealed_purchase(
    user, other_user, client, django_capture_on_commit_callbacks
):
    # created with the rulebook's example tables: the seed gives no Patrol costs
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    with pytest.raises(ValidationError, match="no cost for C, D, F, Pionier, A, B"):
        cc_advance(campaign_id=c.pk, actor=other_user)
    c.refresh_from_db()
    assert not c.decisions.filter(key__startswith="purchase.").exists()
    assert "Assault Engineers" in c.stopped_reason
    with pytest.raises(ValidationError):  # pressed again: said once in the log
        cc_advance(campaign_id=c.pk, actor=other_user)
    assert c.log.filter(summary__startswith="The campaign waits for its organiser").count() == 1

    client.force_login(other_user)
    page = client.get(reverse("campaign-detail", args=[c.pk])).content.decode()
    assert "Waiting for the organiser to complete the campaign tables" in page

    with django_capture_on_commit_callbacks(execute=True):
        cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    c.refresh_from_db()
    assert c.stopped_reason == ""
    assert set(c.decisions.filter(status="open").values_list("key", flat=True)) == {
        "purchase.axis",
        "purchase.allies",
    }

"""A TCS operation can be deleted whole (a unit's formation goes with the campaign)."""

import pytest

from campaigns.models import Campaign, TcsFormation, TcsUnit
from campaigns.services.tcs import tcs_operation_create

pytestmark = pytest.mark.django_db


def test_deleting_an_operation_takes_its_formations_and_units(user):
    campaign = tcs_operation_create(
        creator=user, name="Goodwood", side_names=["British", "Germans"], ratings=[3, 4]
    )
    side = campaign.sides.get(order=0)
    formation = TcsFormation.objects.create(campaign=campaign, side=side, code="1/3")
    TcsUnit.objects.create(
        campaign=campaign, side=side, formation=formation, code="A", category="infantry"
    )
    campaign.delete()
    assert not Campaign.objects.exists()
    assert not TcsFormation.objects.exists() and not TcsUnit.objects.exists()

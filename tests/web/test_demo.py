import pytest
from django.core.management import call_command

from campaigns.models import Campaign, Club, Result, Roster

pytestmark = pytest.mark.django_db


def test_demo_data_loads_twice_and_can_be_played(client):
    call_command("load_demo")
    call_command("load_demo")
    campaign = Campaign.objects.get(system="cc")
    assert Club.objects.count() == 1 and campaign.template == "stalingrad"
    assert Campaign.objects.filter(system="tcs").count() == 1
    assert Roster.objects.count() == 2 and Result.objects.count() == 3
    assert [list(s.players.values_list("username", flat=True)) for s in campaign.sides.all()] == [
        ["demo"],
        ["rival"],
    ]
    assert client.login(username="demo", password="ledger-demo")
    page = client.get(campaign.get_absolute_url()).text
    assert "DEMO PLACEHOLDERS" in page and "Set up battle 1" in page
    client.post(f"/campaigns/{campaign.pk}/advance/")
    assert campaign.decisions.filter(status="open", sealed=True).count() == 2

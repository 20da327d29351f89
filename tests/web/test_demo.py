import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.management.commands.load_demo import BATTLE_DEMO, M36_DEMO, PB_DEMO
from campaigns.models import Campaign, Club, Result, Roster, SkirmishBattle

pytestmark = pytest.mark.django_db


def test_demo_data_loads_twice_and_can_be_played(client):
    call_command("load_demo")
    call_command("load_demo")
    campaign = Campaign.objects.get(name="Stalingrad: Mamayev Kurgan")
    assert Club.objects.count() == 1 and campaign.template == "stalingrad"
    assert Campaign.objects.filter(system="tcs").count() == 1
    assert Roster.objects.count() == 4 and Result.objects.count() == 3
    assert SkirmishBattle.objects.filter(status="playing").count() == 2
    assert [list(s.players.values_list("username", flat=True)) for s in campaign.sides.all()] == [
        ["demo"],
        ["rival"],
    ]
    assert client.login(username="demo", password="ledger-demo")
    page = client.get(campaign.get_absolute_url()).text
    assert "DEMO PLACEHOLDERS" in page and "Set up battle 1" in page
    client.post(f"/campaigns/{campaign.pk}/advance/")
    assert campaign.decisions.filter(status="open", sealed=True).count() == 2


def test_the_demo_shows_a_battle_in_play_with_the_assistant(client):
    """A second campaign's first battle is tracked with every unit, a fire attack from the
    counter table and its Defense roll already resolved (demo placeholders, marked)."""
    call_command("load_demo")
    campaign = Campaign.objects.get(name=BATTLE_DEMO)
    battle = campaign.battles.get(status="playing")
    assert client.login(username="rival", password="ledger-demo")
    page = client.get(battle.get_absolute_url()).text
    assert "Fire Attack from the counters" in page and "Guards Squad (demo)" in page
    assert "Defense roll" in page and "Counter table" in page
    counters = client.get(reverse("tracker-counters", args=[campaign.pk, battle.number])).text
    assert "Rifle Squad (demo)" in counters and "German (demo)" in counters
    spanish = client.get(battle.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Ataque de Fuego" in spanish


def test_the_demo_tcs_operation_is_in_play_with_a_fire_result_to_apply(client):
    """The TCS demo: both orders of battle, placeholder charts (said so), and a German fire
    attack on a British stack that the demo player applies from the resolve page."""
    call_command("load_demo")
    op = Campaign.objects.get(system="tcs")
    british = op.sides.get(order=0)
    assert op.status == "active" and "demo placeholders" in op.description
    assert client.login(username="demo", password="ledger-demo")
    page = client.get(reverse("tcs-resolve", args=[op.pk, british.pk])).text
    assert "Fire on your stacks, to apply" in page and "1 step loss" in page
    assert "Apply to my units" in page


def test_the_demo_has_a_battle_of_each_skirmish_game_in_play(client):
    """A Parabellum activation in progress and a 1936 attack phase after a shot: the top of
    each battle page says whose move it is and what the units are."""
    call_command("load_demo")
    assert client.login(username="demo", password="ledger-demo")
    pb = client.get(SkirmishBattle.objects.get(title=PB_DEMO).get_absolute_url()).text
    assert 'id="battle-summary"' in pb and "PA left" in pb and "End the activation" in pb
    m36 = client.get(SkirmishBattle.objects.get(title=M36_DEMO).get_absolute_url()).text
    assert 'id="battle-summary"' in m36 and "Battalion morale" in m36
    assert "Direct fire (VI.2, VI.3)" in m36

"""The top of a battle page being played, always current (turn, phase, whose move, each
side's score and points, the units' states), the same in the API's `state`, and the exact
odds of the 1936 procedures before rolling — pages and API; hidden units stay tokens."""

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.services.rosters import roster_create
from campaigns.services.skirmish import skirmish_create
from tests.web import m36_play_helpers as m36
from tests.web.pb_play_helpers import Table, pb_battle

pytestmark = pytest.mark.django_db


def test_1936_summary_on_the_page_and_in_the_api(client, user, other_user):
    battle = m36.new_battle(user, other_user)
    m36.set_up(client, battle, user, other_user, bob_tokens="4: 7")
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).text
    start = page.index('id="battle-summary"')
    summary = page[start : page.index("</section>", start)]
    assert "Turn 1" in summary and "Sección Infantería de Línea" in summary
    assert "Token 7" in summary and "Sección de Zapadores" not in summary
    assert "Direct fire (VI.2, VI.3)" in page  # the in-battle forms are on the page
    state = client.get(f"/api/v1/skirmishes/{battle.pk}/state/").json()
    assert state["turn"] == 1 and len(state["sides"]) == 2
    names = [u["name"] for u in state["sides"][1]["units"]]
    assert "Token 7" in names and "Sección de Zapadores" not in names
    # the owner sees his own hidden unit by name
    client.force_login(other_user)
    own = client.get(f"/api/v1/skirmishes/{battle.pk}/state/").json()
    assert "4. Sección de Zapadores" in [u["name"] for u in own["sides"][1]["units"]]


def test_1936_fire_odds_before_rolling_page_and_api(client, user, other_user):
    battle = m36.new_battle(user, other_user)
    m36.set_up(client, battle, user, other_user)
    client.force_login(user)
    body = {"firer": "0", "target": "0", "band": "corta", "bases": "3", "performance": "1"}
    page = client.post(
        reverse("skirmish-odds", args=[battle.pk, "m36fire"]), body, headers={"HX-Request": "true"}
    )
    assert page.status_code == 200 and "<dl" in page.text
    api = client.post(
        f"/api/v1/skirmishes/{battle.pk}/odds/m36fire/", body, content_type="application/json"
    )
    assert api.status_code == 200 and api.json()["lines"]
    # a Parabellum preview name in a 1936 battle: no such preview here
    wrong = client.post(
        f"/api/v1/skirmishes/{battle.pk}/odds/shoot/", body, content_type="application/json"
    )
    assert wrong.status_code == 404


def test_parabellum_summary_follows_the_turn(client, user, other_user):
    battle = pb_battle(user, other_user)
    a, b = Client(), Client()
    a.force_login(user)
    b.force_login(other_user)
    table = Table(a, b, battle)
    table.to_activations()
    state = a.get(f"/api/v1/skirmishes/{battle.pk}/state/").json()
    assert state["turn"] == 1 and state["acting"] == 0
    assert state["sides"][0]["points_label"] == "PO"
    page = a.get(battle.get_absolute_url()).text
    assert 'id="battle-summary"' in page and "Activate a soldier" in page


def test_state_answers_409_before_the_battle_is_played(client, user, other_user):
    ger = roster_create(owner=user, system="parabellum", name="G", squad_type="GER/grenadier")
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode="simple"
    )
    client.force_login(user)
    assert client.get(f"/api/v1/skirmishes/{battle.pk}/state/").status_code == 409

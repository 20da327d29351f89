"""What every skirmish battle has while it is played: the undo of the last action (pages and
API, once, only by who made it, logged), the rule readings as battle options, and the
result shown where the button was."""

import pytest
from django.urls import reverse

from campaigns.models import SkirmishBattle, SkirmishUndo
from campaigns.services.rosters import roster_create
from campaigns.services.skirmish import common, skirmish_create, skirmish_join
from tests.web.roster_helpers import m1936_battle

pytestmark = pytest.mark.django_db


def act(client, battle, name, data, **kw):
    return client.post(reverse("skirmish-action", args=[battle.pk, name]), data, **kw)


@pytest.fixture
def battle(user, other_user):
    ger = roster_create(owner=user, system="parabellum", name="G", squad_type="GER/grenadier")
    usa = roster_create(owner=other_user, system="parabellum", name="E", squad_type="USA/rifleman")
    b = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode="simple"
    )
    skirmish_join(battle=b, actor=other_user, roster=usa)
    return SkirmishBattle.objects.get(pk=b.pk)


def _po(battle):
    return list(battle.sides.order_by("index").values_list("po", flat=True))


def test_undo_puts_the_battle_back_once_and_logs_both_lines(client, user, other_user, battle):
    client.force_login(user)
    before = _po(battle)
    assert (
        act(client, battle, "tactical", {"turn": "1", "blue_0": "4", "blue_1": "6"}).status_code
        == 302
    )
    battle.refresh_from_db()
    assert battle.tactical and _po(battle) == [before[0] + 4, before[1]]
    page = client.get(battle.get_absolute_url()).text
    assert "Undo it" in page and "Your last action:" in page

    # the other player may not undo it
    client.force_login(other_user)
    assert "Undo it" not in client.get(battle.get_absolute_url()).text
    refused = client.post(f"/api/v1/skirmishes/{battle.pk}/actions/undo/", {}, format="json")
    assert refused.status_code == 400 and "Only the player who made the last action" in refused.text
    battle.refresh_from_db()
    assert battle.tactical

    client.force_login(user)
    done = client.post(f"/api/v1/skirmishes/{battle.pk}/actions/undo/", {}, format="json")
    assert done.status_code == 200
    battle.refresh_from_db()
    assert battle.tactical == [] and _po(battle) == before
    line = battle.events.filter(rule="undo").get()
    assert line.kind == "correction" and "Undid the last action (#" in line.summary
    assert battle.events.filter(rule="4.1").exists()  # the undone action stays in the log
    # a retry applies once: nothing left to undo, nothing changes
    again = act(client, battle, "undo", {}, follow=True)
    assert "Nothing to undo" in again.text
    assert battle.events.filter(rule="undo").count() == 1
    assert not SkirmishUndo.objects.filter(battle=battle).exists()


def test_undo_of_a_private_entry_never_says_what_it_was(client, user, other_user, battle):
    """The public undo line names whose action it was, not what (a private entry)."""
    with common.playing(battle, user, "parabellum") as (locked, side):
        common.log_event(locked, kind="event", summary="secret plan", actor=user, private_to=side)
    client.force_login(user)
    assert act(client, battle, "undo", {}).status_code == 302
    client.force_login(other_user)
    body = client.get(f"/api/v1/skirmishes/{battle.pk}/log/").text
    assert "undid their last action" in body and "secret plan" not in body


def test_readings_are_battle_options_labelled_with_their_rule(client, user, other_user, battle):
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).text
    assert "Objective bands add up [D-12 · 9.2]" in page
    response = act(client, battle, "readings", {"cumulative_bands": "on"})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.readings == {"cumulative_bands": True}
    line = battle.events.get(rule="D-12 · 9.2")
    assert "Objective bands add up → on" in line.summary
    # the API, and bad input: a 400 naming the field, nothing changes
    client.force_login(other_user)
    url = f"/api/v1/skirmishes/{battle.pk}/actions/readings/"
    bad = client.post(url, {"cumulative_bands": "sometimes"}, content_type="application/json")
    assert bad.status_code == 400 and "cumulative_bands" in bad.json()
    same = client.post(url, {"cumulative_bands": "on"}, content_type="application/json")
    assert same.status_code == 400
    ok = client.post(url, {"cumulative_bands": "off"}, content_type="application/json")
    assert ok.status_code == 200
    battle.refresh_from_db()
    assert battle.readings == {"cumulative_bands": False}
    schema = client.get("/api/schema/?format=json").json()
    body = schema["components"]["schemas"]["ReadingsActionRequest"]
    assert {"cumulative_bands", "objectives_one_per_sector"} <= set(body["properties"])


def test_1936_readings_change_the_scenario_procedures(client, user, other_user):
    battle = m1936_battle(user, other_user, ("Sección Infantería de Línea",))
    client.force_login(other_user)
    assert act(client, battle, "readings", {"objectives_one_per_sector": "off"}).status_code == 302
    battle.refresh_from_db()
    assert battle.readings == {"objectives_one_per_sector": False}


def test_the_result_shows_where_the_button_was(client, user, battle):
    client.force_login(user)
    response = act(
        client,
        battle,
        "tactical",
        {"turn": "1", "blue_0": "4", "blue_1": "6"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.text
    start = html.index('id="action-tactical"')
    card = html[start : html.index("</details>", start)]
    assert "result" in card and "#" in card and "Turn 1" in card

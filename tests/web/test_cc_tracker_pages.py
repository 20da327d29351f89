"""Issue 12 on the battle page: start tracking, a procedure's result where its button was
(htmx) with the tracks redrawn, the live odds, undo, and the page in Spanish."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import BattleTracker
from campaigns.selectors.cc_battle import battle_setup
from campaigns.services.battles import battle_event_record
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def battle(stalingrad, user, other_user):  # noqa: F811
    return _play_setup(stalingrad, user, other_user)


def start(client, battle):
    data = {
        "mode": "light",
        "time": "0",
        "sudden_death": "4",
        "vp_axis": "0",
        "initiative": "axis",
        "first_player": "axis",
        "posture_axis": "attack",
        "posture_allies": "defend",
        "surrender_axis": "4",
        "surrender_allies": "3",
    }
    return client.post(reverse("tracker-start", args=[battle.campaign_id, battle.number]), data)


def test_the_page_offers_tracking_then_shows_the_tracks_and_procedures(client, user, battle):
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).text
    assert "Track this battle by the rules" in page and "Start tracking" in page
    assert start(client, battle).status_code == 302
    page = client.get(battle.get_absolute_url()).text
    assert 'id="tracks"' in page and "Sudden Death on 4" in page
    for title in (
        "Advance the Time marker",
        "Recover order",
        "Rout roll",
        "Melee",
        "A unit is eliminated",
    ):
        assert title in page
    assert "Log an event" in page  # free events stay for what the forms do not cover


def test_a_rally_roll_answers_in_its_card_and_redraws_the_tracks(client, other_user, battle, user):
    client.force_login(user)
    start(client, battle)
    client.force_login(other_user)
    url = reverse("tracker-act", args=[battle.campaign_id, battle.number, "recover"])
    version = BattleTracker.objects.get(battle=battle).version
    response = client.post(
        url,
        {
            "recover-units": "Guards Squad; 7",
            "recover-dice": "3 4",
            "recover-version": str(version),
        },
        headers=HX,
    )
    html = response.text
    assert response.status_code == 200
    assert (
        'id="proc-recover-result"' in html and "Guards Squad: 7, Suppressed, still broken" in html
    )
    assert 'id="tracks" class="card tracks" aria-labelledby="tracks-h" hx-swap-oob="true"' in html
    assert "Recover: Guards Squad: 7" in html  # the log, redrawn out of band
    assert "[O22.3]" in html


def test_bad_input_is_named_in_the_card_and_changes_nothing(client, user, battle):
    client.force_login(user)
    start(client, battle)
    before = BattleTracker.objects.get(battle=battle).state
    url = reverse("tracker-act", args=[battle.campaign_id, battle.number, "recover"])
    response = client.post(url, {"recover-units": "Squad; 7", "recover-dice": "8 1"}, headers=HX)
    assert response.status_code == 200 and "white die of the 2d6 must show 1 to 6" in response.text
    assert BattleTracker.objects.get(battle=battle).state == before


def test_odds_update_live_with_the_inputs(client, user, battle):
    client.force_login(user)
    start(client, battle)
    url = reverse("tracker-odds", args=[battle.campaign_id, battle.number, "targeting"])
    html = client.post(url, {"targeting-distance": "5", "targeting-hindrance": "0"}).text
    # products above 5 from two dice: 26 of 36
    assert "hit: <strong>72.2 %</strong> <small>(13/18)</small>" in html


def test_undo_from_the_page_restores_the_tracks(client, user, battle):
    client.force_login(user)
    start(client, battle)
    url = reverse("tracker-act", args=[battle.campaign_id, battle.number, "vp"])
    client.post(url, {"vp-side": "axis", "vp-vp": "3", "vp-reason": "E45"})
    assert "VP marker 3 on the side of the Germans" in client.get(battle.get_absolute_url()).text
    client.post(reverse("tracker-undo", args=[battle.campaign_id, battle.number]))
    page = client.get(battle.get_absolute_url()).text
    assert "VP marker on 0" in page and "Undone: Germans gain 3 VP" in page


def test_the_tracks_read_in_spanish(client, user, battle):
    client.force_login(user)
    start(client, battle)
    page = client.get(battle.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Muerte Súbita en 4" in page and "Tirada de Defensa" in page


# FICTIONAL TEST DATA — not the values of any real counter
UNITS_CSV = (
    "nationality,name,kind,vp,fp,range,move,morale,command,boxed,"
    "broken_fp,broken_range,broken_move,broken_morale,broken_command,broken_boxed\n"
    "Testland,Test Squad,squad,2,5,5,4,8,,fp,3,4,4,7,,\n"
)


def test_counter_table_typed_as_csv_names_each_bad_cell_and_saves_when_right(client, user, battle):
    client.force_login(user)
    start(client, battle)
    url = reverse("tracker-counters", args=[battle.campaign_id, battle.number])
    assert "No counter values yet" in client.get(url).text
    bad = client.post(url, {"units_csv": UNITS_CSV.replace(",8,,fp", ",eight,,fp")})
    assert bad.status_code == 200 and "Testland, row 1 (Test Squad)" in bad.text
    assert BattleTracker.objects.get(battle=battle).counters == {}
    assert client.post(url, {"units_csv": UNITS_CSV}).status_code == 302
    page = client.get(url).text
    assert "Test Squad" in page and "Counter table set: 1 unit type, 0 weapons." in "".join(
        e.summary for e in battle.log.all()
    )


def test_counter_table_through_the_api(user, other_user, battle, make_user):
    client_for(user).post(
        f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/tracker/start/",
        {
            "sudden_death": 4,
            "initiative": "axis",
            "first_player": "axis",
            "postures": {"axis": "attack", "allies": "defend"},
            "surrender": {"axis": 4, "allies": 4},
        },
        format="json",
    )
    url = f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/tracker/counters/"
    row = {
        "nationality": "Testland", "name": "Test Squad", "kind": "squad", "vp": 2, "fp": 5,
        "range": 5, "move": 4, "morale": 8, "broken_fp": 3, "broken_range": 4,
        "broken_move": 4, "broken_morale": 7,
    }  # fmt: skip
    bad = client_for(other_user).put(url, {"units": [{**row, "morale": 40}]}, format="json")
    assert bad.status_code == 400 and "Morale" in str(bad.json())
    good = client_for(other_user).put(url, {"units": [row]}, format="json")
    assert good.status_code == 200 and good.json()["units"][0]["name"] == "Test Squad"
    assert client_for(make_user("x")).put(url, {"units": [row]}, format="json").status_code in (
        403,
        404,
    )


def test_the_start_form_takes_what_the_campaign_set_up(client, user, battle):
    """No re-typing: the VP marker, postures, Surrender levels and Initiative card come from
    the campaign's set-up of this battle; only the scenario's Time and SD spaces are asked."""
    client.force_login(user)
    form = client.get(battle.get_absolute_url()).context["start_form"]
    record = battle_setup(battle.campaign, battle.number, list(battle.campaign.sides.all()))
    assert form.initial["vp_axis"] == record.vp_axis
    for side in record.sides:
        assert form.initial[f"posture_{side.faction}"] == side.posture_key
        assert form.initial.get(f"surrender_{side.faction}") == side.surrender


def test_a_tracked_battle_keeps_one_score(client, user, battle):
    """Once tracked, VP, Time and casualties move only through the procedures: the free
    "Log an event" form no longer offers them and the service refuses them."""
    client.force_login(user)
    start(client, battle)
    form = client.get(battle.get_absolute_url()).context["event_form"]
    offered = {value for value, _label in form.fields["category"].choices}
    assert "vp" not in offered and "time" not in offered and "hero" in offered
    with pytest.raises(ValidationError, match="This battle is tracked"):
        battle_event_record(battle=battle, actor=user, category="vp", text="", vp_delta=3)

"""Issue 12: a battle's counter table typed as a grid like the campaign tables [3.1]: each bad
cell named beside it in words, nothing saved until all is right; the file and the API stay."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import BattleTracker
from campaigns.services.cc_battle import battle_counters_set, battle_tracker_start
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db
START = {
    "mode": "light",
    "time": 0,
    "sudden_death": 4,
    "initiative": "axis",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "defend"},
    "surrender": {"axis": 4, "allies": 4},
}
SQUAD = {
    "nationality": "Testland", "name": "Test Squad", "kind": "squad", "vp": "2", "fp": "5",
    "range": "5", "move": "4", "morale": "8", "boxed": "fp", "broken_fp": "3",
    "broken_range": "4", "broken_move": "4", "broken_morale": "7",
}  # fmt: skip
LMG = {
    "nationality": "Testland", "name": "Test MG", "fp": "3", "range": "8", "move": "-1",
    "smoke": "on", "fix": "1", "elim": "2",
}  # fmt: skip


@pytest.fixture
def battle(stalingrad, user, other_user):  # noqa: F811
    battle = _play_setup(stalingrad, user, other_user)
    battle_tracker_start(battle=battle, actor=user, **START)
    return battle


def url(battle) -> str:
    return reverse("tracker-counters", args=[battle.campaign_id, battle.number])


def posted(units=(), weapons=(), **extra) -> dict:
    data = {"action": "grid", "units-count": "3", "weapons-count": "2", **extra}
    for key, rows in (("units", units), ("weapons", weapons)):
        for i, row in enumerate(rows):
            data |= {f"{key}-{i}-{k}": v for k, v in row.items()}
    return data


def test_3_1_the_grid_saves_a_unit_and_a_weapon_with_numbers_as_numbers(client, user, battle):
    client.force_login(user)
    page = client.get(url(battle)).text
    assert 'name="units-0-broken_morale"' in page and "Broken: Morale" in page
    assert client.post(url(battle), posted([SQUAD], [LMG])).status_code == 302
    saved = BattleTracker.objects.get(battle=battle).counters
    assert saved["units"][0]["morale"] == 8 and saved["units"][0]["boxed"] == "fp"
    assert saved["weapons"][0]["smoke"] is True and saved["weapons"][0]["artillery"] is False
    again = client.get(url(battle)).text
    assert 'value="Test Squad"' in again and 'value="Test MG"' in again
    # the API reads what the grid saved; saving the grid unchanged keeps it
    api = f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/tracker/counters/"
    assert client_for(user).get(api).json()["units"][0]["name"] == "Test Squad"


def test_3_1_a_bad_cell_is_named_beside_it_and_nothing_is_saved(client, user, battle):
    client.force_login(user)
    bad = {**SQUAD, "broken_morale": "eight"}
    response = client.post(url(battle), posted([bad, {**SQUAD, "kind": "", "name": "Other"}]))
    html = response.text
    assert response.status_code == 200
    assert 'id="units-0-broken_morale-error"' in html
    assert "Morale: enter a whole number from 1 to 12" in html
    assert 'id="units-1-kind-error"' in html and "Kind: enter squad, team, leader or hero" in html
    assert 'id="units-0-morale-error"' not in html  # the good side's Morale is fine
    assert BattleTracker.objects.get(battle=battle).counters == {}


def test_3_1_a_leader_without_command_and_a_name_twice_are_marked_on_their_cells(
    client, user, battle
):
    client.force_login(user)
    leader = {**SQUAD, "name": "Sgt. Test", "kind": "leader"}
    html = client.post(url(battle), posted([SQUAD, leader, SQUAD])).text
    assert 'id="units-1-command-error"' in html and 'id="units-1-broken_command-error"' in html
    assert 'id="units-2-name-error"' in html and "this name is already in the table" in html


def test_3_1_add_a_row_redraws_and_saves_nothing(client, user, battle):
    client.force_login(user)
    html = client.post(url(battle), {**posted([SQUAD]), "add": "units"}).text
    assert 'name="units-3-name"' in html and 'value="Test Squad"' in html
    assert BattleTracker.objects.get(battle=battle).counters == {}


def test_3_1_a_removed_row_leaves_the_table(client, user, battle):
    battle_counters_set(
        battle=battle,
        actor=user,
        counters={"units": [{**SQUAD, "name": "Old Squad"}, SQUAD], "weapons": []},
    )
    client.force_login(user)
    page = client.get(url(battle)).text
    assert 'value="Old Squad"' in page
    data = posted([{**SQUAD, "name": "Old Squad", "remove": "on"}, SQUAD])
    assert client.post(url(battle), data).status_code == 302
    assert [u["name"] for u in BattleTracker.objects.get(battle=battle).counters["units"]] == [
        "Test Squad"
    ]


def test_3_1_the_csv_text_stays_an_option(client, user, battle):
    client.force_login(user)
    header = ",".join(SQUAD)
    row = ",".join(SQUAD.values())
    response = client.post(url(battle), {"action": "upload", "units_csv": f"{header}\n{row}"})
    assert response.status_code == 302
    assert BattleTracker.objects.get(battle=battle).counters["units"][0]["name"] == "Test Squad"

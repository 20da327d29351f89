"""Issue 12: the contested readings of the battle rules (rules/cc/DECISIONS.md, "Battles") are
campaign options, fixed for a battle when its tracking starts and changeable for that battle;
the procedures play the reading chosen."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import BattleTracker
from campaigns.selectors.cc_readings import campaign_readings
from campaigns.services import side_join
from campaigns.services.cc_battle import battle_act, battle_tracker_start
from campaigns.services.cc_campaigns import cc_campaign_create
from campaigns.services.cc_tables import cc_tables_update
from rules.cc.battle.readings import READING_NAMES, BattleReadings
from rules.cc.battle.state import BattleState
from rules.i18n import Msg
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_api_cc_tracker import START, url
from tests.web.test_cc_campaign_flow import STALINGRAD_DATA, _play_setup

pytestmark = pytest.mark.django_db


def _campaign(user, other_user, **options):
    c = cc_campaign_create(
        creator=user, name="Kurgan", template="stalingrad", creator_side=0, options=options
    )
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    return c


def _state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def _start(battle, user, **readings):
    battle_tracker_start(battle=battle, actor=user, readings=readings or None, **START)


def test_the_seeds_readings_are_the_default_of_every_campaign(user, other_user):
    c = _campaign(user, other_user)
    assert campaign_readings(c) == BattleReadings()
    battle = _play_setup(c, user, other_user)
    _start(battle, user)
    state = _state(battle)
    assert state.readings == BattleReadings()
    assert state.melee_rules == "stalingrad"  # ST-7: a Stalingrad Melee waits for its turn


def test_a_campaign_option_becomes_the_battles_reading(user, other_user):
    c = _campaign(user, other_user, v19=True, retroactive_doubling=False)
    battle = _play_setup(c, user, other_user)
    _start(battle, user)
    readings = _state(battle).readings
    assert (readings.v19, readings.retroactive_doubling) == (True, False)


def test_a_battle_may_change_a_reading_for_itself_only(user, other_user):
    c = _campaign(user, other_user, v19=True)
    battle = _play_setup(c, user, other_user)
    _start(battle, user, v19=False, sniper_enemy_only=True, unknown_flag=True)
    readings = _state(battle).readings
    assert (readings.v19, readings.sniper_enemy_only) == (False, True)
    assert campaign_readings(c).v19 is True


@pytest.mark.parametrize(("v19", "shown"), [(False, "12: Suppressed"), (True, "12: broken")])
def test_V19_a_suppressed_unit_tied_again_breaks_only_with_the_reading(
    user, other_user, v19, shown
):
    battle = _play_setup(_campaign(user, other_user, v19=v19), user, other_user)
    _start(battle, user)
    action = battle_act(
        battle=battle,
        actor=other_user,
        procedure="defense",
        inputs={"unit": "US Squad", "attack_total": 12, "morale": 8, "suppressed": True},
        entered="2 2",
    )
    assert str(Msg.from_dict(action.result["shown"][0])) == shown


def test_O23_3_5_an_eliminating_hex_by_choice_only_with_the_reading(user, other_user):
    inputs = {
        "unit": "Rifle Squad",
        "hexes": 1,
        "start_distance": 3,
        "vp_value": 2,
        "path": "D4; 2; enemy; safe",
    }
    battle = _play_setup(_campaign(user, other_user), user, other_user)
    _start(battle, user)
    with pytest.raises(ValidationError):
        battle_act(battle=battle, actor=other_user, procedure="retreat", inputs=inputs)
    assert _state(battle).vp_axis == 0

    other = _play_setup(
        _campaign(user, other_user, allow_eliminating_choice=True), user, other_user
    )
    _start(other, user)
    battle_act(battle=other, actor=other_user, procedure="retreat", inputs=inputs)
    assert _state(other).vp_axis == 2


def test_the_readings_through_the_api_campaign_and_battle(user, other_user):
    client = client_for(user)
    templates = client.get("/api/v1/cc/templates/").json()
    stalingrad = next(t for t in templates if t["slug"] == "stalingrad")
    offered = {o["key"]: o for o in stalingrad["options"]}
    assert {f"opt_{n}" for n in READING_NAMES} <= set(offered)
    assert offered["opt_v19"]["rule"] == "V19"
    assert offered["opt_v19"]["default"] is False
    assert offered["opt_mine_tie_breaks_movers"]["rule"] == "F103.2"

    battle = _play_setup(_campaign(user, other_user, v6_water=True), user, other_user)
    bad = client.post(
        url(battle, "/start"), {**START, "readings": {"v19": "perhaps"}}, format="json"
    )
    assert bad.status_code == 400
    assert "v19" in bad.json()["readings"]
    assert not BattleTracker.objects.filter(battle=battle).exists()

    started = client.post(
        url(battle, "/start"), {**START, "readings": {"v19": True}}, format="json"
    )
    assert started.status_code == 201, started.json()
    readings = _state(battle).readings
    assert (readings.v19, readings.v6_water, readings.overstack_cover) == (True, True, False)


def test_the_start_form_offers_the_campaigns_readings_folded(client, user, other_user):
    c = _campaign(user, other_user, overstack_cover=True)
    battle = _play_setup(c, user, other_user)
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).content.decode()
    assert "Rule readings (as the campaign chose them)" in page
    assert re.search(r"name=\"reading-overstack_cover\"[^>]* checked", page)
    assert "Suppressed again breaks" in page
    form = {
        "mode": "light",
        "time": 0,
        "sudden_death": 2,
        "vp_axis": 0,
        "initiative": "axis",
        "first_player": "axis",
        "posture_axis": "attack",
        "posture_allies": "defend",
        "surrender_axis": 3,
        "surrender_allies": 3,
        "reading-v19": "on",
    }
    client.post(reverse("tracker-start", args=[c.pk, battle.number]), form)
    readings = _state(battle).readings
    # an unchecked box is that reading off for this battle, as the form showed it
    assert (readings.v19, readings.overstack_cover) == (True, False)

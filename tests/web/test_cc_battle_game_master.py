"""Issue 12: a neutral game master runs the battle assistant for both sides. A procedure that
names no side (the Initiative card, an Event) asks him which side it is for, on the page and
in the API; a player never chooses (he always acts for his own side)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import BattleTracker
from campaigns.services import side_join
from campaigns.services.cc_battle import battle_act, battle_tracker_start
from campaigns.services.cc_campaigns import cc_campaign_create
from campaigns.services.cc_tables import cc_tables_update
from rules.cc.battle.state import BattleState
from rules.cc.common import Faction
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_api_cc_tracker import START, act, url
from tests.web.test_cc_campaign_flow import STALINGRAD_DATA, _play_setup

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def refereed(django_user_model, user, other_user):
    gm = django_user_model.objects.create_user("referee", password="x")
    c = cc_campaign_create(creator=gm, name="Kurgan", template="stalingrad", as_game_master=True)
    side_join(user=user, side=c.sides.get(order=0))
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=gm, data=STALINGRAD_DATA)
    battle = _play_setup(c, user, other_user)
    battle_tracker_start(battle=battle, actor=gm, **START)
    return gm, battle


def _state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def test_9_1_the_game_master_gives_the_card_for_the_side_he_names(refereed):
    gm, battle = refereed
    assert _state(battle).initiative is Faction.ALLIES
    with pytest.raises(ValidationError, match="Say which side"):
        battle_act(battle=battle, actor=gm, procedure="initiative", inputs={})
    with pytest.raises(ValidationError, match="only its holder"):
        battle_act(battle=battle, actor=gm, procedure="initiative", inputs={}, acting_side="axis")
    battle_act(battle=battle, actor=gm, procedure="initiative", inputs={}, acting_side="allies")
    assert _state(battle).initiative is Faction.AXIS


def test_the_game_masters_page_asks_for_which_side_players_pages_do_not(refereed, client, user):
    gm, battle = refereed
    client.force_login(gm)
    page = client.get(battle.get_absolute_url()).text
    assert 'name="initiative-acting_side"' in page
    assert "For which side" in page
    answer = client.post(
        reverse("tracker-act", args=[battle.campaign_id, battle.number, "initiative"]),
        {"initiative-acting_side": "allies", "initiative-version": 1},
        headers=HX,
    )
    assert answer.status_code == 200
    assert _state(battle).initiative is Faction.AXIS
    client.force_login(user)
    assert 'name="initiative-acting_side"' not in client.get(battle.get_absolute_url()).text


def test_the_game_master_acts_for_a_side_through_the_api(refereed, user):
    gm, battle = refereed
    referee = client_for(gm)
    refused = act(referee, battle, "initiative", {})
    assert refused.status_code == 400 and "side" in str(refused.json())
    kia = {"event": "E62", "name": "Rifle Squad", "owner": "allies", "vp_value": 2, "broken": True}
    done = act(referee, battle, "event", kia, acting_side="axis")
    assert done.status_code == 201, done.json()
    assert _state(battle).vp_axis == 2
    # a player's acting_side is ignored: he acts for his own side
    germans = client_for(user)
    refused = act(germans, battle, "initiative", {}, acting_side="allies")
    assert refused.status_code == 400 and "only its holder" in str(refused.json())
    assert germans.get(url(battle)).json()["version"] == 2

"""Issue 12: the Events and Actions that change a tracked battle [E42–E77, A36, 1.9.1.3] and
the Fate decks whose last card advances the Time marker [6.1.2], through the services (both
tracking modes, both dice modes) and once through the API."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.cc.battle.cards import CARDS
from campaigns.cc.battle.events import COMMISSAR
from campaigns.cc.battle.spec import Context
from campaigns.models import BattleAction, BattleTracker
from campaigns.services.cc_battle import battle_act, battle_tracker_start
from rules.cc.battle.state import BattleState, Place, UnitStatus
from rules.cc.common import Faction
from rules.i18n import Msg
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401
from tests.web.test_cc_tracker import START

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def battle(stalingrad, user, other_user):  # noqa: F811
    return _play_setup(stalingrad, user, other_user)


@pytest.fixture
def light(battle, user):
    battle_tracker_start(battle=battle, actor=user, **START)
    return battle


@pytest.fixture
def full(battle, user, other_user):
    """Germans: g1 Rifle Squad (Veteran) with w1 LMG, g2 Rifle Squad broken; Soviets: r1
    Rifle Squad broken, r2 Guards Squad."""
    battle_tracker_start(battle=battle, actor=user, **{**START, "mode": "full"})
    for actor, side, unit_id, name, kind, weapon in (
        (user, "axis", "w1", "LMG", "weapon", ""),
        (user, "axis", "g1", "Rifle Squad", "squad", "w1"),
        (user, "axis", "g2", "Rifle Squad", "squad", ""),
        (other_user, "allies", "r1", "Rifle Squad", "squad", ""),
        (other_user, "allies", "r2", "Guards Squad", "squad", ""),
    ):
        inputs = {"side": side, "unit_id": unit_id, "name": name, "kind": kind, "weapon": weapon}
        battle_act(battle=battle, actor=actor, procedure="register", inputs=inputs)
    battle_act(
        battle=battle, actor=user, procedure="status", inputs={"unit": "g1", "change": "veteran"}
    )
    for unit in ("g2", "r1"):
        battle_act(
            battle=battle, actor=user, procedure="status", inputs={"unit": unit, "change": "break"}
        )
    return battle


def state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def act(battle, actor, procedure, inputs, entered=""):
    return battle_act(
        battle=battle, actor=actor, procedure=procedure, inputs=inputs, entered=entered
    )


def shown(action) -> list[str]:
    return [str(Msg.from_dict(m)) for m in action.result["shown"]]


def unchanged(battle, call) -> None:
    """A refused action leaves the tracks and the actions as they were."""
    before = BattleTracker.objects.get(battle=battle)
    count = BattleAction.objects.count()
    with pytest.raises(ValidationError) as refused:
        call()
    after = BattleTracker.objects.get(battle=battle)
    assert (after.state, after.version) == (before.state, before.version)
    assert BattleAction.objects.count() == count
    return refused.value


# ---------------------------------------------------------------------------------------------
# One unit


def test_E62_kia_light_eliminates_a_broken_enemy_and_the_germans_score(light, user):
    event = {"event": "E62", "name": "Rifle Squad", "owner": "allies", "vp_value": 2}
    act(light, user, "event", {**event, "broken": True})
    s = state(light)
    assert s.vp_axis == 2 and s.casualties[Faction.ALLIES] == ("Rifle Squad",)


def test_E62_kia_refuses_a_unit_in_good_order_and_changes_nothing(light, user):
    event = {"event": "E62", "name": "Rifle Squad", "owner": "allies", "vp_value": 2}
    error = unchanged(light, lambda: act(light, user, "event", event))
    assert "is not a broken unit" in str(error)


def test_E42_an_event_past_the_sudden_death_space_scores_no_vp(light, user):
    for _ in range(2):  # Time 2 = Sudden Death 2: no roll is below 2, the battle goes on
        act(light, user, "time", {"cause": "trigger"})
    before = state(light).vp_axis  # the Soviets defend: +1 VP per advance
    event = {"event": "E62", "name": "Rifle Squad", "owner": "allies", "vp_value": 2}
    act(light, user, "event", {**event, "broken": True})
    s = state(light)
    assert s.vp_axis == before and s.casualties[Faction.ALLIES] == ("Rifle Squad",)


def test_E42_the_reading_that_does_not_freeze_scores_the_elimination(battle, user):
    readings = {"freeze_event_vp_after_sudden_death": False}
    battle_tracker_start(battle=battle, actor=user, readings=readings, **START)
    for _ in range(2):
        act(battle, user, "time", {"cause": "trigger"})
    before = state(battle).vp_axis
    event = {"event": "E62", "name": "Rifle Squad", "owner": "allies", "vp_value": 2}
    act(battle, user, "event", {**event, "broken": True})
    assert state(battle).vp_axis == before + 2


def test_E44_battle_harden_full_puts_a_veteran_marker_on_the_chosen_unit(full, other_user):
    act(full, other_user, "event", {"event": "E44", "unit": "r2"})
    assert state(full).units["r2"].veteran is True
    error = unchanged(full, lambda: act(full, other_user, "event", {"event": "E44", "unit": "r2"}))
    assert "without a Veteran marker" in str(error)


def test_E64_medic_full_rallies_an_enemy_broken_unit(full, user):
    act(full, user, "event", {"event": "E64", "unit": "r1"})
    assert state(full).units["r1"].status is UnitStatus.GOOD_ORDER


def test_E72_shell_shock_full_breaks_a_broken_unit_again_and_eliminates_it(full, user):
    act(full, user, "event", {"event": "E72", "unit": "r1", "vp_value": 2})
    s = state(full)
    assert s.units["r1"].eliminated and s.units["r1"].place is Place.CASUALTY_TRACK
    assert s.vp_axis == 2 and s.casualties[Faction.ALLIES] == ("r1",)


def test_E72_an_elimination_without_its_vp_value_is_refused(full, user):
    error = unchanged(full, lambda: act(full, user, "event", {"event": "E72", "unit": "r1"}))
    assert "VP value" in str(error)


def test_E60_interdiction_needs_cover_below_1(full, user):
    unchanged(full, lambda: act(full, user, "event", {"event": "E60", "unit": "r2", "cover": 1}))
    act(full, user, "event", {"event": "E60", "unit": "r2", "cover": -1})
    assert state(full).units["r2"].suppressed is True


def test_E66_prisoners_of_war_eliminate_an_own_broken_unit_next_to_the_enemy(full, user):
    inputs = {"event": "E66", "unit": "g2", "vp_value": 2}
    unchanged(full, lambda: act(full, user, "event", inputs))  # not said to be next to an enemy
    act(full, user, "event", {**inputs, "qualifies": True})
    s = state(full)
    assert s.units["g2"].eliminated and s.vp_axis == -2  # the Soviets score it


def test_PA_E55_bushido_rallies_and_makes_veteran(full, user):
    act(full, user, "event", {"event": "PA-E55", "unit": "g2"})
    g2 = state(full).units["g2"]
    assert g2.status is UnitStatus.GOOD_ORDER and g2.veteran


def test_1_9_1_3_sniper_breaks_any_unit_unless_the_reading_says_enemy_only(battle, user):
    battle_tracker_start(
        battle=battle, actor=user, readings={"sniper_enemy_only": True}, **{**START, "mode": "full"}
    )
    act(
        battle,
        user,
        "register",
        {"side": "axis", "unit_id": "g1", "name": "Squad", "kind": "squad"},
    )
    error = unchanged(
        battle, lambda: act(battle, user, "event", {"event": "1.9.1.3", "unit": "g1"})
    )
    assert "enemy unit" in str(error)


def test_1_9_1_3_sniper_core_reading_may_break_an_own_unit(full, user):
    act(full, user, "event", {"event": "1.9.1.3", "unit": "g1"})
    assert state(full).units["g1"].status is UnitStatus.BROKEN


def test_E54_elan_moves_the_receivers_surrender_marker_up(light, user):
    action = act(light, user, "event", {"event": "E54"})
    assert state(light).surrender[Faction.AXIS] == 4
    assert shown(action) == ["Surrender marker on space 4"]


# ---------------------------------------------------------------------------------------------
# Several units


def test_E51_cower_full_suppresses_each_named_squad(full, user):
    act(full, user, "event_units", {"event": "E51", "units": "g1\ng2"})
    s = state(full)
    assert s.units["g1"].suppressed and s.units["g2"].suppressed


def test_E43_air_support_light_breaks_all_and_eliminates_the_broken_one(light, other_user):
    inputs = {"event": "E43", "units": "Rifle Squad\nLMG Team; 1", "owner": "axis"}
    act(light, other_user, "event_units", inputs)
    s = state(light)
    assert s.vp_axis == -1 and s.casualties[Faction.AXIS] == ("LMG Team",)


# ---------------------------------------------------------------------------------------------
# Commissar: a roll


@pytest.mark.parametrize(("dice", "rallied"), [("3 4", True), ("4 4", False)])
def test_E50_commissar_rallies_at_or_below_morale_entered_dice(light, other_user, dice, rallied):
    inputs = {"name": "Rifle Squad", "morale": 7, "vp_value": 2}
    action = act(light, other_user, "commissar", inputs, dice)
    s = state(light)
    assert (s.vp_axis == 0) is rallied and bool(s.casualties[Faction.ALLIES]) is not rallied
    words = "rallies" if rallied else "is eliminated"
    assert shown(action) == [f"{sum(map(int, dice.split()))}: Commissar: Rifle Squad {words}"]


def test_E50_commissar_full_with_the_sites_dice(full, other_user):
    action = act(full, other_user, "commissar", {"unit": "r1", "morale": 7, "vp_value": 2})
    roll = action.result["explanation"][0]["roll"]["value"]
    r1 = state(full).units["r1"]
    assert r1.eliminated is (roll > 7)
    assert r1.eliminated or r1.status is UnitStatus.GOOD_ORDER


def test_E50_commissar_refuses_an_enemy_unit(full, other_user):
    unchanged(full, lambda: act(full, other_user, "commissar", {"unit": "g2", "morale": 7}, "1 1"))


@pytest.mark.parametrize("morale", [2, 6, 7, 12])
def test_E50_commissar_odds_equal_every_card_enumerated(light, morale):
    context = Context(side=Faction.ALLIES, state=state(light))
    odds = {str(o.label): o.p for o in COMMISSAR.odds({"morale": morale}, context)}
    cards = list(product(range(1, 7), repeat=2))
    rallied = Fraction(sum(w + c <= morale for w, c in cards), 36)
    assert odds == {"rallied": rallied, "eliminated": 1 - rallied}


# ---------------------------------------------------------------------------------------------
# Counters entering or replaced


def test_WE03_E76_walking_wounded_returns_the_opponents_unit_broken(full, user):
    """Only the Soviets have a unit on the Casualty track: the Germans must return it [WE-03];
    the VP scored for it stand."""
    act(full, user, "eliminate", {"side": "allies", "unit_id": "r1", "vp_value": 2})
    act(full, user, "event_arrival", {"event": "E76", "casualty": "allies:0", "hex": "K5"})
    s = state(full)
    r1 = s.units["r1"]
    assert (r1.place, r1.status, r1.eliminated) == (Place.MAP, UnitStatus.BROKEN, False)
    assert s.casualties[Faction.ALLIES] == () and s.vp_axis == 2


def test_E76_walking_wounded_light_takes_the_unit_off_the_casualty_track(light, user):
    for n in (1, 2):
        act(light, user, "eliminate", {"side": "axis", "name": f"Squad {n}", "vp_value": 2})
    act(light, user, "event_arrival", {"event": "E76", "casualty": "axis:0", "hex": "B2"})
    s = state(light)
    assert s.casualties[Faction.AXIS] == ("Squad 2",) and s.vp_axis == -4
    unchanged(
        light,
        lambda: act(
            light, user, "event_arrival", {"event": "E76", "casualty": "axis:5", "hex": "B2"}
        ),
    )


def test_E58_hero_full_enters_registered_and_rallies_a_broken_unit(full, user):
    inputs = {"event": "E58", "hex": "H4", "new_name": "Sgt. Wolf", "unit": "g2"}
    act(full, user, "event_arrival", inputs)
    s = state(full)
    assert s.units["hero1"].kind.value == "hero" and s.units["hero1"].side is Faction.AXIS
    assert s.units["g2"].status is UnitStatus.GOOD_ORDER
    act(full, user, "event_arrival", inputs)  # already on the map: nothing more
    assert "hero2" not in state(full).units


def test_E56_field_promotion_full_registers_the_private_by_a_broken_unit(full, user):
    inputs = {"event": "E56", "hex": "H4", "new_name": "Private", "unit": "g2"}
    unchanged(full, lambda: act(full, user, "event_arrival", {**inputs, "unit": "g1"}))
    action = act(full, user, "event_arrival", inputs)
    leader = state(full).units["leader1"]
    assert leader.kind.value == "leader" and leader.name == "Private"
    assert any("Morale 6 and Command 2" in s for s in shown(action))


def test_E52_deploy_full_splits_a_squad_and_its_markers_go_to_one_team(full, user):
    inputs = {"event": "E52", "unit": "g1", "new_name": "Rifle Team", "quality": "line"}
    act(full, user, "event_arrival", inputs)
    s = state(full)
    first, second = s.units["g1-1"], s.units["g1-2"]
    assert s.units["g1"].place is Place.COUNTER_MIX
    assert (first.weapons, first.veteran) == (("w1",), True)
    assert (second.weapons, second.veteran, second.kind.value) == ((), False, "team")


def test_A36_light_wounds_full_swaps_the_squad_for_a_team_and_costs_1_vp(full, user):
    inputs = {"event": "A36", "unit": "g1", "new_name": "Rifle Team", "quality": "line"}
    act(full, user, "event_arrival", inputs)
    s = state(full)
    assert s.units["g1-1"].weapons == ("w1",) and s.vp_axis == -1
    unchanged(full, lambda: act(full, user, "event_arrival", {**inputs, "unit": "r2"}))


def test_A36_light_wounds_light_costs_its_player_1_vp(light, other_user):
    inputs = {"event": "A36", "name": "Rifle Squad", "new_name": "Rifle Team", "quality": "green"}
    act(light, other_user, "event_arrival", inputs)
    assert state(light).vp_axis == 1


# ---------------------------------------------------------------------------------------------
# Fate decks


def test_1_1_cards_set_up_from_the_posture_and_played(light, user, other_user):
    act(light, user, "cards", {"action": "setup"})
    act(light, other_user, "cards", {"action": "setup"})
    act(light, user, "cards", {"action": "play", "n": 2})
    s = state(light)
    axis, allies = s.cards[Faction.AXIS], s.cards[Faction.ALLIES]
    assert (axis.deck, axis.hand, axis.discard) == (66, 4, 2)  # Attack: a hand of 6
    assert (allies.deck, allies.hand) == (68, 4)  # Defend: a hand of 4
    unchanged(light, lambda: act(light, user, "cards", {"action": "play", "n": 5}))
    unchanged(light, lambda: act(light, user, "cards", {"action": "setup"}))


def test_5_4_a_refill_through_the_last_card_reshuffles_and_goes_on(light, user):
    act(light, user, "cards", {"action": "setup"})
    act(light, user, "cards", {"action": "reveal", "n": 64})
    act(light, user, "cards", {"action": "draw", "n": 4})  # 2 left: draw 2, advance, draw 2
    s = state(light)
    assert s.time == 1 and s.cards[Faction.AXIS].reshuffles == 1
    axis = s.cards[Faction.AXIS]
    assert (axis.deck, axis.hand, axis.discard) == (62, 10, 0)


@pytest.mark.parametrize(("dice", "ends"), [("1 1", True), ("2 1", False)])
def test_6_1_2_a_deck_running_out_advances_time_and_rolls_sudden_death(light, user, dice, ends):
    """SD marker on 2; the Time marker on 2; revealing the deck's last card moves it to 3 and a
    roll below 3 ends the battle [6.2.2]."""
    for _ in range(2):
        act(light, user, "time", {"cause": "trigger"})
    act(light, user, "cards", {"action": "setup"})
    action = act(light, user, "cards", {"action": "reveal", "n": 66}, dice)
    s = state(light)
    assert s.time == 3 and (s.outcome is not None) is ends
    assert any(t.startswith("Sudden Death roll") for t in shown(action))
    assert s.cards[Faction.AXIS].deck == 66  # discards shuffled into a new deck


def test_WE04_the_last_card_showing_time_advances_once_with_the_sites_dice(light, user):
    act(light, user, "cards", {"action": "setup"})
    act(light, user, "cards", {"action": "reveal", "n": 66, "time": True})
    assert state(light).time == 1


def test_6_1_2_cards_odds_warn_of_sudden_death_when_the_deck_runs_out(light, user):
    for _ in range(2):
        act(light, user, "time", {"cause": "trigger"})
    act(light, user, "cards", {"action": "setup"})
    context = Context(side=Faction.AXIS, state=state(light))
    assert CARDS.odds({"action": "reveal", "n": 1}, context) == []
    ends = CARDS.odds({"action": "reveal", "n": 66}, context)[0].p
    assert ends == Fraction(sum(w + c < 3 for w, c in product(range(1, 7), repeat=2)), 36)


# ---------------------------------------------------------------------------------------------
# Through the API


def test_E62_kia_through_the_api_and_bad_input_gives_400_and_changes_nothing(
    light, user, other_user
):
    client = client_for(user)
    url = f"/api/v1/campaigns/{light.campaign_id}/battles/{light.number}/tracker/actions/"
    body = {"procedure": "event", "inputs": {"event": "E62", "name": "Squad", "owner": "allies"}}
    before = BattleTracker.objects.get(battle=light).state
    bad = client.post(url, {**body, "inputs": {**body["inputs"], "vp_value": 2}}, format="json")
    assert bad.status_code == 400 and "broken" in str(bad.json())
    wrong = client.post(url, {**body, "inputs": {"event": "E99"}}, format="json")
    assert wrong.status_code == 400
    assert BattleTracker.objects.get(battle=light).state == before
    inputs = {**body["inputs"], "vp_value": 2, "broken": True}
    done = client.post(url, {**body, "inputs": inputs}, format="json")
    assert done.status_code == 201, done.json()
    assert done.json()["tracks"]["vp_axis"] == 2
    commissar = {"procedure": "commissar", "inputs": {"name": "Squad", "morale": 7}, "dice": "3 4"}
    r = client_for(other_user).post(url, commissar, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["action"]["shown"] == ["7: Commissar: Squad rallies"]


# ---------------------------------------------------------------------------------------------
# On the page


def test_E62_the_page_resolves_an_event_in_its_card(client, light, user):
    client.force_login(user)
    page = client.get(light.get_absolute_url()).text
    assert "An Event or a Sniper! on one unit" in page and "Fate cards" in page
    url = reverse("tracker-act", args=[light.campaign_id, light.number, "event"])
    data = {"event-event": "E62", "event-name": "Guards Squad", "event-owner": "allies"}
    html = client.post(url, {**data, "event-broken": "on", "event-vp_value": "2"}, headers=HX).text
    assert "KIA: Guards Squad is eliminated" in html and state(light).vp_axis == 2


def test_E50_the_page_shows_the_commissar_odds(client, light, other_user):
    client.force_login(other_user)
    url = reverse("tracker-odds", args=[light.campaign_id, light.number, "commissar"])
    html = client.post(url, {"commissar-morale": "7"}).text
    assert "rallied: <strong>58.3 %</strong> <small>(7/12)</small>" in html  # 21 of 36 cards

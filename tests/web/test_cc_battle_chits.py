"""Issue 12: Objective chits drawn open or secret and revealed [7.3.2, 7.3.3, E67, 6.3.2],
a secret face never reaching the other side (page, htmx partial, API, log), and the tracks
card's decks, Melee markers, readings and units."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import BattleTracker
from campaigns.services.cc_battle import battle_act, battle_tracker_start
from rules.cc.battle.state import BattleState, Cards
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
START = {
    "mode": "light",
    "time": 0,
    "sudden_death": 1,
    "initiative": "axis",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "attack"},
    "surrender": {"axis": 9, "allies": 9},
}
SECRET_K = {"letter": "K", "placed": "secret", "kind": "objective", "objective": "3", "vp": 3}


@pytest.fixture
def battle(stalingrad, user, other_user):  # noqa: F811
    return _play_setup(stalingrad, user, other_user)


def track(battle, user, **readings):
    battle_tracker_start(battle=battle, actor=user, readings=readings or None, **START)
    return battle


def state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def act(battle, actor, procedure, inputs, dice=""):
    return battle_act(battle=battle, actor=actor, procedure=procedure, inputs=inputs, entered=dice)


def api(battle, tail=""):
    return f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/tracker{tail}/"


# ---------------------------------------------------------------------------------------------
# Drawn, revealed, doubled


def test_7_3_3_an_open_chit_scores_at_once_for_the_objectives_controller(battle, user):
    """The Germans hold Objective 3; chit C (Objective 3 = 1 VP) placed open gives them 1 VP
    at once; chit G placed with its VP already counted moves nothing."""
    track(battle, user)
    act(battle, user, "objective", {"side": "axis", "objective": "3"})
    open_c = {"letter": "c", "placed": "open", "kind": "objective", "objective": "3", "vp": 1}
    done = act(battle, user, "chit", open_c)
    assert state(battle).vp_axis == 1
    line = battle.log.get(data__action=done.seq).summary
    assert "Objective chit placed open: chit C: Objective 3 is worth 1 VP" in line
    act(battle, user, "chit", {**open_c, "letter": "G", "vp": 2, "counted": True})
    assert state(battle).vp_axis == 1
    # the next change of hands swings the whole 1 + 2 [7.3.3]
    act(battle, user, "objective", {"side": "allies", "objective": "3"})
    assert state(battle).vp_axis == -5


def test_7_3_2_a_chit_drawn_twice_or_without_its_value_is_refused(battle, user):
    track(battle, user)
    act(battle, user, "chit", {"letter": "K", "placed": "open", "kind": "exit_doubled"})
    before = BattleTracker.objects.get(battle=battle).version
    for bad, words in (
        ({"letter": "K", "placed": "open", "kind": "exit_doubled"}, "already in play"),
        ({"letter": "M", "placed": "open", "kind": "objective", "objective": "2"}, "VP it"),
        ({"letter": "M", "placed": "open", "kind": "objective", "vp": 2}, "Objective, 1 to 5"),
        ({"letter": "M", "placed": "open"}, "enter what its face says"),
        ({"letter": "4", "placed": "open", "kind": "exit_doubled"}, "letter"),
    ):
        with pytest.raises(ValidationError, match=words):
            act(battle, user, "chit", bad)
    assert BattleTracker.objects.get(battle=battle).version == before


def test_E67_a_secret_chit_scores_only_when_its_owner_reveals_it(battle, user, other_user):
    """The Soviets keep K (Objective 3 = 3 VP) secret and take Objective 3: nothing scores;
    Reconnaissance makes them reveal it: 3 VP to them at once."""
    track(battle, user)
    act(battle, other_user, "chit", SECRET_K)
    act(battle, other_user, "objective", {"side": "allies", "objective": "3"})
    assert state(battle).vp_axis == 0
    with pytest.raises(ValidationError, match="keep no secret chit K"):
        act(battle, user, "reveal_chit", {"letter": "K"})  # not the Germans' chit
    done = act(battle, other_user, "reveal_chit", {"letter": "K"})
    assert state(battle).vp_axis == -3 and not state(battle).chits[0].secret
    assert done.result["explanation"][0]["rule"] == "E67"


def test_7_3_3_another_sides_secret_letter_is_never_told_by_a_refusal(battle, user, other_user):
    """The Soviets keep K secret; a German who types K for his own draw is not refused (the
    refusal would tell him their letter); the clash shows only once K is public."""
    track(battle, user)
    act(battle, other_user, "chit", SECRET_K)
    act(battle, user, "chit", {**SECRET_K, "vp": 2})
    with pytest.raises(ValidationError, match="already in play"):
        act(battle, user, "chit", SECRET_K)  # his own letter twice: he knows it
    act(battle, user, "reveal_chit", {"letter": "K"})
    with pytest.raises(ValidationError, match="already open: one of the two was entered wrongly"):
        act(battle, other_user, "reveal_chit", {"letter": "K"})
    assert [c.secret for c in state(battle).chits] == [True, False]


def test_E67_entered_dice_are_refused_for_a_procedure_without_rolls(battle, user, other_user):
    track(battle, user)
    act(battle, other_user, "chit", SECRET_K)
    with pytest.raises(ValidationError, match="More rolls"):
        act(battle, other_user, "reveal_chit", {"letter": "K"}, dice="3 4")
    assert state(battle).chits[0].secret


@pytest.mark.parametrize(("retroactive", "vp"), [(True, -4), (False, -2)])
def test_7_3_2_a_doubling_chit_revealed_late_doubles_retroactively_by_the_reading(
    battle, user, other_user, retroactive, vp
):
    """A German squad (2 VP) is eliminated, then the Soviets reveal their secret elimination
    doubling chit: with the reading, the 2 VP already scored double (-4); without, not."""
    track(battle, user, retroactive_doubling=retroactive)
    act(battle, other_user, "chit", {"letter": "V", "placed": "secret"})  # face not entered
    act(battle, user, "eliminate", {"side": "axis", "name": "Rifle Squad", "vp_value": 2})
    with pytest.raises(ValidationError, match="enter what its face says"):
        act(battle, other_user, "reveal_chit", {"letter": "V"})
    act(battle, other_user, "reveal_chit", {"letter": "V", "kind": "elimination_doubled"})
    assert state(battle).vp_axis == vp
    act(battle, user, "eliminate", {"side": "axis", "name": "Rifle Squad 2", "vp_value": 2})
    assert state(battle).vp_axis == vp - 4  # doubled from now on either way


def test_6_3_2_secret_chits_are_revealed_at_the_end_and_then_shown_to_both(
    battle, user, other_user, client
):
    """Sudden Death ends the battle on Time space 3 (roll 2 is below 3): the Soviets' secret
    chit K is revealed and scores for Objective 3, which they hold; both sides then see it."""
    track(battle, user)
    act(battle, other_user, "chit", SECRET_K)
    act(battle, other_user, "objective", {"side": "allies", "objective": "3"})
    act(battle, user, "time", {"cause": "trigger"}, dice="6 6")  # space 1: 12 is not below 1
    act(battle, user, "time", {"cause": "trigger"}, dice="1 1")  # space 2: 2 is not below 2
    act(battle, user, "time", {"cause": "trigger"}, dice="1 1")  # space 3: 2 < 3, it ends
    final = state(battle)
    assert final.outcome is not None and not final.chits[0].secret
    assert final.vp_axis == -3 and final.outcome.winner.value == "allies"
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).text
    assert "chit K: Objective 3 is worth 3 VP" in page


def test_6_3_2_an_unknown_secret_face_is_entered_before_the_battle_is_decided(
    battle, user, other_user
):
    track(battle, user)
    act(battle, other_user, "chit", {"letter": "K", "placed": "secret"})
    act(battle, other_user, "objective", {"side": "allies", "objective": "3"})
    for dice in ("6 6", "1 1", "1 1"):
        act(battle, user, "time", {"cause": "trigger"}, dice=dice)
    assert state(battle).outcome is None and state(battle).pending_end
    done = act(
        battle, other_user, "reveal_chit", {k: v for k, v in SECRET_K.items() if k != "placed"}
    )
    assert done.result["explanation"][0]["rule"] == "6.3.2"
    final = state(battle)
    assert final.outcome is not None and final.vp_axis == -3


# ---------------------------------------------------------------------------------------------
# The other side never reads a secret face


def _no_face(text: str) -> None:
    for secret in ("Objective 3 is worth 3", "chit K", '"K"'):
        assert secret not in text, secret


def test_7_3_3_the_other_side_never_sees_a_secret_face(battle, user, other_user, client):
    """Drawn through the API by the Soviets: the Germans' page, their htmx answer, the API
    (tracks, state, action answers, the log) and the log line name neither letter nor face;
    the Soviets see it on their tracks card."""
    track(battle, user)
    soviets, germans = client_for(other_user), client_for(user)
    drawn = soviets.post(
        api(battle, "/actions"), {"procedure": "chit", "inputs": SECRET_K}, format="json"
    )
    assert drawn.status_code == 201, drawn.json()
    own = drawn.json()["tracks"]["chits"]
    assert own == [
        {
            "owner": "Soviets",
            "text": "chit K: Objective 3 is worth 3 VP",
            "secret": True,
            "seen": True,
        }
    ]
    seen = germans.get(api(battle)).json()
    assert seen["chits"] == [{"owner": "Soviets", "text": "secret", "secret": True, "seen": False}]
    _no_face(json.dumps(seen))
    log = germans.get(f"/api/v1/campaigns/{battle.campaign_id}/log/").json()
    _no_face(json.dumps(log))
    assert "The Soviets draw a secret Objective chit" in json.dumps(log)
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).text
    _no_face(page)
    assert "Soviets</strong>: secret" in page
    # the Germans act through the page: the tracks and the log come back out of band
    url = reverse("tracker-act", args=[battle.campaign_id, battle.number, "vp"])
    partial = client.post(
        url, {"vp-side": "axis", "vp-vp": "1", "vp-reason": "No Quarter"}, headers=HX
    ).text
    assert 'id="tracks"' in partial and 'id="battle-log"' in partial
    _no_face(partial)
    answer = germans.post(
        api(battle, "/actions"),
        {"procedure": "vp", "inputs": {"side": "axis", "vp": 1, "reason": "x"}},
        format="json",
    ).json()
    _no_face(json.dumps(answer))
    client.force_login(other_user)
    assert "chit K: Objective 3 is worth 3 VP" in client.get(battle.get_absolute_url()).text


def test_7_3_3_bad_chit_input_through_the_api_is_400_and_changes_nothing(battle, user):
    track(battle, user)
    germans = client_for(user)
    version = germans.get(api(battle)).json()["version"]
    bad = germans.post(
        api(battle, "/actions"),
        {"procedure": "chit", "inputs": {**SECRET_K, "vp": 99}},
        format="json",
    )
    assert bad.status_code == 400 and "vp" in bad.json()["inputs"]
    bad = germans.post(
        api(battle, "/actions"),
        {"procedure": "reveal_chit", "inputs": {"letter": "K"}},
        format="json",
    )
    assert bad.status_code == 400
    assert germans.get(api(battle)).json()["version"] == version


# ---------------------------------------------------------------------------------------------
# The tracks card


def test_the_tracks_card_shows_decks_melee_markers_readings_and_units(
    battle, user, other_user, client
):
    battle_tracker_start(
        battle=battle,
        actor=user,
        readings={"retroactive_doubling": False, "v19": True},
        **{**START, "mode": "full"},
    )
    act(
        battle, user, "register", {"side": "axis", "unit_id": "w1", "name": "LMG", "kind": "weapon"}
    )
    act(
        battle,
        user,
        "register",
        {"side": "axis", "unit_id": "g1", "name": "Rifle Squad", "kind": "squad", "weapon": "w1"},
    )
    act(battle, user, "status", {"unit": "g1", "change": "veteran"})
    tracker = BattleTracker.objects.get(battle=battle)
    now = BattleState.from_data(tracker.state)
    tracker.state = replace(
        now, cards={**now.cards, now.active: Cards(deck=31, discard=4)}, melee_hexes=("G5",)
    ).as_data()
    tracker.save()
    client.force_login(other_user)
    page = client.get(battle.get_absolute_url()).text
    assert "deck 31, discard 4" in page and "deck 0, discard 0" in page
    assert "markers waiting in G5" in page
    assert "2 rule readings played otherwise" in page
    assert "[7.3.2]</span> A doubling chit revealed late doubles the VP already scored: no" in page
    assert "[V19]</span> Suppressed again breaks: yes" in page
    assert "2 registered counters" in page
    assert "Rifle Squad (g1): good order, Veteran, LMG" in page
    tracks = client_for(other_user).get(api(battle)).json()
    assert tracks["melee_hexes"] == ["G5"] and tracks["cards"] is True
    assert {s["deck"] for s in tracks["sides"]} == {31, 0}
    assert [r["rule"] for r in tracks["readings"]] == ["7.3.2", "V19"]
    assert "Rifle Squad (g1): good order, Veteran, LMG" in [u["text"] for u in tracks["units"]]


def test_the_tracks_card_stays_short_when_nothing_extra_is_tracked(battle, user, client):
    track(battle, user)
    client.force_login(user)
    page = client.get(battle.get_absolute_url()).text
    for extra in ("deck 0", "markers waiting", "played otherwise", "registered counter"):
        assert extra not in page

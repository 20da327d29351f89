"""The Melee's Ambush [A25], No Quarter [A38] and Stalingrad's Urban Sniper [ST-3.1, ST-3.2]
through the battle service and the API, with entered and site dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from campaigns.models import BattleAction
from campaigns.services.cc_battle.counters import battle_counters_set, read_counters
from rules.cc.common import Faction
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_battle_support import (
    CARDS,
    UNITS_CSV,
    act,
    said,
    set_state,
    start,
    state,
    tracked,  # noqa: F401
)
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db

CORE = {"inactive_units": "Rifles; 4; vp 2\nScouts; 2; vp 1", "active_units": "Pioneers; 6; vp 2"}


def texts(action) -> list[str]:
    return [s["text"] if isinstance(s["text"], str) else str(s["text"]) for s in steps(action)]


def steps(action) -> list[dict]:
    return action.result["explanation"]


def rules_of(action) -> set[str]:
    return {s["rule"] for s in steps(action)}


def rolls(action) -> int:
    return len([s for s in steps(action) if s.get("roll")])


# ----------------------------------------------------------------------------- A25 Ambush


def test_A25_an_ambush_breaks_a_unit_before_the_melee_fp_is_counted(tracked, user):  # noqa: F811
    """The Soviets (inactive) play Ambush; the Germans break their Pioneers (FP 3 once
    broken). Melee FP 4 + 2 = 6 against 3; rolls 2 each: 8 > 5, the Germans lose."""
    set_state(tracked, melee_rules="core")
    done = act(tracked, user, "melee", {**CORE, "inactive_ambushes": "Pioneers; 3"}, "1 1; 1 1")
    assert said(done)[:2] == ["Soviets: 8", "Germans: 5"]
    assert "A25" in rules_of(done) and rolls(done) == 2
    assert state(tracked).vp_axis == -2


def test_A25_an_ambush_on_a_broken_unit_eliminates_it_and_no_melee_roll_is_read(
    tracked,  # noqa: F811
    user,
):
    set_state(tracked, melee_rules="core")
    inputs = {
        **CORE,
        "active_units": "Pioneers; 2; broken; vp 2",
        "inactive_ambushes": "Pioneers",
    }
    done = act(tracked, user, "melee", inputs)  # site dice: none is rolled
    assert rolls(done) == 0
    assert "Ambushes" in said(done, "summary")[0]
    after = state(tracked)
    assert after.vp_axis == -2 and after.casualties[Faction.AXIS] == ("Pioneers",)


def test_A25_both_sides_may_be_wiped_out_by_ambushes_inactive_player_first(
    tracked,  # noqa: F811
    user,
):
    """The Soviets' Ambushes break then eliminate the Pioneers; the Germans' Ambush breaks
    the broken Scouts: both sides are gone, each scores the other's VP value."""
    set_state(tracked, melee_rules="core")
    inputs = {
        "inactive_units": "Scouts; 1; broken; vp 1",
        "active_units": "Pioneers; 6; vp 2",
        "inactive_ambushes": "Pioneers; 3\nPioneers",
        "active_ambushes": "Scouts",
    }
    done = act(tracked, user, "melee", inputs, "")
    assert rolls(done) == 0
    ambush_steps = [t for s, t in zip(steps(done), texts(done), strict=True) if s["rule"] == "A25"]
    assert len(ambush_steps) == 3
    assert state(tracked).vp_axis == 1 - 2


@pytest.mark.parametrize(
    ("ambushes", "error"),
    [
        ({"inactive_ambushes": "Rifles; 2"}, "not a participating unit of the opponent"),
        ({"inactive_ambushes": "Nobody; 2"}, "not a participating unit"),
        ({"inactive_ambushes": "Pioneers"}, "once broken"),
        ({"inactive_ambushes": "Pioneers; lots"}, "Ambush line 1"),
    ],
)
def test_A25_bad_ambushes_are_refused_and_change_nothing(
    tracked,  # noqa: F811
    user,
    ambushes,
    error,
):
    set_state(tracked, melee_rules="core")
    before = state(tracked)
    with pytest.raises(ValidationError, match=error):
        act(tracked, user, "melee", {**CORE, **ambushes}, "1 1; 1 1")
    assert state(tracked) == before


def test_A25_registered_units_flip_to_the_broken_side_of_the_counter_table(
    stalingrad,  # noqa: F811
    user,
    other_user,
):
    """Tracked fully: the Germans' Ambush breaks the Soviet r1 (broken FP 3, not boxed, from
    the table); 3 + 2 = 5 against g1's 5 + 1 boxed + 2 = 8: r1 is eliminated."""
    battle = start(_play_setup(stalingrad, user, other_user), user, mode="full")
    battle_counters_set(battle=battle, actor=user, counters=read_counters(units_csv=UNITS_CSV))
    for side, unit_id in (("allies", "r1"), ("axis", "g1")):
        register = {"side": side, "unit_id": unit_id, "name": "Test Squad", "kind": "squad"}
        act(battle, user, "register", {**register, "nationality": "Testland"})
    set_state(battle, melee_rules="core")
    inputs = {"inactive_units": "r1", "active_units": "g1", "active_ambushes": "r1"}
    done = act(battle, user, "melee", inputs, "1 1; 1 1")
    assert said(done)[:2] == ["Soviets: 5", "Germans: 8"]
    after = state(battle)
    assert after.units["r1"].eliminated and not after.units["g1"].eliminated
    assert after.vp_axis == 2


def test_A25_odds_of_the_melee_after_the_ambush_equal_every_card_enumerated(
    tracked,  # noqa: F811
    user,
):
    client = client_for(user)
    base = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker"
    set_state(tracked, melee_rules="core")
    inputs = {**CORE, "inactive_ambushes": "Pioneers; 3"}
    got = client.post(f"{base}/odds/", {"procedure": "melee", "inputs": inputs}, format="json")
    assert got.status_code == 200, got.json()
    odds = {o["label"]: Fraction(o["p"]) for o in got.json()}
    germans = sum(3 + c + d <= 6 + a + b for (a, b), (c, d) in product(CARDS, CARDS))
    assert odds["the Germans lose"] == Fraction(germans, 36 * 36)
    ends = {**CORE, "active_units": "Pioneers; 1; broken", "inactive_ambushes": "Pioneers"}
    got = client.post(f"{base}/odds/", {"procedure": "melee", "inputs": ends}, format="json")
    assert [Fraction(o["p"]) for o in got.json()] == [1]


# ------------------------------------------------------------------------- A38 No Quarter


def test_A38_a_russian_player_with_a_survivor_gains_2_vp(tracked, user):  # noqa: F811
    set_state(tracked, melee_rules="core")
    inputs = {
        **CORE,
        "no_quarter": "inactive",
        "no_quarter_nation": "russia",
        "no_quarter_opponent": "usa",
    }
    with pytest.raises(ValidationError, match="not the two sides"):
        act(tracked, user, "melee", inputs, "6 6; 1 1")
    done = act(tracked, user, "melee", {**inputs, "no_quarter_opponent": "germany"}, "6 6; 1 1")
    assert "A38" in rules_of(done)
    assert state(tracked).vp_axis == -2 - 2  # the Pioneers' VP value, then No Quarter


def test_A38_a_german_player_only_against_russia_and_only_with_a_survivor(
    tracked,  # noqa: F811
    user,
):
    set_state(tracked, melee_rules="core")
    german = {**CORE, "no_quarter": "active", "no_quarter_nation": "germany"}
    with pytest.raises(ValidationError, match="only a German player against Russia"):
        act(tracked, user, "melee", {**german, "no_quarter_opponent": "france"}, "1 1; 6 6")
    with pytest.raises(ValidationError, match="nations of both players"):
        act(tracked, user, "melee", {**CORE, "no_quarter": "active"}, "1 1; 6 6")
    assert state(tracked).vp_axis == 0
    lost = act(tracked, user, "melee", {**german, "no_quarter_opponent": "russia"}, "6 6; 1 1")
    assert any("No Quarter cannot be played" in t for t in texts(lost))
    assert state(tracked).vp_axis == -2  # only the Pioneers' VP value


def test_A38_stalingrad_knows_the_nations_and_site_dice_work(tracked, user):  # noqa: F811
    set_state(tracked, melee_hexes=["K5"])
    inputs = {
        "hex": "K5",
        "inactive_units": "Rifles; 1; vp 1",
        "active_units": "Pioneers; 12; vp 2",
        "no_quarter": "active",
    }
    done = act(tracked, user, "melee", inputs)  # 13 at least against 12 at most
    assert rolls(done) == 2 and "A38" in rules_of(done)
    assert state(tracked).vp_axis == 1 + 2


# --------------------------------------------------------------------- ST-3 Urban Sniper


def sniper(battle, actor):
    return act(battle, actor, "event", {"event": "1.9.1.3"})


def marker(battle):
    now = state(battle)
    return (now.urban_sniper, now.urban_sniper_face)


def test_ST_3_1_a_failed_sniper_moves_the_marker_toward_its_roller(
    tracked,  # noqa: F811
    user,
    other_user,
):
    assert marker(tracked) == (None, 2)
    done = sniper(tracked, user)
    assert "ST-3.1" in rules_of(done) and marker(tracked) == (Faction.AXIS, 2)
    sniper(tracked, user)
    assert marker(tracked) == (Faction.AXIS, 4)
    sniper(tracked, user)
    assert marker(tracked) == (Faction.AXIS, 4)
    act(tracked, user, "end_turn", {})
    sniper(tracked, other_user)
    assert marker(tracked) == (Faction.AXIS, 2)
    sniper(tracked, other_user)
    assert marker(tracked) == (None, 2)
    sniper(tracked, other_user)
    assert marker(tracked) == (Faction.ALLIES, 2)
    # the tracks show who holds it, on the page and in the API
    client = Client()
    client.force_login(user)
    assert "held by the Soviets" in client.get(tracked.get_absolute_url()).text
    api = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker/"
    assert client_for(user).get(api).json()["urban_sniper"] == "Soviets"


def test_ST_3_1_the_marker_stays_out_of_core_battles(tracked, user):  # noqa: F811
    set_state(tracked, melee_rules="core")
    done = sniper(tracked, user)
    assert "ST-3.1" not in rules_of(done) and marker(tracked) == (None, 2)


def test_ST_3_2_the_holder_gives_up_the_marker_for_its_melee_roll(tracked, user):  # noqa: F811
    """The Germans hold it at +4: 4 + 1·1 + 4 = 10 against the Soviets' 5 + 1·1 = 7."""
    set_state(tracked, melee_hexes=["K5"], urban_sniper="axis", urban_sniper_face=4)
    inputs = {
        "hex": "K5",
        "inactive_units": "Rifles; 5; vp 2",
        "active_units": "Pioneers; 4; vp 2",
        "urban_sniper": "inactive",
    }
    with pytest.raises(ValidationError, match="only the holder"):
        act(tracked, user, "melee", inputs, "1 1; 1 1")
    done = act(tracked, user, "melee", {**inputs, "urban_sniper": "active"}, "1 1; 1 1")
    assert said(done)[:2] == ["Soviets: 7", "Germans: 10"]
    assert "ST-3.2" in rules_of(done) and marker(tracked) == (None, 2)
    assert state(tracked).vp_axis == 2


def test_ST_3_2_only_in_stalingrad_and_not_spent_without_a_roll(tracked, user):  # noqa: F811
    set_state(tracked, melee_rules="core", urban_sniper="allies")
    with pytest.raises(ValidationError, match="only in Stalingrad"):
        act(tracked, user, "melee", {**CORE, "urban_sniper": "inactive"}, "1 1; 1 1")
    set_state(tracked, melee_rules="stalingrad", melee_hexes=["K5"])
    inputs = {
        **CORE,
        "hex": "K5",
        "active_units": "Pioneers; 1; broken; vp 2",
        "inactive_ambushes": "Pioneers",
        "urban_sniper": "inactive",
    }
    act(tracked, user, "melee", inputs)
    assert marker(tracked) == (Faction.ALLIES, 2)


# ---------------------------------------------------------------------------------- HTTP


def test_ST_3_2_A25_melee_odds_and_action_through_the_api(tracked, user):  # noqa: F811
    client = client_for(user)
    base = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker"
    set_state(tracked, melee_hexes=["K5"], urban_sniper="allies", urban_sniper_face=2)
    inputs = {
        "hex": "K5",
        "inactive_units": "Rifles; 4; vp 2",
        "active_units": "Pioneers; 6; vp 2",
        "urban_sniper": "inactive",
    }
    got = client.post(f"{base}/odds/", {"procedure": "melee", "inputs": inputs}, format="json")
    odds = {o["label"]: Fraction(o["p"]) for o in got.json()}
    soviets = sum(4 + 2 + a + b <= 6 + c + d for (a, b), (c, d) in product(CARDS, CARDS))
    assert odds["the Soviets lose"] == Fraction(soviets, 36 * 36)
    for bad in (
        {**inputs, "active_ambushes": "Pioneers; 3"},  # his own unit
        {**inputs, "urban_sniper": "active"},  # the Germans do not hold it
        {**inputs, "no_quarter": "nobody"},
    ):
        body = {"procedure": "melee", "inputs": bad, "dice": "1 1; 1 1"}
        refused = client.post(f"{base}/actions/", body, format="json")
        assert refused.status_code == 400, (bad, refused.json())
    assert BattleAction.objects.filter(tracker__battle=tracked).count() == 0
    assert marker(tracked) == (Faction.ALLIES, 2)
    body = {"procedure": "melee", "inputs": inputs, "dice": "6 6; 1 1"}
    done = client.post(f"{base}/actions/", body, format="json")
    assert done.status_code == 201, done.json()
    after = state(tracked)
    assert (after.urban_sniper, after.vp_axis, after.melee_hexes) == (None, -2, ())


def test_ST_3_2_the_holder_gives_up_the_marker_for_a_fire_attack_roll(tracked, user):  # noqa: F811
    """ST-3.2: "immediately before an Attack roll or a Melee roll": FP 6 + 3·2 + 4 = 15."""
    set_state(tracked, urban_sniper="allies", urban_sniper_face=4)
    with pytest.raises(ValidationError, match="only the holder"):
        act(tracked, user, "attack", {"fp": 6, "urban_sniper": True}, "3 2")
    set_state(tracked, urban_sniper="axis", urban_sniper_face=4)
    client = client_for(user)
    base = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker"
    odds = client.post(
        f"{base}/odds/",
        {"procedure": "attack", "inputs": {"fp": 6, "urban_sniper": True}},
        format="json",
    ).json()
    assert odds[0]["label"] == "Attack Total 17 or more"  # 6 + 4 + 7
    done = act(tracked, user, "attack", {"fp": 6, "urban_sniper": True}, "3 2")
    assert said(done)[0] == "Attack Total 15"
    assert "ST-3.2" in rules_of(done) and marker(tracked) == (None, 2)

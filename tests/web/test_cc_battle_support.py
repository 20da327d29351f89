"""Issue 12: artillery (Spotting Round, drift, Impact, airburst), Mines and Melee with the
Urban Melee of Stalingrad resolved through the tracker, with the site's dice and entered dice.

Counter values below are FICTIONAL TEST DATA (the seed prints none)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import BattleAction, BattleTracker
from campaigns.services.cc_battle import battle_act, battle_tracker_start
from campaigns.services.cc_battle.counters import battle_counters_set, read_counters
from rules.cc.battle.state import BattleState, UnitStatus
from rules.cc.battle.values import outcome
from rules.cc.common import Faction
from rules.i18n import Msg
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db

START = {
    "mode": "light",
    "time": 0,
    "sudden_death": 8,
    "initiative": "axis",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "defend"},
    "surrender": {"axis": 9, "allies": 9},
}
UNITS_CSV = (  # FICTIONAL TEST DATA
    "nationality,name,kind,vp,fp,range,move,morale,command,boxed,"
    "broken_fp,broken_range,broken_move,broken_morale,broken_command,broken_boxed\n"
    "Testland,Test Squad,squad,2,5,5,4,7,,fp,3,4,4,6,,\n"
)
CARDS = list(product(range(1, 7), repeat=2))


def start(battle, user, **more):
    battle_tracker_start(battle=battle, actor=user, **{**START, **more})
    return battle


@pytest.fixture
def tracked(stalingrad, user, other_user):  # noqa: F811
    return start(_play_setup(stalingrad, user, other_user), user)


def state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def set_state(battle, **changes):
    """Play the same battle under other rules: core Melee or another reading."""
    tracker = BattleTracker.objects.get(battle=battle)
    data = dict(tracker.state)
    readings = changes.pop("readings", {})
    data.update(changes)
    data["readings"] = {**data["readings"], **readings}
    tracker.state = data
    tracker.save()


def said(action, key="shown") -> list[str]:
    found = action.result[key]
    return [str(Msg.from_dict(m)) for m in (found if isinstance(found, list) else [found])]


def act(battle, actor, procedure, inputs, dice=""):
    return battle_act(battle=battle, actor=actor, procedure=procedure, inputs=inputs, entered=dice)


# ------------------------------------------------------------------------------- Melee


def test_ST_7_2_urban_melee_waits_for_the_axis_turn_and_the_russians_roll_first(
    tracked, user, other_user
):
    """Stalingrad: the Melee marker goes on K5 in the Germans' turn; the Melee cannot be
    resolved then, nor in the Soviet turn; at the start of the next German turn the Soviets
    roll first (FP 4 + 1·1 = 6), the Germans second (FP 5 + 6·6 = 17): the Soviets lose and
    the Germans score their VP value."""
    melee = {
        "hex": "K5",
        "inactive_units": "Soviet Rifles; 4; vp 2",
        "active_units": "German Rifles; 5",
    }
    assert state(tracked).melee_rules == "stalingrad"
    act(tracked, user, "melee_marker", {"hex": "K5"})
    assert state(tracked).melee_hexes == ("K5",)
    with pytest.raises(ValidationError, match="waits for the start of the Germans turn"):
        act(tracked, user, "melee", melee, "1 1; 6 6")
    act(tracked, user, "end_turn", {})
    with pytest.raises(ValidationError, match="waits"):
        act(tracked, other_user, "melee", melee, "1 1; 6 6")
    act(tracked, other_user, "end_turn", {})
    done = act(tracked, user, "melee", melee, "1 1; 6 6")
    assert said(done)[:2] == ["Soviets: 6", "Germans: 17"]
    first_roll = next(s for s in done.result["explanation"] if s.get("roll"))
    assert "Allies" in first_roll["text"]
    after = state(tracked)
    assert after.melee_hexes == () and after.vp_axis == 2


def test_ST_7_2_the_start_of_the_turn_ends_with_the_first_other_procedure(tracked, user):
    """Two marked hexes: the Axis resolves them one by one in its order at the start of its
    turn; once anything else is resolved, a marker placed now waits a whole round."""
    set_state(tracked, melee_hexes=["K5", "L6"])
    lines = {"inactive_units": "Rifles; 3", "active_units": "Pioneers; 6"}
    act(tracked, user, "melee", {**lines, "hex": "L6"}, "1 1; 1 1")
    act(tracked, user, "melee", {**lines, "hex": "K5"}, "1 1; 1 1")
    assert state(tracked).melee_hexes == ()
    act(tracked, user, "melee_marker", {"hex": "M7"})
    with pytest.raises(ValidationError, match="waits"):
        act(tracked, user, "melee", {**lines, "hex": "M7"}, "1 1; 1 1")
    with pytest.raises(ValidationError, match="Melee marker"):
        act(tracked, user, "melee", lines, "1 1; 1 1")
    assert state(tracked).melee_hexes == ("M7",)


def test_O16_4_core_melee_is_resolved_at_once_with_entered_and_site_dice(tracked, user):
    set_state(tracked, melee_rules="core")
    with pytest.raises(ValidationError, match="resolved at once"):
        act(tracked, user, "melee_marker", {"hex": "K5"})
    lines = {
        "inactive_units": "Rifles; 3\nSgt. Popov; 1; leader",
        "active_units": "MG Team; 2; boxed",
    }
    done = act(tracked, user, "melee", lines, "1 1; 1 1")
    # O16.4.1: 3 + 1 = 4 against 2 + 1 boxed = 3; rolls 2 each: 6 > 5, the Germans lose
    assert said(done)[:2] == ["Soviets: 6", "Germans: 5"]
    assert "Germans" in said(done, "summary")[0]
    site = act(tracked, user, "melee", lines)
    assert len([s for s in site.result["explanation"] if s.get("roll")]) == 2


@pytest.mark.parametrize(("by_occupant", "loser"), [(False, "Germans"), (True, "Soviets")])
def test_O16_4_3_a_tie_in_a_bunker_goes_to_the_side_that_holds_it(
    tracked, user, by_occupant, loser
):
    """Tie 4 + 3·3 = 13 each. The Soviets began the Melee in the Bunker; the Germans were its
    last sole occupant: O16.4.3 gives the tie to the Soviets, F101's reading to the Germans."""
    set_state(tracked, melee_rules="core", readings={"tie_by_last_sole_occupant": by_occupant})
    inputs = {
        "inactive_units": "Rifles; 4",
        "active_units": "Pioneers; 4",
        "began_in": "allies",
        "last_occupant": "axis",
    }
    done = act(tracked, user, "melee", inputs, "3 3; 3 3")
    summary = said(done, "summary")[0]
    assert loser in summary and "no side" not in summary
    assert ("Germans" in summary) != ("Soviets" in summary)


def test_O16_4_2_a_trigger_that_empties_a_side_ends_the_melee(tracked, user):
    """The Soviets' roll shows Event!, which leaves the hex without Germans: no second roll,
    no elimination."""
    set_state(tracked, melee_rules="core")
    inputs = {
        "inactive_units": "Rifles; 4; vp 2",
        "active_units": "Pioneers; 9; vp 2",
        "inactive_trigger": "event",
        "emptied_by": "inactive",
    }
    done = act(tracked, user, "melee", inputs, "1 1")
    assert "ends with no effect" in said(done, "summary")[0]
    assert state(tracked).vp_axis == 0
    with pytest.raises(ValidationError, match="only a trigger"):
        act(tracked, user, "melee", {**inputs, "inactive_trigger": ""}, "1 1")


# ------------------------------------------------------------------------------- Mines


@pytest.mark.parametrize(("reading", "result"), [(False, "Suppressed"), (True, "broken")])
def test_WE54_F103_2_a_moving_unit_that_ties_a_mine_attack(tracked, user, reading, result):
    """Mines FP 6 + 3·3 = 12; Rifles Morale 7 (Cover 0) + 2·3 = 12: a tie. The seed's F103.2
    suppresses it; the reading that plays O20.3.4 breaks it."""
    set_state(tracked, readings={"mine_tie_breaks_movers": reading})
    inputs = {"fp": "6", "side": "allies", "units": "Rifles; 7"}
    done = act(tracked, user, "mines", inputs, "3 3; 2 3")
    assert said(done) == [f"Rifles: 12, {result}"]


def test_F103_2_mines_with_the_sites_dice_and_an_elimination_scores(tracked, user):
    """A broken Squad (Morale 2) against FP 8 mines: the site rolls; whatever it rolls, the
    result follows O20.3.4 and an elimination moves the VP marker by its value."""
    inputs = {"fp": "8", "side": "allies", "units": "Rifles; 2; broken; vp 2"}
    done = act(tracked, user, "mines", inputs)
    shown = said(done)[0]
    assert shown.startswith("Rifles: ")
    assert state(tracked).vp_axis == (2 if shown.endswith("eliminated") else 0)


def test_A35_2_hidden_mines_attack_each_unit_by_itself(tracked, user):
    inputs = {"fp": "7", "side": "allies", "units": "A; 7\nB; 7", "hidden": True}
    done = act(tracked, user, "mines", inputs, "6 6; 1 1; 1 1; 6 6")
    assert said(done) == ["A: 9, broken", "B: 19, no effect"]


def test_F103_2_mine_odds_equal_every_card_enumerated(tracked, user):
    client = client_for(user)
    query = {"procedure": "mines", "inputs": {"fp": "7", "side": "allies", "units": "Rifles; 8"}}
    url = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker/odds/"
    answer = client.post(url, query, format="json")
    assert answer.status_code == 200, answer.json()
    got = {o["label"]: Fraction(o["p"]) for o in answer.json()}
    counts: dict[str, int] = {}
    for (a, b), (c, d) in product(CARDS, CARDS):
        key = outcome(
            attack=7 + a + b,
            defense=8 + c + d,
            broken=False,
            suppressed=False,
            moving=True,
            tie_breaks_moving=False,
        )
        counts[key.value] = counts.get(key.value, 0) + 1
    words = {"suppressed": "Rifles: Suppressed", "broken": "Rifles: broken"}
    assert got == {words[k]: Fraction(n, 36 * 36) for k, n in counts.items() if k in words}


# --------------------------------------------------------------------------- Artillery


def test_WE18_O18_2_2_accuracy_through_brush_then_the_drift_card(tracked, user):
    """Range 5 with Brush (3) on the LOS: 3·3 = 9 − 3 = 6 > 5 hits; the next card (white 2,
    coloured 5) moves the SR 1 hex toward 2, then 1 toward 5."""
    inputs = {"step": "spot", "distance": 5, "hindrance": 3}
    done = act(tracked, user, "artillery", inputs, "3 3; 2 5")
    assert said(done) == [
        "Accuracy 9: hit",
        "the Spotting Round drifts: 1 hex in direction 2; 1 hex in direction 5",
    ]
    missed = act(tracked, user, "artillery", inputs, "2 2; 4 3")
    assert said(missed)[1] == "the Spotting Round drifts: 3 hexes in direction 4"


def test_T99_O18_2_3_impact_on_woods_adds_the_airburst(tracked, user):
    """Radio FP 10 + 1·1 + 2 airburst = 14 on Woods; Rifles Morale 7 + Cover 2 + 2·2 = 13:
    broken. In Open Ground the same rolls give 12 against 11: broken too, without +2."""
    inputs = {"radio_fp": 10, "terrain": "woods", "side": "allies", "units": "Rifles; 7"}
    done = act(tracked, user, "artillery", inputs, "1 1; 2 2")
    assert said(done) == ["Impact Total 14", "Rifles: 13, broken"]
    plain = act(tracked, user, "artillery", {**inputs, "terrain": "open_ground"}, "1 1; 2 2")
    assert said(plain) == ["Impact Total 12", "Rifles: 11, broken"]


def test_O18_2_3_3_an_impact_equal_to_the_vulnerability_destroys_the_bunker(tracked, user):
    inputs = {
        "radio_fp": 8,
        "fortification": "bunker",
        "vulnerability": 4,
        "side": "allies",
        "units": "Rifles; 7",
    }
    done = act(tracked, user, "artillery", inputs, "2 2; 1 1")
    assert said(done)[:2] == ["Impact Total 12", "the Fortification is destroyed"]
    assert said(done)[2] == "Rifles: 9, broken"  # Morale 7 + Open Ground 0 + 2, no Bunker


def test_O18_2_3_2_one_impact_roll_on_a_melee_hex_hits_both_sides(tracked, user):
    """A Melee hex holds both sides: one Impact roll (FP 10 + 1·1 = 12); the Soviets defend
    7 + 2·2 = 11 (broken), the Germans 8 + 3·3 = 14 (no effect)."""
    inputs = {
        "radio_fp": 10,
        "side": "allies",
        "units": "Rifles; 7",
        "other_units": "Pioneers; 8",
    }
    done = act(tracked, user, "artillery", inputs, "1 1; 2 2; 3 3")
    assert said(done) == ["Impact Total 12", "Rifles: 11, broken", "Pioneers: 14, no effect"]


def test_O18_2_3_impact_odds_equal_every_card_enumerated(tracked, user):
    client = client_for(user)
    url = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker/odds/"
    inputs = {"radio_fp": 9, "terrain": "woods", "side": "allies", "units": "Rifles; 6"}
    got = {
        o["label"]: Fraction(o["p"])
        for o in client.post(
            url, {"procedure": "artillery", "inputs": inputs}, format="json"
        ).json()
    }
    counts: dict[str, int] = {}
    for (a, b), (c, d) in product(CARDS, CARDS):
        key = outcome(
            attack=9 + 2 + a + b, defense=6 + 2 + c + d, broken=False, suppressed=False,
            moving=False,
        )  # fmt: skip
        counts[key.value] = counts.get(key.value, 0) + 1
    words = {"suppressed": "Rifles: Suppressed", "broken": "Rifles: broken"}
    assert got == {words[k]: Fraction(n, 36 * 36) for k, n in counts.items() if k in words}


def test_O18_2_3_full_registry_results_and_vp_from_the_counter_table(
    stalingrad,  # noqa: F811
    user,
    other_user,
):
    """Tracked fully with a counter table: an Impact breaks the registered Squad (its Morale 7
    from the table), a second one eliminates it and the Germans score its VP value 2."""
    battle = start(_play_setup(stalingrad, user, other_user), user, mode="full")
    battle_counters_set(battle=battle, actor=user, counters=read_counters(units_csv=UNITS_CSV))
    register = {"side": "allies", "unit_id": "r1", "name": "Test Squad", "kind": "squad"}
    act(battle, user, "register", {**register, "nationality": "Testland"})
    inputs = {"radio_fp": 10, "side": "allies", "units": "r1"}
    act(battle, user, "artillery", inputs, "1 1; 1 1")  # 12 against 7 + 2 = 9
    assert state(battle).units["r1"].status is UnitStatus.BROKEN
    act(battle, user, "artillery", inputs, "1 1; 1 1")  # broken Morale 6 + 2 = 8 < 12
    after = state(battle)
    assert after.units["r1"].eliminated and after.vp_axis == 2


# ------------------------------------------------------------------------ refusals, HTTP


def test_O16_4_melee_through_the_api_and_bad_input_changes_nothing(tracked, user):
    client = client_for(user)
    base = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker"
    set_state(tracked, melee_rules="core")
    inputs = {"inactive_units": "Rifles; 4; vp 1", "active_units": "Pioneers; 6"}
    odds = client.post(f"{base}/odds/", {"procedure": "melee", "inputs": inputs}, format="json")
    assert odds.status_code == 200, odds.json()
    got = {o["label"]: Fraction(o["p"]) for o in odds.json()}
    soviets = sum(4 + a + b <= 6 + c + d for (a, b), (c, d) in product(CARDS, CARDS))
    assert got["the Soviets lose"] == Fraction(soviets, 36 * 36)
    body = {"procedure": "melee", "inputs": inputs, "dice": "1 1; 6 6"}
    done = client.post(f"{base}/actions/", body, format="json")
    assert done.status_code == 201, done.json()
    for bad in (
        {"procedure": "melee", "inputs": {**inputs, "active_units": "Pioneers; many"}},
        {"procedure": "mines", "inputs": {"fp": "9", "side": "allies", "units": "A; 7"}},
        {"procedure": "artillery", "inputs": {"step": "spot"}, "dice": "1 1; 1 1"},
        {"procedure": "artillery", "inputs": {"radio_fp": 14, "units": "A; 7"}},
    ):
        refused = client.post(f"{base}/actions/", bad, format="json")
        assert refused.status_code == 400, (bad, refused.json())
    assert BattleAction.objects.filter(tracker__battle=tracked).count() == 1
    after = state(tracked)
    assert after.vp_axis == 1 and after.casualties[Faction.ALLIES] == ("Rifles",)


def test_O20_2_3_targeting_odds_with_the_shot_equal_every_card_enumerated(tracked, user):
    """Range 5, FP 8 against Morale 7: the Targeting Roll (dice multiplied) must exceed 5, then
    the attack and Defense rolls; all 36 × 36 × 36 cards enumerated."""
    client = client_for(user)
    url = f"/api/v1/campaigns/{tracked.campaign_id}/battles/{tracked.number}/tracker/odds/"
    inputs = {"distance": 5, "hindrance": 0, "fp": 8, "target_morale": 7}
    answer = client.post(url, {"procedure": "targeting", "inputs": inputs}, format="json")
    got = {o["label"]: Fraction(o["p"]) for o in answer.json()}
    hits = sum(w * c > 5 for w, c in CARDS)
    breaks = sum(8 + a + b > 7 + c + d for (a, b), (c, d) in product(CARDS, CARDS))
    assert got["hit"] == Fraction(hits, 36)
    assert got["the defender breaks"] == Fraction(hits * breaks, 36**3)


def test_O16_4_melee_odds_on_the_page_update_live(client, tracked, user):
    set_state(tracked, melee_rules="core")
    client.force_login(user)
    url = reverse("tracker-odds", args=[tracked.campaign_id, tracked.number, "melee"])
    html = client.post(
        url, {"melee-inactive_units": "Rifles; 4", "melee-active_units": "Pioneers; 4"}
    ).text
    ties = sum(a + b == c + d for (a, b), (c, d) in product(CARDS, CARDS))
    assert "both lose: <strong>" in html and f"({Fraction(ties, 36 * 36)})" in html


@pytest.mark.parametrize(
    ("inputs", "dice", "shown"),
    [
        ({"distance": 35}, "6 6", "36: hit"),  # WE-17: 36 hits at any range of the map
        ({"distance": 1}, "1 1", "1: miss"),  # WE-17: 1 misses at any range
        ({"distance": 3, "hindrance": 3}, "6 1", "6: miss"),  # WE-26: 6 − 3 = 3, not > 3
    ],
)
def test_WE17_WE26_O20_2_3_targeting_roll(tracked, user, inputs, dice, shown):
    done = act(tracked, user, "targeting", {"hindrance": 0, **inputs}, dice)
    assert said(done) == [shown]


@pytest.mark.parametrize(("dice", "shown"), [("3 1", "3: short"), ("1 3", "3: long")])
def test_V7_a_missed_shot_falls_short_or_long_with_the_reading(tracked, user, dice, shown):
    set_state(tracked, readings={"v7_short_long": True})
    inputs = {"distance": 6, "hindrance": 0, "weapon_range": 12}
    assert said(act(tracked, user, "targeting", inputs, dice)) == [shown]


def test_O18_2_artillery_with_the_sites_dice(tracked, user):
    """The site rolls the accuracy, reads the drift card, then rolls an Impact and Defense."""
    spot = act(tracked, user, "artillery", {"step": "spot", "distance": 4})
    assert len([s for s in spot.result["explanation"] if s.get("roll")]) >= 2
    inputs = {"radio_fp": 12, "side": "allies", "units": "Rifles; 7; vp 1"}
    impact = act(tracked, user, "artillery", inputs)
    assert said(impact)[0].startswith("Impact Total ")
    assert said(impact)[1].startswith("Rifles: ")

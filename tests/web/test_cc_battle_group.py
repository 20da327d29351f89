"""Issue 12: a Fire Attack computed from the counter table [O20.3.1–O20.3.3, T88.2, 10.3],
the Defense roll of a registered unit applied to the registry [O20.3.4, T78.3, T93, 7.1],
registered Weapons that break [1.9.1.2, A41, 11.6] and are repaired [11.4] — through the
services and through HTTP, with the worked examples WE-21..WE-27 of the digest §5.

Every counter value here is FICTIONAL TEST DATA, not the values of any real counter: the
Fire examples' totals are reproduced with made-up counters that give the same numbers."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import BattleAction, BattleTracker
from campaigns.services.cc_battle import (
    battle_act,
    battle_counters_set,
    battle_tracker_start,
    read_counters,
)
from rules.cc.battle.state import BattleState, Place, UnitStatus
from rules.cc.battle.values import outcome
from rules.i18n import Msg
from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db

START = {
    "mode": "full",
    "time": 0,
    "sudden_death": 6,
    "initiative": "axis",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "defend"},
    "surrender": {"axis": 5, "allies": 2},
}
SIDES = ("fp", "range", "move", "morale", "command")


def _unit(nationality, name, kind, vp, good, broken):
    row = {"nationality": nationality, "name": name, "kind": kind, "vp": vp}
    row |= {k: v for k, v in zip(SIDES, good, strict=False)}
    row |= {f"broken_{k}": v for k, v in zip(SIDES, broken, strict=False)}
    return row


# FICTIONAL TEST DATA — not the values of any real counter
COUNTERS = {
    "units": [
        _unit("Testland", "Line Squad", "squad", 2, (5, 6, 4, 7), (3, 4, 4, 6)),
        _unit("Testland", "Line Team", "team", 1, (2, 4, 5, 7), (1, 3, 5, 6)),
        _unit("Testland", "Lt. Test", "leader", 1, (1, 1, 6, 9, 1), (0, 0, 6, 7, 0)),
        _unit("Testland", "Sgt. Short", "leader", 1, (1, 1, 6, 8, 1), (0, 0, 6, 7, 0)),
        _unit("Farland", "Rifle Squad", "squad", 2, (6, 5, 4, 6), (4, 4, 4, 8)),
    ],
    "weapons": [
        {"nationality": "Testland", "name": "Test LMG", "fp": 3, "range": 8, "move": 0,
         "fix": "1-2", "elim": "6"},
        {"nationality": "Testland", "name": "Test HMG", "fp": 8, "range": 12, "move": -2,
         "fix": "1", "elim": "5-6"},
        {"nationality": "Testland", "name": "Test Mortar", "fp": 6, "range": "2-12",
         "move": -1, "artillery": "yes"},
    ],
}  # fmt: skip
REGISTRY = (
    ("axis", "w1", "Test LMG", "weapon", ""),
    ("axis", "w2", "Test HMG", "weapon", ""),
    ("axis", "w3", "Test Mortar", "weapon", ""),
    ("axis", "b1", "Lt. Test", "leader", ""),
    ("axis", "c1", "Sgt. Short", "leader", ""),
    ("axis", "g1", "Line Squad", "squad", ""),
    ("axis", "g2", "Line Squad", "squad", ""),
    ("axis", "g3", "Line Squad", "squad", ""),
    ("axis", "g4", "Line Squad", "squad", "w1"),
    ("axis", "g5", "Line Squad", "squad", "w2"),
    ("axis", "g6", "Line Squad", "squad", "w3"),
    ("allies", "r1", "Rifle Squad", "squad", ""),
    ("allies", "r2", "Rifle Squad", "squad", ""),
)
NATIONALITY = {"axis": "Testland", "allies": "Farland"}
# WE-21: base Line Squad g1 with Lt. Test's Command (5 + 1 = 6), three more Squads and the
# LMG carried in J6: +4; g1 is higher than the target: +1 -> FP 11
WE21 = "g1; 3; leader b1; lower\ng2; 3\ng3; 4\ng4; 4\nw1; 4"


@pytest.fixture
def full(stalingrad, user, other_user):  # noqa: F811
    battle = _play_setup(stalingrad, user, other_user)
    battle_tracker_start(battle=battle, actor=user, **START)
    battle_counters_set(battle=battle, actor=user, counters=read_counters(data=COUNTERS))
    for side, unit_id, name, kind, weapon in REGISTRY:
        actor = user if side == "axis" else other_user
        inputs = {"side": side, "unit_id": unit_id, "name": name, "kind": kind, "weapon": weapon}
        battle_act(
            battle=battle,
            actor=actor,
            procedure="register",
            inputs={**inputs, "nationality": NATIONALITY[side]},
        )
    return battle


def state(battle) -> BattleState:
    return BattleState.from_data(BattleTracker.objects.get(battle=battle).state)


def said(message: dict) -> str:
    return str(Msg.from_dict(message))


def fire(battle, actor, dice: str = "", **inputs):
    return battle_act(
        battle=battle, actor=actor, procedure="group_fire", inputs=inputs, entered=dice
    )


def defend(battle, actor, dice: str = "", **inputs):
    return battle_act(
        battle=battle, actor=actor, procedure="unit_defense", inputs=inputs, entered=dice
    )


def test_WE21_O20_3_1_2_fire_group_fp_from_the_counter_table_entered_dice(full, user):
    action = fire(full, user, "4 1", pieces=WE21)
    assert said(action.result["summary"]) == "Fire Attack with FP 11: Attack Total 16"
    fp = said(action.result["shown"][1])
    assert fp.startswith("FP 11: Line Squad (g1) FP 6; Line Squad (g2) FP 5")
    assert "Test LMG (w1) FP 3" in fp and "target lower than a firing piece: +1 → 11" in fp


def test_WE21_O20_2_2_a_piece_out_of_range_or_artillery_in_a_group_is_refused(full, user):
    before = BattleTracker.objects.get(battle=full)
    with pytest.raises(ValidationError, match=r"Lt\. Test \(b1\) cannot reach the target"):
        fire(full, user, "4 1", pieces=WE21 + "\nb1; 3")
    with pytest.raises(ValidationError, match="white band"):
        fire(full, user, "4 1", pieces=WE21 + "\nw3; 4")
    with pytest.raises(ValidationError, match="belongs to the"):
        fire(full, user, "4 1", pieces="r1; 2")
    with pytest.raises(ValidationError, match="no unit zz"):
        fire(full, user, "4 1", pieces="zz; 2")
    after = BattleTracker.objects.get(battle=full)
    assert (after.state, after.version) == (before.state, before.version)


def test_O20_3_3_fire_group_with_the_sites_dice(full, user):
    action = fire(full, user, pieces="g2; 2\ng3; 2")
    (rolled,) = action.rolls
    assert rolled["source"] == "server"
    assert said(action.result["summary"]) == (
        f"Fire Attack with FP 6: Attack Total {6 + rolled['value']}"
    )


def test_WE22_O20_3_4_defense_of_a_registered_unit_breaks_it_on_the_registry(full, other_user):
    """Rifle Squad Morale 6, Open Ground with a Road (-1); Attack 16; roll 6+4: 15 < 16."""
    action = defend(full, other_user, "6 4", attack_total=16, unit="r1", road=True)
    assert said(action.result["shown"][0]) == "15: broken"
    unit = state(full).units["r1"]
    assert unit.status is UnitStatus.BROKEN and not unit.suppressed


def test_WE23_A41_sustained_fire_twice_without_doubles_breaks_nothing(full, user):
    """HMG 8 + 1 (Lt. Test) + 2 x Sustained Fire = 13; roll 1+6 with Event! -> 20."""
    action = fire(
        full, user, "1 6", pieces="w2; 6; mg; leader b1", sustained_fire=2, trigger="event"
    )
    assert said(action.result["summary"]) == "Fire Attack with FP 13: Attack Total 20"
    assert "Event!" in [said(m) for m in action.result["shown"]]
    assert state(full).units["w2"].status is UnitStatus.GOOD_ORDER


def test_WE25_O20_3_4_a_broken_suppressed_unit_broken_again_is_eliminated_and_scores(
    full, user, other_user
):
    """Broken Rifle Squad: broken Morale 8, Road -1, Suppressed -1 = 6; roll 1+2 -> 9 < 20:
    eliminated, to the Casualty track, +2 VP (its value in the table) for the Axis."""
    defend(full, other_user, "1 1", attack_total=16, unit="r1", road=True)
    battle_act(
        battle=full,
        actor=other_user,
        procedure="status",
        inputs={"unit": "r1", "change": "suppress"},
    )  # WE-24: Interdiction puts a Suppressed marker on it
    action = defend(full, other_user, "1 2", attack_total=20, unit="r1", road=True)
    assert said(action.result["shown"][0]) == "9: eliminated"
    s = state(full)
    assert s.vp_axis == 2 and s.casualties[s.active.other] == ("r1",)
    assert s.units["r1"].eliminated and s.units["r1"].place is Place.CASUALTY_TRACK


def test_4_2_an_elimination_on_the_surrender_space_ends_the_battle(full, other_user):
    """Surrender marker of the Allies on space 2: the second eliminated unit ends it."""
    for unit in ("r1", "r2"):
        defend(full, other_user, "1 1", attack_total=16, unit=unit)
        defend(full, other_user, "1 1", attack_total=16, unit=unit)
    s = state(full)
    assert s.vp_axis == 4 and s.outcome is not None and s.outcome.winner.value == "axis"


def test_WE27_10_3_2_1_fp_below_one_is_refused_and_an_action_can_raise_it(full, user):
    """A Team with FP 2 through Smoke 3: -1, not allowed; Marksmanship (+2) makes it 1."""
    battle = full
    tracker = BattleTracker.objects.get(battle=battle)
    tracker.state = {**tracker.state, "mode": "light"}
    tracker.save()
    with pytest.raises(ValidationError, match="final FP -1"):
        fire(battle, user, "3 3", pieces="Testland; Line Team; 2; hindrance 3")
    action = fire(battle, user, "3 3", pieces="Testland; Line Team; 2; hindrance 3", marksmanship=1)
    assert said(action.result["summary"]) == "Fire Attack with FP 1: Attack Total 7"


def test_3_1_light_mode_names_counters_and_refuses_one_missing_from_the_table(full, user):
    tracker = BattleTracker.objects.get(battle=full)
    tracker.state = {**tracker.state, "mode": "light"}
    tracker.save()
    pieces = "Testland; Line Squad; 2; veteran; leader Lt. Test\nTestland; Line Squad; 2; weapon Test LMG"
    action = fire(full, user, "2 2", pieces=pieces)
    # base 5 + 1 (Veteran) + 1 (Lt. Test) = 7, +1 for the LMG
    assert said(action.result["summary"]) == "Fire Attack with FP 8: Attack Total 12"
    with pytest.raises(ValidationError, match="no Testland unit called Guards Squad"):
        fire(full, user, "2 2", pieces="Testland; Guards Squad; 2")
    with pytest.raises(ValidationError, match="is not understood"):
        fire(full, user, "2 2", pieces="Testland; Line Squad; 2; uphill")


def test_WE02_1_9_1_2_jammed_breaks_the_registered_weapons_and_the_attack_stands(full, user):
    action = fire(full, user, "3 2", pieces="g4; 3\nw1; 3", trigger="jammed")
    assert said(action.result["summary"]) == "Fire Attack with FP 6: Attack Total 11"
    assert state(full).units["w1"].status is UnitStatus.BROKEN
    with pytest.raises(ValidationError, match="is broken"):
        fire(full, user, "3 2", pieces="w1; 3")


def test_WE53_A41_two_sustained_fires_on_doubles_eliminate_the_mg(full, user):
    fire(full, user, "3 3", pieces="w2; 6; mg", sustained_fire=2)
    s = state(full)
    assert s.units["w2"].eliminated and s.units["w2"].place is Place.WEAPON_BOX
    assert s.units["g5"].weapons == ()


@pytest.mark.parametrize(("hex_number", "result"), [(2, "fixed"), (6, "eliminated")])
def test_11_4_a_registered_broken_weapon_checks_the_random_hex_with_the_tables_ranges(
    full, user, hex_number, result
):
    fire(full, user, "3 2", pieces="w1; 3", trigger="jammed")
    action = battle_act(
        battle=full,
        actor=user,
        procedure="repair",
        inputs={"weapon_id": "w1", "hex_number": hex_number},
    )
    assert said(action.result["summary"]) == f"Test LMG (w1): {result}"
    weapon = state(full).units["w1"]
    assert weapon.eliminated is (result == "eliminated")
    assert (weapon.status is UnitStatus.GOOD_ORDER) is (result == "fixed")
    with pytest.raises(ValidationError, match="not a broken Weapon"):
        battle_act(
            battle=full, actor=user, procedure="repair", inputs={"weapon_id": "w2", "hex_number": 1}
        )


def test_O20_3_4_defense_with_the_sites_dice_and_a_leader_stacked(full, user):
    action = defend(full, user, attack_total=30, unit="g1", leaders="b1", terrain="building")
    (rolled,) = action.rolls
    # Morale 7 + 1 (Lt. Test) + 3 (Building) = 11; anything below 19 breaks
    total = 11 + rolled["value"]
    assert said(action.result["shown"][0]) == f"{total}: broken"
    assert state(full).units["g1"].status is UnitStatus.BROKEN


# --------------------------------------------------------------------------------------------
# Through HTTP


def url(battle, tail: str) -> str:
    return f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/tracker{tail}/"


def test_O20_3_the_group_fire_and_defense_through_the_api_with_exact_odds(full, user, other_user):
    germans, soviets = client_for(user), client_for(other_user)
    query = {"procedure": "group_fire", "inputs": {"pieces": WE21, "target_morale": 6}}
    odds = germans.post(url(full, "/odds"), query, format="json")
    assert odds.status_code == 200, odds.json()
    rows = {o["label"]: Fraction(o["p"]) for o in odds.json()}
    assert any(label.startswith("FP 11:") for label in rows)
    counts: dict[str, int] = {}
    for a, d in product(product(range(1, 7), repeat=2), repeat=2):
        key = outcome(attack=11 + sum(a), defense=6 + sum(d), broken=False, suppressed=False,
                      moving=False).value  # fmt: skip
        counts[key] = counts.get(key, 0) + 1
    words = {"no_effect": "no effect", "suppressed": "Suppressed", "broken": "broken"}
    assert {k: v for k, v in rows.items() if not k.startswith("FP")} == {
        words[k]: Fraction(n, 36 * 36) for k, n in counts.items()
    }

    body = {"procedure": "group_fire", "inputs": {"pieces": WE21}, "dice": "4 1"}
    r = germans.post(url(full, "/actions"), body, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["action"]["summary"] == "Fire Attack with FP 11: Attack Total 16"

    query = {
        "procedure": "unit_defense",
        "inputs": {"attack_total": 16, "unit": "r1", "road": True},
    }
    answer = soviets.post(url(full, "/odds"), query, format="json").json()
    got = {o["label"]: Fraction(o["p"]) for o in answer}
    assert got.pop("Rifle Squad (r1): Morale 5 with Cover -1") == 1
    expected: dict[str, int] = {}
    for w, c in product(range(1, 7), repeat=2):
        key = outcome(attack=16, defense=5 + w + c, broken=False, suppressed=False, moving=False)
        expected[words[key.value]] = expected.get(words[key.value], 0) + 1
    assert got == {k: Fraction(n, 36) for k, n in expected.items()}

    body = {"procedure": "unit_defense", "inputs": {"attack_total": 16, "unit": "r1",
            "road": True}, "dice": "6 4"}  # fmt: skip
    r = soviets.post(url(full, "/actions"), body, format="json")
    assert r.status_code == 201, r.json()
    assert state(full).units["r1"].status is UnitStatus.BROKEN


def test_bad_input_is_a_400_and_changes_nothing(full, user):
    germans = client_for(user)
    before = BattleTracker.objects.get(battle=full)
    count = BattleAction.objects.count()
    for inputs in (
        {"pieces": "g1"},  # no distance
        {"pieces": "g1; 30"},  # out of range
        {"pieces": "g1; 3", "sustained_fire": 9},  # beyond the field's bound
    ):
        body = {"procedure": "group_fire", "inputs": inputs, "dice": "4 1"}
        r = germans.post(url(full, "/actions"), body, format="json")
        assert r.status_code == 400, (inputs, r.json())
    body = {"procedure": "unit_defense", "inputs": {"attack_total": 16, "unit": "nobody"}}
    assert germans.post(url(full, "/actions"), body, format="json").status_code == 400
    r = germans.post(url(full, "/odds"), {"procedure": "group_fire", "inputs": {"pieces": "g1; 30"}},
                     format="json")  # fmt: skip
    assert r.status_code == 400 and "cannot reach" in str(r.json())
    after = BattleTracker.objects.get(battle=full)
    assert (after.state, after.version) == (before.state, before.version)
    assert BattleAction.objects.count() == count


def test_A33_op_fire_needs_a_moving_target_and_the_movers_mp(full, user):
    with pytest.raises(ValidationError, match="hex a moving unit just entered"):
        fire(full, user, "2 2", pieces="g2; 2", kind="op_fire", mp_announced=2)
    with pytest.raises(ValidationError, match="MP the mover announced"):
        fire(full, user, "2 2", pieces="g2; 2", kind="op_fire", target_moving=True)
    action = fire(
        full, user, "2 2", pieces="g2; 2", kind="op_fire", mp_announced=2, target_moving=True
    )
    assert said(action.result["summary"]) == "Fire Attack with FP 5: Attack Total 9"


def test_3_1_no_counter_table_no_fire_from_the_counters(full, user):
    BattleTracker.objects.filter(battle=full).update(counters={})
    with pytest.raises(ValidationError, match="set its counter values first"):
        fire(full, user, "2 2", pieces="g2; 2")


def test_A29_concealment_lowers_the_attack_total_by_the_cover_odds_enumerated(full, other_user):
    """Rifle Squad Morale 6 in Woods (Cover 2): Morale 8; Concealment: Attack 14 - 2 = 12."""
    inputs = {"attack_total": 14, "unit": "r1", "terrain": "woods", "concealment": True}
    answer = client_for(other_user).post(
        url(full, "/odds"), {"procedure": "unit_defense", "inputs": inputs}, format="json"
    )
    got = {o["label"]: Fraction(o["p"]) for o in answer.json()}
    assert got.pop("Rifle Squad (r1): Morale 8 with Cover 2") == 1
    counts: dict[str, int] = {}
    for w, c in product(range(1, 7), repeat=2):
        key = outcome(attack=12, defense=8 + w + c, broken=False, suppressed=False, moving=False)
        counts[key.value] = counts.get(key.value, 0) + 1
    words = {"no_effect": "no effect", "suppressed": "Suppressed", "broken": "broken"}
    assert got == {words[k]: Fraction(n, 36) for k, n in counts.items()}
    action = defend(full, other_user, "2 2", **inputs)
    assert said(action.result["shown"][0]) == "12: Suppressed"
    assert state(full).units["r1"].suppressed


def test_the_page_offers_both_forms_and_shows_the_fp_live(client, full, user):
    client.force_login(user)
    page = client.get(full.get_absolute_url()).text
    assert "Fire Attack from the counters" in page
    assert "Defense roll of a registered unit" in page
    odds = reverse("tracker-odds", args=[full.campaign_id, full.number, "group_fire"])
    html = client.post(odds, {"group_fire-pieces": WE21, "group_fire-sustained_fire": "0"}).text
    assert "FP 11: Line Squad (g1) FP 6" in html and "Attack Total 18 or more" in html
    html = client.post(odds, {"group_fire-pieces": "g1; 30"}).text
    assert "cannot reach the target" in html


def test_WE32_A33_op_fire_through_smoke_uphill_and_both_units_in_the_hex_defend(
    full, user, other_user
):
    """Rifle Squad FP 6 Op-Fires into K7: -1 (target higher), -4 (Smoke) = 1; roll 6+5 = 12.
    Line Squad: Morale 7 + 1 (Sgt. Short) = 8, roll 6+2 -> 16; Sgt. Short: 8, 1+5 -> 14."""
    action = fire(
        full,
        other_user,
        "6 5",
        pieces="r1; 2; higher; hindrance 4",
        kind="op_fire",
        mp_announced=3,
        target_moving=True,
    )
    assert said(action.result["summary"]) == "Fire Attack with FP 1: Attack Total 12"
    squad = defend(full, user, "6 2", attack_total=12, unit="g1", leaders="c1", moving=True)
    leader = defend(full, user, "1 5", attack_total=12, unit="c1", moving=True)
    assert [said(a.result["shown"][0]) for a in (squad, leader)] == [
        "16: no effect",
        "14: no effect",
    ]


def test_WE34_A34_hand_grenades_twice_uphill_and_woods_cover(full, user, other_user):
    """6 + 4 (2 x Hand Grenades) - 1 (uphill) = 9; roll 1+3 -> 13. Line Squad in Woods:
    Morale 7 + 2 = 9, roll 6+3 -> 18 > 13, no effect."""
    action = fire(
        full,
        other_user,
        "1 3",
        pieces="r1; 1; higher",
        kind="op_fire",
        mp_announced=5,
        target_moving=True,
        hand_grenades=2,
    )
    assert said(action.result["summary"]) == "Fire Attack with FP 9: Attack Total 13"
    squad = defend(full, user, "6 3", attack_total=13, unit="g1", terrain="woods", moving=True)
    assert said(squad.result["shown"][0]) == "18: no effect"


@pytest.mark.parametrize(("figures", "morale"), [(8, 7), (12, 3)])
def test_WE08_V15_overstacking_lowers_the_cover_when_the_table_plays_it(
    full, user, figures, morale
):
    """Line Squads, Morale 7, in an Orchard (Cover 1): 8 figures -> Cover 0, 12 -> -4."""
    tracker = BattleTracker.objects.get(battle=full)
    tracker.state = {**tracker.state, "readings": {**tracker.state["readings"],
                                                   "overstack_cover": True}}  # fmt: skip
    tracker.save()
    inputs = {"attack_total": 12, "unit": "g1", "terrain": "orchard", "figures": figures}
    answer = client_for(user).post(
        url(full, "/odds"), {"procedure": "unit_defense", "inputs": inputs}, format="json"
    )
    labels = [o["label"] for o in answer.json()]
    assert f"Line Squad (g1): Morale {morale} with Cover {morale - 7}" in labels


def test_V18_the_initiative_card_buys_one_fp_per_extra_firing_hex(full, user, other_user):
    """Three Squads in three hexes: 5 + 2 (group) + 2 (V18) = 9; the card goes over."""
    pieces = "g1; 2; hex K8\ng2; 2; hex J7\ng3; 3; hex J6"
    with pytest.raises(ValidationError, match="only its holder"):
        fire(full, other_user, "2 2", pieces="r1; 2", v18=True)
    action = fire(full, user, "2 2", pieces=pieces, v18=True)
    assert said(action.result["summary"]) == "Fire Attack with FP 9: Attack Total 13"
    assert state(full).initiative.value == "allies"

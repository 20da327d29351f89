"""Reinforcements (§4.2, §7), British bombardments, grenades, the M7 and projectors (§6.4, §6.6)."""

import itertools
import re
from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.parabellum.deviation import deviation_distribution
from rules.parabellum.evasion import (
    ARTILLERY,
    GRENADE,
    STONK,
    Target,
    fire_at_will,
    fixed_evasion_odds,
    resolve_fixed_evasions,
)
from rules.parabellum.explosives import (
    fire_grenade_launcher,
    fire_projector,
    projector_evasion,
    projector_needed,
    throw_grenade,
)
from rules.parabellum.supports import (
    Call,
    artillery,
    check_call,
    light_mortar,
    mg_fire_at_will,
    radio_technician_odds,
    sniper_shot,
    stonk,
)

FACES = list(itertools.product(range(1, 7), repeat=3))


def t(name, **kw):
    return Target(name, hit_the_dirt=kw.pop("hit_the_dirt", False), **kw)


def test_ex_4_2_juan_artillery_pepe_sniper():
    juan = check_call("GBR/riflemen", [], Call(1, "artillery", 4), po_available=5)
    assert juan.po_left == 1
    assert artillery(4, EnteredDice([(1, 2, 4), 3])).radius_cm == 15
    pepe = check_call("GER/grenadier", [], Call(1, "sniper", 2), po_available=8)
    assert pepe.po_left == 6
    with pytest.raises(RuleError, match=re.escape("[4.2.2 B]")):  # one reinforcement per turn
        check_call("GER/grenadier", [Call(1, "sniper", 2)], Call(1, "artillery", 1), 6)


def test_ex_7_2_artillery_deviates_ten_cm_radius_fifteen():
    bombardment = artillery(4, EnteredDice([(2, 3, 5), 7]))
    assert (bombardment.deviation.distance_cm, bombardment.deviation.direction) == (10, 7)
    assert bombardment.radius_cm == 15
    assert bombardment.attack.needed == 9 and bombardment.attack.suppresses_first


def test_d6_artillery_triple_does_not_deviate():
    dice = EnteredDice([(4, 4, 4)])
    bombardment = artillery(2, dice)
    assert (bombardment.deviation.distance_cm, bombardment.deviation.direction) == (0, None)
    assert bombardment.radius_cm == 9 and dice.remaining == 0


@pytest.mark.parametrize(
    ("radio", "deviation_entry", "expected_dice", "distance"),
    [((4, 5, 6), 4, "1d6", 4), ((2, 3, 4), (3, 3), "2d6", 6), ((1, 3, 4), (1, 2, 6), "3d6", 9)],
)
def test_d7_radio_operator_15_9_8(radio, deviation_entry, expected_dice, distance):
    bombardment = artillery(3, EnteredDice([radio, deviation_entry, 12]), radio_operator=True)
    assert bombardment.deviation.dice == expected_dice
    assert bombardment.deviation.distance_cm == distance


@pytest.mark.parametrize(
    ("faces", "mg42", "outcome"),
    [
        ((1, 2, 3), False, "eliminated"),  # 6
        ((2, 3, 5), False, "suppressed"),  # 10
        ((2, 4, 5), False, "unharmed"),  # 11
        ((2, 4, 5), True, "suppressed"),  # 11 < 12 against an MG42
        ((1, 1, 1), False, "unharmed"),  # heroic evasion (DECISIONS D-5)
    ],
)
def test_d8_mg_fire_at_will(faces, mg42, outcome):
    fire = mg_fire_at_will([t("X")], EnteredDice([faces]), team_ready=True, mg42=mg42)
    assert fire.evasions[0].outcome == outcome and fire.po_cost == 1


def test_7_3_fire_at_will_needs_the_team_and_costs_per_soldier():
    with pytest.raises(RuleError, match=re.escape("[7.3]")):
        mg_fire_at_will([t("X")], EnteredDice([]), team_ready=False, mg42=False)
    team = [t("gunner"), t("assistant"), t("rifleman")]
    fire = mg_fire_at_will(team, EnteredDice([(6, 6, 5)] * 3), team_ready=True, mg42=False)
    assert fire.po_cost == 3  # the assisted MG costs 2 PO and both roll
    dirt = mg_fire_at_will([t("X", hit_the_dirt=True)], EnteredDice([]), team_ready=True, mg42=True)
    assert (dirt.evasions[0].outcome, dirt.evasions[0].po_spent) == ("unharmed", 2)


def test_d9_panzerfaust_after_moving_misses():
    result = fire_projector(25, EnteredDice([(3, 4, 5)]), moved=True)
    assert (result.needed, result.modified, result.hit) == (11, 10, False)


@pytest.mark.parametrize(
    ("distance", "needed"), [(30, 11), (21, 11), (20.5, 11), (20, 9), (11, 9), (10, 7), (0, 7)]
)
def test_6_6_projector_bands(distance, needed):
    assert projector_needed(distance) == needed


def test_6_6_projector_hit_and_splash_evasion():
    assert fire_projector(8, EnteredDice([(1, 2, 4)]), moved=False).hit  # 7 ≥ 7
    with pytest.raises(RuleError):
        projector_needed(31)
    close = projector_evasion(8)
    with pytest.raises(RuleError, match=re.escape("[6.2.11]")):
        resolve_fixed_evasions(close, [t("A", hit_the_dirt=True)], EnteredDice([]))
    (res,) = resolve_fixed_evasions(projector_evasion(25), [t("A")], EnteredDice([(3, 3, 4)]))
    assert res.outcome == "eliminated"  # 10 < 11


def test_d12_no_artillery_on_consecutive_turns():
    history = [Call(1, "artillery", 2)]
    with pytest.raises(RuleError, match="turn 1"):
        check_call("GER/grenadier", history, Call(2, "artillery", 1), 10)
    with pytest.raises(RuleError):  # the light mortar is artillery too (DECISIONS D-11)
        check_call("GBR/riflemen", history, Call(2, "light_mortar", 1), 10)
    assert check_call("GER/grenadier", history, Call(3, "artillery", 1), 10).po_left == 9
    assert check_call("GER/grenadier", history, Call(2, "anticipation", 3), 10).po_left == 7


@pytest.mark.parametrize(
    ("squad", "history", "call", "po"),
    [
        ("GER/grenadier", [Call(1, "sniper", 2)], Call(3, "sniper", 2), 5),  # once per battle
        ("USA/rifleman", [Call(1, "sniper", 2), Call(3, "sniper", 2)], Call(5, "sniper", 2), 5),
        ("GER/grenadier", [], Call(1, "light_mortar", 1), 5),  # British only
        ("GER/grenadier", [], Call(1, "artillery", 5), 9),
        ("GER/grenadier", [], Call(1, "artillery", 3), 2),  # not enough PO
    ],
)
def test_7_illegal_calls(squad, history, call, po):
    with pytest.raises(RuleError):
        check_call(squad, history, call, po)


def test_10_usa_squad_sniper_twice():
    assert check_call("USA/rangers", [Call(1, "sniper", 2)], Call(3, "sniper", 2), 2).po_left == 0


def test_7_1_sniper_shot():
    fire = sniper_shot(t("officer", officer=True), ["nearby"], EnteredDice([(2, 4, 4)]))
    assert fire.po_cost == 2 and fire.suppressed_without_roll == ["nearby"]
    assert fire.evasions[0].outcome == "eliminated"  # 10 < 11


def test_10_gbr_light_mortar_and_stonk():
    mortar = light_mortar(EnteredDice([3, 2]))
    assert (mortar.radius_cm, mortar.deviation.distance_cm, mortar.deviation.direction) == (6, 5, 2)
    bombardment = stonk(EnteredDice([(6, 6, 6)]))
    assert (bombardment.radius_cm, bombardment.deviation.distance_cm) == (15, 0)
    dice = EnteredDice([(1, 3, 4), (2, 3, 4)])
    failed, passed = resolve_fixed_evasions(STONK, [t("A"), t("B")], dice)
    assert (failed.outcome, passed.outcome) == ("suppressed", "unharmed")  # never eliminated


def test_6_4_grenade_deviation():
    precise = throw_grenade(15, EnteredDice([3, 5]), moved=False, los_to_marker=True)
    assert (precise.dice, precise.distance_cm, precise.direction) == ("1d6+2", 5, 5)
    moved = throw_grenade(15, EnteredDice([(3, 4), 1]), moved=True, los_to_marker=True)
    assert (moved.dice, moved.distance_cm) == ("2d6", 7)
    wall = throw_grenade(
        12, EnteredDice([(1, 1), 1]), moved=False, los_to_marker=True, over_wall_cm=8
    )
    assert wall.dice == "2d6"
    with pytest.raises(RuleError, match=re.escape("[6.4]")):
        throw_grenade(21, EnteredDice([]), moved=False, los_to_marker=True)
    with pytest.raises(RuleError, match=re.escape("[6.4 B]")):
        throw_grenade(12, EnteredDice([]), moved=False, los_to_marker=False, over_wall_cm=11)


def test_10_usa_m7_launcher():
    shot = fire_grenade_launcher(30, EnteredDice([(2, 2), 9]), los_to_marker=True)
    assert (shot.dice, shot.distance_cm) == ("2d6", 4)
    for distance, los in ((15, True), (41, True), (30, False)):
        with pytest.raises(RuleError):
            fire_grenade_launcher(distance, EnteredDice([]), los_to_marker=los)


def test_6_4_grenade_blast_suppresses_then_9_plus():
    dice = EnteredDice([(2, 3, 3), (2, 3, 3)])
    a, b = resolve_fixed_evasions(GRENADE, [t("A"), t("B", experience="veteran")], dice)
    assert (a.outcome, b.outcome) == ("eliminated", "suppressed")  # 8 fails; 8+1 = 9 survives
    (dirt,) = resolve_fixed_evasions(ARTILLERY, [t("C", hit_the_dirt=True)], EnteredDice([]))
    assert (dirt.outcome, dirt.po_spent) == ("suppressed", 2)  # DECISIONS D-6


def test_6_2_11_area_choices_are_asked_before_any_roll():
    dice = EnteredDice([(6, 6, 6)])
    with pytest.raises(DecisionRequired) as err:
        resolve_fixed_evasions(GRENADE, [t("A"), Target("B")], dice)
    assert err.value.decision.key == "hit_the_dirt:B" and dice.remaining == 1


# ---------------------------------------------------------------------------------------------
# Exact odds against brute force


@pytest.mark.parametrize(
    ("attack", "experience", "ev_mod"),
    [
        (GRENADE, "regular", 0),
        (STONK, "veteran", 1),
        (fire_at_will(True), "recruit", -1),
        (fire_at_will(False), "regular", 0),
    ],
)
def test_fixed_evasion_odds_match_brute_force(attack, experience, ev_mod):
    counts = {"unharmed": 0, "suppressed": 0, "eliminated": 0}
    for f in FACES:
        v = sum(f) + ev_mod
        if len(set(f)) == 1 or v >= attack.needed:
            outcome = "suppressed" if attack.suppresses_first else "unharmed"
        elif attack.eliminated_at_most is not None and v <= attack.eliminated_at_most:
            outcome = "eliminated"
        else:
            outcome = attack.on_fail
        counts[outcome] += 1
    assert fixed_evasion_odds(attack, experience) == {
        k: Fraction(c, 216) for k, c in counts.items()
    }


def test_7_2_deviation_and_radio_technician_odds_match_brute_force():
    dist = dict(deviation_distribution("3d6").probs)
    assert dist[0] == Fraction(6, 216)
    assert dist[10] == Fraction(sum(1 for f in FACES if sum(f) == 10 and len(set(f)) > 1), 216)
    assert dist[9] == Fraction(sum(1 for f in FACES if sum(f) == 9 and len(set(f)) > 1), 216)
    odds = radio_technician_odds()
    assert odds["1d6"] == Fraction(sum(sum(f) >= 15 for f in FACES), 216)
    assert odds["2d6"] == Fraction(sum(9 <= sum(f) < 15 for f in FACES), 216)
    assert sum(odds.values()) == 1
    assert dict(deviation_distribution("1d6+2").probs) == {v: Fraction(1, 6) for v in range(3, 9)}


def test_6_6_projector_odds_match_brute_force():
    result = fire_projector(15, EnteredDice([(1, 1, 2)]), moved=True)
    assert result.p_hit == Fraction(sum(sum(f) - 2 >= 9 for f in FACES), 216)

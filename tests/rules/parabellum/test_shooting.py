"""Shooting and evasion (§6.1, §6.2) with the digest's worked examples and derived cases."""

import itertools
import re
from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.errors import DiceError, RuleError
from rules.explain import DecisionRequired
from rules.parabellum.data import weapon
from rules.parabellum.evasion import Target
from rules.parabellum.shooting import (
    Shot,
    attack_odds,
    best_shot,
    reaction_shots,
    resolve_shot,
    resolve_shot_evasion,
    restricted_reaction_allowed,
    shot_modifier,
    shot_odds,
    shots_allowed,
)

RIFLE = weapon("GER", "rifle")
SMG = weapon("GER", "smg")
MG42 = weapon("GER", "mg")
STG = weapon("GER", "assault_rifle")
GARAND = weapon("USA", "semi_auto_rifle")
FACES = list(itertools.product(range(1, 7), repeat=3))


def shoot_and_evade(shot, shot_faces, evasion_faces, target=None):
    dice = EnteredDice([shot_faces, evasion_faces])
    result = resolve_shot(shot, dice)
    evasion = resolve_shot_evasion(result, target or Target("S2", hit_the_dirt=False), dice)
    return result, evasion


def test_ex_6_1_shot_suppresses():
    result, evasion = shoot_and_evade(Shot(RIFLE, 30, cover="heavy"), (3, 5, 6), (2, 3, 5))
    assert (result.roll.value, result.modified, result.success) == (14, 12, True)
    assert (evasion.modified, evasion.outcome) == (10, "suppressed")
    assert "difference 2" in str(evasion.explanation)


def test_ex_6_1_variant_difference_three_eliminates():
    _, evasion = shoot_and_evade(Shot(RIFLE, 30, cover="heavy"), (3, 5, 6), (1, 3, 5))
    assert (evasion.modified, evasion.outcome) == (9, "eliminated")


def test_ex_6_1_variant_point_blank_ignores_the_difference():
    # 14 + 2 (point blank) - 2 (heavy cover) = 14; evasion 13 fails by 1 → eliminated anyway.
    result, evasion = shoot_and_evade(Shot(RIFLE, 8, cover="heavy"), (3, 5, 6), (3, 4, 6))
    assert result.modified == 14 and result.point_blank
    assert evasion.outcome == "eliminated"


def test_d10_veteran_evasion_equals_shot_and_is_saved():
    target = Target("S2", experience="veteran", hit_the_dirt=False)
    result, evasion = shoot_and_evade(Shot(RIFLE, 25), (3, 4, 5), (2, 4, 5), target)
    assert (result.modified, evasion.modified, evasion.outcome) == (12, 12, "unharmed")


def test_d11_officer_hits_the_dirt_for_one_po():
    dice = EnteredDice([(3, 4, 5)])
    result = resolve_shot(Shot(RIFLE, 25), dice)
    evasion = resolve_shot_evasion(result, Target("Lt", officer=True, hit_the_dirt=True), dice)
    assert (evasion.outcome, evasion.po_spent, evasion.roll) == ("unharmed", 1, None)
    assert dice.remaining == 0


def test_6_2_11_hit_the_dirt_is_asked_when_legal():
    result = resolve_shot(Shot(RIFLE, 25), EnteredDice([(3, 4, 5)]))
    with pytest.raises(DecisionRequired) as err:
        resolve_shot_evasion(result, Target("S2"), EnteredDice([]))
    assert err.value.decision.options == (False, True) and err.value.decision.rule == "6.2.11"


def test_6_2_11_b_no_hit_the_dirt_at_point_blank():
    result = resolve_shot(Shot(RIFLE, 5), EnteredDice([(3, 4, 5)]))
    with pytest.raises(RuleError, match=re.escape("[6.2.11]")):
        resolve_shot_evasion(result, Target("S2", hit_the_dirt=True), EnteredDice([]))
    # Not asked either: the evasion is rolled.
    evasion = resolve_shot_evasion(result, Target("S2"), EnteredDice([(6, 6, 5)]))
    assert evasion.outcome == "unharmed"


def test_d13_recruit_aimed_long_shot_misses():
    shot = Shot(RIFLE, 45, aimed=True, shooter_experience="recruit")
    result = resolve_shot(shot, EnteredDice([(2, 3, 5)]))
    assert (result.modified, result.success) == (9, False)  # 10 + 1 - 2


def test_d14_bolt_aimed_shot_reaches_60_cm():
    assert shot_modifier(Shot(RIFLE, 58, aimed=True)) == 0  # +2 aim, -2 long range
    with pytest.raises(RuleError, match=re.escape("[6.2.1]")):
        shot_modifier(Shot(RIFLE, 58))


@pytest.mark.parametrize(
    ("shot", "expected"),
    [
        (Shot(RIFLE, 30, cover="light", target_suppressed=True), -2),  # §6.1: -1 cover, -1 both
        (Shot(RIFLE, 30, cover="light", target_suppressed=True, reaction=True), -1),  # §6.2.8
        (Shot(SMG, 30, reaction=True, target_double_time_cm=20), 2),
        (Shot(SMG, 30, reaction=True, target_double_time_cm=20, target_recon=True), 0),  # §8.4.1
        (Shot(SMG, 30, reaction=True, target_double_time_cm=28, target_recon=True), 2),
        (Shot(MG42, 50, mg42_assisted=True), -1),  # +1 MG42, -2 long
    ],
)
def test_6_1_and_6_2_8_shot_modifiers(shot, expected):
    assert shot_modifier(shot) == expected


@pytest.mark.parametrize(
    "shot",
    [Shot(SMG, 20, aimed=True), Shot(RIFLE, 20, aimed=True, reaction=True), Shot(SMG, 41)],
)
def test_6_2_illegal_shots(shot):
    with pytest.raises(RuleError):
        shot_modifier(shot)


def test_6_2_3_critical_shot_eliminates_unless_heroic():
    shot = Shot(RIFLE, 45, cover="heavy")  # 2-2-2 = 6 - 4 = 2, still critical (DECISIONS D-3)
    result, evasion = shoot_and_evade(shot, (2, 2, 2), (6, 6, 5))
    assert result.critical and result.success and evasion.outcome == "eliminated"
    _, heroic = shoot_and_evade(shot, (2, 2, 2), (1, 1, 1))
    assert heroic.outcome == "unharmed" and heroic.heroic


def test_6_2_11_c_hit_the_dirt_against_a_critical_leaves_suppressed():
    result = resolve_shot(Shot(RIFLE, 30), EnteredDice([(4, 4, 4)]))
    evasion = resolve_shot_evasion(result, Target("S2", hit_the_dirt=True), EnteredDice([]))
    assert (evasion.outcome, evasion.po_spent) == ("suppressed", 2)


def test_6_2_4_heroic_evasion_against_an_ordinary_shot():
    _, evasion = shoot_and_evade(Shot(RIFLE, 5), (6, 6, 5), (1, 1, 1))
    assert evasion.outcome == "unharmed" and evasion.heroic


def test_dice_must_be_entered_as_faces():
    with pytest.raises(DiceError, match="triple"):
        resolve_shot(Shot(RIFLE, 30), EnteredDice([12]))


def test_ex_6_2_8_several_reaction_shots_one_evasion_against_the_best():
    dice = EnteredDice([(6, 5, 4), (3, 4, 5), (1, 2, 3)])
    results = [
        resolve_shot(Shot(RIFLE, 35, reaction=True), dice),  # 15
        resolve_shot(Shot(SMG, 8, reaction=True), dice),  # 12 point blank
        resolve_shot(Shot(SMG, 30, reaction=True), dice),  # 6 miss
    ]
    target = Target("S4", hit_the_dirt=False)
    with pytest.raises(DecisionRequired) as err:
        best_shot(results, target)
    assert err.value.decision.options == (0, 1)
    chosen = best_shot(results, target, choice=1)
    evasion = resolve_shot_evasion(chosen, target, EnteredDice([(4, 4, 3)]))  # 11 < 12
    assert evasion.outcome == "eliminated"
    with pytest.raises(RuleError):
        best_shot(results, target, choice=2)
    assert best_shot(results[2:], target) is None


@pytest.mark.parametrize(
    ("weapon_", "movement", "kwargs", "shots", "pa_left"),
    [
        (SMG, "double_time", {}, 1, 0),  # EX-4.3.2: 2 PA move + 1 shot = 3 PA
        (SMG, "none", {}, 3, 0),
        (GARAND, "none", {}, 2, 1),
        (GARAND, "cautious", {}, 1, 1),
        (MG42, "double_time", {}, 0, 1),
        (MG42, "cautious", {}, 1, 1),
        (RIFLE, "none", {"aimed": True}, 1, 0),
        (STG, "none", {"targets_within_cm": 40}, 3, 0),
        (STG, "none", {"targets_within_cm": 45}, 2, 1),
        (RIFLE, "crawl", {}, 0, 0),
        (weapon("FIN", "rifle"), "crawl", {"motti": True}, 1, 0),
    ],
)
def test_ex_4_3_2_and_6_6_shots_per_activation(weapon_, movement, kwargs, shots, pa_left):
    allowance = shots_allowed(weapon_, movement, **kwargs)
    assert (allowance.max_shots, allowance.pa_left) == (shots, pa_left)


@pytest.mark.parametrize(
    ("name", "distance", "in_cover", "allowed"),
    [("S2", 25, True, False), ("S1", 18, True, True), ("S3", 30, False, True)],
)
def test_ex_5_restricted_reaction_after_a_crawl(name, distance, in_cover, allowed):
    assert restricted_reaction_allowed(distance, in_cover) is allowed


def test_ex_6_2_7_marked_ivan_cannot_react_to_hans():
    assert reaction_shots(suppressed=False, marked=True) == 0
    assert reaction_shots(suppressed=False, marked=False) == 1  # once another soldier activates


@pytest.mark.parametrize(
    ("soldier", "kwargs", "shots"),
    [
        ("S2 (shot at, marked)", {"marked": True}, 0),
        ("S1", {}, 1),
        ("S3", {}, 1),
    ],
)
def test_ex_6_2_8_who_reacts_to_s4(soldier, kwargs, shots):
    assert reaction_shots(suppressed=False, **{"marked": False, **kwargs}) == shots


def test_ex_6_2_10_covering_fire_marks_s4_and_s5():
    assert [reaction_shots(suppressed=False, marked=True) for _ in ("S4", "S5")] == [0, 0]


@pytest.mark.parametrize(
    ("kwargs", "shots"),
    [
        ({"mg_team": "gunner"}, 2),
        ({"mg_team": "gunner", "marked": True}, 1),
        ({"mg_team": "assistant"}, 0),
        ({"suppressed": True}, 0),
        ({"target_moved_or_attacked": False}, 0),
    ],
)
def test_6_2_8_and_8_1_3_reaction_counts(kwargs, shots):
    assert reaction_shots(**{"suppressed": False, "marked": False, **kwargs}) == shots


# ---------------------------------------------------------------------------------------------
# Exact odds against brute-force enumeration of every face


def brute_attack(mod, point_blank, ev_mod):
    counts = {"unharmed": 0, "suppressed": 0, "eliminated": 0}
    for s in FACES:
        crit, shot = len(set(s)) == 1, sum(s) + mod
        if not crit and shot < 11:
            counts["unharmed"] += 216
            continue
        for e in FACES:
            ev = sum(e) + ev_mod
            if len(set(e)) == 1:
                counts["unharmed"] += 1
            elif crit:
                counts["eliminated"] += 1
            elif ev >= shot:
                counts["unharmed"] += 1
            elif point_blank or shot - ev >= 3:
                counts["eliminated"] += 1
            else:
                counts["suppressed"] += 1
    return {k: Fraction(v, 216 * 216) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("shot", "experience", "ev_mod"),
    [
        (Shot(RIFLE, 30, cover="heavy"), "regular", 0),  # EX-6.1 situation
        (Shot(SMG, 6), "recruit", -1),
        (Shot(RIFLE, 55, aimed=True, cover="light"), "veteran", 1),
    ],
)
def test_ex_6_1_odds_match_brute_force(shot, experience, ev_mod):
    mod = shot_modifier(shot)
    assert attack_odds(shot, experience) == brute_attack(mod, shot.point_blank, ev_mod)
    success = Fraction(sum(1 for f in FACES if len(set(f)) == 1 or sum(f) + mod >= 11), 216)
    assert shot_odds(shot).success == success
    assert shot_odds(shot).critical == Fraction(6, 216)

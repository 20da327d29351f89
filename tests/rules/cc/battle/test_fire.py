"""Fire attacks [O20, 10.3, T88.2], Op Fire [A33], Assault Fire [A26] and exact odds."""

import itertools
from fractions import Fraction

import pytest

from rules.cc.battle.fire import (
    Attack,
    FireAction,
    FireKind,
    FireResult,
    OpFire,
    Piece,
    Target,
    TargetUnit,
    attack_roll,
    defend,
    defense_odds,
    fire_attack,
    fire_power,
)
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.terrain import HINDRANCE, Fortification, HexCover, Terrain, smoke
from rules.cc.battle.values import Outcome, Weapon, WeaponKind
from rules.dice import EnteredDice, SeededDice, ServerDice
from rules.errors import RuleError
from rules.explain import DecisionRequired
from rules.i18n import Msg
from rules.serial import from_data, to_data
from tests.rules.cc.battle.test_values import leader, squad, team

OPEN = HexCover(Terrain.OPEN_GROUND)
ROAD = HexCover(Terrain.OPEN_GROUND, road=True)
BRUSH, ORCHARD = HINDRANCE["brush"], HINDRANCE["orchard"]


def target(*units, ground=OPEN, level=0, moving=()):
    return Target(tuple(TargetUnit(u, u.name in moving) for u in units), ground, level)


def shooter(fp=5, rng=6, distance=3, **kw):
    return Piece(squad("Firer", fp=fp, rng=rng), distance, **kw)


def fp_of(*pieces, tgt=None, **kw):
    return fire_power(attack=Attack(pieces, tgt or target(squad("US")), **kw)).fp


@pytest.mark.parametrize(
    ("we", "hindrances", "minus"),
    [
        ("WE09", (BRUSH, BRUSH), 3),
        ("WE10", (BRUSH, BRUSH, smoke(4)), 4),
        ("WE11", (smoke(4), smoke(4)), 4),
        ("WE12", (BRUSH, BRUSH, smoke(5)), 5),  # Smoke in the firer's own hex
        ("WE13", (ORCHARD,), 2),
        ("WE14", (smoke(7), ORCHARD), 7),
    ],
)
def test_WE09_to_WE14_single_largest_hindrance_10_3_3(we, hindrances, minus):
    assert fp_of(shooter(fp=8, hindrances=hindrances)) == 8 - minus


def test_WE14_hindrances_of_several_pieces_never_add_O20_3_2():
    a = shooter(fp=8, hindrances=(2,))
    b = Piece(squad("B", fp=4), 2, hindrances=(3,))
    assert fp_of(a, b) == 8 + 1 - 3


def rifle_group():
    """Fire example C: the Rifle Squad in L8 with Bolter, Squads in K8, J7, J6, LMG in J6."""
    l8 = Piece(squad("Rifle L8", fp=5), 2, hex="L8", level=1, leader_commands=(1,))
    others = [Piece(squad(f"Squad {h}", fp=4), 3, hex=h) for h in ("K8", "J7", "J6")]
    lmg = Piece(squad("Squad J6", fp=4), 3, Weapon("LMG", WeaponKind.MG, 2, 8), hex="J6")
    return (l8, *others, lmg)


def test_WE21_fire_group_total_O20_3_1_2():
    us = target(squad("US Squad", morale=6), ground=ROAD)
    power = fire_power(attack=Attack(rifle_group(), us))
    assert (power.fp, power.base) == (11, "Rifle L8")
    attack = attack_roll(attack=Attack(rifle_group(), us), dice=EnteredDice([(4, 1)]))
    assert attack.total == 16


def test_WE22_defense_lower_breaks_O20_3_4():
    us = target(squad("US Squad", morale=6), ground=ROAD)
    out = fire_attack(attack=Attack(rifle_group(), us), dice=EnteredDice([(4, 1), (6, 4)]))
    d = out.defense.units[0]
    assert (d.morale, d.total, d.outcome) == (5, 15, Outcome.BROKEN)
    assert d.unit.broken


def hmg_shot():
    return Piece(
        squad("HMG crew", fp=4), 4, Weapon("HMG", WeaponKind.MG, 8, 16), leader_commands=(1,)
    )


def test_WE23_sustained_fire_twice_event_no_doubles_A41():
    us = target(squad("US Squad", morale=6, broken=True), ground=ROAD)
    sf = (FireAction.SUSTAINED_FIRE,) * 2
    attack = attack_roll(
        attack=Attack((hmg_shot(),), us, actions=sf),
        dice=EnteredDice([(1, 6)]),
        trigger=Trigger.EVENT,
    )
    assert (attack.fp, attack.total, attack.roll.trigger) == (13, 20, Trigger.EVENT)
    assert attack.weapons_broken == attack.weapons_eliminated == ()


def test_WE25_broken_again_is_eliminated_3_2_4():
    # WE-24: the Interdiction Event put a Suppressed marker on the broken US Squad
    us = target(squad("US Squad", broken_morale=8, broken=True, suppressed=True), ground=ROAD)
    out = defend(attack_total=20, target=us, dice=EnteredDice([(1, 2)]))
    d = out.units[0]
    assert (d.morale, d.total, d.outcome) == (6, 9, Outcome.ELIMINATED)


def test_WE20_mg_of_a_broken_unit_cannot_fire_3_2_3():
    mg = Piece(squad("Broken", broken=True), 2, Weapon("MG", WeaponKind.MG, 5, 10))
    with pytest.raises(RuleError) as err:
        fire_power(attack=Attack((mg,), target(squad("US"))))
    assert err.value.rule == "3.2.3"
    broken_fires = Piece(squad("Broken", rng=4, broken=True), 3, leader_commands=(1,))
    assert fire_power(attack=Attack((broken_fires,), target(squad("US")))).fp == 3 + 1


def test_WE27_fp_below_one_no_shot_10_3_2_1():
    german = Piece(team("German Team"), 2, hindrances=(smoke(3),))
    power = fire_power(attack=Attack((german,), target(squad("US"))))
    assert (power.fp, power.allowed) == (-1, False)
    with pytest.raises(RuleError) as err:
        attack_roll(attack=Attack((german,), target(squad("US"))), dice=EnteredDice([(3, 3)]))
    assert err.value.rule == "10.3.2.1"
    raised = fire_power(
        attack=Attack((german,), target(squad("US")), actions=(FireAction.MARKSMANSHIP,))
    )
    assert (raised.fp, raised.allowed) == (1, True)


def op_fire_k7():
    rifle, biermann = squad("Rifle", morale=7), leader("Biermann", command=1, morale=8)
    return target(rifle, biermann, level=1, moving=("Rifle",))


def test_WE32_op_fire_hits_every_unit_in_the_hex_A33_2():
    l5 = Piece(squad("US L5", fp=6), 2, hindrances=(smoke(4),))
    out = fire_attack(
        attack=Attack((l5,), op_fire_k7(), kind=FireKind.OP_FIRE, op_fire=OpFire(mp_announced=3)),
        dice=EnteredDice([(6, 5), (6, 2), (1, 5)]),
    )
    assert (out.attack.fp, out.attack.total) == (1, 12)
    rifle, biermann = out.defense.units
    assert (rifle.morale, rifle.total, rifle.outcome) == (8, 16, Outcome.NO_EFFECT)
    assert (biermann.morale, biermann.total, biermann.outcome) == (8, 14, Outcome.NO_EFFECT)


def test_WE34_op_fire_hand_grenades_uphill_woods_A34_T88_2():
    line = Piece(squad("US Line", fp=6), 1)
    k6 = target(
        squad("Rifle", morale=7), ground=HexCover(Terrain.WOODS), level=1, moving=("Rifle",)
    )
    out = fire_attack(
        attack=Attack(
            (line,),
            k6,
            actions=(FireAction.HAND_GRENADES,) * 2,
            kind=FireKind.OP_FIRE,
            op_fire=OpFire(mp_announced=5),
        ),
        dice=EnteredDice([(1, 3), (6, 3)]),
    )
    assert (out.attack.fp, out.attack.total) == (9, 13)
    d = out.defense.units[0]
    assert (d.morale, d.total, d.outcome) == (9, 18, Outcome.NO_EFFECT)


def test_WE37_one_op_fire_attack_per_expenditure_A33_3():
    with pytest.raises(RuleError) as err:
        fire_power(
            attack=Attack(
                (shooter(),),
                op_fire_k7(),
                kind=FireKind.OP_FIRE,
                op_fire=OpFire(3, attacks_this_expenditure=1),
            )
        )
    assert err.value.rule == "A33.3"
    # a later entry is a new expenditure: the same units may fire again
    assert fp_of(shooter(), tgt=op_fire_k7(), kind=FireKind.OP_FIRE, op_fire=OpFire(4)) >= 1


def test_op_fire_needs_a_mover_and_no_artillery_A33_1_A33_3():
    with pytest.raises(RuleError) as err:
        fp_of(shooter(), kind=FireKind.OP_FIRE, op_fire=OpFire(2))
    assert err.value.rule == "A33.1"
    mortar = Piece(squad(), 3, Weapon("Mortar", WeaponKind.MORTAR, 5, 12, artillery=True))
    with pytest.raises(RuleError) as err:
        fp_of(mortar, tgt=op_fire_k7(), kind=FireKind.OP_FIRE, op_fire=OpFire(2))
    assert err.value.rule == "A33.3"


def test_assault_fire_needs_boxed_fp_A26():
    boxed = Piece(squad("Boxed", boxed_fp=True), 2)
    assert fp_of(boxed, kind=FireKind.ASSAULT_FIRE) == 5
    with pytest.raises(RuleError) as err:
        fp_of(boxed, shooter(), kind=FireKind.ASSAULT_FIRE)
    assert err.value.rule == "A26"


def test_WE55_fp_locked_before_the_roll_1_9_1():
    shot = shooter(fp=8, hindrances=(smoke(4),))
    attack = attack_roll(
        attack=Attack((shot,), target(squad("US"))),
        dice=EnteredDice([(3, 2)]),
        trigger=Trigger.TIME,
    )
    assert (attack.fp, attack.total) == (4, 9)
    assert any(s.rule == "1.9.1" and s.value == 4 for s in attack.explanation)


def test_WE02_jammed_breaks_firing_weapons_attack_stands_O20_3_3_1():
    lmg = Piece(squad("Crew"), 2, Weapon("LMG", WeaponKind.MG, 3, 8))
    rifle = Piece(squad("Rifle"), 2)
    attack = attack_roll(
        attack=Attack((lmg, rifle), target(squad("US"))),
        dice=EnteredDice([(1, 2)]),
        trigger=Trigger.JAMMED,
    )
    assert attack.weapons_broken == ("LMG",)
    assert attack.total == 5 + 1 + 3


def test_WE53_weapon_breaking_twice_is_eliminated_A41():
    us = target(squad("US"))
    sf = (FireAction.SUSTAINED_FIRE,) * 2
    twice = attack_roll(attack=Attack((hmg_shot(),), us, actions=sf), dice=EnteredDice([(3, 3)]))
    assert (twice.weapons_broken, twice.weapons_eliminated) == ((), ("HMG",))
    jam = attack_roll(
        attack=Attack((hmg_shot(),), us, actions=sf[:1]),
        dice=EnteredDice([(2, 2)]),
        trigger=Trigger.JAMMED,
    )
    assert jam.weapons_eliminated == ("HMG",)
    once = attack_roll(attack=Attack((hmg_shot(),), us, actions=sf[:1]), dice=EnteredDice([(2, 2)]))
    assert once.weapons_broken == ("HMG",)


def test_sustained_fire_with_two_mgs_asks_the_firer_A41():
    mg1 = Piece(squad("A"), 2, Weapon("MG1", WeaponKind.MG, 4, 8), hex="X")
    mg2 = Piece(squad("B"), 2, Weapon("MG2", WeaponKind.MG, 4, 8), hex="X")
    sf = (FireAction.SUSTAINED_FIRE,)
    with pytest.raises(DecisionRequired) as asked:
        attack_roll(
            attack=Attack((mg1, mg2), target(squad("US")), actions=sf),
            dice=EnteredDice([(5, 5)]),
        )
    assert asked.value.decision.options == ("MG1", "MG2")
    out = attack_roll(
        attack=Attack((mg1, mg2), target(squad("US")), actions=sf),
        dice=EnteredDice([(5, 5)]),
        sustained_fire_choice=["MG2"],
    )
    assert out.weapons_broken == ("MG2",)


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (FireAction.SUSTAINED_FIRE, "A41"),
        (FireAction.HAND_GRENADES, "A34"),
        (FireAction.CROSSFIRE, "A30"),
        (FireAction.BORE_SIGHTING, "A27"),
        (FireAction.ENFILADE, "PA-A39"),
    ],
)
def test_action_conditions_A24(action, rule):
    with pytest.raises(RuleError) as err:
        fp_of(shooter(distance=2), actions=(action,))
    assert err.value.rule == rule


def test_actions_that_apply_A27_A30_A37_PA_A39():
    hmg = Piece(squad("Crew"), 1, Weapon("HMG", WeaponKind.MG, 5, 12))
    tgt = op_fire_k7()
    every = (FireAction.BORE_SIGHTING, FireAction.CROSSFIRE, FireAction.MARKSMANSHIP)
    assert fp_of(hmg, tgt=tgt, actions=every, scenario_defender=True) == 5 - 1 + 6
    group = [shooter(fp=4), Piece(squad("B", fp=3), 2), Piece(squad("C", fp=3), 2)]
    assert fp_of(*group, actions=(FireAction.ENFILADE,)) == 4 + 2 + 2


def test_elevation_both_modifiers_in_a_mixed_group_T88_2():
    low, high = shooter(fp=4, level=0), Piece(squad("High", fp=4), 2, level=2)
    assert fp_of(low, high, tgt=target(squad("US"), level=1)) == 4 + 1 - 1 + 1
    assert fp_of(high, tgt=target(squad("US"), level=1)) == 5


def test_v18_initiative_adds_per_firing_hex_V18():
    a, b = shooter(fp=4, hex="A1"), Piece(squad("B", fp=4), 2, hex="B1")
    assert fp_of(a, b, v18_initiative=True) == 4 + 1 + 1


def test_base_piece_is_the_firers_choice_O20_3_1_2():
    a, b = shooter(fp=6), Piece(squad("Weak", fp=3), 2)
    assert fp_of(a, b) == 7 and fp_of(a, b, base="Weak") == 4
    with pytest.raises(RuleError):
        fp_of(a, b, base="Nobody")


@pytest.mark.parametrize(
    ("piece", "rule"),
    [
        (shooter(distance=7, rng=6), "O20.2.2"),
        (Piece(squad(), 2, Weapon("MG", WeaponKind.MG, 5, 10), wire=True), "F106.3"),
        (Piece(squad(), 2, Weapon("MG", WeaponKind.MG, 5, 10), water=True), "T89"),
        (Piece(squad(suppressed=True), 2, Weapon("MG", WeaponKind.MG, 5, 10)), "13.2"),
        (Piece(squad(), 2, Weapon("Mortar", WeaponKind.MORTAR, 5, 12, artillery=True)), "O20.2"),
    ],
)
def test_pieces_that_cannot_fire_O20(piece, rule):
    with pytest.raises(RuleError) as err:
        fp_of(piece)
    assert err.value.rule == rule


def test_wire_units_fire_only_with_their_own_hex_F106_3():
    a, b = shooter(hex="W", wire=True), Piece(squad("B"), 2, hex="X")
    with pytest.raises(RuleError) as err:
        fp_of(a, b)
    assert err.value.rule == "F106.3"
    assert fp_of(a, Piece(squad("C"), 2, hex="W", wire=True)) == 4 + 1


def test_empty_target_hex_no_fire_O20_3():
    with pytest.raises(RuleError) as err:
        fire_power(attack=Attack((shooter(),), Target(())))
    assert err.value.rule == "O20.3"


def test_flamethrower_cover_zero_and_molotov_single_use_11_6():
    ft = Piece(squad("Pioneers"), 1, Weapon("Flamethrower", WeaponKind.FLAMETHROWER, 6, 1))
    bunker = HexCover(Terrain.BUILDING, fortification=Fortification.BUNKER)
    out = fire_attack(
        attack=Attack((ft,), target(squad("US", morale=7), ground=bunker)),
        dice=EnteredDice([(3, 4), (3, 3)]),
    )
    assert out.defense.units[0].morale == 7
    molotov = Piece(squad("Rifle"), 1, Weapon("Molotov", WeaponKind.MOLOTOV, 4, 1))
    attack = attack_roll(attack=Attack((molotov,), target(squad("US"))), dice=EnteredDice([(3, 4)]))
    assert attack.weapons_eliminated == ("Molotov",)


@pytest.mark.parametrize(
    ("state", "moving", "result"),
    [
        ({}, False, Outcome.SUPPRESSED),
        ({}, True, Outcome.BROKEN),
        ({"broken": True}, False, Outcome.SUPPRESSED),
        ({"broken": True}, True, Outcome.ELIMINATED),
        ({"suppressed": True}, False, Outcome.SUPPRESSED),
    ],
)
def test_tie_suppresses_unless_activated_for_move_O20_3_4(state, moving, result):
    us = target(squad("US", morale=7, broken_morale=7, **state), moving=("US",) if moving else ())
    d = defend(
        attack_total=7 + 6 - state.get("suppressed", 0), target=us, dice=EnteredDice([(3, 3)])
    ).units[0]
    assert d.outcome is result
    assert d.unit.suppressed == (result is Outcome.SUPPRESSED or state.get("suppressed", False))


def test_suppressed_again_breaks_and_loses_marker_V19():
    us = target(squad("US", morale=7, suppressed=True))
    d = defend(attack_total=12, target=us, dice=EnteredDice([(3, 3)]), v19=True).units[0]
    assert d.outcome is Outcome.BROKEN and d.unit.broken and not d.unit.suppressed


def test_a_suppressed_unit_broken_by_a_lower_total_keeps_its_marker_3_2_2_V19():
    us = target(squad("US", morale=7, suppressed=True))
    d = defend(attack_total=20, target=us, dice=EnteredDice([(3, 3)]), v19=True).units[0]
    assert d.outcome is Outcome.BROKEN and d.unit.broken and d.unit.suppressed


def test_half_or_less_eliminates_PA_O27_3_4():
    us = target(squad("US", morale=3))
    d = defend(attack_total=10, target=us, dice=EnteredDice([(1, 1)]), pacific=True).units[0]
    assert d.outcome is Outcome.ELIMINATED
    d = defend(attack_total=10, target=us, dice=EnteredDice([(1, 1)])).units[0]
    assert d.outcome is Outcome.BROKEN


def test_a_leader_broken_first_gives_no_command_to_later_defenders_O20_3_4():
    sq, ldr = squad("Squad", morale=7), leader("Lt", command=2, morale=8)
    first = defend(attack_total=12, target=target(ldr, sq), dice=EnteredDice([(1, 1), (2, 2)]))
    assert first.units[0].outcome is Outcome.BROKEN
    assert first.units[1].morale == 7
    last = defend(attack_total=12, target=target(sq, ldr), dice=EnteredDice([(2, 2), (1, 1)]))
    assert last.units[0].morale == 9


def test_concealment_lowers_the_attack_total_by_the_cover_A29():
    us = target(squad("US", morale=7), ground=HexCover(Terrain.BUILDING))
    d = defend(attack_total=15, target=us, dice=EnteredDice([(2, 2)]), concealment=True)
    assert d.units[0].outcome is Outcome.NO_EFFECT  # 10 + 4 = 14 > 15 - 3


def _brute_force(fp, morale, **state):
    tally = dict.fromkeys(Outcome, 0)
    faces = list(itertools.product(range(1, 7), repeat=2))
    moving = state.pop("moving", False)
    us = target(
        squad("US", morale=morale, broken_morale=morale, **state), moving=("US",) if moving else ()
    )
    for a, d in itertools.product(faces, faces):
        out = fire_attack(attack=Attack((shooter(fp=fp),), us), dice=EnteredDice([a, d]))
        tally[out.defense.units[0].outcome] += 1
    return {k: Fraction(v, 1296) for k, v in tally.items()}


@pytest.mark.parametrize(
    ("fp", "morale", "state"),
    [(5, 7, {}), (5, 4, {"moving": True, "broken": True})],
)
def test_defense_odds_match_brute_force_O20_3_4(fp, morale, state):
    odds = defense_odds(attack_fp=fp, morale=morale, **state)
    brute = _brute_force(fp, morale, **state)
    assert {o: getattr(odds, o.value) for o in Outcome} == brute
    assert sum((odds.no_effect, odds.suppressed, odds.broken, odds.eliminated)) == 1


@pytest.mark.parametrize("dice", [SeededDice(seed=7), ServerDice()])
def test_fire_attack_with_site_dice_O20_3_3(dice):
    us = target(squad("US", morale=7), leader("Lt", morale=8))
    out = fire_attack(attack=Attack(rifle_group(), us), dice=dice)
    assert out.attack.total == 11 + out.attack.roll.value
    for d in out.defense.units:
        assert d.total == d.morale + d.roll.value
        assert d.outcome is (
            Outcome.NO_EFFECT
            if d.total > out.attack.total
            else Outcome.SUPPRESSED
            if d.total == out.attack.total
            else Outcome.BROKEN
        )


def test_fire_result_round_trip_serial():
    out = fire_attack(
        attack=Attack(rifle_group(), op_fire_k7()),
        dice=EnteredDice([(4, 1), (6, 4), (1, 1)]),
    )
    assert from_data(FireResult, to_data(out)) == out


def test_every_explanation_step_is_a_message_i18n():
    out = fire_attack(
        attack=Attack(rifle_group(), op_fire_k7(), actions=(FireAction.SUSTAINED_FIRE,)),
        dice=EnteredDice([(4, 1), (6, 4), (1, 1)]),
        trigger=Trigger.SNIPER,
    )
    assert out.explanation.steps and all(isinstance(s.text, Msg) for s in out.explanation)
    assert "Sniper!: resolve it before the Defense rolls" in str(out.explanation)

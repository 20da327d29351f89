"""A "1936" battle through the REST API: fire at vehicles with the entered R and severe d6
or server dice (T8–T10, T12, T13), vehicle assault (T14), infantry assault (T26),
bombardment (T16, T17), morale and panic (T22, T23), command (T33), fog of war (T34) and the
privacy of hidden units."""

from fractions import Fraction

import pytest

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.views.rosters.actions_m36 import M36_PLAY_ACTIONS
from rules.dice import EnteredDice
from rules.m1936.data import Faction, catalogue
from rules.m1936.fire import Band, weapon_at
from rules.m1936.vehicles import LABELS, Facing, Vehicle, VehicleOptions, fire_at_vehicle
from tests.web.m36_play_helpers import act, fire, new_battle, odds, set_up, units

pytestmark = pytest.mark.django_db


def pct(p: Fraction) -> str:
    """A probability as the previews print it."""
    return f"{float(p) * 100:.1f}%"


@pytest.fixture
def battle(user, other_user):
    b = new_battle(user, other_user)
    return b


def read(battle, **values):
    SkirmishBattle.objects.filter(pk=battle.pk).update(readings=values)


def t26_fires(client, battle, other_user, r, dice="", **kw):
    """Bob's T-26 B (AP, medium range) reacts at alice's Panzer I, front."""
    client.force_login(other_user)
    body = {"firer": "1", "target": "2", "band": "media", "performance": r, "reaction": True}
    if dice is not None:
        body.update(dice_mode="entered", dice=dice)
    return fire(client, battle, **{**body, **kw})


def test_T8_M36_VI_3_t26_penetrates_panzer_front_no_effect(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    r = t26_fires(client, battle, other_user, 0)
    assert r.status_code == 200, r.json()
    panzer = units(battle, 0)["2"]
    # penetrating: DF 2 < PE 3 after the −1: no effect, crew suppression 1, −1 PE
    assert (panzer["pe"], panzer["suppression"], panzer["morale"]) == (3, 1, 9)
    assert panzer["state"] == "Normal" and panzer["flags"] == []
    assert units(battle, 1)["1"]["reacted"] is True


def test_T9_M36_VI_3_pe_loss_before_compare_destroys(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    assert t26_fires(client, battle, other_user, 2).status_code == 200
    panzer = units(battle, 0)["2"]
    assert (panzer["state"], "destroyed" in panzer["flags"]) == ("Destroyed", True)


def test_T12_M36_VI_3_2_severe_result_applied_with_entered_d6(client, user, other_user, battle):
    read(battle, vehicle_pe_loss_before_compare=False)
    set_up(client, battle, user, other_user)
    r = t26_fires(client, battle, other_user, 2, dice="4")
    assert r.status_code == 200, r.json()
    panzer = units(battle, 0)["2"]
    # 1d6 4 + D 1 + R 2 = 7: controllable fire, crew suppression 1 + 4, PE 4 − 1 − 1
    assert panzer["flags"] == ["controllable_fire"]
    assert (panzer["pe"], panzer["suppression"], panzer["morale"]) == (2, 5, 5)
    e = SkirmishEvent.objects.filter(battle=battle, rule="M36-VI.3").get()
    assert [x["value"] for x in e.data["rolls"]] == [4]


def test_T12_M36_VI_3_2_severe_d6_missing_or_extra_is_a_400(client, user, other_user, battle):
    read(battle, vehicle_pe_loss_before_compare=False)
    set_up(client, battle, user, other_user)
    before = units(battle, 0)
    r = t26_fires(client, battle, other_user, 2, dice="")
    assert r.status_code == 400 and "dice" in r.json()
    r = t26_fires(client, battle, other_user, 0, dice="3")
    assert r.status_code == 400 and "dice" in r.json()
    assert units(battle, 0) == before


def test_T12_M36_VI_3_2_severe_with_server_dice(client, user, other_user, battle):
    read(battle, vehicle_pe_loss_before_compare=False)
    set_up(client, battle, user, other_user)
    r = t26_fires(client, battle, other_user, 2, dice=None)
    assert r.status_code == 200, r.json()
    e = SkirmishEvent.objects.filter(battle=battle, rule="M36-VI.3").get()
    (roll,) = e.data["rolls"]
    panzer = units(battle, 0)["2"]
    total = roll["value"] + 3
    expected = {4: "turret_jammed", 5: "main_gun_out", 6: "immobilised", 7: "controllable_fire"}
    if total in expected:
        assert panzer["flags"] == [expected[total]]
    elif total >= 9:
        assert panzer["state"] == "Destroyed"
    else:
        assert panzer["state"] == "Out of action"  # 8: crew incapacitated


def test_T10_M36_VI_3_line_section_bounces_off_panzer_side(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(other_user)
    r = fire(client, battle, firer="0", target="2", performance=1, facing="lateral", reaction=True)
    assert r.status_code == 200, r.json()
    panzer = units(battle, 0)["2"]
    assert (panzer["pe"], panzer["morale"], panzer["fired_upon"]) == (4, 10, True)


def test_vehicle_fire_preview_gives_the_exact_odds(client, user, other_user, battle):
    read(battle, vehicle_pe_loss_before_compare=False)
    set_up(client, battle, user, other_user)
    t26 = catalogue().profile(Faction.REPUBLICANOS, "T-26 B")
    panzer = catalogue().profile(Faction.NACIONALES, "Panzer I Ausf A/B")

    client.force_login(other_user)
    body = {"firer": "1", "target": "2", "band": "media", "bases": 1, "performance": 2}
    preview = odds(client, battle, "m36fire", {**body, "facing": "frente"})
    # brute force: each face of the severe d6 fired through the service's own numbers
    counts = {}
    for face in range(1, 7):
        hit = fire_at_vehicle(
            weapon=weapon_at(t26.stats, Band.MEDIUM, rules=t26.rules, name="T-26 B"),
            vehicle=Vehicle.from_stats("Panzer", panzer.stats, panzer.rules),
            facing=Facing.FRONT,
            performance=2,
            dice=EnteredDice([face]),
            options=VehicleOptions(pe_loss_before_compare=False),
        )
        key = say(LABELS[hit.severe_result])
        counts[key] = counts.get(key, 0) + 1
    assert dict(preview) == {k: pct(Fraction(n, 6)) for k, n in counts.items()}
    assert len(counts) == 6
    client.force_login(user)
    body = {"firer": "0", "target": "0", "band": "corta", "bases": 3, "performance": 0}
    table = odds(client, battle, "m36fire", {**body, "cover": "Trinchera"})
    assert table[0][0] == "R -3" and len(table) == 7


def test_T14_M36_X_explosives_destroy_the_panzer_from_the_rear(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    for who in (user, other_user):  # to the defence phase
        client.force_login(who)
    assert act(client, battle, "m36phase").status_code == 200
    client.force_login(other_user)
    body = {
        "unit": "3",
        "target": "2",
        "bases": 1,
        "at_weapon": "Explosivos",
        "facing": "trasera",
        "performance": 0,
        "in_command": True,
        "dice_mode": "entered",
        "dice": "",
    }
    odds = client.post(
        f"/api/v1/skirmishes/{battle.pk}/odds/m36vehicle_assault/",
        body,
        content_type="application/json",
    )
    assert odds.json()["lines"] == [{"label": say(LABELS["destroyed"]), "value": "100.0%"}]
    r = act(client, battle, "m36vehicle_assault", body)
    assert r.status_code == 200, r.json()
    assert units(battle, 0)["2"]["state"] == "Destroyed"
    assert units(battle, 1)["3"]["acted"] is True


def test_T26_M36_IX_assault_applies_both_results(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    body = {
        "unit": "0",
        "target": "0",
        "bases": 3,
        "target_bases": 2,
        "performance": 1,
        "target_performance": 0,
        "in_command": True,
    }
    r = act(client, battle, "m36assault", body)
    assert r.status_code == 200, r.json()
    # on bob: 5 + 1 + 3 − 2 = 7, casualties 3 capped at 2 bases; on alice: 5 + 0 + 2 − 3 = 4
    mine, theirs = units(battle, 0)["0"], units(battle, 1)["0"]
    # bob's section: 2 casualties (decimated, max 7), 7 suppression → morale 0, Panicked,
    # +1 casualty deserting: all 3 bases lost, destroyed (XI.2, XI.8)
    assert (theirs["casualties"], theirs["state"]) == (3, "Destroyed")
    assert (mine["casualties"], mine["suppression"], mine["state"]) == (2, 4, "Pinned")
    assert mine["acted"] is True


def bombard(client, battle, **kw):
    body = {
        "piece": "3",
        "pieces": 2,
        "template": "mediana-1",
        "distance": "short",
        "performance": 0,
        "enemy_targets": ["0"],
        "dice_mode": "entered",
        "dice": "2 3 4",
        **kw,
    }
    return act(client, battle, "m36bombard", body)


def test_T16_M36_VII_5_section_in_open_bombarded(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    r = bombard(client, battle)
    assert r.status_code == 200, r.json()
    # Bombardeo 4 + R 0 = 4: suppression 5, casualties 2 capped by the template's 1
    target = units(battle, 1)["0"]
    assert (target["casualties"], target["morale"]) == (1, 10 - 1 - 5)
    e = SkirmishEvent.objects.filter(battle=battle, rule="M36-VII").get()
    assert [x["value"] for x in e.data["rolls"]] == [9]
    # Munición(2): one spent; the piece has acted this turn
    assert SkirmishBattle.objects.get(pk=battle.pk).play["ammo"] == {"0:3": 1}
    assert units(battle, 0)["3"]["acted"] is True
    r = bombard(client, battle)
    assert r.status_code == 400 and "already acted" in str(r.json()["piece"])


def test_T17_M36_VII_5_bombardment_in_a_house(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    r = bombard(client, battle, performance=-1, cover="Casa", template="pequeña-2")
    assert r.status_code == 200, r.json()
    # P 5 − 1 = 4 ≥ Blindaje 3 of a Casa: penetrated, FA 4 − 1 = 3: suppression 4, cas. 1
    target = units(battle, 1)["0"]
    assert (target["casualties"], target["suppression"]) == (1, 4)


def test_bombardment_template_not_allowed_is_a_400(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    before = units(battle, 1)
    r = bombard(client, battle, pieces=1, template="mediana-1")
    assert r.status_code == 400 and "template" in r.json()
    r = bombard(client, battle, piece="0")
    assert r.status_code == 400 and "piece" in r.json()
    assert units(battle, 1) == before


def to_phase(client, battle, who, phase):
    client.force_login(who)
    while SkirmishBattle.objects.get(pk=battle.pk).play["phase"] != phase:
        r = act(client, battle, "m36phase")
        assert r.status_code == 200, r.json()


def recover(client, battle, who, **kw):
    client.force_login(who)
    return act(client, battle, "m36recover", kw)


def test_initiative_tie_with_entered_d10_and_the_phases(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    body = {"total_a": 7, "total_b": 7, "dice_mode": "entered", "dice": "4; 4; 2; 9"}
    r = act(client, battle, "m36initiative", body)
    assert r.status_code == 200, r.json()
    b = SkirmishBattle.objects.get(pk=battle.pk)
    assert b.play["initiative"] == {"1": 1}
    assert act(client, battle, "m36initiative", body).status_code == 400  # once a turn
    to_phase(client, battle, user, "end")
    assert act(client, battle, "m36phase").status_code == 400  # recovery first
    assert recover(client, battle, user).status_code == 200
    assert recover(client, battle, user).status_code == 400
    assert recover(client, battle, other_user).status_code == 200
    assert act(client, battle, "m36phase").status_code == 200
    b = SkirmishBattle.objects.get(pk=battle.pk)
    assert (b.play["turn"], b.play["phase"]) == (2, "attack")


def test_initiative_server_dice_and_odds(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    r = act(client, battle, "m36initiative", {"total_a": 5, "total_b": 5})
    assert r.status_code == 200, r.json()
    assert SkirmishBattle.objects.get(pk=battle.pk).play["initiative"]["1"] in (0, 1)
    preview = odds(client, battle, "m36initiative", {"total_a": 5, "total_b": 5})
    # brute force: over the 100 pairs of d10, re-rolling the 10 ties, A wins 45 of 90
    wins = sum(1 for a in range(1, 11) for b in range(1, 11) if a > b)
    ties = sum(1 for a in range(1, 11) for b in range(1, 11) if a == b)
    assert [v for _k, v in preview] == [pct(Fraction(wins, 100 - ties))] * 2


def test_T22_M36_XI_1_pinned_then_recovers_next_quiet_turn(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    # FA 5 + 1 − 2 (Trinchera not penetrated, P 2 + 1 < 8) = 4; 1 base: 1 casualty
    r = fire(client, battle, firer="0", target="0", bases=1, performance=1, cover="Trinchera")
    assert r.status_code == 200
    section = units(battle, 1)["0"]
    assert (section["morale"], section["suppression"], section["state"]) == (5, 4, "Normal")
    to_phase(client, battle, user, "end")
    recover(client, battle, user)
    recover(client, battle, other_user)
    assert units(battle, 1)["0"]["suppression"] == 4  # fired upon this turn: stays
    act(client, battle, "m36phase")
    to_phase(client, battle, user, "end")
    recover(client, battle, user)
    assert recover(client, battle, other_user).status_code == 200
    section = units(battle, 1)["0"]
    assert (section["morale"], section["suppression"], section["state"]) == (9, 0, "Normal")


def test_T23_M36_XI_2_panic_spreads_to_the_friends_named(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    r = fire(
        client,
        battle,
        firer="0",
        target="0",
        bases=1,
        performance=6,
        panic_friends=["2", "3"],
    )
    assert r.status_code == 200, r.json()
    # FA 11: 1 casualty (1 base fired), 11 suppression → morale 0, Panicked, +1 casualty
    section = units(battle, 1)["0"]
    assert (section["state"], section["casualties"], section["morale"]) == ("Panicked", 2, 0)
    friends = units(battle, 1)
    assert (friends["2"]["morale"], friends["3"]["morale"]) == (9, 9)
    assert friends["1"]["morale"] == 10  # the T-26 was not named


def test_T33_M36_V_2_command_check_follows_the_reading(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)

    def check(**body):
        r = act(client, battle, "m36command", {"unit": "0", "officer": "1", **body})
        assert r.status_code == 200, r.json()
        e = SkirmishEvent.objects.filter(battle=battle, rule="M36-V.2").order_by("-seq").first()
        assert e.private_to.index == 0
        return e.data["in_command"]

    # unit numbers on the form: 1 the line section, 2 the Oficial (Líder(2), no Mando)
    assert check(distances="1: 10") is False  # the literal reading: only Mando commands
    read(battle, command_command_rules="mando_or_lider")
    assert check(distances="1: 10") is True
    assert check(distances="1: 25") is False
    # a chain: the officer's own base is in his area, 15 cm from the section
    assert check(distances="1: 25, 2: 0", links="2-1: 15") is True
    assert check(distances="1: 25, 2: 0", links="2-1: 20") is False  # links under 20 cm
    r = act(client, battle, "m36command", {"unit": "0", "officer": "1", "links": "2-x"})
    assert r.status_code == 400 and "links" in r.json()


def test_orders_prolonged_to_ground_and_retreat(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    order = lambda unit, o, **kw: act(  # noqa: E731
        client, battle, "m36order", {"unit": unit, "order": o, "in_command": True, **kw}
    )
    assert order("0", "Reorganización").status_code == 200
    section = units(battle, 0)["0"]
    assert (section["prolonged"], section["acted"]) == ("Reorganización", True)
    assert order("0", "move").status_code == 400
    client.force_login(other_user)
    assert order("0", "cuerpo_a_tierra").status_code == 200
    assert units(battle, 1)["0"]["prone"] is True
    assert order("0", "retreat").status_code == 400  # Normal, and not its phase
    r = order("0", "fly")
    assert r.status_code == 400 and "order" in r.json()


def test_unit_correction_by_its_owner(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    r = act(client, battle, "m36unit_correct", {"unit": "0", "morale": 3, "reason": ""})
    assert r.status_code == 400 and "reason" in r.json()
    r = act(
        client,
        battle,
        "m36unit_correct",
        {"unit": "0", "morale": 3, "reason": "we forgot a hit"},
    )
    assert r.status_code == 200, r.json()
    section = units(battle, 0)["0"]
    assert (section["morale"], section["state"]) == (3, "Pinned")
    e = SkirmishEvent.objects.filter(battle=battle, kind="correction").get()
    assert "we forgot a hit" in e.summary
    r = act(client, battle, "m36unit_correct", {"unit": "0", "state": "Normal", "reason": "x"})
    assert r.status_code == 400  # Normal with morale 3 is not a consistent status


def test_air_attack_needs_flying_weather(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    body = {"target": "0", "suppression": 2, "casualties": 1, "concealed": True}
    r = act(client, battle, "m36air", body)
    assert r.status_code == 400 and "target" in r.json()
    assert (
        act(
            client, battle, "weather", {"season": "Verano", "dice_mode": "entered", "dice": "7"}
        ).status_code
        == 200
    )
    r = act(client, battle, "m36air", body)
    assert r.status_code == 200, r.json()
    assert units(battle, 1)["0"]["casualties"] == 1
    e = SkirmishEvent.objects.filter(battle=battle, rule="M36-XIII").get()
    assert any(s["rule"] == "M36-XVI.3" and s["value"] == -1 for s in e.data["explanation"])


GARBAGE = ({}, "x", -999, 10**9, ["9", "x"], {"a": 1}, True, None, "1: x", "99: 3")


@pytest.mark.parametrize("name", sorted(M36_PLAY_ACTIONS))
def test_m36_actions_refuse_garbage_with_a_400(client, user, other_user, battle, name):
    set_up(client, battle, user, other_user, bob_tokens="4: 7")
    form = M36_PLAY_ACTIONS[name].form
    fields = list(form.form_class.base_fields) if form else []
    client.force_login(user)
    for value in GARBAGE:
        body = {} if value == {} else dict.fromkeys(fields, value)
        if name == "m36phase":
            continue
        before = (units(battle, 0), units(battle, 1))
        r = act(client, battle, name, body)
        assert r.status_code in (200, 400), (name, value, r.content)
        if r.status_code == 400:
            assert (units(battle, 0), units(battle, 1)) == before


def test_T13_M36_X_2_severe_result_applied_to_the_vehicle(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    to_phase(client, battle, user, "defence")
    client.force_login(other_user)
    body = {
        "unit": "3",
        "target": "2",
        "bases": 1,
        "at_weapon": "Explosivos",
        "facing": "frente",
        "performance": -1,
        "in_command": True,
        "dice_mode": "entered",
        "dice": "2",
    }
    r = act(client, battle, "m36vehicle_assault", body)
    assert r.status_code == 200, r.json()
    # P 18 ≥ 6 penetrates; D 3 − 1 = 2, ×2 = 4 against PE 3: severe, 1d6 2 + 2 = 4 on the
    # X table: turret jammed, −1 PE (and −1 for penetrating), crew suppression 1
    panzer = units(battle, 0)["2"]
    assert (panzer["flags"], panzer["pe"], panzer["suppression"]) == (["turret_jammed"], 2, 1)


def test_T25_M36_XI_8_decimated_unit_fires_with_half_fa(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    # FA 5 + R −1 = 4 from 2 bases: 2 casualties of 3, decimated (max morale 7), Pinned
    r = fire(client, battle, firer="0", target="0", bases=2, performance=-1)
    assert r.status_code == 200
    assert units(battle, 1)["0"]["decimated"] is True
    for _turn in range(2):  # fired upon in turn 1; suppression back after quiet turn 2
        to_phase(client, battle, user, "end")
        recover(client, battle, user)
        recover(client, battle, other_user)
        client.force_login(user)
        act(client, battle, "m36phase")
    section = units(battle, 1)["0"]
    assert (section["morale"], section["state"]) == (7, "Normal")
    client.force_login(other_user)  # FA 5 halved to 2, R 0: suppression 2, 1 casualty
    r = fire(client, battle, firer="0", target="0", reaction=True)
    assert r.status_code == 200, r.json()
    section = units(battle, 0)["0"]
    assert (section["suppression"], section["casualties"]) == (2, 1)


def test_bombardment_and_assault_previews(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    body = {"piece": "3", "pieces": 2, "template": "pequeña-1", "distance": "short"}
    preview = odds(client, battle, "m36bombard", {**body, "performance": 0})
    # two Schneider 75: 2 × D 3 = 6, templates up to mediana-1; Dispersión Constante 3d6
    assert preview[0][1] == "pequeña-1, pequeña-2, mediana-1"
    faces = range(1, 7)
    sums = [a + b + c for a in faces for b in faces for c in faces]
    brute = {cm: pct(Fraction(sums.count(cm), 216)) for cm in sorted(set(sums))}
    assert dict(preview[1:]) == {f"{cm} cm": p for cm, p in brute.items()}
    lines = odds(
        client,
        battle,
        "m36assault",
        {
            "unit": "0",
            "target": "0",
            "bases": 3,
            "target_bases": 2,
            "performance": 1,
            "target_performance": 0,
        },
    )
    assert lines == [
        ("1. Sección Infantería de Línea", "FA 7: suppression 7, casualties 2"),
        ("1. Sección Infantería de Línea", "FA 4: suppression 4, casualties 2"),
    ]


def test_prolonged_observation_regroup_and_retreat(client, user, other_user, battle):
    read(battle, command_command_rules="mando_or_lider")
    set_up(client, battle, user, other_user)
    client.force_login(user)
    order = lambda unit, o: act(  # noqa: E731
        client, battle, "m36order", {"unit": unit, "order": o, "in_command": True}
    )
    assert order("0", "Observación").status_code == 200
    r = order("0", "Reagrupamiento")  # only a Líder regroups (and it has acted)
    assert r.status_code == 400
    assert order("1", "Reagrupamiento").status_code == 200  # the Oficial has Líder(2)
    to_phase(client, battle, user, "end")
    recover(client, battle, user)
    recover(client, battle, other_user)
    section = units(battle, 0)["0"]
    assert (section["prolonged"], section["observation_bonus"], section["acted"]) == (
        None,
        True,
        False,
    )
    client.force_login(user)
    act(client, battle, "m36phase")
    assert fire(client, battle, firer="0", target="0").status_code == 200
    assert units(battle, 0)["0"]["observation_bonus"] is False
    e = SkirmishEvent.objects.filter(battle=battle, rule="M36-VI.2").get()
    assert any(s["rule"] == "M36-V.5" for s in e.data["explanation"])
    # bob's section, Pinned, retreats voluntarily and reaches cover in his phase
    client.force_login(user)
    to_phase(client, battle, user, "defence")
    client.force_login(other_user)
    act(client, battle, "m36unit_correct", {"unit": "0", "morale": 4, "reason": "table"})
    assert units(battle, 1)["0"]["state"] == "Pinned"
    bob_order = lambda o: act(  # noqa: E731
        client, battle, "m36order", {"unit": "0", "order": o, "in_command": True}
    )
    assert bob_order("retreat").status_code == 200
    assert units(battle, 1)["0"]["state"] == "Retreating"
    assert bob_order("end_retreat").status_code == 200
    assert units(battle, 1)["0"]["state"] == "Pinned"


def test_a_hidden_unit_does_not_assault_or_bombard(client, user, other_user, battle):
    set_up(client, battle, user, other_user, bob_tokens="4: 7")
    to_phase(client, battle, user, "defence")
    client.force_login(other_user)
    body = {
        "unit": "3",
        "target": "0",
        "bases": 1,
        "target_bases": 1,
        "performance": 0,
        "target_performance": 0,
        "in_command": True,
    }
    r = act(client, battle, "m36assault", body)
    assert r.status_code == 400 and "token 7" in str(r.json()["unit"])

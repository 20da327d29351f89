"""A "1936" battle played on the site by the rules: set-up, initiative and phases, direct
fire through the page (T6, T7), assaults, bombardment, morale and panic, command, fog of war,
corrections, undo, privacy and the page's queries."""

import pytest

from campaigns.models import SkirmishBattle, SkirmishEvent
from tests.web.m36_play_helpers import act, fire, new_battle, set_up, units

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(user, other_user):
    return new_battle(user, other_user)


def page_post(client, battle, name, data):
    return client.post(f"/skirmishes/{battle.pk}/{name}/", data)


def test_setup_fills_statuses_and_the_turn(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    mine = units(battle, 0)
    assert [u["name"] for u in mine.values()] == [
        "1. Sección Infantería de Línea",
        "2. Oficial",
        "3. Panzer I Ausf A/B",
        "4. Schneider 75mm 1900",
    ]
    assert (mine["0"]["casualty_capacity"], mine["0"]["morale"]) == (3, 10)
    assert (mine["1"]["casualty_capacity"], mine["2"]["pe"]) == (1, 4)
    assert SkirmishBattle.objects.get(pk=battle.pk).play["phase"] == "attack"


def event(battle, **filters):
    return SkirmishEvent.objects.filter(battle=battle, **filters).order_by("-seq").first()


def test_fire_refused_before_the_other_side_sets_up(client, user, other_user, battle):
    client.force_login(user)
    assert act(client, battle, "m36setup", {"bases": "1: 3, 4: 2"}).status_code == 200
    before = SkirmishEvent.objects.filter(battle=battle).count()
    r = fire(client, battle, firer="0", target="0")
    assert r.status_code == 400
    assert "has not set up its units" in str(r.json())
    assert SkirmishEvent.objects.filter(battle=battle).count() == before


def test_setup_asks_for_the_bases_never_invents_them(client, user, battle):
    client.force_login(user)
    r = act(client, battle, "m36setup", {"bases": "4: 2"})
    assert r.status_code == 400
    assert "Give the bases (casualty points) of 1. Sección" in str(r.json()["bases"])
    assert units(battle, 0) == {}


def test_T6_M36_VI_2_line_section_vs_trench_through_the_page(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    r = page_post(
        client,
        battle,
        "m36fire",
        {
            "firer": "0",
            "target": "0",
            "band": "corta",
            "bases": 3,
            "performance": 1,
            "cover": "Trinchera",
            "in_command": "on",
            "dice_mode": "server",
        },
    )
    assert r.status_code == 302
    target = units(battle, 1)["0"]
    # FA 5 + R 1 − Cobertura 2 (P 2 + 1 < Blindaje 8) = 4: suppression 4, casualties 2
    assert (target["casualties"], target["suppression"]) == (2, 4)
    # T25 (XI.8): 2 of 3 bases lost, decimated: maximum morale 10 − 3 = 7; 7 − 4 = 3 Pinned
    assert target["decimated"] is True
    assert (target["max_morale"], target["morale"], target["state"]) == (7, 3, "Pinned")
    assert units(battle, 0)["0"]["acted"] is True
    e = event(battle, rule="M36-VI.2")
    steps = [s["value"] for s in e.data["explanation"]]
    assert False in steps and 4 in steps  # cover not penetrated; FA_eff 4


def test_T7_M36_VI_2_casualties_capped_by_firing_bases_through_the_page(
    client, user, other_user, battle
):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    data = {
        "firer": "0",
        "target": "0",
        "band": "corta",
        "bases": 1,
        "performance": 0,
        "flags": ["prone"],
        "in_command": "on",
        "dice_mode": "server",
    }
    assert page_post(client, battle, "m36fire", data).status_code == 302
    target = units(battle, 1)["0"]
    # FA 5 − 1 (prone) = 4: suppression 4, casualties 2 capped at the 1 base that fired
    assert (target["casualties"], target["suppression"], target["morale"]) == (1, 4, 5)


def test_fire_refused_out_of_phase_and_twice(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(other_user)  # the defender does not act in the attack phase
    r = fire(client, battle, firer="0", target="0")
    assert r.status_code == 400 and "M36-V.3" in str(r.json()["firer"])
    client.force_login(user)
    r = fire(client, battle, firer="0", target="0", in_command=False)
    assert r.status_code == 400 and "M36-V.2" in str(r.json()["firer"])
    assert fire(client, battle, firer="0", target="0").status_code == 200
    r = fire(client, battle, firer="0", target="0")
    assert r.status_code == 400 and "already acted" in str(r.json()["firer"])
    client.force_login(other_user)  # but it may react, once
    assert fire(client, battle, firer="0", target="0", reaction=True).status_code == 200
    assert units(battle, 1)["0"]["reacted"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"firer": "9", "target": "0"}, "firer"),
        ({"firer": "0", "target": "0", "band": "lejos"}, "band"),
        ({"firer": "0", "target": "0", "performance": "x"}, "performance"),
        ({"firer": "0", "target": "0", "bases": 0}, "bases"),
        ({"firer": "0", "target": "0", "cover": "Castillo"}, "cover"),
        ({"firer": "1", "target": "0", "band": "larga"}, "band"),
        ({"firer": "0", "target": "0", "ammo": "HE"}, "band"),
    ],
)
def test_bad_fire_input_is_a_400_naming_the_field(client, user, other_user, battle, body, field):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    before = (units(battle, 0), units(battle, 1), SkirmishEvent.objects.count())
    r = fire(client, battle, **body)
    assert r.status_code == 400
    assert field in r.json()
    assert (units(battle, 0), units(battle, 1), SkirmishEvent.objects.count()) == before


def test_undo_puts_a_fire_result_back(client, user, other_user, battle):
    set_up(client, battle, user, other_user)
    client.force_login(user)
    before = units(battle, 1)
    assert fire(client, battle, firer="0", target="0", performance=2).status_code == 200
    assert units(battle, 1) != before
    r = act(client, battle, "undo", {})
    assert r.status_code == 200, r.json()
    assert units(battle, 1) == before
    assert units(battle, 0)["0"]["acted"] is False


HIDDEN = "Sección de Zapadores"


def hidden_battle(client, user, other_user, battle):
    """Bob's Zapadores (unit 4) under token 7, and a decoy 3."""
    set_up(client, battle, user, other_user, bob_tokens="4: 7", bob_decoys="3")


def test_privacy_of_a_hidden_unit(client, user, other_user, battle):
    from campaigns.rosters.forms import FireForm
    from campaigns.selectors.skirmish_m36 import m36_summary

    hidden_battle(client, user, other_user, battle)
    client.force_login(user)
    r = fire(client, battle, firer="0", target="3")
    assert r.status_code == 400 and HIDDEN not in str(r.json())
    log = client.get(f"/api/v1/skirmishes/{battle.pk}/log/")
    assert log.status_code == 200 and HIDDEN not in log.content.decode()
    page = client.get(f"/skirmishes/{battle.pk}/")
    assert page.status_code == 200
    assert HIDDEN not in page.content.decode().split("battle-log")[-1]
    sides = list(battle.sides.all())
    alice, bob = sides
    summary = m36_summary(battle, sides, alice)
    row = summary["sides"][1]["units"][3]
    assert row == {"key": "3", "name": "Token 7", "state": "", "detail": ""}
    assert HIDDEN not in str(summary)
    assert HIDDEN in str(m36_summary(battle, sides, bob))  # its owner sees it
    form = FireForm(battle=battle, me=alice)
    assert ("3", "Token 7") in form.fields["target"].choices
    # the owner's log keeps the token's unit, privately
    client.force_login(other_user)
    assert HIDDEN in client.get(f"/api/v1/skirmishes/{battle.pk}/log/").content.decode()


def test_T34_M36_XIV_4_end_of_turn_check_reveals_a_token(client, user, other_user, battle):
    hidden_battle(client, user, other_user, battle)
    client.force_login(user)
    body = {
        "whose": "theirs",
        "token": 7,
        "observer": "0",
        "in_los": True,
        "square_has_cover": True,
        "squares_away": 4,
    }
    r = act(client, battle, "m36reveal", body)
    assert r.status_code == 400 and "token" in r.json()  # only at the end of the turn
    client.force_login(user)
    for _ in range(2):
        act(client, battle, "m36phase")
    r = act(client, battle, "m36reveal", body)  # wood, 4 squares away: stays hidden
    assert r.status_code == 200
    assert units(battle, 1)["3"]["revealed"] is False
    r = act(client, battle, "m36reveal", {**body, "square_has_cover": False})
    assert r.status_code == 200
    assert units(battle, 1)["3"]["revealed"] is True
    e = event(battle, rule="M36-XIV.4")
    assert e.summary == "Token 7 revealed: 4. Sección de Zapadores"


def test_owner_reveals_a_decoy_and_bombardment_reveals_the_square(client, user, other_user, battle):
    hidden_battle(client, user, other_user, battle)
    client.force_login(other_user)
    r = act(client, battle, "m36reveal", {"whose": "mine", "token": 3})
    assert r.status_code == 200, r.json()
    assert SkirmishBattle.objects.get(pk=battle.pk).play["decoys"]["1"] == []
    assert act(client, battle, "m36reveal", {"whose": "mine", "token": 3}).status_code == 400
    client.force_login(user)
    body = {
        "piece": "3",
        "pieces": 2,
        "template": "pequeña-1",
        "distance": "short",
        "performance": 0,
        "enemy_targets": ["3"],
        "dice_mode": "entered",
        "dice": "1 1 1",
    }
    r = act(client, battle, "m36bombard", body)
    assert r.status_code == 200, r.json()
    zapadores = units(battle, 1)["3"]
    assert zapadores["revealed"] is True and zapadores["casualties"] == 1


def test_battle_page_queries_are_bounded(
    client, user, other_user, battle, django_assert_max_num_queries
):
    hidden_battle(client, user, other_user, battle)
    client.force_login(user)
    fire(client, battle, firer="0", target="0")
    with django_assert_max_num_queries(40):
        assert client.get(f"/skirmishes/{battle.pk}/").status_code == 200
    from campaigns.views.rosters.actions_m36 import m36_play_forms

    battle.refresh_from_db()
    me = battle.sides.get(index=0)
    with django_assert_max_num_queries(1):
        forms = m36_play_forms(None, battle, me)
    assert "m36fire" in forms and "m36recover" not in forms
    with django_assert_max_num_queries(3):
        for form in forms.values():
            form.as_p()


def test_m36_summary_shape(client, user, other_user, battle):
    from campaigns.selectors.skirmish_m36 import m36_summary

    sides = list(battle.sides.all())
    assert m36_summary(battle, sides, sides[0])["turn"] is None
    set_up(client, battle, user, other_user)
    client.force_login(user)
    fire(client, battle, firer="0", target="0", performance=1, cover="Trinchera")
    battle.refresh_from_db()
    sides = list(battle.sides.all())
    s = m36_summary(battle, sides, sides[0])
    assert (s["turn"], s["phase"], s["acting"], s["acting_player"]) == (
        1,
        "Attack phase",
        0,
        "alice",
    )
    assert s["now"][0].startswith("Attack phase: the attacker's units act")
    bob = s["sides"][1]
    assert (bob["score_label"], bob["score"], bob["points"]) == (
        "Battalion morale",
        "0 of 4 out (broken at 3)",
        "4 fit",
    )
    assert bob["units"][0]["state"] == "Pinned"
    assert "morale 3/7" in bob["units"][0]["detail"]
    assert "casualties 2/3" in bob["units"][0]["detail"]
    assert "PE 4/4" in bob["units"][1]["detail"]


def test_the_in_battle_forms_render(client, user, other_user, battle, rf):
    from django.template.loader import render_to_string

    from campaigns.views.rosters.actions_m36 import m36_play_forms

    battle.refresh_from_db()
    me = battle.sides.get(index=0)
    request = rf.get("/")
    request.user = user
    html = render_to_string(
        "rosters/_m36_play.html",
        {"battle": battle, "forms": m36_play_forms(request, battle, me), "me": me},
        request=request,
    )
    assert f'action="/skirmishes/{battle.pk}/m36setup/"' in html
    hidden_battle(client, user, other_user, battle)
    battle.refresh_from_db()
    me = battle.sides.get(index=0)
    forms = m36_play_forms(request, battle, me)
    for name, form in forms.items():
        form.auto_id = f"id_{name}_%s"
    html = render_to_string(
        "rosters/_m36_play.html", {"battle": battle, "forms": forms, "me": me}, request=request
    )
    assert "Token 7" in html and HIDDEN not in html
    assert "/m36fire/" in html and "/m36phase/" in html


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"bases": "1: 3, 4: 2, 9: 3"}, "bases"),
        ({"bases": "1: 3, 4: 2", "tokens": "1: 16"}, "tokens"),
        ({"bases": "1: 3, 4: 2", "tokens": "1: 5, 2: 5"}, "tokens"),
        ({"bases": "1: 3, 4: 2", "tokens": "1: 5", "decoys": "5"}, "tokens"),
        ({"bases": "1: 0, 4: 2"}, "bases"),
        ({"bases": "1: three"}, "bases"),
    ],
)
def test_bad_setup_is_a_400(client, user, battle, body, field):
    client.force_login(user)
    r = act(client, battle, "m36setup", body)
    assert r.status_code == 400 and field in r.json(), r.json()
    assert units(battle, 0) == {}

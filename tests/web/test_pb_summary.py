"""The top of a Parabellum battle page (`pb_summary`) and the forms shown now
(`pb_play_forms`): words for the phase and states, no sealed orders, bounded queries."""

import pytest
from django.test import Client, RequestFactory

from campaigns.models import SkirmishBattle, SkirmishSide
from campaigns.selectors.skirmish_pb import pb_summary
from campaigns.views.rosters.actions_pb import pb_play_forms
from tests.web.pb_play_helpers import Table, pb_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, user, other_user):
    battle = pb_battle(user, other_user, mode="orders")
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    return Table(client, rival, battle)


def summary(battle, index):
    battle = SkirmishBattle.objects.get(pk=battle.pk)
    sides = list(battle.sides.order_by("index"))
    return pb_summary(battle, sides, sides[index])


def forms_for(battle, user, index):
    request = RequestFactory().get("/")
    request.user = user
    battle = SkirmishBattle.objects.get(pk=battle.pk)
    return pb_play_forms(request, battle, SkirmishSide.objects.get(battle=battle, index=index))


def test_summary_words_during_an_activation(table, user):
    t = table
    t.to_activations()
    t.do(0, "pb_activate", {"soldier": "0:rifleman-1", "via": "blue"})
    t.do(0, "pb_act", {"action": "cautious", "distance_cm": "10"})
    s = summary(t.battle, 1)
    assert (s["turn"], s["phase"], s["acting"], s["acting_player"]) == (
        1,
        "activations phase",
        0,
        "alice",
    )
    assert "Activations: alice's soldiers act; bob's may react after each activation" in s["now"]
    assert "alice's Rifleman 1 is activated: 2 PA left" in s["now"]
    may = next(line for line in s["now"] if line.startswith("may still"))
    assert "shoot" in may and "cautious move" not in may
    ger = s["sides"][0]
    units = {u["key"]: u["state"] for u in ger["units"]}
    assert units["0:rifleman-1"] == "active, activated ×1"
    assert ger["points_label"] == "PO" and ger["role"] == "attacker"
    assert set(forms_for(t.battle, user, 0)) == {"pb_act"}
    assert forms_for(t.battle, user, 1) == {}


def test_sealed_orders_never_in_the_summary_nor_the_rivals_page(table, other_user):
    t = table
    t.do(0, "orders", {"priority_order": "1", "directives": ["1", "6"]})
    t.to_activations()
    for index in (0, 1):
        s = summary(t.battle, index)
        text = repr(s)
        assert "Tomar la línea" not in text and "Take the enemy line" not in text
        assert s["sides"][0]["score"] == "—"
        assert s["sides"][0]["score_label"] == "VP so far (sealed orders count at the end)"
    page = t.clients[1].get(t.battle.get_absolute_url()).text
    api = t.clients[1].get(f"/api/v1/skirmishes/{t.battle.pk}/").text
    for body in (page, api):
        assert "Your sealed orders" not in body and "independence_used" not in body


def test_simple_mode_vp_so_far_from_the_recorded_turns(client, user, other_user):
    battle = pb_battle(user, other_user)
    client.force_login(user)
    rival = Client()
    rival.force_login(other_user)
    t = Table(client, rival, battle)
    assert summary(battle, 0)["sides"][0]["score"] == "—"
    t.do(
        0,
        "turn",
        {"turn": "1", "po_0": "3", "po_1": "0", "m_0__rifleman-1": ["wholly_in_enemy_deployment"]},
    )
    s = summary(battle, 0)
    assert s["sides"][0]["score_label"] == "VP so far"
    assert s["sides"][0]["score"] != "—" and int(s["sides"][0]["score"]) > 0


def test_page_queries_do_not_grow_with_the_turn(table, django_assert_max_num_queries):
    t = table
    t.to_activations()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def page_queries():
        with CaptureQueriesContext(connection) as ctx:
            assert t.clients[0].get(t.battle.get_absolute_url()).status_code == 200
        return len(ctx.captured_queries)

    first = page_queries()
    for sid in ("rifleman-1", "rifleman-2", "rifleman-3"):
        t.do(0, "pb_activate", {"soldier": f"0:{sid}", "via": "blue"})
        t.do(0, "pb_act", {"action": "cautious", "distance_cm": "5"})
        t.do(0, "pb_end")
    assert page_queries() <= first + 2
    with django_assert_max_num_queries(4):
        summary(t.battle, 0)


def test_the_turn_template_shows_the_forms_of_the_moment(table, user):
    from django.template.loader import render_to_string

    t = table
    t.do(0, "tactical", {"turn": 1, "blue_0": 4, "blue_1": 3})
    html = render_to_string(
        "rosters/_pb_play.html", {"forms": forms_for(t.battle, user, 0), "battle": t.battle}
    )
    assert 'id="action-pb_first"' in html and "End the activation" not in html
    t.do(0, "pb_first", {"first": 0})
    t.do(0, "pb_finish")
    t.do(1, "pb_finish")
    t.do(0, "pb_first", {"first": 0})
    t.do(0, "pb_activate", {"soldier": "0:nco", "via": "blue"})
    html = render_to_string(
        "rosters/_pb_play.html", {"forms": forms_for(t.battle, user, 0), "battle": t.battle}
    )
    assert 'id="action-pb_act"' in html and "End the activation" in html
    assert 'id="action-pb_activate"' not in html

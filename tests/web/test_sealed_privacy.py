"""A sealed choice never leaks to the other side: not on a page, a partial, the log and its
filters, the battle page, the history pages, the JSON export, nor the API; not either through
an error message when the set-up stops on incomplete tables. Parabellum sealed orders stay with
their side until the battle ends.

tests/web/test_cc_pages.py and tests/web/test_rosters_battles.py check the main pages; this
file covers every other place the Russian (or the other skirmish player) can look, with one
invariant: what they see of the German choice ("Pionier" and its letter) is the same before
and after the Germans answered.
"""

import copy
import re

import pytest
from django.urls import reverse

from campaigns.exports import campaign_export
from campaigns.models import Decision, SkirmishBattle
from campaigns.services import side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, decision_answer
from campaigns.services.rosters import roster_create
from campaigns.services.skirmish import skirmish_create, skirmish_join, skirmish_orders_submit
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SECRET_MARKERS = (
    "Your sealed choice: Pionier",
    "Sealed choices revealed",
    "Germans: Pionier",
    "Pionier (costs",
)


def _without_cost(data, formation):
    broken = copy.deepcopy(data)
    for row in broken["campaign_forces"]["rows"]:
        if row["formation"] == formation:
            row["cost"] = None
    return broken


def russian_views(client, c) -> dict[str, str]:
    """Every page, partial and API answer the other side may read about the campaign."""
    pk = c.pk
    log = reverse("campaign-log", args=[pk])
    history = reverse("campaign-history", args=[pk])
    urls = [
        (c.get_absolute_url(), {}),
        (c.get_absolute_url(), HX),  # the dashboard's log partial
        (c.get_absolute_url() + "?kind=setup", HX),
        (c.get_absolute_url() + "?kind=rule", HX),
        (log, {}),
        (log + "?kind=setup", {}),
        (log + "?kind=setup", HX),
        (log + "?battle=1", {}),
        (log + "?battle=1&kind=setup", HX),
        (history, {}),
        (reverse("campaign-export", args=[pk]), {}),
        (f"/api/v1/campaign-exports/{pk}/", {}),
        (f"/api/v1/campaigns/{pk}/", {}),
        (f"/api/v1/campaigns/{pk}/log/", {}),
        (f"/api/v1/campaigns/{pk}/log/?kind=setup", {}),
        (f"/api/v1/campaigns/{pk}/decisions/", {}),
        (f"/api/v1/campaigns/{pk}/battles/", {}),
    ]
    if c.battles.filter(number=1).exists():  # made when the set-up reaches it
        urls += [
            (reverse("battle-detail", args=[pk, 1]), {}),
            (reverse("battle-detail", args=[pk, 1]) + "?partial=log", HX),
            (reverse("battle-history", args=[pk, 1]), {}),
        ]
    seen = {}
    for url, headers in urls:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        seen[url + (" [htmx]" if headers else "")] = response.content.decode()
    return seen


def pionier_count(views: dict[str, str]) -> dict[str, int]:
    return {url: body.count("Pionier") for url, body in views.items()}


def assert_nothing_sealed_shows(views: dict[str, str]) -> None:
    for url, body in views.items():
        for marker in SECRET_MARKERS:
            assert marker not in body, (url, marker)


def german_answer_hidden(client, c) -> None:
    decisions = client.get(f"/api/v1/campaigns/{c.pk}/decisions/").json()["results"]
    axis = next(d for d in decisions if d["key"] == "purchase.axis")
    assert axis["answer"] is None and axis["can_answer"] is False
    exported = client.get(f"/api/v1/campaign-exports/{c.pk}/").json()
    assert all(d["key"] != "purchase.axis" for d in exported["decisions"])
    assert "purchase.axis" not in str(exported["campaign"]["state"].get("pending", {}))


@pytest.fixture
def stalingrad(user, other_user):
    """user plays the Germans, other_user the Soviets; both secret purchases are open."""
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    cc_advance(campaign_id=c.pk, actor=user)
    assert set(c.decisions.filter(status="open").values_list("key", flat=True)) == {
        "purchase.axis",
        "purchase.allies",
    }
    return c


def test_the_german_purchase_stays_sealed_everywhere_the_russian_looks(
    client, stalingrad, user, other_user
):
    c = stalingrad
    client.force_login(other_user)
    before = pionier_count(russian_views(client, c))
    axis = Decision.objects.get(campaign=c, key="purchase.axis")
    decision_answer(decision=axis, actor=user, answer=["Pionier"])

    after = russian_views(client, c)
    assert_nothing_sealed_shows(after)
    assert pionier_count(after) == before  # only the public pool names it, as before
    assert "Germans submitted a sealed choice" in after[reverse("campaign-log", args=[c.pk])]
    german_answer_hidden(client, c)

    # the Germans see their own choice; the Russian answer then reveals both together
    client.force_login(user)
    assert "Your sealed choice: Pionier" in client.get(reverse("campaign-log", args=[c.pk])).text
    allies = Decision.objects.get(campaign=c, key="purchase.allies")
    decision_answer(decision=allies, actor=other_user, answer=["B"])
    client.force_login(other_user)
    log = client.get(reverse("campaign-log", args=[c.pk])).text
    assert "Sealed choices revealed together — Germans: Pionier; Soviets: B" in log


def test_the_russian_purchase_stays_sealed_from_the_germans_too(
    client, stalingrad, user, other_user
):
    c = stalingrad
    client.force_login(user)
    before = {
        url: body.count("Assault Engineers") for url, body in russian_views(client, c).items()
    }
    allies = Decision.objects.get(campaign=c, key="purchase.allies")
    decision_answer(decision=allies, actor=other_user, answer=["Assault Engineers"])
    after = russian_views(client, c)
    assert {url: body.count("Assault Engineers") for url, body in after.items()} == before
    for body in after.values():
        assert "Your sealed choice" not in body and "Soviets: Assault Engineers" not in body


def test_a_set_up_stopped_on_a_missing_german_cost_says_only_what_is_public(
    client, user, other_user
):
    # the tables miss the cost of a German patrol: the set-up stops before anyone chooses
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=_without_cost(STALINGRAD_DATA, "Pionier"))
    with pytest.raises(Exception, match="no cost for Pionier"):
        cc_advance(campaign_id=c.pk, actor=other_user)
    c.refresh_from_db()
    assert "no cost for Pionier" in c.stopped_reason
    assert not c.decisions.filter(key__startswith="purchase.").exists()
    client.force_login(other_user)
    views = russian_views(client, c)
    assert (
        "Waiting for the organiser to complete the campaign tables" in views[c.get_absolute_url()]
    )
    assert_nothing_sealed_shows(views)
    # the Germans read exactly the same reason: nothing in it belongs to one side
    client.force_login(user)
    german = client.get(c.get_absolute_url()).text
    assert re.findall(r"no cost for [^:]*", german) == re.findall(
        r"no cost for [^:]*", views[c.get_absolute_url()]
    )


def test_tables_broken_after_the_german_answer_never_name_his_choice(
    client, stalingrad, user, other_user, django_capture_on_commit_callbacks
):
    c = stalingrad
    client.force_login(other_user)
    before = pionier_count(russian_views(client, c))
    decision_answer(
        decision=Decision.objects.get(campaign=c, key="purchase.axis"),
        actor=user,
        answer=["Pionier"],
    )
    # the organiser removes the cost of the patrol the Germans chose, then presses Resume:
    # the rules wait for the Russian answer, so nothing runs and nothing is said
    with django_capture_on_commit_callbacks(execute=True):
        cc_tables_update(campaign=c, actor=user, data=_without_cost(STALINGRAD_DATA, "Pionier"))
        client.force_login(user)
        client.post(reverse("cc-resume", args=[c.pk]))
    c.refresh_from_db()
    assert c.stopped_reason == ""
    client.force_login(other_user)
    after = russian_views(client, c)
    assert_nothing_sealed_shows(after)
    assert pionier_count(after) == before
    german_answer_hidden(client, c)

    # the Russian answers: the set-up stops on the missing cost. The reason names the whole
    # public pool's missing costs — the same whatever the Germans chose — and both answers stay
    # sealed until the organiser fixes the tables.
    decision_answer(
        decision=Decision.objects.get(campaign=c, key="purchase.allies"),
        actor=other_user,
        answer=["B"],
    )
    c.refresh_from_db()
    assert "no cost for Pionier:" in c.stopped_reason and "Germans" not in c.stopped_reason
    stopped = russian_views(client, c)
    assert_nothing_sealed_shows(stopped)
    german_answer_hidden(client, c)
    dashboard = stopped[c.get_absolute_url()]
    assert "Waiting for the organiser to complete the campaign tables" in dashboard

    with django_capture_on_commit_callbacks(execute=True):
        cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    log = client.get(reverse("campaign-log", args=[c.pk])).text
    assert "Sealed choices revealed together — Germans: Pionier; Soviets: B" in log


def _visible_numbers(client, c) -> list[int]:
    body = client.get(f"/api/v1/campaigns/{c.pk}/log/?page_size=500").json()
    numbers = [e["number"] for e in body["results"]]
    while body["next"]:
        body = client.get(body["next"]).json()
        numbers += [e["number"] for e in body["results"]]
    return numbers


def test_log_numbers_seen_by_the_russian_have_no_gap(client, stalingrad, user, other_user):
    """The numbers people see count public entries only: the German's private entry leaves
    no gap, on the log page, in the API or in the export."""
    c = stalingrad
    decision_answer(
        decision=Decision.objects.get(campaign=c, key="purchase.axis"), actor=user, answer=["F"]
    )
    # a public entry after the private one, while the Russian purchase is still open
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    assert c.log.filter(private_to__isnull=False).exists()
    client.force_login(other_user)
    numbers = _visible_numbers(client, c)
    assert numbers == list(range(1, len(numbers) + 1))
    page = client.get(reverse("campaign-log", args=[c.pk])).text
    assert f"#{len(numbers)}<" in page and f"#{len(numbers) + 1}<" not in page
    exported = campaign_export(c)["log"]
    assert [e["seq"] for e in exported] == list(range(1, len(exported) + 1))


# --- Parabellum sealed priority orders ----------------------------------------------------------


@pytest.fixture
def orders_battle(user, other_user):
    ger = roster_create(owner=user, system="parabellum", name="Gren", squad_type="GER/grenadier")
    usa = roster_create(
        owner=other_user, system="parabellum", name="Easy", squad_type="USA/rifleman"
    )
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode="orders", title="V"
    )
    skirmish_join(battle=battle, actor=other_user, roster=usa)
    return SkirmishBattle.objects.get(pk=battle.pk)


def other_player_views(client, battle) -> dict[str, str]:
    urls = [
        (battle.get_absolute_url(), {}),
        (battle.get_absolute_url() + "?partial=log", HX),
        (reverse("roster-list"), {}),
        (f"/api/v1/skirmishes/{battle.pk}/", {}),
        (f"/api/v1/skirmishes/{battle.pk}/log/", {}),
        ("/api/v1/skirmishes/", {}),
    ]
    seen = {}
    for url, headers in urls:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        seen[url + (" [htmx]" if headers else "")] = response.content.decode()
    return seen


def test_parabellum_orders_stay_with_their_side_until_the_battle_ends(
    client, orders_battle, user, other_user
):
    battle = orders_battle
    client.force_login(other_user)
    before = other_player_views(client, battle)
    skirmish_orders_submit(battle=battle, actor=user, priority_order=3, directives=["1", "6"])
    after = other_player_views(client, battle)
    for url, body in after.items():
        assert "Your sealed orders" not in body, url
        for text in ("Tomar la línea enemiga", "priority 3", "Priority order 3"):
            assert body.count(text) == before[url].count(text), (url, text)
    for url in (f"/api/v1/skirmishes/{battle.pk}/", "/api/v1/skirmishes/"):
        data = client.get(url).json()
        rows = data.get("results", [data])
        for row in rows:
            assert row.get("orders", []) == []
            assert '"priority_order": "3"' not in str(row)
    # the other side submits: both still sealed while the battle goes on
    skirmish_orders_submit(battle=battle, actor=other_user, priority_order=2, directives=["3", "4"])
    mine = client.get(f"/api/v1/skirmishes/{battle.pk}/").json()["orders"]
    assert [o["side"] for o in mine] == [1]
    page = client.get(battle.get_absolute_url()).text
    assert page.count("Tomar la línea enemiga") == before[battle.get_absolute_url()].count(
        "Tomar la línea enemiga"
    )

"""Combat Commander campaign pages: create, dashboard, sealed choices, tables, battle, log."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.exports import campaign_export
from campaigns.models import Battle, Campaign, Decision, LogEntry
from campaigns.services import side_join
from campaigns.services._base import append_log
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA
from tests.web.test_cc_campaign_flow import _play_setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def kurgan(user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    return c


def test_create_from_the_stalingrad_template(client, user):
    client.force_login(user)
    page = client.get(reverse("cc-new", args=["stalingrad"]))
    assert "Charge for fill-ins" in page.text and "ST-C1.5.5" in page.text
    response = client.post(
        reverse("cc-new", args=["stalingrad"]),
        {"name": "Mamayev", "role": "1", "visibility": "public", "dice_mode": "server"},
        follow=True,
    )
    campaign = Campaign.objects.get(name="Mamayev")
    assert [(s.name, s.faction) for s in campaign.sides.all()] == [
        ("Germans", "axis"),
        ("Soviets", "allies"),
    ]
    assert list(campaign.sides.get(order=1).players.all()) == [user]
    assert campaign.state["position"] == "O" and campaign.tables["campaign_forces"]["rows"]
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in response.text
    assert "Set up battle 1" in response.text


def test_unknown_template_is_404(client, user):
    client.force_login(user)
    assert client.get(reverse("cc-new", args=["kursk"])).status_code == 404


def test_sealed_choice_never_reaches_the_other_side(client, kurgan, user, other_user):
    client.force_login(user)
    client.post(reverse("cc-advance", args=[kurgan.pk]))
    axis = Decision.objects.get(campaign=kurgan, key="purchase.axis")
    page = client.get(kurgan.get_absolute_url()).text
    assert f'name="d{axis.pk}-answer"' in page  # Germans may answer theirs …
    allies = Decision.objects.get(campaign=kurgan, key="purchase.allies")
    assert f'name="d{allies.pk}-answer"' not in page  # … but not the Soviets'
    client.post(
        reverse("decision-answer", args=[kurgan.pk, axis.pk]), {f"d{axis.pk}-answer": ["Pionier"]}
    )
    client.force_login(other_user)
    for url, headers in [
        (kurgan.get_absolute_url(), {}),
        (kurgan.get_absolute_url() + "?kind=setup", {"HX-Request": "true"}),
        (reverse("campaign-log", args=[kurgan.pk]), {}),
        (reverse("campaign-log", args=[kurgan.pk]) + "?kind=setup", {"HX-Request": "true"}),
        (f"/api/v1/campaigns/{kurgan.pk}/log/", {}),
        (f"/api/v1/campaigns/{kurgan.pk}/", {}),
    ]:
        body = client.get(url, headers=headers).text
        assert "Your sealed choice" not in body and '"Pionier"]' not in body, url
        assert "Germans submitted a sealed choice" in body or url.endswith(f"{kurgan.pk}/"), url
    # the Soviets answer: both are revealed together
    client.post(
        reverse("decision-answer", args=[kurgan.pk, allies.pk]), {f"d{allies.pk}-answer": ["B"]}
    )
    log = client.get(reverse("campaign-log", args=[kurgan.pk])).text
    assert "Sealed choices revealed together — Germans: Pionier; Soviets: B" in log


def test_answering_for_the_other_side_is_refused(client, kurgan, other_user):
    cc_advance(campaign_id=kurgan.pk)
    axis = Decision.objects.get(campaign=kurgan, key="purchase.axis")
    client.force_login(other_user)
    response = client.post(
        reverse("decision-answer", args=[kurgan.pk, axis.pk]),
        {f"d{axis.pk}-answer": ["C"]},
        follow=True,
    )
    assert "Only the side named by the rules" in response.text
    axis.refresh_from_db()
    assert axis.status == "open"


def test_tables_page_lists_every_problem_and_changes_nothing(client, kurgan, user):
    client.force_login(user)
    kurgan.refresh_from_db()
    before = kurgan.tables
    bad = {
        "campaign_forces": {"rows": [{"formation": "C", "side": "axis", "cost": -2}, {"side": "x"}]}
    }
    page = reverse("cc-tables", args=[kurgan.pk])
    response = client.post(page, {"action": "upload", "upload": _file(json.dumps(bad))})
    assert response.status_code == 200
    assert "Campaign Forces Table, row 1 (C), Cost: enter 0 or more" in response.text
    assert "Campaign Forces Table, row 2, Formation: fill this in" in response.text
    kurgan.refresh_from_db()
    assert kurgan.tables == before
    broken = client.post(page, {"action": "upload", "upload": _file("{not json")})
    assert "not valid JSON (line 1, column 2" in broken.text


def _file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("tables.json", text.encode(), content_type="application/json")


def test_opponent_may_read_but_not_edit_tables(client, kurgan, other_user, make_user):
    client.force_login(other_user)
    assert client.get(reverse("cc-tables", args=[kurgan.pk])).status_code == 200
    response = client.post(reverse("cc-tables", args=[kurgan.pk]), {"tables": "{}"})
    assert response.status_code == 403


def _setup_battle(kurgan, user, other_user):
    return _play_setup(kurgan, user, other_user)


def test_battle_page_events_rolls_and_result(
    client, kurgan, user, other_user, django_capture_on_commit_callbacks
):
    battle = _setup_battle(kurgan, user, other_user)
    client.force_login(user)
    page = client.get(battle.get_absolute_url())
    assert page.status_code == 200 and "Record the result" in page.text
    ev = client.post(
        reverse("battle-event", args=[kurgan.pk, 1]),
        {"category": "hero", "text": "Sgt Esser becomes a Hero"},
        headers={"HX-Request": "true"},
    )
    assert ev.text.lstrip().startswith('<ol id="battle-log"')
    assert "Hero: Sgt Esser becomes a Hero" in ev.text
    roll = client.post(
        reverse("battle-roll", args=[kurgan.pk, 1]),
        {"roll_kind": "2d6", "purpose": "Sudden Death", "entered": "13"},
        follow=True,
    )
    assert "a 2d6 roll totals 2 to 12, not 13" in roll.text
    ok = client.post(
        reverse("battle-roll", args=[kurgan.pk, 1]),
        {"roll_kind": "2d6", "purpose": "Sudden Death", "entered": "3,4"},
        headers={"HX-Request": "true"},
    )
    assert "entered 2d6 for Sudden Death: 7" in ok.text
    bad = client.post(
        reverse("battle-result", args=[kurgan.pk, 1]),
        {"winner": str(kurgan.sides.get(order=0).pk), "survivors_axis": "only-an-id"},
        follow=True,
    )
    assert "Line 1: write" in bad.text
    battle.refresh_from_db()
    assert battle.status == Battle.Status.PLAYING
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            reverse("battle-result", args=[kurgan.pk, 1]),
            {
                "winner": str(kurgan.sides.get(order=0).pk),
                "survivors_axis": "g1; Rifle squad; LMG; veteran\ng2; Rifle squad",
            },
            follow=True,
        )
    assert "Result recorded" in done.text
    battle.refresh_from_db()
    assert battle.result["survivors"]["axis"][0] == {
        "id": "g1",
        "kind": "Rifle squad",
        "weapon": "LMG",
        "veteran": True,
        "leader_of": None,
    }
    after = client.get(kurgan.get_absolute_url()).text  # the resolution ran on commit
    assert "Germans decide" in after and "[ST-C3.3]" in after  # the winner's quality choice


def test_strangers_cannot_act_on_a_battle(client, kurgan, user, other_user, make_user):
    battle = _setup_battle(kurgan, user, other_user)
    kurgan.visibility = Campaign.Visibility.PUBLIC
    kurgan.save()
    client.force_login(make_user("carol"))
    assert client.get(battle.get_absolute_url()).status_code == 200
    response = client.post(
        reverse("battle-event", args=[kurgan.pk, 1]), {"category": "hero", "text": "x"}
    )
    assert response.status_code == 404


def test_printable_sheet(client, kurgan, user, other_user):
    _setup_battle(kurgan, user, other_user)
    client.force_login(user)
    sheet = client.get(reverse("battle-sheet", args=[kurgan.pk, 1]))
    assert sheet.status_code == 200 and "data-print" in sheet.text
    assert "Map" in sheet.text and "hand" in sheet.text


def test_dashboard_and_log_query_counts_do_not_grow_with_history(
    client, kurgan, user, other_user, django_assert_max_num_queries
):
    _setup_battle(kurgan, user, other_user)
    client.force_login(user)
    with django_assert_max_num_queries(16) as small:
        client.get(kurgan.get_absolute_url())
    for i in range(150):
        append_log(kurgan, kind=LogEntry.Kind.EVENT, summary=f"filler {i}")
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(kurgan.get_absolute_url())
    with django_assert_max_num_queries(12):
        page = client.get(reverse("campaign-log", args=[kurgan.pk]) + "?kind=event")
    # one window of the newest 50, and the link to the next (older) window
    assert page.text.count('class="log-event"') == 50 and "filler 149" in page.text
    assert "filler 99" not in page.text and 'class="older"' in page.text


def test_api_decisions_hide_a_sealed_answer_from_the_other_side(kurgan, user, other_user):
    api = APIClient()
    cc_advance(campaign_id=kurgan.pk)
    axis = Decision.objects.get(campaign=kurgan, key="purchase.axis")
    api.force_authenticate(other_user)
    refused = api.post(
        f"/api/v1/campaigns/{kurgan.pk}/decisions/{axis.pk}/answer/",
        {"answer": ["C"]},
        format="json",
    )
    assert refused.status_code == 400 and "Only the side" in str(refused.json())
    api.force_authenticate(user)
    ok = api.post(
        f"/api/v1/campaigns/{kurgan.pk}/decisions/{axis.pk}/answer/",
        {"answer": ["F"]},
        format="json",
    )
    assert ok.status_code == 200 and ok.json()["answer"] == ["F"]
    bad = api.post(
        f"/api/v1/campaigns/{kurgan.pk}/decisions/{axis.pk}/answer/",
        {"answer": ["C"]},
        format="json",
    )
    assert bad.status_code == 400 and "already been answered" in str(bad.json())
    api.force_authenticate(other_user)
    rows = {
        d["key"]: d for d in api.get(f"/api/v1/campaigns/{kurgan.pk}/decisions/").json()["results"]
    }
    assert rows["purchase.axis"]["status"] == "answered" and rows["purchase.axis"]["answer"] is None
    assert rows["purchase.allies"]["can_answer"] is True
    api.force_authenticate(user)
    mine = {
        d["key"]: d for d in api.get(f"/api/v1/campaigns/{kurgan.pk}/decisions/").json()["results"]
    }
    assert mine["purchase.axis"]["answer"] == ["F"]
    battles = api.get(f"/api/v1/campaigns/{kurgan.pk}/battles/").json()
    assert battles[0]["number"] == 1 and battles[0]["status"] == "setup"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("roll_kind=2d6", ["<td>7</td><td>16.7 %</td><td>58.3 %</td>"]),
        ("roll_kind=d66", ["<td>34</td><td>2.8 %</td><td>58.3 %</td>"]),  # TCS 1.6: 21/36
        ("roll_kind=3d6&modifier=2", ["<td>19</td><td>1.4 %</td><td>1.9 %</td>"]),  # 3/216, 4/216
        ("roll_kind=banana", ["Unknown dice"]),
        ("roll_kind=2d6&modifier=x", ["Unknown dice"]),
    ],
)
def test_exact_odds_before_rolling(client, query, expected):
    body = client.get(f"/dice/odds/?{query}", headers={"HX-Request": "true"}).text
    for text in expected:
        assert text in body


def test_export_never_carries_a_sealed_answer_waiting_for_its_sibling(kurgan, user):
    cc_advance(campaign_id=kurgan.pk)
    axis = Decision.objects.get(campaign=kurgan, key="purchase.axis")
    # as when the engine could not open both at once: the answer is applied, not revealed
    Decision.objects.filter(pk=axis.pk).update(status="applied", answer=["Pionier"])
    kurgan.refresh_from_db()
    kurgan.state["pending"]["choices"]["purchase.axis"] = ["Pionier"]
    kurgan.save()
    exported = campaign_export(kurgan)
    assert "purchase.axis" not in exported["campaign"]["state"]["pending"]["choices"]
    assert all(d["key"] != "purchase.axis" for d in exported["decisions"])
    assert exported["campaign"]["state"]["pending"]["rolls"]  # the orientation roll stays


def test_organiser_corrects_a_result_from_the_battle_page(
    client, kurgan, user, other_user, django_capture_on_commit_callbacks
):
    battle = _setup_battle(kurgan, user, other_user)
    germans, soviets = kurgan.sides.order_by("order")
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("battle-result", args=[kurgan.pk, 1]), {"winner": str(germans.pk)})
    page = client.get(battle.get_absolute_url()).text
    assert "Correct the result" in page
    unconfirmed = client.post(
        reverse("battle-correct", args=[kurgan.pk, 1]),
        {"fix-winner": str(soviets.pk), "fix-reason": "misread VP"},
        follow=True,
    )
    assert "This field is required" in unconfirmed.text
    battle.refresh_from_db()
    assert battle.winner == germans
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            reverse("battle-correct", args=[kurgan.pk, 1]),
            {"fix-winner": str(soviets.pk), "fix-reason": "misread VP", "fix-confirm": "on"},
            follow=True,
        )
    assert "Result corrected" in done.text
    battle.refresh_from_db()
    assert battle.winner == soviets
    client.force_login(other_user)
    refused = client.post(
        reverse("battle-correct", args=[kurgan.pk, 1]),
        {"fix-winner": str(germans.pk), "fix-reason": "mine", "fix-confirm": "on"},
        follow=True,
    )
    assert "organiser or game master may correct" in refused.text


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("normandy", ["A1", "map 2", "German Artillery Support Points", "Command leader"]),
        ("gastadores", ["Scenario 33", "Net VP"]),
    ],
)
def test_every_template_renders_its_dashboard(client, user, template, expected):
    campaign = cc_campaign_create(creator=user, name="X", template=template, creator_side=0)
    client.force_login(user)
    page = client.get(campaign.get_absolute_url())
    assert page.status_code == 200
    for text in expected:
        assert text in page.text
    if template == "gastadores":
        assert reverse("cc-tables", args=[campaign.pk]) not in page.text
        battle = Battle.objects.get(campaign=campaign, number=1)
        form = client.get(battle.get_absolute_url()).text
        assert "How it was won" in form and "VP margin" in form

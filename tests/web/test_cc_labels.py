"""Decision options read as words on the page and in the log, never as raw keys."""

import pytest
from django.urls import reverse

from campaigns.cc.labels import option_labels
from campaigns.models import Battle, Decision
from campaigns.services.battles import battle_result_submit
from campaigns.services.cc_engine import decision_answer
from rules.cc.stalingrad import MAPS
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db


def test_quality_and_survivor_options_have_labels(
    stalingrad,  # noqa: F811
    user,
    other_user,
    client,
    django_capture_on_commit_callbacks,
):
    battle = _play_setup(stalingrad, user, other_user)
    germans = stalingrad.sides.get(order=0)
    survivors = {
        "axis": [{"id": "g1", "kind": "Rifle squad", "weapon": "LMG", "veteran": True}],
        "allies": [],
    }
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_submit(
            battle=battle, actor=user, winner=germans, details={"survivors": survivors}
        )
    assert not stalingrad.decisions.filter(key="position").exists()  # one CP: taken

    quality = stalingrad.decisions.get(key="quality", status="open")
    client.force_login(user)
    page = client.get(reverse("campaign-detail", args=[stalingrad.pk])).content.decode()
    assert "Raise your own troop quality one level" in page
    assert ">raise_own<" not in page and "lower_opponent</" not in page
    with django_capture_on_commit_callbacks(execute=True):
        decision_answer(decision=quality, actor=user, answer="none")
    assert stalingrad.log.filter(
        summary__startswith="Germans chose Leave both qualities as they are"
    ).exists()

    keep = stalingrad.decisions.get(key="reinforcements.axis", status="open")
    assert option_labels(keep) == [{"value": "g1", "label": "Rifle squad, with LMG, veteran — g1"}]
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.RESOLVING


def test_positions_yes_no_and_purchases_are_labelled(stalingrad):  # noqa: F811
    stalingrad.refresh_from_db()  # the tables with the Patrol costs
    position = Decision(campaign=stalingrad, key="position", options=["G1", "R1"])
    assert [o["label"] for o in option_labels(position)] == [
        f"Campaign Position G1 (map {MAPS['G1']})",
        f"Campaign Position R1 (map {MAPS['R1']})",
    ]
    armor = Decision(campaign=stalingrad, key="us_armor", options=[True, False])
    assert [o["label"] for o in option_labels(armor)] == ["Yes", "No"]
    purchase = Decision(campaign=stalingrad, key="purchase.axis", options=["C", "Pionier"])
    assert [o["label"] for o in option_labels(purchase)] == [
        "C (costs 2 VP)",
        "Pionier (costs 3 VP)",
    ]

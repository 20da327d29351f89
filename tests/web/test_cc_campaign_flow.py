"""A Stalingrad campaign driven through the services: set-up, sealed purchase, result."""

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import Battle, Decision, LogEntry
from campaigns.services import side_join
from campaigns.services.battles import battle_result_correct, battle_result_submit
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, decision_answer
from tests.rules.cc.campaign_helpers import NORMANDY_DATA, STALINGRAD_DATA

pytestmark = pytest.mark.django_db


@pytest.fixture
def stalingrad(user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    return c


def _open(campaign):
    return {d.key: d for d in campaign.decisions.filter(status="open")}


def test_st_c1_5_sealed_purchase_opens_for_both_sides_and_reveals_together(
    stalingrad, user, other_user
):
    cc_advance(campaign_id=stalingrad.pk, actor=user)
    decisions = _open(stalingrad)
    assert set(decisions) == {"purchase.axis", "purchase.allies"}
    assert all(d.sealed for d in decisions.values())
    germans, soviets = stalingrad.sides.order_by("order")
    assert decisions["purchase.axis"].chooser == germans
    assert decisions["purchase.allies"].chooser == soviets
    assert decisions["purchase.axis"].options == ["C", "D", "F", "Pionier"]

    with pytest.raises(ValidationError, match="Only the side"):
        decision_answer(decision=decisions["purchase.axis"], actor=other_user, answer=["C"])
    decision_answer(decision=decisions["purchase.axis"], actor=user, answer=["F"])
    public = LogEntry.objects.filter(campaign=stalingrad, private_to__isnull=True)
    assert not [e.summary for e in public if "F" in str(e.data) or ": F" in e.summary]
    assert stalingrad.log.get(private_to=germans).summary == "Your sealed choice: F (costs 3 VP)"
    with pytest.raises(ValidationError, match="already been answered"):
        decision_answer(decision=decisions["purchase.axis"], actor=user, answer=["C"])

    decision_answer(decision=decisions["purchase.allies"], actor=other_user, answer=[])
    revealed = stalingrad.log.get(summary__startswith="Sealed choices revealed")
    assert "Germans: F" in revealed.summary and "Soviets: nothing" in revealed.summary
    stalingrad.refresh_from_db()
    battle = Battle.objects.get(campaign=stalingrad, number=1)
    assert stalingrad.state["phase"] in ("support", "battle")
    assert battle.position == "O"


def _play_setup(campaign, user, other_user):
    cc_advance(campaign_id=campaign.pk, actor=user)
    for _ in range(20):
        open_ = list(campaign.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            break
        d = open_[0]
        actor = user if d.chooser is None or d.chooser.order == 0 else other_user
        if d.is_multiple:
            answer = []
        elif d.is_number:
            answer = 0
        else:
            answer = d.options[0]
        decision_answer(decision=d, actor=actor, answer=answer)
    campaign.refresh_from_db()
    return Battle.objects.get(campaign=campaign, number=campaign.state["battle"])


def test_result_is_applied_once_and_the_next_battle_waits(
    stalingrad, user, other_user, django_capture_on_commit_callbacks
):
    battle = _play_setup(stalingrad, user, other_user)
    assert battle.status == Battle.Status.PLAYING
    germans = stalingrad.sides.get(order=0)
    survivors = {
        "axis": [
            {"id": "s1", "kind": "Rifle squad", "weapon": None, "veteran": False, "leader_of": None}
        ],
        "allies": [],
    }
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        battle_result_submit(
            battle=battle, actor=user, winner=germans, details={"survivors": survivors}
        )
        battle_result_submit(
            battle=battle, actor=other_user, winner=germans, details={"survivors": survivors}
        )
    assert len(callbacks) == 1, "the resolution is scheduled once"
    assert LogEntry.objects.filter(summary__startswith="Battle 1 won").count() == 1
    with pytest.raises(ValidationError, match="already entered"):
        battle_result_submit(
            battle=battle,
            actor=user,
            winner=stalingrad.sides.get(order=1),
            details={"survivors": survivors},
        )
    # the winner's decisions (position, quality, reinforcements …) come one at a time
    for _ in range(20):
        open_ = list(stalingrad.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            break
        d = open_[0]
        actor = user if d.chooser is None or d.chooser.order == 0 else other_user
        answer = [] if d.is_multiple else (0 if d.is_number else d.options[0])
        with django_capture_on_commit_callbacks(execute=True):
            decision_answer(decision=d, actor=actor, answer=answer)
    battle.refresh_from_db()
    stalingrad.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED
    assert stalingrad.state["battle"] == 2 and stalingrad.state["phase"] == "forces"
    assert stalingrad.log.filter(rule__startswith="ST-C3").exists()
    assert not Decision.objects.filter(campaign=stalingrad, status="answered").exists()


def _answer_all(campaign, user, other_user, capture):
    for _ in range(30):
        open_ = list(campaign.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            return
        d = open_[0]
        actor = user if d.chooser is None or d.chooser.order == 0 else other_user
        answer = [] if d.is_multiple else (0 if d.is_number else d.options[0])
        with capture(execute=True):
            decision_answer(decision=d, actor=actor, answer=answer)
    raise AssertionError("the campaign kept asking")


def test_no_c3_normandy_battle_on_the_site_counts_the_win(
    user, other_user, django_capture_on_commit_callbacks
):
    c = cc_campaign_create(creator=user, name="St-Lô", template="normandy", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=NORMANDY_DATA)
    cc_advance(campaign_id=c.pk, actor=user)
    _answer_all(c, user, other_user, django_capture_on_commit_callbacks)
    battle = Battle.objects.get(campaign=c, number=1)
    assert battle.status == Battle.Status.PLAYING and battle.position == "A1"
    americans = c.sides.get(order=0)
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_submit(battle=battle, actor=user, winner=americans)
    _answer_all(c, user, other_user, django_capture_on_commit_callbacks)
    c.refresh_from_db()
    assert c.state["wins"] == {"allies": 1, "axis": 0}
    assert c.state["battle"] == 2 and c.state["position"] == "A2"  # NO-C3.3: next A position


def test_gas_campaign_three_phases_decided_on_net_vp(
    user, other_user, django_capture_on_commit_callbacks
):
    c = cc_campaign_create(creator=user, name="Cotentin", template="gastadores", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    americans, germans = c.sides.order_by("order")
    for number, winner, margin in [(1, americans, 10), (2, germans, 4), (3, americans, 6)]:
        battle = Battle.objects.get(campaign=c, number=number)
        assert battle.status == Battle.Status.PLAYING
        with django_capture_on_commit_callbacks(execute=True):
            battle_result_submit(
                battle=battle,
                actor=user,
                winner=winner,
                details={"method": "vp", "vp_margin": margin},
            )
        _answer_all(c, user, other_user, django_capture_on_commit_callbacks)
    c.refresh_from_db()
    # Phases II and III split: the higher net VP wins, 10 - 4 + 6 = 12 < 15 → narrow
    assert c.status == "finished"
    assert c.state["net_vp"] == {"allies": 12, "axis": -12}
    assert c.log.filter(summary__contains="Americans win a narrow victory").exists()


def test_correcting_a_result_replays_the_consequences_with_a_trace(
    stalingrad, user, other_user, make_user, django_capture_on_commit_callbacks
):
    battle = _play_setup(stalingrad, user, other_user)
    germans, soviets = stalingrad.sides.order_by("order")
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_submit(battle=battle, actor=user, winner=germans, details={"survivors": {}})
    _answer_all(stalingrad, user, other_user, django_capture_on_commit_callbacks)
    stalingrad.refresh_from_db()
    first_position = stalingrad.state["position"]
    assert stalingrad.state["battle"] == 2 and first_position in ("R1", "R2")  # toward Russians

    with pytest.raises(ValidationError, match="organiser or game master"):
        battle_result_correct(battle=battle, actor=other_user, winner=soviets, reason="typo")
    with pytest.raises(ValidationError, match="Say why"):
        battle_result_correct(battle=battle, actor=user, winner=soviets, reason=" ")
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_correct(
            battle=battle,
            actor=user,
            winner=soviets,
            details={"survivors": {}},
            reason="we misread the VP track",
        )
    _answer_all(stalingrad, user, other_user, django_capture_on_commit_callbacks)
    stalingrad.refresh_from_db()
    battle.refresh_from_db()
    assert battle.winner == soviets and battle.status == Battle.Status.RESOLVED
    assert stalingrad.state["battle"] == 2
    assert stalingrad.state["position"] in ("G1", "G2")  # ST-C3.2: now toward the Germans
    trace = stalingrad.log.get(kind=LogEntry.Kind.CORRECTION, battle=battle)
    assert trace.data["before"]["winner"] == "axis" and trace.data["after"]["winner"] == "allies"
    assert stalingrad.log.filter(summary__startswith="Battle 1 won by Germans").exists()

"""Campaigns played with every roll entered at the table never ask the same thing twice."""

import pytest

from campaigns.models import Battle
from campaigns.services import side_join
from campaigns.services.battles import battle_result_submit
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, decision_answer
from tests.rules.cc.campaign_helpers import NORMANDY_DATA, STALINGRAD_DATA

pytestmark = pytest.mark.django_db


def _entered(template, data, user, other_user):
    c = cc_campaign_create(
        creator=user, name="Table", template=template, creator_side=0, dice_mode="entered"
    )
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=data)
    return c


def _answer_everything(campaign, user, other_user, capture, asked):
    for _ in range(60):
        open_ = list(campaign.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            return
        d = open_[0]
        if not d.is_roll:
            assert (d.battle.number, d.key) not in asked, f"{d.key} asked twice"
            asked.add((d.battle.number, d.key))
        actor = user if d.chooser is None or d.chooser.order == 0 else other_user
        if d.is_roll:
            answer = [2, 3]
        elif d.is_multiple:
            answer = []
        elif d.is_number:
            answer = 0
        else:
            answer = d.options[0]
        with capture(execute=True):
            decision_answer(decision=d, actor=actor, answer=answer)
    raise AssertionError("the campaign kept asking")


@pytest.mark.parametrize(
    ("template", "data", "survivors"),
    [("stalingrad", STALINGRAD_DATA, {"survivors": {}}), ("normandy", NORMANDY_DATA, {})],
)
def test_entered_rolls_are_applied_once_and_the_campaign_moves_on(
    template, data, survivors, user, other_user, django_capture_on_commit_callbacks
):
    c = _entered(template, data, user, other_user)
    asked: set = set()
    for number in (1, 2):
        cc_advance(campaign_id=c.pk, actor=user)  # "Set up the next battle"
        _answer_everything(c, user, other_user, django_capture_on_commit_callbacks, asked)
        battle = Battle.objects.get(campaign=c, number=number)
        assert battle.status == Battle.Status.PLAYING
        with django_capture_on_commit_callbacks(execute=True):
            battle_result_submit(
                battle=battle, actor=user, winner=c.sides.get(order=0), details=survivors
            )
        _answer_everything(c, user, other_user, django_capture_on_commit_callbacks, asked)
        battle.refresh_from_db()
        c.refresh_from_db()
        assert battle.status == Battle.Status.RESOLVED
        assert c.state["battle"] == number + 1
    assert c.decisions.filter(roll_kind__gt="", status="applied").count() >= 2
    assert not c.decisions.filter(status="answered").exists()

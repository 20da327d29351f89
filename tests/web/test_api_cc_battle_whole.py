"""Issue 12, the whole loop through HTTP with every roll entered: a Stalingrad battle tracked
with every unit, its Fire Attacks computed from the counter table, the Defense rolls applied
to the registry, ended by Sudden Death; its winner, VP and survivors flow into the campaign's
post-battle procedure (the survivors become the choice of Reinforcements, ST-C3.4).

Every counter value here is FICTIONAL TEST DATA, not the values of any real counter."""

from __future__ import annotations

import pytest

from tests.web.test_api_cc_endpoints import client_for
from tests.web.test_api_cc_tracker import act, url
from tests.web.test_cc_battle_group import COUNTERS
from tests.web.test_cc_campaign_flow import _play_setup, stalingrad  # noqa: F401

pytestmark = pytest.mark.django_db
START = {
    "mode": "full",
    "time": 0,
    "sudden_death": 2,
    "initiative": "axis",
    "first_player": "axis",
    "postures": {"axis": "attack", "allies": "attack"},
    "surrender": {"axis": 5, "allies": 5},
}


def test_a_whole_battle_tracked_fully_through_the_api_ends_by_sudden_death_into_the_campaign(
    stalingrad,  # noqa: F811
    user,
    other_user,
    django_capture_on_commit_callbacks,
):
    battle = _play_setup(stalingrad, user, other_user)
    germans, soviets = client_for(user), client_for(other_user)
    assert germans.post(url(battle, "/start"), START, format="json").status_code == 201
    assert germans.put(url(battle, "/counters"), COUNTERS, format="json").status_code == 200
    for client, side, unit_id, name, nationality in (
        (germans, "axis", "g1", "Line Squad", "Testland"),
        (germans, "axis", "g2", "Line Squad", "Testland"),
        (soviets, "allies", "r1", "Rifle Squad", "Farland"),
        (soviets, "allies", "r2", "Rifle Squad", "Farland"),
    ):
        body = {"side": side, "unit_id": unit_id, "name": name, "kind": "squad"}
        r = act(client, battle, "register", {**body, "nationality": nationality})
        assert r.status_code == 201, r.json()

    # O20.3.1: two Line Squads (FP 5 each, the table's) fire as a group: 5 + 1 = 6; 4+1 = 11
    r = act(germans, battle, "group_fire", {"pieces": "g1; 3\ng2; 3"}, "4 1")
    assert r.status_code == 201, r.json()
    assert r.json()["action"]["shown"][0] == "Attack Total 11"
    # O20.3.4: r1 (Morale 6 from the table) rolls 1+1 = 8 < 11: broken on the registry
    r = act(soviets, battle, "unit_defense", {"attack_total": 11, "unit": "r1"}, "1 1")
    assert r.json()["action"]["shown"] == ["8: broken"], r.json()
    # again: broken r1 defends with its broken side's Morale 8: 8+2 = 10 < 11, eliminated, and
    # the Germans score its VP value from the table (2) [7.1]
    act(germans, battle, "group_fire", {"pieces": "g1; 3\ng2; 3"}, "4 1")
    r = act(soviets, battle, "unit_defense", {"attack_total": 11, "unit": "r1"}, "1 1")
    assert r.json()["action"]["shown"] == ["10: eliminated"], r.json()
    assert r.json()["tracks"]["vp_axis"] == 2

    # 6.1.2 / 6.2: space 1 is short of the SD marker; on 2 a 6+6 goes on; on 3 a 1+1 ends it
    assert act(germans, battle, "time", {"side": "axis", "cause": "trigger"}).status_code == 201
    r = act(germans, battle, "time", {"side": "axis", "cause": "trigger"}, "6 6")
    assert not r.json()["tracks"]["over"], r.json()
    r = act(soviets, battle, "time", {"side": "allies", "cause": "last_card"}, "1 1")
    tracks = r.json()["tracks"]
    assert tracks["over"] and tracks["outcome"] == "The Germans win (Sudden Death), VP marker +2."

    draft = tracks["result"]
    germans_side = stalingrad.sides.get(faction="axis")
    assert draft["winner"] == str(germans_side.pk)
    assert draft["survivors_axis"].splitlines() == ["g1; Line Squad", "g2; Line Squad"]
    assert draft["survivors_allies"] == "r2; Rifle Squad"
    with django_capture_on_commit_callbacks(execute=True):
        result = germans.post(
            f"/api/v1/campaigns/{battle.campaign_id}/battles/{battle.number}/result/",
            {k: (int(v) if k == "winner" else v) for k, v in draft.items() if k != "vp_margin"},
            format="json",
        )
    assert result.status_code == 200, result.json()
    battle.refresh_from_db()
    assert battle.winner == germans_side
    assert [u["id"] for u in battle.result["survivors"]["allies"]] == ["r2"]
    # ST-C3.3, ST-C3.4: the winner settles the quality; then the post-battle procedure offers
    # each side's survivors, as the tracks left them, as its Reinforcements (no re-typing)
    decisions = f"/api/v1/campaigns/{battle.campaign_id}/decisions/"
    quality = next(d for d in germans.get(decisions).json()["results"] if d["key"] == "quality")
    with django_capture_on_commit_callbacks(execute=True):
        answer = germans.post(
            f"{decisions}{quality['id']}/answer/", {"answer": "none"}, format="json"
        )
    assert answer.status_code == 200, answer.json()
    for client, side, survivors, kept in (
        (germans, "axis", ["g1", "g2"], ["g1"]),
        (soviets, "allies", ["r2"], ["r2"]),
    ):
        offered = {d["key"]: d for d in client.get(decisions).json()["results"]}
        choice = offered[f"reinforcements.{side}"]
        assert choice["options"] == survivors and choice["status"] == "open"
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(
                f"{decisions}{choice['id']}/answer/", {"answer": kept}, format="json"
            )
        assert answer.status_code == 200, answer.json()
    stalingrad.refresh_from_db()
    carried = stalingrad.state["reinforcements"]
    assert [u["id"] for u in carried["axis"]] == ["g1"]
    assert [u["id"] for u in carried["allies"]] == ["r2"]

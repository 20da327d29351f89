"""Artillery played through the REST API only [18.0–18.9]: batteries and ammunition entered,
a mission that scatters and one that lands a Good Shoot, both barrages attacking one hex on
the Fire Table, the target's owner applying the result (the check taken as from artillery in
the Air & Artillery Phase [17.4.l]), the volleys crossed off, and a No Shoot refunded.

Played twice: once every roll is entered, once the site rolls (its dice replaced by a script
of the same faces). FICTIONAL TEST DATA: the Fire and Morale Tables are tests/rules/tcs
fixtures; the Artillery Adjustment Table below is invented (the seed does not print it).
"""

from __future__ import annotations

import pytest

from campaigns.models.tcs import TcsUnit
from tests.rules.tcs.test_fire import CHARTS_DATA, FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.tcs_turn_fixtures import call
from tests.web.test_api_tcs_play import ScriptedDice

pytest_plugins = ["tests.web.tcs_api_fixtures"]
pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"
SHIFTS = {k: CHARTS_DATA[k] for k in ("terrain_posture", "area_range", "stacking")}
FICTIONAL_ADJUSTMENT = {
    "columns": ["≤2", "3+"],
    "rows": [
        {"rolls": "11-16", "results": ["No Shoot", "No Shoot"]},
        {"rolls": "21-36", "results": ["Scatter", "Scatter"]},
        {"rolls": "41-56", "results": ["Bad Shoot", "Good Shoot"]},
        {"rolls": "61-66", "results": ["Good Shoot", "Good Shoot"]},
    ],
}


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr("campaigns.services.tcs.common.ServerDice", ScriptedDice)
    ScriptedDice.script.clear()
    return ScriptedDice.script


def dice(mode, *rolls):
    return {"dice": "entered", "rolls": " ".join(map(str, rolls))} if mode == "entered" else {}


def setup_artillery(alice, op, germans):
    for chart, data in (
        ("morale", FICTIONAL_DATA),
        ("fire", FIRE),
        ("shifts", SHIFTS),
        ("adjustment", FICTIONAL_ADJUSTMENT),
    ):
        call(alice, "put", f"/charts/{op.pk}/", {"chart": chart, "data": data})
    for name in ("1/105", "2/105", "3/105"):
        battery = {"name": name, "calibre": "105mm", "calibre_mm": 105, "good_af": 8}
        call(
            alice,
            "post",
            f"/artillery/{germans.pk}/battery/",
            battery | {"bad_af": 4, "adjustment": 3},
            201,
        )
    # a TCS 2-0x allocation of 40 volleys: 10 battery volleys [18.2]
    stock = {"type": "he", "calibre": "105mm", "volleys": 40, "legacy": True}
    shown = call(alice, "post", f"/artillery/{germans.pk}/stock/", stock, 201)
    assert shown["panel"]["record"]["stocks"][0] | {} == {
        "type": "he",
        "calibre": "105mm",
        "initial": 10,
        "remaining": 10,
    }


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_mission_scatter_good_shoot_barrage_applied_and_no_shoot_refunded(
    op, alice, bob, scripted, mode
):
    germans, americans = op.sides.order_by("order")
    platoon = TcsUnit.objects.get(campaign=op, code="2-9/1")
    call(alice, "post", f"/operations/{op.pk}/start/")
    setup_artillery(alice, op, germans)
    call(bob, "post", f"/units/{platoon.pk}/state/", {"morale": 4})
    if mode == "server":
        scripted.extend([25, 2, 5, 46, 65, 11, 11])

    # 25 → Scatter: 1 hex (d6 2) towards 5; it fires as Bad Shoot [18.7.c]
    first = {"batteries": ["1/105"], "kind": "he", "hex": "0512"}
    scattered = call(
        alice, "post", f"/artillery/{germans.pk}/mission/", first | dice(mode, 25, 2, 5), 201
    )
    r = scattered["combat"]["result"]
    assert (r["shoot"], r["fires_as"], r["factors"]["zone_af"]) == ("scatter", "bad_shoot", 8)
    assert "1 hex" in r["hex"] and "5" in r["hex"]
    # 46 → Good Shoot: twice the printed 8 [18.5.a]
    second = {"batteries": ["2/105"], "kind": "he", "hex": "0613"}
    good = call(alice, "post", f"/artillery/{germans.pk}/mission/", second | dice(mode, 46), 201)
    assert (
        good["combat"]["result"]["fires_as"],
        good["combat"]["result"]["factors"]["zone_af"],
    ) == ("good_shoot", 16)
    # once per battery per turn [18.1.b]
    again = alice.post(
        f"{API}/artillery/{germans.pk}/mission/", second | dice(mode, 46), format="json"
    )
    assert again.status_code == 400 and "18.1.b" in again.text

    # both barrages on the hex together: AF 24 on the Fire Table [18.3 (3)]
    attack = {
        "zone": [scattered["combat"]["id"], good["combat"]["id"]],
        "targets": ["2-9/1; 5; A; move"],
        "terrain": "open",
    }
    fired = call(alice, "post", f"/artillery/{germans.pk}/attack/", attack | dice(mode, 65), 201)
    combat = fired["combat"]
    assert combat["kind"] == "artillery" and combat["status"] == "open"
    steps = combat["result"]["steps"]
    assert steps >= 1 and combat["result"]["check"]

    # the fire result is public; the record stays the Germans'
    assert call(bob, "get", f"/combats/{combat['id']}/")["result"]["steps"] == steps
    call(bob, "get", f"/artillery/{germans.pk}/", status=404)
    call(alice, "get", f"/artillery/{americans.pk}/", status=404)

    # the owner applies it: losses, then the forced check (from artillery in this phase)
    body = {"losses": {str(platoon.pk): steps}, "units": [platoon.pk]}
    body |= {"dice": "entered", "roll": "11"} if mode == "entered" else {}
    applied = call(bob, "post", f"/combats/{combat['id']}/apply/", body)
    assert applied["status"] == "applied" and applied["applied"]["check"]["roll"] == 11
    platoon.refresh_from_db()
    assert platoon.steps_lost == steps

    # No Shoot: the volleys go back [18.7.b]
    third = {"batteries": ["3/105"], "kind": "he", "hex": "0714"}
    missed = call(alice, "post", f"/artillery/{germans.pk}/mission/", third | dice(mode, 11), 201)
    assert missed["combat"]["result"]["refund"] is True
    record = call(alice, "get", f"/artillery/{germans.pk}/")["record"]
    assert record["stocks"][0]["remaining"] == 8  # two volleys fired, the No Shoot returned
    assert all(b["mission_used"] for b in record["batteries"])
    assert not scripted


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_24_3_c_mortar_round_marker_removed_by_hand_and_battery_deleted(
    op, alice, bob, scripted, mode
):
    germans, americans = op.sides.order_by("order")
    call(alice, "post", f"/operations/{op.pk}/start/")
    setup_artillery(alice, op, germans)
    if mode == "server":
        scripted.extend([3, 6])
    round_ = {"kind": "smoke", "weapon": "mortar", "calibre_mm": 81, "hex": "0610"}
    # the Mortar and IG Smoke Table is not in the seed: its number is read off the chart
    refused = alice.post(f"{API}/artillery/{germans.pk}/mortar/", round_, format="json")
    assert refused.status_code == 400 and "success_from" in refused.json()
    round_ |= {"success_from": 4}
    missed = call(alice, "post", f"/artillery/{germans.pk}/mortar/", round_ | dice(mode, 3), 201)
    assert missed["detail"] == "No smoke [24.3.c]." and missed["panel"]["markers"] == []
    hit = call(alice, "post", f"/artillery/{germans.pk}/mortar/", round_ | dice(mode, 6), 201)
    assert hit["panel"]["markers"] == [
        {
            "kind": "smoke",
            "hex": "0610",
            "source": "mortar_ig",
            "owner": str(germans.pk),
            "level": 1,
        }
    ]
    small = alice.post(
        f"{API}/artillery/{germans.pk}/mortar/",
        {"kind": "illum", "weapon": "ig", "calibre_mm": 75, "hex": "0811"},
        format="json",
    )
    assert small.status_code == 400 and "24.5.a" in small.json()["calibre_mm"][0]
    assert not scripted

    # by hand, with a reason; a stale position is refused; only the side's players act
    call(bob, "post", f"/artillery/{germans.pk}/remove-marker/", {}, status=404)
    stale = {"marker": "0:0999", "reason": "typo"}
    assert (
        alice.post(f"{API}/artillery/{germans.pk}/remove-marker/", stale, format="json").status_code
        == 400
    )
    gone = call(
        alice,
        "post",
        f"/artillery/{germans.pk}/remove-marker/",
        {"marker": "0:0610", "reason": "placed in error"},
    )
    assert gone["panel"]["markers"] == []

    # a battery that fired this turn stays (the result read off the chart: no die) [18.1.b]
    fired = {"batteries": ["1/105"], "kind": "he", "hex": "0512", "shoot": "good_shoot"}
    call(alice, "post", f"/artillery/{germans.pk}/mission/", fired, 201)
    kept = alice.post(
        f"{API}/artillery/{germans.pk}/delete-battery/", {"name": "1/105"}, format="json"
    )
    assert kept.status_code == 400 and "18.1.b" in kept.text
    done = call(alice, "post", f"/artillery/{germans.pk}/delete-battery/", {"name": "3/105"})
    assert "3/105" not in [b["name"] for b in done["panel"]["record"]["batteries"]]
    call(alice, "get", f"/artillery/{americans.pk}/", status=404)

"""Table dice in the skirmish games: "any procedure that needs a roll while choices are
pending keeps those choices; an entered roll is applied exactly once".

Every Parabellum and 1936 procedure that rolls is played through the API with every roll
typed in, one roll at a time: each time a roll is still missing the answer is a 400 that asks
for that roll by purpose and kind, and nothing changes (no PO spent, no call recorded, no
casualty, no sheet, no log entry); with all the rolls the procedure runs once, logs exactly
the rolls typed in, and a repeat (or a roll too many) is refused.
"""

import re

import pytest
from rest_framework.test import APIClient

from campaigns.models import Roster, SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.rosters.engine import jsonable
from campaigns.services.rosters import roster_create, roster_edit, roster_house_rules_set
from campaigns.services.skirmish import skirmish_create, skirmish_join
from rules.dice import kind as roll_kind
from tests.web.roster_helpers import m1936_battle

pytestmark = pytest.mark.django_db

NEXT_ROLL = re.compile(r"Enter the next roll: (?P<purpose>.*) \((?P<kind>[^()]+)\)\.$")


@pytest.fixture
def api():
    return APIClient()


def battle_of(user, other_user, *, other="USA/rifleman", ger_edits=(), other_edits=()):
    rosters = []
    for owner, squad, edits in (
        (user, "GER/grenadier", ger_edits),
        (other_user, other, other_edits),
    ):
        roster = roster_create(owner=owner, system="parabellum", name=squad, squad_type=squad)
        for soldier, field, value in edits:
            roster = roster_edit(
                roster=roster,
                actor=owner,
                edit={"soldier_id": soldier, "field": field, "value": value},
            )
        rosters.append(roster)
    battle = skirmish_create(
        creator=user, roster=rosters[0], role="attacker", opponent=other_user, mode="simple"
    )
    skirmish_join(battle=battle, actor=other_user, roster=rosters[1])
    return SkirmishBattle.objects.get(pk=battle.pk)


def snapshot(battle) -> tuple:
    """Everything a procedure could change: the battle's sheets, each side's PO ledger, calls,
    casualties and post-battle mark, the rosters, and the log."""
    b = SkirmishBattle.objects.get(pk=battle.pk)
    sides = [
        (s.po, s.calls, s.casualties, s.applied_at)
        for s in SkirmishSide.objects.filter(battle=b).order_by("index")
    ]
    rosters = [
        (r.data, r.condition, r.changes.count())
        for r in Roster.objects.filter(battle_sides__battle=b).order_by("pk")
    ]
    return (
        b.status,
        b.winner_index,
        b.turns,
        b.tactical,
        b.scenario,
        b.weather,
        b.construction,
        b.score,
        jsonable(sides),
        jsonable(rosters),
        SkirmishEvent.objects.filter(battle=b).count(),
    )


def post(api, battle, name, body):
    return api.post(f"/api/v1/skirmishes/{battle.pk}/actions/{name}/", body, format="json")


def faces_for(kind_name: str) -> str:
    """A plausible entry for a roll the test did not plan: distinct faces, no triple."""
    spec = roll_kind(kind_name)
    return " ".join(str(min(sides, 2 + i)) for i, sides in enumerate(spec.sides))


def type_rolls(api, battle, name, body, planned: list[str]):
    """Submit the procedure with the rolls typed so far, adding one roll at a time when the
    procedure asks for it. Returns the entries typed and the final (successful) answer."""
    typed: list[str] = []
    plan = list(planned)
    for _attempt in range(20):
        before = snapshot(battle)
        response = post(
            api, battle, name, {**body, "dice_mode": "entered", "dice": "; ".join(typed)}
        )
        if response.status_code == 200:
            assert plan == [], f"{name}: planned rolls left over: {plan}"
            return typed, response
        assert response.status_code == 400, response.content
        message = response.json()["dice"][0]
        match = NEXT_ROLL.match(message)
        assert match, message
        assert snapshot(battle) == before, f"{name}: a refused roll changed something"
        typed.append(plan.pop(0) if plan else faces_for(match["kind"]))
    raise AssertionError(f"{name} never completed")


def new_roll_events(battle, since: int) -> list[SkirmishEvent]:
    return list(SkirmishEvent.objects.filter(battle=battle, seq__gt=since).order_by("seq"))


def last_seq(battle) -> int:
    return SkirmishEvent.objects.filter(battle=battle).order_by("-seq").first().seq


def as_logged(record: dict, entry: str):
    """A roll typed as faces is logged with those faces; one typed as a total, with its value."""
    numbers = [int(x) for x in entry.split()]
    return record["faces"] if len(numbers) > 1 else record["value"]


def entered(typed: list[str]):
    return [[int(x) for x in e.split()] if len(e.split()) > 1 else int(e) for e in typed]


def applied_once(api, battle, name, body, planned, *, extra="1 1 1"):
    """Type the rolls in; check the procedure ran once with exactly those rolls, and that the
    same rolls plus one too many are refused without changing anything."""
    since = last_seq(battle)
    typed, response = type_rolls(api, battle, name, body, planned)
    events = new_roll_events(battle, since)
    assert len(events) == 1, [e.summary for e in events]
    event = events[0]
    logged = event.data["rolls"]
    assert [as_logged(r, e) for r, e in zip(logged, typed, strict=True)] == entered(typed)
    assert all(r["source"] == "entered" for r in event.data["rolls"])
    before = snapshot(battle)
    too_many = post(
        api, battle, name, {**body, "dice_mode": "entered", "dice": "; ".join([*typed, extra])}
    )
    assert too_many.status_code == 400
    assert snapshot(battle) == before
    return event, response


# --- Parabellum ---------------------------------------------------------------------------------


def test_shot_ex_6_1_typed_roll_by_roll(api, user, other_user):
    battle = battle_of(user, other_user)
    api.force_authenticate(user)
    body = {
        "turn": 1,
        "shooter": "0:rifleman-1",
        "target": "1:rifleman-3",
        "distance_cm": 30,
        "cover": "heavy",
    }
    event, _r = applied_once(api, battle, "shoot", body, ["3 5 6", "2 3 5"])
    assert event.rule == "6.1" and event.summary.endswith("success → suppressed")
    assert "not needed" in str(post(api, battle, "shoot", {**body, "dice_mode": "entered",
                                                           "dice": "3 5 6; 2 3 5; 4"}).json())  # fmt: skip


def test_assault_on_an_mg_team_typed_roll_by_roll(api, user, other_user):
    battle = battle_of(user, other_user)
    api.force_authenticate(other_user)
    body = {
        "turn": 2,
        "attacker": "1:rifleman-1",
        "movement": "cautious",
        "defender": "0:mg_gunner",
        "mg_assistant": "0:mg_assistant-1",
    }
    applied_once(api, battle, "assault", body, ["5 5 6", "1 2 4"])
    fallen = [c["soldier_id"] for c in battle.sides.get(index=0).casualties]
    assert fallen == ["mg_gunner", "mg_assistant-1"]  # once each, not twice


def test_m7_grenade_launcher_typed_roll_by_roll(api, user, other_user):
    battle = battle_of(user, other_user, other_edits=[("rifleman-3", "extras", "grenade_launcher")])
    api.force_authenticate(other_user)
    body = {
        "turn": 1,
        "thrower": "1:rifleman-3",
        "launcher": True,
        "distance_cm": 30,
        "los_to_marker": True,
        "targets": ["0:rifleman-1", "0:rifleman-2"],
    }
    applied_once(api, battle, "grenade", body, ["3 4", "5", "1 2 3", "4 4 5"])
    assert battle.sides.get(index=0).casualties == [
        {"soldier_id": "rifleman-1", "turn": 1, "cause": "grenade_launcher"}
    ]


def test_panzerfaust_typed_roll_by_roll_fires_once(api, user, other_user):
    battle = battle_of(user, other_user, ger_edits=[("rifleman-3", "extras", "panzerfaust")])
    api.force_authenticate(user)
    body = {
        "turn": 2,
        "firer": "0:rifleman-3",
        "distance_cm": 15,
        "targets": ["1:nco", "1:rifleman-1"],
    }
    applied_once(api, battle, "projector", body, ["3 3 4", "2 3 4", "5 5 6"])
    assert battle.sides.get(index=1).casualties == [
        {"soldier_id": "nco", "turn": 2, "cause": "projector"}
    ]
    again = post(api, battle, "projector", {**body, "dice_mode": "entered", "dice": "3 3 4"})
    assert again.status_code == 400 and "already fired the Panzerfaust" in str(again.json())


def test_stonk_typed_roll_by_roll_fires_once(api, user, other_user):
    battle = battle_of(user, other_user, other="GBR/riflemen")
    api.force_authenticate(other_user)
    body = {"targets": ["0:officer", "0:nco"]}
    event, _r = applied_once(api, battle, "bombardment", body, ["6 6 6", "1 3 4", "2 3 4"])
    assert event.summary.endswith("alice's Officer suppressed; alice's NCO unharmed")
    again = post(api, battle, "bombardment", {**body, "dice_mode": "entered", "dice": "6 6 6"})
    assert again.status_code == 400 and "already fired" in str(again.json())


@pytest.mark.parametrize(
    "kind,po,other", [("artillery", 4, "USA/rifleman"), ("light_mortar", None, "GBR/riflemen")]
)
def test_support_call_keeps_the_po_until_every_roll_is_in(api, user, other_user, kind, po, other):
    battle = battle_of(user, other_user, other=other)
    api.force_authenticate(other_user)  # the US or British player calls it on the Germans
    start = battle.sides.get(index=1).po
    body = {"turn": 1, "kind": kind, "targets": ["0:nco"]}
    if po is not None:
        body["po"] = po
    # nothing typed: the call is not recorded and no PO is spent
    refused = post(api, battle, "support", {**body, "dice_mode": "entered", "dice": ""})
    assert refused.status_code == 400 and NEXT_ROLL.match(refused.json()["dice"][0])
    side = battle.sides.get(index=1)
    assert side.po == start and side.calls == []
    event, _r = applied_once(api, battle, "support", body, [])
    side = battle.sides.get(index=1)
    assert len(side.calls) == 1 and side.calls[0]["kind"] == kind
    assert side.po == start - side.calls[0]["po"]  # spent once
    assert event.data["rolls"]


def test_post_battle_recovery_roll_typed_in_applies_once(api, user, other_user):
    battle = battle_of(user, other_user)
    usa = Roster.objects.get(owner=other_user)
    roster_house_rules_set(
        roster=usa,
        actor=other_user,
        options={"casualties_carry_over": True, "recovery_target": 11},
    )
    api.force_authenticate(user)
    assert post(api, battle, "casualty", {"soldier": "1:officer", "turn": 2, "cause": "shot",
                                          "dice_mode": "server"}).status_code == 200  # fmt: skip
    assert post(api, battle, "turn", {"turn": 5, "po": [0, 0]}).status_code == 200
    assert post(api, battle, "finish", {}).status_code == 200
    api.force_authenticate(other_user)
    before_roster = Roster.objects.get(pk=usa.pk).data
    refused = post(api, battle, "apply", {"dice_mode": "entered", "dice": ""})
    assert refused.status_code == 400 and NEXT_ROLL.match(refused.json()["dice"][0])
    assert Roster.objects.get(pk=usa.pk).data == before_roster
    assert battle.sides.get(index=1).applied_at is None
    typed, _r = type_rolls(api, battle, "apply", {}, ["1 2 3"])  # 6 < 11: dies of wounds
    assert typed == ["1 2 3"]
    assert battle.sides.get(index=1).applied_at is not None
    after = Roster.objects.get(pk=usa.pk)
    assert after.data != before_roster
    again = post(api, battle, "apply", {"dice_mode": "entered", "dice": "6 6 6"})
    assert again.status_code == 400 and "already applied" in str(again.json())
    assert Roster.objects.get(pk=usa.pk).data == after.data


# --- 1936 ---------------------------------------------------------------------------------------


@pytest.fixture
def m36(user, other_user):
    return m1936_battle(user, other_user, ("Oficial", "Camión"))


def test_1936_scenario_weather_and_change_typed_roll_by_roll(api, user, m36):
    api.force_authenticate(user)
    # I.4 Llanura, 4, 2, 2, 5: a tie on 2 is a choice left to the players, kept on the sheet
    event, _r = applied_once(api, m36, "scenario", {"terrain": "Llanura"}, ["4", "2", "2", "5"])
    assert event.summary.startswith("Scenario on Plain: Field sector A ")
    sheet = SkirmishBattle.objects.get(pk=m36.pk).scenario
    assert sheet and sheet.get("pending")
    # the weather needs its roll: typing it later keeps the pending tie untouched
    applied_once(api, m36, "weather", {"season": "Invierno"}, ["11"], extra="7")
    assert SkirmishBattle.objects.get(pk=m36.pk).scenario == sheet
    weather = SkirmishBattle.objects.get(pk=m36.pk).weather
    assert weather["current"]["weather"]
    applied_once(api, m36, "weather_change", {"turn": 10}, ["10", "7"], extra="7")
    after = SkirmishBattle.objects.get(pk=m36.pk)
    assert after.scenario == sheet and after.weather != weather
    # the tie is still there to be ordered, once
    tie = post(api, m36, "tie", {"order": "Sector de Pueblo|Sector de Campo B"})
    assert tie.status_code == 200, tie.content

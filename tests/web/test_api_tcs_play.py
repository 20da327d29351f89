"""A TCS operation played through the REST API only, as a phone app would: two players
create it, seat themselves, enter their orders of battle (CSV text and file, by form), draw
op sheets (one with a graphic), run every turn's Command Phase (weighted turns,
implementation attempts, morale recovery on the hour), record losses and morale, answer the
opponent's choice [17.1.c], reveal, and end the operation. No service call, no page.

Played twice with the same dice: once the site rolls (its dice source replaced by a script
of faces, so the outcome is known), once every roll is entered. The state after each turn is
the same in both, and the log says who rolled.
"""

from __future__ import annotations

from collections import deque

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from rules.dice import RollRecord, kind
from tests.web.test_tcs_pages import AMERICAN_CSV, GERMAN_CSV, SEED_CELLS, SHERMANS
from tests.web.upload_helpers import picture

pytestmark = pytest.mark.django_db

API = "/api/v1/tcs"
PNG = picture("PNG")


class ScriptedDice:
    """Stands in for `rules.dice.ServerDice`: the faces come from the test's script."""

    source = "server"
    script: deque = deque()

    def __init__(self) -> None:
        self.history: list[RollRecord] = []

    def roll(self, kind_, *, purpose: str, rule: str = "") -> RollRecord:
        spec = kind(kind_)
        assert ScriptedDice.script, f"an unscripted roll: {purpose}"
        value = ScriptedDice.script.popleft()
        faces = spec.check_faces(divmod(value, 10) if spec.name == "d66" else (value,))
        record = RollRecord(spec.name, purpose, rule, faces, spec.value(faces), "server")
        self.history.append(record)
        return record


class Table:
    """The two players at the table, each with their own API client."""

    def __init__(self, alice, bob, mode: str) -> None:
        self.alice, self.bob = APIClient(), APIClient()
        self.alice.force_authenticate(alice)
        self.bob.force_authenticate(bob)
        self.mode = mode

    def ok(self, client, method: str, path: str, data=None, status=200, **kw):
        response = getattr(client, method)(f"{API}{path}", data, **kw)
        assert response.status_code == status, (path, response.status_code, response.content)
        return response.json() if response.content else None

    def dice(self, value: int) -> dict:
        """The dice fields of a step: entered with the value, or the site rolls it."""
        if self.mode == "entered":
            return {"dice": "entered", "roll": str(value)}
        ScriptedDice.script.append(value)
        return {"dice": "server"}

    def recovery_dice(self, rolls: dict[int, int]) -> dict:
        if self.mode == "entered":
            return {"dice": "entered", "rolls": rolls}
        ScriptedDice.script.extend(rolls.values())
        return {"dice": "server"}

    def loss_dice(self, rolls: list[int]) -> dict:
        if self.mode == "entered":
            return {"dice": "entered", "rolls": " ".join(map(str, rolls))}
        ScriptedDice.script.extend(rolls)
        return {"dice": "server"}


@pytest.fixture(params=["server", "entered"])
def table(request, user, other_user, monkeypatch):
    ScriptedDice.script = deque()
    # the site's dice, scripted where the server rolls (the play itself is HTTP only)
    for module in ("campaigns.services.tcs.common", "campaigns.services.tcs.command_phase"):
        monkeypatch.setattr(f"{module}.ServerDice", ScriptedDice)
    yield Table(user, other_user, request.param)
    assert not ScriptedDice.script, f"rolls the rules never asked for: {ScriptedDice.script}"


def test_an_operation_played_through_the_api(table):
    t = table
    a, b = t.alice, t.bob
    op = t.ok(
        a,
        "post",
        "/operations/",
        {
            "name": "Bloody 110",
            "side_a": "Germans",
            "rating_a": 3,
            "side_b": "Americans",
            "rating_b": 3,
            "start_clock": "0940",
            "light": "day",
            "role": "0",
            "visibility": "private",
        },
        status=201,
        format="json",
    )
    op_id = op["id"]
    germans, americans = (s["id"] for s in op["sides"])
    J = {"format": "json"}

    # --- set-up: seats, settings, orders of battle, the op sheets drawn before play ---------
    seats = t.ok(a, "post", f"/sides/{americans}/seat/", {"username": "bob"}, **J)
    assert [s["players"] for s in seats["sides"]] == [["alice"], ["bob"]]
    t.ok(a, "patch", f"/sides/{germans}/", {"rating": 3, "prep_table": SEED_CELLS}, **J)
    t.ok(a, "post", f"/sides/{germans}/oob-csv/", {"csv": GERMAN_CSV}, status=201, **J)
    upload = SimpleUploadedFile("oob.csv", AMERICAN_CSV.encode(), content_type="text/csv")
    t.ok(
        b,
        "post",
        f"/sides/{americans}/oob-csv/",
        {"csv_file": upload},
        status=201,
        format="multipart",
    )
    pio = t.ok(
        a,
        "post",
        f"/sides/{germans}/formations/",
        {"code": "Pio", "name": "Pioneers", "morale": "none"},
        status=201,
        **J,
    )
    pio_id = next(f["id"] for f in pio["side"]["formations"] if f["code"] == "Pio")
    side = t.ok(
        a,
        "post",
        f"/sides/{germans}/units/",
        {"code": "Pio/1", "formation": pio_id, "category": "infantry", "steps": 3},
        status=201,
        **J,
    )["side"]
    assert side["rating"] == 3 and side["prep_table"] == SEED_CELLS
    assert {f["code"]: len(f["units"]) for f in side["formations"]} == {
        "1-123": 3,
        "2-123": 3,
        "3-123": 3,
        "123-HW": 2,
        "Pio": 1,
    }
    d1 = t.ok(
        a,
        "post",
        "/op-sheets/",
        {
            "side": germans,
            "code": "D1",
            "m_1-123/1": "hasty_defense",
            "m_1-123/2": "hasty_defense",
            "task_organization": "1-123 holds Hill 110",
            "graphic": SimpleUploadedFile("d1.png", PNG, content_type="image/png"),
            "m_1-123/3": "hasty_defense",
        },
        status=201,
        format="multipart",
    )["sheet"]
    a1 = t.ok(
        b,
        "post",
        "/op-sheets/",
        {
            "side": americans,
            "code": "A1",
            "missions": {"2-9/1": "hasty_defense", "2-9/2": "hasty_defense"},
        },
        status=201,
        **J,
    )["sheet"]
    op = t.ok(a, "post", f"/operations/{op_id}/start/", **J)
    assert (op["status"], op["turn"]["number"], op["turn"]["clock"]) == ("active", 1, "0940")
    assert [w["what"] for w in op["waiting"]] == ["open this turn's Command Phase"] * 2
    assert d1["state"]["status"] == a1["state"]["status"] == "implemented" and d1["has_graphic"]
    # the Americans see none of the Germans' sheets, and the other way round
    assert [s["code"] for s in op["sides"][0]["sheets"]] == ["D1"]
    assert op["sides"][1]["sheets"] == [] and not op["sides"][1]["can_see"]

    # --- turn 1 (0940): new sheets in Command Prep, first Command Phase, losses -------------
    regt = t.ok(
        a,
        "post",
        "/op-sheets/",
        {
            "side": germans,
            "code": "Regt",
            "missions": dict.fromkeys(
                [f"{b}-123/{p}" for b in (2, 3) for p in (1, 2, 3)], "attack"
            ),
        },
        status=201,
        **J,
    )["sheet"]
    s_sheet = t.ok(
        b,
        "post",
        "/op-sheets/",
        {
            "side": americans,
            "code": "S",
            "missions": dict.fromkeys(SHERMANS, "attack"),
            "preliminary_text": "Assemble behind the ridge",
        },
        status=201,
        **J,
    )["sheet"]
    assert regt["state"]["status"] == s_sheet["state"]["status"] == "unimplemented"
    gp = t.ok(a, "post", "/command-phases/", {"side": germans}, status=201, **J)["phase"]
    ap = t.ok(b, "post", "/command-phases/", {"side": americans}, status=201, **J)["phase"]
    assert t.ok(a, "post", f"/command-phases/{gp['id']}/weighted-turns/", **J)["result"] == {
        "Regt": 3
    }
    assert t.ok(b, "post", f"/command-phases/{ap['id']}/weighted-turns/", **J)["result"] == {
        "S": 9  # vehicles only: 3 × 3 [6.9.e]
    }
    # no table: the Americans read both thresholds off the printed chart [6.14.a]
    step = attempt(t, b, ap, s_sheet, 46, threshold="55", move_threshold="44")
    assert step["result"] == {"outcome": "prelims_started", "roll": 46}
    step = attempt(t, a, gp, regt, 23, threshold="56")
    assert step["result"] == {"outcome": "not_implemented", "roll": 23}
    # losses: two steps of a platoon; a heavy weapon outside any battalion destroyed, equally
    # near two battalions (the Americans choose [17.1.c]); a Sherman's two steps [17.8]
    german = t.ok(a, "get", f"/sides/{germans}/")
    units = {u["code"]: u["id"] for f in german["formations"] for u in f["units"]}
    loss = t.ok(
        a,
        "post",
        "/losses/",
        {"unit": units["1-123/1"], "steps": 2, "combat": True},
        status=201,
        **J,
    )
    assert loss["unit"]["steps_lost"] == 2
    hw = {"unit": units["123-HW/1"], "steps": 2, "combat": True, "nearest": ["1-123", "2-123"]}
    loss = t.ok(a, "post", "/losses/", hw, status=201, **J)
    assert loss["result"]["eliminated"] and loss["result"]["awaiting"] == ["1-123", "2-123"]
    american = t.ok(b, "get", f"/sides/{americans}/")
    bunits = {u["code"]: u["id"] for f in american["formations"] for u in f["units"]}
    tank = {"unit": bunits["Sherman/1"], "steps": 2, "combat": True, **t.loss_dice([5])}
    loss = t.ok(b, "post", "/losses/", tank, status=201, **J)
    assert loss["result"]["checks"] == [5] and not loss["result"]["failed"]
    # the Germans' morale never reaches the Americans: the choice names the battalions only
    (decision,) = t.ok(b, "get", f"/decisions/?campaign={op_id}")["results"]
    assert decision["options"] == ["1-123", "2-123"] and "state" not in decision
    assert t.ok(a, "get", f"/decisions/?campaign={op_id}")["count"] == 0
    t.ok(b, "post", f"/decisions/{decision['id']}/resolve/", {"choice": "1-123"}, **J)
    # the table finds 1-123 should stand at 2: corrected with a reason, the log keeps it
    german = t.ok(a, "get", f"/sides/{germans}/")
    fid = {f["code"]: f["id"] for f in german["formations"]}
    fixed = t.ok(
        a,
        "post",
        f"/formations/{fid['1-123']}/morale-correction/",
        {"value": 2, "reason": "two platoons broke in the woods"},
        **J,
    )
    assert fixed["formation"]["state"]["value"] == 2
    assert morale(t, a, germans) == {"1-123": 2, "2-123": 0, "3-123": 0}
    assert morale(t, b, americans) == {"Sherman": 1, "2-9": 0}
    for client, phase in ((a, gp), (b, ap)):
        done = t.ok(client, "post", f"/command-phases/{phase['id']}/complete/", **J)
        assert done["phase"]["status"] == "completed"
    op = next_turn(t, op_id, 1)
    assert (op["turn"]["number"], op["turn"]["clock"], op["recovery_due"]) == (2, "1000", True)
    assert sheet_states(op, 0) == {"D1": ("implemented", 0), "Regt": ("unimplemented", 3)}
    assert sheet_states(t.ok(b, "get", f"/operations/{op_id}/"), 1) == {
        "A1": ("implemented", 0),
        "S": ("prelims_active", 9),
    }

    # --- turn 2 (1000): on the hour, morale recovery; both attack sheets implemented --------
    gp = t.ok(a, "post", "/command-phases/", {"side": germans}, status=201, **J)["phase"]
    ap = t.ok(b, "post", "/command-phases/", {"side": americans}, status=201, **J)["phase"]
    t.ok(a, "post", f"/command-phases/{gp['id']}/weighted-turns/", {"fired": []}, **J)
    t.ok(b, "post", f"/command-phases/{ap['id']}/weighted-turns/", **J)
    blocked = t.ok(a, "post", f"/command-phases/{gp['id']}/complete/", status=400, format="json")
    assert "roll morale recovery" in blocked["detail"][0]
    step = attempt(t, a, gp, regt, 52, threshold="45")
    assert step["result"] == {"outcome": "implemented", "roll": 52}
    step = attempt(t, b, ap, s_sheet, 61, threshold="55")
    assert step["result"] == {"outcome": "implemented", "roll": 61}
    # 1-123 rolls 1 (≤ 2: down to 1); the Shermans attack: they do not roll [17.1.e, 17.8.d]
    rec = t.ok(
        a, "post", f"/command-phases/{gp['id']}/recovery/", t.recovery_dice({fid["1-123"]: 1}), **J
    )
    assert rec["result"] == {"1-123": [2, 1]}
    rec = t.ok(b, "post", f"/command-phases/{ap['id']}/recovery/", t.recovery_dice({}), **J)
    assert rec["result"] == {} and rec["phase"]["steps"]["recovery"]
    for client, phase in ((a, gp), (b, ap)):
        t.ok(client, "post", f"/command-phases/{phase['id']}/complete/", **J)
    op = next_turn(t, op_id, 2)
    assert (op["turn"]["number"], op["turn"]["clock"], op["recovery_due"]) == (3, "1020", False)
    assert sheet_states(op, 0) == {"D1": ("implemented", 0), "Regt": ("implemented", 6)}
    assert morale(t, a, germans) == {"1-123": 1, "2-123": 0, "3-123": 0}
    assert morale(t, b, americans) == {"Sherman": 1, "2-9": 0}

    # --- turn 3 (1020): success declared, a step given back, the Shermans' sheet revealed ---
    s_url = f"/op-sheets/{s_sheet['id']}/"
    assert a.get(f"{API}{s_url}").status_code == 404  # still the Americans' secret
    gp = t.ok(a, "post", "/command-phases/", {"side": germans}, status=201, **J)["phase"]
    ap = t.ok(b, "post", "/command-phases/", {"side": americans}, status=201, **J)["phase"]
    ticked = t.ok(a, "post", f"/command-phases/{gp['id']}/weighted-turns/", **J)
    assert ticked["detail"] == "No op sheet in Command Prep."
    done = t.ok(a, "post", f"/op-sheets/{regt['id']}/succeed/", {"units": ["2-123/1"]}, **J)
    assert done["sheet"]["state"]["entries"][0]["status"] != "active"
    back = t.ok(
        a,
        "post",
        f"/units/{units['1-123/1']}/restore/",
        {"steps": 1, "reason": "the second step was a suppression"},
        **J,
    )
    assert back["unit"]["steps_lost"] == 1
    shown = t.ok(b, "post", f"{s_url}reveal/", **J)
    assert shown["sheet"]["revealed"]
    assert t.ok(a, "get", s_url)["state"]["status"] == "implemented"
    for client, phase in ((a, gp), (b, ap)):
        t.ok(client, "post", f"/command-phases/{phase['id']}/complete/", **J)
    op = next_turn(t, op_id, 3)
    assert (op["turn"]["number"], op["turn"]["clock"]) == (4, "1040")
    assert sheet_states(op, 1) == {"S": ("implemented", 15)}  # revealed: the Germans see it
    # the second request for the same turn changes nothing (idempotent)
    assert next_turn(t, op_id, 3)["turn"]["number"] == 4

    # --- the end: the Americans agree, think again; the organiser ends it at once -----------
    agreed = t.ok(b, "post", f"/operations/{op_id}/end/", {"confirm": True}, **J)
    assert agreed["status"] == "active" and agreed["end_agreed"] == [americans]
    assert any("agree to end" in w["what"] for w in agreed["waiting"])
    withdrawn = t.ok(b, "post", f"/operations/{op_id}/end/withdraw/", **J)
    assert withdrawn["end_agreed"] == []
    over = t.ok(a, "post", f"/operations/{op_id}/end/", {"confirm": True}, **J)
    assert over["status"] == "finished" and over["waiting"] == []
    # everything is public once the operation is over
    assert t.ok(b, "get", f"/op-sheets/{d1['id']}/")["task_organization"] == "1-123 holds Hill 110"
    assert morale(t, b, germans) == {"1-123": 1, "2-123": 0, "3-123": 0}

    # the log says who rolled each die: the site, or the players at the table
    entries = a.get(f"/api/v1/campaigns/{op_id}/log/?kind=roll&page_size=200").json()["results"]
    sources = {e["data"]["roll"]["source"] for e in entries if "roll" in e["data"]}
    assert sources == {t.mode}
    timeline = t.ok(b, "get", f"/operations/{op_id}/timeline/")
    assert [x["turn"] for x in timeline["turns"]] == [1, 2, 3]
    export = b.get(f"/api/v1/tcs/operations/{op_id}/export/")
    assert export.status_code == 200 and export.json()["status"] == "finished"


def attempt(t, client, phase, sheet, roll, **thresholds):
    body = {"sheet": sheet["id"], "mode": "full", **thresholds, **t.dice(roll)}
    return t.ok(client, "post", f"/command-phases/{phase['id']}/attempt/", body, format="json")


def morale(t, client, side_id):
    side = t.ok(client, "get", f"/sides/{side_id}/")
    return {f["code"]: f["state"].get("value") for f in side["formations"] if f["morale"] != "none"}


def next_turn(t, op_id, expected):
    body = {"light": "day", "expected_turn": expected}
    return t.ok(t.alice, "post", f"/operations/{op_id}/next-turn/", body, format="json")


def sheet_states(op, index):
    return {
        s["code"]: (s["state"]["status"], s["state"]["weighted_turns"])
        for s in op["sides"][index]["sheets"]
    }

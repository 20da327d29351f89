"""Playing a Combat Commander campaign through the REST API only, as a phone app would.

`ApiTable` holds one `APIClient` per person at the table (each force-authenticated) and does
what they do: create the campaign, seat the players, save the tables, press "advance",
answer the decisions the rules open (each answered by a player of the side named), log
events and rolls, enter results. Nothing here calls a service or writes a model.

`DiceScript` is the table's dice: the faces of every roll, in the order the rules ask for
them. With server dice the engine's source is patched to draw from it; with entered dice
each roll decision is answered with the next faces. Either way the same faces give the same
campaign, so a flow asserts exact outcomes in both modes, and a script left with faces (or
run dry) means the rules rolled a different number of times than the flow expects.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.test import TestCase
from rest_framework.test import APIClient

from rules.dice import RollRecord, kind

Faces = tuple[int, ...]
API = "/api/v1"


SERVER_DICE_USERS = ("campaigns.services.cc_engine", "campaigns.services.battles")


class DiceScript:
    """The faces the table rolls, consumed in order by the server or by entered answers."""

    def __init__(self) -> None:
        self.queue: deque[Faces] = deque()
        self.purposes: list[str] = []

    def load(self, rolls: Iterable[Faces]) -> None:
        assert not self.queue, f"rolls left unused: {list(self.queue)}"
        self.queue.extend(tuple(r) for r in rolls)

    def take(self, purpose: str) -> Faces:
        assert self.queue, f"a roll the flow did not script: {purpose}"
        self.purposes.append(purpose)
        return self.queue.popleft()

    def assert_used(self, stage: str) -> None:
        assert not self.queue, f"{stage}: the rules did not ask for {list(self.queue)}"

    def server_source(self) -> ScriptedServerDice:
        return ScriptedServerDice(self)

    def patch_server(self, monkeypatch) -> None:
        """The site's dice (campaign procedures and rolls during play) come from the script."""
        # the site's dice, scripted where the server rolls (no service is called from here)
        for module in SERVER_DICE_USERS:
            monkeypatch.setattr(f"{module}.ServerDice", self.server_source)


class ScriptedServerDice:
    """Stands in for `rules.dice.ServerDice`: same interface, faces from the script."""

    source = "server"

    def __init__(self, script: DiceScript) -> None:
        self.script = script
        self.history: list[RollRecord] = []

    def roll(self, kind_, *, purpose: str, rule: str = "") -> RollRecord:
        spec = kind(kind_)
        faces = spec.check_faces(list(self.script.take(purpose)))
        record = RollRecord(spec.name, purpose, rule, faces, spec.value(faces), "server")
        self.history.append(record)
        return record


@dataclass
class BattlePlan:
    """One battle as the players play it: their answers, the dice, the result."""

    setup: Mapping[str, Any] = field(default_factory=dict)
    """Answers to the decisions before the battle, by key, in the order they are asked."""
    setup_rolls: list[Faces] = field(default_factory=list)
    winner: int = 0
    """The winning side's order (0: the first side of the template)."""
    result: Mapping[str, Any] = field(default_factory=dict)
    """The other result fields: survivors_<faction>, method, vp_margin."""
    after: Mapping[str, Any] = field(default_factory=dict)
    """Answers to the decisions after the result, by key, in the order they are asked."""
    after_rolls: list[Faces] = field(default_factory=list)
    expect_setup: Mapping[str, Any] = field(default_factory=dict)
    """The battle's set-up once it is played (battle detail `setup`); `posture` by faction."""


OK = {200, 201, 202}
"""Where the API spec names no status, any success will do."""
PLAY_ROLL: Faces = (5, 2)
"""The roll made during every battle through the battle's roll endpoint."""


class ApiTable:
    """A campaign played by `players` (one per side, in side order) and its `organiser`."""

    def __init__(self, organiser, players, dice_mode: str, script: DiceScript) -> None:
        self.clients = {}
        for user in {organiser, *players}:
            client = APIClient()
            client.force_authenticate(user)
            self.clients[user.pk] = client
        self.organiser = self.clients[organiser.pk]
        self.players = players
        self.dice_mode = dice_mode
        self.script = script
        self.campaign_id: int | None = None
        self.side_ids: list[int] = []
        self.side_names: list[str] = []
        self.seat_of: dict[int, APIClient] = {}

    # -- requests ----------------------------------------------------------------------
    def call(self, client: APIClient, method: str, path: str, data=None, expect=OK) -> Any:
        """One request; what it schedules after its commit (the resolution) runs at once."""
        url = path if path.startswith("/") else f"{API}/campaigns/{self.campaign_id}/{path}"
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = getattr(client, method)(url, data, format="json")
        expect = {expect} if isinstance(expect, int) else expect
        assert response.status_code in expect, (
            f"{method.upper()} {url} {data!r} → {response.status_code}: "
            f"{getattr(response, 'data', response.content)!r}"
        )
        return response.json() if response.content else None

    def get(self, path: str, client: APIClient | None = None) -> Any:
        return self.call(client or self.organiser, "get", path)

    def rows(self, path: str) -> list[dict[str, Any]]:
        """A list endpoint's rows, following the pages when it is paginated."""
        body = self.get(path)
        if isinstance(body, list):
            return body
        rows = list(body["results"])
        while body.get("next"):
            body = self.get(body["next"].split("testserver", 1)[-1])
            rows += body["results"]
        return rows

    # -- setting up --------------------------------------------------------------------
    def create(self, template: str, *, role: str, visibility: str = "private", **extra) -> dict:
        body = {
            "template": template,
            "name": f"{template.capitalize()} by API",
            "role": role,
            "visibility": visibility,
            "dice_mode": self.dice_mode,
            "description": "Played through the REST API",
            **extra,
        }
        offered = {t["slug"]: t for t in self.get(f"{API}/cc/templates/")}[template]
        assert {o["key"] for o in offered["options"]} >= {k for k in extra if k[:4] == "opt_"}
        assert self.dice_mode in [m["value"] for m in offered["dice_modes"]]
        assert role in [r["value"] for r in offered["roles"]]
        created = self.call(self.organiser, "post", f"{API}/campaigns/cc/", body, expect=201)
        assert created["dice_mode"] == self.dice_mode
        self.campaign_id = created["id"]
        sides = sorted(created["sides"], key=lambda s: s["order"])
        self.side_ids = [s["id"] for s in sides]
        self.side_names = [s["name"] for s in sides]
        return created

    def seat(self, order: int) -> None:
        """The organiser seats the player of side `order` by username."""
        user = self.players[order]
        body = {"side": self.side_ids[order], "username": user.get_username()}
        self.call(self.organiser, "post", "seats/", body, expect=OK)
        self.seat_of[self.side_ids[order]] = self.clients[user.pk]

    def join(self, order: int) -> None:
        """The player of side `order` takes the seat himself."""
        client = self.clients[self.players[order].pk]
        self.call(client, "post", "join/", {"side": self.side_ids[order]})
        self.seat_of[self.side_ids[order]] = client

    def sat_down(self, order: int) -> None:
        """The creator already plays side `order` (role)."""
        self.seat_of[self.side_ids[order]] = self.clients[self.players[order].pk]

    def put_tables(self, tables: dict[str, Any]) -> None:
        self.call(self.organiser, "put", "tables/", {"tables": tables})
        assert self.get("tables/")["tables"] == tables

    # -- playing -----------------------------------------------------------------------
    def player(self, order: int) -> APIClient:
        return self.seat_of[self.side_ids[order]]

    def open_decisions(self) -> list[dict[str, Any]]:
        rows = [d for d in self.rows("decisions/") if d["status"] == "open"]
        return sorted(rows, key=lambda d: d["id"])

    def settle(self, answers: Mapping[str, Any], stage: str, *, at_once: bool = False) -> list[str]:
        """Answer every open decision, each by its side's player; the keys asked, in order.

        Roll decisions (entered dice) take the script's next faces; the others must be in
        `answers` and each answer in `answers` must be asked exactly once. `at_once`: the
        rules run within the answer's request (set-up), so its response shows the decision
        as it then is; after a battle they run in the background.
        """
        asked: list[str] = []
        for _ in range(40):
            open_ = self.open_decisions()
            if not open_:
                break
            d = open_[0]
            client = self.seat_of[d["chooser"]] if d["chooser"] else self.player(0)
            if d["is_roll"]:
                assert self.dice_mode == "entered", f"server dice, yet a roll is asked: {d}"
                faces = self.script.take(d.get("prompt") or d["key"])
                # as a phone sends them: the faces, or every other time as typed ("3,4")
                typed = len(self.script.purposes) % 2
                answer: Any = ",".join(map(str, faces)) if typed else list(faces)
            else:
                assert d["key"] not in asked, f"{stage}: {d['key']} asked twice"
                assert d["key"] in answers, f"{stage}: unexpected decision {d}"
                answer = answers[d["key"]]
                assert len(d["option_labels"]) == len(d["options"])
                asked.append(d["key"])
            done = self.call(client, "post", f"decisions/{d['id']}/answer/", {"answer": answer})
            assert done["status"] in ("answered", "applied"), done
            if d["sealed"] and any(o["sealed"] for o in open_[1:]):  # a sibling still open
                self.assert_sealed(d)
            elif at_once:
                now = next(r for r in self.rows("decisions/") if r["id"] == d["id"])
                assert done["status"] == now["status"] == "applied", (
                    f"{stage}: the answer's response says {done['status']!r}, "
                    f"the decision is {now['status']!r}"
                )
        else:
            raise AssertionError(f"{stage}: the campaign kept asking")
        assert asked == list(answers), f"{stage}: asked {asked}, expected {list(answers)}"
        self.script.assert_used(stage)
        return asked

    def assert_sealed(self, decision: dict[str, Any]) -> None:
        """A sealed answer waiting for its sibling: hidden from the other side, not its own."""
        [other] = [sid for sid in self.side_ids if sid != decision["chooser"]]
        for side, shown in ((other, None), (decision["chooser"], decision["key"])):
            rows = self.seat_of[side].get(f"{API}/campaigns/{self.campaign_id}/decisions/")
            row = next(r for r in rows.json()["results"] if r["id"] == decision["id"])
            assert (row["answer"] is None) == (shown is None), (side, row)

    def resume(self) -> dict[str, Any]:
        return self.call(self.player(1), "post", "resume/", expect=202)

    def advance(self) -> None:
        self.call(self.player(0), "post", "advance/")

    def dashboard(self) -> dict[str, Any]:
        return self.get("dashboard/")

    def battle(self, number: int) -> dict[str, Any]:
        return self.get(f"battles/{number}/")

    def campaign(self) -> dict[str, Any]:
        return self.get(f"{API}/campaigns/{self.campaign_id}/")

    def log(self, kind: str | None = None) -> list[str]:
        return [e["summary"] for e in self.rows("log/" + (f"?kind={kind}" if kind else ""))]

    def play(self, number: int, plan: BattlePlan, *, set_up: bool = True) -> dict[str, Any]:
        """Battle `number` from its set-up to its consequences; the battle as the API shows it."""
        if set_up:
            self.script.load(plan.setup_rolls)
            self.advance()
            self.settle(plan.setup, f"battle {number} set-up", at_once=True)
        battle = self.battle(number)
        assert battle["status"] == "playing", battle
        assert_setup(battle["setup"], plan.expect_setup)
        self.play_at_the_table(number)
        log = [e["summary"] for e in self.battle(number)["log"]]
        assert "VP change: objective 3 taken (VP +2)" in log, log
        self.script.load(plan.after_rolls)
        body = {"winner": self.side_ids[plan.winner], **plan.result}
        self.call(self.player(plan.winner), "post", f"battles/{number}/result/", body)
        self.settle(plan.after, f"battle {number} consequences")
        battle = self.battle(number)
        assert battle["status"] == "resolved", battle
        return battle

    def play_at_the_table(self, number: int) -> None:
        """A VP event and a roll, as logged from a phone during the battle."""
        event = {"category": "vp", "text": "objective 3 taken", "vp_delta": 2}
        self.call(self.player(0), "post", f"battles/{number}/events/", event)
        self.script.load([PLAY_ROLL])
        roll = {"roll_kind": "2d6", "purpose": "Sniper on hex F5"}
        if self.dice_mode == "entered":
            roll["entered"] = ",".join(map(str, self.script.take("Sniper on hex F5")))
        self.call(self.player(1), "post", f"battles/{number}/rolls/", roll)
        self.script.assert_used(f"battle {number} play")


def assert_setup(setup: Mapping[str, Any] | None, expected: Mapping[str, Any]) -> None:
    for name, value in expected.items():
        got = setup[name]
        if name == "posture":
            got = {faction: p["posture"] for faction, p in got.items()}
        assert got == value, (name, setup)


# --- what the flows check -------------------------------------------------------------


def check(table: ApiTable, number: int, plan: BattlePlan, battle: dict, **expected: Any) -> None:
    """After battle `number`: the winner recorded, then the dashboard's exact state.

    `expected` holds dashboard fields (`battle_number`, `position`, `phase`, `victory`) and,
    per side order, `quality<i>`, `wins<i>`; `pools` maps pool names to balances.
    """
    winner_id = table.side_ids[plan.winner]
    assert battle["winner"] in (winner_id, table.side_names[plan.winner]), battle
    dash = table.dashboard()
    pools = expected.pop("pools", {})
    for name, value in expected.items():
        if name[-1].isdigit():
            field, order = name[:-1], int(name[-1])
            assert dash["sides"][order][field] == value, (name, dash["sides"][order])
        else:
            assert dash[name] == value, (name, dash)
    balances = {p["name"]: p["balance"] for p in dash["pools"]}
    for name, value in pools.items():
        assert balances[name] == value, (name, balances)
    won = f"Battle {number} won by {table.side_names[plan.winner]}."
    assert won in table.log("result")


def side_list(dash: dict, order: int, label: str) -> list[str]:
    """A named list of a side on the dashboard (pool, reserves, reinforcements …)."""
    lists = dash["sides"][order]["lists"]
    if isinstance(lists, dict):
        return lists[label]
    return next(items for name, items in lists if name == label)


def finished(table: ApiTable, victory: str, summary: str) -> None:
    assert table.campaign()["status"] == "finished"
    before = table.log()
    assert table.resume()["status"] == "finished"  # "Resume" on a finished campaign: nothing
    assert table.log() == before
    dash = table.dashboard()
    assert dash["phase"] == "ended" and dash["victory"] == victory
    assert summary in table.log("result")
    assert table.open_decisions() == []
    rolls = table.log("roll")
    entered = [r for r in rolls if " entered " in r]
    if table.dice_mode == "entered":  # every roll typed in, none by the site
        assert len(entered) == len(table.script.purposes), entered
        # none reads as the site's roll, before a decision or during play
        assert not [r for r in rolls if r.startswith("Rolled ")], rolls
        assert not [r for r in rolls if " rolled " in r and " at the table " not in r], rolls
    else:
        assert not entered, entered
        assert any(r.startswith("Rolled 2d6 for ") for r in rolls), rolls
    played = [r for r in rolls if "2d6 for Sniper on hex F5: 7" in r]
    assert len(played) == len(table.rows("battles/"))  # one roll during each battle

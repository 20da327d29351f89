"""Random Combat Commander campaigns driven through the services (hypothesis, stateful).

Each example creates a campaign of one template in one dice mode, then interleaves at random
what players do on the site: answer an open decision with a random legal answer (an option,
a subset within the bounds, a number in the printed range, dice faces valid for the roll's
kind), press "advance", enter a battle's result (random winner, survivors, win method and VP
margin), enter the same result again, answer an already answered decision again, press
"resume". After every step the machine checks that

- no choice (a non-roll decision) is asked twice for the same battle: this is what the
  entered-dice bug broke (answers marked applied while the state holding them was dropped);
- once the engine has moved on, no answered decision is left un-applied: an answer waits
  only while a sealed sibling is still open;
- the campaign's battle number never goes down and stays within the template's bound, and
  "ended" and the campaign status "finished" agree;
- no resolution stopped on a rules error (complete tables, legal answers).

The teardown plays the campaign on to its end with the same kind of random answers (seeded
from the example), checking the invariants after each action, and asserts that it ends
within a bounded number of actions. Results are never corrected (a correction re-asks the
post-battle decisions on purpose).

Server dice come from a seeded source drawn by hypothesis, so a failure replays exactly.
Each example runs inside a savepoint rolled back in the teardown: a clean database each time.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import TestCase
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from campaigns.cc.engines import template_for
from campaigns.models import Battle, Campaign, Decision
from campaigns.services import cc_engine, side_join
from campaigns.services.battles import battle_result_submit
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, cc_resume, decision_answer
from rules.cc.gastadores import WinMethod
from rules.dice import SeededDice, kind
from tests.rules.cc.campaign_helpers import NORMANDY_DATA, STALINGRAD_DATA

pytestmark = pytest.mark.django_db

TABLES = {"stalingrad": STALINGRAD_DATA, "normandy": NORMANDY_DATA, "gastadores": None}
LAST_BATTLE = {"stalingrad": 13, "normandy": 7, "gastadores": 3}
"""Stalingrad's Sudden Death roll (2d6 < battle) ends it by battle 13; Normandy at four wins
(at most seven battles); Gastadores after its three phases."""
ACTIONS_PER_BATTLE = 40
"""Far more than a battle's decisions, rolls, advance and result: a bound, not an estimate."""
RANGE = re.compile(r"\((-?\d+) to (-?\d+)\)\s*$")
PATROLS = ("A", "B", "C", "D", "E", "F", "Pionier", "Assault Engineers")

PROPERTY_SETTINGS = settings(
    max_examples=3,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- random legal inputs, from hypothesis (rules) or from a seeded RNG (teardown) ------------


class DrawPick:
    """Random choices drawn by hypothesis (they shrink)."""

    def __init__(self, data) -> None:
        self.data = data

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))

    def choice(self, items: list[Any]) -> Any:
        return self.data.draw(st.sampled_from(items))

    def subset(self, items: list[Any], low: int, high: int) -> list[Any]:
        return self.data.draw(st.permutations(items))[: self.integer(low, high)]


class RandomPick:
    """The same choices from a seeded RNG (the teardown cannot draw)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, items: list[Any]) -> Any:
        return self.rng.choice(items)

    def subset(self, items: list[Any], low: int, high: int) -> list[Any]:
        return self.rng.sample(items, self.integer(low, high))


def legal_answer(decision: Decision, pick) -> Any:
    """A random answer the rules accept: dice faces, an option, a subset or a number."""
    if decision.is_roll:
        faces = [pick.integer(1, sides) for sides in kind(decision.roll_kind).sides]
        if len(faces) == 1:
            return faces[0]
        return faces if pick.integer(0, 1) else ",".join(map(str, faces))  # as typed on a phone
    if decision.is_multiple:
        options = list(decision.options)
        most = len(options) if decision.max_choices is None else decision.max_choices
        return pick.subset(options, decision.min_choices or 0, min(most, len(options)))
    if decision.options:
        return pick.choice(list(decision.options))
    found = RANGE.search(decision.prompt)
    assert found, f"a number without its range: {decision.prompt!r}"
    return pick.integer(int(found.group(1)), int(found.group(2)))


def random_details(template: str, pick) -> dict[str, Any]:
    if template == "stalingrad":
        survivors = {}
        for side in ("axis", "allies"):
            survivors[side] = [
                {
                    "id": f"{side[:2]}{i}",
                    "kind": pick.choice(["Rifle squad", "Weapon team", "Leader"]),
                    "weapon": pick.choice([None, "LMG", "MMG"]),
                    "veteran": bool(pick.integer(0, 1)),
                    "leader_of": pick.choice([None, None, *PATROLS]),
                }
                for i in range(pick.integer(0, 8))
            ]
        return {"survivors": survivors}
    if template == "gastadores":
        return {
            "method": pick.choice([m.value for m in WinMethod]),
            "vp_margin": pick.integer(-5, 45),
        }
    return {}


# --- the machine ---------------------------------------------------------------------------


class CampaignMachine(RuleBasedStateMachine):
    """A campaign of `template` played with `dice_mode`; set by the test before running."""

    template = "stalingrad"
    dice_mode = "server"
    server_dice: SeededDice | None = None  # read by the patched cc_engine.ServerDice
    made = 0

    def __init__(self) -> None:
        super().__init__()
        self.tpl = template_for(self.template)
        self.atomic = None
        self.campaign: Campaign | None = None
        self.asked: dict[tuple[int, str], int] = {}
        self.highest = 0
        self.results: dict[int, tuple[Any, dict[str, Any]]] = {}

    # -- set-up and teardown --------------------------------------------------------------
    @initialize(seed=st.integers(0, 2**32 - 1))
    def start(self, seed: int) -> None:
        self.atomic = transaction.atomic()
        self.atomic.__enter__()  # rolled back in teardown: each example starts clean
        type(self).made += 1
        CampaignMachine.server_dice = SeededDice(seed)
        self.rng = random.Random(seed)
        users = get_user_model().objects
        n = type(self).made
        self.players = [
            users.create_user(username=f"prop{n}a", password="pw-Ledger-2026!"),
            users.create_user(username=f"prop{n}b", password="pw-Ledger-2026!"),
        ]
        c = cc_campaign_create(
            creator=self.players[0],
            name=f"Random {n}",
            template=self.template,
            creator_side=0,
            dice_mode=self.dice_mode,
        )
        side_join(user=self.players[1], side=c.sides.get(order=1))
        if TABLES[self.template] is not None:
            cc_tables_update(campaign=c, actor=self.players[0], data=TABLES[self.template])
        self.campaign = c
        self.sides = list(c.sides.order_by("order"))
        self.check()

    def teardown(self) -> None:
        try:
            if self.campaign is not None:
                self.play_to_the_end()
        finally:
            if self.atomic is not None:
                transaction.set_rollback(True)
                self.atomic.__exit__(None, None, None)

    def play_to_the_end(self) -> None:
        pick = RandomPick(self.rng)
        bound = ACTIONS_PER_BATTLE * LAST_BATTLE[self.template]
        for _ in range(bound):
            if self.ended():
                break
            open_ = self.open_decisions()
            battle = self.playing_battle()
            if open_:
                self.answer(pick.choice(open_), pick)
            elif battle is not None:
                self.submit(battle, pick)
            else:
                cc_advance(campaign_id=self.campaign.pk, actor=self.players[0])
            self.check()
        self.campaign.refresh_from_db()
        assert self.ended(), (
            f"{self.template} ({self.dice_mode} dice) did not end within {bound} actions: "
            f"phase {self.campaign.state['phase']}, battle {self.number()}, "
            f"open {[d.key for d in self.open_decisions()]}"
        )
        assert self.campaign.status == Campaign.Status.FINISHED
        assert self.campaign.state.get("winner") in ("axis", "allies")

    # -- reading the campaign ---------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The engine state as stored (read as JSON: loading it whole is slow)."""
        self.campaign.refresh_from_db(fields=["state", "status"])
        return self.campaign.state

    def number(self) -> int:
        return self.state()[self.tpl.number_attr]

    def ended(self) -> bool:
        return self.state()["phase"] == "ended"

    def open_decisions(self) -> list[Decision]:
        return list(
            self.campaign.decisions.filter(status="open")
            .select_related("chooser", "battle")
            .order_by("id")
        )

    def playing_battle(self) -> Battle | None:
        return self.campaign.battles.filter(status=Battle.Status.PLAYING, result={}).first()

    def player_for(self, decision: Decision, pick) -> Any:
        if decision.chooser is None:
            return pick.choice(self.players)
        return self.players[decision.chooser.order]

    # -- acting --------------------------------------------------------------------------
    def answer(self, decision: Decision, pick) -> None:
        if not decision.is_roll:
            self.asked.setdefault((decision.battle.number, decision.key), decision.pk)
        answer = legal_answer(decision, pick)
        with TestCase.captureOnCommitCallbacks(execute=True):
            decision_answer(decision=decision, actor=self.player_for(decision, pick), answer=answer)

    def submit(self, battle: Battle, pick) -> None:
        winner = pick.choice(self.sides)
        details = random_details(self.template, pick)
        with TestCase.captureOnCommitCallbacks(execute=True):
            battle_result_submit(
                battle=battle, actor=pick.choice(self.players), winner=winner, details=details
            )
        self.results[battle.pk] = (winner, details)

    # -- rules ---------------------------------------------------------------------------
    @precondition(lambda self: self.campaign is not None and self.open_decisions())
    @rule(data=st.data())
    def answer_a_decision(self, data) -> None:
        pick = DrawPick(data)
        self.answer(pick.choice(self.open_decisions()), pick)

    @precondition(lambda self: self.campaign is not None and self.playing_battle() is not None)
    @rule(data=st.data())
    def enter_the_result(self, data) -> None:
        self.submit(self.playing_battle(), DrawPick(data))

    @precondition(lambda self: self.campaign is not None and not self.ended())
    @rule()
    def press_advance(self) -> None:
        cc_advance(campaign_id=self.campaign.pk, actor=self.players[0])

    @precondition(lambda self: self.campaign is not None)
    @rule(data=st.data())
    def press_resume(self, data) -> None:
        with TestCase.captureOnCommitCallbacks(execute=True):
            cc_resume(campaign=self.campaign, actor=DrawPick(data).choice(self.players))

    @precondition(lambda self: self.campaign is not None and self.results)
    @rule(data=st.data())
    def enter_the_same_result_again(self, data) -> None:
        """A double submit (two players, a reload) changes nothing."""
        pick = DrawPick(data)
        battle_pk = pick.choice(sorted(self.results))
        winner, details = self.results[battle_pk]
        before = self.snapshot()
        with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
            battle_result_submit(
                battle=Battle.objects.get(pk=battle_pk),
                actor=pick.choice(self.players),
                winner=winner,
                details=details,
            )
        assert not callbacks, "a repeated result schedules nothing"
        assert self.snapshot() == before

    @precondition(
        lambda self: (
            self.campaign is not None and self.campaign.decisions.exclude(status="open").exists()
        )
    )
    @rule(data=st.data())
    def answer_a_decision_again(self, data) -> None:
        """A retry of an answered decision (an entered roll above all) is refused, not re-applied."""
        pick = DrawPick(data)
        done = list(
            self.campaign.decisions.exclude(status="open").select_related("chooser", "battle")
        )
        decision = pick.choice(done)
        before = self.snapshot()
        with pytest.raises(ValidationError, match="already been answered"):
            decision_answer(
                decision=decision,
                actor=self.player_for(decision, pick),
                answer=legal_answer(decision, pick),
            )
        assert self.snapshot() == before

    def snapshot(self) -> tuple:
        self.campaign.refresh_from_db()
        return (
            self.campaign.state,
            list(self.campaign.decisions.values_list("id", "status", "answer")),
            self.campaign.log.count(),
        )

    # -- invariants ----------------------------------------------------------------------
    @invariant()
    def invariants_hold(self) -> None:
        if self.campaign is not None:
            self.check()

    def check(self) -> None:
        c = self.campaign
        rows = list(
            c.decisions.values_list(
                "id", "battle__number", "key", "roll_kind", "status", "sealed", "answer"
            )
        )
        # no choice asked twice for the same battle (rows are never deleted: all are here)
        for pk, number, key, roll_kind, *_rest in rows:
            if not roll_kind:
                first = self.asked.setdefault((number, key), pk)
                assert first == pk, f"{key} asked twice for battle {number}"
        # an answer waits un-applied only while a sealed sibling is still open
        waiting = [r for r in rows if r[4] == "answered"]
        if waiting:
            assert all(r[5] for r in waiting), f"answered, never applied: {waiting}"
            assert any(r[4] == "open" and r[5] for r in rows), f"never applied: {waiting}"
        # entered rolls are valid for their kind
        for _pk, _n, _key, roll_kind, status, _sealed, answer in rows:
            if roll_kind and status == "applied" and isinstance(answer, list):
                kind(roll_kind).check_faces(answer)
        # the battle number only goes up, within the template's bound
        state = self.state()
        number = state[self.tpl.number_attr]
        assert number >= self.highest, f"battle number went back: {self.highest} → {number}"
        self.highest = number
        assert number <= LAST_BATTLE[self.template]
        ended = state["phase"] == "ended"
        assert ended == (c.status == Campaign.Status.FINISHED)
        if ended:
            assert not any(r[4] == "open" for r in rows)
        c.refresh_from_db(fields=["stopped_reason"])
        assert c.stopped_reason == "", c.stopped_reason


@pytest.fixture
def seeded_server_dice(monkeypatch):
    """The engine's server rolls come from the example's seeded source (replayable)."""
    monkeypatch.setattr(cc_engine, "ServerDice", lambda: CampaignMachine.server_dice)


@pytest.mark.parametrize("dice_mode", ["server", "entered"])
@pytest.mark.parametrize("template", ["stalingrad", "normandy", "gastadores"])
def test_random_campaigns_never_ask_twice_and_always_end(template, dice_mode, seeded_server_dice):
    machine = type(
        f"{template.capitalize()}{dice_mode.capitalize()}Machine",
        (CampaignMachine,),
        {"template": template, "dice_mode": dice_mode},
    )
    run_state_machine_as_test(machine, settings=PROPERTY_SETTINGS)

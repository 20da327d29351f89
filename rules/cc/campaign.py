"""Shared machinery of the linked Combat Commander campaigns (Stalingrad, Normandy).

A campaign is a state machine over a serialisable state (`to_dict` / `from_dict`):

    FORCES --prepare_forces--> SUPPORT --prepare_support--> BATTLE --conclude_battle--> FORCES
                                                                              └--------> ENDED

Each procedure runs through `run`, which works on a copy of the state and returns an
`Outcome`: the new state and its explanation, or — when a player's choice or a roll entered
at the table is missing — the unchanged state carrying the rolls already made and the answers
already given (`pending`), with the `Decision` or the roll to ask for. The caller answers with
`choices={decision.key: answer}` (or the entered roll) and calls the same procedure again;
stored rolls and answers are reused, never asked again. The caller keeps the waiting state,
so what the players entered and the state that holds it can never disagree. An illegal
answer raises `RuleError` naming the rule.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Self, TypeVar

from rules.cc.common import Faction, Posture, Quality
from rules.cc.common import roll as cc_roll
from rules.dice import DiceSource, RollRecord
from rules.errors import RollNeeded, RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg
from rules.serial import from_data, to_data


class Phase(StrEnum):
    FORCES = "forces"  # next: prepare_forces (map, forces, sealed purchases, VP cost)
    SUPPORT = "support"  # next: prepare_support (RS.7, support, RS.8, RS.9, fortifications)
    BATTLE = "battle"  # next: conclude_battle (the post-battle sequence)
    ENDED = "ended"


PHASE_WORDS = {
    Phase.FORCES: msg("forces"),
    Phase.SUPPORT: msg("support"),
    Phase.BATTLE: msg("battle"),
    Phase.ENDED: msg("ended"),
}
"""Each phase as a reader's word (in "the campaign is at its … step")."""


def stored(words: Msg | str) -> str | dict[str, Any]:
    """Words kept in the state: a message as its dict, so it renders in the reader's language."""
    return words.as_dict() if isinstance(words, Msg) else words


@dataclass
class LedgerEntry:
    """One change of a pool: signed amount, balance after it, why, under which rule, when."""

    amount: int
    balance: int
    reason: str | dict[str, Any]
    """Why: a stored message (`Msg.as_dict`), or plain words in older states."""
    rule: str
    battle: int


@dataclass
class Pool:
    """A campaign pool of points (fortification, armor, artillery): 0 ≤ balance ≤ cap."""

    name: str | dict[str, Any]
    """A stored message (`Msg.as_dict`), or plain words in older states."""
    cap: int
    balance: int
    ledger: list[LedgerEntry] = field(default_factory=list)

    @classmethod
    def full(cls, name: Msg | str, cap: int) -> Pool:
        return cls(stored(name), cap, cap)

    def change(self, amount: int, *, reason: Msg | str, rule: str, battle: int) -> LedgerEntry:
        after = self.balance + amount
        if after < 0:
            raise RuleError(
                msg(
                    "only %(left)s points left in the pool, cannot spend %(spent)s",
                    left=self.balance,
                    spent=-amount,
                ),
                rule=rule,
            )
        if after > self.cap:
            raise RuleError(
                msg("the pool cannot exceed its campaign cap of %(cap)s", cap=self.cap), rule=rule
            )
        self.balance = after
        entry = LedgerEntry(amount, after, stored(reason), rule, battle)
        self.ledger.append(entry)
        return entry


@dataclass
class VPEntry:
    """One move of the battle's VP marker, signed toward the Axis (+) or the Allies (−)."""

    delta_axis: int
    reason: str | dict[str, Any]
    """Why: a stored message (`Msg.as_dict`), or plain words in older states."""
    rule: str


@dataclass
class BattleRecord:
    """What the campaign recorded about one battle, set-up to result."""

    number: int
    position: str
    map: int
    orientation: int | None = None
    vp_axis: int = 0
    vp_ledger: list[VPEntry] = field(default_factory=list)
    fielded: dict[Faction, list[str]] = field(default_factory=dict)
    posture: dict[Faction, Posture] = field(default_factory=dict)
    totals: dict[Faction, dict[str, int | None]] = field(default_factory=dict)
    winner: Faction | None = None
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass
class Pending:
    """Rolls made and answers given while a procedure waits for a decision."""

    rolls: dict[str, RollRecord] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)


def _line() -> dict[Faction, Quality]:
    return {f: Quality.LINE for f in Faction}


@dataclass
class Machine:
    """A serialisable state that `run` can drive: its phase and what a decision left pending."""

    SIDES: ClassVar[dict[Faction, Msg]] = {Faction.AXIS: msg("Axis"), Faction.ALLIES: msg("Allies")}

    phase: Phase = Phase.FORCES
    pending: Pending = field(default_factory=Pending)

    def to_dict(self) -> dict[str, Any]:
        return to_data(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return from_data(cls, data)


@dataclass
class CampaignState(Machine):
    """State common to the linked battle-by-battle campaigns; each subclasses it."""

    battle: int = 1
    quality: dict[Faction, Quality] = field(default_factory=_line)
    battles: list[BattleRecord] = field(default_factory=list)
    winner: Faction | None = None
    victory: str | None = None

    @property
    def current(self) -> BattleRecord:
        return self.battles[-1]


S = TypeVar("S", bound=Machine)


@dataclass
class Outcome(Generic[S]):
    """A procedure's result: the state after it (or still waiting), and why.

    While waiting, exactly one of `decision` (a player's choice) and `roll` (a roll to enter
    from the table) says what is missing.
    """

    state: S
    explanation: Explanation
    decision: Decision | None = None
    roll: RollNeeded | None = None

    @property
    def done(self) -> bool:
        return self.decision is None and self.roll is None


_LISTED = 20
"""A whole-number entry lists its legal values as options when there are at most this many."""


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


class Session:
    """One run of a procedure: stored rolls, answers given, the explanation being written."""

    def __init__(
        self, state: Machine, choices: Mapping[str, Any] | None, dice: DiceSource | None
    ) -> None:
        self.rolls: dict[str, RollRecord] = dict(state.pending.rolls)
        self.choices: dict[str, Any] = {**state.pending.choices, **(choices or {})}
        self.dice = dice
        self.sides = state.SIDES
        self.explanation = Explanation()

    def name(self, side: Faction) -> Msg:
        """The side's name as the site shows it ("Germans", "Soviets"), a message."""
        return self.sides[side]

    def step(self, rule: str, text: Msg, value: Any = None, roll: RollRecord | None = None) -> Any:
        return self.explanation.add(rule, text, value, roll)

    def roll(self, key: str, *, purpose: Msg, rule: str) -> RollRecord:
        """A 2d6 roll, made once: a repeated run reuses the stored record.

        `purpose` is a message without parameters: the record keeps its English id, which the
        site translates when it shows the roll."""
        if key not in self.rolls:
            if self.dice is None:
                raise RuleError(msg("a dice source is needed for %(purpose)s", purpose=purpose))
            self.rolls[key] = cc_roll(self.dice, purpose=purpose.id, rule=rule)
        return self.rolls[key]

    def _ask(
        self, key: str, rule: str, prompt: Msg, options: tuple, chooser: str, **bounds: int | None
    ) -> Any:
        if key not in self.choices:
            raise DecisionRequired(Decision(key, rule, prompt, options, chooser, **bounds))
        return self.choices[key]

    def choose(
        self, key: str, *, rule: str, prompt: Msg, options: Iterable[Any], chooser: Faction | str
    ) -> Any:
        """One of `options`; a single legal option is taken without asking."""
        options = tuple(options)
        if len(options) == 1:
            return options[0]
        value = self._ask(key, rule, prompt, options, str(chooser))
        if not any(_same(value, o) for o in options):
            legal = ", ".join(map(str, options))
            raise RuleError(
                msg("%(value)s is not a legal choice (%(legal)s)", value=value, legal=legal),
                rule=rule,
            )
        return value

    def choose_some(
        self,
        key: str,
        *,
        rule: str,
        prompt: Msg,
        options: Iterable[str],
        chooser: Faction | str,
        most: int | None = None,
    ) -> list[str]:
        """Any number (0 up to `most`) of distinct `options`, answered as a list."""
        options = tuple(options)
        if not options or most == 0:
            return []
        value = self._ask(key, rule, prompt, options, str(chooser), min_choices=0, max_choices=most)
        if not isinstance(value, list | tuple) or len(set(value)) != len(value):
            raise RuleError(msg("answer with a list of distinct options"), rule=rule)
        wrong = [v for v in value if v not in options]
        if wrong:
            raise RuleError(
                msg("not among the options: %(wrong)s", wrong=", ".join(map(str, wrong))), rule=rule
            )
        if most is not None and len(value) > most:
            raise RuleError(
                msg("at most %(most)s may be chosen, not %(n)s", most=most, n=len(value)), rule=rule
            )
        return list(value)

    def enter_int(
        self, key: str, *, rule: str, prompt: Msg, chooser: Faction | str, low: int, high: int
    ) -> int:
        """A whole number the players enter, low..high."""
        if low == high:
            return low
        options = tuple(range(low, high + 1)) if high - low <= _LISTED else ()
        asked = msg("%(prompt)s (%(low)s to %(high)s)", prompt=prompt, low=low, high=high)
        value = self._ask(key, rule, asked, options, str(chooser))
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleError(
                msg(
                    "%(prompt)s: a whole number %(low)s to %(high)s, not %(value)s",
                    prompt=prompt,
                    low=low,
                    high=high,
                    value=repr(value),
                ),
                rule=rule,
            )
        return value


Procedure = Callable[[S, Session], None]


def run(
    state: S,
    procedure: Procedure,
    *,
    phase: Phase,
    choices: Mapping[str, Any] | None,
    dice: DiceSource | None,
) -> Outcome[S]:
    """Run one procedure of the state machine on a copy of `state` (see the module doc)."""
    if state.phase is not phase:
        raise RuleError(
            msg(
                "the campaign is at its %(now)s step, not %(asked)s",
                now=PHASE_WORDS[state.phase],
                asked=PHASE_WORDS[phase],
            )
        )
    work = copy.deepcopy(state)
    work.pending = Pending()
    session = Session(state, choices, dice)
    try:
        procedure(work, session)
    except (DecisionRequired, RollNeeded) as exc:
        waiting = copy.deepcopy(state)
        waiting.pending = Pending(dict(session.rolls), dict(session.choices))
        if isinstance(exc, RollNeeded):
            return Outcome(waiting, session.explanation, roll=exc)
        return Outcome(waiting, session.explanation, exc.decision)
    return Outcome(work, session.explanation)

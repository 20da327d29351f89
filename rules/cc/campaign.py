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

from rules.cc.campaign_tables import CampaignTables
from rules.cc.common import Faction, Posture, Quality
from rules.cc.common import roll as cc_roll
from rules.dice import DiceSource, RollRecord
from rules.errors import RollNeeded, RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.serial import from_data, to_data
from rules.tables import MISSING


class Phase(StrEnum):
    FORCES = "forces"  # next: prepare_forces (map, forces, sealed purchases, VP cost)
    SUPPORT = "support"  # next: prepare_support (RS.7, support, RS.8, RS.9, fortifications)
    BATTLE = "battle"  # next: conclude_battle (the post-battle sequence)
    ENDED = "ended"


@dataclass
class LedgerEntry:
    """One change of a pool: signed amount, balance after it, why, under which rule, when."""

    amount: int
    balance: int
    reason: str
    rule: str
    battle: int


@dataclass
class Pool:
    """A campaign pool of points (fortification, armor, artillery): 0 ≤ balance ≤ cap."""

    name: str
    cap: int
    balance: int
    ledger: list[LedgerEntry] = field(default_factory=list)

    @classmethod
    def full(cls, name: str, cap: int) -> Pool:
        return cls(name, cap, cap)

    def change(self, amount: int, *, reason: str, rule: str, battle: int) -> LedgerEntry:
        after = self.balance + amount
        if after < 0:
            raise RuleError(
                f"{self.name}: only {self.balance} left, cannot spend {-amount}", rule=rule
            )
        if after > self.cap:
            raise RuleError(f"{self.name} cannot exceed its campaign cap of {self.cap}", rule=rule)
        self.balance = after
        entry = LedgerEntry(amount, after, reason, rule, battle)
        self.ledger.append(entry)
        return entry


@dataclass
class VPEntry:
    """One move of the battle's VP marker, signed toward the Axis (+) or the Allies (−)."""

    delta_axis: int
    reason: str
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

    SIDES: ClassVar[dict[Faction, str]] = {Faction.AXIS: "Axis", Faction.ALLIES: "Allies"}

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

    def name(self, side: Faction) -> str:
        return self.sides[side]

    def step(self, rule: str, text: str, value: Any = None, roll: RollRecord | None = None) -> Any:
        return self.explanation.add(rule, text, value, roll)

    def roll(self, key: str, *, purpose: str, rule: str) -> RollRecord:
        """A 2d6 roll, made once: a repeated run reuses the stored record."""
        if key not in self.rolls:
            if self.dice is None:
                raise RuleError(f"a dice source is needed for {purpose}", rule=rule)
            self.rolls[key] = cc_roll(self.dice, purpose=purpose, rule=rule)
        return self.rolls[key]

    def _ask(
        self, key: str, rule: str, prompt: str, options: tuple, chooser: str, **bounds: int | None
    ) -> Any:
        if key not in self.choices:
            raise DecisionRequired(Decision(key, rule, prompt, options, chooser, **bounds))
        return self.choices[key]

    def choose(
        self, key: str, *, rule: str, prompt: str, options: Iterable[Any], chooser: Faction | str
    ) -> Any:
        """One of `options`; a single legal option is taken without asking."""
        options = tuple(options)
        if len(options) == 1:
            return options[0]
        value = self._ask(key, rule, prompt, options, str(chooser))
        if not any(_same(value, o) for o in options):
            legal = ", ".join(map(str, options))
            raise RuleError(f"{value!r} is not a legal choice ({legal})", rule=rule)
        return value

    def choose_some(
        self,
        key: str,
        *,
        rule: str,
        prompt: str,
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
            raise RuleError("answer with a list of distinct options", rule=rule)
        wrong = [v for v in value if v not in options]
        if wrong:
            raise RuleError(f"not among the options: {', '.join(map(str, wrong))}", rule=rule)
        if most is not None and len(value) > most:
            raise RuleError(f"at most {most} may be chosen, not {len(value)}", rule=rule)
        return list(value)

    def enter_int(
        self, key: str, *, rule: str, prompt: str, chooser: Faction | str, low: int, high: int
    ) -> int:
        """A whole number the players enter, low..high."""
        if low == high:
            return low
        options = tuple(range(low, high + 1)) if high - low <= _LISTED else ()
        value = self._ask(key, rule, f"{prompt} ({low} to {high})", options, str(chooser))
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleError(f"{prompt}: a whole number {low} to {high}, not {value!r}", rule=rule)
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
        raise RuleError(f"the campaign is at its {state.phase.value} step, not {phase.value}")
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


# ---------------------------------------------------------------------------------------------
# Steps shared by the campaigns' pre-battle sequences


def vp_text(ctx: Session, vp_axis: int) -> str:
    if vp_axis == 0:
        return "VP marker on 0"
    side = Faction.AXIS if vp_axis > 0 else Faction.ALLIES
    return f"VP marker {abs(vp_axis)} on the {ctx.name(side)} side"


def move_vp(ctx: Session, record: BattleRecord, delta_axis: int, *, reason: str, rule: str) -> None:
    record.vp_axis += delta_axis
    record.vp_ledger.append(VPEntry(delta_axis, reason, rule))
    ctx.step(rule, f"{reason}: {vp_text(ctx, record.vp_axis)}", record.vp_axis)


def pay_vp(
    ctx: Session, record: BattleRecord, side: Faction, amount: int, *, reason: str, rule: str
) -> None:
    """`side` moves the VP marker `amount` spaces toward its opponent."""
    move_vp(
        ctx,
        record,
        -amount if side is Faction.AXIS else amount,
        reason=f"{ctx.name(side)} pays {amount} VP for {reason}",
        rule=rule,
    )


def sealed_purchase(
    ctx: Session,
    pools: Mapping[Faction, list[str]],
    tables: CampaignTables,
    *,
    rule: str,
    cost_rule: str,
    noun: str,
    order: list[Faction],
) -> dict[Faction, list[str]]:
    """Both players secretly fist any number of leaders from their pools, then reveal.

    Every formation on offer must have its cost in the tables before anyone chooses: an error
    found after a secret choice would say what was chosen, so the check names the whole
    (public) pools' missing costs and no sealed choice opens until they are entered.
    """
    missing = [f for side in order for f in pools[side] if tables.get(f, "cost") is MISSING]
    if missing:
        raise RuleError(
            f"the Campaign Forces Table gives no cost for {', '.join(missing)}: the organiser "
            f"enters them in the campaign's tables before the secret {noun} purchase",
            rule=cost_rule,
        )
    bought = {
        side: ctx.choose_some(
            f"purchase.{side.value}",
            rule=rule,
            prompt=(
                f"{ctx.name(side)}: secretly choose any number (0 or more) of the {noun}s in "
                "the pool to buy; both choices are revealed together"
            ),
            options=pools[side],
            chooser=side,
        )
        for side in order
    }
    for side in order:
        for formation in bought[side]:
            pools[side].remove(formation)
        listed = ", ".join(bought[side]) or f"no {noun}"
        ctx.step(rule, f"{ctx.name(side)} reveals {listed}; they leave the pool", bought[side])
    return bought


def standard_support(ctx: Session, record: BattleRecord) -> None:
    """RS.7 is played as written (outside the campaign); the players enter the VP marker."""
    if record.vp_axis == 0:
        ctx.step("RS.7", "VP marker on 0: no standard support rolls")
        return
    after = ctx.enter_int(
        "rs7.vp_axis",
        rule="RS.7",
        prompt="VP marker after the RS.7 support purchases (positive: Axis side)",
        chooser="both",
        low=-99,
        high=99,
    )
    move_vp(ctx, record, after - record.vp_axis, reason="RS.7 support purchases", rule="RS.7")


def set_postures(ctx: Session, record: BattleRecord) -> None:
    """RS.8: the side ahead on VP defends, the other attacks; on 0 both are Recon."""
    if record.vp_axis == 0:
        record.posture = {f: Posture.RECON for f in Faction}
    else:
        ahead = Faction.AXIS if record.vp_axis > 0 else Faction.ALLIES
        record.posture = {ahead: Posture.DEFEND, ahead.other: Posture.ATTACK}
    for side in Faction:
        ctx.step("RS.8", f"{ctx.name(side)} posture", record.posture[side].value)


def defender_fortifications(ctx: Session, record: BattleRecord) -> None:
    """RS.9: the Defender may spend up to his VP on Fortification OBs (VP toward the Attacker)."""
    defenders = [s for s, p in record.posture.items() if p is Posture.DEFEND]
    if not defenders:
        ctx.step("RS.9", "no Defender: no RS.9 fortifications")
        return
    side = defenders[0]
    spent = ctx.enter_int(
        "rs9.cost",
        rule="RS.9",
        prompt=f"{ctx.name(side)}: VP spent on RS.9 Fortification OBs",
        chooser=side,
        low=0,
        high=abs(record.vp_axis),
    )
    if spent:
        pay_vp(ctx, record, side, spent, reason="RS.9 Fortification OBs", rule="RS.9")


def force_totals(ctx: Session, tables: CampaignTables, record: BattleRecord, *, rule: str) -> None:
    """Orders, Initiative and Surrender are sums over the fielded formations (RS.8, RS.14-16)."""
    for side in Faction:
        totals: dict[str, int | None] = {}
        for name in ("orders", "initiative", "surrender"):
            values = [tables.get(f, name) for f in record.fielded[side]]
            missing = [f for f, v in zip(record.fielded[side], values, strict=True) if v is MISSING]
            totals[name] = None if missing else sum(values)
            text = (
                " + ".join(map(str, values))
                if not missing
                else "not entered for " + ", ".join(missing)
            )
            ctx.step(rule, f"{ctx.name(side)} {name}: {text}", totals[name])
        record.totals[side] = totals
    initiative = {s: record.totals[s]["initiative"] for s in Faction}
    if None not in initiative.values() and initiative[Faction.AXIS] != initiative[Faction.ALLIES]:
        holder = max(Faction, key=lambda s: initiative[s])
        record.extras["initiative_card"] = holder.value
        ctx.step("RS.15", f"{ctx.name(holder)} has the higher Initiative and takes the card")
    else:
        ctx.step("RS.15", "Initiative tied or not entered: the players decide who holds the card")


# ---------------------------------------------------------------------------------------------
# Steps shared by the campaigns' post-battle sequences

_UP = {Quality.GREEN: Quality.LINE, Quality.LINE: Quality.ELITE}
_DOWN = {Quality.ELITE: Quality.LINE, Quality.LINE: Quality.GREEN}


def adjust_quality(
    ctx: Session, quality: dict[Faction, Quality], winner: Faction, *, rule: str
) -> None:
    """The winner may raise his own quality one level or lower his opponent's one level."""
    loser = winner.other
    options = [
        *(["raise_own"] if quality[winner] in _UP else []),
        *(["lower_opponent"] if quality[loser] in _DOWN else []),
        "none",
    ]
    choice = ctx.choose(
        "quality",
        rule=rule,
        prompt=f"{ctx.name(winner)}: raise your quality, lower your opponent's, or neither",
        options=options,
        chooser=winner,
    )
    if choice == "raise_own":
        quality[winner] = _UP[quality[winner]]
        ctx.step(rule, f"{ctx.name(winner)} raises his quality", quality[winner].value)
    elif choice == "lower_opponent":
        quality[loser] = _DOWN[quality[loser]]
        ctx.step(
            rule, f"{ctx.name(winner)} lowers the {ctx.name(loser)} quality", quality[loser].value
        )
    else:
        ctx.step(rule, f"{ctx.name(winner)} leaves both qualities unchanged")


def divisional_requests(
    ctx: Session,
    tables: CampaignTables,
    winner: Faction,
    *,
    available: Callable[[Faction, str], bool],
    grant: Callable[[Faction, str], None],
    rule: str,
) -> None:
    """The loser rolls once, the winner twice keeping one; an available result is granted.

    Only results that would bring someone are offered: an unavailable one gives nothing, so
    a player is never asked to choose it; a single usable result is kept without asking.
    """
    for side, count in ((winner.other, 1), (winner, 2)):
        results = []
        for i in range(count):
            record = ctx.roll(
                f"divisional.{side.value}.{i + 1}",
                purpose=f"{ctx.name(side)} Divisional Reserve roll",
                rule=rule,
            )
            result = tables.divisional_result(side, record.value, rule=rule)
            ctx.step(
                rule, f"{ctx.name(side)} Divisional Reserve roll {record.value}", result, record
            )
            results.append(result)
        usable = [r for r in dict.fromkeys(results) if available(side, r)]
        if not usable:
            ctx.step(
                rule,
                f"{', '.join(dict.fromkeys(results))} not available: the {ctx.name(side)} player "
                "receives nothing",
            )
            continue
        kept = ctx.choose(
            f"divisional.{side.value}",
            rule=rule,
            prompt=f"{ctx.name(side)}: keep one of the two Divisional Reserve results",
            options=usable,
            chooser=side,
        )
        grant(side, kept)
        ctx.step(rule, f"{kept} is available and joins the {ctx.name(side)} Regimental pool", kept)

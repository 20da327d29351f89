"""The assault (and overrun) as a step machine a page can drive one step at a time
[22.0 steps 2–7, 23.0]: the state keeps only each side's units in the target hex with their
morale state; the fire and checks (`rules.tcs.assault`) are fed back through `advance`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs.assault import (
    ATTACKER,
    DEFENDER,
    REPULSING,
    SIDE_WORDS,
    SIMULTANEOUS,
    AssaultUnit,
)
from rules.tcs.morale_check import MoraleState
from rules.tcs.morale_table import RESULT_WORDS


@dataclass(frozen=True)
class Prompt:
    """What happens next: the step, who acts, the rule, what to show, the answer keys."""

    step: int
    whose: str
    rule: str
    text: Msg
    asks: tuple[str, ...] = ()
    fire_order: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "whose": self.whose,
            "rule": self.rule,
            "text": str(self.text),
            "msg": self.text.as_dict(),
            "asks": list(self.asks),
            "fire_order": list(self.fire_order),
        }


@dataclass(frozen=True)
class Assault:
    """An assault (or overrun) in progress; each side's units in (or entering) the target
    hex → morale state. `step` 8 = over; `winner` attacker, defender or "" (hex empty or
    attacker repulsed → defender)."""

    attackers: dict[str, str]
    defenders: dict[str, str]
    overrun: bool = False
    step: int = 2
    round: int = 0
    ended: str = ""
    winner: str = ""
    explanation: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Assault:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})

    def _note(self, rule: str, text: Msg, **changes: Any) -> Assault:
        exp = Explanation.from_list(self.explanation)
        exp.add(rule, text)
        return replace(self, explanation=exp.as_list(), **changes)


def start(
    attackers: Sequence[AssaultUnit], defenders: Sequence[AssaultUnit], *, overrun: bool = False
) -> Assault:
    """The state after a declaration that passed `check_assault` / `check_overrun`."""
    state = Assault(
        {u.id: str(u.state) for u in attackers},
        {u.id: str(u.state) for u in defenders},
        overrun,
    )
    return state._note(
        "23.0" if overrun else "22.0", msg("declared; the defender's Final overwatch")
    )


def _broken(states: Mapping[str, str]) -> bool:
    return any(s != MoraleState.NORMAL for s in states.values())


def fire_order(state: Assault) -> tuple[str, ...]:
    """X fires first if none of X is Suppressed or Paralyzed and some of Y is; else both at
    once [22.0 step 6]."""
    att, dfd = _broken(state.attackers), _broken(state.defenders)
    if not att and dfd:
        return (ATTACKER, DEFENDER)
    if att and not dfd:
        return (DEFENDER, ATTACKER)
    return (SIMULTANEOUS,)


def prompt(state: Assault) -> Prompt:
    """Whose move and what is asked at the current step."""
    s, hit = state.step, ("attacker_result",)
    if s == 2 and state.overrun:
        text = msg("Defender: Final overwatch on the overrunning stack (no retreat instead)")
        return Prompt(2, DEFENDER, "23.0.f", text, hit)
    if s == 2:
        text = msg(
            "Defender: Final overwatch on the assaulting stack, or a voluntary retreat of all "
            "units neither Suppressed nor Paralyzed"
        )
        return Prompt(2, DEFENDER, "22.0", text, ("choice", *hit))
    if s == 3 and state.overrun:
        text = msg("The overrunning stack enters; the defenders keep their Suppressed markers")
        return Prompt(3, ATTACKER, "23.0.g", text)
    if s == 3:
        text = msg("The assaulting stack enters; remove the defenders' Suppressed markers")
        return Prompt(3, ATTACKER, "22.0", text)
    if s == 4:
        text = msg("Artillery attack zone in or adjacent to the target hex attacks the assaulters")
        return Prompt(4, DEFENDER, "22.0", text, hit)
    if s == 5:
        text = msg("A minefield in the target hex attacks the assaulters (no breach use)")
        return Prompt(5, DEFENDER, "22.0", text, hit)
    if s == 6:
        order = fire_order(state)
        text = msg(
            "Round %(n)s: assault fire (%(order)s), then morale checks, attacker first",
            n=state.round,
            order=[SIDE_WORDS[o] for o in order],
        )
        return Prompt(6, "both", "22.0", text, ("attackers", "defenders"), order)
    if s == 7:
        text = msg(
            "Mounted units may dismount and Move-mode units may switch to Fire mode; "
            "the attacker decides first"
        )
        return Prompt(7, ATTACKER, "22.0", text)
    return Prompt(8, "", "23.0.h" if state.overrun else "22.0.i", _end_text(state))


def _end_text(state: Assault) -> Msg:
    """The outcome; what the attackers may still do is `overrun.aftermath` [22.0.i, 23.0.h]."""
    if state.ended == "repulsed":
        return msg("The assault is over: the attackers return to their start hex in their mode")
    if state.overrun:
        return msg("The overrun is over: the movers may go on with their remaining MP")
    if state.winner == ATTACKER:
        return msg("The attacker holds the hex; its units may not SFA, PFA or move")
    if state.winner == DEFENDER:
        return msg("The defender holds the hex")
    return msg("The target hex is empty")


def _after_hit(state: Assault, answer: Mapping[str, Any], rule: str) -> Assault:
    """Steps 2, 4, 5: an S/P/SYR or elimination of the attacker ends the assault."""
    result = answer.get("attacker_result", "none")
    if result not in REPULSING | {"none"}:
        raise RuleError(msg("unknown result %(result)s", result=result), rule=rule)
    attackers = dict(answer.get("attackers", state.attackers))
    if result in REPULSING or not attackers:
        return state._note(
            rule,
            msg(
                "the attacker got %(result)s: the assault ends",
                result=RESULT_WORDS.get(result, msg("eliminated")),
            ),
            attackers=attackers,
            step=8,
            ended="repulsed",
            winner=DEFENDER,
        )
    return replace(state, attackers=attackers, step=state.step + 1)


def advance(state: Assault, answer: Mapping[str, Any] | None = None) -> Assault:
    """The next state from the current step's answer (keys as `prompt(state).asks`):
    `choice` "overwatch" or "retreat" (step 2); `attacker_result` "none", "suppressed",
    "paralyzed", "syr", "surrender" or "eliminated" (steps 2, 4, 5; "none" where no
    artillery zone or minefield); optional `attackers` survivors → state (steps 2, 4, 5);
    `attackers` and `defenders` in the hex → state after the round's fire and checks (step 6).
    """
    answer = answer or {}
    s = state.step
    if s == 2:
        if answer.get("choice") == "retreat":
            if state.overrun:
                raise RuleError(msg("no retreat instead of Final overwatch"), rule="23.0.f")
            stay = {k: v for k, v in state.defenders.items() if v != MoraleState.NORMAL}
            note = msg("the defenders retreat; Suppressed and Paralyzed units stay behind")
            if not stay:
                return state._note("22.0", note, defenders={}, step=7, round=1)
            return state._note("22.0", note, defenders=stay, step=3)
        return _after_hit(state, answer, "22.0")
    if s == 3:
        if state.overrun:
            return state._note("23.0.g", msg("defenders keep their Suppressed markers"), step=4)
        cleared = {
            k: (MoraleState.NORMAL.value if v == MoraleState.SUPPRESSED else v)
            for k, v in state.defenders.items()
        }
        return state._note(
            "22.0",
            msg("the assaulters enter; defenders' Suppressed markers removed, Paralyzed kept"),
            defenders=cleared,
            step=4,
        )
    if s in (4, 5):
        new = _after_hit(state, answer, "22.0")
        return replace(new, round=1) if new.step == 6 else new
    if s == 6:
        if "attackers" not in answer or "defenders" not in answer:
            raise RuleError(msg("give both sides' units left in the hex"), rule="22.0")
        new = replace(
            state, attackers=dict(answer["attackers"]), defenders=dict(answer["defenders"])
        )
        if state.overrun:
            return new._note(
                "23.0", msg("an overrun lasts one round"), step=8, ended="over", winner=_holder(new)
            )
        return _settle(new, 7)
    if s == 7:
        return _settle(state, 6, next_round=True)
    raise RuleError(msg("the assault is over"), rule="22.0")


def _holder(state: Assault) -> str:
    if state.attackers and not state.defenders:
        return ATTACKER
    if state.defenders and not state.attackers:
        return DEFENDER
    return ""


def _settle(state: Assault, step: int, *, next_round: bool = False) -> Assault:
    """Stop when one side (or both) is eliminated or gone [22.0 step 7]."""
    if state.attackers and state.defenders:
        return replace(state, step=step, round=state.round + (1 if next_round else 0))
    if step == 7 and state.attackers:
        return replace(state, step=7)  # dismount and mode changes still happen
    return state._note(
        "22.0", msg("one side alone in the hex"), step=8, ended="over", winner=_holder(state)
    )

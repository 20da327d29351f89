"""Assaults [22.0]: who may assault and fire, the assault fire shifts, the round's morale
checks and the assault as a step machine a page can drive one step at a time.

Overruns [23.0] reuse all of it (`rules.tcs.overrun` has their declaration check).
The machine keeps only what it needs to steer: each side's units in the target hex with
their morale state; the fire and the checks themselves are `assault_fire` and
`assault_morale`, whose results the site feeds back into `advance`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs.fire import (
    Firer,
    FireResult,
    FirerKind,
    TargetType,
    TargetUnit,
    area_fire,
    posture_shift,
)
from rules.tcs.fire_tables import FireCharts, Terrain
from rules.tcs.morale_check import (
    CHECKERS,
    Mode,
    MoraleState,
    Outcome,
    StackUnit,
    check_morale,
)
from rules.tcs.morale_table import RESULT_WORDS, MoraleResult, MoraleTable

HEAVY_WEAPONS = {FirerKind.MG, FirerKind.AT_GUN, FirerKind.GUN, FirerKind.ARTILLERY}
ATTACKER, DEFENDER, SIMULTANEOUS = "attacker", "defender", "simultaneous"
# Attacker results in steps 2, 4 and 5 that end the assault [22.0 steps 2–5].
REPULSING = {"suppressed", "paralyzed", "syr", "surrender", "eliminated"}
SIDE_WORDS = {
    ATTACKER: msg("attacker"),
    DEFENDER: msg("defender"),
    SIMULTANEOUS: msg("both sides at once"),
}


@dataclass(frozen=True)
class AssaultUnit:
    """A unit as the assault rules see it: `mp` left this phase (attackers), `hex` it is in,
    `in_stack_at_start` whether its stack existed as such at the start of the phase."""

    id: str
    kind: FirerKind
    mode: Mode = Mode.MOVE
    state: MoraleState = MoraleState.NORMAL
    mp: int | None = None
    hex: str = ""
    in_stack_at_start: bool = True
    unassigned: bool = False
    mounted: bool = False
    towed: bool = False


def refuse(problems: list[tuple[str, str, Msg]], what: Msg) -> None:
    """One RuleError naming every problem; its rule is the first problem's."""
    if problems:
        text = msg(
            "%(what)s refused: %(reasons)s",
            what=what,
            reasons=[
                msg("%(unit)s [%(rule)s] %(why)s", unit=u, rule=r, why=w) for u, r, w in problems
            ],
        )
        raise RuleError(text, rule=problems[0][1])


def stack_problems(
    units: Sequence[AssaultUnit], rules: tuple[str, str], *, adjacent: bool
) -> list[tuple[str, str, Msg]]:
    """Problems shared by assaults and overruns: one stack that existed at the start of the
    phase [22.0, 20.0.h], adjacent, in Move mode, not unassigned [22.0.j, 23.0.l]."""
    problems: list[tuple[str, str, Msg]] = []
    if not units:
        problems.append(("-", "22.0", msg("name the units of the assaulting stack")))
        return problems
    if len({u.hex for u in units}) > 1:
        problems.append(("-", "22.0", msg("only one stack may assault or overrun at a time")))
    if not adjacent:
        problems.append(("-", "22.0", msg("the stack must be adjacent to the target hex")))
    for u in units:
        if u.mode is not Mode.MOVE:
            problems.append((u.id, rules[0], msg("must be in Move mode")))
        if not u.in_stack_at_start:
            problems.append(
                (u.id, "20.0.h", msg("its stack did not exist at the start of the Action Phase"))
            )
        if u.unassigned:
            problems.append((u.id, rules[1], msg("unassigned units may not do this")))
    return problems


def check_assault(
    units: Sequence[AssaultUnit], *, enter_cost: int, adjacent: bool = True
) -> Explanation:
    """An assault may be declared [22.0 step 1, 22.0.a, 22.0.j, 20.0.h]: one stack that
    existed at the start of the phase, adjacent, in Move mode, each unit with the MP to
    enter the target hex (no extra cost), none unassigned. Otherwise a RuleError lists all."""
    problems = stack_problems(units, ("22.0.a", "22.0.j"), adjacent=adjacent)
    for u in units:
        if u.mp is not None and u.mp < enter_cost:
            problems.append(
                (u.id, "22.0.a", msg("%(mp)s MP left, %(cost)s to enter", mp=u.mp, cost=enter_cost))
            )
    refuse(problems, msg("assault"))
    exp = Explanation()
    exp.add("22.0", msg("assault declared: an overwatch event of type Final for the defender"))
    return exp


def fire_problem(u: AssaultUnit, *, overrun: bool = False) -> tuple[str, Msg] | None:
    """Why a unit may not fire in an assault or overrun, or None [22.0.b, 23.0.a, 23.0.e]."""
    if u.kind is FirerKind.MORTAR:
        return "22.0.b", msg("mortars never fire in an assault")
    if u.towed:
        return "9.1.e", msg("towed heavy weapons never fire")
    if u.kind in HEAVY_WEAPONS and u.mode is not Mode.FIRE:
        return "22.0.b", msg("heavy weapons fire in an assault only in Fire mode")
    if overrun and u.state is MoraleState.PARALYZED:
        return "23.0.e", msg("paralyzed units do not fire in an overrun")
    return None


def check_assault_firers(units: Sequence[AssaultUnit], *, overrun: bool = False) -> None:
    """Every unit named may fire in the assault; mounted infantry may [23.0.a, 9.1.e]."""
    problems = []
    for u in units:
        why = fire_problem(u, overrun=overrun)
        if why:
            problems.append((u.id, *why))
    refuse(problems, msg("assault fire"))


def cancel_common(a: int, b: int) -> tuple[int, int]:
    """Both negative → cancel the smaller absolute value on both [22.0.g]; else unchanged."""
    if a < 0 and b < 0:
        common = min(-a, -b)
        return a + common, b + common
    return a, b


def cancel_other(
    vs_attacker: Sequence[tuple[str, int]], vs_defender: Sequence[tuple[str, int]]
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Negative shifts of the same name on both sides cancel by their common part [22.0.f]."""
    left = dict(vs_attacker)
    right = dict(vs_defender)
    for name in left.keys() & right.keys():
        left[name], right[name] = cancel_common(left[name], right[name])
    return (
        [(n, v) for n, v in left.items() if v],
        [(n, v) for n, v in right.items() if v],
    )


@dataclass
class AssaultFire:
    """One round's consolidated area fire of each side [22.0.h]; None where a side had no
    area fire. `terrain` = (vs attacker, vs defender) before and after 22.0.g."""

    by_attacker: FireResult | None
    by_defender: FireResult | None
    terrain_before: tuple[int | None, int | None]
    terrain_after: tuple[int | None, int | None]
    explanation: Explanation = field(default_factory=Explanation)


def _terrain(
    targets: Sequence[TargetUnit], terrain: Terrain, charts: FireCharts, entered
) -> int | None:
    """A side's terrain/posture shift as a target of area fire [11.3.a–b]: P-targets, riders
    on transports and on vehicles have none; None when no unit of the side has one."""
    posed = [t for t in targets if t.type is not TargetType.P and not (t.carried or t.on_vehicle)]
    return posture_shift(posed, terrain, charts, entered, "area").value if posed else None


def _forced(targets: Sequence[TargetUnit], value: int | None, entered: Mapping[str, int]):
    """`entered` with every target posture's terrain shift set to `value`."""
    out = dict(entered)
    if value is not None:
        out.update({f"terrain_posture:{t.posture}": value for t in targets})
    return out


def assault_fire(
    attackers: Sequence[Firer],
    defenders: Sequence[Firer],
    attacker_targets: Sequence[TargetUnit],
    defender_targets: Sequence[TargetUnit],
    terrain: Terrain,
    charts: FireCharts,
    dice: DiceSource | None,
    *,
    overrun: bool = False,
    other_vs_attacker: Sequence[tuple[str, int]] = (),
    other_vs_defender: Sequence[tuple[str, int]] = (),
    entered_vs_attacker: Mapping[str, int] | None = None,
    entered_vs_defender: Mapping[str, int] | None = None,
) -> AssaultFire:
    """Both sides' area fire in one assault round, each consolidated into one attack on the
    enemy units only, stacking per side [22.0.e, 22.0.h], firers at range 0. Negative shifts
    common to both sides are ignored [22.0.f]; both sides' negative terrain shifts (target hex
    terrain and each side's posture) cancel [22.0.g], except in an overrun [23.0.c]. The
    attacker's attack rolls first (order does not matter to the dice)."""
    exp = Explanation()
    vs_att, vs_def = cancel_other(other_vs_attacker, other_vs_defender)
    if len(vs_att) < len(other_vs_attacker) or len(vs_def) < len(other_vs_defender):
        exp.add("22.0.f", msg("negative shifts common to both sides ignored"))
    e_att, e_def = dict(entered_vs_attacker or {}), dict(entered_vs_defender or {})
    before = (
        _terrain(attacker_targets, terrain, charts, e_att),
        _terrain(defender_targets, terrain, charts, e_def),
    )
    after = before
    if overrun:
        exp.add("23.0.c", msg("overrun: terrain modifiers apply normally"))
    elif None not in before:
        after = cancel_common(*before)
        if after != before:
            exp.add(
                "22.0.g",
                msg(
                    "both sides have negative terrain shifts: %(a)s against the attacker, "
                    "%(d)s against the defender after cancelling",
                    a=after[0],
                    d=after[1],
                ),
            )
    by_att = by_def = None
    if attackers:
        by_att = area_fire(
            attackers,
            defender_targets,
            terrain,
            charts,
            dice,
            other=vs_def,
            entered=_forced(defender_targets, after[1], e_def),
        )
    if defenders:
        by_def = area_fire(
            defenders,
            attacker_targets,
            terrain,
            charts,
            dice,
            other=vs_att,
            entered=_forced(attacker_targets, after[0], e_att),
        )
    return AssaultFire(by_att, by_def, before, after, exp)


@dataclass
class AssaultMorale:
    attacker: Outcome | None
    defender: Outcome | None
    defender_skipped: bool
    explanation: Explanation = field(default_factory=Explanation)


def _gone(stack: Sequence[StackUnit], outcome: Outcome | None) -> bool:
    """The stack was eliminated or retreats after its check."""
    if outcome is None:
        return not any(u.remaining for u in stack)
    if outcome.result in (MoraleResult.SYR, MoraleResult.SURRENDER):
        return True
    lost = {x.unit for x in outcome.losses if x.eliminated}
    return all(u.id in lost or not u.remaining for u in stack)


def _check(stack, checks, dice, table, entered, context) -> Outcome | None:
    if not checks or not any(u.category in CHECKERS and u.remaining for u in stack):
        return None
    kwargs = {"in_assault": True, **(context or {})}  # a context may say otherwise
    return check_morale(stack, dice, table=table, entered=entered, **kwargs)


def assault_morale(
    attacker: Sequence[StackUnit],
    defender: Sequence[StackUnit],
    dice: DiceSource,
    *,
    attacker_checks: bool,
    defender_checks: bool,
    table: MoraleTable | None = None,
    attacker_entered: MoraleResult | None = None,
    defender_entered: MoraleResult | None = None,
    attacker_context: Mapping[str, Any] | None = None,
    defender_context: Mapping[str, Any] | None = None,
) -> AssaultMorale:
    """The round's unit morale checks after all fire, attacker first, with the assault
    escalation [22.0 step 6, 22.0.c]; if the attacker is eliminated or retreats, the defender
    skips its unit check (a vehicle morale check may still be due) [22.0 step 6]."""
    exp = Explanation()
    att = _check(attacker, attacker_checks, dice, table, attacker_entered, attacker_context)
    if att is not None:
        exp.extend(att.explanation)
    if attacker and _gone(attacker, att):
        exp.add("22.0", msg("the attacker is eliminated or retreats: the defender does not check"))
        return AssaultMorale(att, None, defender_checks, exp)
    dfd = _check(defender, defender_checks, dice, table, defender_entered, defender_context)
    if dfd is not None:
        exp.extend(dfd.explanation)
    return AssaultMorale(att, dfd, False, exp)


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

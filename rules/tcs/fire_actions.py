"""Who may fire: SFAs [13.1], PFAs [14.1], overwatch [15.2–15.3]; AT rolls [16].

Each check takes plain facts about the firing units and returns what follows (who gets a
*Fired* marker, which overwatch event the opponent gets), or raises `RuleError` naming every
unit that may not fire and why. The fire itself is resolved by `rules.tcs.fire`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.dice import TWO_D6, DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.tcs.fire import FirerKind, chart_value
from rules.tcs.fire_tables import TERRAIN_WORDS, FireCharts, Terrain


@dataclass(frozen=True)
class FirerState:
    """What the rules ask of a unit before it fires, this Action Phase."""

    id: str
    kind: FirerKind
    hex: str = ""
    fire_mode: bool = True
    fire_mode_since_start: bool = True  # of the Action Phase (or vehicle impulse)
    fired_marker: bool = False
    unassigned: bool = False
    suppressed: bool = False
    paralyzed: bool = False
    mounted: bool = False
    towed: bool = False
    moved: bool = False
    made_sfa: bool = False
    made_at_roll: bool = False
    pfas: int = 0
    mortar_fired: bool = False


class EventKind(StrEnum):
    """Overwatch events [15.2.a]."""

    MOVEMENT = "movement"
    FIRE = "fire"
    RECOVERY = "recovery"
    FINAL = "final"


@dataclass
class FireAction:
    fired_markers: tuple[str, ...]
    overwatch_hexes: tuple[str, ...]
    explanation: Explanation = field(default_factory=Explanation)


def _common(u: FirerState) -> list[tuple[str, Msg]]:
    problems = []
    if u.towed:
        problems.append(("9.1.e", msg("towed heavy weapons never fire")))
    elif u.mounted:
        problems.append(("9.1.e", msg("mounted units fire only in assaults and overruns")))
    if u.paralyzed:
        problems.append(("9.1.d", msg("paralyzed units fire only in assaults")))
    if u.kind is FirerKind.MORTAR and u.mortar_fired:
        problems.append(("9.1.a", msg("a mortar fires once per Action Phase")))
    return problems


def _refuse(bad: list[tuple[str, str, Msg]], rule: str) -> None:
    if bad:
        text = msg(
            "may not fire: %(reasons)s",
            reasons=[msg("%(unit)s [%(rule)s] %(why)s", unit=u, rule=r, why=w) for u, r, w in bad],
        )
        raise RuleError(text, rule=rule)


def check_sfa(
    firers: Sequence[FirerState],
    *,
    own_action_phase: bool = True,
    hex_already_hit: bool = False,
    at_rolls_only: bool = False,
) -> FireAction:
    """An SFA [13.1]: own Action Phase, firers in Fire mode since the phase began, not
    *Fired*, no PFA or AT roll yet, assigned, not paralyzed, not moved [20.0.a]; one SFA
    per target hex per phase unless it is AT rolls only. Afterwards every firer is marked
    *Fired* (not for AT rolls only [16.1.g]) and the opponent may overwatch any firing hex."""
    exp = Explanation()
    if not firers:
        raise RuleError(msg("name at least one firing unit"), rule="13.0")
    if not own_action_phase:
        raise RuleError(msg("SFAs are made only in one's own Action Phase"), rule="13.1.a")
    if hex_already_hit and not at_rolls_only:
        raise RuleError(msg("this hex has already been the target of an SFA"), rule="13.1.h")
    bad = []
    for u in firers:
        problems = _common(u)
        if not u.fire_mode_since_start:
            problems.append(("13.1.b", msg("not in Fire mode since the phase began")))
        if u.fired_marker:
            problems.append(("13.1.b", msg("marked Fired")))
        if u.pfas or u.made_at_roll or u.made_sfa:
            problems.append(("13.1.b", msg("already made a PFA, an AT roll or an SFA")))
        if u.unassigned:
            problems.append(("13.1.c", msg("unassigned units may not make SFAs")))
        if u.moved:
            problems.append(("20.0.a", msg("moved this phase")))
        bad.extend((u.id, r, w) for r, w in problems)
    _refuse(bad, "13.1")
    marked = () if at_rolls_only else tuple(u.id for u in firers)
    hexes = tuple(dict.fromkeys(u.hex for u in firers if u.hex))
    if at_rolls_only:
        exp.add("16.1.g", msg("AT rolls only: no Fired marker, but it counts as the SFA"))
    else:
        exp.add("13.1.i", msg("after the SFA and its retreats, mark the firers Fired"), marked)
    exp.add("13.1.d", msg("the opponent may overwatch any hex with a firer"), hexes)
    return FireAction(marked, hexes, exp)


def check_pfa(firers: Sequence[FirerState], *, targets_spotted: bool = True) -> FireAction:
    """A PFA [14.1]: only at spotted B- or P-targets; up to 3 per unit per phase; firers in
    Fire mode since the phase (or impulse) began, assigned, not paralyzed, not *Fired*, no
    SFA; no *Fired* marker; the opponent gets one overwatch event on one firing hex."""
    exp = Explanation()
    if not firers:
        raise RuleError(msg("name at least one firing unit"), rule="14.1.b")
    if not targets_spotted:
        raise RuleError(msg("PFAs are made only at spotted B- or P-targets"), rule="14.1.a")
    bad = []
    for u in firers:
        problems = _common(u)
        if u.pfas >= 3:
            problems.append(("14.1.c", msg("already made 3 PFAs this phase")))
        if u.made_sfa:
            problems.append(("14.1.c", msg("made an SFA this phase")))
        if not u.fire_mode_since_start:
            problems.append(("14.1.g", msg("not in Fire mode since the phase or impulse began")))
        if u.unassigned or u.fired_marker:
            problems.append(("14.1.i", msg("unassigned or marked Fired")))
        bad.extend((u.id, r, w) for r, w in problems)
    _refuse(bad, "14.1")
    hexes = tuple(dict.fromkeys(u.hex for u in firers if u.hex))
    exp.add("14.1.d", msg("no Fired marker"))
    exp.add("14.1.e", msg("the opponent may overwatch one of these firing hexes"), hexes)
    return FireAction((), hexes, exp)


def check_overwatch(
    firers: Sequence[FirerState],
    event: EventKind,
    *,
    distance: int,
    los_and_spotted: bool = True,
    in_target_hex: bool = True,
) -> FireAction:
    """Overwatch [15]: one stack answers [15.0], with LOS and within spotting range of the
    event [15.2.b]; final overwatch only by the assaulted hex, at range 1 [15.2.f]; never
    suppressed or paralyzed [15.3.a]; *Fired* units only at range ≤ 1 against movement or
    fire events (MGs always [15.3.c]; mortars not at recovery events [15.2.e]); in Fire mode
    [9.1.c]; no *Fired* marker [15.3.k]."""
    exp = Explanation()
    if not firers:
        raise RuleError(msg("name at least one firing unit"), rule="15.0")
    if len({u.hex for u in firers}) > 1:
        raise RuleError(msg("only one stack may answer an overwatch event"), rule="15.0")
    if not los_and_spotted:
        raise RuleError(msg("the stack needs LOS and spotting range to the event"), rule="15.2.b")
    if event is EventKind.FINAL and (not in_target_hex or distance != 1):
        raise RuleError(msg("final overwatch comes only from the assaulted hex"), rule="15.2.f")
    bad = []
    for u in firers:
        problems = _common(u)
        if u.suppressed:
            problems.append(("15.3.a", msg("suppressed units never overwatch")))
        if not u.fire_mode:
            problems.append(("9.1.c", msg("only units in Fire mode overwatch")))
        if u.fired_marker:
            if event in (EventKind.MOVEMENT, EventKind.FIRE):
                if distance > 1 and u.kind is not FirerKind.MG:
                    problems.append(("15.3.b", msg("marked Fired: range 1 at most")))
            elif event is EventKind.RECOVERY and u.kind is FirerKind.MORTAR:
                problems.append(("15.2.e", msg("a Fired mortar may not answer a recovery")))
        bad.extend((u.id, r, w) for r, w in problems)
    _refuse(bad, "15.3")
    exp.add("15.3.k", msg("overwatch places no Fired marker"))
    return FireAction((), (), exp)


def check_at_rolls(
    attackers: Sequence[FirerState],
    *,
    distance: int,
    in_assault: bool = False,
    in_overrun: bool = False,
) -> Explanation:
    """AT rolls [16.1]: infantry in Fire mode (any mode in assaults and overruns [22, 23]),
    not mounted, paralyzed only in assaults, range 0 or 1."""
    exp = Explanation()
    if distance > 1:
        raise RuleError(msg("AT rolls reach one hex at most"), rule="16.1.d")
    bad = []
    for u in attackers:
        if u.kind is not FirerKind.INFANTRY:
            bad.append((u.id, "16.1.a", msg("only infantry makes AT rolls")))
        if u.mounted:
            bad.append((u.id, "16.1.a", msg("mounted units make no AT rolls")))
        if u.paralyzed and not in_assault:
            bad.append((u.id, "16.1.a", msg("paralyzed units make AT rolls only in assaults")))
        if not u.fire_mode and not (in_assault or in_overrun):
            bad.append((u.id, "16.1.a", msg("only units in Fire mode make AT rolls")))
    _refuse(bad, "16.1.a")
    exp.add("16.1.h", msg("AT rolls are not an overwatch event"))
    return exp


@dataclass
class AtRollResult:
    rolls: list[RollRecord]
    needed: int
    modifier: int
    kills: int
    attacker_losses: int
    p_kill: Fraction
    p_attacker_loss: Fraction
    explanation: Explanation = field(default_factory=Explanation)


def at_rolls(
    attacking_steps: int,
    target_steps: int,
    terrain: Terrain,
    distance: int,
    charts: FireCharts,
    dice: DiceSource,
    *,
    modifiers: Sequence[tuple[str, int]] = (),
    entered: Mapping[str, int] | None = None,
) -> AtRollResult:
    """AT rolls [16.0]: one 2d6 per attacking infantry step against one target step, at most
    min(attacking, target) rolls; modified roll ≥ the AT Roll Table value kills the step; an
    unmodified 3 or less destroys the attacking step, with no morale check [16.1.e]."""
    exp, entered = Explanation(), entered or {}
    if distance not in (0, 1):
        raise RuleError(msg("AT rolls reach one hex at most"), rule="16.1.d")
    if attacking_steps < 1 or target_steps < 1:
        raise RuleError(msg("AT rolls need attacking steps and target steps"), rule="16.0")
    n = exp.add(
        "16.0",
        msg("AT rolls: the fewer of attacking and target steps"),
        min(attacking_steps, target_steps),
    )
    column = msg("In-hex") if distance == 0 else msg("One-hex Range")
    needed = chart_value(
        "at_roll",
        "16.0",
        (charts.at_roll or {}).get(terrain, {}).get(distance),
        entered,
        msg(
            "Read the AT Roll Table: %(terrain)s, %(column)s",
            terrain=TERRAIN_WORDS[terrain],
            column=column,
        ),
    )
    exp.add(
        "16.0",
        msg(
            "AT Roll Table: %(terrain)s, %(column)s", terrain=TERRAIN_WORDS[terrain], column=column
        ),
        needed,
    )
    mod = sum(v for _, v in modifiers)
    for name, v in modifiers:
        exp.add("16.0", msg("AT roll modifier: %(name)s", name=name), v)
    p_kill = Fraction(sum(1 for f in TWO_D6.outcomes() if sum(f) + mod >= needed), 36)
    p_loss = Fraction(sum(1 for f in TWO_D6.outcomes() if sum(f) <= 3), 36)
    rolls, kills, lost = [], 0, 0
    for i in range(n):
        roll = dice.roll(TWO_D6, purpose=msg("AT roll %(i)s", i=i + 1), rule="16.0")
        rolls.append(roll)
        if roll.value + mod >= needed:
            kills += 1
            exp.add(
                "16.0",
                msg(
                    "%(roll)s + %(mod)s ≥ %(needed)s: a target step destroyed",
                    roll=roll.value,
                    mod=mod,
                    needed=needed,
                ),
                roll=roll,
            )
        else:
            exp.add(
                "16.0",
                msg(
                    "%(roll)s + %(mod)s < %(needed)s: no effect",
                    roll=roll.value,
                    mod=mod,
                    needed=needed,
                ),
                roll=roll,
            )
        if roll.value <= 3:
            lost += 1
            exp.add(
                "16.1.e",
                msg("unmodified %(roll)s: the attacking step is destroyed", roll=roll.value),
            )
    return AtRollResult(rolls, needed, mod, kills, lost, p_kill, p_loss, exp)

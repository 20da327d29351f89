"""Units in a hex, typed one per line, for the procedures that hit several at once (Impact,
Mines, Melee), and the results applied to the battle's tracks.

A line is "name; number" and any of: squad, team, leader, hero, broken, suppressed, veteran,
boxed, moving, "vp N". Tracked with every unit, the name is the registry id: kind and markers
come from the registry and, when the battle has a counter table, the printed values and the VP
value too (the number may then be left out). Tracked lightly, an eliminated unit with a VP value
moves the VP marker; without one the players record it as "A unit is eliminated".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaigns.cc.battle.keywords import keywords
from campaigns.cc.battle.spec import Context
from rules.cc.battle import victory
from rules.cc.battle.counters import PrintedValues, unit_type
from rules.cc.battle.state import BattleMode, BattleState, UnitStatus, get_unit, set_unit_status
from rules.cc.battle.units import LEADERS, SOLDIERS, UnitKind
from rules.cc.battle.values import Outcome, Printed, Unit, current_values
from rules.cc.common import Faction
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg

KIND_WORDS = ("squad", "team", "leader", "hero")
FLAG_WORDS = ("broken", "suppressed", "veteran", "boxed", "moving")
LINES_HELP = msg(
    "One unit per line: “name; number”, then any of: squad, team, leader, hero, broken, "
    "suppressed, veteran, boxed, moving, “vp N” (its VP value). Tracked with every unit, the "
    "name is its registry id."
)


@dataclass(frozen=True)
class Entry:
    """One unit of a line: how it is called, its counter as it stands, its VP value."""

    label: str
    side: Faction
    unit: Unit
    vp: int | None = None
    unit_id: str | None = None
    moving: bool = False


def _bad(n: int, rule: str) -> RuleError:
    return RuleError(
        msg(
            "line %(n)s: write “name; number” and any of: %(words)s, “vp N”",
            n=n,
            words=", ".join((*KIND_WORDS, *FLAG_WORDS)),
        ),
        rule=rule,
    )


def _printed(values: PrintedValues) -> Printed:
    return Printed(values.fp, values.range, values.move, values.morale, values.command or 0)


def _typed(name: str, kind: UnitKind, number: int, flags: set[str], reads: str) -> Unit:
    """A counter from the one number the players read: its current Morale without Cover, or
    its current FP (its markers already in it, so they are not taken twice)."""
    side = Printed(number, 0, 0, 0) if reads == "fp" else Printed(0, 0, 0, number)
    return Unit(
        name,
        kind,
        side,
        side,
        broken="broken" in flags,
        suppressed="suppressed" in flags,
        veteran=False,
        boxed_fp="boxed" in flags,
        typed=reads,
    )


def _registered(context: Context, unit_id: str, side: Faction, flags: set[str]) -> Unit | None:
    """The registered counter with its printed values, when the counter table has them."""
    found = get_unit(context.state, unit_id)
    if found.side is not side or found.eliminated or found.kind not in SOLDIERS:
        raise RuleError(
            msg(
                "%(id)s is not a unit of the %(side)s on the map",
                id=unit_id,
                side=context.state.sides[side],
            ),
            rule="3",
        )
    if context.counters is None:
        return None
    kind = unit_type(context.counters, found.nationality, found.name)
    broken = found.status is UnitStatus.BROKEN
    shown = kind.broken if broken else kind.good
    return Unit(
        found.name,
        found.kind,
        _printed(kind.good),
        _printed(kind.broken),
        broken=broken,
        suppressed=found.suppressed,
        veteran=found.veteran,
        boxed_fp="fp" in shown.boxed or "boxed" in flags,
    )


def _words(parts: list[str], n: int, rule: str) -> tuple[int | None, int | None, set[str]]:
    """The number, the VP value and the words of one line."""
    number, vp, flags = None, None, set()
    for part in (p for p in parts if p):
        word, rest = keywords(part)
        if part.isdecimal() and number is None:
            number = int(part)
        elif word == "vp" and rest.isdecimal():
            vp = int(rest)
        elif (word in KIND_WORDS or word in FLAG_WORDS) and not rest:
            flags.add(word)
        else:
            raise _bad(n, rule)
    if len(flags & set(KIND_WORDS)) > 1:
        raise _bad(n, rule)
    return number, vp, flags


def _entry(line: str, n: int, context: Context, side: Faction, reads: str, rule: str) -> Entry:
    parts = [p.strip() for p in line.split(";")]
    name = parts[0]
    number, vp, flags = _words(parts[1:], n, rule)
    kind = next((UnitKind(k) for k in KIND_WORDS if k in flags), UnitKind.SQUAD)
    unit_id, label, unit = None, name, None
    if context.state.mode is BattleMode.FULL:
        unit = _registered(context, name, side, flags)
        registered = context.state.units[name]
        unit_id, label, kind = name, registered.name, registered.kind
        flags |= {"broken"} if registered.status is UnitStatus.BROKEN else set()
        flags |= {"suppressed"} if registered.suppressed else set()
        if vp is None and context.counters is not None:
            vp = unit_type(context.counters, registered.nationality, registered.name).vp
        if vp is None and kind is not UnitKind.HERO:
            raise RuleError(
                msg("line %(n)s: give the VP value of %(name)s (“vp N”)", n=n, name=name),
                rule="7.1",
            )
    if unit is None:
        if number is None:
            raise RuleError(msg("line %(n)s: give its number", n=n), rule=rule)
        unit = _typed(label, kind, number, flags, reads)
    return Entry(label, side, unit, vp, unit_id, moving="moving" in flags)


def entries(
    text: str, context: Context, side: Faction, *, reads: str, rule: str
) -> tuple[Entry, ...]:
    """The units of `text` for `side`; `reads` is "morale" or "fp", the number each line
    gives (optional for a registered unit whose counter is in the table)."""
    found = tuple(
        _entry(line, n, context, side, reads, rule)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.split(";")[0].strip()
    )
    if not found:
        raise RuleError(msg("name at least one unit"), rule=rule)
    return found


def leader_commands(group: Sequence[Entry], i: int) -> list[int]:
    """The Command of the other Leaders of the group: they add to Squads and Teams."""
    return [e.unit.command for j, e in enumerate(group) if j != i and e.unit.kind in LEADERS]


def current(group: Sequence[Entry], i: int):
    """Current values of the `i`th unit, with the group's other Leaders in its hex."""
    return current_values(unit=group[i].unit, leader_commands=leader_commands(group, i))


def apply(
    state: BattleState, results: Sequence[tuple[Entry, Outcome, Unit]]
) -> tuple[BattleState, Explanation]:
    """Results on the tracks: eliminations score the opponent; tracked fully, the registry's
    counters flip and take or lose their Suppressed markers [3.2, 7.1, 13]."""
    why = Explanation()
    for entry, outcome, after in results:
        if outcome is Outcome.ELIMINATED:
            hero = entry.unit.kind is UnitKind.HERO
            if entry.unit_id is None and entry.vp is None and not hero:
                why.add(
                    "7.1",
                    msg("%(unit)s is eliminated: record it with its VP value", unit=entry.label),
                )
                continue
            state, gone = victory.eliminate_unit(
                state,
                side=entry.side,
                vp_value=entry.vp,
                unit_id=entry.unit_id,
                name=None if entry.unit_id else entry.label,
                hero=hero,
                freeze_event_vp_after_sudden_death=(
                    state.readings.freeze_event_vp_after_sudden_death
                ),
            )
            why.extend(gone)
        elif entry.unit_id and (after.broken, after.suppressed) != (
            entry.unit.broken,
            entry.unit.suppressed,
        ):
            state, flipped = set_unit_status(
                state,
                unit_id=entry.unit_id,
                status=UnitStatus.BROKEN if after.broken and not entry.unit.broken else None,
                suppressed=after.suppressed,
            )
            why.extend(flipped)
    return state, why

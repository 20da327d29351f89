"""Events that change units [E42–E77, 1.9.1, PA-E55].

Each Event returns the change as plain data: which unit becomes what (`UnitChange`), which
unit appears where with which values (`Placement`). The receiver (the player who revealed the
Event) makes its choices [1.9.1.1]; players say what the map shows (who is in which hex, a
hex's Cover, who is nearest a random hex). A part of an Event that cannot be done is skipped
[E42]; a "may" left unanswered means the receiver declines; a "must" with several candidates
asks the receiver (`DecisionRequired`). Rolls during an Event never trigger [E42]. Light
Wounds (A36), Deploy (E52), Sniper! (1.9.1.3) and the Urban Sniper (ST-3) are in `actions`.

`resolve_triggered_roll` plays the trigger order of 1.9.1 (WE-01): the trigger's changes
first, then the roll's own result, decided on values locked before the roll.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rules.cc.battle.rolls import distribution, roll
from rules.cc.battle.units import Change, Unit, UnitChange, UnitKind, apply_change, change_text
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import Msg, msg

PRIVATE_MORALE = 6  # E56: the "Private" Leader has Morale 6 ...
PRIVATE_COMMAND = 2  # ... and Command 2, as the seed prints it (digest §7.2 #3)


@dataclass(frozen=True)
class TriggeredOutcome:
    unit: Unit
    explanation: Explanation


def resolve_triggered_roll(
    *,
    unit: Unit,
    trigger_changes: tuple[UnitChange, ...],
    roll_changes: tuple[UnitChange, ...],
    v19: bool = False,
) -> TriggeredOutcome:
    """Apply a trigger in full, then the result of the roll that revealed it [1.9.1, WE-01].

    The roll's result was fixed by values locked before it, so it still applies when the
    trigger changed the unit (a rallied unit still retreats); only an eliminated unit escapes.
    """
    explanation = Explanation()
    for change in (*trigger_changes, *roll_changes):
        if change.unit != unit.name:
            continue
        if unit.eliminated:
            explanation.add(
                change.rule,
                msg("%(unit)s is already eliminated: no further effect", unit=unit.name),
            )
            continue
        unit = apply_change(unit, change.change, v19=v19)
        explanation.add(change.rule, change_text(change))
    return TriggeredOutcome(unit, explanation)


@dataclass(frozen=True)
class Placement:
    """A unit that appears on the map; `morale` and `command` only when the seed gives them."""

    unit: Unit
    morale: int | None = None
    command: int | None = None


@dataclass(frozen=True)
class EventResult:
    rule: str
    changes: tuple[UnitChange, ...] = ()
    placed: tuple[Placement, ...] = ()
    removed: tuple[str, ...] = ()  # back to the counter mix, with no VP
    vp: int = 0  # VP the receiver gains (negative: loses)
    declined: bool = False  # nothing was affected (a Sniper! that "fails" [ST-3.1])
    melee_possible: bool = False  # a Melee resolved at the end of the Event, no triggers [E42]
    surrender_space: int | None = None
    explanation: Explanation = field(default_factory=Explanation)


def choose_unit(
    candidates: Iterable[Unit],
    chosen: str | None,
    *,
    what: Msg,
    rule: str,
    receiver: Faction | None,
    must: bool,
) -> Unit | None:
    """The unit the receiver picks among the legal ones, or None (none legal, or declined)."""
    legal = [u for u in candidates if not u.eliminated]
    if chosen is not None:
        for unit in legal:
            if unit.name == chosen:
                return unit
        raise RuleError(msg("%(unit)s is not %(what)s", unit=chosen, what=what), rule=rule)
    if not legal or not must:
        return None
    if len(legal) == 1:
        return legal[0]
    raise DecisionRequired(
        Decision(
            key=f"{rule}:unit",
            rule=rule,
            prompt=msg("Choose %(what)s", what=what),
            options=tuple(u.name for u in legal),
            chooser=receiver.value if receiver else "",
        )
    )


def affect_units(
    rule: str,
    name: Msg,
    targets: Unit | Iterable[Unit] | None,
    changes: Iterable[Change],
    *,
    must: bool,
    explanation: Explanation | None = None,
    **extra,
) -> EventResult:
    """The result of an Event that applies `changes` to each target (none: nothing happens)."""
    explanation = Explanation() if explanation is None else explanation
    units = [] if targets is None else [targets] if isinstance(targets, Unit) else list(targets)
    if not units:
        why = msg("no unit qualifies") if must else msg("the receiver affects no unit")
        explanation.add(rule, msg("%(event)s: %(why)s", event=name, why=why))
        return EventResult(rule, declined=True, explanation=explanation, **extra)
    done = tuple(UnitChange(u.name, c, rule) for u in units for c in changes)
    for change in done:
        explanation.add(rule, msg("%(event)s: %(what)s", event=name, what=change_text(change)))
    return EventResult(rule, done, explanation=explanation, **extra)


def battle_harden(
    *, receiver: Faction, units: tuple[Unit, ...], chosen: str | None = None
) -> EventResult:
    """E44: the receiver puts a Veteran marker on one of his units without one."""
    what = msg("one of the receiver's units without a Veteran marker")
    pool = [u for u in units if u.owner is receiver and not u.veteran]
    unit = choose_unit(pool, chosen, what=what, rule="E44", receiver=receiver, must=True)
    return affect_units("E44", msg("Battle Harden"), unit, [Change.VETERAN], must=True)


def commissar(
    *,
    receiver: Faction,
    units: tuple[Unit, ...],
    morale: int,
    dice: DiceSource,
    chosen: str | None = None,
) -> EventResult:
    """E50: a chosen broken unit rolls: roll ≤ Morale rallies, roll > Morale is eliminated.

    Unlike a Rally roll (roll < Morale, O22.3) a tie rallies here (digest §7.2 #11). `morale`
    is the chosen unit's current Morale, locked before the roll; the roll never triggers [E42].
    """
    what = msg("one of the receiver's broken units")
    pool = [u for u in units if u.owner is receiver and u.broken]
    unit = choose_unit(pool, chosen, what=what, rule="E50", receiver=receiver, must=True)
    if unit is None:
        return affect_units("E50", msg("Commissar"), None, [], must=True)
    rolled = roll(dice, purpose=msg("Commissar roll for %(unit)s", unit=unit.name), rule="E50")
    explanation = Explanation()
    explanation.add(
        "E50",
        msg("Commissar roll %(roll)s against Morale %(morale)s", roll=rolled.value, morale=morale),
        rolled.value,
        roll=rolled.record,
    )
    change = Change.RALLY if rolled.value <= morale else Change.ELIMINATE
    return affect_units("E50", msg("Commissar"), unit, [change], must=True, explanation=explanation)


def commissar_odds(*, morale: int) -> Fraction:
    """The chance that a Commissar roll rallies the unit (roll ≤ Morale) [E50]."""
    return distribution().p_at_most(morale)


def cower(
    *, receiver: Faction, units: tuple[Unit, ...], outside_command: frozenset[str]
) -> EventResult:
    """E51: every unsuppressed Squad of the receiver outside all friendly Command radii is
    suppressed; `outside_command` names those Squads (the players read the radii)."""
    hit = [
        u
        for u in units
        if u.owner is receiver
        and u.kind is UnitKind.SQUAD
        and not (u.suppressed or u.eliminated)
        and u.name in outside_command
    ]
    return affect_units("E51", msg("Cower"), hit, [Change.SUPPRESS], must=True)


def interdiction(
    *,
    receiver: Faction,
    units: tuple[Unit, ...],
    cover: dict[str, int],
    chosen: str | None = None,
) -> EventResult:
    """E60: suppress one unsuppressed unit, friend or foe, broken or not, in a hex with Cover < 1.

    `cover` gives each unit's hex Cover as the players read it (WE-24: Open Ground with a
    Road is −1)."""
    what = msg("an unsuppressed unit in a hex with Cover less than 1")
    pool = [u for u in units if not u.suppressed and cover.get(u.name, 1) < 1]
    unit = choose_unit(pool, chosen, what=what, rule="E60", receiver=receiver, must=True)
    return affect_units("E60", msg("Interdiction"), unit, [Change.SUPPRESS], must=True)


def kia(*, receiver: Faction, units: tuple[Unit, ...], chosen: str | None = None) -> EventResult:
    """E62: the receiver must eliminate one broken unit, friend or foe."""
    what = msg("a broken unit, friend or foe")
    pool = [u for u in units if u.broken]
    unit = choose_unit(pool, chosen, what=what, rule="E62", receiver=receiver, must=True)
    return affect_units("E62", msg("KIA"), unit, [Change.ELIMINATE], must=True)


def medic(*, receiver: Faction, units: tuple[Unit, ...], chosen: str | None = None) -> EventResult:
    """E64: the receiver must rally one broken unit, friend or foe."""
    what = msg("a broken unit, friend or foe")
    pool = [u for u in units if u.broken]
    unit = choose_unit(pool, chosen, what=what, rule="E64", receiver=receiver, must=True)
    return affect_units("E64", msg("Medic!"), unit, [Change.RALLY], must=True)


def prisoners_of_war(
    *,
    receiver: Faction,
    units: tuple[Unit, ...],
    near_enemy: frozenset[str],
    chosen: str | None = None,
) -> EventResult:
    """E66: the receiver must eliminate one of his broken units in or adjacent to a hex with an
    enemy unit (`near_enemy` names them); the opponent scores it as usual."""
    what = msg("one of the receiver's broken units in or adjacent to an enemy unit")
    pool = [u for u in units if u.owner is receiver and u.broken and u.name in near_enemy]
    unit = choose_unit(pool, chosen, what=what, rule="E66", receiver=receiver, must=True)
    return affect_units("E66", msg("Prisoners of War"), unit, [Change.ELIMINATE], must=True)


def suppressing_fire(
    *,
    receiver: Faction,
    units: tuple[Unit, ...],
    in_working_mg_range: frozenset[str],
    chosen: str | None = None,
) -> EventResult:
    """E75: the receiver may suppress one unsuppressed enemy unit in Range and LOS of one of
    his working MGs (MG unbroken, carrier neither broken nor suppressed)."""
    what = msg("an unsuppressed enemy unit in Range and LOS of a working MG")
    pool = [
        u
        for u in units
        if u.owner is not receiver and not u.suppressed and u.name in in_working_mg_range
    ]
    unit = choose_unit(pool, chosen, what=what, rule="E75", receiver=receiver, must=False)
    return affect_units("E75", msg("Suppressing Fire"), unit, [Change.SUPPRESS], must=False)


def shell_shock(
    *, receiver: Faction, nearest: tuple[Unit, ...], chosen: str | None = None
) -> EventResult:
    """E72: the unit nearest the random hex breaks; `nearest` are the units at the least
    distance (the players measure), and the receiver breaks a tie."""
    what = msg("a unit nearest the random hex")
    unit = choose_unit(nearest, chosen, what=what, rule="E72", receiver=receiver, must=True)
    return affect_units("E72", msg("Shell Shock"), unit, [Change.BREAK], must=True)


def air_support(*, units_in_hex: tuple[Unit, ...], break_them: bool) -> EventResult:
    """E43: the receiver may break every unit in the random hex (or the nearest occupied one)."""
    targets = units_in_hex if break_them else ()
    return affect_units("E43", msg("Air Support"), targets, [Change.BREAK], must=False)


def field_promotion(
    *,
    receiver: Faction,
    units: tuple[Unit, ...],
    private: str,
    private_on_map: bool,
    hex: str | None = None,
) -> EventResult:
    """E56: if not already on the map, the receiver may place his nation's Private (Morale 6,
    Command 2) in a hex holding one of his broken units; `hex=None` declines."""
    explanation = Explanation()
    name = msg("Field Promotion")
    if private_on_map or hex is None:
        why = msg("the Private is already on the map") if private_on_map else msg("declined")
        explanation.add("E56", msg("%(event)s: %(why)s", event=name, why=why))
        return EventResult("E56", declined=True, explanation=explanation)
    if not any(u.owner is receiver and u.broken and u.hex == hex for u in units):
        raise RuleError(
            msg("%(hex)s holds none of the receiver's broken units", hex=hex), rule="E56"
        )
    leader = Unit(private, receiver, UnitKind.LEADER, hex=hex)
    explanation.add(
        "E56",
        msg(
            "%(event)s: %(unit)s enters in %(hex)s with Morale %(morale)s and Command %(command)s",
            event=name,
            unit=private,
            hex=hex,
            morale=PRIVATE_MORALE,
            command=PRIVATE_COMMAND,
        ),
    )
    placed = Placement(leader, PRIVATE_MORALE, PRIVATE_COMMAND)
    return EventResult("E56", placed=(placed,), explanation=explanation)


def hero(
    *,
    receiver: Faction,
    units: tuple[Unit, ...],
    hero_name: str,
    hero_on_map: bool,
    hex: str | None = None,
    rally: str | None = None,
) -> EventResult:
    """E58: if his Hero is not on the map the receiver must place it in a friendly hex; he may
    then rally one broken unit in that hex. The Hero's values are its counter's [E58.1]."""
    explanation = Explanation()
    name = msg("Hero")
    if hero_on_map:
        explanation.add(
            "E58", msg("%(event)s: %(why)s", event=name, why=msg("the Hero is already on the map"))
        )
        return EventResult("E58", declined=True, explanation=explanation)
    friendly = sorted({u.hex for u in units if u.owner is receiver and not u.eliminated})
    if hex is None:
        raise DecisionRequired(
            Decision(
                "E58:hex",
                "E58",
                msg("Choose a friendly hex for the Hero"),
                tuple(friendly),
                receiver.value,
            )
        )
    if hex not in friendly:
        raise RuleError(msg("%(hex)s is not a friendly hex", hex=hex), rule="E58")
    explanation.add(
        "E58", msg("%(event)s: %(unit)s enters in %(hex)s", event=name, unit=hero_name, hex=hex)
    )
    what = msg("a broken unit in the Hero's hex")
    pool = [u for u in units if u.broken and u.hex == hex]
    unit = choose_unit(pool, rally, what=what, rule="E58", receiver=receiver, must=False)
    placed = (Placement(Unit(hero_name, receiver, UnitKind.HERO, hex=hex)),)
    return affect_units(
        "E58", name, unit, [Change.RALLY], must=False, explanation=explanation, placed=placed
    )


def walking_wounded(
    *,
    receiver: Faction,
    casualties: tuple[Unit, ...],
    hex: str,
    chosen: str | None = None,
    enemy_in_hex: bool = False,
) -> EventResult:
    """E76: the receiver must return one eliminated unit, **friend or foe**, broken, in or
    adjacent to the random hex (`hex`, respecting stacking). With only enemy units on the
    Casualty track he returns an enemy one (WE-03). It comes back without its markers or Weapon."""
    what = msg("an eliminated unit, friend or foe")
    pool = [replace(u, eliminated=False) for u in casualties]
    unit = choose_unit(pool, chosen, what=what, rule="E76", receiver=receiver, must=True)
    explanation = Explanation()
    name = msg("Walking Wounded")
    if unit is None:
        return affect_units("E76", name, None, [], must=True)
    back = Unit(
        unit.name, unit.owner, unit.kind, broken=True, hex=hex
    )  # Weapon stays boxed [7.2.2]
    explanation.add(
        "E76",
        msg("%(event)s: %(unit)s returns broken in %(hex)s", event=name, unit=unit.name, hex=hex),
    )
    return EventResult(
        "E76", placed=(Placement(back),), melee_possible=enemy_in_hex, explanation=explanation
    )


def bushido(*, units: tuple[Unit, ...], chosen: str | None = None) -> EventResult:
    """PA-E55: the Japanese (Axis) player rallies one of his broken units, if he has one, and
    gives it a Veteran marker if it has none."""
    what = msg("one of the Japanese player's broken units")
    pool = [u for u in units if u.owner is Faction.AXIS and u.broken]
    unit = choose_unit(pool, chosen, what=what, rule="PA-E55", receiver=Faction.AXIS, must=True)
    changes = [Change.RALLY] + ([] if unit is None or unit.veteran else [Change.VETERAN])
    return affect_units("PA-E55", msg("Bushido"), unit, changes, must=True)


def elan(*, surrender_space: int) -> EventResult:
    """E54: the receiver's Surrender marker moves to the next higher-value space on his side."""
    explanation = Explanation()
    new = explanation.add(
        "E54",
        msg(
            "Élan: the Surrender marker moves from space %(old)s to %(new)s",
            old=surrender_space,
            new=surrender_space + 1,
        ),
        surrender_space + 1,
    )
    return EventResult("E54", surrender_space=new, explanation=explanation)

"""A unit's and a Weapon's current values [3.1–3.3, 13.2, E44.1, F106.1, T78.3, T93].

Printed numbers come off the counters (inputs); the modifiers the seed gives are applied here
with a step each: Leaders' Command to Squads and Teams in their hex (3.3.1.2), Veteran +1
(E44.1), Suppressed -1 (13.2), Wire -1 (F106.1), the hex's Cover to Morale (T78.3), the Road
bonus to Move (T93) and a carried Weapon's Move modifier (11.1). Command itself is never
changed by Suppressed, Veteran or Wire. The results of a Defense roll on a unit (O20.3.4) are
here too, shared by fire, artillery and mines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.cc.battle.terrain import Cover
from rules.cc.battle.units import FIGURES, KIND_LABELS, LEADERS, SOLDIERS, UnitKind
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg


class WeaponKind(StrEnum):
    MG = "mg"
    MORTAR = "mortar"
    FLAMETHROWER = "flamethrower"
    MOLOTOV = "molotov"
    SATCHEL = "satchel"
    OTHER = "other"


SINGLE_USE = frozenset({WeaponKind.SATCHEL, WeaponKind.MOLOTOV})  # 11.6
ZERO_COVER = {WeaponKind.FLAMETHROWER: msg("a Flamethrower"), WeaponKind.MOLOTOV: msg("a Molotov")}
SUSTAINED = frozenset({WeaponKind.MG, WeaponKind.MORTAR})  # A41


class Outcome(StrEnum):
    NO_EFFECT = "no_effect"
    SUPPRESSED = "suppressed"
    BROKEN = "broken"
    ELIMINATED = "eliminated"


OUTCOME_WORDS = {
    Outcome.NO_EFFECT: msg("no effect"),
    Outcome.SUPPRESSED: msg("Suppressed"),
    Outcome.BROKEN: msg("broken"),
    Outcome.ELIMINATED: msg("eliminated"),
}


@dataclass(frozen=True)
class Printed:
    """One side of a counter: FP, Range, Move, Morale and (Leaders only) Command [3.1]."""

    fp: int
    range: int
    move: int
    morale: int
    command: int = 0


@dataclass(frozen=True)
class Unit:
    """A unit counter as it stands: both printed sides and its markers. A Hero is a Leader
    here [E58.1]; a Weapon or a Radio is no unit (a Weapon is `Weapon`) [3, 8.1.1]."""

    name: str
    kind: UnitKind
    good: Printed
    broken_side: Printed
    broken: bool = False
    suppressed: bool = False
    veteran: bool = False
    boxed_fp: bool = False  # 3.1.6: may play Assault Fire [A26]
    typed: str = ""
    """"fp" or "morale": that value was read off the table as it stands now, its markers
    already in it, so the printed side is not shown and the markers are not applied again."""

    def __post_init__(self) -> None:
        if self.kind not in SOLDIERS:
            raise RuleError(
                msg(
                    "%(name)s (%(kind)s) is not a unit: only Squads, Teams and Leaders have "
                    "FP, Range, Move and Morale",
                    name=self.name,
                    kind=KIND_LABELS[self.kind],
                ),
                rule="3.1",
            )

    @property
    def printed(self) -> Printed:
        return self.broken_side if self.broken else self.good

    @property
    def figures(self) -> int:
        return FIGURES[self.kind]

    @property
    def command(self) -> int:
        """A Leader's Command on his current side (a broken Leader's is its broken side, 0)."""
        return self.printed.command if self.kind in LEADERS else 0


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: WeaponKind
    fp: int
    range: int
    min_range: int = 0  # mortars print a minimum, e.g. "2-14" [O20.2.2]
    artillery: bool = False  # white band [11.5]
    boxed_fp: bool = False
    broken: bool = False


@dataclass(frozen=True)
class UnitValues:
    fp: int
    range: int
    move: int
    morale: int
    command: int
    explanation: Explanation


@dataclass(frozen=True)
class WeaponValues:
    fp: int
    range: int
    explanation: Explanation


def _side(unit: Unit) -> Msg:
    return msg("broken") if unit.broken else msg("good order")


def current_values(
    *,
    unit: Unit,
    leader_commands: Sequence[int] = (),
    wire: bool = False,
    cover: Cover | int = 0,
    road_bonus: bool = False,
    weapon_move: int = 0,
) -> UnitValues:
    """Current FP, Range, Move, Morale and Command of `unit`.

    `leader_commands`: the current Command of every *other* friendly Leader in the hex (a
    broken one gives his broken side's, normally 0); they add only to Squads and Teams.
    `cover`: the hex's Cover for Morale (`terrain.hex_cover`). `road_bonus`: the unit entered
    a Road hex during the current Move order [T93]. `weapon_move`: the carried Weapon's Move
    modifier [11.1].
    """
    if unit.typed:
        return _typed_values(unit, wire=wire, cover=cover)
    p = unit.printed
    why = Explanation()
    fp, rng, move, morale = p.fp, p.range, p.move, p.morale
    why.add(
        "3.1",
        msg(
            "%(name)s printed (%(side)s side): FP %(fp)s, Range %(range)s, Move %(move)s, "
            "Morale %(morale)s",
            name=unit.name,
            side=_side(unit),
            fp=fp,
            range=rng,
            move=move,
            morale=morale,
        ),
    )
    bonus = sum(leader_commands)
    if leader_commands and unit.kind in LEADERS:
        why.add("3.3.1.2", msg("Leaders never add their Command to a Leader"), 0)
    elif bonus:
        fp, rng, move, morale = fp + bonus, rng + bonus, move + bonus, morale + bonus
        why.add(
            "3.3.1.2",
            msg("Leaders' Command in the hex: +%(n)s to FP, Range, Move and Morale", n=bonus),
            bonus,
        )
    if unit.veteran:
        fp, rng, move, morale = fp + 1, rng + 1, move + 1, morale + 1
        why.add("E44.1", msg("Veteran: +1 to FP, Range, Move and Morale"), 1)
    if unit.suppressed:
        fp, rng, move, morale = fp - 1, rng - 1, move - 1, morale - 1
        why.add("13.2", msg("Suppressed: -1 to FP, Range, Move and Morale"), -1)
    if wire:
        rng -= 1
    fp, morale = _hex(why, fp, morale, wire=wire, cover=cover)
    if road_bonus:
        move += 1
        why.add("T93", msg("entered a Road hex during this Move order: Move +1"), move)
    if weapon_move:
        move += weapon_move
        why.add("11.1", msg("carried Weapon: Move %(n)s", n=weapon_move), move)
    command = unit.command
    if unit.kind in LEADERS:
        why.add(
            "3.1.5",
            msg("Command %(n)s (never changed by Suppressed, Veteran or Wire)", n=command),
            command,
        )
    why.add(
        "3.1",
        msg(
            "current FP %(fp)s, Range %(range)s, Move %(move)s, Morale %(morale)s",
            fp=fp,
            range=rng,
            move=move,
            morale=morale,
        ),
    )
    return UnitValues(fp, rng, move, morale, command, why)


def _typed_values(unit: Unit, *, wire: bool, cover: Cover | int) -> UnitValues:
    """A unit whose current FP or Morale the players read off the table: that value as read,
    then only what the hex adds (Wire, Cover)."""
    p, why = unit.printed, Explanation()
    fp, morale = p.fp, p.morale
    why.add(
        "3.1",
        msg("%(name)s: FP %(fp)s as read at the table", name=unit.name, fp=fp)
        if unit.typed == "fp"
        else msg("%(name)s: Morale %(morale)s as read at the table", name=unit.name, morale=morale),
    )
    fp, morale = _hex(why, fp, morale, wire=wire, cover=cover)
    return UnitValues(fp, p.range, p.move, morale, unit.command, why)


def _hex(
    why: Explanation, fp: int, morale: int, *, wire: bool, cover: Cover | int
) -> tuple[int, int]:
    """What the unit's hex does to its FP and Morale: Wire [F106.1] (its Range −1 is the
    caller's), then the Cover added to Morale [T78.3]."""
    if wire:
        fp, morale = fp - 1, morale - 1
        why.add("F106.1", msg("Wire in the hex: -1 to FP, Range and Morale"), -1)
    if isinstance(cover, Cover):
        why.extend(cover.explanation)
        cover = cover.value
    if cover:
        morale += cover
        why.add("T78.3", msg("Cover %(n)s added to Morale", n=cover), morale)
    return fp, morale


def weapon_values(
    *,
    weapon: Weapon,
    carrier: Unit,
    leader_commands: Sequence[int] = (),
    veteran_weapons: bool = False,
) -> WeaponValues:
    """A Weapon's current FP and Range [3.3.1.3]: printed, plus the Command of the Leaders in
    its hex unless it has a white band or a Leader carries it.

    The seed gives Veteran "+1 FP and Range" to the unit only; `veteran_weapons` plays the
    reading that a Veteran's Weapon gains it too (digest §7.2 #13).
    """
    why = Explanation()
    fp, rng = weapon.fp, weapon.range
    why.add(
        "11.1",
        msg("%(name)s printed: FP %(fp)s, Range %(range)s", name=weapon.name, fp=fp, range=rng),
    )
    bonus = sum(leader_commands)
    if bonus and (weapon.artillery or carrier.kind in LEADERS):
        why.add("3.3.1.3", msg("no Leader's Command: white band or carried by a Leader"), 0)
    elif bonus:
        fp, rng = fp + bonus, rng + bonus
        why.add("3.3.1.3", msg("Leaders' Command in the hex: +%(n)s to FP and Range", n=bonus))
    if veteran_weapons and carrier.veteran:
        fp, rng = fp + 1, rng + 1
        why.add("E44.1", msg("Veteran carrier: +1 to FP and Range"), 1)
    return WeaponValues(fp, rng, why)


def check_can_fire_weapon(carrier: Unit, weapon: Weapon) -> None:
    """Only a good-order, unsuppressed unit fires its Weapon, and never a broken one [3.2.3,
    13.2, 11.4]."""
    if carrier.broken:
        raise RuleError(
            msg(
                "%(unit)s is broken: it cannot fire %(weapon)s",
                unit=carrier.name,
                weapon=weapon.name,
            ),
            rule="3.2.3",
        )
    if carrier.suppressed:
        raise RuleError(
            msg(
                "%(unit)s is Suppressed: it cannot fire %(weapon)s",
                unit=carrier.name,
                weapon=weapon.name,
            ),
            rule="13.2",
        )
    if weapon.broken:
        raise RuleError(msg("%(weapon)s is broken", weapon=weapon.name), rule="11.4")


def check_range(*, name: str, distance: int, range_: int, min_range: int = 0) -> None:
    """The target must lie within the firer's current Range, and beyond a mortar's minimum;
    the distance counts the target hex, not the firer's [O20.2.2]."""
    low = max(1, min_range)
    if not low <= distance <= range_:
        raise RuleError(
            msg(
                "%(name)s cannot reach the target: %(d)s hexes, Range %(low)s-%(r)s",
                name=name,
                d=distance,
                low=low,
                r=range_,
            ),
            rule="O20.2.2",
        )


@dataclass(frozen=True)
class Candidate:
    """A friendly unit a Leader might activate: how far it is and whether it already was."""

    unit: Unit
    distance: int
    activated_this_turn: bool = False


@dataclass(frozen=True)
class Activation:
    activated: tuple[str, ...]
    refused: tuple[str, ...]
    explanation: Explanation


def activation(*, leader: Unit, candidates: Sequence[Candidate]) -> Activation:
    """Which units an activated Leader activates in turn [3.3.1.1, O14.1]: friendly non-Leaders
    within his Command (0: his own hex) that were not activated this Turn."""
    why = Explanation()
    ok: list[str] = []
    refused: list[str] = []
    for c in candidates:
        if c.unit.kind in LEADERS:
            reason, rule = msg("a Leader never activates another Leader"), "3.3.1.1"
        elif c.distance > leader.command:
            reason, rule = (
                msg("%(n)s hexes away, beyond Command %(c)s", n=c.distance, c=leader.command),
                "3.3.1.1",
            )
        elif c.activated_this_turn:
            reason, rule = msg("already activated this Turn"), "O14.1"
        else:
            ok.append(c.unit.name)
            why.add(
                "3.3.1.1",
                msg("%(leader)s activates %(unit)s", leader=leader.name, unit=c.unit.name),
            )
            continue
        refused.append(c.unit.name)
        why.add(
            rule,
            msg(
                "%(leader)s cannot activate %(unit)s: %(reason)s",
                leader=leader.name,
                unit=c.unit.name,
                reason=reason,
            ),
        )
    return Activation(tuple(ok), tuple(refused), why)


def outcome(
    *,
    attack: int,
    defense: int,
    broken: bool,
    suppressed: bool,
    moving: bool,
    tie_breaks_moving: bool = True,
    v19: bool = False,
    pacific: bool = False,
) -> Outcome:
    """O20.3.4: lower breaks (a broken unit is eliminated, 3.2.4); a tie suppresses, or breaks
    a unit activated for Move; higher is no effect. V19: Suppressed again breaks. PA-O27.3.4:
    a Defense Total of half the Attack Total or less eliminates."""
    breaks = Outcome.ELIMINATED if broken else Outcome.BROKEN
    if pacific and 2 * defense <= attack:
        return Outcome.ELIMINATED
    if defense < attack:
        return breaks
    if defense > attack:
        return Outcome.NO_EFFECT
    if (moving and tie_breaks_moving) or (v19 and suppressed):
        return breaks
    return Outcome.SUPPRESSED


def after_result(unit: Unit, result: Outcome, *, suppressed_again: bool = False) -> Unit:
    """The unit once a result is applied: a broken unit keeps its markers (3.2.2), except the
    Suppressed marker of a unit broken by being Suppressed again (V19)."""
    if result is Outcome.SUPPRESSED:
        return replace(unit, suppressed=True)
    if result is Outcome.BROKEN:
        return replace(unit, broken=True, suppressed=unit.suppressed and not suppressed_again)
    return unit

"""Counters as the battle's counter table and registry describe them [3.1, 3.2, 11, 11.4].

The values printed on a counter come from the counter table (user data, `counters`); its
markers (broken side, Suppressed, Veteran) and the Weapon it carries come from the registry
(mode "full") or from what the players say (mode "light"). This module turns them into the
`values.Unit` and `values.Weapon` the fire rules read, and applies to the registry what a roll
does to its Weapons: broken, eliminated, repaired.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.cc.battle import counters
from rules.cc.battle.counters import CounterTable, PrintedValues
from rules.cc.battle.state import (
    PLACE_LABELS,
    BattleState,
    Change,
    Place,
    RegisteredUnit,
    UnitStatus,
    get_unit,
    require_open,
    with_units,
)
from rules.cc.battle.units import SOLDIERS, UnitKind
from rules.cc.battle.values import Printed, Unit, Weapon, WeaponKind
from rules.cc.battle.weapons import BrokenWeapon, RepairOutcome
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg


def require_table(table: CounterTable | None) -> CounterTable:
    if table is None:
        raise RuleError(
            msg("this needs the battle's counter table: set its counter values first"), rule="3.1"
        )
    return table


def _printed(side: PrintedValues) -> Printed:
    return Printed(side.fp, side.range, side.move, side.morale, side.command or 0)


def table_unit(
    table: CounterTable,
    nationality: str,
    name: str,
    *,
    label: str = "",
    broken: bool = False,
    suppressed: bool = False,
    veteran: bool = False,
) -> Unit:
    """A unit counter with the table's printed sides and the markers given [3.1, 3.2]."""
    kind = counters.unit_type(table, nationality, name)
    shown = kind.broken if broken else kind.good
    return Unit(
        name=label or name,
        kind=kind.kind,
        good=_printed(kind.good),
        broken_side=_printed(kind.broken),
        broken=broken,
        suppressed=suppressed,
        veteran=veteran,
        boxed_fp="fp" in shown.boxed,
    )


def table_weapon(
    table: CounterTable,
    nationality: str,
    name: str,
    *,
    label: str = "",
    kind: WeaponKind = WeaponKind.OTHER,
    broken: bool = False,
) -> Weapon:
    """A Weapon counter with the table's printed values [11, 11.5]."""
    printed = counters.weapon_values(table, nationality, name)
    return Weapon(
        name=label or name,
        kind=kind,
        fp=printed.fp,
        range=printed.range_max,
        min_range=printed.range_min,
        artillery=printed.artillery,
        boxed_fp="fp" in printed.boxed,
        broken=broken,
    )


def label(unit: RegisteredUnit) -> str:
    """A registered counter's name with its id, unique among the pieces of one attack."""
    return f"{unit.name} ({unit.id})"


def on_map(state: BattleState, unit_id: str) -> RegisteredUnit:
    """A registered counter still on the map."""
    unit = get_unit(state, unit_id)
    if unit.place is not Place.MAP or unit.eliminated or unit.exited:
        raise RuleError(
            msg(
                "%(name)s is not on the map (%(place)s)",
                name=unit.name,
                place=PLACE_LABELS[unit.place],
            ),
            rule="3",
        )
    return unit


def _nationality(unit: RegisteredUnit, carrier: RegisteredUnit | None = None) -> str:
    found = unit.nationality or (carrier.nationality if carrier else "")
    if not found:
        raise RuleError(
            msg("%(name)s has no nationality on the registry: the counter table needs it",
                name=label(unit)),
            rule="3.1",
        )  # fmt: skip
    return found


def registered_unit(state: BattleState, table: CounterTable, unit_id: str) -> Unit:
    """A registered unit on the map as it stands: table values, registry markers."""
    unit = on_map(state, unit_id)
    if unit.kind not in SOLDIERS:
        raise RuleError(msg("%(name)s is not a unit", name=label(unit)), rule="3")
    return table_unit(
        table,
        _nationality(unit),
        unit.name,
        label=label(unit),
        broken=unit.status is UnitStatus.BROKEN,
        suppressed=unit.suppressed,
        veteran=unit.veteran,
    )


def carrier_of(state: BattleState, weapon_id: str) -> RegisteredUnit:
    """The unit on the map that carries the registered Weapon [8.1.1, 11.1]."""
    weapon = on_map(state, weapon_id)
    if weapon.kind is not UnitKind.WEAPON:
        raise RuleError(msg("%(name)s is not a Weapon", name=label(weapon)), rule="11")
    for unit in state.units.values():
        if weapon_id in unit.weapons and unit.place is Place.MAP and not unit.eliminated:
            return unit
    raise RuleError(msg("no unit on the map carries %(name)s", name=label(weapon)), rule="11.1")


def registered_weapon(
    state: BattleState, table: CounterTable, weapon_id: str, kind: WeaponKind
) -> tuple[Weapon, Unit]:
    """A registered Weapon and the unit that carries it, as the fire rules read them."""
    weapon, carrier = get_unit(state, weapon_id), carrier_of(state, weapon_id)
    printed = table_weapon(
        table,
        _nationality(weapon, carrier),
        weapon.name,
        label=label(weapon),
        kind=kind,
        broken=weapon.status is UnitStatus.BROKEN,
    )
    return printed, registered_unit(state, table, carrier.id)


def _without(state: BattleState, weapon_id: str) -> list[RegisteredUnit]:
    """Every carrier of the Weapon, now without it."""
    return [
        replace(u, weapons=tuple(w for w in u.weapons if w != weapon_id))
        for u in state.units.values()
        if weapon_id in u.weapons
    ]


def _eliminated(state: BattleState, weapon: RegisteredUnit) -> list[RegisteredUnit]:
    gone = replace(weapon, eliminated=True, place=Place.WEAPON_BOX)
    return [gone, *_without(state, weapon.id)]


def weapons_break(state: BattleState, hits: Mapping[str, int], *, rule: str) -> Change:
    """Registered Weapons hit by breakdowns [11.4]: one break flips a Weapon to its broken
    side, a second (in this roll or before) eliminates it to the Weapon box."""
    require_open(state)
    why, changed = Explanation(), []
    for weapon_id, times in hits.items():
        weapon = get_unit(state, weapon_id)
        total = times + (weapon.status is UnitStatus.BROKEN)
        if total > 1:
            changed.extend(_eliminated(state, weapon))
            why.add(rule, msg("%(w)s is eliminated: to the Weapon box", w=label(weapon)))
        else:
            changed.append(replace(weapon, status=UnitStatus.BROKEN))
            why.add(rule, msg("%(w)s flips to its broken side", w=label(weapon)))
    return Change(replace(state, units=with_units(state, *changed)), why)


def weapons_used_up(state: BattleState, weapon_ids: tuple[str, ...]) -> Change:
    """Single-use Weapons (Satchel Charge, Molotov) leave after their attack roll [11.6]."""
    require_open(state)
    why, changed = Explanation(), []
    for weapon_id in weapon_ids:
        weapon = get_unit(state, weapon_id)
        changed.extend(_eliminated(state, weapon))
        why.add("11.6", msg("%(w)s is eliminated: to the Weapon box", w=label(weapon)))
    return Change(replace(state, units=with_units(state, *changed)), why)


def broken_weapon(state: BattleState, table: CounterTable, weapon_id: str) -> BrokenWeapon:
    """A registered broken Weapon with its printed Fix and Elim ranges [11.4]."""
    weapon = get_unit(state, weapon_id)
    if weapon.kind is not UnitKind.WEAPON:
        raise RuleError(msg("%(name)s is not a Weapon", name=label(weapon)), rule="11.4")
    if weapon.eliminated or weapon.status is not UnitStatus.BROKEN:
        raise RuleError(msg("%(name)s is not a broken Weapon", name=label(weapon)), rule="11.4")
    carriers = [u for u in state.units.values() if weapon_id in u.weapons]
    printed = counters.weapon_values(
        table, _nationality(weapon, carriers[0] if carriers else None), weapon.name
    )
    if printed.fix is None or printed.elim is None:
        raise RuleError(
            msg("the counter table gives no Fix and Elim numbers for %(name)s", name=weapon.name),
            rule="11.4",
        )
    return BrokenWeapon(label(weapon), printed.fix, printed.elim)


def weapon_repaired(state: BattleState, weapon_id: str, outcome: RepairOutcome) -> BattleState:
    """The registry after a Fix/Elim check [11.4]: fixed, eliminated or still broken."""
    require_open(state)
    weapon = get_unit(state, weapon_id)
    if outcome is RepairOutcome.FIXED:
        changed = [replace(weapon, status=UnitStatus.GOOD_ORDER)]
    elif outcome is RepairOutcome.ELIMINATED:
        changed = _eliminated(state, weapon)
    else:
        return state
    return replace(state, units=with_units(state, *changed))

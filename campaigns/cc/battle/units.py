"""Procedures on counters: the registry of a battle tracked fully (units put on it, their state
flipped or marked [3, 3.2, 13, E44]) and a broken Weapon's Fix/Elim check [11.4].
Eliminations and exits are on the tracks (tracks.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.cc.battle.common import WHOSE, acting_side, unit_choices
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Procedure
from rules.cc.battle.registered import broken_weapon, require_table, weapon_repaired
from rules.cc.battle.state import RegisteredUnit, UnitStatus, register_unit, set_unit_status
from rules.cc.battle.units import KIND_LABELS, UnitKind
from rules.cc.battle.weapons import BrokenWeapon, RepairOutcome, random_hex_check
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.i18n import Msg, msg

REGISTRY_KINDS = tuple(
    (k.value, KIND_LABELS[k])
    for k in (UnitKind.SQUAD, UnitKind.TEAM, UnitKind.LEADER, UnitKind.HERO, UnitKind.WEAPON)
)


def _register(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    side = acting_side(inputs, context)
    weapon = (inputs.get("weapon") or "").strip()
    unit = RegisteredUnit(
        id=inputs["unit_id"].strip(),
        side=side,
        nationality=(inputs.get("nationality") or "").strip(),
        kind=UnitKind(inputs["kind"]),
        name=inputs["name"].strip(),
        veteran=bool(inputs.get("veteran")),
        weapons=(weapon,) if weapon else (),
    )
    change = register_unit(context.state, unit)
    return Done(
        change.state,
        change.explanation,
        msg("%(side)s register %(name)s", side=context.state.sides[side], name=unit.name),
    )


REGISTER = Procedure(
    key="register",
    title=msg("Put a counter on the registry"),
    rule="3",
    fields=(
        WHOSE,
        Field("unit_id", msg("Its id (as you mark it)"), "text", max_length=20),
        Field("name", msg("What the counter says"), "text", max_length=80),
        Field("kind", msg("Kind"), "choice", choices=REGISTRY_KINDS),
        Field("nationality", msg("Nationality"), "text", required=False, max_length=40),
        Field(
            "weapon",
            msg("Weapon it carries (its id, registered first)"),
            "text",
            required=False,
            max_length=20,
        ),
        Field("veteran", msg("Veteran"), "bool", default=False),
    ),
    run=_register,
    help=msg("Only when the battle is tracked with every unit."),
)

STATUS_CHOICES = (
    ("break", msg("broken (flip to its broken side)")),
    ("rally", msg("rallied (back to good order)")),
    ("suppress", msg("Suppressed")),
    ("unsuppress", msg("no longer Suppressed")),
    ("veteran", msg("Veteran")),
)


def _status(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    what = inputs["change"]
    unit_id = inputs["unit"]
    flags = {
        "break": {"status": UnitStatus.BROKEN},
        "rally": {"status": UnitStatus.GOOD_ORDER},
        "suppress": {"suppressed": True},
        "unsuppress": {"suppressed": False},
        "veteran": {"veteran": True},
    }[what]
    change = set_unit_status(context.state, unit_id=unit_id, **flags)
    unit = change.state.units[unit_id]
    words = dict(STATUS_CHOICES)[what]
    return Done(
        change.state,
        change.explanation,
        msg("%(name)s: %(change)s", name=unit.name, change=words),
    )


STATUS = Procedure(
    key="status",
    title=msg("A registered unit changes state"),
    rule="3.2",
    fields=(
        Field("unit", msg("Unit"), "choice", choices=unit_choices),
        Field("change", msg("Becomes"), "choice", choices=STATUS_CHOICES),
    ),
    run=_status,
)


REPAIR_WORDS = {
    RepairOutcome.FIXED: msg("fixed"),
    RepairOutcome.ELIMINATED: msg("eliminated"),
    RepairOutcome.STILL_BROKEN: msg("still broken"),
}


def _numbers(text: str | None, what: Msg) -> tuple[int, int]:
    """A printed range: "3" or "1-2"."""
    low, _dash, high = (text or "").replace(" ", "").partition("-")
    if not low.isdecimal() or (high and not high.isdecimal()):
        raise RuleError(
            msg("%(what)s: write a number or a range such as 1-2", what=what), rule="11.4"
        )
    return int(low), int(high or low)


def broken_weapons(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    """The registered broken Weapons not yet eliminated (none when tracked light)."""
    if context is None:
        return ()
    return tuple(
        (u.id, msg("%(name)s (%(id)s)", name=u.name, id=u.id))
        for u in context.state.units.values()
        if u.kind is UnitKind.WEAPON and u.status is UnitStatus.BROKEN and not u.eliminated
    )


def _typed_weapon(inputs: Mapping[str, Any]) -> BrokenWeapon:
    if not (inputs.get("weapon") or "").strip():
        raise RuleError(msg("name the broken Weapon"), rule="11.4")
    return BrokenWeapon(
        name=inputs["weapon"].strip(),
        fix=_numbers(inputs.get("fix"), msg("Fix")),
        elim=_numbers(inputs.get("elim"), msg("Elim")),
    )


def _repair(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    weapon_id = inputs.get("weapon_id")
    if weapon_id:
        weapon = broken_weapon(context.state, require_table(context.counters), weapon_id)
    else:
        weapon = _typed_weapon(inputs)
    checked = random_hex_check(hex_number=inputs["hex_number"], weapons=(weapon,))
    result = checked.outcomes[weapon.name]
    state = weapon_repaired(context.state, weapon_id, result) if weapon_id else context.state
    words = REPAIR_WORDS[result]
    return Done(
        state,
        checked.explanation,
        msg("%(weapon)s: %(result)s", weapon=weapon.name, result=words),
        (msg("%(weapon)s: %(result)s", weapon=weapon.name, result=words),),
    )


REPAIR = Procedure(
    key="repair",
    title=msg("A broken Weapon and the Random Hex"),
    rule="11.4",
    fields=(
        Field(
            "weapon_id",
            msg("Registered broken Weapon"),
            "choice",
            required=False,
            choices=lambda context: (("", msg("— not registered —")), *broken_weapons(context)),
            help=msg("Its Fix and Elim come from the counter table."),
        ),
        Field("weapon", msg("Broken Weapon"), "text", required=False, max_length=80),
        Field("fix", msg("Fix range printed on it"), "text", required=False, max_length=10),
        Field("elim", msg("Elim range printed on it"), "text", required=False, max_length=10),
        Field("hex_number", msg("Number of the Random Hex revealed"), low=0, high=20),
    ),
    run=_repair,
    help=msg("When a Sniper! or Event! reveals a Random Hex, each broken Weapon checks it."),
)

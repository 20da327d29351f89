"""Squad rosters: the basic squad, improvements bought with PM, validation and builder options.

A roster starts as the nation's basic squad (§8.1 and the nation list) and is improved with
weapon options (§8.2.1), experience (§8.2.2) and specialists (§8.2.3, §8.3). `validate_roster`
returns every violation at once plus the PM left and the starting PO (§8.2.4); `slot_options`
lists what the builder may offer for one soldier, and `apply_choice` applies one edit.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from rules.errors import RuleError
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.checks import (
    Violation,
    check_composition,
    check_experience,
    check_ids,
    check_option_limits,
    check_scouts,
    check_specialists,
    check_weapons,
    swap_option,
)
from rules.parabellum.data import (
    EXPERIENCES,
    Weapon,
    costs,
    nation,
    raw,
    squad_type,
    weapon,
)
from rules.parabellum.squad import Roster, Soldier

Field = Literal["weapon", "extras", "experience", "specialist", "scout"]


def new_roster(squad_id: str, name: str = "") -> Roster:
    """The unimproved basic squad of a squad type (§8.1); US riflemen 1-2 are the scouts."""
    st = squad_type(squad_id)
    n = nation(st.nation)
    soldiers = []
    for slot in n.basic_squad:
        for i in range(1, slot.count + 1):
            sid = slot.role if slot.count == 1 else f"{slot.role}-{i}"
            scout = "scouts" in st.special_rules and slot.role == "rifleman" and i <= 2
            soldiers.append(Soldier(id=sid, role=slot.role, weapon=slot.weapon, scout=scout))
    return Roster(squad_type=squad_id, soldiers=tuple(soldiers), name=name)


def soldier_weapon(roster: Roster, soldier: Soldier) -> Weapon:
    """The soldier's primary weapon, with Assault added for assault troops (§8.4.4)."""
    w = weapon(roster.type.nation, soldier.weapon)
    if "assault_troops" in roster.type.special_rules and not w.has("assault"):
        return dataclasses.replace(w, rules=w.rules | {"assault"})
    return w


# ---------------------------------------------------------------------------------------------
# Validation


@dataclass(frozen=True)
class RosterReport:
    squad_type: str
    pm_budget: Decimal
    pm_spent: Decimal
    recruits: int
    carried_po: int
    violations: tuple[Violation, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def pm_left(self) -> Decimal:
        return self.pm_budget - self.pm_spent

    @property
    def starting_po(self) -> int:
        """Unspent whole PM, +1 per recruit (§8.2, §8.2.2, §8.2.4), + house-rule carry-over."""
        return max(0, math.floor(self.pm_left)) + self.recruits + self.carried_po

    def to_dict(self) -> dict[str, Any]:
        return {
            "squad_type": self.squad_type,
            "pm_budget": str(self.pm_budget),
            "pm_spent": str(self.pm_spent),
            "pm_left": str(self.pm_left),
            "recruits": self.recruits,
            "carried_po": self.carried_po,
            "starting_po": self.starting_po,
            "valid": self.valid,
            "violations": [v.to_dict() for v in self.violations],
        }


def pm_spent(roster: Roster) -> Decimal:
    """PM spent on the active soldiers' bought improvements (§8.2)."""
    st = roster.type
    n = nation(st.nation)
    veteran, specialist = (Decimal(str(costs()[k])) for k in ("veteran", "specialist"))
    total = Decimal(0)
    for s in roster.active:
        if s.experience == "veteran" and s.experience_source == "bought":
            total += veteran
        if s.specialist:
            total += specialist
        option = swap_option(st, n.base_weapon(s.role), s.weapon)
        if option:
            total += option.cost
        for extra in s.extras:
            opt = st.option(extra)
            total += opt.cost if opt else 0
    return total


def validate_roster(roster: Roster, *, understrength_ok: bool = False) -> RosterReport:
    """Every violation of the squad-formation rules, with PM spent and starting PO.

    The builder calls this on every edit. `understrength_ok` accepts fewer active soldiers
    than the basic squad (only under the campaign house rules, see `HouseRules`).
    """
    try:
        st = roster.type
    except RuleError as exc:
        return RosterReport(
            roster.squad_type, Decimal(0), Decimal(0), 0, 0, (Violation("8", "squad", exc.message),)
        )
    active = roster.active
    found: list[Violation] = []
    found += check_ids(roster)
    found += check_composition(roster, st, understrength_ok)
    for s in active:
        found += check_weapons(roster, st, s)
    found += check_option_limits(st, active)
    found += check_experience(st, active)
    found += check_specialists(st, active)
    found += check_scouts(st, roster, understrength_ok)
    spent = pm_spent(roster)
    if spent > st.pm:
        found.append(
            Violation(
                "8.2",
                "budget",
                msg(
                    "PM budget exceeded: %(spent)s spent of %(budget)s for %(squad)s (%(ref)s)",
                    spent=str(spent),
                    budget=str(st.pm),
                    squad=pbl.squad_label(st.id, st.name),
                    ref=st.ref,
                ),
            )
        )
    if roster.carried_po < 0:
        found.append(Violation("HR-4", "carried_po", msg("carried-over PO cannot be negative")))
    recruits = sum(1 for s in active if s.experience == "recruit")
    return RosterReport(st.id, st.pm, spent, recruits, roster.carried_po, tuple(found))


# ---------------------------------------------------------------------------------------------
# Builder edits and options


def apply_choice(roster: Roster, soldier_id: str, field_: Field, value: Any) -> Roster:
    """One builder edit. Making a soldier political officer arms him with the pistol (§8.3.3);
    unmaking him returns the basic squad weapon. Experience set here is bought with PM."""
    s = roster.soldier(soldier_id)
    if field_ == "specialist":
        pistol = raw()["specialists"]["political_officer"]["weapon"]
        if value == "political_officer":
            s = dataclasses.replace(s, weapon=pistol)
        elif s.specialist == "political_officer":
            s = dataclasses.replace(s, weapon=nation(roster.type.nation).base_weapon(s.role))
    elif field_ == "extras":
        value = tuple(value)
    elif field_ == "experience":
        s = dataclasses.replace(s, experience_source="bought")
    elif field_ not in ("weapon", "experience", "scout"):
        raise RuleError(f"unknown roster field {field_!r}", rule="8")
    return roster.replace(dataclasses.replace(s, **{field_: value}))


@dataclass(frozen=True)
class Choice:
    value: Any
    pm_delta: Decimal


@dataclass(frozen=True)
class SlotOptions:
    """What the builder offers for one soldier: every value that adds no new violation."""

    soldier_id: str
    current: dict[str, Any]
    choices: dict[str, tuple[Choice, ...]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "soldier_id": self.soldier_id,
            "current": self.current,
            "choices": {
                k: [
                    {
                        "value": list(c.value) if isinstance(c.value, tuple) else c.value,
                        "pm_delta": str(c.pm_delta),
                    }
                    for c in v
                ]
                for k, v in self.choices.items()
            },
        }


def _candidates(roster: Roster, s: Soldier) -> dict[Field, list[Any]]:
    st = roster.type
    n = nation(st.nation)
    base = n.base_weapon(s.role)
    weapons = [
        base,
        *sorted(
            {t for o in st.options if o.kind == "swap" and base in o.sources for t in o.targets}
        ),
    ]
    extra_keys = [o.id for o in st.options if o.kind == "extra"]
    extras = [
        combo for r in range(len(extra_keys) + 1) for combo in itertools.combinations(extra_keys, r)
    ]
    out: dict[Field, list[Any]] = {
        "weapon": weapons,
        "extras": extras,
        "experience": list(EXPERIENCES),
        "specialist": [None, *n.specialists],
    }
    if "scouts" in st.special_rules and s.role == "rifleman":
        out["scout"] = [False, True]
    return out


def slot_options(roster: Roster, soldier_id: str, *, understrength_ok: bool = False) -> SlotOptions:
    """Legal values for each field of one soldier, with the PM each one adds or refunds.

    A value is offered when applying it introduces no violation the roster does not already
    have (so an invalid roster can still be repaired one edit at a time). Budget counts.
    """
    s = roster.soldier(soldier_id)
    before = validate_roster(roster, understrength_ok=understrength_ok)
    known = {(v.code, v.soldier_id) for v in before.violations}
    choices: dict[str, tuple[Choice, ...]] = {}
    for field_, values in _candidates(roster, s).items():
        legal = []
        for value in values:
            after = validate_roster(
                apply_choice(roster, soldier_id, field_, value), understrength_ok=understrength_ok
            )
            if all((v.code, v.soldier_id) in known for v in after.violations):
                legal.append(Choice(value, after.pm_spent - before.pm_spent))
        choices[field_] = tuple(legal)
    current = {
        "weapon": s.weapon,
        "extras": list(s.extras),
        "experience": s.experience,
        "specialist": s.specialist,
        "scout": s.scout,
    }
    return SlotOptions(soldier_id, current, choices)

"""The printable roster card: every soldier or unit with the values a player needs at the
table (role, weapon and its rules, experience and its modifiers, specialist, points)."""

from __future__ import annotations

import dataclasses
from typing import Any

from campaigns.i18n import say
from campaigns.rosters.engine import m36_army_options
from campaigns.rosters.words import doubtful, soldier_name, squad_name, weapon_msg
from rules.errors import RuleError
from rules.m1936 import army as m36_army
from rules.m1936 import labels as m36_labels
from rules.m1936.data import STAT_NAMES, catalogue
from rules.m1936.validation import validate_army
from rules.parabellum import labels as pbl
from rules.parabellum.data import experience_mods
from rules.parabellum.roster import Roster, pm_spent, soldier_weapon, validate_roster


def pb_card(data: dict[str, Any]) -> dict[str, Any]:
    roster = Roster.from_dict(data)
    report = validate_roster(roster)
    code = roster.type.nation
    rows = []
    for s in roster.soldiers:
        try:
            gun = soldier_weapon(roster, s)
        except RuleError:
            gun = None
        mods = experience_mods(s.experience)
        rows.append(
            {
                "name": soldier_name(s.id),
                "role": say(pbl.role_label(s.role)),
                "weapon": say(weapon_msg(code, s.weapon)),
                "range_cm": gun.range_cm if gun else None,
                "weapon_rules": ", ".join(
                    say(pbl.label(pbl.WEAPON_RULES, r)) for r in sorted(gun.rules)
                )
                if gun
                else "",
                "extras": ", ".join(say(pbl.option_label(e)) for e in s.extras),
                "experience": say(pbl.label(pbl.EXPERIENCES, s.experience)),
                "evasion": mods["evasion"],
                "assault": mods["assault"],
                "aim": mods["aim"],
                "blue_tokens": mods["blue_tokens"],
                "specialist": say(pbl.label(pbl.SPECIALISTS, s.specialist)) if s.specialist else "",
                "scout": s.scout,
                "pm": pm_spent(dataclasses.replace(roster, soldiers=(s,))),
                "dead": s.status != "active",
            }
        )
    return {
        "system": "parabellum",
        "title": squad_name(roster.squad_type),
        "ref": roster.type.ref,
        "rows": rows,
        "pm_budget": report.pm_budget,
        "pm_spent": report.pm_spent,
        "starting_po": report.starting_po,
        "valid": report.valid,
    }


def m36_card(data: dict[str, Any], house_rules: dict | None = None) -> dict[str, Any]:
    army = m36_army.ArmyList.from_dict(data)
    result = validate_army(army, m36_army_options(house_rules))
    rows = []
    for i, (entry, cost) in enumerate(zip(army.entries, result.entry_costs, strict=True)):
        try:
            profile = catalogue().profile(army.faction, entry.profile)
        except RuleError:
            profile = None
        stats = profile.stats if profile else {}
        rows.append(
            {
                "number": i + 1,
                "name": entry.label or entry.profile,
                "profile": entry.profile,
                "tipo": profile.tipo if profile else "",
                "stats": [_stat(stats.get(k)) for k in STAT_NAMES],
                "move": "/".join(str(m) for m in profile.move) if profile and profile.move else "—",
                "rules": ", ".join(profile.rules) if profile else "",
                "upgrades": ", ".join(entry.upgrades),
                "cost": cost,
                "warning": doubtful(army.faction, entry.profile),
            }
        )
    return {
        "system": "m1936",
        "title": " · ".join(
            str(say(m36_labels.label(table, value)))
            for table, value in (
                (m36_labels.FACTIONS, army.faction),
                (m36_labels.ROLES, army.role),
                (m36_labels.QUALITIES, army.quality),
            )
        ),
        "stat_names": [s.upper() for s in STAT_NAMES],
        "rows": rows,
        "budget": result.budget,
        "spent": result.spent,
        "valid": result.valid,
    }


def _stat(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, tuple | list):
        return "/".join(str(v) for v in value)
    return str(value)


def card(system: str, data: dict[str, Any], house_rules: dict | None = None) -> dict[str, Any]:
    return pb_card(data) if system == "parabellum" else m36_card(data, house_rules)

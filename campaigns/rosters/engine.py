"""Glue between stored rosters and the rules engines (no ORM here).

Builds engine objects from stored JSON, applies one builder edit, and turns the engines'
validation into plain data for templates and the API. Every error a player can cause is a
`BuilderError` naming the field, so services can turn it into a form error or an API 400.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.rosters.words import (
    FIELD_LABELS,
    doubtful,
    edit_summary,
    extras_msg,
    soldier_name,
    squad_name,
    unit_option,
    weapon_msg,
)
from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.m1936 import army as m36_army
from rules.m1936 import labels as m36_labels
from rules.m1936.data import Faction, Quality, catalogue
from rules.m1936.house_rules import HouseRules as M36HouseRules
from rules.m1936.validation import legal_options, validate_army
from rules.parabellum import labels as pb_labels
from rules.parabellum.data import nation
from rules.parabellum.house_rules import HouseRules as PBHouseRules
from rules.parabellum.roster import Roster as PBRoster
from rules.parabellum.roster import _candidates, apply_choice, new_roster, slot_options
from rules.parabellum.roster import validate_roster as pb_validate
from rules.serial import to_data

PARABELLUM, M1936 = "parabellum", "m1936"


def jsonable(value: Any) -> Any:
    """Engine output made safe for a JSONField (dataclasses, enums, fractions, decimals)."""
    return json.loads(json.dumps(to_data(value), default=str))


class BuilderError(Exception):
    """A builder input the engine refuses; `field` names the form / API field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(message)


# --- Parabellum ------------------------------------------------------------------------------


def pb_roster(data: dict[str, Any]) -> PBRoster:
    return PBRoster.from_dict(data)


def pb_house_rules(data: dict[str, Any]) -> PBHouseRules:
    try:
        return PBHouseRules.from_dict(data or {})
    except (RuleError, TypeError) as exc:
        raise BuilderError("house_rules", str(exc)) from None


def pb_new(squad_id: str, name: str) -> dict[str, Any]:
    try:
        return new_roster(squad_id, name).to_dict()
    except RuleError:
        raise BuilderError("squad_type", _("Choose one of the squad types.")) from None


PB_FIELDS = ("weapon", "extras", "experience", "specialist", "scout")


def _pb_value(field: str, raw: Any) -> Any:
    if field == "extras":
        if isinstance(raw, str):
            raw = [p for p in raw.split(",") if p]
        if not isinstance(raw, list | tuple):
            raise BuilderError("value", _("Extras are a list of weapon options."))
        return tuple(raw)
    if field == "scout":
        if isinstance(raw, bool):
            return raw
        return str(raw).lower() in ("1", "true", "on", "yes")
    if field == "specialist":
        return raw or None
    return raw


def pb_edit(data: dict[str, Any], soldier_id: str, field: str, raw: Any) -> tuple[dict, Msg]:
    """Apply one builder edit; only values the builder could offer are accepted."""
    roster = pb_roster(data)
    if field not in PB_FIELDS:
        raise BuilderError("field", _("Unknown roster field %(f)s.") % {"f": field})
    try:
        soldier = roster.soldier(soldier_id)
    except RuleError:
        raise BuilderError(
            "soldier_id", _("No soldier %(s)s in this roster.") % {"s": soldier_id}
        ) from None
    if soldier.status != "active":
        raise BuilderError(
            "soldier_id", _("%(s)s is dead and cannot be edited.") % {"s": soldier_name(soldier_id)}
        )
    value = _pb_value(field, raw)
    candidates = _candidates(roster, soldier).get(field, [])
    known = [tuple(sorted(c)) if field == "extras" else c for c in candidates]
    probe = tuple(sorted(value)) if field == "extras" else value
    if probe not in known:
        raise BuilderError(
            "value",
            _("%(v)s is not a choice for the %(f)s of %(s)s.")
            % {
                "v": raw if raw not in (None, "") else "—",
                "f": say(FIELD_LABELS[field]),
                "s": soldier_name(soldier_id),
            },
        )
    if field == "extras":
        value = next(c for c in candidates if tuple(sorted(c)) == probe)
    new = apply_choice(roster, soldier_id, field, value)
    return new.to_dict(), edit_summary(roster.type.nation, soldier_id, field, value)


def pb_report(data: dict[str, Any], house_rules: dict[str, Any]) -> dict[str, Any]:
    """Violations, PM and PO, and each active soldier with the builder's legal choices."""
    roster = pb_roster(data)
    hr = pb_house_rules(house_rules)
    report = pb_validate(roster, understrength_ok=hr.understrength_ok)
    st = roster.type
    n = nation(st.nation)
    soldiers = []
    for s in roster.soldiers:
        row: dict[str, Any] = {
            "id": s.id,
            "name": s.name or soldier_name(s.id),
            "role": s.role,
            "role_label": say(pb_labels.role_label(s.role)),
            "weapon": s.weapon,
            "weapon_model": _weapon_model(n.code, s.weapon),
            "extras": list(s.extras),
            "extras_labels": [say(pb_labels.option_label(e)) for e in s.extras],
            "experience": s.experience,
            "experience_label": say(pb_labels.label(pb_labels.EXPERIENCES, s.experience)),
            "specialist_label": say(pb_labels.label(pb_labels.SPECIALISTS, s.specialist))
            if s.specialist
            else "",
            "experience_source": s.experience_source,
            "specialist": s.specialist,
            "scout": s.scout,
            "status": s.status,
            "service": s.service,
            "violations": [_said(v)["text"] for v in report.violations if v.soldier_id == s.id],
        }
        if s.status == "active":
            opts = slot_options(roster, s.id, understrength_ok=hr.understrength_ok)
            row["choices"] = {
                field: [
                    {
                        "value": _choice_value(c.value),
                        "label": _choice_label(n.code, field, c.value),
                        "pm_delta": str(c.pm_delta),
                    }
                    for c in choices
                ]
                for field, choices in opts.choices.items()
            }
            _ensure_current(row, s, n.code)
            row["blocked"] = _blocked_choices(roster, s, row["choices"], report, hr, n.code)
        soldiers.append(row)
    return {
        "system": PARABELLUM,
        "squad_type": st.id,
        "squad_name": squad_name(st.id),
        "ref": st.ref,
        "valid": report.valid,
        "violations": [_said(v) for v in report.violations],
        "pm_budget": str(report.pm_budget),
        "pm_spent": str(report.pm_spent),
        "pm_left": str(report.pm_left),
        "starting_po": report.starting_po,
        "recruits": report.recruits,
        "carried_po": report.carried_po,
        "soldiers": soldiers,
        "extras_options": [o.id for o in st.options if o.kind == "extra"],
        "understrength_ok": hr.understrength_ok,
        "has_scouts": "scouts" in st.special_rules,
    }


def _said(violation) -> dict[str, Any]:
    """A violation as data, its message in the reader's language."""
    text = say(violation.message)
    return {**violation.to_dict(), "message": text, "text": f"[{violation.rule}] {text}"}


def _blocked_choices(roster, s, offered, before, hr, code: str) -> dict[str, list[dict]]:
    """The squad list's other values for each field, with the first rule each would break.

    The builder lists them apart ("breaks a rule") so a player can still pick one, e.g. to
    move an option from one soldier to another: the edit is saved and the panel shows the
    violation until it is repaired (the same as an API edit)."""
    known = {(v.code, v.soldier_id) for v in before.violations}
    out: dict[str, list[dict]] = {}
    for field, values in _candidates(roster, s).items():
        shown = {c["value"] for c in offered.get(field, [])}
        rows = []
        for value in values:
            if _choice_value(value) in shown:
                continue
            after = pb_validate(
                apply_choice(roster, s.id, field, value), understrength_ok=hr.understrength_ok
            )
            new = [v for v in after.violations if (v.code, v.soldier_id) not in known]
            rows.append(
                {
                    "value": _choice_value(value),
                    "label": _choice_label(code, field, value),
                    "pm_delta": str(after.pm_spent - before.pm_spent),
                    "reason": new[0].rule if new else "",
                }
            )
        if rows:
            out[field] = rows
    return out


def _choice_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return ",".join(value)
    return "" if value is None else value


def _weapon_model(code: str, key: str) -> str:
    return say(weapon_msg(code, key))


def _choice_label(code: str, field: str, value: Any) -> str:
    if field == "weapon":
        return _weapon_model(code, value)
    if field == "extras":
        return say(extras_msg(value)) if value else _("none")
    if field == "specialist":
        return say(pb_labels.label(pb_labels.SPECIALISTS, value)) if value else _("none")
    if field == "experience":
        return say(pb_labels.label(pb_labels.EXPERIENCES, value))
    if field == "scout":
        return _("scout") if value else _("not a scout")
    return str(value)


def _ensure_current(row: dict[str, Any], s, code: str) -> None:
    """Keep the current value listed even when it is now illegal, so the select shows it."""
    current = {
        "weapon": s.weapon,
        "extras": tuple(s.extras),
        "experience": s.experience,
        "specialist": s.specialist,
    }
    for field, value in current.items():
        shown = _choice_value(value)
        if not any(c["value"] == shown for c in row["choices"].get(field, [])):
            row["choices"].setdefault(field, []).insert(
                0, {"value": shown, "label": _choice_label(code, field, value), "pm_delta": "0"}
            )


# --- 1936 ------------------------------------------------------------------------------------


def m36_army_list(data: dict[str, Any]) -> m36_army.ArmyList:
    return m36_army.ArmyList.from_dict(data)


def m36_new(
    faction: str, role: str, quality: str, size: str | None, defender_points: int | None
) -> dict[str, Any]:
    for field, kind, value, words in (
        ("faction", Faction, faction, m36_labels.FACTIONS),
        ("role", m36_army.Role, role, m36_labels.ROLES),
        ("quality", Quality, quality, m36_labels.QUALITIES),
        ("size", m36_army.GameSize, size or m36_army.GameSize.PEQUENA, m36_labels.SIZES),
    ):
        if value not in kind._value2member_map_:
            options = ", ".join(say(m36_labels.label(words, k.value)) for k in kind)
            raise BuilderError(field, _("Choose one of: %(options)s.") % {"options": options})
    try:
        army = m36_army.ArmyList(
            faction=Faction(faction),
            role=m36_army.Role(role),
            quality=Quality(quality),
            size=m36_army.GameSize(size) if size else None,
            defender_points=defender_points,
        )
        army.budget()
    except ValueError as exc:
        field = "size" if isinstance(exc, RuleError) else "faction"
        raise BuilderError(field, str(exc)) from None
    return army.to_dict()


def m36_house_rules(data: dict[str, Any]) -> M36HouseRules:
    known = {f.name for f in dataclasses.fields(M36HouseRules) if f.init}
    return M36HouseRules(**{k: bool(v) for k, v in (data or {}).items() if k in known})


ARMY_KEY = "army"  # house_rules key of the 1936 army-list readings (`ArmyOptions`)
ROUNDINGS = ("half_up", "down", "up")


def m36_army_readings(raw: Any) -> dict[str, Any]:
    """The army-list readings a player chose, checked: only those that differ from the
    defaults (the seed's literal text), as stored under `house_rules["army"]`."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise BuilderError(ARMY_KEY, _("The army-list readings are a JSON object."))
    fields = {f.name: f.default for f in dataclasses.fields(m36_army.ArmyOptions)}
    clean = {}
    for key, value in raw.items():
        if key not in fields:
            raise BuilderError(key, _("%(k)s is not an army-list reading.") % {"k": key})
        if key == "rounding":
            if value not in ROUNDINGS:
                raise BuilderError(
                    key, _("Choose one of: %(options)s.") % {"options": ", ".join(ROUNDINGS)}
                )
        elif not isinstance(value, bool):
            raise BuilderError(key, _("Give true or false."))
        if value != fields[key]:
            clean[key] = value
    return clean


def m36_army_options(house_rules: dict[str, Any] | None) -> m36_army.ArmyOptions:
    """The roster's army-list readings (`ArmyOptions`); the defaults where none is stored."""
    raw = (house_rules or {}).get(ARMY_KEY) or {}
    return m36_army.ArmyOptions(**m36_army_readings(raw if isinstance(raw, dict) else {}))


M36_OPS = ("add_unit", "remove_unit", "add_upgrade", "remove_upgrade", "label", "quality")


def m36_edit(
    data: dict[str, Any], op: str, params: dict[str, Any], house_rules: dict | None = None
) -> tuple[dict, Msg]:
    """One army-list builder edit. Units and upgrades must exist in the faction's catalogue;
    a unit's own quality needs the `per_unit_quality` reading."""
    army = m36_army_list(data)
    entries = list(army.entries)
    cat = catalogue()
    if op not in M36_OPS:
        raise BuilderError("op", _("Unknown builder action %(op)s.") % {"op": op})
    if op == "add_unit":
        name = str(params.get("profile") or "")
        try:
            profile = cat.profile(army.faction, name)
        except RuleError:
            raise BuilderError(
                "profile",
                _("The %(f)s list has no unit called %(n)s.")
                % {"f": say(m36_labels.label(m36_labels.FACTIONS, army.faction)), "n": name},
            ) from None
        entries.append(m36_army.ArmyEntry(profile.name))
        summary = msg("added %(n)s", n=profile.name)
    else:
        index = _index(params.get("entry"), len(entries))
        entry = entries[index]
        if op == "remove_unit":
            entries.pop(index)
            summary = msg("removed unit %(i)s (%(n)s)", i=index + 1, n=entry.profile)
        elif op == "label":
            label = str(params.get("label") or "")[:60]
            entries[index] = dataclasses.replace(entry, label=label)
            summary = msg("unit %(i)s labelled %(l)s", i=index + 1, l=label or "—")
        elif op == "quality":
            quality = _unit_quality(params.get("quality"), army, house_rules)
            entries[index] = dataclasses.replace(entry, quality=quality)
            summary = msg(
                "unit %(i)s (%(n)s): quality %(q)s",
                i=index + 1,
                n=entry.profile,
                q=m36_labels.label(m36_labels.QUALITIES, quality or army.quality),
            )
        else:
            upgrade = str(params.get("upgrade") or "")
            if op == "add_upgrade":
                if not any(u.name == upgrade for u in cat.faction_upgrades(army.faction)):
                    raise BuilderError(
                        "upgrade", _("%(u)s is not an upgrade of this list.") % {"u": upgrade}
                    )
                entries[index] = dataclasses.replace(entry, upgrades=(*entry.upgrades, upgrade))
                summary = msg(
                    "unit %(i)s (%(n)s): + %(u)s", i=index + 1, n=entry.profile, u=upgrade
                )
            else:
                if upgrade not in entry.upgrades:
                    raise BuilderError("upgrade", _("That unit has no %(u)s.") % {"u": upgrade})
                ups = list(entry.upgrades)
                ups.reverse()
                ups.remove(upgrade)
                ups.reverse()
                entries[index] = dataclasses.replace(entry, upgrades=tuple(ups))
                summary = msg(
                    "unit %(i)s (%(n)s): − %(u)s", i=index + 1, n=entry.profile, u=upgrade
                )
    return dataclasses.replace(army, entries=tuple(entries)).to_dict(), summary


def _unit_quality(raw: Any, army: m36_army.ArmyList, house_rules: dict | None) -> Quality | None:
    """A unit's own quality (None: the force's); refused unless the roster's readings allow it."""
    if raw in (None, "") or raw == army.quality:
        return None
    if raw not in Quality._value2member_map_:
        options = ", ".join(say(m36_labels.label(m36_labels.QUALITIES, q.value)) for q in Quality)
        raise BuilderError("quality", _("Choose one of: %(options)s.") % {"options": options})
    if not m36_army_options(house_rules).per_unit_quality:
        raise BuilderError(
            "quality",
            _(
                "Every unit has the force's quality (a unit differs only through Veteranía); "
                "the army-list reading “Quality per unit” allows another."
            ),
        )
    return Quality(raw)


def _index(raw: Any, length: int) -> int:
    try:
        index = int(raw) - 1
    except (TypeError, ValueError):
        raise BuilderError("entry", _("Say which unit (its number in the list).")) from None
    if not 0 <= index < length:
        raise BuilderError("entry", _("The list has no unit number %(n)s.") % {"n": raw})
    return index


def m36_report(
    data: dict[str, Any], selected: int | None = None, house_rules: dict | None = None
) -> dict[str, Any]:
    army = m36_army_list(data)
    readings = m36_army_options(house_rules)
    result = validate_army(army, readings)
    options = legal_options(army, options=readings)
    entries = []
    for i, (entry, cost) in enumerate(zip(army.entries, result.entry_costs, strict=True)):
        row = {
            "number": i + 1,
            "profile": entry.profile,
            "label": entry.label,
            "quality": say(m36_labels.label(m36_labels.QUALITIES, entry.quality)),
            "upgrades": list(entry.upgrades),
            "cost": cost,
            "violations": [say(v.message) for v in result.violations if v.entry == i],
            "warning": doubtful(army.faction, entry.profile),
        }
        if selected is not None and selected == i:
            try:
                ups = legal_options(army, i, readings).upgrades
            except RuleError:
                ups = ()
            row["upgrade_options"] = [{**u.to_dict(), "reason": say(u.reason)} for u in ups]
        entries.append(row)
    return {
        "system": M1936,
        "faction": say(m36_labels.label(m36_labels.FACTIONS, army.faction)),
        "role": say(m36_labels.label(m36_labels.ROLES, army.role)),
        "quality": say(m36_labels.label(m36_labels.QUALITIES, army.quality)),
        "size": say(m36_labels.label(m36_labels.SIZES, army.size)) if army.size else None,
        "defender_points": army.defender_points,
        "valid": result.valid,
        "violations": [
            {"rule": v.rule, "message": say(v.message), "entry": v.entry} for v in result.violations
        ],
        "budget": result.budget,
        "spent": result.spent,
        "points_left": result.points_left,
        "entries": entries,
        "warnings": [
            f"{e['number']}. {e['profile']}: {e['warning']}" for e in entries if e["warning"]
        ],
        "units": [unit_option(u) for u in options.units],
        # the builder offers a unit's own quality only under the `per_unit_quality` reading
        "qualities": [
            {"value": q.value, "label": say(m36_labels.label(m36_labels.QUALITIES, q.value))}
            for q in Quality
        ]
        if readings.per_unit_quality
        else [],
    }


def report(system: str, data: dict, house_rules: dict, selected: int | None = None) -> dict:
    if system == PARABELLUM:
        return pb_report(data, house_rules)
    return m36_report(data, selected, house_rules)

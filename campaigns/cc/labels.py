"""Decision options as words a player reads: a translated label for each option value.

The engine answers with plain values (``raise_own``, ``True``, a Campaign Position code, a
survivor's id); the pages and the API show each with a label built from the decision's key
and what the campaign knows (its sides, its tables, the battle's survivors).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.cc.engines import TEMPLATES

FIXED = {
    "quality": {
        "raise_own": gettext_lazy("Raise your own troop quality one level"),
        "lower_opponent": gettext_lazy("Lower your opponent's troop quality one level"),
        "none": gettext_lazy("Leave both qualities as they are"),
    },
    "option": {
        "choose": gettext_lazy("Choose the next scenario yourself"),
        "cede": gettext_lazy("Let your opponent choose, and roll on your Resource Table"),
    },
}
YES_NO = {True: gettext_lazy("Yes"), False: gettext_lazy("No")}


def option_labels(decision) -> list[dict[str, Any]]:
    """Each option of `decision` as {"value": the value to answer with, "label": words}."""
    return [{"value": o, "label": _label(decision, o)} for o in decision.options]


def answer_text(decision, answer: Any) -> str:
    """An answer as words: the labels of the chosen options, or the number entered."""
    chosen = answer if isinstance(answer, list) else [answer]
    if not chosen:
        return _("nothing")
    return ", ".join(_label(decision, a) if a in decision.options else str(a) for a in chosen)


def _label(decision, option: Any) -> str:
    family = decision.key.split(".", 1)[0]
    if isinstance(option, bool):
        return str(YES_NO[option])
    fixed = FIXED.get(family, {})
    if option in fixed:
        return str(fixed[option])
    campaign = decision.campaign
    tpl = TEMPLATES.get(campaign.template)
    if family == "initiative_holder" and tpl is not None:
        return dict((f.value, name) for name, f in tpl.sides).get(option, str(option))
    if family == "position" and tpl is not None:
        map_number = tpl.maps.get(option)
        if map_number is None:
            return _("Campaign Position %(cp)s") % {"cp": option}
        return _("Campaign Position %(cp)s (map %(map)s)") % {"cp": option, "map": map_number}
    if family == "scenario":
        return _("Scenario %(n)s") % {"n": option}
    if family == "purchase":
        return _priced(campaign.tables, str(option))
    if family in ("reinforcements", "weapons") and decision.battle is not None:
        return _survivor(decision.battle.result or {}, decision.key.split(".", 1)[-1], option)
    return str(option)


def _priced(tables: dict[str, Any], formation: str) -> str:
    rows = (tables.get("campaign_forces") or {}).get("rows") or []
    cost = next((r.get("cost") for r in rows if r.get("formation") == formation), None)
    if cost is None:
        return formation
    return _("%(formation)s (costs %(cost)s VP)") % {"formation": formation, "cost": cost}


def _survivor(result: dict[str, Any], side: str, unit_id: Any) -> str:
    units = (result.get("survivors") or {}).get(side) or []
    unit = next((u for u in units if u.get("id") == unit_id), None)
    if unit is None:
        return str(unit_id)
    details = [str(unit.get("kind") or unit_id)]
    if unit.get("weapon"):
        details.append(_("with %(weapon)s") % {"weapon": unit["weapon"]})
    if unit.get("veteran"):
        details.append(_("veteran"))
    if unit.get("leader_of"):
        details.append(_("leads %(patrol)s") % {"patrol": unit["leader_of"]})
    return _("%(what)s — %(id)s") % {"what": ", ".join(details), "id": unit_id}

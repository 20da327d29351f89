"""What the Combat Commander API views share: loading a campaign as the pages do, refusing
with a message, and the read models (dashboard, battle, tables) built from the selectors."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound, PermissionDenied

from campaigns.cc.engines import TEMPLATES, CCTemplate, template_for
from campaigns.cc.labels import option_words
from campaigns.i18n import say
from campaigns.models import Battle, Campaign, Decision
from campaigns.permissions import Viewer, viewer_context
from campaigns.selectors import campaign_with_sides
from campaigns.selectors.cc import cc_dashboard
from campaigns.selectors.history import log_window
from campaigns.services.cc_campaigns import DICE_MODES
from rules.cc.campaign import Phase
from rules.cc.campaign_tables import gaps
from rules.dice import Distribution

from .serializers import DICE_MODE_LABELS


def cc_only(campaign: Campaign) -> CCTemplate:
    """The campaign's template; 404 (as on the pages) when it is not a CC campaign."""
    if campaign.template not in TEMPLATES:
        raise NotFound(_("This is not a Combat Commander campaign."))
    return template_for(campaign.template)


def require_participant(viewer: Viewer) -> None:
    if not viewer.is_participant:
        raise PermissionDenied(_("Only the campaign's players and game master may do this."))


def require_manager(viewer: Viewer, message: str) -> None:
    if not viewer.can_manage:
        raise PermissionDenied(message)


def reload(campaign: Campaign, user) -> tuple[Campaign, Viewer]:
    """The campaign as it is now (after a service changed it), with the user's relation."""
    fresh = campaign_with_sides(campaign.pk)
    return fresh, viewer_context(user, fresh)


# --- templates --------------------------------------------------------------------------------


def _rule_of(help_text: str) -> str:
    head, sep, _rest = help_text.partition(":")
    return head.strip() if sep and " " not in head.strip() else ""


def template_data(tpl: CCTemplate) -> dict[str, Any]:
    options = []
    for f in tpl.option_fields():
        default = f.default
        if isinstance(default, bool):
            kind, choices, value = "boolean", [True, False], default
        elif isinstance(default, Enum):
            kind, value = "choice", default.value
            choices = [e.value for e in type(default)]
        else:
            continue
        label, text = option_words(f.name)
        options.append(
            {
                "key": f"opt_{f.name}",
                "label": label,
                "type": kind,
                "choices": [{"value": c, "label": str(c)} for c in choices],
                "default": value,
                "rule": _rule_of(text),
                "help": text,
            }
        )
    roles = [
        {"value": str(i), "label": _("I play %(side)s") % {"side": name}}
        for i, (name, _f) in enumerate(tpl.sides)
    ]
    roles += [
        {"value": "gm", "label": _("I am a neutral game master (I see both sides' secrets)")},
        {"value": "none", "label": _("I organise it; seats are taken later")},
    ]
    return {
        "slug": tpl.key,
        "name": tpl.title,
        "description": tpl.blurb,
        "sides": [
            {"order": i, "name": name, "faction": faction.value}
            for i, (name, faction) in enumerate(tpl.sides)
        ],
        "options": options,
        "roles": roles,
        "dice_modes": [{"value": m, "label": str(DICE_MODE_LABELS[m])} for m in DICE_MODES],
        "visibilities": [
            {"value": v, "label": str(label)} for v, label in Campaign.Visibility.choices
        ],
        "needs_tables": tpl.needs_tables,
        "positions": list(tpl.positions),
        "result_fields": list(tpl.result_fields),
    }


# --- tables -----------------------------------------------------------------------------------


def missing_values(tables: dict[str, Any]) -> list[str]:
    """Each value the players must still enter (unknown in the tables), in the reader's
    words: the table, the row and the columns as the tables page names them."""
    return [
        _("%(table)s, row %(n)s (%(name)s): %(fields)s")
        % {
            "table": say(gap.table.title),
            "n": gap.row,
            "name": gap.name,
            "fields": ", ".join(say(c.label) for c in gap.columns),
        }
        if gap.columns
        else _("%(table)s: the whole table (no rows yet)") % {"table": say(gap.table.title)}
        for gap in gaps(tables)
    ]


def tables_data(campaign: Campaign) -> dict[str, Any]:
    return {
        "tables": campaign.tables,
        "missing": missing_values(campaign.tables),
        "note": str(campaign.tables.get("_note", "")),
    }


# --- dashboard --------------------------------------------------------------------------------


def _pool(pool) -> dict[str, Any]:
    return {
        "name": say(pool.name),
        "cap": pool.cap,
        "balance": pool.balance,
        "ledger": [{**dataclasses.asdict(e), "reason": say(e.reason)} for e in pool.ledger],
    }


def dashboard_data(campaign: Campaign, viewer: Viewer) -> dict[str, Any]:
    """What the campaign page's dashboard shows this viewer (never another side's secrets:
    the selector reads no sealed answer, and open decisions have none)."""
    dash = cc_dashboard(campaign, viewer)
    tpl = dash.template
    state = tpl.read(campaign)
    sides = {s.faction: s for s in campaign.sides.all()}
    decisions = []
    for decision, _can in dash.decisions:
        decision.campaign = campaign
        decisions.append(decision)
    ended = dash.phase == Phase.ENDED.value
    open_decisions = bool(decisions)
    current = dash.current_battle
    return {
        "campaign": campaign.pk,
        "template": tpl.key,
        "status": campaign.status,
        "phase": dash.phase,
        "battle_number": dash.battle_number,
        "position": dash.position,
        "track": {
            "positions": list(tpl.positions),
            "maps": dict(tpl.maps),
            "path": [b.position for b in getattr(state, "battles", [])],
            "current": None if ended else getattr(state, "position", None),
        }
        if tpl.positions
        else None,
        "current_battle": current.number if current else None,
        "waiting_for": dash.waiting_for,
        "stopped_reason": campaign.stopped_reason,
        "victory": dash.victory,
        "missing_values": dash.missing_values,
        "tables_note": dash.tables_note,
        "sides": [
            {
                "id": sides[view.faction].pk if view.faction in sides else None,
                "order": i,
                "name": view.name,
                "faction": view.faction,
                "quality": view.quality,
                "wins": view.wins,
                "lists": {str(label): [str(v) for v in items] for label, items in view.lists},
            }
            for i, view in enumerate(dash.sides)
        ],
        "pools": [_pool(p) for p in dash.pools],
        "battles": list(dash.battles),
        "decisions": decisions,
        "answerable": [d.pk for d, can in dash.decisions if can],
        "can_advance": viewer.is_participant
        and not open_decisions
        and dash.phase in (Phase.FORCES.value, Phase.SUPPORT.value),
        "can_resume": viewer.is_participant
        and not open_decisions
        and dash.phase == Phase.BATTLE.value
        and bool(current and current.result),
        "viewer": {
            "side_ids": sorted(viewer.side_ids),
            "is_gm": viewer.is_gm,
            "is_participant": viewer.is_participant,
            "can_manage": viewer.can_manage,
        },
    }


# --- battles ----------------------------------------------------------------------------------


def _faction_key(key: Any) -> str:
    return str(key.value if isinstance(key, Enum) else key)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {_faction_key(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def setup_data(record) -> dict[str, Any] | None:
    """The battle's set-up as the battle page shows it (cc/_record.html)."""
    if record is None:
        return None
    return {
        "map": record.map,
        "orientation": record.orientation,
        "vp_axis": record.vp_axis,
        "vp_ledger": [
            {"delta_axis": e.delta_axis, "reason": say(e.reason), "rule": e.rule}
            for e in record.vp_ledger
        ],
        "fielded": {_faction_key(k): list(v) for k, v in record.fielded.items()},
        "posture": {
            _faction_key(k): {"posture": p.value, "hand_size": p.hand_size}
            for k, p in record.posture.items()
        },
        "totals": {_faction_key(k): _plain(v) for k, v in record.totals.items()},
        "extras": {str(k): _plain(v) for k, v in record.extras.items()},
    }


def battle_record(campaign: Campaign, tpl: CCTemplate, number: int):
    state = tpl.read(campaign)
    return next((b for b in getattr(state, "battles", []) if b.number == number), None)


def load_battle(campaign: Campaign, number: int) -> Battle:
    battle = (
        Battle.objects.select_related("winner").filter(campaign=campaign, number=number).first()
    )
    if battle is None:
        raise NotFound(_("This campaign has no battle %(n)s yet.") % {"n": number})
    return battle


def battle_data(campaign: Campaign, viewer: Viewer, battle: Battle) -> dict[str, Any]:
    tpl = cc_only(campaign)
    decisions = list(
        Decision.objects.filter(campaign=campaign, battle=battle)
        .select_related("chooser")
        .order_by("created_at", "id")
    )
    for decision in decisions:
        decision.campaign = campaign
        decision.battle = battle
    return {
        "campaign": campaign.pk,
        "number": battle.number,
        "position": battle.position,
        "status": battle.status,
        "status_display": battle.get_status_display(),
        "winner": battle.winner_id,
        "winner_name": battle.winner.name if battle.winner else None,
        "result": battle.result,
        "finished_at": battle.finished_at,
        "setup": setup_data(battle_record(campaign, tpl, battle.number)),
        "can_play": viewer.is_participant and battle.status == Battle.Status.PLAYING,
        "can_correct": viewer.can_manage and bool(battle.result),
        "result_fields": ["winner", *tpl.result_fields],
        "decisions": decisions,
        # the latest window, in writing order; the whole log pages at log/?battle=<number>
        "log": list(reversed(log_window(campaign, viewer, battle=battle).rows)),
    }


def odds_data(roll_kind: str) -> dict[str, Any]:
    """The exact odds the battle page shows before rolling (campaigns/views/dice.py)."""
    dist = Distribution.of(roll_kind)
    return {
        "kind": roll_kind,
        "mean": float(dist.mean),
        "rows": [
            {
                "value": value,
                "exactly": str(p),
                "at_least": str(dist.p_at_least(value)),
                "exactly_percent": round(float(p) * 100, 1),
                "at_least_percent": round(float(dist.p_at_least(value)) * 100, 1),
            }
            for value, p in dist.probs
        ],
    }

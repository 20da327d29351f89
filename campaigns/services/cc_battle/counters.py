"""The counter table of a tracked battle: the values printed on its counters, user data."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.i18n import say_problems
from campaigns.models import Battle, BattleTracker, LogEntry
from campaigns.models import bounds as b
from campaigns.permissions import viewer_context
from campaigns.services._base import append_log, lock_campaign
from rules.cc.battle.counters import table_from_data
from rules.errors import TableDataError
from rules.i18n import nmsg


def read_counters(*, data: Any = None, units_csv: str = "", weapons_csv: str = "") -> dict:
    """Checked counter-table data, from JSON-ready data or from CSV text with a header row;
    every problem at once, in words."""
    if data is None:
        data = {"units": _rows(units_csv), "weapons": _rows(weapons_csv)}
    try:
        table_from_data(data)
        return {"units": list(data.get("units") or []), "weapons": list(data.get("weapons") or [])}
    except TableDataError as exc:
        raise ValidationError({"counters": say_problems(exc.problems)}) from None
    except (AttributeError, TypeError):
        raise ValidationError(
            {"counters": [_("Give the table as lists of units and weapons.")]}
        ) from None


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text.strip()))) if text.strip() else []


def battle_counters_set(*, battle: Battle, actor, counters: dict) -> BattleTracker:
    """Replace the battle's counter table (already read by `read_counters`); players and game
    master; logged with its size."""
    b.check_values(BattleTracker, {"counters": counters})
    with transaction.atomic():
        campaign = lock_campaign(battle.campaign_id)
        tracker = BattleTracker.objects.select_for_update().filter(battle=battle).first()
        if tracker is None:
            raise ValidationError(_("Start tracking the battle first."), code="conflict")
        if not viewer_context(actor, campaign).is_participant:
            raise ValidationError(
                _("Only the battle's players and game master set its counters."), code="forbidden"
            )
        tracker.counters = counters
        tracker.save(update_fields=["counters", "updated_at"])
        units, weapons = len(counters["units"]), len(counters["weapons"])
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=nmsg(
                "Counter table set: %(n)s unit type, %(w)s weapons.",
                "Counter table set: %(n)s unit types, %(w)s weapons.",
                units,
                w=weapons,
            ),
            actor=actor,
            rule="3.1",
            battle=battle,
        )
    return tracker

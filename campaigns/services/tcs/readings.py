"""The operation's readings of unclear rules (`rules.tcs.options.TcsOptions`, explained in
rules/tcs/DECISIONS.md): set by the organiser or a game master, every change logged."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry
from campaigns.permissions import viewer_context
from campaigns.services._base import append_log
from campaigns.services.tcs.common import locked
from campaigns.tcs.readings import READINGS
from campaigns.tcs.state import options_for
from rules.i18n import Msg, msg
from rules.serial import to_data
from rules.tcs.options import TcsOptions

# Where each reading comes from, as listed in rules/tcs/DECISIONS.md.
OPTION_RULES = {
    "day_turn_minutes": "1.3",
    "night_turn_minutes": "26.1.d",
    "reserves_count_as_attack": "6.14.b",
    "own_prelims_slow_sheet": "6.9.d",
    "reduce_from_zero_size": "6.13.d",
    "vehicles_only_join_vehicle_sheets": "6.13.c",
    "key_off_table": "6.9.f",
    "vehicle_recovery_even_hours_at_night": "17.8.d",
    "vehicle_doubling_counts_current_loss": "17.8.e",
    "vehicle_check_after_each_point": "17.8.b",
    "carried_rounding": "10.0.g",
    "move_defense_units_unassigned_for_morale": "6.3.b",
    "breach_needs_every_unit": "21.3.c",
    "battalion_fire_per_battery": "18.2.c",
    "artillery_point_dice_summed": "18.9.b",
    "overrun_escalates": "23.0",
}
MAX_TURN_MINUTES = 240


def _reading_name(name: str) -> Msg | str:
    """The reading's label as a message (its English text is the catalogue's id)."""
    if name not in READINGS:
        return name
    with translation.override("en"):
        return msg(str(READINGS[name][0]))


def _reading_value(value: Any) -> Msg | str:
    if isinstance(value, bool):
        return msg("on") if value else msg("off")
    return str(value)


def _coerce(field: dataclasses.Field, value: Any) -> Any:
    default = field.default
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValidationError({field.name: _("Choose yes or no.")})
        return value
    if isinstance(default, Enum):
        try:
            return type(default)(value)
        except ValueError:
            raise ValidationError({field.name: _("Choose one of the readings offered.")}) from None
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError({field.name: _("Enter a whole number of minutes.")})
        if not 1 <= value <= MAX_TURN_MINUTES:
            raise ValidationError(
                {field.name: _("A turn lasts 1 to %(n)s minutes.") % {"n": MAX_TURN_MINUTES}}
            )
        return value
    return value


def tcs_options_update(*, campaign: Campaign, actor, values: Mapping[str, Any]) -> TcsOptions:
    """Change the operation's readings; only the organiser or a game master may. Each
    reading changed is logged publicly with its rule and the old and new values; unknown
    names or bad values change nothing."""
    fields = {f.name: f for f in dataclasses.fields(TcsOptions)}
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise ValidationError(_("Unknown readings: %(n)s.") % {"n": ", ".join(unknown)})
    errors: dict[str, list[str]] = {}
    clean: dict[str, Any] = {}
    for name, value in values.items():
        try:
            clean[name] = _coerce(fields[name], value)
        except ValidationError as exc:
            errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)

    with transaction.atomic():
        campaign = locked(campaign.pk)
        if not viewer_context(actor, campaign).can_manage:
            raise ValidationError(
                _("Only the operation's organiser or a game master may change its readings.")
            )
        before = options_for(campaign)
        after = dataclasses.replace(before, **clean)
        changed = [n for n in fields if getattr(before, n) != getattr(after, n)]
        if not changed:
            return before
        campaign.options = {**campaign.options, "tcs_options": after.to_dict()}
        campaign.save(update_fields=["options", "updated_at"])
        for name in changed:
            old, new = to_data(getattr(before, name)), to_data(getattr(after, name))
            append_log(
                campaign,
                kind=LogEntry.Kind.SETUP,
                summary=msg(
                    "Rule reading %(name)s changed from %(old)s to %(new)s.",
                    name=_reading_name(name),
                    old=_reading_value(old),
                    new=_reading_value(new),
                ),
                rule=OPTION_RULES.get(name, ""),
                actor=actor,
                data={"tcs": {"options": name}, "before": old, "after": new},
            )
    return after

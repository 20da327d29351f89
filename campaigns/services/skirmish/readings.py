"""A battle's rule readings: either player sets them; every change is in the log."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.readings import battle_readings, readings_for
from campaigns.services.skirmish.common import log_event, playing
from rules.i18n import Msg, msg


def skirmish_readings_set(*, battle: SkirmishBattle, actor, readings: dict) -> SkirmishBattle:
    """Change some of the battle's readings (the others keep theirs). Unknown readings and
    values are refused, naming the reading; nothing changes."""
    known = {r.key: r for r in readings_for(battle.system)}
    if not isinstance(readings, dict) or not readings:
        raise ValidationError({"readings": [_("Name at least one reading and its value.")]})
    errors, cleaned = {}, {}
    for key, value in readings.items():
        if key not in known:
            errors[str(key)[:60]] = [_("This game has no such reading.")]
            continue
        try:
            cleaned[key] = known[key].clean(value)
        except ValueError:
            errors[key] = [_("Not a value this reading takes.")]
    if errors:
        raise ValidationError(errors)
    with playing(battle, actor, battle.system) as (battle, _side):
        before = battle_readings(battle.system, battle.readings)
        changed = {k: v for k, v in cleaned.items() if before[k] != v}
        if not changed:
            raise ValidationError({"readings": [_("Those are already the battle's readings.")]})
        battle.readings = {**(battle.readings or {}), **changed}
        battle.save(update_fields=["readings"])
        for key, value in changed.items():
            reading = known[key]
            log_event(
                battle,
                kind=SkirmishEvent.Kind.RULE,
                summary=msg(
                    "Reading changed: %(reading)s → %(value)s",
                    reading=msg(reading.label),
                    value=_value_words(reading, value),
                ),
                actor=actor,
                rule=reading.rule,
                data={"reading": key, "value": value},
            )
    return battle


def _value_words(reading, value) -> Msg:
    if reading.choices is None:
        return msg("on") if value else msg("off")
    return msg(dict(reading.choices)[value])

"""Undo the last action of a battle being played: its state goes back to what it was before,
and the log keeps both the action and a correction line saying it was undone."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent, SkirmishSide, SkirmishUndo
from campaigns.permissions import is_organiser
from campaigns.services.skirmish.common import (
    BATTLE_STATE,
    SIDE_STATE,
    check_playing,
    lock_battle,
    log_event,
)
from rules.i18n import Msg, msg

UNDO_RULE = "undo"


def skirmish_undo(*, battle: SkirmishBattle, actor) -> SkirmishEvent:
    """Put the battle back as it was before its last action. Only the player who acted (or an
    organiser) may; it works once — a second request finds nothing left to undo."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        check_playing(battle)
        undo = SkirmishUndo.objects.filter(battle=battle).select_related("event").first()
        if undo is None:
            raise ValidationError(
                {"__all__": [_("Nothing to undo: the last action was already undone.")]}
            )
        if undo.actor_id != getattr(actor, "pk", None) and not is_organiser(actor, battle):
            raise ValidationError(
                {"__all__": [_("Only the player who made the last action may undo it.")]}
            )
        for f in BATTLE_STATE:
            setattr(battle, f, undo.before["battle"][f])
        battle.save(update_fields=list(BATTLE_STATE))
        sides = list(SkirmishSide.objects.filter(battle=battle))
        for side in sides:  # roles swapped back: free them first (one role per battle)
            side.role = f"-{side.index}"
            side.save(update_fields=["role"])
        for side in sides:
            saved = undo.before["sides"][str(side.index)]
            for f in SIDE_STATE:
                setattr(side, f, saved[f])
            side.save(update_fields=list(SIDE_STATE))
        event = undo.event
        undo.delete()
        if event is not None and event.number is not None:
            summary = msg(
                "Undid the last action (#%(n)s): %(what)s", n=event.number, what=_what(event)
            )
        else:  # a private entry: say whose, never what
            summary = msg("%(player)s undid their last action", player=str(actor))
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION,
            summary=summary,
            actor=actor,
            rule=UNDO_RULE,
            data={"undid": event.number if event is not None else None},
        )


def _what(event: SkirmishEvent) -> Msg | str:
    raw = (event.data or {}).get("msg")
    return Msg.from_dict(raw) if raw else event.summary

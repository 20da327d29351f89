"""Ways out of a sheet that never took effect: its side deletes it (any sheet during set-up,
an unimplemented one in play [6.13.b]), or implements at once a set-up sheet left in Command
Prep (as an old 'Drawn before play' box allowed), as every sheet in force at the start must
be [27.1.f]."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry
from campaigns.models.tcs import OpSheetRecord, private_storage
from campaigns.services._base import append_log
from campaigns.services.tcs.common import log_explanation, side_write
from campaigns.services.tcs.engine import load_side
from campaigns.services.tcs.opsheets import own_sheet
from campaigns.tcs.state import current_turn
from rules.explain import Explanation
from rules.i18n import msg
from rules.tcs import labels
from rules.tcs.opsheet import SheetStatus
from rules.tcs.transitions import implement


def sheet_implementable(campaign: Campaign, sheet: OpSheetRecord) -> bool:
    """During set-up, a sheet still in Command Prep: play cannot start until it implements."""
    return campaign.status == Campaign.Status.SETUP and sheet.status in (
        "unimplemented",
        "prelims_active",
    )


def tcs_sheet_implement_setup(*, sheet: OpSheetRecord, actor) -> OpSheetRecord:
    """Implement a set-up sheet left in Command Prep [27.1.f]; logged privately to its side."""
    with side_write(sheet.side_id, sheet.campaign_id, actor) as campaign:
        record = own_sheet(sheet)
        if not sheet_implementable(campaign, record):
            raise ValidationError(
                _(
                    "Only during set-up is a sheet still in Command Prep implemented at once "
                    "[27.1.f]."
                )
            )
        engine = load_side(campaign, record.side)
        state = engine.sheets[record.pk]
        explanation = Explanation()
        implement(state, engine.sheet_list, explanation)
        state.pregame = True
        turn = current_turn(campaign).number
        engine.save_sheets(turn)
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=msg(
                "%(side)s implemented op sheet %(c)s before play [27.1.f].",
                side=record.side.name,
                c=record.code,
            ),
            rule="27.1.f",
            actor=actor,
            private_to=None if record.revealed_at else record.side,
            data={"tcs": {"sheet": record.pk}, "turn": turn},
        )
        log_explanation(
            campaign,
            explanation,
            actor=actor,
            private_to=None if record.revealed_at else record.side,
            tag={"sheet": record.pk},
            turn=turn,
        )
    record.refresh_from_db()
    return record


def sheet_deletable(campaign: Campaign, sheet: OpSheetRecord) -> bool:
    """During set-up any sheet (nothing has happened under it yet); in play a sheet still
    unimplemented whose units never left another sheet for it: dropping it is striking all
    its units [6.13.b]. Implemented, prelims-active and ended sheets are the operation's
    history: they end by success or failure [6.11]."""
    if campaign.status == Campaign.Status.SETUP:
        return True
    state = sheet.state
    return (
        campaign.status == Campaign.Status.ACTIVE
        and state.get("status") == SheetStatus.UNIMPLEMENTED.value
        and not state.get("additions")
    )


def tcs_sheet_delete(*, sheet: OpSheetRecord, actor) -> str:
    """Delete a sheet drawn by mistake (see `sheet_deletable`). Its log entries stay, private
    to the side as before; the deletion itself is logged as a correction. Returns the code."""
    with side_write(sheet.side_id, sheet.campaign_id, actor) as campaign:
        sheet = own_sheet(sheet)
        if not sheet_deletable(campaign, sheet):
            raise ValidationError(
                _(
                    "Only a sheet that never took effect may be deleted: any sheet during "
                    "set-up, or in play one still unimplemented (its units are struck "
                    "[6.13.b]). Declare an implemented sheet succeeded or failed instead [6.11]."
                )
            )
        code, pk, side = sheet.code, sheet.pk, sheet.side
        turn = current_turn(campaign)
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=msg(
                "%(side)s deleted op sheet %(c)s (%(status)s).",
                side=side.name,
                c=code,
                status=labels.sheet_state(sheet.status),
            ),
            rule="6.13.b" if campaign.status != Campaign.Status.SETUP else "27.1.f",
            actor=actor,
            private_to=None if sheet.revealed_at else side,
            data={"tcs": {"sheet": pk, "deleted": True}, "turn": turn.number},
        )
        if sheet.graphic:
            name = sheet.graphic.name
            transaction.on_commit(lambda: private_storage().delete(name))
        sheet.delete()
    return code

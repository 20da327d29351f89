"""What a sheet does to its units: Dug In gained on implementing a Prepared Defense and lost
when a unit leaves that mission [6.16.a, 6.16.c-d, 21.1], and reinforcements entering only on
an implemented sheet or executing preliminary instructions [6.13.e, 27.2]."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import OpSheetRecord, TcsUnit
from campaigns.services.tcs.common import (
    log_explanation,
    log_private,
    rule_error,
    side_write,
)
from campaigns.services.tcs.engine import SideEngine, load_side
from campaigns.tcs.state import current_turn
from rules.errors import RuleError
from rules.tcs.opsheet import SheetStatus
from rules.tcs.prepared_defense import dug_in_losses, prepared_defense
from rules.tcs.transitions import may_enter

# sheet state key: written for reinforcements [6.13.e, 27.2.d-e]
REINFORCEMENT = "reinforcement"


def log_on_sheet(campaign, side, actor, explanation, record: OpSheetRecord, turn: int) -> None:
    log_explanation(
        campaign, explanation, actor=actor, private_to=side, tag={"sheet": record.pk}, turn=turn
    )


def is_reinforcement(record: OpSheetRecord) -> bool:
    return bool(record.state.get(REINFORCEMENT))


def tcs_reinforcements_enter(*, side: Side, actor, units: Iterable[str]) -> list[str]:
    """Reinforcements placed at their map edge at the start of the side's Action Phase
    [27.2.a]: each must be on an implemented sheet or executing preliminary instructions
    [6.13.e, 27.2.b]; otherwise the whole entry is refused, naming the units. Logged."""
    units = list(dict.fromkeys(str(u) for u in units))
    if not units:
        raise ValidationError({"units": _("Choose the arriving units.")})
    with side_write(side, side.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Start the operation first."))
        side = Side.objects.get(pk=side.pk)
        engine = load_side(campaign, side)
        unknown = [u for u in units if u not in engine.units or engine.units[u].eliminated]
        if unknown:
            raise ValidationError(
                {"units": _("Not a unit of this side in play: %(u)s.") % {"u": ", ".join(unknown)}}
            )
        try:
            exp = may_enter(units, engine.sheet_list)
        except RuleError as exc:
            raise rule_error(exc, "units") from None
        turn = current_turn(campaign)
        log_private(
            campaign,
            side,
            actor,
            _("Reinforcements enter the map: %(u)s.") % {"u": ", ".join(units)},
            rule="27.2.a",
            kind=LogEntry.Kind.EVENT,
            tag={"units": units},
            turn=turn.number,
        )
        log_explanation(
            campaign, exp, actor=actor, private_to=side, tag={"units": units}, turn=turn.number
        )
    return units


# --- Prepared Defense [6.16, 21.1] ----------------------------------------------------------


def undig(engine: SideEngine, actor, turn: int) -> list[str]:
    """After a sheet changed: every dug-in unit of the side that is now unassigned, on
    another mission, executing preliminary instructions or in Move mode loses Dug In, each
    loss logged privately [6.16.c-d]. Returns the units."""
    dug = [u for u in engine.units.values() if u.dug_in and not u.eliminated]
    if not dug:
        return []
    lost, exp = dug_in_losses(
        [u.code for u in dug], engine.sheet_list, {u.code: u.mode for u in dug}
    )
    if lost:
        TcsUnit.objects.filter(side=engine.side, code__in=list(lost)).update(dug_in=False)
        for code in lost:
            engine.units[code].dug_in = False
        log_explanation(
            engine.campaign,
            exp,
            actor=actor,
            private_to=engine.side,
            tag={"units": sorted(lost)},
            turn=turn,
        )
    return list(lost)


def tcs_sheet_prepared_defense(
    *, sheet: OpSheetRecord, actor, fire_mode: Iterable[str], addition_id: str = ""
) -> dict[str, Any]:
    """Record what implementing a Prepared Defense sheet did: its units in Fire mode at that
    instant dig in, those in Move mode lose the chance [6.16.a]; one minefield per two
    infantry platoons may be placed now [21.1]. `addition_id`: units added to the sheet that
    have just implemented [6.13.c]. Once per implementation."""
    fire_mode = set(fire_mode)
    with side_write(sheet.side_id, sheet.campaign_id, actor) as campaign:
        record = OpSheetRecord.objects.select_related("side").get(pk=sheet.pk)
        engine = load_side(campaign, record.side)
        record = engine.record(record.pk)
        state = engine.sheets[record.pk]
        if any(p.get("addition", "") == addition_id for p in record.prepared_defense):
            raise ValidationError(_("What this implementation did is already recorded [6.16.a]."))
        units = None
        if addition_id:
            addition = next((a for a in state.additions if a.id == addition_id), None)
            if addition is None or addition.status is not SheetStatus.IMPLEMENTED:
                raise ValidationError(
                    {"addition": _("Choose units added to the sheet that have implemented.")}
                )
            units = list(addition.units)
        unknown = fire_mode - set(state.active_units)
        if unknown:
            raise ValidationError(
                {"fire_mode": _("Not on this sheet: %(u)s.") % {"u": ", ".join(sorted(unknown))}}
            )
        try:
            result = prepared_defense(state, fire_mode, engine.oob, units)
        except RuleError as exc:
            raise rule_error(exc) from None
        turn = current_turn(campaign)
        done = {
            "addition": addition_id,
            "turn": turn.number,
            "dug_in": list(result.dug_in),
            "not_dug_in": list(result.not_dug_in),
            "minefields": result.minefields,
        }
        record.prepared_defense = [*record.prepared_defense, done]
        record.save(update_fields=["prepared_defense", "updated_at"])
        TcsUnit.objects.filter(side=record.side, code__in=result.dug_in).update(dug_in=True)
        log_on_sheet(campaign, record.side, actor, result.explanation, record, turn.number)
        if result.minefields:
            log_private(
                campaign,
                record.side,
                actor,
                _(
                    "%(n)s minefield(s) may be placed now, each within 4 hexes of the two "
                    "platoons that give it and at least 5 hexes from the nearest enemy unit."
                )
                % {"n": result.minefields},
                rule="21.1",
                tag={"sheet": record.pk},
                turn=turn.number,
            )
    return done

"""A unit's own state in the turn: its mode [4.1] (Move mode ends Dug In [6.16.c]), its
printed morale [17.2], and its morale marker corrected by hand with a reason [17.0]."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import LogEntry
from campaigns.models.tcs import Mode, MoraleState, TcsUnit
from campaigns.services._base import append_log
from campaigns.services.tcs.common import log_private, side_write
from rules.i18n import msg

MODE_WORDS = {Mode.FIRE: msg("Fire mode"), Mode.MOVE: msg("Move mode")}
STATE_WORDS = {
    MoraleState.NORMAL: msg("Good order"),
    MoraleState.SUPPRESSED: msg("Suppressed (17.3)"),
    MoraleState.PARALYZED: msg("Paralyzed (17.5)"),
}


def tcs_unit_state(
    *,
    unit: TcsUnit,
    actor,
    mode: str | None = None,
    morale: int | None = None,
    morale_state: str | None = None,
    reason: str = "",
) -> TcsUnit:
    """A unit's mode [4.1] (Move mode ends Dug In [6.16.c]), printed morale, or its marker
    corrected with the reason (logged as a correction)."""
    with side_write(unit.side_id, unit.campaign_id, actor) as campaign:
        unit = TcsUnit.objects.select_related("side").get(pk=unit.pk)
        if unit.eliminated:
            raise ValidationError({"unit": _("%(u)s is already eliminated.") % {"u": unit.code}})
        changed = []
        if mode is not None and mode != unit.mode:
            if mode not in Mode.values:
                raise ValidationError({"mode": _("Choose Fire or Move mode.")})
            unit.mode = mode
            changed.append("mode")
            text = msg("%(u)s changes to %(mode)s", u=unit.code, mode=MODE_WORDS[Mode(mode)])
            if mode == Mode.MOVE and unit.dug_in:
                unit.dug_in = False
                changed.append("dug_in")
                text = msg("%(text)s and is no longer Dug In", text=text)
            log_private(campaign, unit.side, actor, text, rule="6.16.c", tag={"unit": unit.pk})
        if morale is not None and morale != unit.morale:
            unit.morale = morale
            changed.append("morale")
        if morale_state is not None and morale_state != unit.morale_state:
            if morale_state not in MoraleState.values:
                raise ValidationError({"morale_state": _("Choose a morale state.")})
            if not reason.strip():
                raise ValidationError({"reason": _("Say why the marker is corrected.")})
            unit.morale_state = morale_state
            changed.append("morale_state")
            append_log(
                campaign,
                kind=LogEntry.Kind.CORRECTION,
                summary=msg(
                    "%(u)s: marker corrected to %(state)s (%(why)s)",
                    u=unit.code,
                    state=STATE_WORDS[MoraleState(morale_state)],
                    why=reason.strip(),
                ),
                rule="17.0",
                actor=actor,
                private_to=unit.side,
                data={"tcs": {"unit": unit.pk}},
            )
        if changed:
            unit.save(update_fields=changed)
    return unit

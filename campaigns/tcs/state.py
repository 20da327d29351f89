"""What a TCS operation's stored state says, read without a query: the current turn, the
operation's rule readings, whether morale recovery is due, and what a side's Command Phase
still needs. Services and selectors both read these, so they live below both layers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign
from campaigns.models.tcs import TcsFormation, TcsUnit
from rules.explain import Explanation
from rules.tcs.clock import Turn, morale_recovery_due
from rules.tcs.opsheet import OpSheet
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions
from rules.tcs.reserves import forced_commitment

END_AGREED = "end_agreed"  # Campaign.state key: ids of the sides whose players agreed to end


def current_turn(campaign: Campaign) -> Turn:
    data = campaign.state.get("turn") or {"number": 0, "minutes": 480, "light": "day"}
    return Turn.from_dict(data)


def options_for(campaign: Campaign) -> TcsOptions:
    data = campaign.options.get("tcs_options")
    return TcsOptions.from_dict(data) if data else DEFAULT_OPTIONS


def recovery_due(campaign: Campaign) -> bool:
    return morale_recovery_due(current_turn(campaign), Explanation(), even_hours_at_night=True)


def blockers_for(
    steps: Mapping[str, Any],
    sheets: Iterable[OpSheet],
    formations: Iterable[TcsFormation],
    rating: int,
    campaign: Campaign,
) -> list[str]:
    """The steps a side's Command Phase still needs, from its sheets and formations (no
    query). Each one can be done in the phase: a forced commitment of reserves [6.14.b] is
    asked only of a side able to commit them (rated 6 or better [6.14.d])."""
    sheets = list(sheets)
    blockers = []
    in_prep = any(s.status.in_prep or s.pending_additions for s in sheets)
    if in_prep and not steps.get("ticked"):
        blockers.append(_("add the weighted turns (step 2)"))
    if (
        recovery_due(campaign)
        and not steps.get("recovery")
        and any(
            f.morale != TcsFormation.Morale.NONE and f.state.get("value", 0) > 0 for f in formations
        )
    ):
        blockers.append(_("roll morale recovery (step 7)"))
    if rating < 7:
        for state in sheets:
            forced = forced_commitment(state)
            if forced is not None:
                blockers.append(say(forced.prompt) + " [6.14.b]")
    return blockers


def restore_message(unit: TcsUnit) -> str:
    text = _("Steps given back; the correction is in the log.")
    back, not_back = unit.restored["back"], unit.restored["not_back"]
    if back:
        text += " " + _("%(u)s is back on %(s)s.") % {"u": unit.code, "s": ", ".join(back)}
    if not_back:
        text += " " + _(
            "It cannot return to %(s)s (ended, or 6.7.c): the log says why; add it to a sheet "
            "in the Command Phase if needed."
        ) % {"s": ", ".join(not_back)}
    morale = unit.restored.get("morale")
    if morale:
        text += " " + _("Battalion morale %(a)s → %(b)s [17.1.a].") % {
            "a": morale[0],
            "b": morale[1],
        }
    return text


def losses_message(outcome: dict) -> str:
    """What recording step losses did, for the page and the API alike."""
    text = _("Losses recorded.")
    if outcome.get("decision"):
        text += " " + _(
            "Equally near battalions: your opponent is asked to choose which one the loss "
            "counts for [17.1.c]."
        )
    if outcome.get("failed"):
        text += " " + _("The vehicle morale check failed: its implemented sheets end [17.8.c].")
    return text

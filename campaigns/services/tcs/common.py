"""Shared helpers of the TCS services: the clock and the readings in force, the campaign lock
with the permission checks, engine errors as form errors, dice, and the log.

Everything concerning one side's op sheets or morale is logged `private_to` that side [1.5].
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import TCS_TEMPLATE, OpSheetRecord
from campaigns.permissions import can_act_for_side, viewer_context
from campaigns.services._base import append_log, lock_campaign
from rules.dice import EnteredDice, ServerDice
from rules.errors import RollNeeded, RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.serial import to_data
from rules.tcs.labels import ENTRY_STATES, SHEET_STATES, SHEET_TYPES

MAX_RATING = 12
# engine states a step's value may carry, shown in words
WORDS: dict[str, Msg] = {**ENTRY_STATES, **SHEET_TYPES, **SHEET_STATES}


# --- clock and readings ---------------------------------------------------------------------


def parse_clock(text: str) -> int:
    """ "0820" or "08:20" → minutes from 0000."""
    digits = text.strip().replace(":", "")
    if len(digits) != 4 or not digits.isdecimal():
        raise ValidationError({"start_clock": _("Give the time as four digits, e.g. 0800.")})
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 23 or minutes > 59:
        raise ValidationError({"start_clock": _("Give a time between 0000 and 2359.")})
    return hours * 60 + minutes


# --- lock and permissions -------------------------------------------------------------------


def is_tcs(campaign: Campaign) -> None:
    if campaign.system != "tcs" or campaign.template != TCS_TEMPLATE:
        raise ValidationError(_("This is not a TCS operation."))


def locked(campaign_id: int) -> Campaign:
    """The operation, locked for the transaction; refused once it is over."""
    campaign = lock_campaign(campaign_id)
    is_tcs(campaign)
    if campaign.status in (Campaign.Status.FINISHED, Campaign.Status.ABANDONED):
        raise ValidationError(_("The operation is over: nothing more can be changed."))
    return campaign


def may_act(campaign: Campaign, actor, side_id: int) -> None:
    if not can_act_for_side(viewer_context(actor, campaign), side_id):
        raise ValidationError(_("Only this side's players or a neutral game master may do this."))


def may_manage(campaign: Campaign, actor) -> None:
    viewer = viewer_context(actor, campaign)
    if not (viewer.can_manage or viewer.side_ids):
        raise ValidationError(_("Only the operation's players or game master may do this."))


@contextmanager
def side_write(side_or_id: Side | int, campaign_id: int, actor) -> Iterator[Campaign]:
    """One transaction under the campaign lock, for a player (or GM) of the side."""
    side_id = side_or_id if isinstance(side_or_id, int) else side_or_id.pk
    with transaction.atomic():
        campaign = locked(campaign_id)
        may_act(campaign, actor, side_id)
        yield campaign


# --- errors, dice ---------------------------------------------------------------------------


def rule_error(exc: RuleError, field: str | None = None) -> ValidationError:
    """An engine refusal in the reader's words, with its rule."""
    text = f"[{exc.rule}] {say(exc.message)}" if exc.rule else say(exc.message)
    return ValidationError({field: text}) if field else ValidationError(text)


def clean_texts(texts: Mapping[str, Any] | None, fields: Iterable[str]) -> dict[str, str]:
    """What a player wrote on a sheet, stripped and checked against each field's length, so
    that no path (page, API) can store a text the database would refuse."""
    clean: dict[str, str] = {}
    errors: dict[str, str] = {}
    for name, value in (texts or {}).items():
        if name not in fields:
            continue
        if value is not None and not isinstance(value, str):
            errors[name] = _("Write text here.")
            continue
        text = (value or "").strip()
        limit = OpSheetRecord._meta.get_field(name).max_length
        if limit and len(text) > limit:
            errors[name] = _("At most %(n)s characters.") % {"n": limit}
            continue
        clean[name] = text
    if errors:
        raise ValidationError(errors)
    return clean


def check_code(value: str, field: str) -> str:
    value = value.strip()
    if not value or len(value) > 40 or any(c.isspace() for c in value):
        raise ValidationError({field: _("Give an id of up to 40 characters without spaces.")})
    return value


def dice_for(rolls: list[int] | None):
    """Server dice when no values are given, else the values rolled at the table."""
    return ServerDice() if rolls is None else EnteredDice(rolls)


def roll_needed(exc: RollNeeded, field: str) -> ValidationError:
    return ValidationError(
        {
            field: _("Enter one more %(kind)s for %(purpose)s, or let the site roll.")
            % {"kind": exc.kind, "purpose": say(exc.purpose)}
        }
    )


# --- the log --------------------------------------------------------------------------------


def shown_value(value: Any) -> str | Msg:
    """A step's value as a reader sees it: the engine's states in words."""
    if isinstance(value, Msg):
        return value
    value = to_data(value)
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, bool):
        return msg("yes") if value else msg("no")
    if isinstance(value, str) and value in WORDS:
        return WORDS[value]
    return str(value)


def log_explanation(
    campaign: Campaign,
    explanation: Explanation | Iterable,
    *,
    actor,
    private_to: Side | None,
    tag: Mapping[str, Any],
    turn: int | None = None,
) -> None:
    """One log entry per explanation step, with its rule id; rolls are ROLL entries."""
    for step in explanation:
        text: str | Msg = step.text
        data: dict[str, Any] = {"tcs": dict(tag)}
        if turn is not None:
            data["turn"] = turn
        if step.value is not None:
            data["value"] = to_data(step.value)
            shown = shown_value(step.value)
            if not str(text).endswith(str(shown)):
                text = msg("%(text)s → %(value)s", text=text, value=shown)
        kind = LogEntry.Kind.RULE
        if step.roll is not None:
            data["roll"] = step.roll.as_dict()
            kind = LogEntry.Kind.ROLL
            source = msg("server") if step.roll.source == "server" else msg("entered")
            text = msg(
                "%(text)s (%(kind)s, %(source)s)", text=text, kind=step.roll.kind, source=source
            )
        append_log(
            campaign,
            kind=kind,
            summary=text,
            rule=step.rule,
            actor=actor,
            data=data,
            private_to=private_to,
        )


def log_private(
    campaign: Campaign,
    side: Side,
    actor,
    summary: str | Msg,
    *,
    rule: str = "",
    kind: str = LogEntry.Kind.RULE,
    tag: Mapping[str, Any],
    **data: Any,
) -> None:
    """One entry private to `side`, tagged so that revealing the sheet publishes it."""
    append_log(
        campaign,
        kind=kind,
        summary=summary,
        rule=rule,
        actor=actor,
        private_to=side,
        data={"tcs": dict(tag), **data},
    )


def publish(campaign: Campaign, **tag) -> int:
    """Make the private entries tagged with `tag` public (a revealed sheet)."""
    entries = LogEntry.objects.filter(campaign=campaign, private_to__isnull=False)
    for key, value in tag.items():
        entries = entries.filter(**{f"data__tcs__{key}": value})
    return entries.update(private_to=None)

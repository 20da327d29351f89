"""Roster writes: create, builder edits, settings, house rules, corrections, archiving.

Each is keyword-only, runs in one transaction with the roster row locked
(`select_for_update`), and appends a `RosterChange` with the state before and after. Bad
input raises `ValidationError` naming the field and changes nothing.
"""

from __future__ import annotations

import copy
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, Roster, RosterChange, RosterSystem, bounds
from campaigns.rosters.engine import (
    ARMY_KEY,
    M1936,
    PARABELLUM,
    BuilderError,
    jsonable,
    m36_army_readings,
    m36_edit,
    m36_house_rules,
    m36_new,
    pb_edit,
    pb_house_rules,
    pb_new,
)
from campaigns.rosters.words import house_rules_summary
from campaigns.services._base import lock_in_order
from rules.i18n import Msg, msg
from rules.m1936.data import RULE as M36_ARMY_RULE

NOTHING_CHANGED = gettext_lazy("Nothing changed.")


def _invalid(exc: BuilderError) -> ValidationError:
    return ValidationError({exc.field: [exc.message]})


def lock_roster(roster_id: int) -> Roster:
    """Lock the roster row for the rest of the transaction (call inside `atomic`)."""
    return Roster.objects.select_for_update().get(pk=roster_id)


def lock_rosters(roster_ids) -> dict[int, Roster]:
    """Lock several rosters at once, by id ascending (the lock order in `_base`)."""
    return {r.pk: r for r in lock_in_order(Roster, roster_ids)}


def record_change(
    roster: Roster,
    *,
    kind: str,
    summary: str | Msg,
    actor=None,
    before: dict | None = None,
    after: dict | None = None,
    rule: str = "",
    explanation: list | None = None,
    battle=None,
    reverts: RosterChange | None = None,
) -> RosterChange:
    """Append one history row; the caller holds the roster lock.

    A `summary` given as a message (`rules.i18n.msg`) is kept in `after["msg"]` and drawn in
    each reader's language (`change_summary`); the `summary` column keeps the English text."""
    if isinstance(summary, Msg):
        after = {**(after or {}), "msg": summary.as_dict()}
    last = RosterChange.objects.filter(roster=roster).aggregate(m=Max("seq"))["m"] or 0
    return RosterChange.objects.create(
        roster=roster,
        seq=last + 1,
        kind=kind,
        actor=actor if actor is not None and actor.is_authenticated else None,
        summary=str(summary)[:300],
        rule=rule[:60],
        before=before or {},
        after=after or {},
        explanation=jsonable(explanation or []),
        battle=battle,
        reverts=reverts,
    )


def change_message(change: RosterChange) -> Msg | str:
    """A history row's summary as a message (rows written before messages keep their text)."""
    stored = (change.after or {}).get("msg")
    return Msg.from_dict(stored) if stored else change.summary


def state_after(change: RosterChange) -> dict[str, Any]:
    """The roster state a history row left (its `after` without the summary's message)."""
    return {k: v for k, v in (change.after or {}).items() if k != "msg"}


def state_of(roster: Roster) -> dict[str, Any]:
    """Everything a change may touch, for the before/after of a history row."""
    return {
        "data": copy.deepcopy(roster.data),
        "house_rules": copy.deepcopy(roster.house_rules),
        "condition": copy.deepcopy(roster.condition),
    }


def _check_campaign(owner, system: str, campaign: Campaign | None) -> None:
    if campaign is None:
        return
    if campaign.system != system:
        raise ValidationError({"campaign": [_("That campaign plays another game system.")]})
    plays = campaign.sides.filter(seats__user=owner).exists()
    if not plays and campaign.created_by_id != owner.pk:
        raise ValidationError({"campaign": [_("You can only add rosters to campaigns you play.")]})


def roster_create(
    *,
    owner,
    system: str,
    name: str,
    campaign: Campaign | None = None,
    squad_type: str = "",
    faction: str = "",
    role: str = "",
    quality: str = "",
    size: str = "",
    defender_points: int | None = None,
) -> Roster:
    """A new roster: the basic squad of a Parabellum squad type, or an empty 1936 list."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": [_("Give the roster a name.")]})
    if system not in RosterSystem.values:
        raise ValidationError({"system": [_("Choose Parabellum Soldier or 1936.")]})
    _check_campaign(owner, system, campaign)
    try:
        if system == PARABELLUM:
            data = pb_new(squad_type, name)
        else:
            if bool(size) == (defender_points is not None):
                raise BuilderError(
                    "size", _("Choose a game size or an agreed defender budget, not both.")
                )
            data = m36_new(faction, role, quality, size or None, defender_points)
    except BuilderError as exc:
        raise _invalid(exc) from None
    with transaction.atomic():
        roster = Roster.objects.create(
            owner=owner, system=system, name=name, campaign=campaign, data=data
        )
        record_change(
            roster,
            kind=RosterChange.Kind.CREATED,
            summary=msg("Roster created"),
            actor=owner,
            after=state_of(roster),
        )
    return roster


def roster_edit(*, roster: Roster, actor, edit: dict[str, Any]) -> Roster:
    """One builder edit (a Parabellum soldier field, or a 1936 list action), validated by
    the engine; the roster may stay invalid while being built (violations are shown).

    An edit that changes nothing (the value it already has, a repeated request) is refused
    with "Nothing changed." and leaves no history row."""
    with transaction.atomic():
        locked = lock_roster(roster.pk)
        _editable(locked, actor)
        before = state_of(locked)
        try:
            if locked.system == PARABELLUM:
                data, summary = pb_edit(
                    locked.data,
                    str(edit.get("soldier_id") or ""),
                    str(edit.get("field") or ""),
                    edit.get("value"),
                )
            else:
                data, summary = m36_edit(
                    locked.data, str(edit.get("op") or ""), edit, locked.house_rules
                )
        except BuilderError as exc:
            raise _invalid(exc) from None
        if data == locked.data:
            raise ValidationError(NOTHING_CHANGED, code="unchanged")
        locked.data = data
        locked.save(update_fields=["data", "updated_at"])
        record_change(
            locked,
            kind=RosterChange.Kind.EDIT,
            summary=summary,
            actor=actor,
            before=before,
            after=state_of(locked),
        )
    return locked


def _editable(roster: Roster, actor) -> None:
    if roster.owner_id != getattr(actor, "pk", None):
        raise ValidationError({"roster": [_("Only the roster's owner may change it.")]})
    if roster.archived_at is not None:
        raise ValidationError(
            {
                "roster": ValidationError(
                    _("This roster is archived; restore it first."), code="conflict"
                )
            }
        )


def roster_update(*, roster: Roster, actor, name: str, campaign: Campaign | None) -> Roster:
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": [_("Give the roster a name.")]})
    with transaction.atomic():
        locked = lock_roster(roster.pk)
        _editable(locked, actor)
        _check_campaign(locked.owner, locked.system, campaign)
        old = (locked.name, locked.campaign_id)
        if old == (name, campaign.pk if campaign else None):
            return locked
        locked.name = name
        locked.campaign = campaign
        if locked.system == PARABELLUM:
            locked.data = {**locked.data, "name": name}
        locked.save(update_fields=["name", "campaign", "data", "updated_at"])
        record_change(
            locked,
            kind=RosterChange.Kind.SETTINGS,
            summary=msg("Name “%(n)s”, campaign: %(c)s", n=name, c=campaign.name)
            if campaign
            else msg("Name “%(n)s”, no campaign", n=name),
            actor=actor,
        )
    return locked


def roster_house_rules_set(*, roster: Roster, actor, options: dict[str, Any]) -> Roster:
    """Choose the campaign house rules (all off by default; none is in the rulebook) and, for
    a 1936 roster, its army-list readings (`options["army"]`, stored as those that differ
    from the defaults). Every field not given goes back to its default."""
    with transaction.atomic():
        locked = lock_roster(roster.pk)
        _editable(locked, actor)
        try:
            if locked.system == PARABELLUM:
                clean = pb_house_rules(options).to_dict()
            else:
                clean = m36_house_rules(options).to_dict()
                clean.pop("label", None)
                readings = m36_army_readings(options.get(ARMY_KEY))
                if readings:
                    clean[ARMY_KEY] = readings
        except BuilderError as exc:
            raise _invalid(exc) from None
        for key, limits in bounds.HOUSE_RULES.items():
            value = clean.get(key)
            if value is not None and not bounds.in_range(value, limits):
                raise ValidationError({key: bounds.range_message(limits)})
        bounds.check_values(Roster, {"house_rules": clean})
        if clean == locked.house_rules:
            return locked
        before = state_of(locked)
        locked.house_rules = clean
        locked.save(update_fields=["house_rules", "updated_at"])
        on = [k for k, v in clean.items() if v is True]
        rule, army = "HR", None
        if locked.system == M1936:
            changed = clean.get(ARMY_KEY) != (before["house_rules"] or {}).get(ARMY_KEY)
            rule = M36_ARMY_RULE if changed else "HOUSE-M36-carry-over"
            army = clean.get(ARMY_KEY) or ({} if changed else None)
        record_change(
            locked,
            kind=RosterChange.Kind.HOUSE_RULES,
            summary=house_rules_summary(on, army),
            rule=rule,
            actor=actor,
            before=before,
            after=state_of(locked),
        )
    return locked


def roster_revert(*, change: RosterChange, actor) -> Roster:
    """Undo one change: the roster goes back to the state before it, as a new, logged
    correction (the history keeps both)."""
    with transaction.atomic():
        locked = lock_roster(change.roster_id)
        _editable(locked, actor)
        undo_change(locked, change, actor=actor)
    return locked


def undo_change(locked: Roster, change: RosterChange, *, actor, why: str = "") -> RosterChange:
    """The roster history's undo, for a caller that holds the roster lock and has checked who
    may do it: the roster goes back to the state before `change`; a correction row keeps
    both states."""
    if not change.before or change.kind == RosterChange.Kind.CREATED:
        raise ValidationError({"change": [_("This change has no earlier state to go back to.")]})
    before = state_of(locked)
    locked.data = change.before.get("data", locked.data)
    locked.house_rules = change.before.get("house_rules", locked.house_rules)
    locked.condition = change.before.get("condition", locked.condition)
    locked.save(update_fields=["data", "house_rules", "condition", "updated_at"])
    undone = change_message(change)
    summary = (
        msg("Undid change #%(n)s (%(s)s): %(why)s", n=change.seq, s=undone, why=why)
        if why
        else msg("Undid change #%(n)s (%(s)s)", n=change.seq, s=undone)
    )
    return record_change(
        locked,
        kind=RosterChange.Kind.CORRECTION,
        summary=summary,
        actor=actor,
        before=before,
        after=state_of(locked),
        battle=change.battle,
        reverts=change,
    )


def roster_archive(*, roster: Roster, actor, archived: bool = True) -> Roster:
    """Archive (or restore) a roster; nothing is deleted, the history stays."""
    with transaction.atomic():
        locked = lock_roster(roster.pk)
        if locked.owner_id != getattr(actor, "pk", None):
            raise ValidationError({"roster": [_("Only the roster's owner may change it.")]})
        if (locked.archived_at is not None) == archived:
            return locked
        locked.archived_at = timezone.now() if archived else None
        locked.save(update_fields=["archived_at", "updated_at"])
        record_change(
            locked,
            kind=RosterChange.Kind.ARCHIVED if archived else RosterChange.Kind.CORRECTION,
            summary=msg("Roster archived") if archived else msg("Roster restored from the archive"),
            actor=actor,
        )
    return locked


__all__ = [
    "M1936",
    "change_message",
    "lock_roster",
    "record_change",
    "roster_archive",
    "roster_create",
    "roster_edit",
    "roster_house_rules_set",
    "roster_revert",
    "roster_update",
    "state_after",
    "state_of",
    "undo_change",
]

"""Corrections of a finished battle's result: proposed by a player and agreed by the other,
or applied by an organiser; house-rule changes already applied are undone first."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Roster, RosterChange, SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.models.rosters import SkirmishCorrection
from campaigns.permissions import is_organiser
from campaigns.services.rosters import (
    lock_rosters,
    record_change,
    state_after,
    state_of,
    undo_change,
)
from campaigns.services.skirmish.common import battle_sides, lock_battle, log_event, result_msg
from rules.i18n import msg


def _result_text(sides: list[SkirmishSide], winner_index: int | None) -> str:
    if winner_index is None:
        return _("a draw")
    return _("%(p)s wins") % {"p": sides[winner_index].player}


def _withdraw(corrections) -> None:
    for c in corrections:
        c.status = SkirmishCorrection.Status.WITHDRAWN
        c.decided_at = timezone.now()
        c.save(update_fields=["status", "decided_at"])


def skirmish_result_correct(
    *, battle: SkirmishBattle, actor, winner_index: int | None, reason: str
) -> SkirmishCorrection:
    """Correct a finished battle's result. An organiser (a neutral game master of the
    battle's campaign, or staff) applies it at once. A player proposes it (replacing their
    own earlier proposal); when the other player has proposed the same result, this is their
    agreement and it is applied. Both results stay in the log with the reason."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": [_("Say why the result changes.")]})
    if winner_index not in (None, 0, 1):
        raise ValidationError({"winner": [_("Choose the winner or a draw.")]})
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status != SkirmishBattle.Status.FINISHED:
            raise ValidationError({"__all__": [_("Only a finished battle's result is corrected.")]})
        sides = battle_sides(battle)
        mine = next((s for s in sides if s.player_id == getattr(actor, "pk", None)), None)
        organiser = mine is None and is_organiser(actor, battle)
        if mine is None and not organiser:
            raise ValidationError(
                {"__all__": [_("Only the battle's players or an organiser correct its result.")]}
            )
        if winner_index == battle.winner_index:
            raise ValidationError({"winner": [_("That is already the result.")]})
        pending = list(
            SkirmishCorrection.objects.filter(
                battle=battle, status=SkirmishCorrection.Status.PROPOSED
            )
        )
        theirs = next(
            (c for c in pending if c.proposed_by_id != actor.pk and c.winner_index == winner_index),
            None,
        )
        if organiser or theirs is not None:
            _withdraw(c for c in pending if c is not theirs)
            corr = theirs or SkirmishCorrection(
                battle=battle,
                previous_winner_index=battle.winner_index,
                winner_index=winner_index,
                reason=reason[:300],
                proposed_by=actor,
            )
            corr.agreed_by = actor
            _apply_correction(battle, sides, corr, actor)
            return corr
        _withdraw(c for c in pending if c.proposed_by_id == actor.pk)
        corr = SkirmishCorrection.objects.create(
            battle=battle,
            previous_winner_index=battle.winner_index,
            winner_index=winner_index,
            reason=reason[:300],
            proposed_by=actor,
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION,
            summary=msg(
                "%(p)s proposes correcting the result from “%(a)s” to “%(b)s” (%(r)s); it applies when the other player agrees.",
                p=str(actor),
                a=str(_result_text(sides, battle.winner_index)),
                b=str(_result_text(sides, winner_index)),
                r=str(corr.reason),
            ),
            actor=actor,
            data={"proposal": corr.pk},
        )
        return corr


def skirmish_result_agree(*, battle: SkirmishBattle, actor, correction_id: int):
    """The other player agrees with a pending proposal: it is applied."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        corr = SkirmishCorrection.objects.filter(
            pk=correction_id, battle=battle, status=SkirmishCorrection.Status.PROPOSED
        ).first()
        if corr is None:
            raise ValidationError(
                {"__all__": [_("That proposal is no longer pending: reload the page.")]}
            )
        if corr.proposed_by_id == actor.pk:
            raise ValidationError(
                {"__all__": [_("The other player (or an organiser) must agree to your proposal.")]}
            )
        return skirmish_result_correct(
            battle=battle, actor=actor, winner_index=corr.winner_index, reason=corr.reason
        )


def _post_battle_changes(battle: SkirmishBattle, side: SkirmishSide) -> list[RosterChange]:
    """House-rule changes this battle made to the side's roster that were not undone yet."""
    if side.roster_id is None or side.applied_at is None:
        return []
    changes = list(
        RosterChange.objects.filter(
            roster_id=side.roster_id, battle=battle, kind=RosterChange.Kind.POST_BATTLE
        ).order_by("-seq")
    )
    undone = set(
        RosterChange.objects.filter(reverts__in=changes).values_list("reverts_id", flat=True)
    )
    return [c for c in changes if c.pk not in undone]


def _apply_correction(battle, sides, corr: SkirmishCorrection, actor) -> None:
    """Undo the house-rule changes already applied (through the roster history's undo), or
    refuse with the reason; then the new result, a log entry keeping both, and a history
    note on each roster. The caller holds the battle lock."""
    plan: list[tuple[SkirmishSide, Roster, list[RosterChange]]] = []
    problems: list[str] = []
    rosters = lock_rosters(s.roster_id for s in sides)  # all at once, by id (see `_base`)
    for s in sides:
        changes = _post_battle_changes(battle, s)
        if not changes:
            continue
        roster = rosters[s.roster_id]
        if roster.archived_at is not None:
            problems.append(
                _("“%(r)s” is archived: restore it so its house-rule changes can be undone.")
                % {"r": roster.name}
            )
            continue
        newest = changes[0]
        if state_of(roster) != {**state_of(roster), **state_after(newest)}:
            later = (
                RosterChange.objects.filter(roster=roster, seq__gt=newest.seq)
                .order_by("seq")
                .first()
            )
            problems.append(
                _(
                    "“%(r)s” changed after the house rules were applied (#%(n)s %(s)s): undoing "
                    "them would lose that change. Undo it in the roster's history first, or "
                    "correct the roster by hand."
                )
                % {
                    "r": roster.name,
                    "n": later.seq if later else "?",
                    "s": later.summary if later else "",
                }
            )
            continue
        plan.append((s, roster, changes))
    if problems:
        raise ValidationError({"__all__": problems})
    before, after = battle.winner_index, corr.winner_index
    why = msg("the result of %(b)s was corrected", b=str(battle))
    undone = []
    for s, roster, changes in plan:
        for change in changes:  # newest first
            undo_change(roster, change, actor=actor, why=why)
            undone.append({"roster": roster.name, "change": change.seq})
        s.applied_at = None
        s.save(update_fields=["applied_at"])
    for s in sides:
        if s.roster_id is None:
            continue
        roster = rosters[s.roster_id]
        record_change(
            roster,
            kind=RosterChange.Kind.CORRECTION,
            summary=msg(
                "Result of %(b)s corrected: now %(res)s (%(r)s)",
                b=str(battle),
                res=result_msg(after, s.index),
                r=str(corr.reason),
            ),
            actor=actor,
            battle=battle,
        )
    battle.winner_index = after
    if battle.score:
        battle.score = {**battle.score, "winner": after}
    battle.save(update_fields=["winner_index", "score"])
    corr.status = SkirmishCorrection.Status.APPLIED
    corr.decided_at = timezone.now()
    corr.save()
    agreed = (
        _("applied by the organiser %(u)s") % {"u": actor}
        if corr.proposed_by_id == actor.pk
        else _("proposed by %(p)s, agreed by %(u)s") % {"p": corr.proposed_by, "u": actor}
    )
    log_event(
        battle,
        kind=SkirmishEvent.Kind.CORRECTION,
        summary=msg(
            "Result corrected: was “%(a)s”, now “%(b)s” — %(r)s (%(w)s)%(u)s",
            a=str(_result_text(sides, before)),
            b=str(_result_text(sides, after)),
            r=str(corr.reason),
            w=str(agreed),
            u=msg("; house-rule changes undone, apply them again") if undone else "",
        ),
        actor=actor,
        data={
            "before": {"winner_index": before},
            "after": {"winner_index": after},
            "reason": corr.reason,
            "undone": undone,
        },
    )

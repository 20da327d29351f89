"""Results the players report themselves: a small state machine.

    reported ──confirm (an opponent)──▶ counts
    reported ──dispute (an opponent)──▶ disputed ──settle (an organiser)──▶ counts or void
    reported ──settle (an organiser)──▶ counts or void

Only a result that counts enters the standings and the ratings; every step leaves a trace
row (who, when, why), and a result from a campaign's battle or an operation is noted in
that campaign's log too.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import League, Result, ResultCorrection
from campaigns.permissions import can_manage_league, is_club_member
from campaigns.services._base import lock_league, retry_on_conflict
from campaigns.services.leagues.common import (
    RESULT_FIELDS,
    _clean_result,
    _forbid,
    _lock_result,
    _log_campaign,
    _members,
    _schedule_recompute,
    _set_players,
    _snapshot,
    _usernames,
)
from campaigns.services.standings import result_games, standings_apply
from rules.i18n import msg

Status = Result.Status
Action = ResultCorrection.Action


@retry_on_conflict
def result_report(*, league: League, actor, **data: Any) -> Result:
    """A player reports a game he played (he is on one of the teams); it counts once an
    opponent confirms it."""
    if not is_club_member(actor, league.club):
        raise ValidationError(_("Only the club's members may report a result."), code="forbidden")
    if league.status != League.Status.OPEN:
        raise ValidationError(_("This league is closed."))
    names = _usernames(data.get("team_a")) + _usernames(data.get("team_b"))
    users = _members(league, names)
    clean = _clean_result(league, data, users)
    if actor.username not in names:
        raise ValidationError(
            {"team_a": _("Report only a game you played: put yourself on your side.")}
        )
    with transaction.atomic():
        lock_league(league.pk)
        result = Result.objects.create(
            league=league,
            entered_by=actor,
            status=Status.REPORTED,
            **{k: clean[k] for k in RESULT_FIELDS},
        )
        _set_players(result, clean, users)
        ResultCorrection.objects.create(
            result=result, action=Action.REPORT, actor=actor, after=_snapshot(result)
        )
    return result


def _reporter_team(result: Result) -> str | None:
    """The team of the player who reported the result (None: an organiser entered it)."""
    for player in result.players.all():
        if player.user_id == result.entered_by_id:
            return player.team
    return None


def is_opponent(user, result: Result) -> bool:
    """Whether the user plays on the other side from the player who reported the result."""
    team = _reporter_team(result)
    return user.is_authenticated and any(
        p.user_id == user.pk and p.team != team for p in result.players.all()
    )


def _step(result: Result, actor, *, to: str, action: str, reason: str = "") -> Result:
    """Move a locked result to ``to``: trace, campaign log, standings and ratings."""
    before = _snapshot(result)
    counted = result_games([result])
    result.status = to
    result.save(update_fields=["status", "updated_at"])
    ResultCorrection.objects.create(
        result=result,
        action=action,
        actor=actor,
        reason=reason,
        before=before,
        after=_snapshot(result),
    )
    standings_apply(result.league_id, removed=counted, added=result_games([result]))
    if counted or to == Status.ACTIVE:
        _schedule_recompute(result.league_id, (result.played_on, result.pk))
    return result


def _opponent_step(result: Result, actor, *, to: str, action: str, reason: str = "") -> Result:
    with transaction.atomic():
        result, campaign = _lock_result(result)
        if result.status != Status.REPORTED:
            raise ValidationError(
                _("This result is no longer waiting for a confirmation."), code="conflict"
            )
        if not is_opponent(actor, result):
            raise ValidationError(
                _("Only a player of the other side can confirm or dispute this result."),
                code="forbidden",
            )
        result = _step(result, actor, to=to, action=action, reason=reason)
        if to == Status.ACTIVE:
            summary = msg("League result confirmed by %(player)s.", player=actor.username)
        else:
            summary = msg(
                "League result disputed by %(player)s: %(reason)s",
                player=actor.username,
                reason=reason,
            )
        _log_campaign(result, campaign, actor, summary, {"result": result.pk})
    return result


@retry_on_conflict
def result_confirm(*, result: Result, actor) -> Result:
    """An opponent confirms a reported result: it counts from now on."""
    return _opponent_step(result, actor, to=Status.ACTIVE, action=Action.CONFIRM)


@retry_on_conflict
def result_dispute(*, result: Result, actor, reason: str) -> Result:
    """An opponent disputes a reported result; the organiser settles it."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say what is wrong with the result.")})
    return _opponent_step(result, actor, to=Status.DISPUTED, action=Action.DISPUTE, reason=reason)


@retry_on_conflict
def result_settle(
    *, result: Result, actor, reason: str, counts: bool = True, outcome: str | None = None
) -> Result:
    """An organiser settles a reported or disputed result: it counts (with the outcome he
    decides, if given) or is void."""
    _forbid(actor, result.league)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason.")})
    if outcome is not None and outcome not in Result.Outcome.values:
        raise ValidationError({"outcome": _("Choose side A, side B or a draw.")})
    with transaction.atomic():
        result, campaign = _lock_result(result)
        if result.status not in (Status.REPORTED, Status.DISPUTED):
            raise ValidationError(_("This result is not waiting to be settled."), code="conflict")
        if counts and outcome and outcome != result.outcome:
            result.outcome = outcome
            result.save(update_fields=["outcome", "updated_at"])
        to = Status.ACTIVE if counts else Status.VOID
        result = _step(result, actor, to=to, action=Action.SETTLE, reason=reason)
        _log_campaign(
            result,
            campaign,
            actor,
            msg("League result settled by the organiser: %(reason)s", reason=reason),
            {"result": result.pk},
        )
    return result


def can_settle(user, result: Result) -> bool:
    return result.status in (Status.REPORTED, Status.DISPUTED) and can_manage_league(
        user, result.league
    )

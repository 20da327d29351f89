"""Results an organiser enters, corrects, voids or restores, the CSV import, and the rating
recompute. Every write leaves a trace row, updates the standings aggregates and schedules
the rating recompute on commit."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.jsontext import CONTROL_CHARS
from campaigns.models import (
    League,
    LeagueParticipant,
    Result,
    ResultCorrection,
    ResultPlayer,
)
from campaigns.services._base import lock_league, retry_on_conflict
from campaigns.services.analyze import analyze_later
from campaigns.services.leagues.common import (
    CSV_COLUMNS,
    DETAIL_INTS,
    RESULT_FIELDS,
    _clean_result,
    _enrol,
    _forbid,
    _lock_result,
    _log_campaign,
    _members,
    _schedule_recompute,
    _set_players,
    _snapshot,
    _usernames,
)
from campaigns.services.ratings import league_ratings_update
from campaigns.services.standings import result_games, standings_apply

MAX_IMPORT_ROWS = 5000


@retry_on_conflict
def result_enter(*, league: League, actor, **data: Any) -> Result:
    """An organiser enters a standalone result (players by username, each a club member)."""
    _forbid(actor, league)
    if league.status != League.Status.OPEN:
        raise ValidationError(_("This league is closed."))
    users = _members(league, _usernames(data.get("team_a")) + _usernames(data.get("team_b")))
    clean = _clean_result(league, data, users)
    with transaction.atomic():
        lock_league(league.pk)
        result = Result.objects.create(
            league=league, entered_by=actor, **{k: clean[k] for k in RESULT_FIELDS}
        )
        _set_players(result, clean, users)
        ResultCorrection.objects.create(
            result=result, action="enter", actor=actor, after=_snapshot(result)
        )
        standings_apply(league.pk, added=result_games([result]))
        _schedule_recompute(league.pk, (result.played_on, result.pk))
    return result


@retry_on_conflict
def result_correct(*, result: Result, actor, reason: str, **changes: Any) -> Result:
    """Correct a result; the trace keeps what it was, what it became, who and why."""
    league = result.league
    _forbid(actor, league)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the result is corrected.")})
    unknown = set(changes) - {*RESULT_FIELDS, "team_a", "team_b"}
    if unknown:
        raise ValidationError({sorted(unknown)[0]: _("This field cannot be corrected.")})
    with transaction.atomic():
        result, campaign = _lock_result(result)
        before = _snapshot(result)
        counted, day = result_games([result]), result.played_on
        data = {**before, **changes}
        users = _members(league, _usernames(data["team_a"]) + _usernames(data["team_b"]))
        clean = _clean_result(league, data, users)
        for key in RESULT_FIELDS:
            setattr(result, key, clean[key])
        result.save()
        _set_players(result, clean, users)
        after = _snapshot(result)
        if after == before:
            transaction.set_rollback(True)
            raise ValidationError(_("Nothing was changed."), code="unchanged")
        ResultCorrection.objects.create(
            result=result, action="correct", actor=actor, reason=reason, before=before, after=after
        )
        _log_campaign(
            result,
            campaign,
            actor,
            _("League result corrected: %(reason)s") % {"reason": reason},
            {"result": result.pk, "before": before, "after": after},
        )
        standings_apply(league.pk, removed=counted, added=result_games([result]))
        _schedule_recompute(league.pk, (day, result.pk), (result.played_on, result.pk))
    return result


@retry_on_conflict
def _set_status(result: Result, actor, reason: str, status: str, action: str) -> Result:
    league = result.league
    _forbid(actor, league)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason.")})
    with transaction.atomic():
        result, campaign = _lock_result(result)
        if result.status == status:
            return result
        before = _snapshot(result)
        counted = result_games([result])
        result.status = status
        result.save(update_fields=["status", "updated_at"])
        standings_apply(league.pk, removed=counted, added=result_games([result]))
        ResultCorrection.objects.create(
            result=result,
            action=action,
            actor=actor,
            reason=reason,
            before=before,
            after=_snapshot(result),
        )
        summary = (
            _("League result voided: %(reason)s")
            if status == Result.Status.VOID
            else _("League result restored: %(reason)s")
        )
        _log_campaign(result, campaign, actor, summary % {"reason": reason}, {"result": result.pk})
        _schedule_recompute(league.pk, (result.played_on, result.pk))
    return result


def result_void(*, result: Result, actor, reason: str) -> Result:
    """Void a result: it stays, with its trace, but no longer counts."""
    return _set_status(result, actor, reason, Result.Status.VOID, "void")


def result_restore(*, result: Result, actor, reason: str) -> Result:
    return _set_status(result, actor, reason, Result.Status.ACTIVE, "restore")


@retry_on_conflict
def results_import_csv(*, league: League, actor, text: str) -> list[Result]:
    """Import historical results; every row is checked first and any error imports nothing.

    Errors name the row (the header is row 1) and the column.
    """
    _forbid(actor, league)
    if CONTROL_CHARS.search(text):  # PostgreSQL refuses NUL in text
        raise ValidationError({"file": [_("The file contains a NUL or other control character.")]})
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = reader.fieldnames or []
    except csv.Error as err:  # e.g. a field over the csv module's size limit
        raise ValidationError(
            {"file": [_("Not a readable CSV file: %(e)s") % {"e": err}]}
        ) from None
    required = {"played_on", "team_a", "team_b", "outcome"}
    missing = sorted(required - set(header))
    if missing:
        raise ValidationError(
            {"file": [_("Missing column(s): %(cols)s.") % {"cols": ", ".join(missing)}]}
        )
    unknown = sorted(set(header) - set(CSV_COLUMNS))
    if unknown:
        raise ValidationError(
            {"file": [_("Unknown column(s): %(cols)s.") % {"cols": ", ".join(unknown)}]}
        )
    try:
        rows = list(reader)
    except csv.Error as err:
        raise ValidationError(
            {"file": [_("Not a readable CSV file: %(e)s") % {"e": err}]}
        ) from None
    if not rows:
        raise ValidationError({"file": [_("The file has no rows.")]})
    if len(rows) > MAX_IMPORT_ROWS:
        raise ValidationError(
            {"file": [_("At most %(n)s rows per import.") % {"n": MAX_IMPORT_ROWS}]}
        )
    names = {n for row in rows for key in ("team_a", "team_b") for n in _usernames(row.get(key))}
    users = _members(league, names)
    cleaned, errors = [], []
    for number, row in enumerate(rows, start=2):
        if None in row:
            errors.append(_("Row %(n)s: too many values.") % {"n": number})
            continue
        data = {k: (v or "").strip() for k, v in row.items()}
        data["outcome"] = data.get("outcome", "").lower()
        data["details"] = {
            k: data.pop(k) for k in ("win_type", *DETAIL_INTS) if data.get(k, "") != ""
        }
        for k in ("win_type", *DETAIL_INTS):
            data.pop(k, None)
        try:
            cleaned.append(_clean_result(league, data, users))
        except ValidationError as exc:
            for field, messages in exc.message_dict.items():
                errors.extend(
                    _("Row %(n)s, %(field)s: %(msg)s") % {"n": number, "field": field, "msg": m}
                    for m in messages
                )
    if errors:
        raise ValidationError({"file": errors})
    with transaction.atomic():
        lock_league(league.pk)
        results = Result.objects.bulk_create(
            [
                Result(league=league, entered_by=actor, **{k: c[k] for k in RESULT_FIELDS})
                for c in cleaned
            ]
        )
        ResultPlayer.objects.bulk_create(
            [
                ResultPlayer(result=r, user=users[name], team=team)
                for r, c in zip(results, cleaned, strict=True)
                for team in ("a", "b")
                for name in c[f"team_{team}"]
            ]
        )
        _enrol(league, list(users.values()))
        ResultCorrection.objects.bulk_create(
            [
                ResultCorrection(
                    result=r,
                    action="enter",
                    actor=actor,
                    reason=_("imported from CSV"),
                    after={
                        **{k: c[k] for k in RESULT_FIELDS},
                        "played_on": c["played_on"].isoformat(),
                        "team_a": c["team_a"],
                        "team_b": c["team_b"],
                        "status": "active",
                    },
                )
                for r, c in zip(results, cleaned, strict=True)
            ]
        )
        standings_apply(league.pk, added=result_games(results))
        _schedule_recompute(league.pk, *((r.played_on, r.pk) for r in results))
        analyze_later(Result, ResultPlayer, ResultCorrection, LeagueParticipant)
    return results


def league_ratings_recompute(*, league_id: int, full: bool = True) -> dict[str, int]:
    """Rebuild a league's ratings from its first result (`full`), or bring them up to date
    from the earliest change since the last run (`full=False`, what the rating task does).
    See `campaigns.services.ratings`."""
    return league_ratings_update(league_id=league_id, full=full)

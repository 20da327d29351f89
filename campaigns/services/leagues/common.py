"""What every league write shares: the permission check, the result's fields and their
validation (players named by username, each a club member; the details of the league's
game), the trace snapshot, enrolment, the locks of a change and the campaign log entry."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import (
    Battle,
    Campaign,
    GameSystem,
    League,
    LeagueParticipant,
    LogEntry,
    Result,
    ResultPlayer,
    bounds,
)
from campaigns.permissions import can_manage_league
from campaigns.services._base import append_log, lock_campaign, lock_league, lock_result
from campaigns.services.enqueue import recompute_ratings_later
from campaigns.services.ratings import ratings_mark_dirty
from rules.cc.tournament import WinType

DETAIL_INTS = ("time_space", "vp_a", "vp_b", "casualties_a", "casualties_b")


CSV_COLUMNS = [
    "played_on",
    "round",
    "scenario",
    "side_a",
    "side_b",
    "team_a",
    "team_b",
    "outcome",
    "win_type",
    "time_space",
    "vp_a",
    "vp_b",
    "casualties_a",
    "casualties_b",
    "notes",
]
CC_ONLY_DETAILS = ("win_type", "time_space", "objective_5_in_play")


def _forbid(actor, league: League) -> None:
    if not can_manage_league(actor, league):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")


def _schedule_recompute(league_id: int, *points: tuple[dt.date, int]) -> None:
    """Mark the ratings stale from the earliest (date, result id) changed (none: from the
    start) and queue their update once the write commits."""
    ratings_mark_dirty(league_id, *points)
    recompute_ratings_later(league_id)


def _usernames(value: Any) -> list[str]:
    if isinstance(value, str):
        value = value.replace(";", "+").split("+")
    return [str(v).strip() for v in value or [] if str(v).strip()]


def clean_details(
    details: dict[str, Any] | None, system: str = GameSystem.COMBAT_COMMANDER
) -> dict[str, Any]:
    """A result's figures (all optional): VP (below zero too: a skirmish may score −3) and
    casualties of each side; in a Combat Commander league also the win type, the Time
    space and whether objective 5 was in play."""
    details = dict(details or {})
    clean: dict[str, Any] = {}
    errors: dict[str, str] = {}
    unknown = set(details) - {*DETAIL_INTS, "win_type", "objective_5_in_play"}
    for key in sorted(unknown):
        errors[key] = _("Unknown result detail.")
    if system != GameSystem.COMBAT_COMMANDER:
        for key in CC_ONLY_DETAILS:
            if details.get(key) not in (None, "", False):
                errors[key] = _("Only a Combat Commander result has this detail.")
            details.pop(key, None)
    win = details.get("win_type") or ""
    if win:
        if win not in {w.value for w in WinType} or win == WinType.CONCESSION:
            errors["win_type"] = _("Choose one of the listed win types.")
        clean["win_type"] = win
    for key in DETAIL_INTS:
        value = details.get(key)
        if value in (None, ""):
            continue
        limits = bounds.RESULT_DETAILS[key]
        try:
            number = int(value)
            if not bounds.in_range(number, limits) or str(number) != str(value).strip():
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            errors[key] = bounds.range_message(limits)
            continue
        clean[key] = number
    o5 = details.get("objective_5_in_play")
    if o5 not in (None, "", False, "false", "0", 0):
        clean["objective_5_in_play"] = True
    if errors:
        raise ValidationError(errors)
    return clean


def _clean_result(league: League, data: dict[str, Any], users: dict[str, Any]) -> dict[str, Any]:
    """Validate a result's fields; `users` maps usernames to users (club members only)."""
    errors: dict[str, str] = {}
    clean: dict[str, Any] = {}
    played_on = data.get("played_on")
    if isinstance(played_on, str):
        try:
            played_on = dt.date.fromisoformat(played_on.strip())
        except ValueError:
            played_on = None
    if isinstance(played_on, dt.datetime):
        played_on = played_on.date()
    if not isinstance(played_on, dt.date):
        errors["played_on"] = _("Enter the date as YYYY-MM-DD.")
    clean["played_on"] = played_on
    rnd = data.get("round")
    if rnd in (None, ""):
        clean["round"] = None
    else:
        try:
            clean["round"] = int(rnd)
            if not bounds.in_range(clean["round"], bounds.ROUND):
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            errors["round"] = bounds.range_message(bounds.ROUND)
    for key in ("scenario", "side_a", "side_b", "notes"):
        limit = Result._meta.get_field(key).max_length
        text = str(data.get(key) or "").strip()
        if len(text) > limit:
            errors[key] = _("At most %(n)s characters.") % {"n": limit}
        clean[key] = text
    outcome = data.get("outcome")
    if outcome not in Result.Outcome.values:
        errors["outcome"] = _("Choose side A, side B or a draw.")
    clean["outcome"] = outcome
    teams = {}
    for key in ("team_a", "team_b"):
        names = _usernames(data.get(key))
        if not names:
            errors[key] = _("Name at least one player.")
        missing = [n for n in names if n not in users]
        if missing:
            errors[key] = _("Not a member of this club: %(names)s.") % {"names": ", ".join(missing)}
        if len(set(names)) != len(names):
            errors[key] = _("A player is named twice.")
        teams[key] = names
    if set(teams["team_a"]) & set(teams["team_b"]) and "team_b" not in errors:
        errors["team_b"] = _("A player cannot be on both sides.")
    clean.update(teams)
    try:
        clean["details"] = clean_details(data.get("details"), league.system)
    except ValidationError as exc:
        errors.update({k: v[0] for k, v in exc.message_dict.items()})
    if errors:
        raise ValidationError(errors)
    return clean


def _members(league: League, names) -> dict[str, Any]:
    User = get_user_model()
    return {
        u.username: u
        for u in User.objects.filter(
            username__in=set(names), club_memberships__club_id=league.club_id
        )
    }


def _snapshot(result: Result) -> dict[str, Any]:
    players = result.players.select_related("user").order_by("team", "id")
    return {
        "played_on": result.played_on.isoformat(),
        "round": result.round,
        "scenario": result.scenario,
        "side_a": result.side_a,
        "side_b": result.side_b,
        "outcome": result.outcome,
        "details": result.details,
        "status": result.status,
        "notes": result.notes,
        "team_a": [p.user.username for p in players if p.team == "a"],
        "team_b": [p.user.username for p in players if p.team == "b"],
    }


def _enrol(league: League, users) -> None:
    existing = set(
        LeagueParticipant.objects.filter(league=league, user__in=users).values_list(
            "user_id", flat=True
        )
    )
    # New participants in id order: two entries enrolling the same players cannot deadlock.
    LeagueParticipant.objects.bulk_create(
        [
            LeagueParticipant(league=league, user=u)
            for u in sorted(users, key=lambda u: u.pk)
            if u.pk not in existing
        ],
        ignore_conflicts=True,
    )


def _set_players(result: Result, clean: dict[str, Any], users: dict[str, Any]) -> None:
    result.players.all().delete()
    ResultPlayer.objects.bulk_create(
        [
            ResultPlayer(result=result, user=users[name], team=team)
            for team in ("a", "b")
            for name in clean[f"team_{team}"]
        ]
    )
    _enrol(result.league, [users[n] for n in clean["team_a"] + clean["team_b"]])


RESULT_FIELDS = (
    "played_on",
    "round",
    "scenario",
    "side_a",
    "side_b",
    "outcome",
    "details",
    "notes",
)


def _lock_result(result: Result) -> tuple[Result, Campaign | None]:
    """Lock a result for a change, in the lock order: its league, the campaign it came from
    (a battle's campaign or a TCS operation, if any), then the result itself."""
    lock_league(result.league_id)
    campaign = None
    campaign_id = result.operation_id
    if result.battle_id:
        campaign_id = Battle.objects.filter(pk=result.battle_id).values_list(
            "campaign_id", flat=True
        )[0]
    if campaign_id:
        campaign = lock_campaign(campaign_id)
    return lock_result(result.pk), campaign


def _log_campaign(
    result: Result, campaign: Campaign | None, actor, summary, data: dict[str, Any]
) -> None:
    """A change of a result recorded from a campaign's battle or an operation is written in
    that campaign's log too."""
    if campaign is not None:
        battle = Battle.objects.get(pk=result.battle_id) if result.battle_id else None
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=summary,
            actor=actor,
            battle=battle,
            data=data,
        )

"""Leagues: creation and settings, participants, results (enter, from a battle, correct, void,
import) and the rating recompute. Every result write leaves a trace row and schedules the
rating recompute on commit; a result from a campaign's battle also writes the campaign log."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.jsontext import CONTROL_CHARS
from campaigns.models import (
    Battle,
    Campaign,
    Club,
    ClubMembership,
    GameSystem,
    League,
    LeagueParticipant,
    LogEntry,
    Result,
    ResultCorrection,
    ResultPlayer,
    bounds,
)
from campaigns.models.leagues import DEFAULT_K_BANDS, DEFAULT_TIEBREAKS
from campaigns.permissions import can_manage_league, can_view_campaign, is_club_organiser
from campaigns.services._base import (
    append_log,
    lock_campaign,
    lock_league,
    lock_result,
    retry_on_conflict,
)
from campaigns.services.analyze import analyze_later
from campaigns.services.enqueue import recompute_ratings_later
from campaigns.services.ratings import elo_config, league_ratings_update, ratings_mark_dirty
from campaigns.services.standings import result_games, standings_apply
from rules.cc.tournament import WinType
from rules.errors import RuleError
from rules.ratings import METRICS, EloConfig

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
MAX_IMPORT_ROWS = 5000


def _forbid(actor, league: League) -> None:
    if not can_manage_league(actor, league):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")


def _schedule_recompute(league_id: int, *points: tuple[dt.date, int]) -> None:
    """Mark the ratings stale from the earliest (date, result id) changed (none: from the
    start) and queue their update once the write commits."""
    ratings_mark_dirty(league_id, *points)
    recompute_ratings_later(league_id)


# --- Leagues ----------------------------------------------------------------------------------


def clean_tiebreaks(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list | tuple) or not value:
        raise ValidationError({"tiebreaks": _("Choose at least one ranking criterion.")})
    unknown = [v for v in value if v not in METRICS]
    if unknown:
        raise ValidationError(
            {
                "tiebreaks": _("Unknown criterion: %(names)s.")
                % {"names": ", ".join(map(str, unknown))}
            }
        )
    if len(set(value)) != len(value):
        raise ValidationError({"tiebreaks": _("A criterion is listed twice.")})
    return list(value)


def clean_k_bands(value: Any) -> list[list[float]]:
    try:
        bands = sorted([float(lo), float(k)] for lo, k in value)  # in any order
        EloConfig(k_bands=tuple((lo, k) for lo, k in bands))
    except (TypeError, ValueError, RuleError):
        raise ValidationError(
            {"elo_k_bands": _("Give rating bands as ascending pairs of lowest rating and K > 0.")}
        ) from None
    if len(bands) > bounds.K_BANDS_MAX:
        raise ValidationError(
            {"elo_k_bands": _("At most %(n)s rating bands.") % {"n": bounds.K_BANDS_MAX}}
        )
    for lo, k in bands:
        if not bounds.in_range(lo, bounds.ELO_RATING) or not bounds.in_range(k, bounds.K_FACTOR):
            raise ValidationError(
                {
                    "elo_k_bands": _(
                        "A band's lowest rating is from %(rlo)s to %(rhi)s and its K from "
                        "%(klo)s to %(khi)s."
                    )
                    % {
                        "rlo": bounds.ELO_RATING[0],
                        "rhi": bounds.ELO_RATING[1],
                        "klo": bounds.K_FACTOR[0],
                        "khi": bounds.K_FACTOR[1],
                    }
                }
            )
    return bands


SETTINGS = (
    "name",
    "season",
    "status",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
    "apply_cc_handicap",
    "elo_initial",
    "elo_k_bands",
    "elo_period",
    "balance_min_plays",
)
RATING_SETTINGS = {"elo_initial", "elo_k_bands", "elo_period"}


def _clean_settings(values: dict[str, Any]) -> dict[str, Any]:
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise ValidationError({sorted(unknown)[0]: _("This setting does not exist.")})
    errors: dict[str, str] = {}
    clean = dict(values)
    for key in ("name", "season"):
        if key in clean:
            clean[key] = str(clean[key]).strip()
            if not clean[key]:
                errors[key] = _("This field is required.")
    for key in ("points_win", "points_draw", "points_loss", "elo_initial"):
        if key in clean:
            try:
                clean[key] = float(clean[key])
                bounds.check_values(League, clean, fields=[key])
            except (TypeError, ValueError, OverflowError):
                errors[key] = _("Enter a number.")
            except ValidationError as exc:
                errors[key] = exc.message_dict[key][0]
    for key in ("name", "season"):
        limit = League._meta.get_field(key).max_length
        if key in clean and len(clean[key]) > limit:
            errors[key] = _("At most %(n)s characters.") % {"n": limit}
    if "status" in clean and clean["status"] not in League.Status.values:
        errors["status"] = _("Choose open or closed.")
    if "elo_period" in clean and clean["elo_period"] not in League.EloPeriod.values:
        errors["elo_period"] = _("Choose per result or per day.")
    if "balance_min_plays" in clean:
        try:
            clean["balance_min_plays"] = int(clean["balance_min_plays"])
            if not bounds.in_range(clean["balance_min_plays"], bounds.BALANCE_MIN_PLAYS):
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            errors["balance_min_plays"] = bounds.range_message(bounds.BALANCE_MIN_PLAYS)
    for key, fn in (("tiebreaks", clean_tiebreaks), ("elo_k_bands", clean_k_bands)):
        if key in clean:
            try:
                clean[key] = fn(clean[key])
            except ValidationError as exc:
                errors.update({k: v[0] for k, v in exc.message_dict.items()})
    if errors:
        raise ValidationError(errors)
    return clean


def league_create(
    *, club: Club, actor, name: str, season: str, system: str, **settings: Any
) -> League:
    """An organiser opens a league for one game system."""
    if not is_club_organiser(actor, club):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")
    if system not in GameSystem.values:
        raise ValidationError({"system": _("Choose one of the game systems.")})
    settings.setdefault("tiebreaks", list(DEFAULT_TIEBREAKS))
    settings.setdefault("elo_k_bands", DEFAULT_K_BANDS)
    clean = _clean_settings({"name": name, "season": season, **settings})
    try:
        with transaction.atomic():
            return League.objects.create(club=club, system=system, created_by=actor, **clean)
    except IntegrityError:
        raise ValidationError(
            {"name": _("The club already has a league with this name and season.")}
        ) from None


def league_update(*, league: League, actor, **changes: Any) -> League:
    """Change settings (tie-break order, points, ratings); rating changes trigger a recompute."""
    _forbid(actor, league)
    clean = _clean_settings(changes)
    try:
        with transaction.atomic():
            for key, value in clean.items():
                setattr(league, key, value)
            league.save(update_fields=list(clean))
            if RATING_SETTINGS & set(clean):
                _schedule_recompute(league.pk)
    except IntegrityError:
        raise ValidationError(
            {"name": _("The club already has a league with this name and season.")}
        ) from None
    return league


def league_participant_add(*, league: League, actor, user, handicapped: bool = False):
    """Enrol a club member (an organiser enrols anyone; a member may enrol himself)."""
    if not (can_manage_league(actor, league) or (actor.pk == user.pk)):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")
    if not ClubMembership.objects.filter(club_id=league.club_id, user=user).exists():
        raise ValidationError({"user": _("Only club members can take part in its leagues.")})
    if league.status != League.Status.OPEN:
        raise ValidationError(_("This league is closed."))
    entry, created = LeagueParticipant.objects.get_or_create(
        league=league, user=user, defaults={"handicapped": handicapped}
    )
    if not created and entry.handicapped != handicapped and can_manage_league(actor, league):
        entry.handicapped = handicapped
        entry.save(update_fields=["handicapped"])
    return entry


# --- Results ----------------------------------------------------------------------------------


def _usernames(value: Any) -> list[str]:
    if isinstance(value, str):
        value = value.replace(";", "+").split("+")
    return [str(v).strip() for v in value or [] if str(v).strip()]


def clean_details(details: dict[str, Any] | None) -> dict[str, Any]:
    """Combat Commander figures (all optional): win type, Time space, VP and casualties."""
    details = dict(details or {})
    clean: dict[str, Any] = {}
    errors: dict[str, str] = {}
    unknown = set(details) - {*DETAIL_INTS, "win_type", "objective_5_in_play"}
    for key in sorted(unknown):
        errors[key] = _("Unknown result detail.")
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
        clean["details"] = clean_details(data.get("details"))
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


def _battle_teams(battle: Battle) -> tuple[list, list, str, str]:
    """Winners (the winning side and its allies of the same faction) against everyone else."""
    sides = list(battle.campaign.sides.prefetch_related("seats__user").order_by("order", "id"))
    if battle.winner_id:
        winner = next(s for s in sides if s.pk == battle.winner_id)
        first = [
            s
            for s in sides
            if s.pk == winner.pk or (winner.faction and s.faction == winner.faction)
        ]
    else:
        lead = sides[0]
        first = [
            s for s in sides if s.pk == lead.pk or (lead.faction and s.faction == lead.faction)
        ]
    second = [s for s in sides if s not in first]
    team_a = [seat.user for s in first for seat in s.seats.all()]
    team_b = [seat.user for s in second for seat in s.seats.all()]
    return (
        team_a,
        team_b,
        " + ".join(s.name for s in first),
        " + ".join(s.name for s in second),
    )


def battle_is_finished(battle: Battle) -> bool:
    return bool(battle.result) and (battle.winner_id is not None or battle.result.get("draw"))


@retry_on_conflict
def result_from_battle(
    *,
    league: League,
    actor,
    battle: Battle,
    scenario: str = "",
    details: dict[str, Any] | None = None,
    round: int | None = None,
) -> Result:
    """Record a finished battle of a campaign (two or four players) as a league result.

    The battle must belong to one of the club's campaigns, or to one the organiser can see.
    Recording the same battle again returns the existing result.
    """
    _forbid(actor, league)
    battle = Battle.objects.select_related("campaign").get(pk=battle.pk)
    campaign = battle.campaign
    if campaign.club_id != league.club_id and not can_view_campaign(actor, campaign):
        raise ValidationError({"battle": _("You cannot see this battle's campaign.")})
    if campaign.system != league.system:
        raise ValidationError({"battle": _("This battle is from another game system.")})
    if not battle_is_finished(battle):
        raise ValidationError({"battle": _("This battle has no result yet.")})
    existing = Result.objects.filter(league=league, battle=battle).first()
    if existing:
        return existing
    team_a, team_b, side_a, side_b = _battle_teams(battle)
    data = {
        "played_on": (battle.finished_at or timezone.now()).date(),
        "round": round,
        "scenario": scenario or campaign.template or campaign.name,
        "side_a": side_a,
        "side_b": side_b,
        "outcome": "a" if battle.winner_id else "draw",
        "team_a": [u.username for u in team_a],
        "team_b": [u.username for u in team_b],
        "details": details or {},
        "notes": _("%(campaign)s, battle %(n)s") % {"campaign": campaign.name, "n": battle.number},
    }
    users = _members(league, data["team_a"] + data["team_b"])
    try:
        clean = _clean_result(league, data, users)
    except ValidationError as exc:
        raise ValidationError(
            {"battle": [m for msgs in exc.message_dict.values() for m in msgs]}
        ) from None
    with transaction.atomic():
        lock_league(league.pk)
        lock_campaign(campaign.pk)
        existing = Result.objects.filter(league=league, battle=battle).first()
        if existing:
            return existing
        result = Result.objects.create(
            league=league, battle=battle, entered_by=actor, **{k: clean[k] for k in RESULT_FIELDS}
        )
        _set_players(result, clean, users)
        ResultCorrection.objects.create(
            result=result, action="enter", actor=actor, after=_snapshot(result)
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.RESULT,
            summary=_("Battle %(n)s recorded in the league %(league)s.")
            % {"n": battle.number, "league": str(league)},
            actor=actor,
            battle=battle,
            data={"league": league.pk, "result": result.pk},
        )
        standings_apply(league.pk, added=result_games([result]))
        _schedule_recompute(league.pk, (result.played_on, result.pk))
    return result


def _lock_result(result: Result) -> tuple[Result, Campaign | None]:
    """Lock a result for a change, in the lock order: its league, the campaign of its battle
    (if any), then the result itself."""
    lock_league(result.league_id)
    campaign = None
    if result.battle_id:
        campaign_id = Battle.objects.filter(pk=result.battle_id).values_list(
            "campaign_id", flat=True
        )[0]
        campaign = lock_campaign(campaign_id)
    return lock_result(result.pk), campaign


def _log_campaign(
    result: Result, campaign: Campaign | None, actor, summary: str, data: dict[str, Any]
) -> None:
    if campaign is not None:
        battle = Battle.objects.get(pk=result.battle_id)
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=summary,
            actor=actor,
            battle=battle,
            data=data,
        )


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


# --- Ratings ----------------------------------------------------------------------------------


def league_ratings_recompute(*, league_id: int, full: bool = True) -> dict[str, int]:
    """Rebuild a league's ratings from its first result (`full`), or bring them up to date
    from the earliest change since the last run (`full=False`, what the rating task does).
    See `campaigns.services.ratings`."""
    return league_ratings_update(league_id=league_id, full=full)


__all__ = ["elo_config", "league_ratings_recompute"]

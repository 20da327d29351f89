"""Results recorded from a game played on the site: a campaign's battle (Combat Commander),
a finished skirmish (Parabellum, 1936) or a finished TCS operation. Each is recorded once
per league: recording it again returns the result already there."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Battle,
    Campaign,
    GameSystem,
    League,
    LogEntry,
    Result,
    ResultCorrection,
    RosterSystem,
    SkirmishBattle,
)
from campaigns.models.tcs import TCS_TEMPLATE
from campaigns.permissions import can_manage_league, can_view_campaign, can_view_skirmish
from campaigns.services._base import append_log, lock_campaign, lock_league, retry_on_conflict
from campaigns.services.leagues.common import (
    RESULT_FIELDS,
    _clean_result,
    _forbid,
    _members,
    _schedule_recompute,
    _set_players,
    _snapshot,
)
from campaigns.services.standings import result_games, standings_apply
from rules.i18n import Msg, msg


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


def _check_source(league: League, data: dict[str, Any], field: str) -> tuple[dict, dict]:
    """The prefilled result's fields checked like a typed one; errors land on ``field``."""
    users = _members(league, data["team_a"] + data["team_b"])
    try:
        return _clean_result(league, data, users), users
    except ValidationError as exc:
        raise ValidationError(
            {field: [m for msgs in exc.message_dict.values() for m in msgs]}
        ) from None


def _recorder(league: League, actor, players: list[Any]) -> str:
    """The status a recorded game starts with: an organiser's record counts at once; a
    player's own report waits for the opponent's confirmation."""
    if can_manage_league(actor, league):
        return Result.Status.ACTIVE
    if league.status != League.Status.OPEN:
        raise ValidationError(_("This league is closed."))
    if actor.is_authenticated and any(p.pk == actor.pk for p in players):
        return Result.Status.REPORTED
    raise ValidationError(
        _("Only the club's organisers or the game's players may do this."), code="forbidden"
    )


def _record(
    league: League,
    actor,
    *,
    source: dict[str, Any],
    data: dict[str, Any],
    status: str,
    field: str,
    campaign: Campaign | None = None,
    summary: Msg | None = None,
) -> Result:
    """Create the result of a game played on the site once per league (``source`` names the
    game: ``battle=``, ``skirmish=`` or ``operation=``); an existing one is returned."""
    existing = Result.objects.filter(league=league, **source).first()
    if existing:
        return existing
    clean, users = _check_source(league, data, field)
    with transaction.atomic():
        lock_league(league.pk)
        if campaign is not None:
            lock_campaign(campaign.pk)
        existing = Result.objects.filter(league=league, **source).first()
        if existing:
            return existing
        result = Result.objects.create(
            league=league,
            entered_by=actor,
            status=status,
            **source,
            **{k: clean[k] for k in RESULT_FIELDS},
        )
        _set_players(result, clean, users)
        reported = status == Result.Status.REPORTED
        ResultCorrection.objects.create(
            result=result,
            action=ResultCorrection.Action.REPORT if reported else ResultCorrection.Action.ENTER,
            actor=actor,
            after=_snapshot(result),
        )
        if campaign is not None and summary is not None:
            append_log(
                campaign,
                kind=LogEntry.Kind.RESULT,
                summary=summary,
                actor=actor,
                battle=source.get("battle"),
                data={"league": league.pk, "result": result.pk},
            )
        if not reported:
            standings_apply(league.pk, added=result_games([result]))
            _schedule_recompute(league.pk, (result.played_on, result.pk))
    return result


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
    return _record(
        league,
        actor,
        source={"battle": battle},
        data=data,
        status=Result.Status.ACTIVE,
        field="battle",
        campaign=campaign,
        summary=msg(
            "Battle %(n)s recorded in the league %(league)s.", n=battle.number, league=str(league)
        ),
    )


def skirmish_is_finished(battle: SkirmishBattle) -> bool:
    return battle.status == SkirmishBattle.Status.FINISHED


def skirmish_result_data(battle: SkirmishBattle, scenario: str = "", round=None) -> dict:
    """A finished skirmish as a result: the winner (or, in a draw, the first side) is side A;
    the VP each scored (a Parabellum score may be below zero) and casualties."""
    sides = sorted(battle.sides.all(), key=lambda s: s.index)
    if battle.winner_index is not None and sides[0].index != battle.winner_index:
        sides.reverse()
    totals = {i: s.get("total") for i, s in enumerate((battle.score or {}).get("sides") or [])}
    details: dict[str, Any] = {}
    for key, side in zip(("a", "b"), sides, strict=False):
        if isinstance(totals.get(side.index), int):
            details[f"vp_{key}"] = totals[side.index]
        if battle.system == RosterSystem.PARABELLUM:  # soldiers lost and not healed
            lost = [c for c in side.casualties or [] if c.get("healed_turn") is None]
            details[f"casualties_{key}"] = len(lost)
    return {
        "played_on": (battle.finished_at or timezone.now()).date(),
        "round": round,
        "scenario": scenario or str(battle),
        "side_a": str(sides[0].get_role_display()) if sides else "",
        "side_b": str(sides[1].get_role_display()) if len(sides) > 1 else "",
        "outcome": "a" if battle.winner_index is not None else "draw",
        "team_a": [sides[0].player.username] if sides else [],
        "team_b": [sides[1].player.username] if len(sides) > 1 else [],
        "details": details,
        "notes": _("Skirmish %(n)s") % {"n": battle.pk},
    }


@retry_on_conflict
def result_from_skirmish(
    *, league: League, actor, skirmish: SkirmishBattle, scenario: str = "", round=None
) -> Result:
    """Record a finished Parabellum or 1936 skirmish in a league of its game, once.

    An organiser's record counts at once; a player of the skirmish may report it, and it
    counts once the opponent confirms. The organiser needs to see the skirmish, or both
    players must be members of the league's club."""
    skirmish = (
        SkirmishBattle.objects.select_related("campaign")
        .prefetch_related("sides__player")
        .get(pk=skirmish.pk)
    )
    players = [s.player for s in skirmish.sides.all()]
    status = _recorder(league, actor, players)
    if skirmish.system != league.system:
        raise ValidationError({"skirmish": _("This skirmish is from another game system.")})
    if not skirmish_is_finished(skirmish):
        raise ValidationError({"skirmish": _("This skirmish is not over yet.")})
    members = set(_members(league, [p.username for p in players]))
    if not can_view_skirmish(actor, skirmish) and len(members) < len(players):
        raise ValidationError({"skirmish": _("You cannot see this skirmish.")})
    return _record(
        league,
        actor,
        source={"skirmish": skirmish},
        data=skirmish_result_data(skirmish, scenario, round),
        status=status,
        field="skirmish",
    )


def operation_result_data(operation: Campaign, outcome: str, scenario: str = "", round=None):
    """A finished TCS operation as a result: its first side is side A; the operation has no
    winner of its own, so the outcome is given."""
    sides = list(operation.sides.prefetch_related("seats__user").order_by("order", "id"))
    teams = [[seat.user.username for seat in s.seats.all()] for s in sides[:2]]
    return {
        "played_on": operation.updated_at.date(),
        "round": round,
        "scenario": scenario or operation.name,
        "side_a": sides[0].name if sides else "",
        "side_b": sides[1].name if len(sides) > 1 else "",
        "outcome": outcome,
        "team_a": teams[0] if teams else [],
        "team_b": teams[1] if len(teams) > 1 else [],
        "details": {},
        "notes": _("TCS operation %(name)s") % {"name": operation.name},
    }


def operation_players(operation: Campaign) -> list[Any]:
    return [seat.user for s in operation.sides.all() for seat in s.seats.all()]


@retry_on_conflict
def result_from_operation(
    *,
    league: League,
    actor,
    operation: Campaign,
    outcome: str,
    scenario: str = "",
    round=None,
) -> Result:
    """Record a finished TCS operation in a TCS league, once, with the outcome the players
    agreed (first side won, second side won, or a draw). An organiser's record counts at
    once; a player's report waits for the opponent's confirmation."""
    operation = Campaign.objects.prefetch_related("sides__seats__user").get(pk=operation.pk)
    status = _recorder(league, actor, operation_players(operation))
    if operation.template != TCS_TEMPLATE or league.system != GameSystem.TCS:
        raise ValidationError({"operation": _("Only a TCS operation goes to a TCS league.")})
    if operation.status != Campaign.Status.FINISHED:
        raise ValidationError({"operation": _("This operation is not over yet.")})
    if operation.club_id != league.club_id and not can_view_campaign(actor, operation):
        raise ValidationError({"operation": _("You cannot see this operation.")})
    if outcome not in Result.Outcome.values:
        raise ValidationError({"outcome": _("Choose side A, side B or a draw.")})
    return _record(
        league,
        actor,
        source={"operation": operation},
        data=operation_result_data(operation, outcome, scenario, round),
        status=status,
        field="operation",
        campaign=operation,
        summary=msg("The operation was recorded in the league %(league)s.", league=str(league)),
    )

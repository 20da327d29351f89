"""League, club, profile and history reads; each costs a fixed number of queries.

Standings and profiles are computed in Python from two flat queries (results, then their
players), however many results there are. History reads leave out every private log entry
and every sealed decision that has not been revealed: they are shown to all who may see the
campaign.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery

from campaigns.i18n import say
from campaigns.models import (
    Battle,
    Campaign,
    Club,
    ClubMembership,
    Decision,
    GameSystem,
    League,
    LeagueParticipant,
    LogEntry,
    Rating,
    Result,
    ResultCorrection,
    ResultPlayer,
    SkirmishBattle,
    bounds,
)
from campaigns.models.tcs import TCS_TEMPLATE
from campaigns.paging import Window as Page
from campaigns.paging import as_datetime, as_int, seek
from campaigns.permissions import visible_campaigns_q
from campaigns.selectors.history import (
    battle_timeline,
    campaign_history,
    player_results,
    player_tallies,
    rating_charts,
    results_window,
)
from campaigns.selectors.standings import league_table
from rules.ratings import (
    CCDetail,
    Game,
    Outcome,
    PointsScheme,
    Standings,
    scenario_balance,
)
from rules.ratings.balance import BalanceRow, wilson_interval
from rules.ratings.standings import METRICS

STANDINGS_CACHE_SECONDS = 600
CC_FIELDS = ("win_type", "time_space", "vp_a", "vp_b", "casualties_a", "casualties_b")


# --- Games ------------------------------------------------------------------------------------


def _cc(details: dict[str, Any]) -> CCDetail | None:
    if not details:
        return None
    return CCDetail(
        **{k: details.get(k) for k in CC_FIELDS if details.get(k) is not None},
        objective_5_in_play=bool(details.get("objective_5_in_play")),
    )


def results_to_games(results: list[dict], players: list[tuple[int, int, str]]) -> list[Game]:
    teams: dict[int, tuple[list, list]] = defaultdict(lambda: ([], []))
    for result_id, user_id, team in players:
        teams[result_id][0 if team == "a" else 1].append(user_id)
    games = []
    for r in results:
        a, b = teams.get(r["id"], ([], []))
        if not a or not b:
            continue
        games.append(
            Game(
                r["id"],
                tuple(a),
                tuple(b),
                Outcome(r["outcome"]),
                played_on=r["played_on"],
                round=r["round"],
                scenario=r["scenario"],
                side_a=r["side_a"],
                side_b=r["side_b"],
                cc=_cc(r["details"]),
            )
        )
    return games


def league_games(league: League) -> list[Game]:
    """Every counting result of the league in rating order (date, then entry): 2 queries."""
    results = list(
        Result.objects.filter(league=league, status=Result.Status.ACTIVE)
        .order_by("played_on", "id")
        .values("id", "outcome", "played_on", "round", "scenario", "side_a", "side_b", "details")
    )
    players = list(
        ResultPlayer.objects.filter(result__league=league, result__status=Result.Status.ACTIVE)
        .order_by("id")
        .values_list("result_id", "user_id", "team")
    )
    return results_to_games(results, players)


# --- Leagues ----------------------------------------------------------------------------------


def league_get(pk: int) -> League:
    return League.objects.select_related("club").get(pk=pk)


@dataclass
class StandingsView:
    standings: Standings
    users: dict[int, Any]
    ratings: dict[int, float]
    criteria: list[tuple[str, str]]
    handicapped: set[int] = field(default_factory=set)

    @property
    def rows(self):
        for row in self.standings.rows:
            yield {
                "row": row,
                "user": self.users.get(row.player),
                "elo": self.ratings.get(row.player),
                "handicapped": row.player in self.handicapped,
                "values": [row.values.get(key) for key, _label in self.criteria],
            }


def points_scheme(league) -> PointsScheme:
    """The league's points, each finite and within ``bounds.LEAGUE_POINTS`` whatever the row
    holds (a value stored before the bounds, e.g. 1e308, must not make standings ``inf``)."""
    low, high = bounds.LEAGUE_POINTS
    defaults = PointsScheme()

    def safe(value, default: float) -> float:
        try:
            value = float(value)
        except (TypeError, ValueError):
            return default
        return min(max(value, low), high) if math.isfinite(value) else default

    return PointsScheme(
        safe(league.points_win, defaults.win),
        safe(league.points_draw, defaults.draw),
        safe(league.points_loss, defaults.loss),
    )


def league_standings(league: League, criteria: list[str] | None = None) -> StandingsView:
    """The table (4 queries): participants with their users, the aggregates, current Elo."""
    criteria = criteria or league.tiebreaks or ["points"]
    entries = list(LeagueParticipant.objects.filter(league=league).select_related("user"))
    users = {e.user_id: e.user for e in entries}
    handicapped = {e.user_id for e in entries if e.handicapped}
    # every result write bumps ratings_version, so a table is cached per version and settings
    key = "standings:" + ":".join(
        map(
            str,
            (
                league.pk,
                league.created_at.isoformat(),
                league.ratings_version,
                ",".join(criteria),
                league.points_win,
                league.points_draw,
                league.points_loss,
                league.apply_cc_handicap,
                sorted(users),
                sorted(handicapped),
            ),
        )
    )
    key = "standings:" + hashlib.sha256(key.encode()).hexdigest()
    standings = cache.get(key)
    if standings is None:  # from the aggregates every result write keeps up to date
        standings = league_table(
            league,
            criteria,
            players=[e.user_id for e in entries],
            scheme=points_scheme(league),
            handicapped=handicapped,
            sort_key=lambda p: users[p].username if p in users else f"~{p}",
            load_games=lambda: league_games(league),
        )
        cache.set(key, standings, STANDINGS_CACHE_SECONDS)
    missing = {row.player for row in standings.rows} - set(users)
    if missing:
        users.update({u.pk: u for u in get_user_model().objects.filter(pk__in=missing)})
    ratings = dict(
        Rating.objects.filter(league=league, method=Rating.Method.ELO).values_list(
            "user_id", "value"
        )
    )
    return StandingsView(
        standings, users, ratings, [(k, say(METRICS[k].label)) for k in criteria], handicapped
    )


def league_results(league: League, *, include_void: bool = True) -> QuerySet[Result]:
    qs = Result.objects.filter(league=league).select_related("battle__campaign", "entered_by")
    if not include_void:
        qs = qs.filter(status=Result.Status.ACTIVE)
    players = ResultPlayer.objects.select_related("user").order_by("team", "id")
    trace = ResultCorrection.objects.select_related("actor").order_by("created_at", "id")
    return qs.prefetch_related(
        Prefetch("players", queryset=players), Prefetch("trace", queryset=trace)
    ).order_by("-played_on", "-id")


def league_ratings(league: League, method: str = Rating.Method.ELO) -> QuerySet[Rating]:
    return (
        Rating.objects.filter(league=league, method=method)
        .select_related("user")
        .order_by("-value", "user__username")
    )


def league_balance(league: League) -> list[BalanceRow]:
    return scenario_balance(league_games(league), min_plays=league.balance_min_plays)


def leagues_for_club(club: Club) -> QuerySet[League]:
    return League.objects.filter(club=club).annotate(
        n_results=Count("results", filter=Q(results__status=Result.Status.ACTIVE))
    )


# --- Clubs ------------------------------------------------------------------------------------


def club_get(slug: str) -> Club:
    members = ClubMembership.objects.select_related("user").order_by("-role", "user__username")
    return Club.objects.prefetch_related(Prefetch("memberships", queryset=members)).get(slug=slug)


def club_battles(
    club: Club,
    user,
    *,
    q: str = "",
    system: str = "",
    finished: str = "",
    player: str = "",
) -> QuerySet[Battle]:
    """Battles of the club's campaigns the user may see, filtered and searched."""
    visible = Campaign.objects.filter(visible_campaigns_q(user)).values("pk")
    qs = Battle.objects.filter(campaign__club=club, campaign__in=visible)
    if system:
        qs = qs.filter(campaign__system=system)
    if finished == "yes":
        qs = qs.exclude(result={})
    elif finished == "no":
        qs = qs.filter(result={})
    if player:
        qs = qs.filter(campaign__sides__seats__user__username=player)
    if q:
        qs = qs.filter(
            Q(campaign__name__icontains=q)
            | Q(position__icontains=q)
            | Q(campaign__template__icontains=q)
            | Q(winner__name__icontains=q)
        )
    return (
        Battle.objects.filter(pk__in=qs.values("pk"))
        .select_related("campaign", "winner")
        .order_by("-created_at", "-id")
    )


def league_results_window(league, *, cursor: str | None = None) -> Page:
    """A league's results (void ones too, marked), latest played first, with their players
    and trace: 3 queries."""
    return results_window(league_results(league), context=f"league:{league.pk}", cursor=cursor)


def club_battles_window(club, user, *, cursor: str | None = None, size: int = 25, **filters):
    """The club's battles the user may see, filtered, latest first: one query."""
    return seek(
        club_battles(club, user, **filters),
        ("created_at", "id"),
        cursor=cursor,
        context=f"club:{club.pk}",
        size=size,
        parse=[as_datetime, as_int],
    )


def clubs_of_member(user) -> QuerySet[Club]:
    """The clubs the user belongs to (as member or organiser), by name."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user).order_by("name")


def club_campaigns(club: Club, user) -> QuerySet[Campaign]:
    visible = Campaign.objects.filter(visible_campaigns_q(user)).values("pk")
    return Campaign.objects.filter(club=club, pk__in=visible).order_by("-updated_at", "-id")


# --- Player profile ---------------------------------------------------------------------------


@dataclass
class Tally:
    label: str
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, score: float) -> None:
        self.played += 1
        if score == 1.0:
            self.wins += 1
        elif score == 0.5:
            self.draws += 1
        else:
            self.losses += 1

    @property
    def win_pct(self) -> float:
        return self.wins / self.played if self.played else 0.0


def player_profile(player, *, cursor: str | None = None) -> dict[str, Any]:
    """Record by system, scenario and opponent (counted in the database), rating charts
    (sampled), a window of results latest first, current ratings (6 queries)."""
    current = list(
        Rating.objects.filter(user=player)
        .select_related("league")
        .order_by("system", "method", "league_id")
    )
    return {
        **player_tallies(player, Tally),
        "results": player_results(player, cursor=cursor),
        "charts": rating_charts(player),
        "ratings": current,
    }


# --- Histories --------------------------------------------------------------------------------


def public_log(campaign: Campaign) -> QuerySet[LogEntry]:
    """The log as a history page shows it: never an entry private to a side."""
    return (
        LogEntry.objects.filter(campaign=campaign, private_to__isnull=True)
        .select_related("actor", "battle")
        .order_by("seq")
    )


def public_decisions(campaign: Campaign) -> QuerySet[Decision]:
    """Decisions anyone may see: a sealed one only once revealed (an applied sealed answer
    may still wait for its sibling)."""
    return Decision.objects.filter(campaign=campaign).filter(
        Q(sealed=False) | Q(revealed_at__isnull=False)
    )


def balance_rows(rows: list[BalanceRow]) -> list[dict[str, Any]]:
    return [
        {
            "row": r,
            "pct": round(100 * r.win_pct),
            "low": round(100 * r.low),
            "high": round(100 * r.high),
        }
        for r in rows
    ]


__all__ = [
    "balance_rows",
    "battle_timeline",
    "campaign_history",
    "club_battles",
    "club_battles_window",
    "club_campaigns",
    "club_get",
    "clubs_of_member",
    "league_balance",
    "league_games",
    "league_get",
    "league_ratings",
    "league_results",
    "league_results_window",
    "league_standings",
    "leagues_for_club",
    "leagues_to_record",
    "player_profile",
    "public_decisions",
    "public_log",
    "recordable_operations",
    "recordable_skirmishes",
    "results_to_confirm",
    "wilson_interval",
]


# --- Games to record, results to confirm -------------------------------------------------------


def recordable_skirmishes(league: League, limit: int = 50) -> list[SkirmishBattle]:
    """Finished skirmishes of the league's game, played by members of its club, not yet in
    the league, latest first (2 queries)."""
    members = ClubMembership.objects.filter(club_id=league.club_id).values("user_id")
    qs = (
        SkirmishBattle.objects.filter(
            system=league.system,
            status=SkirmishBattle.Status.FINISHED,
            sides__player__in=members,
        )
        .exclude(league_results__league=league)
        .distinct()
        .order_by("-finished_at", "-id")
    )
    return list(qs.prefetch_related("sides__player")[:limit])


def recordable_operations(league: League, limit: int = 50) -> list[Campaign]:
    """Finished TCS operations of the league's club not yet in the league (1 query)."""
    if league.system != GameSystem.TCS:
        return []
    return list(
        Campaign.objects.filter(
            club_id=league.club_id, template=TCS_TEMPLATE, status=Campaign.Status.FINISHED
        )
        .exclude(league_results__league=league)
        .order_by("-updated_at", "-id")[:limit]
    )


def leagues_to_record(user, system: str) -> list[League]:
    """Open leagues of a game in the user's clubs: where he may record (organiser) or
    report (member) a game."""
    if not user.is_authenticated:
        return []
    return list(
        League.objects.filter(
            system=system, status=League.Status.OPEN, club__memberships__user=user
        )
        .select_related("club")
        .order_by("club__name", "name", "season")
    )


def results_to_confirm(user) -> QuerySet[Result]:
    """Results another player reported that name this user on the other side: his to confirm
    or dispute (one query)."""
    if not user.is_authenticated:
        return Result.objects.none()
    seats = ResultPlayer.objects.filter(result_id=OuterRef("pk"))
    return (
        Result.objects.filter(status=Result.Status.REPORTED)
        .annotate(
            my_team=Subquery(seats.filter(user=user).values("team")[:1]),
            reporter_team=Subquery(
                seats.filter(user_id=OuterRef("entered_by_id")).values("team")[:1]
            ),
        )
        .filter(my_team__isnull=False)
        .exclude(my_team=F("reporter_team"))
        .select_related("league")
        .order_by("-played_on", "-id")
    )

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
from django.db.models import Count, Prefetch, Q, QuerySet

from campaigns.models import (
    Battle,
    Campaign,
    Club,
    ClubMembership,
    Decision,
    League,
    LeagueParticipant,
    LogEntry,
    Rating,
    RatingSnapshot,
    Result,
    ResultCorrection,
    ResultPlayer,
    bounds,
)
from campaigns.permissions import visible_campaigns_q
from rules.ratings import (
    CCDetail,
    Game,
    Outcome,
    PointsScheme,
    Standings,
    compute_standings,
    scenario_balance,
)
from rules.ratings.balance import BalanceRow, wilson_interval
from rules.ratings.charts import Series, line_chart
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
    """The table (5 queries): games (2), participants with their users, current Elo."""
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
    if standings is None:
        games = league_games(league)
        standings = compute_standings(
            games,
            players=[e.user_id for e in entries],
            scheme=points_scheme(league),
            criteria=criteria,
            handicapped=handicapped,
            apply_handicap=league.apply_cc_handicap,
            sort_key=lambda p: users[p].username if p in users else f"~{p}",
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
        standings, users, ratings, [(k, METRICS[k].label) for k in criteria], handicapped
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


def player_profile(player) -> dict[str, Any]:
    """Record by system, scenario and opponent; rating charts; recent results (6 queries)."""
    mine = list(
        ResultPlayer.objects.filter(user=player, result__status=Result.Status.ACTIVE).values_list(
            "result_id", "team"
        )
    )
    ids = [rid for rid, _team in mine]
    results = {
        r["id"]: r
        for r in Result.objects.filter(pk__in=ids).values(
            "id",
            "outcome",
            "played_on",
            "scenario",
            "side_a",
            "side_b",
            "league_id",
            "league__name",
            "league__season",
            "league__system",
            "battle_id",
            "battle__number",
            "battle__campaign_id",
        )
    }
    others = list(
        ResultPlayer.objects.filter(result_id__in=ids)
        .exclude(user=player)
        .values_list("result_id", "user__username", "team")
    )
    by_system: dict[str, Tally] = {}
    by_scenario: dict[str, Tally] = {}
    by_opponent: dict[str, Tally] = {}
    team_of = dict(mine)
    opponents: dict[int, list[str]] = defaultdict(list)
    partners: dict[int, list[str]] = defaultdict(list)
    for rid, name, team in others:
        (partners if team == team_of[rid] else opponents)[rid].append(name)
    rows = []
    for rid, team in mine:
        r = results[rid]
        score = 0.5 if r["outcome"] == "draw" else (1.0 if r["outcome"] == team else 0.0)
        system = r["league__system"]
        by_system.setdefault(system, Tally(system)).add(score)
        scen = r["scenario"] or "—"
        by_scenario.setdefault(scen, Tally(scen)).add(score)
        for name in opponents[rid]:
            by_opponent.setdefault(name, Tally(name)).add(score)
        rows.append(
            {
                **r,
                "score": score,
                "side": r["side_a"] if team == "a" else r["side_b"],
                "opponents": opponents[rid],
                "partners": partners[rid],
            }
        )
    rows.sort(key=lambda r: (r["played_on"], r["id"]), reverse=True)
    history = list(
        RatingSnapshot.objects.filter(user=player)
        .order_by("system", "method", "league_id", "seq")
        .values_list("system", "method", "league_id", "league__name", "value", "played_on")
    )
    charts = {}
    series: dict[tuple[str, str], dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for system, method, _lid, lname, value, _day in history:
        pts = series[(system, method)][lname]
        pts.append((len(pts), round(value, 1)))
    for (system, method), by_league in series.items():
        charts[(system, method)] = line_chart(
            [Series(name, pts) for name, pts in by_league.items()],
            title=f"{system} {method}",
        )
    current = list(
        Rating.objects.filter(user=player)
        .select_related("league")
        .order_by("system", "method", "league_id")
    )
    return {
        "by_system": sorted(by_system.values(), key=lambda t: t.label),
        "by_scenario": sorted(by_scenario.values(), key=lambda t: (-t.played, t.label)),
        "by_opponent": sorted(by_opponent.values(), key=lambda t: (-t.played, t.label)),
        "results": rows[:100],
        "charts": [
            {"system": s, "method": m, "svg": svg} for (s, m), svg in sorted(charts.items())
        ],
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


def battle_timeline(battle: Battle) -> dict[str, Any]:
    """The battle's public log with VP and casualties over the log (2 queries)."""
    entries = list(public_log(battle.campaign).filter(battle=battle))
    vp, casualties = [(0, 0)], [(0, 0)]
    vp_total = cas_total = 0
    for i, entry in enumerate(entries, start=1):
        data = entry.data or {}
        delta = data.get("vp_delta")
        if isinstance(delta, int | float) and not isinstance(delta, bool):
            vp_total += delta
            vp.append((i, vp_total))
        if data.get("category") == "casualty":
            cas_total += 1
            casualties.append((i, cas_total))
    return {
        "entries": entries,
        "vp_total": vp_total,
        "casualties_total": cas_total,
        "vp_svg": line_chart([Series("VP", vp)], title="VP", step=True),
        "casualties_svg": line_chart(
            [Series("Casualties", casualties)], title="Casualties", step=True
        ),
    }


def campaign_history(campaign: Campaign) -> dict[str, Any]:
    """Battles in order with the position path, and the public log (3 queries)."""
    battles = list(
        Battle.objects.filter(campaign=campaign).select_related("winner").order_by("number")
    )
    path = [b.position for b in battles if b.position]
    current = (campaign.state or {}).get("position")
    if current and (not path or path[-1] != current):
        path.append(current)
    return {"battles": battles, "path": path, "log": list(public_log(campaign))}


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
    "club_campaigns",
    "club_get",
    "league_balance",
    "league_games",
    "league_get",
    "league_ratings",
    "league_results",
    "league_standings",
    "leagues_for_club",
    "player_profile",
    "public_decisions",
    "public_log",
    "wilson_interval",
]

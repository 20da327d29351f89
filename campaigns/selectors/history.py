"""Windows over the lists that grow with history: logs, battles, results, rating histories.

Every list is read newest first, one window at a time, by a seek on an indexed order
(campaigns/paging.py): never an OFFSET, never a COUNT over the history. The cursor of the
next (older) window is sealed, so it shows neither the writing order of the log nor anything
about the entries the viewer may not see. Charts draw from series aggregated in the database
(a bounded number of buckets or sampled points), never from every row.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, Mod, RowNumber
from django.utils.translation import gettext

from campaigns.models import (
    Battle,
    Campaign,
    GameSystem,
    LogEntry,
    Rating,
    Result,
    ResultPlayer,
    Side,
)
from campaigns.models.leagues import ScenarioRecord, StandingMatchup
from campaigns.paging import Window as Page
from campaigns.paging import as_date, as_int, seek
from campaigns.permissions import Viewer
from campaigns.selectors.campaigns import campaign_log
from rules.ratings.charts import Series, line_chart

LOG_WINDOW = 30  # the campaign and battle pages, re-rendered after every play action
HISTORY_WINDOW = 50  # the full log and the history pages
BATTLES_WINDOW = 20
RESULTS_WINDOW = 25
TALLY_ROWS = 30  # scenarios and opponents shown in a profile's record


# --- Logs -------------------------------------------------------------------------------------


def _log_context(campaign: Campaign) -> str:
    return f"log:{campaign.pk}"


def log_window(
    campaign: Campaign,
    viewer: Viewer,
    *,
    kind: str | None = None,
    battle: Battle | None = None,
    battle_number: int | None = None,
    cursor: str | None = None,
    size: int = LOG_WINDOW,
) -> Page:
    """The newest ``size`` entries this viewer may see (another side's private entries are
    left out, as in ``campaign_log``), before ``cursor``: one query."""
    qs = campaign_log(campaign, viewer, kind=kind).select_related("battle")
    if battle is not None:
        qs = qs.filter(battle=battle)
    if battle_number is not None:
        qs = qs.filter(battle__number=battle_number)
    return seek(
        qs, ("seq",), cursor=cursor, context=_log_context(campaign), size=size, parse=[as_int]
    )


def public_log_window(
    campaign: Campaign,
    *,
    battle: Battle | None = None,
    cursor: str | None = None,
    size: int = HISTORY_WINDOW,
) -> Page:
    """The newest public entries (never one private to a side) before ``cursor``."""
    qs = LogEntry.objects.filter(campaign=campaign, private_to__isnull=True).select_related(
        "actor", "battle"
    )
    if battle is not None:
        qs = qs.filter(battle=battle)
    return seek(
        qs, ("seq",), cursor=cursor, context=_log_context(campaign), size=size, parse=[as_int]
    )


class JSONNumber(Func):
    """``data[key]`` as a float when it is a JSON number, else NULL (a string, a boolean or
    a null never breaks the sum)."""

    output_field = FloatField()

    def __init__(self, expression, key: str):
        self.key = key
        super().__init__(expression)

    def as_sql(self, compiler, connection, **extra):  # SQLite
        column, params = compiler.compile(self.source_expressions[0])
        path = f"$.{self.key}"
        sql = (
            f"CASE WHEN json_type({column}, %s) IN ('integer', 'real') "
            f"THEN json_extract({column}, %s) END"
        )
        return sql, (*params, path, *params, path)

    def as_postgresql(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        sql = (
            f"CASE WHEN jsonb_typeof({column} -> %s) = 'number' "
            f"THEN ({column} ->> %s)::double precision END"
        )
        return sql, (*params, self.key, *params, self.key)


TIME_POINTS = 40
"""Points at most of a battle's VP and casualty charts (one per Time track space)."""


def battle_series(battle: Battle) -> dict[str, Any]:
    """VP and casualties of a battle's public log against its Time track: the events are
    summed per Time marker space (the count of "Time track advance" events logged before
    them) in the database, so a chart has one point per space, whatever the log's length
    (3 queries: the spaces, the slice boundaries, the sums)."""
    public = LogEntry.objects.filter(
        campaign_id=battle.campaign_id, battle=battle, private_to__isnull=True
    )
    vp = JSONNumber("data", "vp_delta")
    casualty = Q(data__category__in=("casualty", "kia"))
    # A Time track has a dozen spaces; should far more advances be logged, neighbouring
    # spaces share a point, so a chart never has more than about TIME_POINTS of them.
    times = public.filter(data__category="time").order_by().values("battle")
    # the first side's name (VP count toward it) and the number of advances, in one query
    first, spaces = (
        Side.objects.filter(campaign_id=battle.campaign_id)
        .order_by("order")
        .annotate(spaces=Coalesce(Subquery(times.annotate(n=Count("pk")).values("n")[:1]), 0))
        .values_list("name", "spaces")
        .first()
    ) or ("", times.count())
    width = -(-(spaces + 1) // TIME_POINTS)
    # an entry's space is the number of advances logged up to it; its slice, the number of
    # slice boundaries (every `width`-th advance) at or before it: one scan, no subquery a row
    bounds = list(
        public.filter(data__category="time")
        .annotate(rn=Window(RowNumber(), order_by=F("seq").asc()))
        .filter(rn__gte=width)
        .annotate(step=Mod(F("rn"), Value(width)))
        .filter(step=0)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    slice_of = Case(
        *[When(seq__gte=b, then=Value(n)) for n, b in reversed(list(enumerate(bounds, 1)))],
        default=Value(0),
        output_field=IntegerField(),
    )
    rows = (
        public.annotate(slice=slice_of)
        .values("slice")
        .annotate(vp=Sum(vp), casualties=Count("pk", filter=casualty))
        .order_by("slice")
    )
    vp_total = cas_total = 0
    table, vp_points, cas_points = [], [(0, 0)], [(0, 0)]
    for row in rows:
        space = min(row["slice"] * width + width - 1, spaces)  # the slice's last space
        vp_total += row["vp"] or 0
        cas_total += row["casualties"]
        table.append({"space": space, "vp": _number(vp_total), "casualties": cas_total})
        vp_points.append((space, _number(vp_total)))
        cas_points.append((space, cas_total))
    time = gettext("Time track space")
    return {
        "vp_total": _number(vp_total),
        "casualties_total": cas_total,
        "chart_rows": table,
        "vp_first_side": first or "",
        "vp_svg": line_chart(
            [Series(gettext("VP, + toward %(side)s") % {"side": first or "?"}, vp_points)],
            title=gettext("VP against the Time track"),
            step=True,
            x_label=time,
            y_label=gettext("VP"),
        ),
        "casualties_svg": line_chart(
            [Series(gettext("Casualties"), cas_points)],
            title=gettext("Casualties against the Time track"),
            step=True,
            x_label=time,
            y_label=gettext("Casualties"),
        ),
    }


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def battle_timeline(battle: Battle, *, cursor: str | None = None) -> dict[str, Any]:
    """The battle's public log, newest first, a window at a time, with VP and casualties
    charted from aggregates (4 queries)."""
    return {
        "entries": public_log_window(battle.campaign, battle=battle, cursor=cursor),
        **battle_series(battle),
    }


# --- Battles ----------------------------------------------------------------------------------


def battles_window(
    campaign: Campaign, *, cursor: str | None = None, size: int = BATTLES_WINDOW
) -> Page:
    """The campaign's latest battles (by number, newest first) before ``cursor``: one query.
    Without each battle's copy of the campaign state before it (it grows with the campaign)."""
    qs = Battle.objects.filter(campaign=campaign).select_related("winner").defer("state_before")
    return seek(
        qs,
        ("number",),
        cursor=cursor,
        context=f"battles:{campaign.pk}",
        size=size,
        parse=[as_int],
    )


def campaign_history(
    campaign: Campaign, *, cursor: str | None = None, battles_cursor: str | None = None
) -> dict[str, Any]:
    """The position path (one position per battle), a window of battles and a window of the
    public log (3 queries)."""
    positions = Battle.objects.filter(campaign=campaign).order_by("number")
    path = [p for p in positions.values_list("position", flat=True) if p]
    current = (campaign.state or {}).get("position")
    if current and (not path or path[-1] != current):
        path.append(current)
    return {
        "battles": battles_window(campaign, cursor=battles_cursor),
        "path": path,
        "log": public_log_window(campaign, cursor=cursor),
    }


# --- Results ----------------------------------------------------------------------------------


def results_window(
    qs: QuerySet[Result], *, context: str, cursor: str | None = None, size: int = RESULTS_WINDOW
) -> Page:
    """Results latest played first (ties: latest entered), before ``cursor``: one query
    (plus the queryset's prefetches for the window's rows)."""
    return seek(
        qs,
        ("played_on", "id"),
        cursor=cursor,
        context=context,
        size=size,
        parse=[as_date, as_int],
    )


def player_results(player, *, cursor: str | None = None, size: int = RESULTS_WINDOW) -> Page:
    """A player's counting results, latest first, with side, score, partners and opponents
    (2 queries)."""
    mine = ResultPlayer.objects.filter(result=OuterRef("pk"), user=player).values("team")[:1]
    qs = (
        Result.objects.filter(status=Result.Status.ACTIVE, players__user=player)
        .annotate(team=Subquery(mine))
        .values(
            "id",
            "team",
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
    )
    page = results_window(qs, context=f"player:{player.pk}", cursor=cursor, size=size)
    ids = [r["id"] for r in page.rows]
    others: dict[int, list[tuple[str, str]]] = {}
    for rid, name, team in (
        ResultPlayer.objects.filter(result_id__in=ids)
        .exclude(user=player)
        .order_by("team", "id")
        .values_list("result_id", "user__username", "team")
    ):
        others.setdefault(rid, []).append((name, team))
    for r in page.rows:
        team = r["team"]
        r["score"] = _score(r["outcome"], team)
        r["side"] = r["side_a"] if team == "a" else r["side_b"]
        r["opponents"] = [n for n, t in others.get(r["id"], []) if t != team]
        r["partners"] = [n for n, t in others.get(r["id"], []) if t == team]
    return page


def _score(outcome: str, team: str) -> float:
    return 0.5 if outcome == "draw" else (1.0 if outcome == team else 0.0)


def player_tallies(player, tally) -> dict[str, list]:
    """Record by system, by scenario and by opponent, summed from the aggregates the result
    writes keep (`ScenarioRecord`, `StandingMatchup`): rows per league, scenario and opponent
    team, never per result (3 queries); the most played scenarios and opponents, at most
    ``TALLY_ROWS`` of each."""
    by_system: dict[str, Any] = {}
    by_scenario: dict[str, Any] = {}
    records = ScenarioRecord.objects.filter(user=player).values_list(
        "league__system", "scenario", *ScenarioRecord.COUNTS
    )
    for system, scenario, *counts in records:
        for key, into in ((system, by_system), (scenario or "—", by_scenario)):
            _count(into.setdefault(key, tally(key)), counts)
    against: dict[int, list[int]] = {}
    matchups = StandingMatchup.objects.filter(user=player).values_list(
        "opponents", *ScenarioRecord.COUNTS
    )
    for opponents, *counts in matchups:
        for other in opponents.split(","):
            row = against.setdefault(int(other), [0, 0, 0, 0])
            for i, n in enumerate(counts):
                row[i] += n
    most = sorted(against.items(), key=lambda kv: -kv[1][0])
    least = most[TALLY_ROWS - 1][1][0] if len(most) >= TALLY_ROWS else 0
    shown = [(u, c) for u, c in most if c[0] >= least]  # ties are ordered by name below
    names = dict(
        get_user_model().objects.filter(pk__in=[u for u, _c in shown]).values_list("pk", "username")
    )
    by_opponent = [_count(tally(names[u]), c) for u, c in shown if u in names]
    by_opponent.sort(key=lambda t: (-t.played, t.label))
    scenarios = sorted(by_scenario.values(), key=lambda t: (-t.played, t.label))
    return {
        "by_system": sorted(by_system.values(), key=lambda t: t.label),
        "by_scenario": scenarios[:TALLY_ROWS],
        "by_opponent": by_opponent[:TALLY_ROWS],
    }


def _count(t, counts) -> Any:
    played, wins, draws, losses = counts
    t.played += played
    t.wins += wins
    t.draws += draws
    t.losses += losses
    return t


def rating_charts(player) -> list[dict[str, Any]]:
    """One chart per system and method, one line per league, from the thinned histories the
    rating update keeps on each rating (one query, a row per league and method)."""
    series: dict[tuple[str, str], dict[str, list]] = {}
    rows = (
        Rating.objects.filter(user=player)
        .order_by("system", "method", "league_id")
        .values_list("system", "method", "league__name", "chart")
    )
    for system, method, league, chart in rows:
        if chart:
            series.setdefault((system, method), {})[league] = [tuple(p) for p in chart]
    systems, methods = dict(GameSystem.choices), dict(Rating.Method.choices)
    return [
        {
            "system": system,
            "method": method,
            "name": f"{systems.get(system, system)} · {methods.get(method, method)}",
            "svg": line_chart(
                [Series(name, pts) for name, pts in by_league.items()],
                title=f"{systems.get(system, system)} · {methods.get(method, method)}",
            ),
        }
        for (system, method), by_league in sorted(series.items())
    ]

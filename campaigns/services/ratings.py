"""League ratings kept up to date from the earliest change, not rebuilt after every result.

Every result write records, on the league row and in its own transaction, the earliest point
(date, result id) it changed, with the ratings version (`ratings_mark_dirty`). The rating
task (`league_ratings_update`) then replays from that point only: it deletes the snapshots
at or after it, takes each player's state from his last snapshot before it (or from his
current rating when nothing comes after the point: a result appended at the end), and rates
the results from there. Daily Elo periods replay from the start of the day. The full rebuild
streams every result and writes plain rows (COPY on PostgreSQL), in bounded memory.

No row lock is held while rating: an advisory lock queues two updates of one league, and
results can be entered meanwhile. A write that lands during an update keeps its mark (the
compare-and-set at the end clears it only if the version did not move), so the update its
commit queued redoes the work from there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import (
    BigIntegerField,
    Case,
    DateField,
    F,
    Min,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)

from campaigns.models import League, Rating, RatingSnapshot, Result, ResultPlayer
from campaigns.models.leagues import DEFAULT_K_BANDS
from campaigns.services._base import advisory_lock, retry_on_conflict
from rules.ratings import EloConfig
from rules.ratings.elo import Period
from rules.ratings.games import Game, Outcome
from rules.ratings.incremental import (
    EloStream,
    OpenSkillStream,
    PlayerState,
    Point,
)
from rules.ratings.sampling import Thinned

FROM_START = (dt.date.min, 0)
DATE, BIG = DateField(), BigIntegerField()
CHUNK = 20_000  # snapshot rows written at a time
CHART_POINTS = 60  # points of a player's rating chart, about
SNAPSHOT_COLUMNS = (
    "league_id", "system", "user_id", "method", "seq", "result_id", "played_on", "value",
    "delta", "mu", "sigma", "games",
)  # fmt: skip


def elo_config(league: League) -> EloConfig:
    return EloConfig(
        initial=league.elo_initial,
        k_bands=tuple((float(lo), float(k)) for lo, k in league.elo_k_bands or DEFAULT_K_BANDS),
        period=Period(league.elo_period),
    )


def ratings_mark_dirty(league_id: int, *points: tuple[dt.date, int]) -> None:
    """Bump the ratings version and keep the earliest changed point (none given: rebuild
    everything). Runs inside the caller's result write; one UPDATE of the league row."""
    day, rid = min(points) if points else FROM_START
    earlier = (
        Q(ratings_dirty_on__isnull=True)
        | Q(ratings_dirty_on__gt=day)
        | Q(ratings_dirty_on=day, ratings_dirty_result__gt=rid)
    )
    League.objects.filter(pk=league_id).update(
        ratings_version=F("ratings_version") + 1,
        ratings_dirty_on=Case(
            When(earlier, then=Value(day)), default=F("ratings_dirty_on"), output_field=DATE
        ),
        ratings_dirty_result=Case(
            When(earlier, then=Value(rid)), default=F("ratings_dirty_result"), output_field=BIG
        ),
    )


def _game_rows(league_id: int, start: tuple[dt.date, int]):
    """The seats of the league's counting results from `start` on, in rating order."""
    day, rid = start
    rows = ResultPlayer.objects.filter(
        result__league_id=league_id, result__status=Result.Status.ACTIVE
    )
    if start != FROM_START:
        rows = rows.filter(
            Q(result__played_on__gt=day) | Q(result__played_on=day, result_id__gte=rid)
        )
    return rows.order_by("result__played_on", "result_id", "id").values_list(
        "result_id", "result__played_on", "result__outcome", "user_id", "team"
    )


def _games(rows: Iterable[tuple]) -> Iterator[Game]:
    current, played_on, outcome, teams = None, None, None, ([], [])
    for result_id, day_, outcome_, user_id, team in rows:
        if result_id != current:
            if current is not None and teams[0] and teams[1]:
                yield Game(current, tuple(teams[0]), tuple(teams[1]), Outcome(outcome), played_on)
            current, played_on, outcome, teams = result_id, day_, outcome_, ([], [])
        teams[0 if team == "a" else 1].append(user_id)
    if current is not None and teams[0] and teams[1]:
        yield Game(current, tuple(teams[0]), tuple(teams[1]), Outcome(outcome), played_on)


def games_from(league_id: int, start: tuple[dt.date, int] = FROM_START) -> Iterator[Game]:
    """The league's counting results from `start` on, in rating order (date, then id),
    streamed from one query: only what rating reads (teams, outcome, date)."""
    return _games(_game_rows(league_id, start).iterator(chunk_size=CHUNK))


@contextmanager
def _games_on_own_connection(league_id: int, start: tuple[dt.date, int]) -> Iterator:
    """`games_from` read on a second PostgreSQL connection (a server-side cursor in a
    read-only transaction of its own), so that the main one can stream the snapshots."""
    sql, params = _game_rows(league_id, start).query.sql_with_params()
    reader = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        reader.ensure_connection()
        raw = reader.connection
        with raw.transaction(), raw.cursor(name="rating-games") as cursor:
            cursor.itersize = CHUNK
            cursor.execute(sql, params)
            yield _games(cursor)
    finally:
        reader.close()


def _column_types() -> list[str]:
    """The database types of the snapshot columns (binary COPY sends each exactly)."""
    fields = {f.column: f for f in RatingSnapshot._meta.concrete_fields}
    types = []
    for column in SNAPSHOT_COLUMNS:
        f = fields[column]
        db_type = f.rel_db_type(connection) if f.is_relation else f.db_type(connection)
        types.append(db_type.split("(")[0])
    return types


@contextmanager
def _snapshot_sink(streaming: bool) -> Iterator[Callable[[tuple], None]]:
    """Where the replay puts snapshot rows. Streaming (PostgreSQL, games read elsewhere):
    one binary COPY open for the whole replay, so the server stores rows while the next
    games are rated. Otherwise rows are written a chunk at a time (COPY or INSERT)."""
    table, columns = RatingSnapshot._meta.db_table, ", ".join(SNAPSHOT_COLUMNS)
    if streaming:
        with connection.cursor() as cursor:
            sql = f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)"
            with cursor.cursor.copy(sql) as copy:
                copy.set_types(_column_types())
                yield copy.write_row
        return
    buffer: list[tuple] = []

    def put(row: tuple) -> None:
        buffer.append(row)
        if len(buffer) >= CHUNK:
            _write_snapshots(buffer)
            buffer.clear()

    yield put
    _write_snapshots(buffer)


def _write_snapshots(rows: list[tuple]) -> None:
    if not rows:
        return
    table = RatingSnapshot._meta.db_table
    columns = ", ".join(SNAPSHOT_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # binary COPY: the least work on both ends
            sql = f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)"
            with cursor.cursor.copy(sql) as copy:
                copy.set_types(_column_types())
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(SNAPSHOT_COLUMNS))
            cursor.executemany(
                f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                [(*r[:6], r[6].isoformat() if r[6] else None, *r[7:]) for r in rows],
            )


def _state_before(league: League, method: str, cut: int | None) -> dict[int, PlayerState]:
    """Each rated player's state before snapshot `cut` (None: his current rating)."""
    if cut is None:
        rows = Rating.objects.filter(league=league, method=method).values_list(
            "user_id", "value", "mu", "sigma", "games"
        )
        return {u: PlayerState(v, mu, s, g) for u, v, mu, s, g in rows}
    last = (
        RatingSnapshot.objects.filter(
            user_id=OuterRef("user_id"), system=league.system, method=method, seq__lt=cut
        )
        .filter(league=league)
        .order_by("-seq")
        .values("seq")[:1]
    )
    seqs = [
        s
        for s in Rating.objects.filter(league=league, method=method)
        .annotate(last=Subquery(last))
        .values_list("last", flat=True)
        if s is not None
    ]
    rows = RatingSnapshot.objects.filter(league=league, method=method, seq__in=seqs).values_list(
        "user_id", "value", "mu", "sigma", "games"
    )
    return {u: PlayerState(v, mu, s, g) for u, v, mu, s, g in rows}


def _cut(league: League, method: str, start: tuple[dt.date, int]) -> tuple[int, dt.date] | None:
    """The first snapshot at or after `start`, and its day (None: nothing after it, an
    append). Snapshots follow the rating order, so their days never go down as seq goes up."""
    snaps = RatingSnapshot.objects.filter(league=league, method=method)
    day, rid = start
    seq = snaps.filter(played_on=day, result_id__gte=rid).aggregate(m=Min("seq"))["m"]
    if seq is not None:
        return seq, day
    later = snaps.filter(played_on__gt=day).order_by("played_on", "seq")
    return later.values_list("seq", "played_on").first()


def _next_seq(league: League, method: str) -> int:
    last = (
        RatingSnapshot.objects.filter(league=league, method=method, played_on__isnull=False)
        .order_by("-played_on", "-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return (last or 0) + 1


METHODS = (Rating.Method.ELO, Rating.Method.OPENSKILL)


def _undo_from(league: League, start: tuple[dt.date, int]) -> tuple[dict, dict, dict, bool]:
    """Drop the snapshots from `start` on and set up each method's stream from the states
    before it: (streams, next seq, players whose rating the undo touched) by method, and
    whether nothing had to be undone (an append)."""
    streams, seqs, touched = {}, {}, {}
    appended = start != FROM_START
    for method in METHODS:
        snaps = RatingSnapshot.objects.filter(league=league, method=method)
        if start == FROM_START:
            snaps.delete()
            Rating.objects.filter(league=league, method=method).delete()
            state, seqs[method], touched[method] = {}, 1, set()
        else:
            cut = _cut(league, method, start)
            state = _state_before(league, method, cut and cut[0])
            if cut is None:  # appended at the end: nothing to undo
                seqs[method] = _next_seq(league, method)
                touched[method] = set()
            else:
                appended = False
                later = snaps.filter(played_on__gte=cut[1], seq__gte=cut[0])
                touched[method] = set(later.values_list("user_id", flat=True).distinct())
                later.delete()
                seqs[method] = cut[0]
        if method == Rating.Method.ELO:
            streams[method] = EloStream(elo_config(league), state)
        else:
            streams[method] = OpenSkillStream(state)
    return streams, seqs, touched, appended


def _replay(league: League, start: tuple[dt.date, int], *, streaming: bool) -> dict[str, int]:
    streams, seqs, touched, appended = _undo_from(league, start)
    games = snapshots = 0
    # the charts: a rebuild thins every history as it goes; an append carries on from each
    # player's stored chart; a replay from the middle thins the touched histories afterwards
    charts: dict[tuple, Thinned] | None = {} if start == FROM_START else None
    new: dict[tuple, list[float]] = {}
    reading = _games_on_own_connection(league.pk, start) if streaming else nullcontext(None)
    with reading as read, _snapshot_sink(streaming) as put:

        def add(method: str, points: Iterable[Point]) -> None:
            nonlocal snapshots
            for p in points:
                if charts is not None:
                    chart = charts.get((p.player, method))
                    if chart is None:
                        chart = charts[p.player, method] = Thinned(CHART_POINTS)
                    chart.add(p.value)
                elif appended:
                    new.setdefault((p.player, method), []).append(p.value)
                put(
                    (
                        league.pk, league.system, p.player, method, seqs[method], p.game_id,
                        p.played_on, p.value, p.delta, p.mu, p.sigma, p.games,
                    )
                )  # fmt: skip
                seqs[method] += 1
                touched[method].add(p.player)
                snapshots += 1

        for game in read if read is not None else games_from(league.pk, start):
            games += 1
            for method in METHODS:
                add(method, streams[method].feed(game))
        for method in METHODS:
            add(method, streams[method].close())
    for method in METHODS:
        _save_ratings(league, method, streams[method].state, touched[method], start)
    if charts is None:
        users = set().union(*touched.values())
        charts = _continued(league, new) if appended else _thinned(league, users)
    _save_charts(league, {k: c.series() for k, c in charts.items()})
    return {"results": games, "snapshots": snapshots}


def _continued(league: League, new: dict[tuple, list[float]]) -> dict[tuple, Thinned]:
    """Each stored chart of these players carried on with their new ratings (an append)."""
    stored = Rating.objects.filter(league=league, user_id__in={u for u, _m in new})
    charts = {
        (u, m): Thinned.resume(CHART_POINTS, chart)
        for u, m, chart in stored.values_list("user_id", "method", "chart")
    }
    for key, values in new.items():
        chart = charts.setdefault(key, Thinned(CHART_POINTS))
        for value in values:
            chart.add(value)
    return charts


def _thinned(league: League, users: set[int]) -> dict[tuple, Thinned]:
    """These players' whole histories in the league, thinned again (a replay from the
    middle has not seen their earlier ratings): one streamed query."""
    charts: dict[tuple, Thinned] = {}
    rows = (
        RatingSnapshot.objects.filter(league=league, user_id__in=users)
        .order_by("user_id", "method", "seq")
        .values_list("user_id", "method", "value")
    )
    for user_id, method, value in rows.iterator(chunk_size=CHUNK):
        chart = charts.get((user_id, method))
        if chart is None:
            chart = charts[user_id, method] = Thinned(CHART_POINTS)
        chart.add(value)
    return charts


def _save_charts(league: League, series: dict[tuple, list]) -> None:
    """Keep each rated player's thinned history on his rating (the player page draws it)."""
    users = {u for u, _m in series}
    ratings = list(
        Rating.objects.filter(league=league, user_id__in=users).only("pk", "user_id", "method")
    )
    for rating in ratings:
        rating.chart = [list(p) for p in series.get((rating.user_id, rating.method), [])]
    Rating.objects.bulk_update(ratings, ["chart"], batch_size=2000)


def _save_ratings(league: League, method: str, state, touched: set, start) -> None:
    """Write the current rating of every player the replay touched (or drop it)."""
    gone = [p for p in touched if p not in state]
    if gone:
        Rating.objects.filter(league=league, method=method, user_id__in=gone).delete()
    rows = [
        Rating(
            league=league,
            system=league.system,
            user_id=p,
            method=method,
            value=s.value,
            mu=s.mu,
            sigma=s.sigma,
            games=s.games,
        )
        for p, s in state.items()
        if p in touched
    ]
    if start == FROM_START:
        Rating.objects.bulk_create(rows, batch_size=5000)
    else:
        Rating.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["league", "user", "method"],
            update_fields=["system", "value", "mu", "sigma", "games"],
        )


def _done(league_id: int, version: int) -> None:
    """Record the version rated; clear the mark unless a write came in meanwhile."""
    same = Q(ratings_version=version)
    League.objects.filter(pk=league_id).update(
        ratings_computed_version=version,
        ratings_dirty_on=Case(
            When(same, then=Value(None)), default=F("ratings_dirty_on"), output_field=DATE
        ),
        ratings_dirty_result=Case(
            When(same, then=Value(None)), default=F("ratings_dirty_result"), output_field=BIG
        ),
    )


@retry_on_conflict
def league_ratings_update(*, league_id: int, full: bool = False) -> dict[str, int]:
    """Bring a league's Elo and OpenSkill ratings and history up to date: from the earliest
    change since the last update, from the start when `full` (or when no change point is
    known), nothing when up to date. Idempotent."""
    # Outside any caller's transaction (the task), PostgreSQL can read the results on a
    # second connection while this one streams the snapshots; inside one (a test, a caller's
    # atomic block) the second connection would not see uncommitted results.
    streaming = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic():
        advisory_lock("league-ratings", league_id)
        league = League.objects.get(pk=league_id)
        version = league.ratings_version
        if full:
            start = FROM_START
        elif league.ratings_dirty_on is not None:
            start = (league.ratings_dirty_on, league.ratings_dirty_result or 0)
        elif league.ratings_computed_version != version:
            start = FROM_START
        else:
            return {"results": 0, "snapshots": 0}
        if start != FROM_START and league.elo_period == League.EloPeriod.DAY:
            start = (start[0], 0)  # the whole day is one Elo period
        report = _replay(league, start, streaming=streaming)
        _done(league.pk, version)
    return report

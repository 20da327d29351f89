"""The standings aggregates (`StandingMatchup`) and the players' records by scenario
(`ScenarioRecord`), kept up to date by the result writes.

Each result write calls `standings_apply` inside its own transaction, under the league lock:
it takes away what the result counted for before the change and adds what it counts for
after, so the table never needs to read every result. `standings_rebuild` sums them again
from all results (after a bulk import, or to repair).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F

from campaigns.models import Result, ResultPlayer
from campaigns.models.leagues import ScenarioRecord, StandingMatchup
from campaigns.selectors.leagues import results_to_games
from rules.ratings.games import Game
from rules.ratings.tables import Matchup, aggregate

FIELDS = ("games", "wins", "draws", "losses", "vp", "vp_boosted")
RECORD = ScenarioRecord.COUNTS
FEW = 8  # up to this many changed rows (one result): an UPDATE each, else in bulk
CHUNK = 5_000
RESULT_VALUES = ("id", "outcome", "played_on", "round", "scenario", "side_a", "side_b", "details")


def ids_key(players: Iterable[int]) -> str:
    return ",".join(str(p) for p in sorted(players))


def result_games(results: Iterable[Result]) -> list[Game]:
    """The counting games of these results as the standings read them (2 queries at most)."""
    active = [r for r in results if r.status == Result.Status.ACTIVE]
    if not active:
        return []
    players = list(
        ResultPlayer.objects.filter(result__in=[r.pk for r in active])
        .order_by("id")
        .values_list("result_id", "user_id", "team")
    )
    rows = [
        {
            "id": r.pk,
            "outcome": r.outcome,
            "played_on": r.played_on,
            "round": r.round,
            "scenario": r.scenario,
            "side_a": r.side_a,
            "side_b": r.side_b,
            "details": r.details,
        }
        for r in active
    ]
    return results_to_games(rows, players)


def _rows(league_id: int, matchups: Iterable[Matchup]) -> list[StandingMatchup]:
    return [
        StandingMatchup(
            league_id=league_id,
            user_id=m.player,
            team=ids_key(m.team),
            opponents=ids_key(m.opponents),
            **{f: getattr(m, f) for f in FIELDS},
        )
        for m in matchups
    ]


def _merge(target: dict[tuple, Matchup], rows: Iterable[Matchup], sign: int = 1) -> None:
    for m in rows:
        k = (m.player, m.team, m.opponents)
        row = target.get(k)
        if row is None:
            row = target[k] = Matchup(m.player, m.team, m.opponents)
        for f in FIELDS:
            setattr(row, f, getattr(row, f) + sign * getattr(m, f))


def standings_apply(
    league_id: int, *, removed: Iterable[Game] = (), added: Iterable[Game] = ()
) -> None:
    """Take `removed` games out of the league's aggregates and put `added` in (inside the
    caller's transaction, which holds the league lock)."""
    added, removed = list(added), list(removed)
    _apply_records(league_id, _records(added, removed))
    delta: dict[tuple, Matchup] = {}
    _merge(delta, aggregate(added).values())
    _merge(delta, aggregate(removed).values(), -1)
    delta = {k: m for k, m in delta.items() if any(getattr(m, f) for f in FIELDS)}
    if not delta:
        return
    if len(delta) <= FEW:
        for row in _rows(league_id, delta.values()):
            found = StandingMatchup.objects.filter(
                league_id=league_id, user_id=row.user_id, team=row.team, opponents=row.opponents
            )
            if not found.update(**{f: F(f) + getattr(row, f) for f in FIELDS}):
                row.save(force_insert=True)
    else:  # many rows (an import): read the players' rows once, write in bulk
        new = {(r.user_id, r.team, r.opponents): r for r in _rows(league_id, delta.values())}
        old = StandingMatchup.objects.filter(
            league_id=league_id, user_id__in={m.player for m in delta.values()}
        )
        changed = []
        for row in old:
            add = new.pop((row.user_id, row.team, row.opponents), None)
            if add is not None:
                for f in FIELDS:
                    setattr(row, f, getattr(row, f) + getattr(add, f))
                changed.append(row)
        StandingMatchup.objects.bulk_update(changed, FIELDS, batch_size=2000)
        StandingMatchup.objects.bulk_create(list(new.values()), batch_size=2000)
    StandingMatchup.objects.filter(league_id=league_id, games__lte=0).delete()


def _records(added: Iterable[Game], removed: Iterable[Game] = ()) -> dict[tuple, list[int]]:
    """(player, scenario) -> [games, wins, draws, losses] that these games add (and take)."""
    delta: dict[tuple, list[int]] = {}
    for games, sign in ((added, 1), (removed, -1)):
        for game in games:
            for player in game.players:
                score = game.score(player)
                row = delta.setdefault((player, game.scenario), [0, 0, 0, 0])
                for i, n in enumerate((1, score == 1.0, score == 0.5, score == 0.0)):
                    row[i] += sign * int(n)
    return {k: v for k, v in delta.items() if any(v)}


def _apply_records(league_id: int, delta: dict[tuple, list[int]]) -> None:
    if not delta:
        return
    old = {
        (r.user_id, r.scenario): r
        for r in ScenarioRecord.objects.filter(
            league_id=league_id, user_id__in={p for p, _s in delta}
        )
    }
    changed, new = [], []
    for (player, scenario), counts in delta.items():
        row = old.get((player, scenario))
        if row is None:
            row = ScenarioRecord(league_id=league_id, user_id=player, scenario=scenario)
            new.append(row)
        else:
            changed.append(row)
        for f, n in zip(RECORD, counts, strict=True):
            setattr(row, f, getattr(row, f) + n)
    ScenarioRecord.objects.bulk_update(changed, RECORD, batch_size=2000)
    ScenarioRecord.objects.bulk_create(new, batch_size=2000)
    ScenarioRecord.objects.filter(league_id=league_id, games__lte=0).delete()


def standings_rebuild(league_id: int) -> int:
    """Sum a league's aggregates again from all its counting results, a chunk of results at
    a time; answers the number of rows written."""
    totals: dict[tuple, Matchup] = {}
    records: dict[tuple, list[int]] = {}
    with transaction.atomic():
        results = Result.objects.filter(league_id=league_id, status=Result.Status.ACTIVE).order_by(
            "id"
        )
        after = 0
        while True:
            rows = list(results.filter(id__gt=after).values(*RESULT_VALUES)[:CHUNK])
            if not rows:
                break
            after = rows[-1]["id"]
            players = list(
                ResultPlayer.objects.filter(result_id__in=[r["id"] for r in rows])
                .order_by("id")
                .values_list("result_id", "user_id", "team")
            )
            games = results_to_games(rows, players)
            _merge(totals, aggregate(games).values())
            for k, counts in _records(games).items():
                row = records.setdefault(k, [0, 0, 0, 0])
                for i, n in enumerate(counts):
                    row[i] += n
        StandingMatchup.objects.filter(league_id=league_id).delete()
        ScenarioRecord.objects.filter(league_id=league_id).delete()
        ScenarioRecord.objects.bulk_create(
            (
                ScenarioRecord(
                    league_id=league_id, user_id=p, scenario=s, **dict(zip(RECORD, c, strict=True))
                )
                for (p, s), c in records.items()
            ),
            batch_size=5000,
        )
        matchups = _rows(league_id, (m for m in totals.values() if m.games > 0))
        StandingMatchup.objects.bulk_create(matchups, batch_size=5000)
    return len(matchups)


__all__ = [
    "result_games",
    "standings_apply",
    "standings_rebuild",
]

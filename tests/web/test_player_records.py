"""The player page's records come from aggregates the result writes keep (issue 16): they
must always equal a count over the player's counting results, through entries, corrections,
voids, restores, team games and a rebuild."""

import pytest
from django.db.models import Count, F, Q

from campaigns.models import Result, ResultPlayer
from campaigns.models.leagues import ScenarioRecord
from campaigns.selectors.history import player_tallies
from campaigns.selectors.leagues import Tally
from campaigns.services.leagues import result_correct, result_restore, result_void
from campaigns.services.standings import standings_rebuild
from tests.web.leagues_helpers import club, enter, league, members, organiser  # noqa: F401

pytestmark = pytest.mark.django_db


def counted(player) -> dict:
    """The record read straight from the results (what the aggregates must equal)."""
    seats = ResultPlayer.objects.filter(user=player, result__status=Result.Status.ACTIVE)
    rows = seats.values("result__scenario").annotate(
        played=Count("pk"),
        wins=Count("pk", filter=Q(result__outcome=F("team"))),
        draws=Count("pk", filter=Q(result__outcome="draw")),
    )
    scenarios = {(r["result__scenario"] or "—"): (r["played"], r["wins"], r["draws"]) for r in rows}
    opponents: dict[str, list[int]] = {}
    for seat in seats.select_related("result"):
        for other in ResultPlayer.objects.filter(result=seat.result).exclude(team=seat.team):
            row = opponents.setdefault(other.user.username, [0, 0, 0])
            row[0] += 1
            row[1] += seat.result.outcome == seat.team
            row[2] += seat.result.outcome == "draw"
    return {"scenarios": scenarios, "opponents": {k: tuple(v) for k, v in opponents.items()}}


def shown(player) -> dict:
    t = player_tallies(player, Tally)
    return {
        "scenarios": {s.label: (s.played, s.wins, s.draws) for s in t["by_scenario"]},
        "opponents": {o.label: (o.played, o.wins, o.draws) for o in t["by_opponent"]},
        "system": [(s.label, s.played) for s in t["by_system"]],
    }


def check(players):
    for player in players.values():
        got, want = shown(player), counted(player)
        assert got["scenarios"] == want["scenarios"]
        assert got["opponents"] == want["opponents"]
        played = sum(v[0] for v in want["scenarios"].values())
        assert got["system"] == ([("cc", played)] if played else [])


def test_records_follow_every_kind_of_result_write(league, organiser, members):  # noqa: F811
    ann, ben, cat, dan = (members[n] for n in ("ann", "ben", "cat", "dan"))
    first = enter(league, organiser, ann, ben, "a", scenario="Kurgan")
    enter(league, organiser, ben, cat, "draw", scenario="Kurgan")
    team = enter(league, organiser, [ann, dan], [ben, cat], "b", scenario="Factory")
    enter(league, organiser, cat, ann, "a")
    check(members)
    result_correct(result=first, actor=organiser, reason="wrong winner", outcome="b")
    check(members)
    result_correct(result=team, actor=organiser, reason="scenario", scenario="Tractor works")
    check(members)
    result_void(result=first, actor=organiser, reason="not played")
    check(members)
    result_restore(result=first, actor=organiser, reason="it was played")
    check(members)
    before = sorted(ScenarioRecord.objects.values_list("user_id", "scenario", "games", "wins"))
    standings_rebuild(league.pk)
    after = sorted(ScenarioRecord.objects.values_list("user_id", "scenario", "games", "wins"))
    assert after == before
    check(members)


def test_the_page_reads_no_result_rows(league, organiser, members, django_assert_max_num_queries):  # noqa: F811
    ann, ben = members["ann"], members["ben"]
    for i in range(12):
        enter(league, organiser, ann, ben, "a" if i % 3 else "draw", scenario=f"S{i % 4}")
    with django_assert_max_num_queries(3):
        t = player_tallies(ann, Tally)
    assert [(s.label, s.played) for s in t["by_system"]] == [("cc", 12)]
    assert {s.label: s.played for s in t["by_scenario"]} == {"S0": 3, "S1": 3, "S2": 3, "S3": 3}
    assert [(o.label, o.played, o.wins, o.draws) for o in t["by_opponent"]] == [("ben", 12, 8, 4)]

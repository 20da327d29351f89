"""The rating streams give what the whole-history runs give, resumed from any point; the fast
OpenSkill step equals the package's; standings from aggregates equal those from games."""

import datetime as dt
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from rules.ratings import EloConfig, compute_standings, elo_run, openskill_run
from rules.ratings.elo import Period
from rules.ratings.games import CCDetail, Game, Outcome
from rules.ratings.incremental import EloStream, OpenSkillStream, PlayerState, rate, stream_points
from rules.ratings.skill import RANKS
from rules.ratings.standings import METRICS, PointsScheme
from rules.ratings.tables import aggregate, standings_from_matchups

PLAYERS = list(range(1, 7))


@st.composite
def games(draw, max_size=30):
    out = []
    n = draw(st.integers(1, max_size))
    for i in range(n):
        size = draw(st.sampled_from([1, 1, 2]))
        players = draw(st.permutations(PLAYERS))
        vp = st.one_of(st.none(), st.integers(0, 30))
        out.append(
            Game(
                i,
                tuple(players[:size]),
                tuple(players[size : 2 * size]),
                draw(st.sampled_from(list(Outcome))),
                played_on=dt.date(2026, 1, 1) + dt.timedelta(days=draw(st.integers(0, 3))),
                round=draw(st.sampled_from([None, 1, 2])),
                cc=CCDetail(vp_a=draw(vp), vp_b=draw(vp), win_type="f"),
            )
        )
    return sorted(out, key=lambda g: (g.played_on, g.id))


def test_fast_openskill_step_equals_the_package():
    model, rng = PlackettLuce(), random.Random(7)
    mine = {p: model.rating() for p in range(12)}
    theirs = dict(mine)
    for _ in range(3000):
        n = rng.choice([1, 1, 2, 3])
        ps = rng.sample(range(12), 2 * n)
        ranks = list(RANKS[rng.choice(list(Outcome))])
        got = rate(model, [[mine[p] for p in ps[:n]], [mine[p] for p in ps[n:]]], ranks)
        want = model.rate([[theirs[p] for p in ps[:n]], [theirs[p] for p in ps[n:]]], ranks=ranks)
        for team, g_team, w_team in ((ps[:n], got[0], want[0]), (ps[n:], got[1], want[1])):
            for p, g, w in zip(team, g_team, w_team, strict=True):
                assert (g.mu, g.sigma) == (w.mu, w.sigma)
                mine[p], theirs[p] = g, w


def _resume(make, games_, split):
    """Rate `games_[:split]`, then a new stream from the saved states rates the rest."""
    first = make({})
    points = list(stream_points(first, games_[:split]))
    state = {p: PlayerState(s.value, s.mu, s.sigma, s.games) for p, s in first.state.items()}
    return points + list(stream_points(make(state), games_[split:]))


@settings(max_examples=60, deadline=None)
@given(gs=games(), period=st.sampled_from(list(Period)), split=st.integers(0, 30))
def test_elo_stream_resumed_anywhere_equals_elo_run(gs, period, split):
    if period is Period.DAY:  # a day is one period: resume at a day's start only
        days = sorted({g.played_on for g in gs})
        day = days[split % len(days)]
        split = next(i for i, g in enumerate(gs) if g.played_on == day)
    config = EloConfig(k_bands=((0.0, 32.0), (1510.0, 16.0)), period=period)
    run = elo_run(gs, config)
    points = _resume(lambda s: EloStream(config, s), gs, min(split, len(gs)))
    assert [(p.player, p.game_id, p.played_on, p.value, p.delta) for p in points] == [
        (h.player, h.game_id, h.played_on, h.rating, h.delta) for h in run.history
    ]


@settings(max_examples=40, deadline=None)
@given(gs=games(), split=st.integers(0, 30))
def test_openskill_stream_resumed_anywhere_equals_openskill_run(gs, split):
    run = openskill_run(gs)
    points = _resume(lambda s: OpenSkillStream(s), gs, min(split, len(gs)))
    assert [(p.player, p.game_id, p.value, p.delta, p.mu, p.sigma) for p in points] == [
        (h.player, h.game_id, h.rating, h.delta, h.mu, h.sigma) for h in run.history
    ]
    last = {p.player: p.games for p in points}
    assert last == run.games


@settings(max_examples=60, deadline=None)
@given(gs=games(), handicap=st.booleans(), scheme=st.sampled_from([(3, 1, 0), (1, 0.5, 0)]))
def test_standings_from_aggregates_equal_standings_from_games(gs, handicap, scheme):
    options = {
        "players": [*PLAYERS, 99],
        "scheme": PointsScheme(*scheme),
        "handicapped": {1, 4},
        "apply_handicap": handicap,
    }
    for criteria in (list(METRICS), ["points", "h2h", "median_buchholz", "sos", "cc_vp"]):
        got = standings_from_matchups(
            aggregate(gs).values(),
            criteria=criteria,
            round_games=[g for g in gs if g.round is not None],
            **options,
        )
        want = compute_standings(gs, criteria=criteria, **options)
        assert got.warnings == want.warnings
        assert [(r.player, r.rank, r.played, r.wins, r.draws, r.losses, r.tied) for r in got.rows] == [
            (r.player, r.rank, r.played, r.wins, r.draws, r.losses, r.tied) for r in want.rows
        ]  # fmt: skip
        for g, w in zip(got.rows, want.rows, strict=True):
            assert g.points == pytest.approx(w.points)
            assert g.values == pytest.approx(w.values)

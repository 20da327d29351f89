"""OpenSkill against the package's own outputs; Wilson intervals against published values."""

import pytest
from openskill.models import PlackettLuce

from rules.errors import RuleError
from rules.ratings import Game, Outcome, openskill_run, scenario_balance, wilson_interval
from rules.ratings.charts import Series, line_chart


def test_openskill_matches_the_package():
    games = [
        Game(1, ("A",), ("B",), Outcome.A),
        Game(2, ("B",), ("C",), Outcome.DRAW),
        Game(3, ("A", "C"), ("B", "D"), Outcome.B),
    ]
    run = openskill_run(games)
    model = PlackettLuce()
    r = {p: model.rating(name=p) for p in "ABCD"}
    [[r["A"]], [r["B"]]] = model.rate([[r["A"]], [r["B"]]], ranks=[0, 1])
    [[r["B"]], [r["C"]]] = model.rate([[r["B"]], [r["C"]]], ranks=[0, 0])
    [[r["A"], r["C"]], [r["B"], r["D"]]] = model.rate(
        [[r["A"], r["C"]], [r["B"], r["D"]]], ranks=[1, 0]
    )
    for p in "ABCD":
        assert run.ratings[p] == pytest.approx(r[p].ordinal())
        last = [h for h in run.history if h.player == p][-1]
        assert (last.mu, last.sigma) == pytest.approx((r[p].mu, r[p].sigma))
    assert run.games == {"A": 2, "B": 3, "C": 2, "D": 1}
    assert r["A"].mu > 25 > r["D"].mu or r["D"].mu > 25  # sanity: the package moved them


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (8, 10, 0.4902, 0.9433),
    ],
)
def test_wilson_known_values(successes, n, low, high):
    lo, hi = wilson_interval(successes, n)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


def test_wilson_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(RuleError):
        wilson_interval(3, 2)


def test_scenario_balance_counts_each_side():
    games = [
        Game(1, ("x",), ("y",), Outcome.A, scenario="S1", side_a="Germans", side_b="Soviets"),
        Game(2, ("x",), ("y",), Outcome.B, scenario="S1", side_a="Germans", side_b="Soviets"),
        Game(3, ("y",), ("x",), Outcome.A, scenario="S1", side_a="Germans", side_b="Soviets"),
        Game(4, ("y",), ("x",), Outcome.DRAW, scenario="S1", side_a="Germans", side_b="Soviets"),
    ]
    rows = {(r.scenario, r.side): r for r in scenario_balance(games, min_plays=4)}
    g = rows[("S1", "Germans")]
    assert (g.plays, g.wins, g.losses, g.draws, g.win_pct) == (4, 2, 1, 1, 0.5)
    assert (g.low, g.high) == wilson_interval(2, 4) and not g.few_plays
    s = rows[("S1", "Soviets")]
    assert (s.wins, s.losses, s.draws) == (1, 2, 1)
    assert all(r.few_plays for r in scenario_balance(games, min_plays=5))


def test_chart_is_accessible_and_escapes_labels():
    svg = line_chart([Series("<b>", [(0, 1500), (1, 1516)])], title="Elo & more")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'aria-label="Elo &amp; more"' in svg and "&lt;b&gt;" in svg and "<b>" not in svg
    assert "1516" in svg and "<polyline" in svg
    assert "<polyline" not in line_chart([], title="empty")

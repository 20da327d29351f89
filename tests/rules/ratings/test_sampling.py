import itertools

import pytest

from rules.ratings.sampling import Thinned


@pytest.mark.parametrize("n", [0, 1, 2, 59, 60, 121, 1000, 5003])
def test_thinned_keeps_first_last_and_even_steps_in_bounded_memory(n):
    t = Thinned(60)
    for i in range(n):
        t.add(1500 + i)
        assert len(t.kept) <= 120
    s = t.series()
    if n == 0:
        assert s == []
        return
    assert s[0] == (0, 1500.0) and s[-1] == (n - 1, 1500.0 + n - 1)
    xs = [x for x, _v in s]
    assert xs == sorted(set(xs)) and len(s) <= 121
    gaps = {b - a for a, b in itertools.pairwise(xs[:-1])}
    assert len(gaps) <= 1  # evenly spaced (the last point may come sooner)
    if n >= 60:
        assert len(s) >= 60


@pytest.mark.parametrize(("n", "m"), [(0, 5), (1, 1), (59, 3), (121, 1), (500, 137), (4000, 1)])
def test_a_stored_chart_carries_on_as_if_never_stopped(n, m):
    straight = Thinned(60)
    for i in range(n + m):
        straight.add(1000 + i * 0.5)
    first = Thinned(60)
    for i in range(n):
        first.add(1000 + i * 0.5)
    stored = [list(p) for p in first.series()]  # as the rating row keeps it (JSON)
    carried = Thinned.resume(60, stored)
    for i in range(n, n + m):
        carried.add(1000 + i * 0.5)
    assert carried.series() == straight.series()

"""A rating history thinned to a few evenly spaced points, in bounded memory.

`Thinned` takes a player's ratings one at a time, in order, and keeps the first, the last and
points every `stride` steps, doubling the stride (and dropping every other kept point) when
more than `2 × points` are kept: at most about `2 × points` values per player whatever the
history's length, evenly spaced over it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Thinned:
    points: int
    stride: int = 1
    seen: int = 0
    kept: list[tuple[int, float]] = field(default_factory=list)
    last: tuple[int, float] | None = None

    @classmethod
    def resume(cls, points: int, series: list) -> Thinned:
        """Carry on from a `series()` kept earlier (the stored chart of a rating)."""
        thinned = cls(points)
        if not series:
            return thinned
        steps = [(int(x), v) for x, v in series]
        thinned.stride = steps[1][0] - steps[0][0] if len(steps) > 1 else 1
        thinned.kept = [p for p in steps if p[0] % thinned.stride == 0]
        thinned.seen, thinned.last = steps[-1][0] + 1, steps[-1]
        return thinned

    def add(self, value: float) -> None:
        step = self.seen
        self.seen += 1
        self.last = (step, round(value, 1))
        if step % self.stride:
            return
        self.kept.append(self.last)
        if len(self.kept) > 2 * self.points:
            self.stride *= 2
            self.kept = [p for p in self.kept if p[0] % self.stride == 0]

    def series(self) -> list[tuple[int, float]]:
        """The kept points and the last one, in order."""
        if self.last is None:
            return []
        if self.kept and self.kept[-1] == self.last:
            return list(self.kept)
        return [*self.kept, self.last]

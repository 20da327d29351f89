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

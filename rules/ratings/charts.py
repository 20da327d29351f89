"""Small accessible SVG line charts (rating history, VP and casualties over the game's clock).

Drawn for a phone first: the picture is about as wide as a phone's column (360 units), so its
13-unit labels stay about 12 px or more at 390 px wide; pages cap its width on a desktop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

COLOURS = ("#5a3e1b", "#1f5fbf", "#2f6b2f", "#9b1c1c", "#6b4fa0", "#c9a227")
FONT = 13
TICKS = 5


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _whole(values: Sequence[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def ticks(low: float, high: float, most: int = TICKS, *, whole: bool = False) -> list[float]:
    """Round values from `low` to `high` (1, 2 or 5 times a power of ten apart), at most
    about `most` of them, that cover the range; `whole` keeps them whole numbers (a count, a
    Time track space)."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / max(most - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(step, 1)
    first = math.floor(low / step) * step
    values = [round(first, 10)]
    while values[-1] < high:
        values.append(round(values[-1] + step, 10))
    return values


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    width: int = 360,
    height: int = 230,
    step: bool = False,
    x_label: str = "",
    y_label: str = "",
) -> str:
    """An SVG with one polyline per series, ticked and labelled axes and a legend.

    `step` draws values that hold until the next point (VP, casualties).
    """
    pad_l, pad_r = (52 if y_label else 40), 12
    pad_t, pad_b = 30, (46 if x_label else 28)
    pts = [pt for s in series for pt in s.points]
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    )
    if not pts:
        return head + (
            f'<text x="{width // 2}" y="{height // 2}" text-anchor="middle">—</text></svg>'
        )
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x_ticks = ticks(min(xs), max(xs), whole=_whole(xs))
    y_ticks = ticks(min(ys), max(ys), whole=_whole(ys))
    x0, x1 = min(x_ticks[0], min(xs)), max(x_ticks[-1], max(xs))
    y0, y1 = min(y_ticks[0], min(ys)), max(y_ticks[-1], max(ys))
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    if y0 == y1:
        y0, y1 = y0 - 1, y1 + 1
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def sx(x: float) -> float:
        return pad_l + (x - x0) / (x1 - x0) * plot_w

    def sy(y: float) -> float:
        return pad_t + (1 - (y - y0) / (y1 - y0)) * plot_h

    out = [head, f'<g font-size="{FONT}" fill="#5d6055">']
    for t in y_ticks:
        out.append(
            f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" '
            f'stroke="#e4dfd2"/><text x="{pad_l - 4}" y="{sy(t) + 4:.1f}" '
            f'text-anchor="end">{_fmt(t)}</text>'
        )
    for t in x_ticks:
        out.append(
            f'<line x1="{sx(t):.1f}" x2="{sx(t):.1f}" y1="{pad_t + plot_h}" '
            f'y2="{pad_t + plot_h + 4}" stroke="#5d6055"/><text x="{sx(t):.1f}" '
            f'y="{pad_t + plot_h + 17}" text-anchor="middle">{_fmt(t)}</text>'
        )
    out.append(
        f'<rect x="{pad_l}" y="{pad_t}" width="{plot_w}" height="{plot_h}" fill="none" '
        'stroke="#cfc8b6"/>'
    )
    if x_label:
        out.append(
            f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle">'
            f"{escape(x_label)}</text>"
        )
    if y_label:
        cy = pad_t + plot_h / 2
        out.append(
            f'<text x="14" y="{cy:.1f}" text-anchor="middle" '
            f'transform="rotate(-90 14 {cy:.1f})">{escape(y_label)}</text>'
        )
    out.append("</g>")
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        coords: list[str] = []
        prev = None
        for x, y in s.points:
            if step and prev is not None:
                coords.append(f"{sx(x):.1f},{sy(prev):.1f}")
            coords.append(f"{sx(x):.1f},{sy(y):.1f}")
            prev = y
        out.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
            f'points="{" ".join(coords)}"><title>{escape(s.label)}</title></polyline>'
        )
        last_x, last_y = s.points[-1] if s.points else (x0, y0)
        out.append(  # the latest value, at the end of its line
            f'<text x="{sx(last_x) - 3:.1f}" y="{sy(last_y) - 6:.1f}" text-anchor="end" '
            f'font-size="{FONT}" font-weight="700" fill="{colour}">{_fmt(last_y)}</text>'
        )
        out.append(
            f'<text x="{pad_l + 4 + 110 * i}" y="{pad_t - 10}" font-size="{FONT}" '
            f'fill="{colour}">{escape(s.label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)

"""Small accessible SVG line charts (rating history, VP and casualties over time)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

COLOURS = ("#5a3e1b", "#1f5fbf", "#2f6b2f", "#9b1c1c", "#6b4fa0", "#c9a227")


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    width: int = 640,
    height: int = 220,
    step: bool = False,
) -> str:
    """An SVG with one polyline per series, its axes' extremes labelled and a legend.

    `step` draws values that hold until the next point (VP, casualties).
    """
    pad_l, pad_r, pad_t, pad_b = 48, 12, 24, 28
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
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    if y0 == y1:
        y0, y1 = y0 - 1, y1 + 1
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def sx(x: float) -> float:
        return pad_l + (x - x0) / (x1 - x0) * plot_w

    def sy(y: float) -> float:
        return pad_t + (1 - (y - y0) / (y1 - y0)) * plot_h

    out = [head]
    out.append(
        f'<g stroke="#cfc8b6" fill="none"><rect x="{pad_l}" y="{pad_t}" width="{plot_w}" '
        f'height="{plot_h}"/></g>'
    )
    out.append(
        f'<g font-size="11" fill="#5d6055"><text x="{pad_l - 4}" y="{pad_t + 4}" '
        f'text-anchor="end">{_fmt(y1)}</text><text x="{pad_l - 4}" y="{pad_t + plot_h}" '
        f'text-anchor="end">{_fmt(y0)}</text><text x="{pad_l}" y="{height - 8}">{_fmt(x0)}'
        f'</text><text x="{width - pad_r}" y="{height - 8}" text-anchor="end">{_fmt(x1)}'
        "</text></g>"
    )
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
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{" ".join(coords)}"><title>{escape(s.label)}</title></polyline>'
        )
        out.append(
            f'<text x="{pad_l + 6 + 130 * i}" y="{pad_t - 8}" font-size="12" '
            f'fill="{colour}">{escape(s.label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)

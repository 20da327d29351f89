"""The campaign position track as an SVG picture: positions, the battles fought, the next one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

# As wide as a phone's column for the campaigns' five positions (72 units apart), so its
# 14-unit labels stay 12 px or more at 390 px; a longer track scrolls sideways in its box.
STEP, HEIGHT, MARGIN = 72, 170, 48
# The picture shows the latest battles only, so it stays the same size however long the
# campaign runs (the history page lists every battle).
LATEST = 12


def track_svg(
    positions: Sequence[str],
    maps: Mapping[str, int],
    path: Sequence[str],
    next_position: str | None,
    *,
    title: str,
    ends: tuple[str, str] = ("", ""),
) -> SafeString:
    """Positions on a line; each of the latest battles fought is a marker numbered as the
    battle, with arrows between them."""
    first = max(len(path) - LATEST, 0)
    width = 2 * MARGIN + STEP * max(len(positions) - 1, 1)
    x = {p: MARGIN + i * STEP for i, p in enumerate(positions)}
    y = 80
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {HEIGHT}" role="img" '
        f'aria-labelledby="track-title track-desc" class="track">',
        f'<title id="track-title">{escape(title)}</title>',
        f'<desc id="track-desc">{escape(_describe(path, next_position))}</desc>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#5a3e1b"/></marker></defs>',
        f'<line x1="{MARGIN}" y1="{y}" x2="{width - MARGIN}" y2="{y}" stroke="#cfc8b6" '
        'stroke-width="6" stroke-linecap="round"/>',
    ]
    for side, anchor, px in (
        (ends[0], "start", MARGIN - 30),
        (ends[1], "end", width - MARGIN + 30),
    ):
        if side:
            parts.append(
                f'<text x="{px}" y="{HEIGHT - 8}" text-anchor="{anchor}" font-size="14" '
                f'fill="#5d6055">{escape(side)}</text>'
            )
    for p in positions:
        current = p == next_position
        parts.append(
            f'<circle cx="{x[p]:.0f}" cy="{y}" r="{20 if current else 15}" '
            f'fill="{"#5a3e1b" if current else "#fff"}" stroke="#5a3e1b" stroke-width="3"/>'
            f'<text x="{x[p]:.0f}" y="{y + 5}" text-anchor="middle" font-size="15" '
            f'font-weight="700" fill="{"#fff" if current else "#1d1f1a"}">{escape(p)}</text>'
            f'<text x="{x[p]:.0f}" y="{y + 45}" text-anchor="middle" font-size="14" '
            f'fill="#5d6055">{escape(_("map %(n)s") % {"n": maps.get(p, "?")})}</text>'
        )
    for i, p in enumerate(path[first:], start=first):
        k = i - first
        bx, by = x[p] + (k % 3 - 1) * 12, y - 38 - (k // 3) * 4
        parts.append(
            f'<circle cx="{bx:.0f}" cy="{by:.0f}" r="10" fill="#ece5d3" stroke="#5a3e1b"/>'
            f'<text x="{bx:.0f}" y="{by + 4:.0f}" text-anchor="middle" font-size="12">{i + 1}</text>'
        )
        if k:
            prev = path[i - 1]
            if prev != p:
                parts.append(
                    f'<path d="M{x[prev]:.0f},{y - 22} Q{(x[prev] + x[p]) / 2:.0f},{y - 70} '
                    f'{x[p]:.0f},{y - 22}" fill="none" stroke="#5a3e1b" stroke-width="2" '
                    'marker-end="url(#arrow)"/>'
                )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every variable part is escaped above


def _describe(path: Sequence[str], next_position: str | None) -> str:
    first = max(len(path) - LATEST, 0)
    fought = ", ".join(
        _("battle %(n)s at %(pos)s") % {"n": i + 1, "pos": p}
        for i, p in enumerate(path[first:], start=first)
    )
    text = fought or _("no battle yet")
    if first:
        text = _("%(text)s (the latest %(n)s battles)") % {"text": text, "n": LATEST}
    if next_position:
        text += "; " + _("next battle at %(pos)s") % {"pos": next_position}
    return text + "."

"""The operation timeline as an SVG chart: op sheet states per turn, morale over time.

Accessible: `<title>` and a `<desc>` that says in words what the bars and lines show; the page
also prints the same data as a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.i18n import say
from rules.tcs import labels

WIDTH, LABEL, LANE, MARGIN = 720, 130, 28, 16
FONT, SMALL = 14, 12  # the chart keeps a 600 px minimum width (it scrolls in its box)
SPREAD = 3  # px between lines of equal morale, so each stays visible
STATUS_FILL = {
    "unimplemented": "#cfc8b6",
    "prelims_active": "#e8c66a",
    "implemented": "#5b8c3a",
    "succeeded": "#1f5fbf",
    "failed": "#b3261e",
}
LINE_COLOURS = ("#5a3e1b", "#1f5fbf", "#b3261e", "#2f7d5a", "#7a4fa0", "#c46d00")


def status_at(history: Sequence[dict[str, Any]], turn: int, key: str) -> Any:
    found = None
    for point in history:
        if point.get("turn", 0) <= turn:
            found = point.get(key)
    return found


def turns_of(timeline) -> list[int]:
    turns = {t["turn"] for t in timeline.turns}
    for item in [*timeline.sheets, *timeline.formations]:
        turns.update(p.get("turn", 0) for p in item.history)
    return sorted(turns)


def timeline_svg(timeline, *, title: str) -> SafeString:
    turns = turns_of(timeline)
    sheets, formations = timeline.sheets, timeline.formations
    if not turns:
        turns = [0]
    step = (WIDTH - LABEL - MARGIN) / max(len(turns), 1)
    x = {t: LABEL + i * step for i, t in enumerate(turns)}
    chart_top = MARGIN + 20 + len(sheets) * LANE + 20
    chart_h = 140 if formations else 0
    height = chart_top + chart_h + 40 + 18 * ((len(formations) - 1) // 4 if formations else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" role="img" '
        'aria-labelledby="tl-title tl-desc" class="timeline">',
        f'<title id="tl-title">{escape(title)}</title>',
        f'<desc id="tl-desc">{escape(describe(timeline, turns))}</desc>',
    ]
    clocks = {t["turn"]: t["clock"] for t in timeline.turns}
    for t in turns:
        label = _("set-up") if t == 0 else f"{t} · {clocks.get(t, '')}".strip(" ·")
        parts.append(
            f'<text x="{x[t] + step / 2:.0f}" y="{MARGIN + 8}" text-anchor="middle" '
            f'font-size="{SMALL}" fill="#5d6055">{escape(label)}</text>'
        )
    for i, sheet in enumerate(sheets):
        y = MARGIN + 20 + i * LANE
        parts.append(
            f'<text x="4" y="{y + 17}" font-size="{FONT}">{escape(sheet.side.name[:8])}: '
            f"{escape(sheet.code[:10])}</text>"
        )
        for t in turns:
            status = status_at(sheet.history, t, "status")
            if status is None:
                continue
            wt = status_at(sheet.history, t, "wt") or 0
            parts.append(
                f'<rect x="{x[t] + 1:.0f}" y="{y}" width="{step - 2:.0f}" height="{LANE - 6}" '
                f'rx="3" fill="{STATUS_FILL.get(status, "#ddd")}"><title>{escape(sheet.code)}, '
                f"{escape(_turn_label(t))}: {escape(say(labels.sheet_state(status)))}, WT {wt}"
                "</title></rect>"
            )
            if step > 34:
                parts.append(
                    f'<text x="{x[t] + step / 2:.0f}" y="{y + 16}" text-anchor="middle" '
                    f'font-size="{SMALL}" fill="#1d1f1a">{wt}</text>'
                )
    if formations:
        top = max([1] + [p.get("value", 0) or 0 for f in formations for p in f.history])
        base = chart_top + chart_h
        parts.append(
            f'<line x1="{LABEL}" y1="{base}" x2="{WIDTH - MARGIN}" y2="{base}" stroke="#cfc8b6"/>'
            f'<text x="4" y="{chart_top + 10}" font-size="{FONT}">{escape(_("Morale"))}</text>'
        )
        parts.extend(_y_ticks(top, base, chart_h))
        middle = (len(formations) - 1) / 2
        for n, formation in enumerate(formations):
            shift = (n - middle) * SPREAD
            colour = LINE_COLOURS[n % len(LINE_COLOURS)]
            points = []
            for t in turns:
                value = status_at(formation.history, t, "value")
                value = (
                    formation.state.get("value", 0)
                    if value is None and not formation.history
                    else (value or 0)
                )
                cy = base - value / top * (chart_h - 10) + shift
                points.append(f"{x[t] + step / 2:.0f},{cy:.1f}")
            dash = "" if n < len(LINE_COLOURS) else ' stroke-dasharray="6 3"'
            parts.append(
                f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" '
                f'stroke-width="2.5"{dash}><title>{escape(formation.code)}</title></polyline>'
            )
            for point in points:  # a marker per turn: a line hidden by another still shows
                px, py = point.split(",")
                parts.append(f'<circle cx="{px}" cy="{py}" r="3.5" fill="{colour}"/>')
            row, col = divmod(n, 4)
            parts.append(
                f'<text x="{LABEL + col * 140}" y="{height - 26 + row * 18:.0f}" '
                f'font-size="{SMALL}" fill="{colour}">■ {escape(formation.code[:14])}</text>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every variable part is escaped above


def _y_ticks(top: int, base: float, chart_h: float) -> list[str]:
    """Morale values up the left edge, with faint grid lines (at most about six ticks)."""
    every = max(1, -(-top // 5))
    ticks = []
    for value in range(0, top + 1, every):
        y = base - value / top * (chart_h - 10)
        ticks.append(
            f'<line x1="{LABEL - 4}" y1="{y:.0f}" x2="{WIDTH - MARGIN}" y2="{y:.0f}" '
            f'stroke="#e6e1d3"/><text x="{LABEL - 8}" y="{y + 4:.0f}" text-anchor="end" '
            f'font-size="{SMALL}" fill="#5d6055">{value}</text>'
        )
    return ticks


def _turn_label(turn: int) -> str:
    return _("set-up") if turn == 0 else _("turn %(n)s") % {"n": turn}


def describe(timeline, turns: Sequence[int]) -> str:
    played = [t for t in turns if t > 0]
    text = [
        _("Turns %(a)s to %(b)s.") % {"a": played[0], "b": played[-1]}
        if played
        else _("No turn played yet.")
    ]
    for sheet in timeline.sheets:
        changes = []
        last = None
        for point in sheet.history:
            if point.get("status") != last:
                state = say(labels.sheet_state(point.get("status")))
                changes.append(f"{state} ({_turn_label(point.get('turn', 0))})")
                last = point.get("status")
        text.append(
            _("Op sheet %(s)s of %(side)s: %(changes)s; %(wt)s weighted turns.")
            % {
                "s": sheet.code,
                "side": sheet.side.name,
                "changes": ", ".join(changes) or "—",
                "wt": sheet.weighted_turns,
            }
        )
    for formation in timeline.formations:
        values = " → ".join(str(p.get("value", 0)) for p in formation.history) or str(
            formation.state.get("value", 0)
        )
        text.append(_("Morale of %(f)s: %(v)s.") % {"f": formation.code, "v": values})
    return " ".join(text)

"""The league page's standings table: the tie-break order (saved or previewed with ?tb=),
the moves of each criterion, and the window of places shown (?from=)."""

from __future__ import annotations

from itertools import islice

from campaigns.i18n import say
from campaigns.ids import as_id
from campaigns.models import League
from campaigns.permissions import can_manage_league
from campaigns.selectors.leagues import league_standings
from rules.ratings.standings import METRICS


def criteria_of(request, league: League) -> list[str]:
    """The tie-break order: the league's, or a preview order from ?tb=a,b,c (ignored if bad)."""
    raw = request.GET.get("tb") or request.POST.get("tb")
    if raw:
        keys = [k for k in raw.split(",") if k]
        if keys and all(k in METRICS for k in keys) and len(set(keys)) == len(keys):
            return keys
    return list(league.tiebreaks or ["points"])


def _moves(criteria: list[str]) -> list[dict]:
    """For each criterion, the order after moving it up or down, and after removing it."""
    out = []
    for i, key in enumerate(criteria):
        up = down = None
        if i > 0:
            c = criteria[:]
            c[i - 1], c[i] = c[i], c[i - 1]
            up = ",".join(c)
        if i < len(criteria) - 1:
            c = criteria[:]
            c[i + 1], c[i] = c[i], c[i + 1]
            down = ",".join(c)
        rest = [k for k in criteria if k != key]
        out.append(
            {
                "key": key,
                "label": say(METRICS[key].label),
                "up": up,
                "down": down,
                "remove": ",".join(rest) if rest else None,
            }
        )
    return out


# The standings table shows this many places at a time (the whole table is in the CSV).
PLACES = 50


def _places(request, total: int) -> dict:
    """The window of places asked for (``?from=51``), snapped to a multiple of PLACES."""
    first = as_id(request.GET.get("from")) or 1
    start = min((max(first, 1) - 1) // PLACES * PLACES, max(total - 1, 0) // PLACES * PLACES)
    end = min(start + PLACES, total)
    return {
        "start": start,
        "end": end,
        "total": total,
        "previous": start - PLACES + 1 if start else None,
        "next": end + 1 if end < total else None,
    }


def standings_context(request, league: League) -> dict:
    criteria = criteria_of(request, league)
    view = league_standings(league, criteria)
    unused = [(k, say(m.label)) for k, m in METRICS.items() if k not in criteria]
    places = _places(request, len(view.standings.rows))
    return {
        "league": league,
        "standings": view,
        "rows": list(islice(view.rows, places["start"], places["end"])),
        "places": places,
        "criteria": criteria,
        "tb": ",".join(criteria),
        "moves": _moves(criteria),
        "unused": [(k, label, ",".join([*criteria, k])) for k, label in unused],
        "is_preview": criteria != list(league.tiebreaks or ["points"]),
        "can_manage": can_manage_league(request.user, league),
    }

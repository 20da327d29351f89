"""The operation's timeline and its privacy-aware JSON export (built by the selector)."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from campaigns.selectors.tcs import tcs_timeline
from campaigns.selectors.tcs_export import tcs_operation_export
from campaigns.tcs.timeline_svg import status_at, timeline_svg, turns_of
from campaigns.views.tcs.common import load


def tcs_timeline_view(request, pk: int):
    campaign, viewer = load(request, pk)
    timeline = tcs_timeline(campaign, viewer)
    turns = turns_of(timeline)
    rows = [
        {
            "sheet": s,
            "cells": [
                (status_at(s.history, t, "status") or "", status_at(s.history, t, "wt"))
                for t in turns
            ],
        }
        for s in timeline.sheets
    ]
    morale_rows = [
        {"formation": f, "cells": [status_at(f.history, t, "value") for t in turns]}
        for f in timeline.formations
    ]
    return render(
        request,
        "tcs/timeline.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "svg": timeline_svg(timeline, title=_("Timeline of %(op)s") % {"op": campaign.name}),
            "turns": turns,
            "rows": rows,
            "morale_rows": morale_rows,
            "has_data": bool(timeline.sheets or timeline.turns)
            or any(f.history for f in timeline.formations),
        },
    )


def tcs_export(request, pk: int):
    """The operation as JSON, as this viewer may see it (a download)."""
    campaign, viewer = load(request, pk)
    data = tcs_operation_export(campaign, viewer)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tcs-operation-{campaign.pk}.json"'
    return response

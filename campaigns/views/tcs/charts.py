"""The operation's charts [11.0, 11.3, 12.1, 16.0, 17.2]: each typed as a grid, or uploaded
as JSON or CSV. Anyone who may see the operation reads them; its players and game master
edit them (`campaigns.services.tcs.charts`)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.selectors.tcs import is_finished
from campaigns.selectors.tcs_charts import charts_data
from campaigns.services.tcs.charts import CHARTS, chart_from_csv, tcs_charts_update
from campaigns.tcs.forms.charts import ChartForm, ChartUploadForm
from campaigns.views.tcs.common import load


def _put_errors(form, field: str, chart: str, exc: ValidationError) -> None:
    """A service refusal on the form: the chart's problems on `field`, the rest above."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc.messages)
        return
    for key, errors in exc.message_dict.items():
        form.add_error(field if key == chart else None, errors)


def tcs_charts_view(request, pk: int):
    campaign, viewer = load(request, pk)
    may_edit = bool(viewer.can_manage or viewer.side_ids) and not is_finished(campaign)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action and not (may_edit and request.user.is_authenticated):
        raise Http404
    stored = charts_data(campaign)
    charts = {
        key: ChartForm(
            key,
            request.POST if action == key else None,
            initial={"table": stored.get(key)},
            prefix=key,
        )
        for key in CHARTS
    }
    upload = ChartUploadForm(
        request.POST if action == "upload" else None,
        request.FILES if action == "upload" else None,
        prefix="upload",
    )
    form = charts.get(action) or (upload if action == "upload" else None)
    if form is not None and form.is_valid():
        d = form.cleaned_data
        chart, field = (d["chart"], "text") if form is upload else (action, "table")
        try:
            if form is upload:
                data = d["data"] if d["is_json"] else chart_from_csv(chart, d["csv"])
            else:
                data = d["table"]
            tcs_charts_update(campaign=campaign, actor=request.user, chart=chart, data=data)
        except ValidationError as exc:
            _put_errors(form, field, chart, exc)
        else:
            words = say(CHARTS[chart])
            messages.success(
                request, _("%(chart)s saved.") % {"chart": words[:1].upper() + words[1:]}
            )
            return redirect("tcs-charts", pk=campaign.pk)
    status = 400 if form is not None and form.errors else 200
    return render(
        request,
        "tcs/charts.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "may_edit": may_edit,
            "charts": [(key, say(CHARTS[key]), charts[key]) for key in CHARTS],
            "stored": stored,
            "upload": upload,
        },
        status=status,
    )

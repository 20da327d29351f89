"""The operation's charts page: one grid form per chart and a JSON or CSV upload."""

from __future__ import annotations

import json

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.grid import GridField
from campaigns.jsontext import JSONTextError, loads_checked
from campaigns.models import bounds as b
from campaigns.tcs.chart_grids import GRIDS

CHART_CHOICES = [
    ("morale", _("Morale Table [17.2]")),
    ("fire", _("Fire Table [11.0]")),
    ("shifts", _("Shift tables [11.3, 12.1] (JSON only)")),
    ("at", _("AT Roll Table [16.0]")),
    ("adjustment", _("Artillery Adjustment Table [18.7.a]")),
]
HELP = {
    "morale": _(
        "Column headings: the morale check totals (≤3, 4-5, 6, 7+); row headings: the d66 "
        "rolls (11-36, 41-66); each cell a result: none, suppressed, paralyzed, syr or "
        "surrender. Every total and every roll 11–66 must be covered once."
    ),
    "fire": _(
        "Column headings: the firing values (0, 1, 2, 11-13 … 101+); row headings: the d66 "
        "rolls; each cell - (No Effect), MC (Morale Check) or a number. A row headed “firers” "
        "gives the point fire columns' firing steps (- elsewhere)."
    ),
    "shifts": _(
        "Column shifts: + is to the right, - in a cell means the chart shows none. Range, "
        "stacking and differential rows are headed by a range such as ≤2, 3-5 or 7+."
    ),
    "at": _("The number to roll (2d6, 2–13) per terrain and range; - where the chart has none."),
    "adjustment": _(
        "Column headings: the adjustment values after column modifiers (≤2, 3-4, 5+); row "
        "headings: the d66 rolls; each cell No Shoot, Scatter, Bad Shoot or Good Shoot. Every "
        "roll 11–66 must be covered once."
    ),
}
MAX_UPLOAD = 512 * 1024


class ChartForm(forms.Form):
    """One chart typed as a grid (or its JSON pasted)."""

    def __init__(self, chart: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.chart = chart
        self.fields["table"] = GridField(
            GRIDS[chart], label=dict(CHART_CHOICES)[chart], help_text=HELP[chart]
        )


class ChartUploadForm(forms.Form):
    """A chart as a JSON or CSV file (or pasted text); JSON when it starts with { or [."""

    chart = forms.ChoiceField(label=_("Chart"), choices=CHART_CHOICES)
    file = forms.FileField(label=_("JSON or CSV file"), required=False)
    text = forms.CharField(
        label=_("…or paste the JSON or CSV"),
        required=False,
        max_length=b.CSV_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 6, "class": "code"}),
        help_text=format_lazy(
            "{} <code>terrain,in_hex,one_hex</code>",
            _(
                "CSV: a header line “rolls” then the column headings, one line per d66 range "
                "(the Fire Table may add a “firers” line); the AT Roll Table:"
            ),
        ),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                raise forms.ValidationError(_("The file may be at most 512 KB."))
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("Save the file as UTF-8 text.")) from None
        else:
            text = data.get("text", "")
        text = text.strip()
        if not text:
            raise forms.ValidationError(_("Choose a file or paste its text."))
        data["is_json"] = text[0] in "{["
        if data["is_json"]:
            try:
                data["data"] = loads_checked(text)
            except JSONTextError as exc:
                cause = exc.__cause__
                if isinstance(cause, json.JSONDecodeError):
                    raise forms.ValidationError(
                        _("not valid JSON (line %(l)s, column %(c)s)")
                        % {"l": cause.lineno, "c": cause.colno}
                    ) from None
                raise forms.ValidationError(str(exc)) from None
        data["csv"] = text
        return data

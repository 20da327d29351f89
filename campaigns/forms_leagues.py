"""Forms of the club and league pages; services do the real validation."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import ClubMembership, GameSystem, League, Result
from campaigns.models import bounds as b
from rules.cc.tournament import WinType
from rules.ratings.standings import METRICS

WIN_TYPES = [("", _("—"))] + [
    (w.value, w.value.replace("_", " ")) for w in WinType if w != "concession"
]


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=b.DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class InviteForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        required=False,
        max_length=150,
        help_text=_("Leave empty for a link anyone may use once."),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=ClubMembership.Role.choices, initial=ClubMembership.Role.MEMBER
    )


def bands_text(bands) -> str:
    return ", ".join(f"{lo:g}:{k:g}" for lo, k in bands)


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    season = forms.CharField(label=_("Season"), max_length=40, help_text=_("For example 2026."))
    system = forms.ChoiceField(label=_("Game system"), choices=GameSystem.choices)
    points_win = forms.FloatField(
        label=_("Points for a win"), initial=3, **b.form_range(b.LEAGUE_POINTS)
    )
    points_draw = forms.FloatField(
        label=_("Points for a draw"), initial=1, **b.form_range(b.LEAGUE_POINTS)
    )
    points_loss = forms.FloatField(
        label=_("Points for a loss"), initial=0, **b.form_range(b.LEAGUE_POINTS)
    )
    tiebreaks = forms.CharField(
        label=_("Ranking criteria, in order"),
        max_length=200,
        initial="points, h2h, buchholz, wins",
        help_text=_("Comma-separated, from: %(keys)s.") % {"keys": ", ".join(METRICS)},
    )
    apply_cc_handicap = forms.BooleanField(
        label=_("Apply the Combat Commander handicap (EQUILIBRIO) to less experienced players"),
        required=False,
    )
    elo_initial = forms.FloatField(
        label=_("Initial Elo"), initial=1500, **b.form_range(b.ELO_RATING)
    )
    elo_k_bands = forms.CharField(
        label=_("Elo K by rating band"),
        max_length=400,
        initial="0:32, 2100:24, 2400:16",
        help_text=_("“lowest rating:K” pairs, ascending."),
    )
    elo_period = forms.ChoiceField(
        label=_("Elo rating period"), choices=League.EloPeriod.choices, initial="result"
    )
    balance_min_plays = forms.IntegerField(
        label=_("Plays before a scenario's balance is trusted"),
        initial=10,
        **b.form_range(b.BALANCE_MIN_PLAYS),
    )

    def clean_tiebreaks(self):
        return [t.strip() for t in self.cleaned_data["tiebreaks"].split(",") if t.strip()]

    def clean_elo_k_bands(self):
        bands = []
        for part in self.cleaned_data["elo_k_bands"].split(","):
            if not part.strip():
                continue
            try:
                lo, k = part.split(":")
                bands.append([float(lo), float(k)])
            except ValueError:
                raise forms.ValidationError(_("Write pairs such as 0:32, 2100:24.")) from None
        return bands


class LeagueSettingsForm(LeagueForm):
    status = forms.ChoiceField(label=_("Status"), choices=League.Status.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["system"]


class ResultForm(forms.Form):
    played_on = forms.DateField(
        label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    round = forms.IntegerField(label=_("Round"), required=False, **b.form_range(b.ROUND))
    scenario = forms.CharField(label=_("Scenario"), required=False, max_length=120)
    side_a = forms.CharField(label=_("Side A"), required=False, max_length=80)
    team_a = forms.CharField(label=_("Side A players"), help_text=_("Usernames joined by “+”."))
    side_b = forms.CharField(label=_("Side B"), required=False, max_length=80)
    team_b = forms.CharField(label=_("Side B players"), help_text=_("Usernames joined by “+”."))
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Result.Outcome.choices)
    win_type = forms.ChoiceField(label=_("Win type (CC)"), choices=WIN_TYPES, required=False)
    time_space = forms.IntegerField(
        label=_("Time space at the end (CC)"), required=False, **b.form_range(b.TIME_SPACE)
    )
    vp_a = forms.IntegerField(label=_("VP side A"), required=False, **b.form_range(b.VP))
    vp_b = forms.IntegerField(label=_("VP side B"), required=False, **b.form_range(b.VP))
    casualties_a = forms.IntegerField(
        label=_("Casualties side A"), required=False, **b.form_range(b.CASUALTIES)
    )
    casualties_b = forms.IntegerField(
        label=_("Casualties side B"), required=False, **b.form_range(b.CASUALTIES)
    )
    objective_5_in_play = forms.BooleanField(label=_("Objective 5 in play (CC)"), required=False)
    notes = forms.CharField(label=_("Notes"), required=False, max_length=300)

    DETAILS = ("win_type", "time_space", "vp_a", "vp_b", "casualties_a", "casualties_b")

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        details = {k: data.pop(k) for k in self.DETAILS if data.get(k) not in (None, "")}
        for k in self.DETAILS:
            data.pop(k, None)
        if data.pop("objective_5_in_play", False):
            details["objective_5_in_play"] = True
        data["details"] = details
        data.pop("reason", None)
        return data

    @classmethod
    def initial_for(cls, result: Result) -> dict:
        teams = {"a": [], "b": []}
        for p in result.players.all():
            teams[p.team].append(p.user.username)
        return {
            "played_on": result.played_on,
            "round": result.round,
            "scenario": result.scenario,
            "side_a": result.side_a,
            "side_b": result.side_b,
            "team_a": "+".join(teams["a"]),
            "team_b": "+".join(teams["b"]),
            "outcome": result.outcome,
            "notes": result.notes,
            **(result.details or {}),
        }


class CorrectionForm(ResultForm):
    reason = forms.CharField(label=_("Why is it corrected?"), max_length=300)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300)


class FromBattleForm(forms.Form):
    battle = forms.TypedChoiceField(label=_("Battle"), coerce=int)
    scenario = forms.CharField(
        label=_("Scenario"),
        required=False,
        max_length=120,
        help_text=_("Empty: the campaign's template or name."),
    )
    round = forms.IntegerField(label=_("Round"), required=False, **b.form_range(b.ROUND))

    def __init__(self, *args, battles=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["battle"].choices = [(b.pk, f"{b.campaign.name} · {b}") for b in battles]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("…or paste the CSV"),
        required=False,
        max_length=b.CSV_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 6, "class": "code"}),
    )

    def csv_text(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload:
            raw = upload.read(b.CSV_TEXT_MAX)
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file must be UTF-8 text.")) from None
        return self.cleaned_data.get("text") or ""


class CampaignImportForm(forms.Form):
    file = forms.FileField(label=_("Campaign export (JSON)"))

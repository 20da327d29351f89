"""Forms of the club and league pages; services do the real validation."""

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from campaigns.models import ClubMembership, GameSystem, League, LeagueParticipant, Result
from campaigns.models import bounds as b
from rules.cc.tournament import WinType
from rules.ratings.standings import METRICS

WIN_TYPE_LABELS = {
    WinType.SURRENDER: _("Surrender"),
    WinType.LAST_UNIT_ELIMINATED: _("Last unit eliminated"),
    WinType.OBJECTIVE_5: _("Objective 5 (sudden death)"),
    WinType.VP: _("Victory points"),
    WinType.INITIATIVE: _("Initiative"),
    WinType.FORFEIT: _("Forfeit"),
}
WIN_TYPES = [("", _("—"))] + [(w.value, label) for w, label in WIN_TYPE_LABELS.items()]


CRITERIA_SLOTS = len(METRICS)  # a place for every criterion


def _criteria_choices() -> list[tuple[str, str]]:
    return [("", "—")] + [(key, say(m.label)) for key, m in METRICS.items()]


class CriteriaWidget(forms.MultiWidget):
    """One drop-down per place in the ranking order, each listing the criteria in words."""

    def __init__(self, attrs=None):
        super().__init__([forms.Select() for _i in range(CRITERIA_SLOTS)], attrs)

    def decompress(self, value):
        keys = value.split(",") if isinstance(value, str) else list(value or [])
        keys = [k.strip() for k in keys if k and k.strip()][:CRITERIA_SLOTS]
        return keys + [""] * (CRITERIA_SLOTS - len(keys))

    def get_context(self, name, value, attrs):
        for n, widget in enumerate(self.widgets, start=1):
            widget.choices = _criteria_choices()
            widget.attrs.update(
                {"aria-label": gettext("Criterion %(n)s") % {"n": n}, "class": "criterion-pick"}
            )
        return super().get_context(name, value, attrs)


class CriteriaField(forms.MultiValueField):
    """The ranking criteria in order, chosen by name; blank places are skipped (the league
    service checks the order itself)."""

    widget = CriteriaWidget

    def __init__(self, **kwargs):
        fields = [forms.CharField(required=False) for _i in range(CRITERIA_SLOTS)]
        super().__init__(fields, require_all_fields=False, **kwargs)

    def compress(self, data_list):
        return [key for key in data_list or [] if key]


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


class KBandsWidget(forms.Widget):
    """The Elo K bands as rows of two numbers (from rating, K), with blank rows to add more.

    The value travels as the "lowest:K, …" text the form cleans; a client may also post that
    text under the field's own name."""

    BLANK_ROWS = 2

    def format_value(self, value):
        if isinstance(value, str):
            pairs = [p.split(":", 1) for p in value.split(",") if p.strip()]
            return [[a.strip(), b.strip()] if len(p := [a, b]) == 2 else p for a, b in pairs]
        return [[f"{lo:g}", f"{k:g}"] for lo, k in value or []]

    def render(self, name, value, attrs=None, renderer=None):
        rows = self.format_value(value)
        rows = (rows + [["", ""]] * self.BLANK_ROWS)[: max(len(rows), b.K_BANDS_MAX)]
        return mark_safe(render_to_string("leagues/_k_bands.html", {"name": name, "rows": rows}))

    def value_from_datadict(self, data, files, name):
        if name in data:
            return data[name]
        pairs = []
        for i in range(b.K_BANDS_MAX):
            low, k = (str(data.get(f"{name}-{i}-{part}", "")).strip() for part in ("from", "k"))
            if low or k:
                pairs.append(f"{low}:{k}")
        return ", ".join(pairs)

    def value_omitted_from_data(self, data, files, name):
        return name not in data and f"{name}-0-from" not in data


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
    tiebreaks = CriteriaField(
        label=_("Ranking criteria, in order"),
        initial=["points", "h2h", "buchholz", "wins"],
        help_text=_("The first decides; each next one only breaks the ties left."),
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
        widget=KBandsWidget,
        help_text=_(
            "Each band starts at a rating and gives the K used from there up; leave a row "
            "empty to drop it."
        ),
    )
    elo_period = forms.ChoiceField(
        label=_("Elo rating period"), choices=League.EloPeriod.choices, initial="result"
    )
    balance_min_plays = forms.IntegerField(
        label=_("Plays before a scenario's balance is trusted"),
        initial=10,
        **b.form_range(b.BALANCE_MIN_PLAYS),
    )

    def clean_elo_k_bands(self):
        bands = []
        parts = [p for p in self.cleaned_data["elo_k_bands"].split(",") if p.strip()]
        for n, part in enumerate(parts, start=1):
            try:
                lo, k = part.split(":")
                bands.append([float(lo), float(k)])
            except ValueError:
                raise forms.ValidationError(
                    _("Band %(n)s: give both the rating it starts at and its K, as numbers.")
                    % {"n": n}
                ) from None
        return bands


class LeagueSettingsForm(LeagueForm):
    status = forms.ChoiceField(label=_("Status"), choices=League.Status.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["system"]


CC_ONLY = ("win_type", "time_space", "objective_5_in_play")


def player_choices(league: League | None) -> list:
    """The players a result may name: the league's participants first, then the club's
    other members (anyone enrolled by the result), by username (2 queries)."""
    if league is None:
        return []
    taking_part = list(
        LeagueParticipant.objects.filter(league=league)
        .order_by("user__username")
        .values_list("user__username", flat=True)
    )
    others = list(
        ClubMembership.objects.filter(club_id=league.club_id)
        .exclude(user__username__in=taking_part)
        .order_by("user__username")
        .values_list("user__username", flat=True)
    )
    groups = []
    if taking_part:
        groups.append((_("Taking part"), [(n, n) for n in taking_part]))
    if others:
        groups.append((_("Other club members"), [(n, n) for n in others]))
    return groups


class PlayerPicker(forms.CheckboxSelectMultiple):
    """A team's players: a checkbox per name, each a 44 px row (see leagues.css)."""

    def __init__(self, attrs=None, choices=()):
        super().__init__({"class": "player-pick", **(attrs or {})}, choices)


class ResultForm(forms.Form):
    """A result: players picked from the league's participants and the club's members, and
    only the details of the league's game (win type, Time space and objective 5 are
    Combat Commander's)."""

    played_on = forms.DateField(
        label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    round = forms.IntegerField(label=_("Round"), required=False, **b.form_range(b.ROUND))
    scenario = forms.CharField(label=_("Scenario"), required=False, max_length=120)
    side_a = forms.CharField(
        label=_("Side A"),
        required=False,
        max_length=80,
        help_text=_("The side's name in the game, for example Germans."),
    )
    team_a = forms.MultipleChoiceField(label=_("Side A players"), widget=PlayerPicker)
    side_b = forms.CharField(label=_("Side B"), required=False, max_length=80)
    team_b = forms.MultipleChoiceField(label=_("Side B players"), widget=PlayerPicker)
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Result.Outcome.choices)
    win_type = forms.ChoiceField(label=_("Win type"), choices=WIN_TYPES, required=False)
    time_space = forms.IntegerField(
        label=_("Time space at the end"), required=False, **b.form_range(b.TIME_SPACE)
    )
    vp_a = forms.IntegerField(
        label=_("VP side A"),
        required=False,
        help_text=_("Below zero too: a skirmish may score −3."),
        **b.form_range(b.RESULT_DETAILS["vp_a"]),
    )
    vp_b = forms.IntegerField(
        label=_("VP side B"), required=False, **b.form_range(b.RESULT_DETAILS["vp_b"])
    )
    casualties_a = forms.IntegerField(
        label=_("Casualties side A"), required=False, **b.form_range(b.CASUALTIES)
    )
    casualties_b = forms.IntegerField(
        label=_("Casualties side B"), required=False, **b.form_range(b.CASUALTIES)
    )
    objective_5_in_play = forms.BooleanField(label=_("Objective 5 in play"), required=False)
    notes = forms.CharField(label=_("Notes"), required=False, max_length=300)

    DETAILS = ("win_type", "time_space", "vp_a", "vp_b", "casualties_a", "casualties_b")

    def __init__(self, *args, league: League | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = player_choices(league)
        self.fields["team_a"].choices = self.fields["team_b"].choices = choices
        if league is not None and league.system != GameSystem.COMBAT_COMMANDER:
            for name in CC_ONLY:
                del self.fields[name]

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
            "team_a": teams["a"],
            "team_b": teams["b"],
            "outcome": result.outcome,
            "notes": result.notes,
            **(result.details or {}),
        }


class CorrectionForm(ResultForm):
    reason = forms.CharField(label=_("Why is it corrected?"), max_length=300)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300)


class SettleForm(forms.Form):
    """The organiser's ruling on a reported or disputed result."""

    ruling = forms.ChoiceField(
        label=_("Ruling"),
        choices=[
            ("a", _("It counts: side A won")),
            ("b", _("It counts: side B won")),
            ("draw", _("It counts: a draw")),
            ("void", _("It does not count (void)")),
        ],
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)


class RecordGameForm(forms.Form):
    """Record a finished skirmish or TCS operation in one of the user's leagues of its game."""

    league = forms.TypedChoiceField(label=_("League"), coerce=int)
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=[
            ("a", _("The first side won")),
            ("b", _("The second side won")),
            ("draw", _("A draw")),
        ],
        help_text=_("The operation has no winner of its own: say how it ended."),
    )
    scenario = forms.CharField(label=_("Scenario"), required=False, max_length=120)
    round = forms.IntegerField(label=_("Round"), required=False, **b.form_range(b.ROUND))

    def __init__(self, *args, leagues=(), with_outcome: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.leagues = {lg.pk: lg for lg in leagues}
        self.fields["league"].choices = [(lg.pk, f"{lg.club} · {lg}") for lg in leagues]
        if not with_outcome:
            del self.fields["outcome"]


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

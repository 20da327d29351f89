"""Club invitations, leagues, their results (with a trace of every correction) and ratings."""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b
from campaigns.models.core import Club, ClubMembership, GameSystem

DEFAULT_TIEBREAKS = ["points", "h2h", "buchholz", "wins"]
DEFAULT_K_BANDS = [[0, 32], [2100, 24], [2400, 16]]
BIG_COUNTER = (0, 9_223_372_036_854_775_807)  # result ids, VP totals
ID_LIST_MAX = 4_000  # a team's user ids, comma-separated


def _token() -> str:
    return secrets.token_urlsafe(24)


class ClubInvite(models.Model):
    """An invitation to join a club; for one named user, or for whoever holds the link."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=_token)
    invited_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    role = models.CharField(
        max_length=16, choices=ClubMembership.Role.choices, default=ClubMembership.Role.MEMBER
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invite to {self.club}"

    @property
    def is_open(self) -> bool:
        return not self.revoked and self.accepted_at is None


class League(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    class EloPeriod(models.TextChoices):
        RESULT = "result", _("After each result")
        DAY = "day", _("Once a day")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=120)
    season = models.CharField(_("season"), max_length=40)
    system = models.CharField(_("game system"), max_length=16, choices=GameSystem.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    points_win = models.FloatField(
        _("points for a win"), default=3, validators=b.real(b.LEAGUE_POINTS)
    )
    points_draw = models.FloatField(
        _("points for a draw"), default=1, validators=b.real(b.LEAGUE_POINTS)
    )
    points_loss = models.FloatField(
        _("points for a loss"), default=0, validators=b.real(b.LEAGUE_POINTS)
    )
    tiebreaks = models.JSONField(
        default=list, help_text="Ordered metric keys.", validators=b.json_size(b.JSON_SMALL)
    )
    apply_cc_handicap = models.BooleanField(_("apply the CC handicap (EQUILIBRIO)"), default=False)
    elo_initial = models.FloatField(_("initial Elo"), default=1500, validators=b.real(b.ELO_RATING))
    elo_k_bands = models.JSONField(
        default=list,
        help_text="[[lowest rating, K], …] ascending.",
        validators=b.json_size(b.JSON_SMALL),
    )
    elo_period = models.CharField(max_length=8, choices=EloPeriod.choices, default="result")
    balance_min_plays = models.PositiveSmallIntegerField(
        default=10, validators=b.between(b.BALANCE_MIN_PLAYS)
    )
    ratings_version = models.PositiveIntegerField(default=0, validators=b.between(b.COUNTER))
    ratings_computed_version = models.PositiveIntegerField(
        default=0, validators=b.between(b.COUNTER)
    )
    # The earliest change (date, result id) the ratings have not caught up with yet; both
    # empty when they are up to date, (date.min, 0) when they must be rebuilt from the start.
    ratings_dirty_on = models.DateField(null=True, blank=True)
    ratings_dirty_result = models.BigIntegerField(
        null=True, blank=True, validators=b.between(BIG_COUNTER)
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name", "season"], name="league_unique")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"

    def get_absolute_url(self) -> str:
        return reverse("league-detail", args=[self.pk])


class LeagueParticipant(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="participants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_entries"
    )
    handicapped = models.BooleanField(
        _("less experienced (receives the CC handicap)"), default=False
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_entry_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league}"


class Result(models.Model):
    """One finished game of a league: standalone, or a campaign's battle."""

    class Outcome(models.TextChoices):
        A = "a", _("Side A won")
        B = "b", _("Side B won")
        DRAW = "draw", _("Draw")

    class Status(models.TextChoices):
        """A player's report waits for the opponent's confirmation (or a dispute the
        organiser settles); only a result that counts (entered by the organiser, confirmed
        or settled) enters the standings and ratings."""

        ACTIVE = "active", _("Counts")
        VOID = "void", _("Void")
        REPORTED = "reported", _("Awaiting the opponent's confirmation")
        DISPUTED = "disputed", _("Disputed")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="results")
    battle = models.ForeignKey(
        "campaigns.Battle",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_results",
    )
    skirmish = models.ForeignKey(
        "campaigns.SkirmishBattle",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_results",
    )
    operation = models.ForeignKey(
        "campaigns.Campaign",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_results",
        help_text="A finished TCS operation recorded as this result.",
    )
    played_on = models.DateField(_("played on"))
    round = models.PositiveSmallIntegerField(
        _("round"), null=True, blank=True, validators=b.between(b.ROUND)
    )
    scenario = models.CharField(_("scenario"), max_length=120, blank=True)
    side_a = models.CharField(_("side A"), max_length=80, blank=True)
    side_b = models.CharField(_("side B"), max_length=80, blank=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices)
    details = models.JSONField(
        default=dict,
        blank=True,
        help_text="CC win type, Time, VP …",
        validators=b.json_size(b.JSON_SMALL),
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    notes = models.CharField(_("notes"), max_length=300, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "battle"],
                condition=models.Q(battle__isnull=False),
                name="one_result_per_battle",
            ),
            models.UniqueConstraint(
                fields=["league", "skirmish"],
                condition=models.Q(skirmish__isnull=False),
                name="one_result_per_skirmish",
            ),
            models.UniqueConstraint(
                fields=["league", "operation"],
                condition=models.Q(operation__isnull=False),
                name="one_result_per_operation",
            ),
        ]
        indexes = [
            models.Index(fields=["league", "status", "played_on"]),
            # windows of results latest first, of a league and of all (API)
            models.Index(fields=["league", "played_on", "id"], name="result_league_played_id"),
            models.Index(fields=["played_on", "id"], name="result_played_id"),
        ]

    def __str__(self) -> str:
        return f"result {self.pk} of {self.league_id}"


class ResultPlayer(models.Model):
    class Team(models.TextChoices):
        A = "a", _("Side A")
        B = "b", _("Side B")

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_results"
    )
    team = models.CharField(max_length=1, choices=Team.choices)

    class Meta:
        ordering = ["result", "team", "id"]
        constraints = [
            models.UniqueConstraint(fields=["result", "user"], name="one_seat_per_result")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.team})"


class ResultCorrection(models.Model):
    """The trace: each entry, correction or voiding of a result, with before and after."""

    class Action(models.TextChoices):
        ENTER = "enter", _("Entered")
        CORRECT = "correct", _("Corrected")
        VOID = "void", _("Voided")
        RESTORE = "restore", _("Restored")
        REPORT = "report", _("Reported by a player")
        CONFIRM = "confirm", _("Confirmed by the opponent")
        DISPUTE = "dispute", _("Disputed by the opponent")
        SETTLE = "settle", _("Settled by the organiser")

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="trace")
    action = models.CharField(max_length=8, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=300, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["result", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} of {self.result_id}"


class Rating(models.Model):
    """A player's current rating in one league (its latest snapshot, kept for fast pages)."""

    class Method(models.TextChoices):
        ELO = "elo", "Elo"
        OPENSKILL = "openskill", "OpenSkill"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    system = models.CharField(max_length=16, choices=GameSystem.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_ratings"
    )
    method = models.CharField(max_length=12, choices=Method.choices)
    value = models.FloatField(validators=b.real(b.RATING_VALUE))
    mu = models.FloatField(null=True, blank=True, validators=b.real(b.RATING_SIGMA))
    sigma = models.FloatField(null=True, blank=True, validators=b.real(b.RATING_SIGMA))
    games = models.PositiveIntegerField(default=0, validators=b.between(b.GAMES))
    chart = models.JSONField(
        default=list,
        blank=True,
        help_text="The rating history thinned to a few evenly spaced [step, value] points, "
        "kept by the rating update for the player page's chart.",
    )

    class Meta:
        ordering = ["league", "method", "-value"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user", "method"], name="one_rating")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.method} {self.value:.0f}"


class RatingSnapshot(models.Model):
    """A player's rating after one rating period (a result or a day): the history.

    Derived rows, rewritten in bulk by the rating update: their foreign keys are kept by
    Django (cascades) and by that code, not checked by the database row by row, and the
    league and user are indexed only as the first columns of the indexes below."""

    league = models.ForeignKey(
        League,
        on_delete=models.CASCADE,
        related_name="rating_history",
        db_index=False,
        db_constraint=False,
    )
    system = models.CharField(max_length=16, choices=GameSystem.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_history",
        db_index=False,
        db_constraint=False,
    )
    method = models.CharField(max_length=12, choices=Rating.Method.choices)
    seq = models.PositiveIntegerField(validators=b.between(b.COUNTER))
    result = models.ForeignKey(
        Result,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )
    played_on = models.DateField(null=True, blank=True)
    value = models.FloatField(validators=b.real(b.RATING_VALUE))
    delta = models.FloatField(validators=b.real(b.RATING_VALUE))
    mu = models.FloatField(null=True, blank=True, validators=b.real(b.RATING_SIGMA))
    sigma = models.FloatField(null=True, blank=True, validators=b.real(b.RATING_SIGMA))
    games = models.PositiveIntegerField(default=0, validators=b.between(b.GAMES))

    class Meta:
        ordering = ["league", "method", "seq"]
        indexes = [
            models.Index(fields=["user", "system", "method", "seq"]),
            models.Index(
                fields=["league", "method", "played_on", "seq"], name="snapshot_league_day"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.method} #{self.seq}"


class StandingMatchup(models.Model):
    """One player's counting results in one team against one opposing team: the aggregate the
    standings are computed from (kept up to date by every result write)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="matchups")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    team = models.TextField(help_text="Own team's user ids, ascending.", **b.text(ID_LIST_MAX))
    opponents = models.TextField(help_text="Opposing user ids, ascending.", **b.text(ID_LIST_MAX))
    games = models.IntegerField(default=0, validators=b.between(b.GAMES))
    wins = models.IntegerField(default=0, validators=b.between(b.GAMES))
    draws = models.IntegerField(default=0, validators=b.between(b.GAMES))
    losses = models.IntegerField(default=0, validators=b.between(b.GAMES))
    vp = models.BigIntegerField(default=0, validators=b.between(BIG_COUNTER))
    vp_boosted = models.BigIntegerField(default=0, validators=b.between(BIG_COUNTER))

    class Meta:
        ordering = ["league", "user", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user", "team", "opponents"], name="one_matchup_row"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} vs {self.opponents} in {self.league_id}"


class ScenarioRecord(models.Model):
    """One player's counting results in one league and scenario: what the player page's
    record by system and by scenario is summed from (kept up to date by every result write
    with the standings aggregates), so the page never reads the player's results."""

    COUNTS = ("games", "wins", "draws", "losses")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scenario = models.CharField(max_length=120, blank=True)  # as Result.scenario
    games = models.IntegerField(default=0, validators=b.between(b.GAMES))
    wins = models.IntegerField(default=0, validators=b.between(b.GAMES))
    draws = models.IntegerField(default=0, validators=b.between(b.GAMES))
    losses = models.IntegerField(default=0, validators=b.between(b.GAMES))

    class Meta:
        ordering = ["user", "league", "scenario"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "league", "scenario"], name="one_scenario_record"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.league_id}: {self.scenario or '—'}"

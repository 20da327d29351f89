"""Core records: clubs, campaigns with their sides and players, and the campaign log."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b


class GameSystem(models.TextChoices):
    COMBAT_COMMANDER = "cc", "Combat Commander"
    TCS = "tcs", "Tactical Combat Series"
    PARABELLUM = "parabellum", "Parabellum Soldier"
    M1936 = "m1936", "1936"


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(max_length=140, unique=True)
    description = models.TextField(_("description"), blank=True, **b.text(b.DESCRIPTION_MAX))
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubMembership", related_name="clubs"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubMembership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Campaign(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")

    name = models.CharField(_("name"), max_length=160)
    system = models.CharField(_("game system"), max_length=16, choices=GameSystem.choices)
    template = models.CharField(_("template"), max_length=40, blank=True)
    description = models.TextField(_("description"), blank=True, **b.text(b.DESCRIPTION_MAX))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SETUP)
    visibility = models.CharField(
        _("visibility"), max_length=16, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="campaigns"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_campaigns"
    )
    game_masters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="mastered_campaigns"
    )
    options = models.JSONField(default=dict, blank=True, validators=b.json_size(b.JSON_SMALL))
    stopped_reason = models.TextField(
        blank=True,
        **b.text(b.SERVER_TEXT_MAX),
        help_text="Why the rules procedure stopped (a table value missing …) until someone fixes it.",
    )
    tables = models.JSONField(
        default=dict,
        blank=True,
        help_text="User-supplied tables the rulebook only references.",
        validators=b.json_size(b.JSON_TABLES),
    )
    state = models.JSONField(
        default=dict, blank=True, help_text="The rules engine's campaign state (private parts too)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "status"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign-detail", args=[self.pk])


class Side(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sides")
    name = models.CharField(_("name"), max_length=80)
    faction = models.CharField(_("faction"), max_length=40, blank=True)
    order = models.PositiveSmallIntegerField(default=0, validators=b.between(b.SIDE_ORDER))
    players = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="SidePlayer", related_name="sides"
    )

    class Meta:
        ordering = ["campaign", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="side_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class SidePlayer(models.Model):
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["side", "user"], name="seat_unique")]

    def __str__(self) -> str:
        return f"{self.user} on {self.side}"


class LogEntry(models.Model):
    """Append-only campaign history: who did what, with the dice and rule references.

    `seq` orders the entries of one campaign; it is allocated while the campaign row is
    locked, so two writers cannot take the same number.
    """

    class Kind(models.TextChoices):
        CAMPAIGN = "campaign", _("Campaign")
        SETUP = "setup", _("Set-up")
        ROLL = "roll", _("Dice roll")
        EVENT = "event", _("Event")
        RESULT = "result", _("Result")
        RULE = "rule", _("Rule consequence")
        CORRECTION = "correction", _("Correction")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log")
    battle = models.ForeignKey(
        "campaigns.Battle", null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    seq = models.PositiveIntegerField(
        help_text="Order of writing; never shown (see number).", validators=b.between(b.COUNTER)
    )
    number = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=b.between(b.COUNTER),
        help_text="The number people see: public entries only, so that the numbering shows "
        "no gap where a side's private entry was written (empty for private entries).",
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="campaign_log_entries",
    )
    private_to = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="Set while the entry is private to one side (sealed choices, op sheets).",
    )
    summary = models.CharField(max_length=300)
    rule = models.CharField(max_length=40, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="log_seq_unique"),
        ]
        indexes = [
            models.Index(fields=["campaign", "kind"]),
            # windows of the log newest first (campaigns/selectors/history.py)
            models.Index(fields=["campaign", "kind", "seq"], name="log_kind_seq"),
            models.Index(fields=["battle", "seq"], name="log_battle_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.number or '-'} {self.summary}"

    @property
    def is_private(self) -> bool:
        return self.private_to_id is not None

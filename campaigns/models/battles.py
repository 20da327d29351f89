"""Battles, and the decisions a campaign waits for (sealed ones are secret until revealed)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from campaigns.i18n import say
from campaigns.models import bounds as b


class Battle(models.Model):
    """One battle of a campaign, from set-up to the resolution of its consequences."""

    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        PLAYING = "playing", _("Being played")
        RESOLVING = "resolving", _("Resolving the result")
        RESOLVED = "resolved", _("Resolved")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="battles"
    )
    number = models.PositiveSmallIntegerField(validators=b.between(b.BATTLE_NUMBER))
    position = models.CharField(_("position"), max_length=20, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SETUP)
    winner = models.ForeignKey(
        "campaigns.Side", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.JSONField(default=dict, blank=True)
    state_before = models.JSONField(
        default=dict,
        blank=True,
        help_text="The campaign state when the result was entered, so a correction can redo it.",
    )
    result_submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="battle_number_unique")
        ]
        # a club's battles, latest first (campaigns/selectors/history.py)
        indexes = [models.Index(fields=["created_at", "id"], name="battle_created_id")]

    def __str__(self) -> str:
        return f"Battle {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("battle-detail", args=[self.campaign_id, self.number])


class Decision(models.Model):
    """A choice the rules engine needs from one side (or the players together).

    The engine names the chooser; only that side's players (or a neutral game master) may
    answer. A sealed decision's answer stays private until every sealed sibling is in.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting")
        ANSWERED = "answered", _("Answered")
        APPLIED = "applied", _("Applied")
        CANCELLED = "cancelled", _("Cancelled")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="decisions"
    )
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.CASCADE, related_name="decisions"
    )
    key = models.CharField(max_length=60)
    rule = models.CharField(max_length=40, blank=True)
    prompt = models.TextField(**b.text(b.SERVER_TEXT_MAX))
    prompt_msg = models.JSONField(
        default=dict,
        blank=True,
        validators=b.json_size(b.JSON_SMALL),
        help_text="The prompt as a message id with parameters, drawn in the reader's language.",
    )
    options = models.JSONField(default=list, blank=True)
    min_choices = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=b.between(b.CHOICES)
    )
    max_choices = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=b.between(b.CHOICES)
    )
    chooser = models.ForeignKey(
        "campaigns.Side",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="decisions",
        help_text="Empty when the players decide together.",
    )
    sealed = models.BooleanField(default=False)
    roll_kind = models.CharField(
        max_length=12, blank=True, help_text="Set when players must enter a roll made at the table."
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    answer = models.JSONField(null=True, blank=True, validators=b.json_size(b.JSON_SMALL))
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                condition=models.Q(status="open"),
                name="one_open_decision_per_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"

    @property
    def prompt_text(self) -> str:
        """The prompt in the reader's language (`prompt` keeps its English words)."""
        return say(self.prompt_msg) if self.prompt_msg else self.prompt

    @property
    def is_multiple(self) -> bool:
        return self.min_choices is not None or self.max_choices is not None

    @property
    def is_roll(self) -> bool:
        return bool(self.roll_kind)

    @property
    def is_number(self) -> bool:
        return not self.options and not self.is_multiple and not self.is_roll

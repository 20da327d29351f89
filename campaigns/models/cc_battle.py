"""A Combat Commander battle tracked by the rules: its state and the actions that made it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b


class BattleTracker(models.Model):
    """The battle's tracks (and, tracked fully, its units) as `rules.cc.battle.state` keeps
    them, the counter table its procedures read, and a version that every action bumps so two
    players acting on the same view cannot both apply."""

    battle = models.OneToOneField(
        "campaigns.Battle", on_delete=models.CASCADE, related_name="tracker"
    )
    state = models.JSONField(validators=b.json_size(b.JSON_TABLES))
    counters = models.JSONField(
        default=dict,
        blank=True,
        validators=b.json_size(b.JSON_TABLES),
        help_text="The counter table (values printed on the counters), per nationality.",
    )
    version = models.PositiveIntegerField(default=1, validators=b.between(b.COUNTER))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Tracker of {self.battle}"


class BattleAction(models.Model):
    """One procedure resolved on a tracked battle: who, what was entered, what came of it and
    the state before it (so the last action can be undone, with a trace)."""

    tracker = models.ForeignKey(BattleTracker, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(validators=b.between(b.COUNTER))
    procedure = models.CharField(max_length=40)
    side = models.CharField(_("side"), max_length=10, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    inputs = models.JSONField(default=dict, blank=True, validators=b.json_size(b.JSON_SMALL))
    result = models.JSONField(default=dict, blank=True, validators=b.json_size(b.JSON_TABLES))
    state_before = models.JSONField(validators=b.json_size(b.JSON_TABLES))
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tracker", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tracker", "seq"], name="battle_action_seq_unique")
        ]

    def __str__(self) -> str:
        return f"{self.procedure} #{self.seq}"

    @property
    def rolls(self) -> list[dict]:
        """The rolls it was resolved with, read from its explanation's steps."""
        return [step["roll"] for step in self.result.get("explanation", []) if "roll" in step]

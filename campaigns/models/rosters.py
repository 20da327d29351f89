"""Persistent rosters (Parabellum squads, "1936" army lists), their history, and skirmish
battles between two rosters with sealed orders and an append-only battle log.

A roster's `data` is the engine's own `to_dict()` (a Parabellum `Roster` or a 1936
`ArmyList`); every change to it is a `RosterChange` row with the state before and after, the
battle that caused it (if any) and the engine's explanation.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b


class RosterSystem(models.TextChoices):
    PARABELLUM = "parabellum", "Parabellum Soldier"
    M1936 = "m1936", "1936"


class Roster(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rosters"
    )
    system = models.CharField(_("game system"), max_length=16, choices=RosterSystem.choices)
    name = models.CharField(_("name"), max_length=120)
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rosters",
    )
    data = models.JSONField(default=dict, help_text="The engine's roster / army list.")
    house_rules = models.JSONField(
        default=dict,
        blank=True,
        help_text="Campaign house rules (all off by default).",
        validators=b.json_size(b.JSON_SMALL),
    )
    condition = models.JSONField(
        default=dict, blank=True, help_text="1936: unit condition carried over, by entry index."
    )
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "system"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("roster-detail", args=[self.pk])


class SkirmishBattle(models.Model):
    """A battle between two rosters of one system (Parabellum or 1936)."""

    class Status(models.TextChoices):
        SETUP = "setup", _("Waiting for the opponent's roster")
        PLAYING = "playing", _("Being played")
        FINISHED = "finished", _("Finished")

    class Mode(models.TextChoices):
        SIMPLE = "simple", _("Simple game")
        ORDERS = "orders", _("Orders game")
        OPEN = "open", _("Open game")

    system = models.CharField(max_length=16, choices=RosterSystem.choices)
    mode = models.CharField(max_length=8, choices=Mode.choices, blank=True)
    title = models.CharField(_("title"), max_length=120, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="skirmishes",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETUP)
    turns = models.JSONField(default=list, blank=True, help_text="Parabellum end-of-turn states.")
    tactical = models.JSONField(
        default=list, blank=True, help_text="Parabellum tactical phases: tokens, initiative, PO."
    )
    scenario = models.JSONField(default=dict, blank=True, help_text="1936 scenario sheet.")
    weather = models.JSONField(default=dict, blank=True, help_text="1936 weather and changes.")
    construction = models.JSONField(default=dict, blank=True, help_text="1936 construction pool.")
    play = models.JSONField(
        default=dict,
        blank=True,
        help_text="In-battle state: turn, phase, whose activation, the activation in progress.",
    )
    readings = models.JSONField(
        default=dict,
        blank=True,
        help_text="The readings chosen for this battle where the rules admit two.",
        validators=b.json_size(b.JSON_SMALL),
    )
    score = models.JSONField(default=dict, blank=True)
    winner_index = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=b.between(b.SIDE_INDEX)
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"{self.get_system_display()} battle {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("skirmish-detail", args=[self.pk])


class SkirmishSide(models.Model):
    """One player in a skirmish: the roster as fielded (snapshot), role, losses, PO ledger."""

    class Role(models.TextChoices):
        ATTACKER = "attacker", _("Attacker")
        DEFENDER = "defender", _("Defender")

    battle = models.ForeignKey(SkirmishBattle, on_delete=models.CASCADE, related_name="sides")
    index = models.PositiveSmallIntegerField(validators=b.between(b.SIDE_INDEX))
    role = models.CharField(max_length=10, choices=Role.choices)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="skirmish_sides"
    )
    roster = models.ForeignKey(
        Roster, null=True, blank=True, on_delete=models.SET_NULL, related_name="battle_sides"
    )
    snapshot = models.JSONField(default=dict, blank=True)
    start_po = models.IntegerField(default=0, validators=b.between(b.PO))
    po = models.IntegerField(default=0, validators=b.between(b.PO))
    casualties = models.JSONField(default=list, blank=True)
    calls = models.JSONField(default=list, blank=True)
    units = models.JSONField(
        default=dict,
        blank=True,
        help_text="Each unit's (1936) or soldier's (Parabellum) state in this battle, by key.",
    )
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["battle", "index"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "index"], name="skirmish_side_index"),
            models.UniqueConstraint(fields=["battle", "role"], name="skirmish_side_role"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.role})"


class SkirmishUndo(models.Model):
    """What the battle and its sides were before the last action, so that action can be
    undone. One row per battle: each action replaces it, an undo consumes it."""

    battle = models.OneToOneField(SkirmishBattle, on_delete=models.CASCADE, related_name="undo")
    event = models.ForeignKey(
        "campaigns.SkirmishEvent", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    before = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"undo of {self.battle}"


class SealedOrders(models.Model):
    """Orders-game secrets: the priority order and two officer directives (§9.2).

    Private to the side's player (and a neutral game master) until the battle ends; then
    every side's orders are revealed together (`revealed_at`)."""

    side = models.OneToOneField(SkirmishSide, on_delete=models.CASCADE, related_name="orders")
    priority_order = models.PositiveSmallIntegerField(validators=b.between(b.PRIORITY_ORDER))
    directives = models.JSONField(default=list)
    drawn_by_server = models.BooleanField(default=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"orders of {self.side}"


class SkirmishEvent(models.Model):
    """Append-only battle log with dice and rule references; `private_to` hides an entry
    from the other side until the battle ends."""

    class Kind(models.TextChoices):
        SETUP = "setup", _("Set-up")
        ROLL = "roll", _("Dice roll")
        EVENT = "event", _("Event")
        RESULT = "result", _("Result")
        RULE = "rule", _("Rule consequence")
        CORRECTION = "correction", _("Correction")

    battle = models.ForeignKey(SkirmishBattle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(
        help_text="Order of writing; never shown (see number).", validators=b.between(b.COUNTER)
    )
    number = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=b.between(b.COUNTER),
        help_text="The number people see: public events only (empty for private ones).",
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    private_to = models.ForeignKey(
        SkirmishSide, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    summary = models.CharField(max_length=300)
    rule = models.CharField(max_length=60, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="skirmish_event_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.number or '-'} {self.summary}"


class SkirmishCorrection(models.Model):
    """A correction of a finished skirmish's result: applied at once by an organiser, or
    proposed by one player and applied when the other agrees. The log keeps both results
    and the reason; house-rule changes already applied to the rosters are undone."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        APPLIED = "applied", _("Applied")
        WITHDRAWN = "withdrawn", _("Replaced or withdrawn")

    battle = models.ForeignKey(SkirmishBattle, on_delete=models.CASCADE, related_name="corrections")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    previous_winner_index = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=b.between(b.SIDE_INDEX)
    )
    winner_index = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The corrected winner; empty is a draw.",
        validators=b.between(b.SIDE_INDEX),
    )
    reason = models.CharField(_("reason"), max_length=300)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    agreed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["battle", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"correction of {self.battle}: {self.status}"


class RosterChange(models.Model):
    """One change to a roster, with its state before and after (the roster's history)."""

    class Kind(models.TextChoices):
        CREATED = "created", _("Created")
        EDIT = "edit", _("Builder edit")
        SETTINGS = "settings", _("Settings")
        HOUSE_RULES = "house_rules", _("House rules")
        BATTLE = "battle", _("Fought a battle")
        POST_BATTLE = "post_battle", _("After a battle")
        CORRECTION = "correction", _("Correction")
        ARCHIVED = "archived", _("Archived")

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="changes")
    seq = models.PositiveIntegerField(validators=b.between(b.COUNTER))
    kind = models.CharField(max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    summary = models.CharField(max_length=300)
    rule = models.CharField(max_length=60, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    explanation = models.JSONField(default=list, blank=True)
    battle = models.ForeignKey(
        SkirmishBattle,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="roster_changes",
    )
    reverts = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["roster", "-seq"]
        constraints = [
            models.UniqueConstraint(fields=["roster", "seq"], name="roster_change_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.summary}"

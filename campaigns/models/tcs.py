"""Tactical Combat Series operations: per-side settings, order of battle, op sheets, phases.

A TCS operation is a `Campaign` with system "tcs" and template "tcs-operation"; the turn clock
lives in `Campaign.state`. Engine states are kept as JSON written by the rules' `to_dict()`
(`rules.tcs`), so the engine stays the single source of the procedures.

Op sheets, task organisation and morale values are a side's secrets [1.5]: every read goes
through `campaigns.permissions.can_see_tcs_secret`.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from campaigns.models import bounds as b

TCS_TEMPLATE = "tcs-operation"
SHEET_TYPES = {
    "prepared_defense": _("Prepared Defense"),
    "attack": _("Attack"),
    "hasty_defense": _("Hasty Defense"),
    "move": _("Move"),
}
SHEET_TEXT_FIELDS = (  # what the player writes on an op sheet [6.5]
    "time_drawn",
    "size_note",
    "task_organization",
    "written_notes",
    "failure_instructions",
    "rally_points",
    "preliminary_text",
    "reserves_text",
    "alternatives_text",
)
SHEET_STATES = {
    "unimplemented": _("Unimplemented"),
    "prelims_active": _("Preliminary instructions"),
    "implemented": _("Implemented"),
    "succeeded": _("Succeeded"),
    "failed": _("Failed"),
}


class PrivateStorage(FileSystemStorage):
    """Uploaded op-sheet graphics: kept outside MEDIA_ROOT (which the web server publishes)
    and served only through a permission-checked view."""

    @cached_property
    def base_location(self):
        return str(settings.PRIVATE_MEDIA_ROOT)

    @cached_property
    def base_url(self):  # no public URL: see views.tcs.sheet_graphic
        return None


_private_storage = PrivateStorage()


def private_storage() -> PrivateStorage:
    return _private_storage


def graphic_path(instance: OpSheetRecord, filename: str) -> str:
    """A generated name with the extension of the type `check_graphic` detected (it names the
    upload "graphic.<ext>" after the content); any other extension is dropped, so no stored
    name ever ends in .html, .svg or the like, whatever path saved the file."""
    ext = Path(filename).suffix.lower()
    if ext not in {".png", ".jpg", ".gif", ".webp", ".pdf"}:
        ext = ""
    return f"tcs/{instance.campaign_id}/{uuid.uuid4().hex}{ext}"


class TcsSide(models.Model):
    """A side's Command Prep rating and its optional Command Prep Table [6.9.a, 6.9.f]."""

    side = models.OneToOneField("campaigns.Side", on_delete=models.CASCADE, related_name="tcs")
    rating = models.PositiveSmallIntegerField(
        _("Command Prep rating"), default=3, validators=b.between(b.COMMAND_PREP_RATING)
    )
    prep_table = models.JSONField(
        null=True,
        blank=True,
        validators=b.json_size(b.JSON_TABLES),
        help_text="COMMAND_PREP_SCHEMA records; empty: players enter thresholds off the chart.",
    )
    artillery = models.JSONField(
        default=dict,
        blank=True,
        validators=b.json_size(b.JSON_TABLES),
        help_text="Batteries and ammunition records [18.2, 24.6.c] (rules.tcs.artillery).",
    )

    def __str__(self) -> str:
        return f"{self.side} (rating {self.rating})"


class TcsFormation(models.Model):
    """A formation; battalion or vehicle morale formations keep their engine state."""

    class Morale(models.TextChoices):
        BATTALION = "battalion", _("Battalion morale")
        VEHICLE = "vehicle", _("Vehicle morale track")
        NONE = "none", _("No morale of its own")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tcs_formations"
    )
    side = models.ForeignKey(
        "campaigns.Side", on_delete=models.CASCADE, related_name="tcs_formations"
    )
    code = models.CharField(_("formation id"), max_length=40)
    name = models.CharField(_("name"), max_length=120, blank=True)
    morale = models.CharField(_("morale"), max_length=12, choices=Morale.choices)
    is_battalion = models.BooleanField(_("a battalion"), default=False)
    state = models.JSONField(
        default=dict, blank=True, help_text="BattalionMorale or VehicleMoraleTrack to_dict()."
    )
    history = models.JSONField(
        default=list, blank=True, help_text="[{turn, value, cause}] for the timeline."
    )
    order = models.PositiveIntegerField(default=0, validators=b.between(b.COUNTER))

    class Meta:
        ordering = ["side", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "code"], name="tcs_formation_code_unique")
        ]

    def __str__(self) -> str:
        return self.code

    @property
    def morale_value(self) -> int | None:
        return self.state.get("value") if self.morale != self.Morale.NONE else None


class MoraleState(models.TextChoices):
    """A unit's morale marker [17.3, 17.5] (values of `rules.tcs.morale_check.MoraleState`)."""

    NORMAL = "normal", _("Good order")
    SUPPRESSED = "suppressed", _("Suppressed (17.3)")
    PARALYZED = "paralyzed", _("Paralyzed (17.5)")


class Mode(models.TextChoices):
    """Fire or Move mode [4.1] (values of `rules.tcs.morale_check.Mode`)."""

    FIRE = "fire", _("Fire mode")
    MOVE = "move", _("Move mode")


class TcsUnit(models.Model):
    class Category(models.TextChoices):
        INFANTRY = "infantry", _("Infantry")
        HEAVY_WEAPON = "heavy_weapon", _("Heavy weapon")
        VEHICLE = "vehicle", _("Vehicle")
        TRANSPORT = "transport", _("Transport")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tcs_units"
    )
    side = models.ForeignKey("campaigns.Side", on_delete=models.CASCADE, related_name="tcs_units")
    formation = models.ForeignKey(
        TcsFormation, null=True, blank=True, on_delete=models.RESTRICT, related_name="units"
    )
    code = models.CharField(_("unit id"), max_length=40)
    category = models.CharField(_("category"), max_length=16, choices=Category.choices)
    steps = models.PositiveSmallIntegerField(_("steps"), default=1, validators=b.between(b.STEPS))
    steps_lost = models.PositiveSmallIntegerField(default=0, validators=b.between(b.STEPS_LOST))
    eliminated_turn = models.IntegerField(null=True, blank=True, validators=b.between(b.TURN))
    left_additions = models.JSONField(
        default=list,
        blank=True,
        help_text="Pending additions it was dropped from when eliminated: "
        "[{sheet, addition, mission}], to put it back if steps are given back.",
    )
    order = models.PositiveIntegerField(default=0, validators=b.between(b.COUNTER))
    morale = models.PositiveSmallIntegerField(
        _("printed morale"),
        null=True,
        blank=True,
        validators=b.between(b.UNIT_MORALE),
        help_text="As printed on the counter [17.2]; empty: typed at each check.",
    )
    morale_state = models.CharField(
        _("morale state"), max_length=12, choices=MoraleState.choices, default=MoraleState.NORMAL
    )
    mode = models.CharField(_("mode"), max_length=6, choices=Mode.choices, default=Mode.FIRE)
    dug_in = models.BooleanField(_("dug in"), default=False)
    credited_to = models.ForeignKey(
        TcsFormation,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The battalion whose box its elimination was counted in [17.1.a-c].",
    )

    class Meta:
        ordering = ["side", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "code"], name="tcs_unit_code_unique")
        ]

    def __str__(self) -> str:
        return self.code

    @property
    def steps_left(self) -> int:
        return self.steps - self.steps_lost

    @property
    def eliminated(self) -> bool:
        return self.eliminated_turn is not None


class OpSheetRecord(models.Model):
    """One op sheet: the engine's `OpSheet` state plus what the player wrote on it [6.5]."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tcs_sheets"
    )
    side = models.ForeignKey("campaigns.Side", on_delete=models.CASCADE, related_name="tcs_sheets")
    code = models.CharField(_("label"), max_length=40)
    state = models.JSONField(default=dict, help_text="rules.tcs.opsheet.OpSheet to_dict().")
    time_drawn = models.CharField(_("time drawn"), max_length=8, blank=True)
    size_note = models.CharField(_("size justification"), max_length=200, blank=True)
    task_organization = models.TextField(_("task organization"), blank=True, **b.text(b.NOTES_MAX))
    written_notes = models.TextField(_("written notes"), blank=True, **b.text(b.NOTES_MAX))
    failure_instructions = models.TextField(
        _("failure instructions"), blank=True, **b.text(b.NOTES_MAX)
    )
    rally_points = models.CharField(_("rally points"), max_length=200, blank=True)
    preliminary_text = models.TextField(
        _("preliminary instructions"), blank=True, **b.text(b.NOTES_MAX)
    )
    reserves_text = models.TextField(_("reserves: intended use"), blank=True, **b.text(b.NOTES_MAX))
    alternatives_text = models.TextField(_("alternatives"), blank=True, **b.text(b.NOTES_MAX))
    graphic = models.FileField(
        _("graphic"), upload_to=graphic_path, storage=private_storage, blank=True
    )
    history = models.JSONField(
        default=list, blank=True, help_text="[{turn, status, wt}] for the timeline."
    )
    prepared_defense = models.JSONField(
        default=list,
        blank=True,
        help_text="What implementing a Prepared Defense did [6.16.a, 21.1]: "
        "[{addition, turn, dug_in, not_dug_in, minefields}].",
    )
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["side", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "side", "code"], name="tcs_sheet_code_unique"
            )
        ]

    def __str__(self) -> str:
        return self.code

    @property
    def status(self) -> str:
        return self.state.get("status", "")

    @property
    def sheet_type(self) -> str:
        return self.state.get("type", "")

    @property
    def weighted_turns(self) -> int:
        return self.state.get("weighted_turns", 0)

    @property
    def type_label(self) -> str:
        return str(SHEET_TYPES.get(self.sheet_type, self.sheet_type))

    @property
    def status_label(self) -> str:
        return str(SHEET_STATES.get(self.status, self.status))

    @property
    def entries(self) -> list[dict]:
        return self.state.get("entries", [])


class CommandPhase(models.Model):
    """One side's Command Phase of one turn [2.0]; `steps` records what was done in it."""

    class Status(models.TextChoices):
        OPEN = "open", _("In progress")
        COMPLETED = "completed", _("Completed")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tcs_phases"
    )
    side = models.ForeignKey("campaigns.Side", on_delete=models.CASCADE, related_name="tcs_phases")
    turn = models.PositiveIntegerField(validators=b.between(b.TURN))
    clock = models.CharField(max_length=4)
    light = models.CharField(max_length=10, default="day")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    steps = models.JSONField(
        default=dict,
        blank=True,
        help_text="{successes, ticked, attempted, checked, recovery, ...} per step.",
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    completed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "turn", "side"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "side", "turn"], name="tcs_phase_unique")
        ]

    def __str__(self) -> str:
        return f"Command Phase {self.turn} ({self.clock}) of {self.side_id}"


class TcsDecision(models.Model):
    """A choice the rules give to the other player, asked as its own step: which battalion
    a destroyed unit counts for when several are equally near [17.1.c].

    The chooser sees the unit and the candidate battalions (counters on the map), never
    the owner's morale values.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Awaiting the choice")
        RESOLVED = "resolved", _("Chosen")
        CANCELLED = "cancelled", _("Cancelled")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tcs_decisions"
    )
    side = models.ForeignKey(
        "campaigns.Side", on_delete=models.CASCADE, related_name="tcs_decisions"
    )
    chooser = models.ForeignKey(
        "campaigns.Side", on_delete=models.CASCADE, related_name="tcs_decisions_to_make"
    )
    unit = models.ForeignKey(TcsUnit, on_delete=models.CASCADE, related_name="decisions")
    key = models.CharField(max_length=80)
    rule = models.CharField(max_length=20, default="17.1.c")
    options = models.JSONField(default=list)
    combat = models.BooleanField(default=True)
    turn = models.IntegerField(default=0, validators=b.between(b.TURN))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    choice = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["campaign", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["unit"],
                condition=models.Q(status="open"),
                name="tcs_decision_one_open_per_unit",
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class TcsCombat(models.Model):
    """One procedure resolved in the turn (fire, a morale check, an assault …): what was
    entered, what the rules said, and what is still to apply.

    A fire result on the other side's stack waits (`OPEN`) for that side to assign the step
    losses and take the morale check it forces, because only the owner may see its units'
    morale [1.5]; the firer sees the result, never the owner's totals.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("To apply by the target's owner")
        APPLIED = "applied", _("Applied")
        DONE = "done", _("Nothing to apply")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="tcs_combats"
    )
    side = models.ForeignKey("campaigns.Side", on_delete=models.CASCADE, related_name="+")
    target_side = models.ForeignKey(
        "campaigns.Side", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    turn = models.IntegerField(default=0, validators=b.between(b.TURN))
    kind = models.CharField(max_length=24)
    rule = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DONE)
    inputs = models.JSONField(default=dict, blank=True, validators=b.json_size(b.JSON_TABLES))
    result = models.JSONField(default=dict, blank=True, validators=b.json_size(b.JSON_TABLES))
    applied = models.JSONField(default=dict, blank=True, validators=b.json_size(b.JSON_TABLES))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "target_side", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} ({self.status})"

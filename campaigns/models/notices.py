"""A user's notice settings: which e-mails to receive, and when the inbox was last read."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NoticeSettings(models.Model):
    """One row per user, made on first use; every e-mail notice is off until chosen."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    email_decisions = models.BooleanField(
        _("a decision or a sealed choice waits for my side"), default=False
    )
    email_seats = models.BooleanField(_("I am seated on a side of a campaign"), default=False)
    email_invitations = models.BooleanField(
        _("I am named as the opponent in a skirmish"), default=False
    )
    email_results = models.BooleanField(
        _("a result I played is reported for me to confirm"), default=False
    )
    language = models.CharField(
        max_length=8,
        blank=True,
        help_text="The language the user read the site in when choosing the notices: "
        "the mails are written in it.",
    )
    inbox_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="Seats newer than this are news in the inbox."
    )

    def __str__(self) -> str:
        return f"notice settings of {self.user_id}"

"""Notices: a user's e-mail settings, the inbox's last reading, and the e-mails themselves.

The services that make something wait for a player (a decision, a seat, an invitation, a
reported result) are not touched: a model signal notes the new row and, once its
transaction commits, a Celery task mails the players who chose that kind of notice. The
mail names what waits and links to the inbox; it never carries another side's secrets.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaigns.models import (
    Decision,
    NoticeSettings,
    Result,
    SidePlayer,
    SkirmishSide,
    TcsDecision,
)
from campaigns.services.enqueue import SEND_NOTICES, enqueue

SETTING_FIELDS = ("email_decisions", "email_seats", "email_invitations", "email_results")

# kind of notice -> the setting that turns it on
KIND_SETTING = {
    "decision": "email_decisions",
    "tcs_decision": "email_decisions",
    "seat": "email_seats",
    "invitation": "email_invitations",
    "result": "email_results",
}


def notice_settings_get(*, user) -> NoticeSettings:
    """The user's settings (unsaved defaults when never set: every e-mail off)."""
    return NoticeSettings.objects.filter(user=user).first() or NoticeSettings(user=user)


def notice_settings_update(
    *, user, email: str = "", language: str = "", **choices: bool
) -> NoticeSettings:
    """Set the address notices go to, the language they are written in, and turn each kind
    of e-mail notice on or off."""
    values = {k: bool(choices.get(k, False)) for k in SETTING_FIELDS}
    if language in dict(settings.LANGUAGES):
        values["language"] = language
    with transaction.atomic():
        if email != user.email:
            user.email = email
            user.save(update_fields=["email"])
        row, _created = NoticeSettings.objects.update_or_create(user=user, defaults=values)
    return row


def notice_inbox_read(*, user) -> None:
    """The user has read the inbox: the seats given so far are no longer news."""
    now = timezone.now()
    if not NoticeSettings.objects.filter(user=user).update(inbox_seen_at=now):
        NoticeSettings.objects.get_or_create(user=user, defaults={"inbox_seen_at": now})


# --- Who is told about a new row -----------------------------------------------------------


def _recipients(kind: str, pk: int) -> list[int]:
    """The ids of the users a new row of ``kind`` waits for."""
    if kind == "decision":
        d = Decision.objects.filter(pk=pk, status=Decision.Status.OPEN).first()
        if d is None:
            return []
        seats = SidePlayer.objects.filter(side__campaign_id=d.campaign_id)
        if d.chooser_id is not None:
            seats = seats.filter(side_id=d.chooser_id)
        return list(seats.values_list("user_id", flat=True))
    if kind == "tcs_decision":
        d = TcsDecision.objects.filter(pk=pk, status=TcsDecision.Status.OPEN).first()
        if d is None:
            return []
        return list(
            SidePlayer.objects.filter(side_id=d.chooser_id).values_list("user_id", flat=True)
        )
    if kind == "seat":
        seat = SidePlayer.objects.filter(pk=pk).select_related("side__campaign").first()
        if seat is None or seat.side.campaign.created_by_id == seat.user_id:
            return []
        return [seat.user_id]
    if kind == "invitation":
        side = SkirmishSide.objects.filter(pk=pk).select_related("battle").first()
        if side is None or side.roster_id or side.battle.created_by_id == side.player_id:
            return []
        return [side.player_id]
    if kind == "result":
        result = Result.objects.filter(pk=pk, status=Result.Status.REPORTED).first()
        if result is None:
            return []
        players = list(result.players.all())
        team = next((p.team for p in players if p.user_id == result.entered_by_id), None)
        return [p.user_id for p in players if p.team != team]
    return []


def _subject(kind: str) -> str:
    return {
        "decision": _("A decision waits for your side"),
        "tcs_decision": _("A choice waits for your side"),
        "seat": _("You were seated in a campaign"),
        "invitation": _("You are invited to a skirmish"),
        "result": _("A result waits for your confirmation"),
    }[kind]


def notices_send(*, kind: str, pk: int) -> int:
    """Mail the users a new row waits for, if they chose this kind of notice (the task's
    work). Returns how many mails were sent."""
    if kind not in KIND_SETTING:
        return 0
    if not NoticeSettings.objects.filter(**{KIND_SETTING[kind]: True}).exists():
        return 0  # nobody asked for this kind of mail: no more work
    users = _recipients(kind, pk)
    if not users:
        return 0
    wanted = NoticeSettings.objects.filter(user_id__in=users, **{KIND_SETTING[kind]: True})
    User = get_user_model()
    addresses = list(
        User.objects.filter(pk__in=wanted.values("user_id"))
        .exclude(email="")
        .values_list("email", "notice_settings__language")
    )
    if not addresses:
        return 0
    link = settings.SITE_URL.rstrip("/") + reverse("inbox")
    messages = []
    for address, language in addresses:  # each mail in its reader's language
        with translation.override(language or settings.LANGUAGE_CODE):
            subject = _subject(kind)
            body = _("%(what)s. See what waits for you: %(link)s") % {
                "what": subject,
                "link": link,
            }
        messages.append((subject, body, settings.DEFAULT_FROM_EMAIL, [address]))
    return send_mass_mail(messages, fail_silently=False)


# --- Signals: a new row that waits for someone -----------------------------------------------

WATCHED = {
    Decision: "decision",
    TcsDecision: "tcs_decision",
    SidePlayer: "seat",
    SkirmishSide: "invitation",
    Result: "result",
}


def _on_new_row(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    """Queue the mails of a new row, only when somebody asked for that kind of notice (one
    small query; most sites have nobody, and then a write queues nothing more)."""
    if not created or raw:
        return
    kind = WATCHED[sender]
    if NoticeSettings.objects.filter(**{KIND_SETTING[kind]: True}).exists():
        enqueue(SEND_NOTICES, kind, instance.pk)


for _model in WATCHED:
    receiver(post_save, sender=_model, dispatch_uid=f"notices-{_model.__name__}")(_on_new_row)

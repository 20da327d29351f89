"""Creating clubs, joining them, and the campaigns they hold."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Club, ClubMembership, LogEntry, bounds
from campaigns.permissions import can_manage_campaign, is_club_member, is_club_organiser
from campaigns.services._base import append_log, lock_campaign
from rules.i18n import msg


def club_create(*, creator, name: str, description: str = "") -> Club:
    """Create a club; its creator is its first organiser."""
    name = name.strip()
    slug = slugify(name)
    if not name or not slug:
        raise ValidationError({"name": _("Give the club a name with letters or digits.")})
    bounds.check_values(Club, {"name": name, "slug": slug, "description": description})
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, description=description)
            ClubMembership.objects.create(
                club=club, user=creator, role=ClubMembership.Role.ORGANISER
            )
    except IntegrityError:
        raise ValidationError({"name": _("A club with this name already exists.")}) from None
    return club


def club_join(*, user, club: Club, role: str = ClubMembership.Role.MEMBER) -> ClubMembership:
    """Add a member; joining twice keeps the first membership."""
    membership, _created = ClubMembership.objects.get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def campaign_club_set(*, campaign: Campaign, actor, club: Club | None) -> Campaign:
    """Move a campaign into a club, to another club, or out of any club (``club=None``).

    The campaign's organiser (creator or game master) may move it into a club he belongs to,
    and out of its club; an organiser of the campaign's current club may also take it out.
    """
    manager = can_manage_campaign(actor, campaign)
    if club is not None and not (manager and is_club_member(actor, club)):
        raise ValidationError(
            {"club": _("Only the campaign's organiser can move it, into a club he belongs to.")},
            code="forbidden",
        )
    if club is None and not (
        manager or (campaign.club is not None and is_club_organiser(actor, campaign.club))
    ):
        raise ValidationError(
            _("Only the campaign's organiser or the club's organisers can do this."),
            code="forbidden",
        )
    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        before = Club.objects.filter(pk=campaign.club_id).first()
        if campaign.club_id == (club.pk if club else None):
            return campaign
        campaign.club = club
        campaign.save(update_fields=["club", "updated_at"])
        if club is None:
            summary = msg("Campaign taken out of the club %(club)s.", club=before.name)
        elif before is None:
            summary = msg("Campaign moved into the club %(club)s.", club=club.name)
        else:
            summary = msg(
                "Campaign moved from the club %(old)s to the club %(club)s.",
                old=before.name,
                club=club.name,
            )
        append_log(
            campaign,
            kind=LogEntry.Kind.CAMPAIGN,
            summary=summary,
            actor=actor,
            data={"club": club.pk if club else None, "previous_club": before and before.pk},
        )
    return campaign

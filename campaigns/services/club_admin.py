"""Running a club: invitations and members' roles (club creation is in services/clubs.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Club, ClubInvite, ClubMembership
from campaigns.permissions import is_club_organiser


def _require_organiser(actor, club: Club) -> None:
    if not is_club_organiser(actor, club):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")


def club_invite_create(
    *, club: Club, actor, username: str = "", role: str = ClubMembership.Role.MEMBER
) -> ClubInvite:
    """An organiser invites a named user, or anyone holding the link when no name is given."""
    _require_organiser(actor, club)
    if role not in ClubMembership.Role.values:
        raise ValidationError({"role": _("Choose organiser or member.")})
    invited = None
    username = (username or "").strip()
    if username:
        invited = get_user_model().objects.filter(username=username).first()
        if invited is None:
            raise ValidationError({"username": _("There is no user with this name.")})
        if ClubMembership.objects.filter(club=club, user=invited).exists():
            raise ValidationError({"username": _("This user is already a member.")})
    return ClubInvite.objects.create(club=club, invited_user=invited, role=role, created_by=actor)


def club_invite_accept(*, token: str, user) -> ClubMembership:
    """Join the club with an open invitation; accepting twice keeps the first membership."""
    with transaction.atomic():
        invite = (
            ClubInvite.objects.select_for_update()
            .select_related("club")
            .filter(token=token)
            .first()
        )
        if invite is None or invite.revoked:
            raise ValidationError(
                {
                    "token": ValidationError(
                        _("This invitation does not exist or was withdrawn."), code="not_found"
                    )
                }
            )
        if invite.accepted_at is not None:
            if invite.accepted_by_id == user.pk:
                return ClubMembership.objects.get(club=invite.club, user=user)
            raise ValidationError({"token": _("This invitation has already been used.")})
        if invite.invited_user_id and invite.invited_user_id != user.pk:
            raise ValidationError({"token": _("This invitation is for another user.")})
        membership, created = ClubMembership.objects.get_or_create(
            club=invite.club, user=user, defaults={"role": invite.role}
        )
        if not created and invite.role == ClubMembership.Role.ORGANISER:
            membership.role = invite.role
            membership.save(update_fields=["role"])
        invite.accepted_by = user
        invite.accepted_at = timezone.now()
        invite.save(update_fields=["accepted_by", "accepted_at"])
    return membership


def club_invite_revoke(*, invite: ClubInvite, actor) -> ClubInvite:
    _require_organiser(actor, invite.club)
    if invite.accepted_at is not None:
        raise ValidationError(_("This invitation has already been used."))
    invite.revoked = True
    invite.save(update_fields=["revoked"])
    return invite


def club_member_set_role(*, club: Club, actor, user, role: str) -> ClubMembership:
    """Promote or demote a member; a club always keeps at least one organiser."""
    _require_organiser(actor, club)
    if role not in ClubMembership.Role.values:
        raise ValidationError({"role": _("Choose organiser or member.")})
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        membership = ClubMembership.objects.filter(club=club, user=user).first()
        if membership is None:
            raise ValidationError({"user": _("This user is not a member of the club.")})
        organisers = ClubMembership.objects.filter(club=club, role=ClubMembership.Role.ORGANISER)
        if (
            membership.role == ClubMembership.Role.ORGANISER
            and role != ClubMembership.Role.ORGANISER
            and organisers.count() == 1
        ):
            raise ValidationError({"role": _("A club needs at least one organiser.")})
        membership.role = role
        membership.save(update_fields=["role"])
    return membership

"""Creating clubs and joining them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns.models import Club, ClubMembership, bounds


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

"""Creating campaigns and taking seats on their sides."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.cc.labels import side_word
from campaigns.models import Campaign, Club, GameSystem, LogEntry, Side, SidePlayer, bounds
from campaigns.permissions import is_club_member, viewer_context
from campaigns.services._base import append_log, lock_campaign
from rules.i18n import Msg, msg


def campaign_create(
    *,
    creator,
    name: str,
    system: str,
    side_names: list[str],
    template: str = "",
    description: str = "",
    visibility: str = Campaign.Visibility.PRIVATE,
    club: Club | None = None,
    as_game_master: bool = False,
) -> Campaign:
    """Create a campaign with its sides.

    With `as_game_master` the creator is a neutral game master who sees every side's
    private data and so may not take a seat; otherwise the creator takes a seat like anyone.
    """
    name = name.strip()
    names = [n.strip() for n in side_names if n.strip()]
    errors = {}
    if not name:
        errors["name"] = _("Give the campaign a name.")
    if system not in GameSystem.values:
        errors["system"] = _("Choose one of the game systems.")
    if len(names) < 2:
        errors["side_names"] = _("A campaign needs at least two sides.")
    elif len({n.casefold() for n in names}) != len(names):
        errors["side_names"] = _("Each side needs its own name.")
    if visibility not in Campaign.Visibility.values:
        errors["visibility"] = _("Choose public or private.")
    side_limit = Side._meta.get_field("name").max_length
    if any(len(n) > side_limit for n in names):
        errors["side_names"] = _("A side's name has at most %(n)s characters.") % {"n": side_limit}
    try:
        bounds.check_values(Campaign, {"name": name, "description": description})
    except ValidationError as exc:
        errors.update({k: v[0] for k, v in exc.message_dict.items()})
    if club is not None and not is_club_member(creator, club):
        errors["club"] = _("You can create a campaign only in a club you belong to.")
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name,
            system=system,
            template=template,
            description=description,
            visibility=visibility,
            club=club,
            created_by=creator,
        )
        if as_game_master:
            campaign.game_masters.add(creator)
        Side.objects.bulk_create(
            Side(campaign=campaign, name=n, order=i) for i, n in enumerate(names)
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.CAMPAIGN,
            summary=msg(
                "Campaign “%(name)s” created with sides %(sides)s.",
                name=name,
                sides=msg(", ".join(f"%(s{i})s" for i in range(len(names))), **_sides(names)),
            ),
            actor=creator,
            data={"sides": names, "system": system, "template": template},
        )
    return campaign


def _sides(names: list[str]) -> dict[str, Msg | str]:
    """Side names as the reader reads them: a template's names ("Germans") translated."""
    return {f"s{i}": side_word(n) for i, n in enumerate(names)}


def side_join(*, user, side: Side, require_empty: bool = False, seated_by=None) -> SidePlayer:
    """Seat a player on a side; a player sits on one side of a campaign only.

    With `require_empty` the seat is taken only if nobody plays the side yet (checked under
    the campaign lock, so two players racing for it cannot both win). `seated_by` is the
    organiser who seated someone else: the log credits him.
    """
    with transaction.atomic():
        campaign = lock_campaign(side.campaign_id)
        existing = SidePlayer.objects.filter(side__campaign=campaign, user=user).first()
        if existing and existing.side_id == side.pk:
            return existing
        if existing:
            raise ValidationError(_("You already play another side of this campaign."))
        if require_empty and SidePlayer.objects.filter(side=side).exists():
            raise ValidationError(_("That side already has a player."))
        if campaign.game_masters.filter(pk=user.pk).exists():
            raise ValidationError(
                _("A neutral game master sees every side's secrets and cannot play a side.")
            )
        seat = SidePlayer.objects.create(side=side, user=user)
        by_other = seated_by is not None and seated_by.pk != user.pk
        append_log(
            campaign,
            kind=LogEntry.Kind.CAMPAIGN,
            summary=msg(
                "%(actor)s seated %(user)s with the %(side)s.",
                actor=seated_by.get_username(),
                user=user.get_username(),
                side=side_word(side.name),
            )
            if by_other
            else msg(
                "%(user)s joined %(side)s.", user=user.get_username(), side=side_word(side.name)
            ),
            actor=seated_by if by_other else user,
        )
    return seat


def side_invite(*, campaign: Campaign, actor, username: str, side: Side) -> SidePlayer:
    """The organiser seats a player (by username) on a side of the campaign."""
    if side.campaign_id != campaign.pk:
        raise ValidationError(
            {"side": ValidationError(_("Choose one of this campaign's sides."), code="not_found")}
        )
    if not viewer_context(actor, campaign).can_manage:
        raise ValidationError(_("Only the campaign's organiser or game master may invite."))
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise ValidationError(
            {"username": _("No player is called “%(name)s”.") % {"name": username}}
        )
    return side_join(user=user, side=side, seated_by=actor)

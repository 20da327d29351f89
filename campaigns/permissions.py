"""Who may see and do what: predicates shared by views, the API and templates.

Each takes plain objects and answers a yes/no question; none queries more than it must.
`viewer_context` computes the user's relation to a campaign once per request.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from campaigns.models import Campaign, ClubMembership, Roster, Side, SkirmishBattle, SkirmishSide

User = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class Viewer:
    """A user's relation to one campaign.

    `is_gm` is a neutral game master: sees every side's private data and plays no side.
    """

    user_id: int | None
    is_gm: bool
    side_ids: frozenset[int]
    is_creator: bool = False
    is_staff: bool = False

    @property
    def is_participant(self) -> bool:
        return self.is_gm or self.is_creator or bool(self.side_ids)

    @property
    def can_manage(self) -> bool:
        """Organisational powers (invite, settle, correct); not a licence to see secrets."""
        return self.is_gm or self.is_creator

    def plays(self, side: Side | int) -> bool:
        return (side if isinstance(side, int) else side.pk) in self.side_ids

    def can_see_private(self, side: Side | int | None) -> bool:
        """A side's private data: only that side's players and a neutral game master."""
        return side is None or self.is_gm or self.plays(side)


def viewer_context(user: User, campaign: Campaign) -> Viewer:
    if not user.is_authenticated:
        return Viewer(None, False, frozenset())
    is_gm = any(gm.pk == user.pk for gm in campaign.game_masters.all())
    side_ids = frozenset(
        Side.objects.filter(campaign=campaign, seats__user=user).values_list("pk", flat=True)
    )
    return Viewer(
        user.pk,
        is_gm,
        side_ids,
        is_creator=campaign.created_by_id == user.pk,
        is_staff=bool(getattr(user, "is_staff", False)),
    )


def can_view_campaign(user: User, campaign: Campaign, viewer: Viewer | None = None) -> bool:
    if campaign.visibility == Campaign.Visibility.PUBLIC:
        return True
    viewer = viewer or viewer_context(user, campaign)
    return viewer.is_participant or viewer.is_staff


def can_manage_campaign(user: User, campaign: Campaign, viewer: Viewer | None = None) -> bool:
    return (viewer or viewer_context(user, campaign)).can_manage


def visible_campaigns_q(user: User) -> Q:
    """The campaigns a user may see: public ones and those they play or run."""
    public = Q(visibility=Campaign.Visibility.PUBLIC)
    if not user.is_authenticated:
        return public
    return public | Q(created_by=user) | Q(game_masters=user) | Q(sides__seats__user=user)


def visible_campaigns(user: User) -> QuerySet[Campaign]:
    ids = Campaign.objects.filter(visible_campaigns_q(user)).values("pk")
    return Campaign.objects.filter(pk__in=ids)


# --- Clubs and leagues ------------------------------------------------------------------------
# Club pages, league tables, ratings, balance and player profiles are public (a club shows its
# leagues); running a club or a league needs its organiser. Battles and campaign histories keep
# their campaign's visibility, and private log entries or sealed decisions never appear there.


def club_role(user: User, club) -> str | None:
    """The user's role in the club, or None (one query unless memberships are prefetched)."""
    if not user.is_authenticated:
        return None
    role = (
        ClubMembership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    )
    return role


def is_club_member(user: User, club) -> bool:
    return club_role(user, club) is not None


def is_club_organiser(user: User, club) -> bool:
    return club_role(user, club) == ClubMembership.Role.ORGANISER


def can_manage_league(user: User, league) -> bool:
    """Enter, correct or void results, and change the league's settings."""
    return is_club_organiser(user, league.club)


def can_view_battle(user: User, battle) -> bool:
    return can_view_campaign(user, battle.campaign)


# --- TCS operations ---------------------------------------------------------------------------


def can_act_for_side(viewer: Viewer, side: Side | int) -> bool:
    """Write a side's TCS records (order of battle, op sheets, Command Phase, losses): that
    side's players, or a neutral game master."""
    return viewer.is_gm or viewer.plays(side)


def can_see_tcs_secret(
    viewer: Viewer, side: Side | int, *, revealed: bool = False, finished: bool = False
) -> bool:
    """A side's op sheets, task organisation and morale [TCS 1.5]: private to that side and a
    neutral game master until revealed by the owner or the operation ends."""
    return revealed or finished or viewer.can_see_private(side)


# --- rosters and skirmish battles ------------------------------------------------------------


def can_view_roster(user, roster: Roster) -> bool:
    """The owner; anyone who may see the roster's campaign; staff."""
    if user.is_authenticated and (roster.owner_id == user.pk or user.is_staff):
        return True
    return roster.campaign is not None and can_view_campaign(user, roster.campaign)


def can_edit_roster(user, roster: Roster) -> bool:
    return user.is_authenticated and roster.owner_id == user.pk


def player_side(user, battle: SkirmishBattle) -> SkirmishSide | None:
    """The side this user plays in the battle (sides must be prefetched)."""
    if not user.is_authenticated:
        return None
    return next((s for s in battle.sides.all() if s.player_id == user.pk), None)


def is_neutral_gm(user, battle: SkirmishBattle) -> bool:
    """A neutral game master of the battle's campaign who plays no side in it."""
    if not user.is_authenticated or battle.campaign is None or player_side(user, battle):
        return False
    return viewer_context(user, battle.campaign).is_gm


def can_view_skirmish(user, battle: SkirmishBattle) -> bool:
    if player_side(user, battle) is not None:
        return True
    if user.is_authenticated and (battle.created_by_id == user.pk or user.is_staff):
        return True
    return battle.campaign is not None and can_view_campaign(user, battle.campaign)


def can_see_side_secrets(user, battle: SkirmishBattle, side: SkirmishSide) -> bool:
    """Sealed orders: that side's player and a neutral GM; everyone once revealed."""
    if battle.revealed_at is not None:
        return True
    mine = player_side(user, battle)
    if mine is not None:
        return mine.pk == side.pk
    return is_neutral_gm(user, battle)


def is_organiser(user, battle: SkirmishBattle) -> bool:
    """Who may correct a finished result alone: a game master of the battle's campaign who
    plays no side in it, or staff."""
    if not user.is_authenticated or player_side(user, battle) is not None:
        return False
    return user.is_staff or is_neutral_gm(user, battle)


def can_correct_result(user, battle: SkirmishBattle) -> bool:
    """A finished battle's result: its players (both must agree) or an organiser."""
    if battle.status != SkirmishBattle.Status.FINISHED:
        return False
    return player_side(user, battle) is not None or is_organiser(user, battle)

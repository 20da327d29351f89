"""Who may see and change rosters and skirmish battles (views, API and templates)."""

from __future__ import annotations

from campaigns.models import Roster, SkirmishBattle, SkirmishSide
from campaigns.permissions import can_view_campaign, viewer_context


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


def can_view_battle(user, battle: SkirmishBattle) -> bool:
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

"""API for clubs (invitations, members), leagues, results, standings, ratings, balance,
player profiles and exports: thin views over the same services, selectors and permission
predicates as the pages. Reads are public like the pages; writes need the club's organiser.

One module per concern: clubs, standings (leagues), results, players, exports."""

from __future__ import annotations

from campaigns.api.leagues.clubs import CampaignClubViewSet, ClubInviteViewSet, ClubMemberViewSet
from campaigns.api.leagues.common import run
from campaigns.api.leagues.exports import CampaignExportViewSet
from campaigns.api.leagues.players import PlayerViewSet
from campaigns.api.leagues.results import ResultViewSet
from campaigns.api.leagues.standings import LeagueViewSet

__all__ = [
    "CampaignClubViewSet",
    "CampaignExportViewSet",
    "ClubInviteViewSet",
    "ClubMemberViewSet",
    "LeagueViewSet",
    "PlayerViewSet",
    "ResultViewSet",
    "register",
    "run",
]


def register(router) -> None:
    """Add this package's viewsets to the API router."""
    router.register("club-invites", ClubInviteViewSet, basename="api-club-invite")
    router.register("club-members", ClubMemberViewSet, basename="api-club-member")
    router.register("leagues", LeagueViewSet, basename="api-league")
    router.register("results", ResultViewSet, basename="api-result")
    router.register("players", PlayerViewSet, basename="api-player")
    router.register("campaign-exports", CampaignExportViewSet, basename="api-campaign-export")
    router.register("campaign-clubs", CampaignClubViewSet, basename="api-campaign-club")

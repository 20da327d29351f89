from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from campaigns.api import cc as cc_api
from campaigns.api import leagues as league_api
from campaigns.api import rosters as roster_api
from campaigns.api import tcs as tcs_api
from campaigns.api import views

router = DefaultRouter()
router.register("campaigns", views.CampaignViewSet, basename="api-campaign")
router.register("clubs", views.ClubViewSet, basename="api-club")
# clubs and leagues
router.register("club-invites", league_api.ClubInviteViewSet, basename="api-club-invite")
router.register("club-members", league_api.ClubMemberViewSet, basename="api-club-member")
router.register("leagues", league_api.LeagueViewSet, basename="api-league")
router.register("results", league_api.ResultViewSet, basename="api-result")
router.register("players", league_api.PlayerViewSet, basename="api-player")
router.register(
    "campaign-exports", league_api.CampaignExportViewSet, basename="api-campaign-export"
)
# rosters and skirmish battles
router.register("rosters", roster_api.RosterViewSet, basename="api-roster")
router.register("skirmishes", roster_api.SkirmishViewSet, basename="api-skirmish")
# Combat Commander campaigns: create from a template, tables, seats, play, battles, results
cc_api.register(router)
# TCS operations: op sheets, formations with morale, Command Phases
router.register("tcs/op-sheets", tcs_api.OpSheetViewSet, basename="api-tcs-sheet")
router.register("tcs/formations", tcs_api.FormationViewSet, basename="api-tcs-formation")
router.register("tcs/command-phases", tcs_api.CommandPhaseViewSet, basename="api-tcs-phase")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("me/", views.me, name="api-me"),
    path("", include(router.urls)),
]

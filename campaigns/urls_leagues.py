"""Page routes of clubs, leagues, player profiles and histories."""

from django.urls import path

from campaigns.views import clubs, league_reports, leagues

urlpatterns = [
    path("clubs/", clubs.club_list, name="club-list"),
    path("clubs/join/<str:token>/", clubs.club_join, name="club-join"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/invite/", clubs.club_invite, name="club-invite"),
    path(
        "clubs/<slug:slug>/invites/<int:invite_pk>/withdraw/",
        clubs.club_invite_withdraw,
        name="club-invite-withdraw",
    ),
    path("clubs/<slug:slug>/members/<int:user_pk>/role/", clubs.club_member_role, name="club-role"),
    path("clubs/<slug:slug>/battles/", clubs.club_battle_search, name="club-battles"),
    path("campaigns/<int:pk>/club/", clubs.campaign_club_view, name="campaign-club"),
    path("clubs/<slug:slug>/leagues/new/", leagues.league_new, name="league-new"),
    path("leagues/<int:pk>/", leagues.league_detail, name="league-detail"),
    path("leagues/<int:pk>/tiebreaks/", leagues.league_tiebreaks, name="league-tiebreaks"),
    path("leagues/<int:pk>/settings/", leagues.league_settings, name="league-settings"),
    path("leagues/<int:pk>/join/", leagues.league_join, name="league-join"),
    path("leagues/<int:pk>/results/new/", leagues.result_new, name="result-new"),
    path("leagues/<int:pk>/results/battle/", leagues.result_battle, name="result-battle"),
    path("leagues/<int:pk>/results/import/", leagues.results_import, name="results-import"),
    path(
        "leagues/<int:pk>/results/report/", league_reports.result_report_view, name="result-report"
    ),
    path("leagues/<int:pk>/results/games/", league_reports.league_games, name="league-games"),
    path(
        "leagues/<int:pk>/results/<int:rid>/step/<str:step>/",
        league_reports.result_step,
        name="result-step",
    ),
    path("record/<str:kind>/<int:pk>/", league_reports.record_game, name="record-game"),
    path(
        "leagues/<int:pk>/results/<int:rid>/correct/",
        leagues.result_correct_view,
        name="result-correct",
    ),
    path(
        "leagues/<int:pk>/results/<int:rid>/<str:action>/",
        leagues.result_status,
        name="result-status",
    ),
    path("leagues/<int:pk>/results.csv", leagues.league_results_csv, name="league-results-csv"),
    path(
        "leagues/<int:pk>/standings.csv", leagues.league_standings_csv, name="league-standings-csv"
    ),
    path("leagues/<int:pk>/ratings/", leagues.league_ratings_view, name="league-ratings"),
    path("leagues/<int:pk>/balance/", leagues.league_balance_view, name="league-balance"),
    path("players/<str:username>/", leagues.player_profile_view, name="player-profile"),
    path("history/campaigns/<int:pk>/", leagues.campaign_history_view, name="campaign-history"),
    path(
        "history/campaigns/<int:pk>/battles/<int:number>/",
        leagues.battle_history_view,
        name="battle-history",
    ),
    path(
        "history/campaigns/<int:pk>/export.json",
        leagues.campaign_export_view,
        name="campaign-export",
    ),
    path("history/import/", leagues.campaign_import_view, name="campaign-import"),
]

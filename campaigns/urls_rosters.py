"""Routes of the roster and skirmish pages (included from config/urls.py)."""

from django.urls import path

from campaigns.views import rosters as v

urlpatterns = [
    path("rosters/", v.roster_list, name="roster-list"),
    path("rosters/new/", v.roster_new, name="roster-new"),
    path("rosters/<int:pk>/", v.roster_detail_view, name="roster-detail"),
    path("rosters/<int:pk>/edit/", v.roster_edit_view, name="roster-edit"),
    path("rosters/<int:pk>/settings/", v.roster_settings, name="roster-settings"),
    path("rosters/<int:pk>/house-rules/", v.roster_house_rules, name="roster-house-rules"),
    path("rosters/<int:pk>/print/", v.roster_print_view, name="roster-print"),
    path("rosters/<int:pk>/history/", v.roster_history_view, name="roster-history"),
    path("rosters/<int:pk>/history/<int:seq>/undo/", v.roster_revert_view, name="roster-revert"),
    path("rosters/<int:pk>/archive/", v.roster_archive_view, name="roster-archive"),
    path("skirmishes/new/", v.skirmish_new, name="skirmish-new"),
    path("skirmishes/<int:pk>/", v.skirmish_detail_view, name="skirmish-detail"),
    path("skirmishes/<int:pk>/odds/<slug:name>/", v.skirmish_odds, name="skirmish-odds"),
    path("skirmishes/<int:pk>/<slug:name>/", v.skirmish_action, name="skirmish-action"),
]

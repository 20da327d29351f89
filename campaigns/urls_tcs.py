"""Routes of TCS operations (included from config/urls.py)."""

from django.urls import path

from campaigns.views import tcs

urlpatterns = [
    path("campaigns/new/tcs/", tcs.tcs_new, name="tcs-new"),
    path("campaigns/<int:pk>/tcs/", tcs.tcs_operation_view, name="tcs-operation"),
    path("campaigns/<int:pk>/tcs/start/", tcs.tcs_start, name="tcs-start"),
    path("campaigns/<int:pk>/tcs/advance/", tcs.tcs_advance, name="tcs-advance"),
    path("campaigns/<int:pk>/tcs/end/", tcs.tcs_end, name="tcs-end"),
    path(
        "campaigns/<int:pk>/tcs/end/withdraw/",
        tcs.tcs_end_withdraw,
        name="tcs-end-withdraw",
    ),
    path("campaigns/<int:pk>/tcs/timeline/", tcs.tcs_timeline_view, name="tcs-timeline"),
    path("campaigns/<int:pk>/tcs/export.json", tcs.tcs_export, name="tcs-export"),
    path("campaigns/<int:pk>/tcs/readings/", tcs.tcs_readings, name="tcs-readings"),
    path("campaigns/<int:pk>/tcs/decisions/", tcs.tcs_decisions, name="tcs-decisions"),
    path("campaigns/<int:pk>/tcs/charts/", tcs.tcs_charts_view, name="tcs-charts"),
    path("campaigns/<int:pk>/tcs/sides/<int:side_pk>/", tcs.tcs_side_view, name="tcs-side"),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/sheets/new/",
        tcs.tcs_sheet_new,
        name="tcs-sheet-new",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/resolve/",
        tcs.tcs_resolve,
        name="tcs-resolve",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/assault/",
        tcs.tcs_assault,
        name="tcs-assault",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/resolve/preview/",
        tcs.tcs_fire_preview,
        name="tcs-fire-preview",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/minefields/",
        tcs.tcs_minefields,
        name="tcs-minefields",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/minefields/preview/",
        tcs.tcs_minefield_preview,
        name="tcs-minefield-preview",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/artillery/",
        tcs.tcs_artillery,
        name="tcs-artillery",
    ),
    path(
        "campaigns/<int:pk>/tcs/sides/<int:side_pk>/command/",
        tcs.tcs_command,
        name="tcs-command",
    ),
    path("campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/", tcs.tcs_sheet_view, name="tcs-sheet"),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/edit/",
        tcs.tcs_sheet_edit,
        name="tcs-sheet-edit",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/delete/",
        tcs.tcs_sheet_delete,
        name="tcs-sheet-delete",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/implement/",
        tcs.tcs_sheet_implement,
        name="tcs-sheet-implement",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/reveal/",
        tcs.tcs_sheet_reveal,
        name="tcs-sheet-reveal",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/fail/",
        tcs.tcs_sheet_fail,
        name="tcs-sheet-fail",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/units/",
        tcs.tcs_sheet_units,
        name="tcs-sheet-units",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/prepared-defense/",
        tcs.tcs_sheet_defense,
        name="tcs-sheet-defense",
    ),
    path(
        "campaigns/<int:pk>/tcs/sheets/<int:sheet_pk>/graphic/",
        tcs.tcs_sheet_graphic,
        name="tcs-sheet-graphic",
    ),
]

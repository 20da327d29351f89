"""Roster pages (live builders, history, house rules) and skirmish battle pages."""

from campaigns.views.rosters.battle_actions import skirmish_action, skirmish_odds
from campaigns.views.rosters.battle_pages import skirmish_detail_view, skirmish_new
from campaigns.views.rosters.roster_pages import (
    roster_archive_view,
    roster_detail_view,
    roster_edit_view,
    roster_history_view,
    roster_house_rules,
    roster_list,
    roster_new,
    roster_print_view,
    roster_revert_view,
    roster_settings,
)

__all__ = [
    "roster_archive_view",
    "roster_detail_view",
    "roster_edit_view",
    "roster_history_view",
    "roster_house_rules",
    "roster_list",
    "roster_new",
    "roster_print_view",
    "roster_revert_view",
    "roster_settings",
    "skirmish_action",
    "skirmish_detail_view",
    "skirmish_new",
    "skirmish_odds",
]

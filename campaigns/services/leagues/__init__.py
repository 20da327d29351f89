"""Leagues: creation and settings, participants, results (entered by an organiser, recorded
from a game played on the site, reported by a player and confirmed by the opponent,
corrected, voided, imported) and the rating recompute.

One module per concern: settings, results, sources (battles, skirmishes, operations),
reports (the players' own results), common (what they share)."""

from campaigns.services.leagues.common import CSV_COLUMNS, DETAIL_INTS, RESULT_FIELDS, clean_details
from campaigns.services.leagues.reports import (
    can_settle,
    is_opponent,
    result_confirm,
    result_dispute,
    result_report,
    result_settle,
)
from campaigns.services.leagues.results import (
    MAX_IMPORT_ROWS,
    league_ratings_recompute,
    result_correct,
    result_enter,
    result_restore,
    result_void,
    results_import_csv,
)
from campaigns.services.leagues.settings import (
    clean_k_bands,
    clean_tiebreaks,
    league_create,
    league_participant_add,
    league_update,
)
from campaigns.services.leagues.sources import (
    battle_is_finished,
    operation_result_data,
    result_from_battle,
    result_from_operation,
    result_from_skirmish,
    skirmish_is_finished,
    skirmish_result_data,
)
from campaigns.services.ratings import elo_config

__all__ = [
    "CSV_COLUMNS",
    "DETAIL_INTS",
    "MAX_IMPORT_ROWS",
    "RESULT_FIELDS",
    "battle_is_finished",
    "can_settle",
    "clean_details",
    "clean_k_bands",
    "clean_tiebreaks",
    "elo_config",
    "is_opponent",
    "league_create",
    "league_participant_add",
    "league_ratings_recompute",
    "league_update",
    "operation_result_data",
    "result_confirm",
    "result_correct",
    "result_dispute",
    "result_enter",
    "result_from_battle",
    "result_from_operation",
    "result_from_skirmish",
    "result_report",
    "result_restore",
    "result_settle",
    "result_void",
    "results_import_csv",
    "skirmish_is_finished",
    "skirmish_result_data",
]

"""TCS operations: set-up, order of battle, op sheets, the Command Phase, losses and morale.

Every service is keyword-only, runs in one transaction under the campaign row lock, drives
`rules.tcs` and logs each explanation step with its rule id. What concerns one side's op
sheets or morale is logged `private_to` that side [1.5]; revealing a sheet (or ending the
operation) makes its entries public.

Modules: `common` (clock, readings in force, lock and permissions, log), `engine` (a side
as the engine sees it; the Command Phase step frame), `operations` (operation, sides, order
of battle, CSV), `turns` (start, next turn, end), `opsheets` (draw, edit, reveal, declare,
add and strike units, Prepared Defense), `command_phase`, `losses` (losses, morale, the
opponent's 17.1.c choice, corrections), `readings` (the operation's TcsOptions), `fire`
(area and point fire, AT rolls on the operation's charts), `combat` (morale checks,
recovery, a fire result applied by the target's owner, a unit's mode and marker).

No state a player can reach stalls the operation: every sheet can be corrected, deleted
(while it never took effect) or ended, an end proposal can be agreed to or withdrawn, and
the selectors say what the operation waits for and from whom
(`campaigns.selectors.tcs.operation_waiting`).
"""

from campaigns.services.tcs.artillery import (
    MortarRound,
    tcs_artillery_battery_delete,
    tcs_artillery_battery_save,
    tcs_artillery_stock_set,
    tcs_marker_remove,
    tcs_markers_action_phase,
    tcs_markers_clean_up,
    tcs_mortar_round,
)
from campaigns.services.tcs.artillery_missions import (
    AttackOrder,
    MissionOrder,
    tcs_artillery_attack,
    tcs_artillery_mission,
)
from campaigns.services.tcs.assault import tcs_assault_answer, tcs_assault_declare
from campaigns.services.tcs.combat import (
    Check,
    tcs_fire_apply,
    tcs_morale_check,
    tcs_recover,
)
from campaigns.services.tcs.command_phase import (
    phase_blockers,
    tcs_phase_attempt,
    tcs_phase_check_roll,
    tcs_phase_choose_alternative,
    tcs_phase_commit_reserves,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_phase_recovery,
    tcs_phase_weighted_turns,
)
from campaigns.services.tcs.common import (
    MAX_RATING,
    log_explanation,
    parse_clock,
)
from campaigns.services.tcs.corrections import tcs_morale_correct, tcs_unit_restore
from campaigns.services.tcs.engine import SideEngine, load_side
from campaigns.services.tcs.fire import FireOrder, tcs_fire_resolve
from campaigns.services.tcs.losses import tcs_decision_resolve, tcs_losses_record
from campaigns.services.tcs.minefield_breach import tcs_minefield_breach
from campaigns.services.tcs.minefields import tcs_minefield_attack, tcs_minefield_place
from campaigns.services.tcs.operations import (
    CSV_COLUMNS,
    imported_words,
    parse_track,
    tcs_formation_add,
    tcs_oob_import,
    tcs_operation_create,
    tcs_side_update,
    tcs_unit_add,
)
from campaigns.services.tcs.opsheets import (
    SHEET_TEXT_FIELDS,
    tcs_sheet_add_units,
    tcs_sheet_declare_failure,
    tcs_sheet_declare_success,
    tcs_sheet_draw,
    tcs_sheet_edit,
    tcs_sheet_reveal,
    tcs_sheet_strike_units,
)
from campaigns.services.tcs.readings import OPTION_RULES, tcs_options_update
from campaigns.services.tcs.sheet_effects import (
    tcs_reinforcements_enter,
    tcs_sheet_prepared_defense,
)
from campaigns.services.tcs.sheet_fixes import (
    sheet_deletable,
    sheet_implementable,
    tcs_sheet_delete,
    tcs_sheet_implement_setup,
)
from campaigns.services.tcs.turns import (
    tcs_operation_end,
    tcs_operation_end_withdraw,
    tcs_operation_start,
    tcs_turn_advance,
)
from campaigns.services.tcs.units import tcs_unit_state
from campaigns.tcs.state import (
    END_AGREED,
    blockers_for,
    current_turn,
    options_for,
    recovery_due,
)

__all__ = [
    "CSV_COLUMNS",
    "END_AGREED",
    "MAX_RATING",
    "OPTION_RULES",
    "SHEET_TEXT_FIELDS",
    "AttackOrder",
    "Check",
    "FireOrder",
    "MissionOrder",
    "MortarRound",
    "SideEngine",
    "blockers_for",
    "current_turn",
    "imported_words",
    "load_side",
    "log_explanation",
    "options_for",
    "parse_clock",
    "parse_track",
    "phase_blockers",
    "recovery_due",
    "sheet_deletable",
    "sheet_implementable",
    "tcs_artillery_attack",
    "tcs_artillery_battery_delete",
    "tcs_artillery_battery_save",
    "tcs_artillery_mission",
    "tcs_artillery_stock_set",
    "tcs_assault_answer",
    "tcs_assault_declare",
    "tcs_decision_resolve",
    "tcs_fire_apply",
    "tcs_fire_resolve",
    "tcs_formation_add",
    "tcs_losses_record",
    "tcs_marker_remove",
    "tcs_markers_action_phase",
    "tcs_markers_clean_up",
    "tcs_minefield_attack",
    "tcs_minefield_breach",
    "tcs_minefield_place",
    "tcs_morale_check",
    "tcs_morale_correct",
    "tcs_mortar_round",
    "tcs_oob_import",
    "tcs_operation_create",
    "tcs_operation_end",
    "tcs_operation_end_withdraw",
    "tcs_operation_start",
    "tcs_options_update",
    "tcs_phase_attempt",
    "tcs_phase_check_roll",
    "tcs_phase_choose_alternative",
    "tcs_phase_commit_reserves",
    "tcs_phase_complete",
    "tcs_phase_open",
    "tcs_phase_recovery",
    "tcs_phase_weighted_turns",
    "tcs_recover",
    "tcs_reinforcements_enter",
    "tcs_sheet_add_units",
    "tcs_sheet_declare_failure",
    "tcs_sheet_declare_success",
    "tcs_sheet_delete",
    "tcs_sheet_draw",
    "tcs_sheet_edit",
    "tcs_sheet_implement_setup",
    "tcs_sheet_prepared_defense",
    "tcs_sheet_reveal",
    "tcs_sheet_strike_units",
    "tcs_side_update",
    "tcs_turn_advance",
    "tcs_unit_add",
    "tcs_unit_restore",
    "tcs_unit_state",
]

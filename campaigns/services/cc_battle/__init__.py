"""The Combat Commander battle assistant: start tracking a battle, resolve its procedures on
the tracked state (one transaction, a log entry each), undo the last one."""

from campaigns.services.cc_battle.actions import battle_act, battle_action_undo
from campaigns.services.cc_battle.counters import battle_counters_set, read_counters
from campaigns.services.cc_battle.tracking import battle_tracker_start

__all__ = [
    "battle_act",
    "battle_action_undo",
    "battle_counters_set",
    "battle_tracker_start",
    "read_counters",
]

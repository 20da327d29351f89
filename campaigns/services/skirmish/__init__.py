"""Skirmish battles between two rosters: set-up, sealed orders, in-battle procedures with
logged dice, the result and its consequences for the rosters.

Every service is keyword-only, runs in one transaction with the battle row locked (two
players acting at once cannot double-apply anything), and appends `SkirmishEvent`s with the
engine's explanation and dice. Dice come from the server (cryptographic RNG) or are entered
from the table (a Parabellum 3D6 as three faces). Nothing is saved when the engine refuses an
input; the error names the form field.
"""

from campaigns.services.skirmish.area_fire import (
    area_preview,
    projector_preview,
    skirmish_bombardment,
    skirmish_grenade,
    skirmish_projector,
    skirmish_support,
)
from campaigns.services.skirmish.battles import skirmish_cancel, skirmish_create, skirmish_join
from campaigns.services.skirmish.common import dice_from, lock_battle, log_event
from campaigns.services.skirmish.corrections import (
    skirmish_result_agree,
    skirmish_result_correct,
)
from campaigns.services.skirmish.m36 import (
    m36_battalion_morale,
    m36_bog_check,
    m36_construction_start,
    m36_finish,
    m36_fortification_buy,
    m36_objectives,
    m36_performance,
    m36_scenario_create,
    m36_scenario_plan,
    m36_scenario_tie,
    m36_weather,
    m36_weather_change,
)
from campaigns.services.skirmish.m36_battle import (
    m36_air_attack,
    m36_assault,
    m36_bombard,
    m36_command_check,
    m36_fire,
    m36_initiative,
    m36_next_phase,
    m36_order,
    m36_recover,
    m36_reveal,
    m36_unit_correct,
    m36_units_setup,
    m36_vehicle_assault,
)
from campaigns.services.skirmish.parabellum import (
    skirmish_casualty,
    skirmish_finish,
    skirmish_orders_submit,
    skirmish_tactical,
    skirmish_turn_record,
)
from campaigns.services.skirmish.pb_play import (
    pb_act,
    pb_activate,
    pb_anticipate,
    pb_choose_first,
    pb_downed,
    pb_end_activation,
    pb_finish_phase,
    pb_role_roll,
    pb_tend,
)
from campaigns.services.skirmish.post_battle import m36_post_battle, skirmish_apply_house_rules
from campaigns.services.skirmish.readings import skirmish_readings_set
from campaigns.services.skirmish.shots_assaults import (
    assault_preview,
    shot_preview,
    skirmish_assault,
    skirmish_shoot,
)
from campaigns.services.skirmish.troops import Preview
from campaigns.services.skirmish.undo import skirmish_undo

__all__ = [
    "Preview",
    "area_preview",
    "assault_preview",
    "dice_from",
    "lock_battle",
    "log_event",
    "m36_air_attack",
    "m36_assault",
    "m36_battalion_morale",
    "m36_bog_check",
    "m36_bombard",
    "m36_command_check",
    "m36_construction_start",
    "m36_finish",
    "m36_fire",
    "m36_fortification_buy",
    "m36_initiative",
    "m36_next_phase",
    "m36_objectives",
    "m36_order",
    "m36_performance",
    "m36_post_battle",
    "m36_recover",
    "m36_reveal",
    "m36_scenario_create",
    "m36_scenario_plan",
    "m36_scenario_tie",
    "m36_unit_correct",
    "m36_units_setup",
    "m36_vehicle_assault",
    "m36_weather",
    "m36_weather_change",
    "pb_act",
    "pb_activate",
    "pb_anticipate",
    "pb_choose_first",
    "pb_downed",
    "pb_end_activation",
    "pb_finish_phase",
    "pb_role_roll",
    "pb_tend",
    "projector_preview",
    "shot_preview",
    "skirmish_apply_house_rules",
    "skirmish_assault",
    "skirmish_bombardment",
    "skirmish_cancel",
    "skirmish_casualty",
    "skirmish_create",
    "skirmish_finish",
    "skirmish_grenade",
    "skirmish_join",
    "skirmish_orders_submit",
    "skirmish_projector",
    "skirmish_readings_set",
    "skirmish_result_agree",
    "skirmish_result_correct",
    "skirmish_shoot",
    "skirmish_support",
    "skirmish_tactical",
    "skirmish_turn_record",
    "skirmish_undo",
]

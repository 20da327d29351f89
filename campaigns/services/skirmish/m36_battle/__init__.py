"""A "1936" battle played by the rules on the site: units' set-up, the turn, fire, assaults,
bombardments and air attacks, orders and command, fog of war, smoke (issue 14)."""

from campaigns.services.skirmish.m36_battle.assault import (
    assault_preview,
    m36_assault,
    m36_vehicle_assault,
    vehicle_assault_preview,
)
from campaigns.services.skirmish.m36_battle.bombard import (
    bombard_preview,
    m36_air_attack,
    m36_bombard,
)
from campaigns.services.skirmish.m36_battle.command import m36_command_check, m36_order
from campaigns.services.skirmish.m36_battle.fire import FireInput, fire_preview, m36_fire
from campaigns.services.skirmish.m36_battle.fog import m36_reveal
from campaigns.services.skirmish.m36_battle.smoke import m36_smoke
from campaigns.services.skirmish.m36_battle.turn import m36_initiative, m36_next_phase, m36_recover
from campaigns.services.skirmish.m36_battle.units import m36_unit_correct, m36_units_setup

__all__ = [
    "FireInput",
    "assault_preview",
    "bombard_preview",
    "fire_preview",
    "m36_air_attack",
    "m36_assault",
    "m36_bombard",
    "m36_command_check",
    "m36_fire",
    "m36_initiative",
    "m36_next_phase",
    "m36_order",
    "m36_recover",
    "m36_reveal",
    "m36_smoke",
    "m36_unit_correct",
    "m36_units_setup",
    "m36_vehicle_assault",
    "vehicle_assault_preview",
]

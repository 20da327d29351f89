"""Readings of unclear TCS rules that a campaign may change (see DECISIONS.md)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.serial import Serializable


class KeyOffTable(StrEnum):
    """What a Command Prep key beyond the supplied rows reads [6.9.f, ambiguity 36]."""

    CLAMP = "clamp"
    ERROR = "error"


class CarriedRounding(StrEnum):
    """Rounding of the carried-step proportion [10.0.g, ambiguity 39]."""

    STANDARD = "standard"
    UP = "up"


@dataclass(frozen=True)
class TcsOptions(Serializable):
    """Every reading a group of players may want otherwise, with the default chosen."""

    day_turn_minutes: int = 20
    night_turn_minutes: int = 60
    reserves_count_as_attack: bool = True
    own_prelims_slow_sheet: bool = True
    reduce_from_zero_size: bool = True
    vehicles_only_join_vehicle_sheets: bool = True
    key_off_table: KeyOffTable = KeyOffTable.CLAMP
    vehicle_recovery_even_hours_at_night: bool = True
    vehicle_doubling_counts_current_loss: bool = False
    vehicle_check_after_each_point: bool = True
    carried_rounding: CarriedRounding = CarriedRounding.STANDARD
    move_defense_units_unassigned_for_morale: bool = False
    breach_needs_every_unit: bool = False
    battalion_fire_per_battery: bool = False
    artillery_point_dice_summed: bool = True
    overrun_escalates: bool = True


DEFAULT_OPTIONS = TcsOptions()

"""A Parabellum battle's turn played on the site: the turn machine, activations and their
actions, anticipation, and the medic; `hooks` joins them to the attack procedures."""

from campaigns.services.skirmish.pb_play.activation import (
    pb_act,
    pb_activate,
    pb_anticipate,
    pb_end_activation,
)
from campaigns.services.skirmish.pb_play.medic import pb_downed, pb_tend
from campaigns.services.skirmish.pb_play.roles import pb_role_roll
from campaigns.services.skirmish.pb_play.turn import pb_choose_first, pb_finish_phase

__all__ = [
    "pb_act",
    "pb_activate",
    "pb_anticipate",
    "pb_choose_first",
    "pb_downed",
    "pb_end_activation",
    "pb_finish_phase",
    "pb_role_roll",
    "pb_tend",
]

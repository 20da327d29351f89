"""The in-battle actions of a Parabellum battle's turn (phases, activations and their
actions, anticipation, medic): their forms and services, merged into the battle pages'
action table (battle_actions.ACTIONS) and so into the REST API."""

from __future__ import annotations

from campaigns.rosters import forms as rf
from campaigns.services import skirmish as sk
from campaigns.views.rosters.action_table import Action, plain, with_battle
from campaigns.views.rosters.pb_forms import pb_play_forms

__all__ = ["PB_PLAY_ACTIONS", "pb_play_forms"]

PB_PLAY_ACTIONS: dict[str, Action] = {
    "pb_roles": Action(sk.pb_role_roll, plain(rf.RoleRollForm), fields=("winner_role",), dice=True),
    "pb_first": Action(
        sk.pb_choose_first,
        with_battle(rf.ChooseFirstForm),
        fields=(),
        extra=lambda form: {"first": form.cleaned_data["first"]},
    ),
    "pb_finish": Action(sk.pb_finish_phase, with_battle(rf.FinishPhaseForm)),
    "pb_activate": Action(sk.pb_activate, with_battle(rf.ActivateForm)),
    "pb_act": Action(
        sk.pb_act, with_battle(rf.ActForm), fields=(), extra=lambda form: form.arguments()
    ),
    "pb_end": Action(sk.pb_end_activation),
    "pb_anticipate": Action(sk.pb_anticipate, with_battle(rf.AnticipateForm)),
    "pb_downed": Action(sk.pb_downed, with_battle(rf.DownedForm)),
    "pb_tend": Action(
        sk.pb_tend,
        with_battle(rf.TendForm),
        fields=("soldier", "medic_touching", "enemy_threat"),
        dice=True,
    ),
}

"""The in-battle actions of a Parabellum battle's turn (phases, activations and their
actions, anticipation, medic): their forms and services, merged into the battle pages'
action table (battle_actions.ACTIONS) and so into the REST API."""

from __future__ import annotations

from campaigns.views.rosters.action_table import Action

PB_PLAY_ACTIONS: dict[str, Action] = {}

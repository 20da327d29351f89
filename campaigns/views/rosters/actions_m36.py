"""The in-battle actions of a "1936" battle (units, turn and phases, fire, assaults,
bombardments, morale and command, fog of war): their forms and services, merged into the
battle pages' action table (battle_actions.ACTIONS) and so into the REST API."""

from __future__ import annotations

from campaigns.views.rosters.action_table import Action

M36_PLAY_ACTIONS: dict[str, Action] = {}
# names of the actions whose exact odds / outcome table the page and the API preview
M36_ODDS: tuple[str, ...] = ()

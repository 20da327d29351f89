"""Tactical Combat Series v4.01/4.02: command and control, op sheets, morale, step losses.

Modules: `opsheet` (types, state machine, limits), `size`, `weighted_turns`, `additions`,
`command_prep`, `reserves`, `prepared_defense`, `morale` (battalion), `vehicle_morale`,
`losses` and `clock`; `options` holds the readings a campaign may change (DECISIONS.md).
"""

"""Parabellum Soldier (seed 002): squads, rosters, shooting, assaults, explosives,
reinforcements, battle records and victory points, plus labelled campaign house rules.

Modules: `data` (nations and squad types), `squad` (the soldier and roster records),
`roster` (validation and builder options), `checks` (one rule each),
`shooting`, `evasion`, `assault`, `explosives`, `supports`, `deviation`, `battle`, `victory`,
`house_rules`; the turn in battle: `turn` (phases), `activation` (with `ledger`, `actions`,
`orders`, `movement`: action points and limits, 4.3, 5), `medic` (8.3.2). Ambiguities and how they are read: DECISIONS.md.
"""

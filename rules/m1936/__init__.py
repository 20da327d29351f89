""" "1936" (Spanish Civil War): army lists, scenario creation, weather, construction, morale.

Rule ids are "M36-<section>" after the seed rulebook's sections ("M36-II", "M36-I.4",
"M36-XV.1" …). The performance roll ("Tirada de Desempeño") has no dice in the rulebook: the
player enters its result, see `rules.m1936.performance`. Modules:

- `data`: the Section II catalogue (units, vehicles, guns, aircraft, transports, upgrades).
- `army`: army lists, budgets and costs; `validation`: every violation and builder options.
- `scenario`: terrain, sector tables, placement and restrictions (Section I).
- `weather`: determination, change and effects (Section XV); `bogging`: Section IV.7.
- `construction`: construction points and fortifications (Section VIII).
- `morale`: morale states and battalion morale (Section XI).
- In battle: `fire` (VI.2, cover from VIII), `vehicles` (VI.3, severe damage), `assault` (IX, X),
  `units` (a unit's condition: casualties, morale, vehicle damage, XI), `recovery` (end of turn),
  `command` (V: coherence, actions and reactions, prolonged actions), `turn` (initiative VI.1,
  the phases), `bombard` (VII), `air` (XIII as far as given), `fog` (XIV.1–5).
- `house_rules`: optional carry-over of unit condition between battles (not in the rulebook).
"""

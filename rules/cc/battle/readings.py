"""The contested readings a table may play otherwise (rules/cc/DECISIONS.md, "Battles"): one
flag each, chosen per campaign and fixed for a battle when its tracking starts. The defaults
follow the seed's literal text; each procedure passes the flag it reads to the rules."""

from __future__ import annotations

from dataclasses import dataclass, fields

BATTLE_READING_RULES = {
    "freeze_event_vp_after_sudden_death": "E42",
    "retroactive_doubling": "7.3.2",
    "overstack_cover": "V15",
    "v19": "V19",
    "veteran_weapons": "E44.1",
    "mine_tie_breaks_movers": "F103.2",
    "v6_water": "V6",
    "v7_short_long": "V7",
    "v7_by_distance": "V7",
    "tie_by_last_sole_occupant": "O16.4.3",
    "allow_eliminating_choice": "O23.3.5",
    "sniper_enemy_only": "ST-3",
}
"""The rule each reading changes, for its label on the pages."""


@dataclass
class BattleReadings:
    """Not frozen: each campaign's options inherit it, so a campaign chooses its readings."""

    freeze_event_vp_after_sudden_death: bool = True
    """E42 note: past the Sudden Death space an Event's elimination or control gives no VP."""
    retroactive_doubling: bool = True
    """7.3.2: a doubling chit revealed late doubles the VP already scored too."""
    overstack_cover: bool = False
    """8.2 (b) / V15: a hex's Cover drops by 1 per figure above 7."""
    v19: bool = False
    """V19: a Suppressed unit suppressed again breaks."""
    veteran_weapons: bool = False
    """E44.1: a Veteran's carried Weapon gets +1 FP and Range too."""
    mine_tie_breaks_movers: bool = False
    """F103.2 played as O20.3.4: a moving unit that ties a Mines attack breaks."""
    v6_water: bool = False
    """V6: −2 to Artillery impacts against Marsh and Stream."""
    v7_short_long: bool = False
    """V7: a Targeting miss falls short or long."""
    v7_by_distance: bool = False
    """V7's "range greater than 1" read as this shot's distance, not the printed Range."""
    tie_by_last_sole_occupant: bool = False
    """F101/F104: a Melee tie in a Bunker or Pillbox goes to its last sole occupant."""
    allow_eliminating_choice: bool = False
    """O23.3.5: a retreating unit may take an eliminating hex though a safe one is open."""
    sniper_enemy_only: bool = False
    """ST-3: a Sniper breaks only an enemy unit."""


READING_NAMES = tuple(f.name for f in fields(BattleReadings))

"""Every battle procedure the site resolves, by key, in the order the page offers them (the
most frequent at the table first)."""

from __future__ import annotations

from campaigns.cc.battle import fire, rolls, tracks, units
from campaigns.cc.battle.spec import Procedure

ORDER = (
    fire.ATTACK,
    fire.DEFENSE,
    rolls.RECOVER,
    rolls.ROUT,
    rolls.RETREAT,
    rolls.MELEE,
    tracks.TIME,
    tracks.ELIMINATE,
    tracks.OBJECTIVE,
    tracks.EXIT,
    tracks.VP,
    rolls.TARGETING,
    units.REPAIR,
    tracks.INITIATIVE,
    tracks.END_TURN,
    units.REGISTER,
    units.STATUS,
)
PROCEDURES: dict[str, Procedure] = {p.key: p for p in ORDER}

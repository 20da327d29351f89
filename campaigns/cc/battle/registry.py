"""Every battle procedure the site resolves, by key, in the order the page offers them (the
most frequent at the table first)."""

from __future__ import annotations

from campaigns.cc.battle import (
    arrivals,
    cards,
    chits,
    defense,
    events,
    fire,
    group,
    melee,
    rolls,
    support,
    tracks,
    units,
)
from campaigns.cc.battle.spec import Procedure

ORDER = (
    fire.ATTACK,
    fire.DEFENSE,
    group.GROUP_FIRE,
    defense.UNIT_DEFENSE,
    rolls.RECOVER,
    rolls.ROUT,
    rolls.RETREAT,
    melee.MELEE_MARKER,
    melee.MELEE,
    tracks.TIME,
    tracks.ELIMINATE,
    tracks.OBJECTIVE,
    chits.DRAW,
    chits.REVEAL,
    tracks.EXIT,
    tracks.VP,
    events.EVENT,
    events.COMMISSAR,
    events.SEVERAL,
    arrivals.ARRIVE,
    cards.CARDS,
    support.TARGETING,
    support.ARTILLERY,
    support.MINES,
    units.REPAIR,
    tracks.INITIATIVE,
    tracks.END_TURN,
    units.REGISTER,
    units.STATUS,
)
PROCEDURES: dict[str, Procedure] = {p.key: p for p in ORDER}

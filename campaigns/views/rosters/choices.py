"""Who and what the battle forms offer: the soldiers and units of the fielded rosters, in
words."""

from __future__ import annotations

from campaigns.i18n import say
from campaigns.rosters.words import soldier_name
from rules.m1936.army import ArmyList
from rules.parabellum import labels as pbl
from rules.parabellum.roster import Roster as PBRoster


def soldier_choices(sides) -> list[tuple[str, str]]:
    out = []
    for s in sides:
        if not s.snapshot:
            continue
        down = {c["soldier_id"] for c in s.casualties if c.get("healed_turn") is None}
        for x in PBRoster.from_dict(s.snapshot).active:
            mark = " ✝" if x.id in down else ""
            exp = say(pbl.label(pbl.EXPERIENCES, x.experience))
            out.append((f"{s.index}:{x.id}", f"{s.player} · {soldier_name(x.id)} ({exp}){mark}"))
    return out


def soldier_rows(snapshot: dict) -> list[dict]:
    """The soldiers of a fielded squad as the battle page shows them, in words."""
    if not snapshot:
        return []
    return [
        {
            "id": x.id,
            "name": soldier_name(x.id),
            "status": x.status,
            "experience": say(pbl.label(pbl.EXPERIENCES, x.experience)),
            "specialist": say(pbl.label(pbl.SPECIALISTS, x.specialist)) if x.specialist else "",
        }
        for x in PBRoster.from_dict(snapshot).soldiers
    ]


def unit_labels(snapshot: dict) -> list[str]:
    if not snapshot:
        return []
    army = ArmyList.from_dict(snapshot)
    return [f"{i + 1}. {e.label or e.profile}" for i, e in enumerate(army.entries)]

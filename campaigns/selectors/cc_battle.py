"""A Combat Commander battle at the table: the score kept from its log, and its set-up sheet.

The score sums the battle's public events in the database (one query, however long the log);
the set-up sheet reads the battle's record in the campaign state and the campaign tables and
says everything in words: side names, compass edges, patrols with their leaders and units.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.cc.engines import template_for
from campaigns.i18n import say
from campaigns.models import Battle, Campaign, LogEntry, Side
from campaigns.selectors.history import JSONNumber
from rules.cc.campaign import Pool
from rules.cc.common import Faction
from rules.i18n import Msg

# The compass of a CC map [2.2.2]: 1 at the top, 4 at the bottom, 2 and 3 right, 5 and 6 left.
EDGES = {
    1: gettext_lazy("the top edge"),
    2: gettext_lazy("the right edge"),
    3: gettext_lazy("the right edge"),
    4: gettext_lazy("the bottom edge"),
    5: gettext_lazy("the left edge"),
    6: gettext_lazy("the left edge"),
}
OPPOSITE = {1: 4, 2: 5, 3: 6, 4: 1, 5: 2, 6: 3}
# Which side the white die orients: the Russian (ST-C1.1) or the US player (NO-C1.12).
ORIENTS = {"stalingrad": Faction.ALLIES, "normandy": Faction.ALLIES}
POSTURES = {
    "attack": gettext_lazy("Attack"),
    "recon": gettext_lazy("Recon"),
    "defend": gettext_lazy("Defend"),
    "banzai": gettext_lazy("Banzai"),
    "invader": gettext_lazy("Invader"),
}
QUALITIES = {
    "elite": gettext_lazy("Elite"),
    "line": gettext_lazy("Line"),
    "green": gettext_lazy("Green"),
}
EXTRAS = {
    "us_armor": gettext_lazy("US armor"),
    "german_armor": gettext_lazy("German armor"),
    "satchels": gettext_lazy("Satchel charges"),
    "pre_registered_fire": gettext_lazy("Pre-registered fire"),
}
SHOWN_APART = ("rubble", "initiative_card", "reinforcements")
CASUALTIES = ("casualty", "kia")


# --- the score ---------------------------------------------------------------------------------


@dataclass
class Score:
    """Where the battle stands: the VP marker, the Time marker, the casualties logged."""

    vp_axis: int
    vp_text: str
    time: int
    sudden_death_rolls: int
    casualties: int


def battle_score(battle: Battle, sides: list[Side], start_vp_axis: int = 0) -> Score:
    """The VP marker (the set-up's VP moved by every logged VP change), the Time marker's space
    (one per "Time track advance") and the casualties logged, summed in one query."""
    totals = LogEntry.objects.filter(battle=battle, private_to__isnull=True).aggregate(
        vp=Sum(JSONNumber("data", "vp_delta")),
        time=Count("pk", filter=Q(data__category="time")),
        sudden=Count("pk", filter=Q(data__category="sudden_death")),
        casualties=Count("pk", filter=Q(data__category__in=CASUALTIES)),
    )
    delta = int(totals["vp"] or 0)
    # A logged VP change is signed toward the first side listed (see the event form).
    first = sides[0].faction if sides else Faction.AXIS.value
    vp_axis = start_vp_axis + (delta if first == Faction.AXIS.value else -delta)
    return Score(
        vp_axis=vp_axis,
        vp_text=vp_words(vp_axis, _names(sides)),
        time=totals["time"],
        sudden_death_rolls=totals["sudden"],
        casualties=totals["casualties"],
    )


def vp_words(vp_axis: int, names: Mapping[str, str]) -> str:
    """The VP marker as a player reads it: which side it favours, by how much."""
    if vp_axis == 0:
        return _("0 (level)")
    ahead = Faction.AXIS if vp_axis > 0 else Faction.ALLIES
    return _("%(side)s +%(n)s") % {"side": names.get(ahead.value, ahead.value), "n": abs(vp_axis)}


def _move_words(delta_axis: int, names: Mapping[str, str]) -> str:
    toward = Faction.AXIS if delta_axis > 0 else Faction.ALLIES
    return _("%(n)s toward %(side)s") % {
        "n": abs(delta_axis),
        "side": names.get(toward.value, toward.value),
    }


def _names(sides: list[Side]) -> dict[str, str]:
    return {s.faction: s.name for s in sides}


# --- the set-up sheet --------------------------------------------------------------------------


@dataclass
class Patrol:
    name: str
    kind: str = ""
    leader: str = ""
    units: str = ""


@dataclass
class SideSetup:
    name: str
    faction: str = ""
    posture_key: str = ""
    edge: str = ""
    posture: str = ""
    hand: int | None = None
    quality: str = ""
    patrols: list[Patrol] = field(default_factory=list)
    reinforcements: list[str] = field(default_factory=list)
    orders: Any = None
    initiative: Any = None
    surrender: Any = None
    spent: list[str] = field(default_factory=list)


@dataclass
class SetupSheet:
    number: int
    position: str
    map: int | None
    map_text: str
    sides: list[SideSetup]
    vp_axis: int
    vp_text: str
    vp_ledger: list[dict[str, Any]]
    rubble: str
    initiative: str
    initiative_holder: str
    extras: list[tuple[str, str]]


def battle_setup(campaign: Campaign, number: int, sides: list[Side]) -> SetupSheet | None:
    """The battle's set-up in words, or None before the campaign has set it up."""
    tpl = template_for(campaign.template)
    state = tpl.read(campaign)
    record = next((b for b in getattr(state, "battles", []) if b.number == number), None)
    if record is None:
        return None
    names = _names(sides)
    order = [Faction(s.faction) for s in sides if s.faction in Faction._value2member_map_]
    rows = {
        r.get("formation"): r
        for r in (campaign.tables.get("campaign_forces") or {}).get("rows") or []
        if isinstance(r, Mapping)
    }
    quality = getattr(state, "quality", {})
    spent = _spent(state, number)
    units = {u.id: u for side in getattr(state, "reinforcements", {}).values() for u in side or []}
    reinforcements = record.extras.get("reinforcements") or {}
    views = []
    for faction in order:
        q = quality.get(faction)
        posture = record.posture.get(faction)
        totals = record.totals.get(faction, {})
        views.append(
            SideSetup(
                name=names[faction.value],
                faction=faction.value,
                posture_key=posture.value if posture else "",
                edge=_edge(tpl.key, faction, record.orientation),
                posture=str(POSTURES.get(posture.value, posture.value)) if posture else "",
                hand=posture.hand_size if posture else None,
                quality=str(QUALITIES.get(q.value, q.value)) if q else "",
                patrols=[_patrol(f, rows.get(f, {}), q) for f in record.fielded.get(faction, [])],
                reinforcements=[
                    _unit(units[i]) if i in units else str(i)
                    for i in reinforcements.get(faction.value, [])
                ],
                orders=totals.get("orders"),
                initiative=totals.get("initiative"),
                surrender=totals.get("surrender"),
                spent=spent.get(faction, []),
            )
        )
    holder = record.extras.get("initiative_card")
    rubble = record.extras.get("rubble")
    return SetupSheet(
        number=record.number,
        position=record.position,
        map=record.map,
        map_text=_map_text(record.map, record.orientation),
        sides=views,
        vp_axis=record.vp_axis,
        vp_text=vp_words(record.vp_axis, names),
        vp_ledger=[
            {"moved": _move_words(e.delta_axis, names), "reason": say(e.reason), "rule": e.rule}
            for e in record.vp_ledger
        ],
        rubble=_(
            "%(n)s Rubble markers: %(half)s placed at random hexes drawn from each side's Fate deck"
        )
        % {"n": rubble, "half": rubble // 2}
        if rubble
        else "",
        initiative_holder=holder or "",
        initiative=_("%(side)s hold the Initiative card") % {"side": names.get(holder, holder)}
        if holder
        else _("Initiative tied or not entered: the players decide who holds the card"),
        extras=[
            (str(EXTRAS.get(k, k.replace("_", " ").capitalize())), _extra(v))
            for k, v in record.extras.items()
            if k not in SHOWN_APART
        ],
    )


def _map_text(number: int | None, orientation: int | None) -> str:
    if orientation in EDGES:
        shape = _("wide") if orientation in (1, 4) else _("long")
        return _("Map %(map)s, laid %(shape)s (white die %(die)s)") % {
            "map": number,
            "shape": shape,
            "die": orientation,
        }
    return _("Map %(map)s") % {"map": number}


def _edge(key: str, faction: Faction, orientation: int | None) -> str:
    """The side's friendly edge: the compass direction of the white die for the orienting
    side, the opposite edge for the other one."""
    orients = ORIENTS.get(key)
    if orients is None or orientation not in EDGES:
        return ""
    compass = orientation if faction is orients else OPPOSITE[orientation]
    return _("%(edge)s of the map (compass direction %(n)s)") % {
        "edge": EDGES[compass],
        "n": compass,
    }


def _patrol(formation: str, row: Mapping[str, Any], quality) -> Patrol:
    composition = None
    if quality is not None:
        composition = row.get(f"composition_{quality.value}")
    return Patrol(
        name=formation,
        kind=str(row.get("kind") or ""),
        leader=str(row.get("leader") or ""),
        units=_extra(composition) if composition else "",
    )


def _unit(unit: Any) -> str:
    details = [unit.kind]
    if unit.weapon:
        details.append(_("with %(weapon)s") % {"weapon": unit.weapon})
    if unit.veteran:
        details.append(_("veteran"))
    if unit.leader_of:
        details.append(_("leads %(patrol)s") % {"patrol": unit.leader_of})
    return _("%(what)s — %(id)s") % {"what": ", ".join(details), "id": unit.id}


def _extra(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_extra(v) for v in value) or "—"
    if isinstance(value, Mapping):
        return "; ".join(f"{_extra(k)}: {_extra(v)}" for k, v in value.items()) or "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return say(value)


def _spent(state: Any, number: int) -> dict[Faction, list[str]]:
    """What each side's pools paid for in this battle (Fortification Points and the like)."""
    found: dict[Faction, list[str]] = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        owned: list[tuple[Faction | None, Pool]] = []
        if isinstance(value, Pool):
            owned.append((_owner(value), value))
        elif isinstance(value, dict):
            owned.extend((k, v) for k, v in value.items() if isinstance(v, Pool))
        for owner, pool in owned:
            for e in pool.ledger:
                if e.battle == number and e.amount < 0 and owner is not None:
                    found.setdefault(owner, []).append(
                        _("%(pool)s: %(n)s spent on %(what)s [%(rule)s]")
                        % {
                            "pool": say(pool.name),
                            "n": -e.amount,
                            "what": say(e.reason),
                            "rule": e.rule,
                        }
                    )
    return found


def _owner(pool: Pool) -> Faction | None:
    """A campaign-wide pool belongs to the side its (English) name starts with."""
    name = pool.name
    name = str(Msg.from_dict(name)) if isinstance(name, Mapping) and "id" in name else str(name)
    if name.startswith("German"):
        return Faction.AXIS
    if name.startswith(("US", "American", "Russian", "Soviet")):
        return Faction.ALLIES
    return None

"""Terrain and Fortification values the seed prints, and a hex's Cover for one attack [T78.3].

Only numbers the seed states are here, each with its rule id; module terrain the seed does not
value (ST Rubble counts, PA caves …) enters as a plain `cover` number. The map is the players':
they say which terrain a hex holds, which hindrances a line of sight crosses and whether an
attack crossed a Hedge or Wall hexside.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg


class Terrain(StrEnum):
    """Hex terrain types of the Terrain Chart [T79–T99] (a Bridge stands for both kinds)."""

    BRIDGE = "bridge"
    BRUSH = "brush"
    BUILDING = "building"
    FIELD = "field"
    GULLY = "gully"
    MARSH = "marsh"
    OPEN_GROUND = "open_ground"
    ORCHARD = "orchard"
    STREAM = "stream"
    WOODS = "woods"


TERRAIN_COVER: dict[Terrain, int] = {
    Terrain.BRIDGE: 2,  # T80
    Terrain.BRUSH: 1,  # T81
    Terrain.BUILDING: 3,  # T82
    Terrain.FIELD: 0,  # T85
    Terrain.GULLY: 1,  # T86
    Terrain.MARSH: 0,  # T89
    Terrain.OPEN_GROUND: 0,  # T90
    Terrain.ORCHARD: 1,  # T91
    Terrain.STREAM: -1,  # T95
    Terrain.WOODS: 2,  # T99
}

TERRAIN_RULE: dict[Terrain, str] = {
    Terrain.BRIDGE: "T80",
    Terrain.BRUSH: "T81",
    Terrain.BUILDING: "T82",
    Terrain.FIELD: "T85",
    Terrain.GULLY: "T86",
    Terrain.MARSH: "T89",
    Terrain.OPEN_GROUND: "T90",
    Terrain.ORCHARD: "T91",
    Terrain.STREAM: "T95",
    Terrain.WOODS: "T99",
}

TERRAIN_WORDS: dict[Terrain, Msg] = {
    Terrain.BRIDGE: msg("Bridge"),
    Terrain.BRUSH: msg("Brush"),
    Terrain.BUILDING: msg("Building"),
    Terrain.FIELD: msg("Field"),
    Terrain.GULLY: msg("Gully"),
    Terrain.MARSH: msg("Marsh"),
    Terrain.OPEN_GROUND: msg("Open Ground"),
    Terrain.ORCHARD: msg("Orchard"),
    Terrain.STREAM: msg("Stream"),
    Terrain.WOODS: msg("Woods"),
}

WATER_TERRAIN = frozenset({Terrain.MARSH, Terrain.STREAM})
"""No Weapon fires from a Water hex [T89, T95] (Water Barrier holds no unit at all, T98)."""

HINDRANCE: dict[str, int] = {
    "bridge": 1,  # T80
    "brush": 3,  # T81
    "field": 1,  # T85
    "marsh": 1,  # T89
    "orchard": 2,  # T91
    "fence": 1,  # T84 (Clear if it is a side of the firer's or target's hex)
    "railroad": 1,  # T92 (Clear along the drawing)
}
"""Printed map hindrances [10.3]; a Smoke marker's is printed on it, 1 to 10 [T94]."""

SMOKE_RANGE = range(1, 11)  # T94
AIRBURST = 2  # T99: a mortar or Artillery attack on a Woods hex adds 2 to its Attack Total
ROAD_COVER = -1  # T92/T93 (the seed prints Road as a second "T92")
STACKING_LIMIT = 7  # 8.2: figures per hex per side


class Fortification(StrEnum):
    BUNKER = "bunker"  # F101
    FOXHOLES = "foxholes"  # F102
    MINES = "mines"  # F103
    PILLBOX = "pillbox"  # F104
    TRENCH = "trench"  # F105
    WIRE = "wire"  # F106


FORTIFICATION_COVER: dict[Fortification, tuple[int, str]] = {
    Fortification.BUNKER: (6, "F101"),
    Fortification.FOXHOLES: (3, "F102"),
    Fortification.PILLBOX: (5, "F104"),
    Fortification.TRENCH: (4, "F105.1"),
}
"""Alternative Cover; one more against mortars and Artillery (the number in brackets)."""

FORTIFICATION_WORDS: dict[Fortification, Msg] = {
    Fortification.BUNKER: msg("Bunker"),
    Fortification.FOXHOLES: msg("Foxholes"),
    Fortification.MINES: msg("Mines"),
    Fortification.PILLBOX: msg("Pillbox"),
    Fortification.TRENCH: msg("Trench"),
    Fortification.WIRE: msg("Wire"),
}


class Hexside(StrEnum):
    HEDGE = "hedge"
    WALL = "wall"
    BOCAGE = "bocage"


HEXSIDE_COVER: dict[Hexside, tuple[int, str, Msg]] = {
    Hexside.HEDGE: (1, "T87", msg("Hedge")),
    Hexside.WALL: (2, "T97", msg("Wall")),
    Hexside.BOCAGE: (2, "NO1", msg("Bocage")),
}
"""Cover only if the attack crossed that hexside entering the target hex, never against mortars
or Artillery."""


@dataclass(frozen=True)
class HexCover:
    """What is in a hex that gives Cover; the players read it off the map."""

    terrain: Terrain = Terrain.OPEN_GROUND
    cover: int | None = None  # the Cover of terrain not in TERRAIN_COVER (module terrain)
    fortification: Fortification | None = None
    road: bool = False  # a Road that lowers Cover (not a NO Rural Road, not in ST or PA)
    hexside_crossed: Hexside | None = None  # a Hedge/Wall the attack crossed entering the hex


@dataclass(frozen=True)
class Cover:
    value: int
    explanation: Explanation


def smoke(value: int) -> int:
    """A Smoke marker's printed hindrance [T94]."""
    if value not in SMOKE_RANGE:
        raise RuleError(msg("a Smoke marker hinders 1 to 10, not %(n)s", n=value), rule="T94")
    return value


def hex_cover(
    *,
    ground: HexCover,
    figures: int = 0,
    vs_mortar_or_artillery: bool = False,
    zero_cover: Msg | None = None,
    overstack_cover: bool = False,
) -> Cover:
    """The single best Cover of a hex for one attack [T78.3], then its Road and overstacking.

    The best Cover is always the owner's choice: it raises every value it modifies (Defense,
    Rally, Rout, Concealment). `zero_cover` names what sets Cover to 0 without modification
    (Flamethrower, Molotov [11.6], Mines [F103.2]). `overstack_cover` plays 8.2(b) [V15; the rule
    in ST, NO and PA]: -1 per friendly figure above 7.
    """
    why = Explanation()
    if zero_cover is not None:
        why.add("T78.3", msg("Cover 0 against %(what)s, without modification", what=zero_cover), 0)
        return Cover(0, why)
    if ground.cover is not None:
        options = [(ground.cover, "T78.3", msg("terrain"))]
    else:
        t = ground.terrain
        options = [(TERRAIN_COVER[t], TERRAIN_RULE[t], TERRAIN_WORDS[t])]
    fort = ground.fortification
    if fort in FORTIFICATION_COVER:
        value, rule = FORTIFICATION_COVER[fort]
        options.append((value + vs_mortar_or_artillery, rule, FORTIFICATION_WORDS[fort]))
    if ground.hexside_crossed is not None and not vs_mortar_or_artillery:
        options.append(HEXSIDE_COVER[ground.hexside_crossed])
    value, rule, what = max(options, key=lambda o: o[0])
    why.add(rule, msg("best single Cover: %(what)s %(n)s", what=what, n=value), value)
    if ground.road:
        value += ROAD_COVER
        why.add("T93", msg("Road in the hex: Cover -1"), value)
    if overstack_cover and figures > STACKING_LIMIT:
        value -= figures - STACKING_LIMIT
        over = figures - STACKING_LIMIT
        why.add(
            "V15",
            nmsg(
                "overstacked by %(n)s figure: Cover -%(n)s",
                "overstacked by %(n)s figures: Cover -%(n)s",
                over,
            ),
            value,
        )
    return Cover(value, why)

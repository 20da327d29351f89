"""Montecassino, the four-player linked scenario (16 March 1944): the data a tracker needs.

Two battles are played side by side, 2 + 2 players: Hill 236 (Cota 236) and Castle Hill
(Colina del Castillo). The team result is Castle Hill's [MC.team]; a side's radio at Castle
Hill works only while that side controls Hill 236 [MC.castle.2]. Names are as printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.cc.common import Faction, Posture, Quality

AXIS, ALLIES = Faction.AXIS, Faction.ALLIES


@dataclass(frozen=True)
class Force:
    nation: str
    formation: str
    quality: Quality
    orders: int
    posture: Posture
    setup: str
    units: tuple[str, ...]
    deck: str
    surrender: int | None = None
    reinforcements: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Battle:
    name: str
    map: int
    forces: dict[Faction, Force]
    first_turn: Faction
    vp_axis: int | None
    time_start: int | None
    sudden_death: int | None
    objectives: str | None
    special_rules: tuple[str, ...]


HILL_236 = Battle(
    name="Hill 236",
    map=11,
    forces={
        ALLIES: Force(
            "British",
            "Rajputana Rifles",
            Quality.LINE,
            2,
            Posture.DEFEND,
            "first, within 10 hexes of compass side 5/6",
            (
                "Sgt Foyle",
                "Sgt Percival",
                "1 Territorial squad",
                "2 Guards squads",
                "1 Green team",
                "1 Line team",
                "1 Satchel Charge",
                "1 medium mortar",
                "1 HMG",
                "1 Bunker",
            ),
            "British",
        ),
        AXIS: Force(
            "Italian",
            "Italianische Freiwilligen Legion",
            Quality.ELITE,
            2,
            Posture.ATTACK,
            "last, within 1 hex of compass side 2/3",
            (
                "Capt Castania",
                "Lt Pani",
                "Sgt Minutello",
                "6 Guastatori squads",
                "3 Weapon teams",
                "3 LMGs",
            ),
            "Italian",
        ),
    },
    first_turn=AXIS,
    vp_axis=None,
    time_start=None,
    sudden_death=None,
    objectives=None,
    special_rules=(
        "Wire in B2, B3, B5, B6, B8, B9, C8, D8, D5, E5, H5, G6, G8, G9",
        "Mines of strength 6 in C5, C6, D7, E8",
        "The Bunker sets up in open ground with Sgt Percival, the MG, the Line team and the "
        "mortar; stacking limit 4; the mortar is a tank gun: it cannot leave the bunker or "
        "fire smoke, is eliminated with the bunker, and may change sides if its crew is "
        "eliminated or leaves",
        "Italian units reaching the far edge become reinforcements on a Time space of the Axis "
        "players' choice; reaching the row-A road they may pass into Castle Hill on row 9 or 10",
        "No time end: the battle ends when one side has no units left or Castle Hill ends; "
        "objectives and exits do not score, casualties do; no surrender",
        "National decks and discard capacities are kept",
    ),
)

CASTLE_HILL = Battle(
    name="Castle Hill",
    map=9,
    forces={
        ALLIES: Force(
            "American (as printed)",
            "B and D Companies, Essex Battalion",
            Quality.ELITE,
            6,
            Posture.ATTACK,
            "first, within 1 hex of compass side 1",
            ("Capt Hubbard", "Lt Wray", "Lt Esparza", "6 Line squads", "3 Satchel Charges"),
            "American",
            surrender=11,
            reinforcements={
                3: ("Sgt Smith", "2 Line squads", "Radio 105 mm"),
                4: ("Lt Blankership", "1 Line squad", "MMG"),
                5: ("Lt Thomas", "1 Line squad"),
            },
        ),
        AXIS: Force(
            "German",
            "1st Parachute Division",
            Quality.LINE,
            4,
            Posture.DEFEND,
            "last, within 9 hexes of compass side 4",
            (
                "Sgt Pfeifer",
                "1 Rifle squad",
                "1 Weapon team",
                "1 LMG",
                "3 Minefields",
                "1 Radio 110 mm",
            ),
            "German",
            surrender=13,
            reinforcements={
                3: (
                    "Capt Wehling",
                    "Sgt Esser",
                    "Sgt Biermann",
                    "8 Volksgrenadier squads",
                    "2 SS squads",
                    "2 Elite teams",
                    "4 LMGs",
                    "1 HMG",
                ),
            },
        ),
    },
    first_turn=ALLIES,
    vp_axis=14,
    time_start=2,
    sudden_death=12,
    objectives="open U and P; one random per side; all start Axis-controlled",
    special_rules=(
        "Mines are strength 8; the SS paratroopers may lower them to 7 and start with card "
        "G-32 in hand",
        "A side's radio is inoperative unless that side controls Hill 236",
        "German and American decks; national discard capacities are kept",
    ),
)


def team_result(castle_hill_winner: Faction) -> Faction:
    """MC.team: the winning team is the winner of the Castle Hill battle."""
    return castle_hill_winner


def radio_operative(hill_236_controller: Faction | None, side: Faction) -> bool:
    """MC.castle.2: a side's Castle Hill radio works only while it controls Hill 236."""
    return hill_236_controller is side

"""The "Gastadores" campaign (C3i; US airborne in the Cotentin, June 1944).

Three phases, one published scenario each: 33 (fixed), then 26/105/6, then 34/27/28. After
each of the first two, the loser rolls on his Resource Table and the winner either picks the
next scenario or cedes the pick and rolls too. After Phase III the campaign is decided on who
won Phases II and III and on cumulative net VP. The seed numbers none of these rules; their
ids here are "GAS.*". US = Allies, German = Axis.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from rules.cc.campaign import Machine, Outcome, Phase, Session, run
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.tables import Table

US, GERMAN = Faction.ALLIES, Faction.AXIS
SCENARIOS = {1: ("33",), 2: ("26", "105", "6"), 3: ("34", "27", "28")}
INSTANT_WIN_VP = 30
ADJUSTMENTS = {
    "6": "map 28 instead of map 6, edge X10 American and X1 German; hedges: cover 2, movement "
    "cost 2; the Americans start controlling Objective 3",
    "26": "hedges: cover 2, movement cost 2",
    "34": "Allied posture Recon instead of Defender",
    "105": "F7 and all woods and brush in columns G-K are a Water Barrier (impassable, no LOS "
    "block, no hindrance); the road H6-J10 is a rural road and takes away no cover",
}


class WinMethod(StrEnum):
    VP = "vp"
    SURRENDER = "surrender"
    OBJECTIVE_5 = "objective_5"
    CONCESSION = "concession"


@dataclass(frozen=True)
class Resource:
    name: str
    effect: str
    counters: bool = False
    """It adds counters, so it is received only if they are in the countermix."""


def _table(id_: str, title: str, rows: dict[tuple[int, int], Resource]) -> Table:
    return Table(id_, "GAS.resources", title, rows)


_HIDDEN = Resource(
    "Hidden Deployment",
    "may use the simultaneous set-up of Sc. 26 rule 1; any set-up depth over 4 hexes becomes 4",
)
_RECON = Resource(
    "Advance Reconnaissance",
    "the enemy sets up first, without a screen; cancels the enemy's Hidden Deployment; no effect "
    "if both drew it",
)
_DISORGANIZED = Resource("Disorganized Enemy", "enemy discard capacity reduced to 2")

RESOURCES = {
    GERMAN: _table(
        "cc.gastadores.german_resources",
        "German Resource Table",
        {
            (2, 3): Resource(
                "Preliminary Bombardment",
                "after both sides set up, 3 effective (non-smoke) Artillery Requests as with the "
                "105 mm Radio",
            ),
            (4, 4): _HIDDEN,
            (5, 5): _RECON,
            (6, 6): Resource("Exhausted Paratroopers", "-1 to all US movement values"),
            (7, 7): _DISORGANIZED,
            (8, 8): Resource(
                "Divisional Artillery",
                "a 105 mm Radio at set-up, replacing any scenario radio",
                True,
            ),
            (9, 9): Resource(
                "Rifle Section",
                "Time space 5: Cpl Rettenhauss (or equivalent), 2 Rifle squads, 1 Conscript squad, "
                "1 LMG",
                True,
            ),
            (10, 10): Resource(
                "Mortar",
                "1 Weapon team, 1 medium mortar and 1 Foxholes in one hex; a leader may be Mortar "
                "Observer",
                True,
            ),
            (11, 12): Resource("Trench Line", "3 Trench counters added to the set-up", True),
        },
    ),
    US: _table(
        "cc.gastadores.american_resources",
        "American Resource Table",
        {
            (2, 3): Resource(
                "Jeep",
                "a US leader activated to Move may spend all its MP to reach any friendly hex, "
                "with no Op Fire against it",
            ),
            (4, 4): _HIDDEN,
            (5, 5): _RECON,
            (6, 6): Resource(
                "German Lack of Coordination", "German Surrender number halved, rounded up"
            ),
            (7, 7): _DISORGANIZED,
            (8, 8): Resource(
                "Airborne Artillery", "a 75 mm Radio at set-up, replacing any scenario radio", True
            ),
            (9, 9): Resource(
                "Airborne Infantry",
                "Time space 5: Sgt Divine (or equivalent), 2 Elite squads, 1 MMG",
                True,
            ),
            (10, 10): Resource(
                "French Guides",
                "US leaders and units stacked with them pay 1 in woods and brush, +1 for hedges, "
                "+0 for walls",
            ),
            (11, 12): Resource(
                "Support from the Beaches",
                "a 105 mm Radio at set-up, replacing any scenario radio",
                True,
            ),
        },
    ),
}


def lack_of_coordination(surrender: int) -> int:
    """American resource 6: the German Surrender number halved, rounded up."""
    return math.ceil(surrender / 2)


@dataclass
class ScenarioResult:
    """One phase's result. `vp_margin` is the winner's VP minus the loser's (may be negative);
    a win by surrender, Objective 5 or concession counts 30 instead."""

    scenario: str
    winner: Faction
    method: WinMethod = WinMethod.VP
    vp_margin: int = 0

    @property
    def margin(self) -> int:
        return self.vp_margin if self.method is WinMethod.VP else INSTANT_WIN_VP


@dataclass
class GastadoresOptions:
    count_phase_one: bool = True
    """Net VP counts all three phases (the seed: "cumulative over the campaign")."""


@dataclass
class GastadoresState(Machine):
    SIDES: ClassVar[dict[Faction, str]] = {US: "American", GERMAN: "German"}

    stage: int = 1
    scenario: str = "33"
    results: list[ScenarioResult] = field(default_factory=list)
    resources: dict[Faction, list[str]] = field(default_factory=lambda: {f: [] for f in Faction})
    net_vp: dict[Faction, int] = field(default_factory=lambda: {f: 0 for f in Faction})
    winner: Faction | None = None
    victory: str | None = None
    options: GastadoresOptions = field(default_factory=GastadoresOptions)


def new_campaign(options: GastadoresOptions | None = None) -> GastadoresState:
    """Phase I: scenario 33 "¡Vamos allá!"."""
    return GastadoresState(phase=Phase.BATTLE, options=options or GastadoresOptions())


def record_result(
    state: GastadoresState,
    result: ScenarioResult,
    dice: DiceSource | None,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[GastadoresState]:
    """Record a phase's result, then prepare the next phase or decide the campaign.

    Choices: `option` ("choose" or "cede", winner), `scenario` (the picker),
    `resource_available.<side>` (bool, for resources that add counters),
    `initiative_holder` (side, only for a net-VP tie after Phase III).
    """
    return run(
        state,
        lambda s, ctx: _record(s, ctx, result),
        phase=Phase.BATTLE,
        choices=choices,
        dice=dice,
    )


def _record(state: GastadoresState, ctx: Session, result: ScenarioResult) -> None:
    if result.scenario != state.scenario:
        raise RuleError(f"Phase {state.stage} is scenario {state.scenario}", rule="GAS.campaign")
    state.results.append(result)
    for side in Faction:
        state.net_vp[side] = net_vp(state.results, side, state.options)
    ctx.step(
        "GAS.victory",
        f"Phase {state.stage}: {ctx.name(result.winner)} wins scenario {result.scenario} "
        f"({result.method.value}) by",
        result.margin,
    )
    if state.stage == 3:
        _decide(state, ctx)
        state.phase = Phase.ENDED
        return
    state.stage += 1
    state.resources = {f: [] for f in Faction}
    loser = result.winner.other
    _resource(state, ctx, loser)
    option = ctx.choose(
        "option",
        rule="GAS.campaign",
        prompt=f"{ctx.name(result.winner)}: choose the next scenario, or cede the choice and "
        "roll on your Resource Table",
        options=("choose", "cede"),
        chooser=result.winner,
    )
    picker = result.winner if option == "choose" else loser
    if option == "cede":
        _resource(state, ctx, result.winner)
    state.scenario = ctx.choose(
        "scenario",
        rule="GAS.campaign",
        prompt=f"{ctx.name(picker)}: choose the Phase {state.stage} scenario",
        options=SCENARIOS[state.stage],
        chooser=picker,
    )
    ctx.step("GAS.campaign", f"{ctx.name(picker)} picks scenario", state.scenario)
    if state.scenario in ADJUSTMENTS:
        ctx.step("GAS.adjust", f"scenario {state.scenario}: {ADJUSTMENTS[state.scenario]}")
    ctx.step("GAS.resources", "shuffle the decks after all set-up rolls")


def _resource(state: GastadoresState, ctx: Session, side: Faction) -> None:
    roll = ctx.roll(
        f"resource.{side.value}", purpose=f"{ctx.name(side)} resource", rule="GAS.resources"
    )
    resource = RESOURCES[side].lookup_range(roll.value)
    ctx.step(
        "GAS.resources",
        f"{ctx.name(side)} rolls {roll.value}: {resource.effect}",
        resource.name,
        roll,
    )
    if resource.counters and not ctx.choose(
        f"resource_available.{side.value}",
        rule="GAS.resources",
        prompt=f"Are the counters for {resource.name} in the countermix?",
        options=(True, False),
        chooser=side,
    ):
        ctx.step("GAS.resources", f"{resource.name}: counters not available, nothing received")
        return
    state.resources[side].append(resource.name)


def net_vp(results: list[ScenarioResult], side: Faction, options: GastadoresOptions) -> int:
    """Margins won minus margins lost, over the phases counted."""
    counted = results if options.count_phase_one else results[1:]
    return sum(r.margin if r.winner is side else -r.margin for r in counted)


def magnitude(net: int) -> str:
    """Campaign Victory Table: > 40 decisive, 15–40 substantial, < 15 narrow."""
    if net > 40:
        return "decisive"
    return "substantial" if net >= 15 else "narrow"


def _decide(state: GastadoresState, ctx: Session) -> None:
    second, third = state.results[1].winner, state.results[2].winner
    net = state.net_vp
    if second is third:
        winner, why = second, "won Phases II and III"
    elif net[US] != net[GERMAN]:
        winner, why = max(Faction, key=lambda s: net[s]), "split Phases II/III, higher net VP"
    else:
        winner = Faction(
            ctx.choose(
                "initiative_holder",
                rule="GAS.victory",
                prompt="Net VP tied: who held the Initiative card at the end of Phase III?",
                options=tuple(f.value for f in Faction),
                chooser="both",
            )
        )
        why = "net VP tied, Initiative card at the end of Phase III"
    state.winner, state.victory = winner, magnitude(net[winner])
    ctx.step(
        "GAS.victory", f"{ctx.name(winner)} {state.victory} victory ({why}); net VP", net[winner]
    )

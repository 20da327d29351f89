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

from rules.cc.battle.readings import BattleReadings
from rules.cc.campaign import Machine, Outcome, Phase, Session, run
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.tables import Table

US, GERMAN = Faction.ALLIES, Faction.AXIS
SCENARIOS = {1: ("33",), 2: ("26", "105", "6"), 3: ("34", "27", "28")}
INSTANT_WIN_VP = 30
ADJUSTMENTS = {
    "6": msg(
        "map 28 instead of map 6, edge X10 American and X1 German; hedges: cover 2, movement "
        "cost 2; the Americans start controlling Objective 3"
    ),
    "26": msg("hedges: cover 2, movement cost 2"),
    "34": msg("Allied posture Recon instead of Defender"),
    "105": msg(
        "F7 and all woods and brush in columns G-K are a Water Barrier (impassable, no LOS "
        "block, no hindrance); the road H6-J10 is a rural road and takes away no cover"
    ),
}


class WinMethod(StrEnum):
    VP = "vp"
    SURRENDER = "surrender"
    OBJECTIVE_5 = "objective_5"
    CONCESSION = "concession"


METHOD_WORDS = {
    WinMethod.VP: msg("on VP"),
    WinMethod.SURRENDER: msg("by surrender"),
    WinMethod.OBJECTIVE_5: msg("by Objective 5"),
    WinMethod.CONCESSION: msg("by concession"),
}
VICTORY_WORDS = {
    "decisive": msg("Decisive Victory"),
    "substantial": msg("Substantial Victory"),
    "narrow": msg("Narrow Victory"),
}


@dataclass(frozen=True)
class Resource:
    name: Msg
    effect: Msg
    counters: bool = False
    """It adds counters, so it is received only if they are in the countermix."""


def _table(id_: str, title: str, rows: dict[tuple[int, int], Resource]) -> Table:
    return Table(id_, "GAS.resources", title, rows)


_HIDDEN = Resource(
    msg("Hidden Deployment"),
    msg(
        "may use the simultaneous set-up of Sc. 26 rule 1; any set-up depth over 4 hexes becomes 4"
    ),
)
_RECON = Resource(
    msg("Advance Reconnaissance"),
    msg(
        "the enemy sets up first, without a screen; cancels the enemy's Hidden Deployment; no effect "
        "if both drew it"
    ),
)
_DISORGANIZED = Resource(msg("Disorganized Enemy"), msg("enemy discard capacity reduced to 2"))

RESOURCES = {
    GERMAN: _table(
        "cc.gastadores.german_resources",
        "German Resource Table",
        {
            (2, 3): Resource(
                msg("Preliminary Bombardment"),
                msg(
                    "after both sides set up, 3 effective (non-smoke) Artillery Requests as with the "
                    "105 mm Radio"
                ),
            ),
            (4, 4): _HIDDEN,
            (5, 5): _RECON,
            (6, 6): Resource(msg("Exhausted Paratroopers"), msg("-1 to all US movement values")),
            (7, 7): _DISORGANIZED,
            (8, 8): Resource(
                msg("Divisional Artillery"),
                msg("a 105 mm Radio at set-up, replacing any scenario radio"),
                True,
            ),
            (9, 9): Resource(
                msg("Rifle Section"),
                msg(
                    "Time space 5: Cpl Rettenhauss (or equivalent), 2 Rifle squads, 1 Conscript squad, "
                    "1 LMG"
                ),
                True,
            ),
            (10, 10): Resource(
                msg("Mortar"),
                msg(
                    "1 Weapon team, 1 medium mortar and 1 Foxholes in one hex; a leader may be Mortar "
                    "Observer"
                ),
                True,
            ),
            (11, 12): Resource(
                msg("Trench Line"), msg("3 Trench counters added to the set-up"), True
            ),
        },
    ),
    US: _table(
        "cc.gastadores.american_resources",
        "American Resource Table",
        {
            (2, 3): Resource(
                msg("Jeep"),
                msg(
                    "a US leader activated to Move may spend all its MP to reach any friendly hex, "
                    "with no Op Fire against it"
                ),
            ),
            (4, 4): _HIDDEN,
            (5, 5): _RECON,
            (6, 6): Resource(
                msg("German Lack of Coordination"),
                msg("German Surrender number halved, rounded up"),
            ),
            (7, 7): _DISORGANIZED,
            (8, 8): Resource(
                msg("Airborne Artillery"),
                msg("a 75 mm Radio at set-up, replacing any scenario radio"),
                True,
            ),
            (9, 9): Resource(
                msg("Airborne Infantry"),
                msg("Time space 5: Sgt Divine (or equivalent), 2 Elite squads, 1 MMG"),
                True,
            ),
            (10, 10): Resource(
                msg("French Guides"),
                msg(
                    "US leaders and units stacked with them pay 1 in woods and brush, +1 for hedges, "
                    "+0 for walls"
                ),
            ),
            (11, 12): Resource(
                msg("Support from the Beaches"),
                msg("a 105 mm Radio at set-up, replacing any scenario radio"),
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
class GastadoresOptions(BattleReadings):
    count_phase_one: bool = True
    """Net VP counts all three phases (the seed: "cumulative over the campaign")."""


@dataclass
class GastadoresState(Machine):
    SIDES: ClassVar[dict[Faction, Msg]] = {US: msg("Americans"), GERMAN: msg("Germans")}

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
        raise RuleError(
            msg("Phase %(n)s is scenario %(scenario)s", n=state.stage, scenario=state.scenario),
            rule="GAS.campaign",
        )
    state.results.append(result)
    for side in Faction:
        state.net_vp[side] = net_vp(state.results, side, state.options)
    ctx.step(
        "GAS.victory",
        msg(
            "Phase %(n)s: the %(side)s win scenario %(scenario)s (%(method)s) by",
            n=state.stage,
            side=ctx.name(result.winner),
            scenario=result.scenario,
            method=METHOD_WORDS[result.method],
        ),
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
        prompt=msg(
            "%(side)s: choose the next scenario, or cede the choice and roll on your Resource "
            "Table",
            side=ctx.name(result.winner),
        ),
        options=("choose", "cede"),
        chooser=result.winner,
    )
    picker = result.winner if option == "choose" else loser
    if option == "cede":
        _resource(state, ctx, result.winner)
    state.scenario = ctx.choose(
        "scenario",
        rule="GAS.campaign",
        prompt=msg(
            "%(side)s: choose the Phase %(n)s scenario", side=ctx.name(picker), n=state.stage
        ),
        options=SCENARIOS[state.stage],
        chooser=picker,
    )
    ctx.step("GAS.campaign", msg("%(side)s pick scenario", side=ctx.name(picker)), state.scenario)
    if state.scenario in ADJUSTMENTS:
        ctx.step(
            "GAS.adjust",
            msg(
                "scenario %(scenario)s: %(change)s",
                scenario=state.scenario,
                change=ADJUSTMENTS[state.scenario],
            ),
        )
    ctx.step("GAS.resources", msg("shuffle the decks after all set-up rolls"))


def _resource(state: GastadoresState, ctx: Session, side: Faction) -> None:
    roll = ctx.roll(
        f"resource.{side.value}", purpose=msg("Resource Table roll"), rule="GAS.resources"
    )
    resource = RESOURCES[side].lookup_range(roll.value)
    ctx.step(
        "GAS.resources",
        msg(
            "%(side)s roll %(roll)s: %(name)s, %(effect)s",
            side=ctx.name(side),
            roll=roll.value,
            name=resource.name,
            effect=resource.effect,
        ),
        resource.name.id,
        roll,
    )
    if resource.counters and not ctx.choose(
        f"resource_available.{side.value}",
        rule="GAS.resources",
        prompt=msg(
            "%(side)s: are the counters for %(resource)s in the countermix? If not, you receive "
            "nothing",
            side=ctx.name(side),
            resource=resource.name,
        ),
        options=(True, False),
        chooser=side,
    ):
        ctx.step(
            "GAS.resources",
            msg("%(resource)s: counters not available, nothing received", resource=resource.name),
        )
        return
    state.resources[side].append(resource.name.id)


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
        winner, why = second, msg("won Phases II and III")
    elif net[US] != net[GERMAN]:
        winner, why = max(Faction, key=lambda s: net[s]), msg("split Phases II/III, higher net VP")
    else:
        winner = Faction(
            ctx.choose(
                "initiative_holder",
                rule="GAS.victory",
                prompt=msg("Net VP tied: who held the Initiative card at the end of Phase III?"),
                options=tuple(f.value for f in Faction),
                chooser="both",
            )
        )
        why = msg("net VP tied, Initiative card at the end of Phase III")
    state.winner, state.victory = winner, magnitude(net[winner])
    ctx.step(
        "GAS.victory",
        msg(
            "%(side)s: %(victory)s (%(why)s); net VP",
            side=ctx.name(winner),
            victory=VICTORY_WORDS[state.victory],
            why=why,
        ),
        net[winner],
    )

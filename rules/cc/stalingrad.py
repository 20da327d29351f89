"""Stalingrad linked campaign (Scenario 45), rules ST-C1 (set-up) and ST-C3 (after a battle).

German = Axis, Russian = Allies; the site names the sides Germans and Soviets. Call, in a loop until `state.phase` is ENDED:
`prepare_forces` → `prepare_support` → `conclude_battle`; each returns an `Outcome` that may
hold a `Decision` to answer (see `rules.cc.campaign`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.cc.battle.readings import BattleReadings
from rules.cc.campaign import (
    BattleRecord,
    CampaignState,
    Outcome,
    Phase,
    Pool,
    Session,
    run,
)
from rules.cc.campaign_steps import (
    COMPASS_EDGE,
    POSTURE_WORDS,
    QUALITY_WORDS,
    adjust_quality,
    defender_fortifications,
    divisional_requests,
    force_totals,
    pay_vp,
    sealed_purchase,
    set_postures,
    standard_support,
)
from rules.cc.campaign_tables import CampaignTables
from rules.cc.common import Faction, Posture
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.i18n import Msg, msg, nmsg
from rules.tables import MISSING

GERMAN, RUSSIAN = Faction.AXIS, Faction.ALLIES
ORDER = [GERMAN, RUSSIAN]

POSITIONS = ("G2", "G1", "O", "R1", "R2")
"""Campaign Positions from the German end to the Russian end [ST-C1.1]."""
MAPS = {"G2": 24, "G1": 23, "O": 37, "R1": 32, "R2": 36}
TOWARD_ENEMY = {GERMAN: +1, RUSSIAN: -1}
DECISIVE_AT = {GERMAN: "R2", RUSSIAN: "G2"}
COMMAND = {GERMAN: "German Command Patrol", RUSSIAN: "Russian Command Patrol"}
INITIAL_POOL = {
    RUSSIAN: ["A", "B", "E", "Assault Engineers"],
    GERMAN: ["C", "D", "F", "Pionier"],
}
FORTIFICATION_POINTS = 11
STEPS_BY_POSTURE = {Posture.DEFEND: (0, 1), Posture.RECON: (1,), Posture.ATTACK: (1, 2)}
SUDDEN_DEATH_FROM = 5


@dataclass
class CarriedUnit:
    """A survivor kept as a Reinforcement [ST-C3.4]; `leader_of` names the Patrol it leads."""

    id: str
    kind: str
    weapon: str | None = None
    veteran: bool = False
    leader_of: str | None = None


@dataclass
class StalingradOptions(BattleReadings):
    """Readings players may want otherwise (see rules/cc/DECISIONS.md)."""

    charge_fill_ins: bool = False
    """ST-C1.5.5: also charge +1 VP for Reinforcements used to complete a Patrol."""


def _fort_points() -> dict[Faction, Pool]:
    return {
        GERMAN: Pool.full(msg("German Fortification Points"), FORTIFICATION_POINTS),
        RUSSIAN: Pool.full(msg("Soviet Fortification Points"), FORTIFICATION_POINTS),
    }


def _pools() -> dict[Faction, list[str]]:
    return {side: list(leaders) for side, leaders in INITIAL_POOL.items()}


@dataclass
class StalingradState(CampaignState):
    SIDES: ClassVar[dict[Faction, Msg]] = {GERMAN: msg("Germans"), RUSSIAN: msg("Soviets")}

    position: str = "O"
    fort_points: dict[Faction, Pool] = field(default_factory=_fort_points)
    pool: dict[Faction, list[str]] = field(default_factory=_pools)
    reinforcements: dict[Faction, list[CarriedUnit]] = field(
        default_factory=lambda: {f: [] for f in Faction}
    )
    options: StalingradOptions = field(default_factory=StalingradOptions)


@dataclass
class StalingradResult:
    """What the players report after a battle: the winner and, per side, the units left on the
    map and Time Track once broken/suppressed units are removed [ST-C3.4]."""

    winner: Faction
    survivors: dict[Faction, list[CarriedUnit]] = field(default_factory=dict)


def new_campaign(options: StalingradOptions | None = None) -> StalingradState:
    """Battle 1 at CP O, both sides Line, 11 Fortification Points each, the initial pools."""
    return StalingradState(options=options or StalingradOptions())


def rubble_count(battle: int) -> int:
    """ST-C1.1: 4 rubble markers per battle number, at most 40."""
    return min(4 * battle, 40)


def position_options(position: str, winner: Faction, posture: Posture) -> tuple[str, ...]:
    """ST-C3.2: where the winner may take the next battle, clamped at the track's ends."""
    here = POSITIONS.index(position)
    steps = STEPS_BY_POSTURE[posture]
    moved = (min(max(here + TOWARD_ENEMY[winner] * s, 0), len(POSITIONS) - 1) for s in steps)
    return tuple(dict.fromkeys(POSITIONS[i] for i in moved))


def reinforcement_allowance(survivors: int, battle_marker: int) -> int:
    """ST-C3.4: survivors ÷ the Battle marker's (already advanced) space, rounded up."""
    return math.ceil(survivors / battle_marker)


# ---------------------------------------------------------------------------------------------
# ST-C1: before a battle


def prepare_forces(
    state: StalingradState,
    tables: CampaignTables,
    dice: DiceSource | None,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[StalingradState]:
    """ST-C1.1–ST-C1.5.5: map, orientation, rubble, Command Patrols, sealed purchase, VP cost.

    Choices: `purchase.axis` / `purchase.allies` (lists of pool ids); optional
    `fill_ins.<side>` (ids of Reinforcements used to complete short Patrols).
    """
    return run(
        state,
        lambda s, ctx: _forces(s, ctx, tables),
        phase=Phase.FORCES,
        choices=choices,
        dice=dice,
    )


def _forces(state: StalingradState, ctx: Session, tables: CampaignTables) -> None:
    record = BattleRecord(state.battle, state.position, MAPS[state.position])
    ctx.step(
        "ST-C1.1",
        msg("battle %(n)s at CP %(cp)s: map", n=state.battle, cp=state.position),
        record.map,
    )
    roll = ctx.roll("orientation", purpose=msg("Soviet friendly edge"), rule="ST-C1.1")
    record.orientation = roll.die("white")
    ctx.step(
        "ST-C1.1",
        msg(
            "Soviet friendly edge: %(edge)s (compass direction of the white die)",
            edge=COMPASS_EDGE[record.orientation],
        ),
        record.orientation,
        roll,
    )
    rubble = record.extras["rubble"] = rubble_count(state.battle)
    ctx.step(
        "ST-C1.1",
        nmsg(
            "spread of devastation: %(n)s Rubble marker from each Fate deck",
            "spread of devastation: %(n)s Rubble markers from each Fate deck",
            rubble // 2,
        ),
        rubble,
    )
    ctx.step("ST-C1.2", msg("year 1942; sides fixed for the campaign"))
    for side in ORDER:
        quality = state.quality[side]
        ctx.step(
            "ST-C1.3",
            msg(
                "%(side)s: troop quality %(quality)s",
                side=ctx.name(side),
                quality=QUALITY_WORDS[quality],
            ),
            quality.value,
        )
        composition = tables.composition(COMMAND[side], quality)
        text = (
            msg("not entered in the Campaign Forces Table")
            if composition is MISSING
            else composition
        )
        ctx.step(
            "ST-C1.5.3",
            msg(
                "%(side)s: Command Patrol (%(quality)s): %(text)s",
                side=ctx.name(side),
                quality=QUALITY_WORDS[quality],
                text=text,
            ),
        )
    bought = sealed_purchase(
        ctx,
        state.pool,
        tables,
        rule="ST-C1.5.4",
        cost_rule="ST-C1.5.5",
        noun=msg("Patrols"),
        order=ORDER,
    )
    for side in ORDER:
        record.fielded[side] = [COMMAND[side], *bought[side]]
        filled = _fill_ins(state, ctx, side)
        _pay_for_forces(state, ctx, tables, record, side, bought[side], filled)
    record.extras["reinforcements"] = {
        side.value: [u.id for u in state.reinforcements[side]] for side in ORDER
    }
    state.battles.append(record)
    state.phase = Phase.SUPPORT


def _fill_ins(state: StalingradState, ctx: Session, side: Faction) -> list[CarriedUnit]:
    """ST-C1.5.3/1.5.4: Reinforcements used to complete short Patrols stop being Reinforcements."""
    wanted = ctx.choices.get(f"fill_ins.{side.value}", [])
    units = {u.id: u for u in state.reinforcements[side]}
    unknown = [i for i in wanted if i not in units]
    if unknown:
        raise RuleError(
            msg(
                "not Reinforcements of the %(side)s: %(unknown)s",
                side=ctx.name(side),
                unknown=", ".join(unknown),
            ),
            rule="ST-C1.5.4",
        )
    state.reinforcements[side] = [u for u in state.reinforcements[side] if u.id not in wanted]
    if wanted:
        ctx.step(
            "ST-C1.5.4",
            msg("%(side)s complete short Patrols with Reinforcements", side=ctx.name(side)),
            list(wanted),
        )
    return [units[i] for i in wanted]


def _pay_for_forces(
    state: StalingradState,
    ctx: Session,
    tables: CampaignTables,
    record: BattleRecord,
    side: Faction,
    bought: list[str],
    filled: list[CarriedUnit],
) -> None:
    """ST-C1.5.5: Patrol costs, +1 per Reinforcement unit, +1 per Reinforcement weapon."""
    cost = sum(tables.value(p, "cost", rule="ST-C1.5.5") for p in bought)
    charged = state.reinforcements[side] + (filled if state.options.charge_fill_ins else [])
    weapons = sum(1 for u in charged if u.weapon)
    total = cost + len(charged) + weapons
    ctx.step(
        "ST-C1.5.5",
        msg(
            "%(side)s: force cost, Patrols %(cost)s + %(units)s Reinforcement units "
            "+ %(weapons)s Reinforcement weapons",
            side=ctx.name(side),
            cost=cost,
            units=len(charged),
            weapons=weapons,
        ),
        total,
    )
    pay_vp(ctx, record, side, total, reason=msg("their forces"), rule="ST-C1.5.5")


def prepare_support(
    state: StalingradState,
    tables: CampaignTables,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[StalingradState]:
    """RS.7 (VP entered), RS.8 postures, RS.9, ST-C1.9 Fortification Points, RS.10–16 totals.

    Choices: `rs7.vp_axis`, `rs9.cost`, `fortify.axis`, `fortify.allies` (whole numbers).
    """
    return run(
        state,
        lambda s, ctx: _support(s, ctx, tables),
        phase=Phase.SUPPORT,
        choices=choices,
        dice=None,
    )


def _support(state: StalingradState, ctx: Session, tables: CampaignTables) -> None:
    record = state.current
    ctx.step("ST-C1.6", msg("RS.6 is not used: leaders come with Patrols and Reinforcements"))
    standard_support(ctx, record)
    set_postures(ctx, record)
    defender_fortifications(ctx, record)
    for side in ORDER:
        pool = state.fort_points[side]
        spent = ctx.enter_int(
            f"fortify.{side.value}",
            rule="ST-C1.9",
            prompt=msg(
                "%(side)s: Fortification Points spent on Fortification OBs", side=ctx.name(side)
            ),
            chooser=side,
            low=0,
            high=pool.balance,
        )
        if spent:
            pool.change(
                -spent, reason=msg("Fortification OBs"), rule="ST-C1.9", battle=state.battle
            )
        ctx.step(
            "ST-C1.9",
            nmsg(
                "%(side)s spend %(n)s Fortification Point (no VP)",
                "%(side)s spend %(n)s Fortification Points (no VP)",
                spent,
                side=ctx.name(side),
            ),
            pool.balance,
        )
    force_totals(ctx, tables, record, rule="ST-C1.5.1")
    ctx.step(
        "RS.16",
        msg(
            "Reinforcements go on Time Track spaces, Germans first, at most 7 soldier icons per "
            "space"
        ),
    )
    state.phase = Phase.BATTLE


# ---------------------------------------------------------------------------------------------
# ST-C3: after a battle


def conclude_battle(
    state: StalingradState,
    result: StalingradResult,
    tables: CampaignTables,
    dice: DiceSource | None,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[StalingradState]:
    """ST-C3.1–ST-C3.6 in order.

    Choices: `position`, `quality`, `reinforcements.<side>` (survivor ids),
    `weapons.<side>` (ids of chosen units keeping their weapons), `divisional.<side>` (winner).
    """
    return run(
        state,
        lambda s, ctx: _conclude(s, ctx, result, tables),
        phase=Phase.BATTLE,
        choices=choices,
        dice=dice,
    )


def _conclude(
    state: StalingradState, ctx: Session, result: StalingradResult, tables: CampaignTables
) -> None:
    winner = state.current.winner = result.winner
    ctx.step(
        "ST-C3",
        msg(
            "the %(side)s won battle %(n)s at CP %(cp)s",
            side=ctx.name(winner),
            n=state.battle,
            cp=state.position,
        ),
    )
    if _campaign_over(state, ctx, winner):
        state.phase = Phase.ENDED
        return
    _move_position(state, ctx, winner)
    adjust_quality(ctx, state.quality, winner, rule="ST-C3.3")
    for side in ORDER:
        _choose_reinforcements(state, ctx, side, result.survivors.get(side, []))
    divisional_requests(
        ctx,
        tables,
        winner,
        available=lambda side, patrol: (
            patrol not in state.pool[side]
            and all(u.leader_of != patrol for u in state.reinforcements[side])
        ),
        grant=lambda side, patrol: state.pool[side].append(patrol),
        rule="ST-C3.5",
    )
    ctx.step("ST-C3.6", msg("VP marker to 0, Urban Sniper to neutral; next battle from ST-C1.1"))
    state.phase = Phase.FORCES


def _campaign_over(state: StalingradState, ctx: Session, winner: Faction) -> bool:
    """ST-C3.1: decisive win at the enemy's end; from battle 5 the campaign Sudden Death roll."""
    if state.position == DECISIVE_AT[winner]:
        state.winner, state.victory = winner, "decisive"
        ctx.step(
            "ST-C3.1",
            msg(
                "won at CP %(cp)s: %(side)s Decisive Victory",
                cp=state.position,
                side=ctx.name(winner),
            ),
            "decisive",
        )
        return True
    if state.battle >= SUDDEN_DEATH_FROM:
        roll = ctx.roll("sudden_death", purpose=msg("campaign Sudden Death roll"), rule="ST-C3.1")
        if roll.value < state.battle:
            state.winner, state.victory = winner, "tactical"
            ctx.step(
                "ST-C3.1",
                msg(
                    "campaign Sudden Death roll %(roll)s < %(n)s battles: the campaign ends, "
                    "%(side)s Tactical Victory",
                    roll=roll.value,
                    n=state.battle,
                    side=ctx.name(winner),
                ),
                "tactical",
                roll,
            )
            return True
        ctx.step(
            "ST-C3.1",
            msg(
                "campaign Sudden Death roll %(roll)s ≥ %(n)s: it goes on",
                roll=roll.value,
                n=state.battle,
            ),
            roll.value,
            roll,
        )
    state.battle += 1
    ctx.step("ST-C3.1", msg("Battle marker advances"), state.battle)
    return False


def _move_position(state: StalingradState, ctx: Session, winner: Faction) -> None:
    posture = state.current.posture[winner]
    options = position_options(state.position, winner, posture)
    state.position = ctx.choose(
        "position",
        rule="ST-C3.2",
        prompt=msg(
            "%(side)s won as %(posture)s: choose the next Campaign Position",
            side=ctx.name(winner),
            posture=POSTURE_WORDS[posture],
        ),
        options=options,
        chooser=winner,
    )
    ctx.step(
        "ST-C3.2",
        msg(
            "%(side)s won as %(posture)s; next battle at CP",
            side=ctx.name(winner),
            posture=POSTURE_WORDS[posture],
        ),
        state.position,
    )


def _choose_reinforcements(
    state: StalingradState, ctx: Session, side: Faction, survivors: list[CarriedUnit]
) -> None:
    """ST-C3.4: keep up to ceil(survivors ÷ Battle marker) survivors, weapons at will."""
    by_id = {u.id: u for u in survivors}
    if len(by_id) != len(survivors):
        raise RuleError(
            msg("%(side)s: survivors need distinct ids", side=ctx.name(side)), rule="ST-C3.4"
        )
    allowance = reinforcement_allowance(len(survivors), state.battle)
    ctx.step(
        "ST-C3.4",
        nmsg(
            "%(side)s: %(n)s survivor ÷ Battle marker %(battle)s, rounded up",
            "%(side)s: %(n)s survivors ÷ Battle marker %(battle)s, rounded up",
            len(survivors),
            side=ctx.name(side),
            battle=state.battle,
        ),
        allowance,
    )
    kept = ctx.choose_some(
        f"reinforcements.{side.value}",
        rule="ST-C3.4",
        prompt=nmsg(
            "%(side)s: choose up to %(n)s survivor to keep as a Reinforcement",
            "%(side)s: choose up to %(n)s survivors to keep as Reinforcements",
            allowance,
            side=ctx.name(side),
        ),
        options=list(by_id),
        chooser=side,
        most=allowance,
    )
    armed = [i for i in kept if by_id[i].weapon]
    keep_weapons = ctx.choose_some(
        f"weapons.{side.value}",
        rule="ST-C3.4",
        prompt=msg("%(side)s: which Reinforcements keep their weapons", side=ctx.name(side)),
        options=armed,
        chooser=side,
    )
    state.reinforcements[side] = [
        CarriedUnit(
            u.id, u.kind, u.weapon if u.id in keep_weapons else None, u.veteran, u.leader_of
        )
        for u in (by_id[i] for i in kept)
    ]
    ctx.step(
        "ST-C3.4", msg("%(side)s: Reinforcements (Veteran markers kept)", side=ctx.name(side)), kept
    )

"""Normandy linked campaign toward St-Lô (Scenario 56), rules NO-C1 (set-up) and NO-C3.

US = Allies, German = Axis; the site names the sides Americans and Germans. Formations are identified by their Section Leader's name, as the
pools are in NO-C1 (the Command Sections: Craighead and Heinzmann). Call, in a loop until
`state.phase` is ENDED: `prepare_forces` → `prepare_support` → `conclude_battle`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.i18n import Msg, msg, nmsg
from rules.tables import MISSING

US, GERMAN = Faction.ALLIES, Faction.AXIS
ORDER = [US, GERMAN]

POSITIONS = ("A1", "A2", "A3", "A4", "G1")
MAPS = {"A1": 2, "A2": 42, "A3": 43, "A4": 44, "G1": 2}
ADVANCE = ("A1", "A2", "A3", "A4")
RANKS = ("Sgt", "2Lt", "1Lt", "Capt")
WINS_NEEDED = 4
COMMAND = {US: "Craighead", GERMAN: "Heinzmann"}
DIVISIONAL = {
    US: ["Slingsluff", "Miller", "Ewing", "Richardson"],
    GERMAN: ["Wetteman", "Rubart", "Gessler", "Von Hoffman"],
}
REGIMENTAL = {
    US: ["Craighead", "Krauss", "Bowen", "Cawthon"],
    GERMAN: ["Heinzmann", "Ehnert", "Hummel", "Becker"],
}
US_ARMOR, GERMAN_ARMOR, GERMAN_ARTILLERY, GERMAN_FORTIFICATION = 5, 1, 11, 7
ARTILLERY_PER_BATTLE = 3
ARMOR_VP, SATCHEL_VP, ARTILLERY_VP = 4, 1, 5
REST_DAY_AFTER = 3
REST_DAY_ROLLS = 2


@dataclass
class NormandyOptions(BattleReadings):
    """Readings players may want otherwise (see rules/cc/DECISIONS.md)."""

    satchels_with_armor: bool = True
    """NO-C1.72: the 2 Satchels (+1 VP) and free Deploy come only with US Armor Support."""
    refund_cancelled_armor_vp: bool = False
    """NO-C1.73: when German armor cancels the US option, give the US its 4 VP back."""
    ground_support_after_cancel: bool = True
    """NO-C1.75: a cancelled US Armor Support counts as not available (Ground Support)."""


def _sides(source: dict[Faction, list[str]]) -> Callable[[], dict[Faction, list[str]]]:
    return lambda: {side: list(names) for side, names in source.items()}


def _armor() -> dict[Faction, Pool]:
    return {
        US: Pool.full(msg("US Armor Support Points"), US_ARMOR),
        GERMAN: Pool.full(msg("German Armor Support Point"), GERMAN_ARMOR),
    }


@dataclass
class NormandyState(CampaignState):
    SIDES: ClassVar[dict[Faction, Msg]] = {US: msg("Americans"), GERMAN: msg("Germans")}

    position: str = "A1"
    played: list[str] = field(default_factory=list)
    wins: dict[Faction, int] = field(default_factory=lambda: {US: 0, GERMAN: 0})
    rank: dict[Faction, str] = field(default_factory=lambda: {US: "Sgt", GERMAN: "Sgt"})
    divisional: dict[Faction, list[str]] = field(default_factory=_sides(DIVISIONAL))
    regimental: dict[Faction, list[str]] = field(default_factory=_sides(REGIMENTAL))
    exhausted: dict[Faction, list[str]] = field(default_factory=_sides({US: [], GERMAN: []}))
    armor: dict[Faction, Pool] = field(default_factory=_armor)
    artillery: Pool = field(
        default_factory=lambda: Pool.full(msg("German Artillery Support Points"), GERMAN_ARTILLERY)
    )
    fortification: Pool = field(
        default_factory=lambda: Pool.full(msg("German Fortification Points"), GERMAN_FORTIFICATION)
    )
    air_superiority: str = "recall"
    rest_day_done: bool = False
    options: NormandyOptions = field(default_factory=NormandyOptions)

    def command_leader(self, side: Faction) -> str:
        return f"{self.rank[side]} {COMMAND[side]}"


def new_campaign(options: NormandyOptions | None = None) -> NormandyState:
    """Battle 1 at A1, both Line, Sgt Command Section leaders, the NO-C1 pools and assets."""
    return NormandyState(options=options or NormandyOptions())


def next_position(position: str, played: list[str], us_won: bool) -> str:
    """NO-C3.3: a US win goes to the next A-position not yet played; a loss to G1 (A4 stays)."""
    if us_won:
        return next(p for p in ADVANCE if p not in played)
    return "A4" if position == "A4" else "G1"


# ---------------------------------------------------------------------------------------------
# NO-C1: before a battle


def prepare_forces(
    state: NormandyState,
    tables: CampaignTables,
    dice: DiceSource | None,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[NormandyState]:
    """NO-C1.11–NO-C1.56: map, orientation, Command Sections, sealed purchase, VP cost.

    Choices: `purchase.allies` / `purchase.axis` (lists of Section Leader names).
    """
    return run(
        state,
        lambda s, ctx: _forces(s, ctx, tables),
        phase=Phase.FORCES,
        choices=choices,
        dice=dice,
    )


def _forces(state: NormandyState, ctx: Session, tables: CampaignTables) -> None:
    record = BattleRecord(state.battle, state.position, MAPS[state.position])
    ctx.step(
        "NO-C1.11",
        msg("battle %(n)s at Campaign Position %(cp)s: map", n=state.battle, cp=state.position),
        record.map,
    )
    if state.position in ADVANCE and state.position not in state.played:
        state.played.append(state.position)
    roll = ctx.roll("orientation", purpose=msg("American friendly edge"), rule="NO-C1.12")
    record.orientation = roll.die("white")
    ctx.step(
        "NO-C1.12",
        msg(
            "American friendly edge: %(edge)s (compass direction of the white die)",
            edge=COMPASS_EDGE[record.orientation],
        ),
        record.orientation,
        roll,
    )
    ctx.step("NO-C1.2", msg("year 1944; sides fixed for the campaign"))
    for side in ORDER:
        quality = state.quality[side]
        ctx.step(
            "NO-C1.3",
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
            "NO-C1.54",
            msg(
                "%(side)s: Command Section led by %(leader)s: %(text)s",
                side=ctx.name(side),
                leader=state.command_leader(side),
                text=text,
            ),
        )
    offers = {side: [n for n in state.regimental[side] if n != COMMAND[side]] for side in ORDER}
    bought = sealed_purchase(
        ctx,
        offers,
        tables,
        rule="NO-C1.55",
        cost_rule="NO-C1.56",
        noun=msg("Sections"),
        order=ORDER,
    )
    for side in ORDER:
        state.regimental[side] = [COMMAND[side], *offers[side]]
        record.fielded[side] = [COMMAND[side], *bought[side]]
        cost = sum(tables.value(s, "cost", rule="NO-C1.56") for s in bought[side])
        pay_vp(ctx, record, side, cost, reason=msg("the Sections bought"), rule="NO-C1.56")
    ctx.step("NO-C1.6", msg("RS.6 is not used: leaders come with the Sections"))
    state.battles.append(record)
    state.phase = Phase.SUPPORT


def prepare_support(
    state: NormandyState,
    tables: CampaignTables,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[NormandyState]:
    """NO-C1.71–1.75 support, RS.8 postures, RS.9, NO-C1.9 German Defense in Depth, totals.

    Choices: `rs7.vp_axis`, `us_armor` (bool), `german_armor` (bool), `german_artillery`
    (0–3), `rs9.cost`, `fortify.axis` (whole numbers).
    """
    return run(
        state,
        lambda s, ctx: _support(s, ctx, tables),
        phase=Phase.SUPPORT,
        choices=choices,
        dice=None,
    )


def _support(state: NormandyState, ctx: Session, tables: CampaignTables) -> None:
    record = state.current
    standard_support(ctx, record)
    us_armor = _us_armor(state, ctx, record)
    german_armor = _german_armor(state, ctx, record, us_armor)
    if german_armor:
        ctx.step(
            "NO-C1.74",
            msg("German Armor Support taken: no German Artillery Support this battle"),
        )
    else:
        _german_artillery(state, ctx, record)
    ground_support = not us_armor or (german_armor and state.options.ground_support_after_cancel)
    state.air_superiority = "ground_support" if ground_support else "recall"
    ctx.step(
        "NO-C1.75",
        msg(
            "Allied Air Superiority marker: %(side)s",
            side=msg("Ground Support") if ground_support else msg("Recall"),
        ),
        state.air_superiority,
    )
    set_postures(ctx, record)
    defender_fortifications(ctx, record)
    _defense_in_depth(state, ctx, record)
    force_totals(ctx, tables, record, rule="NO-C1.51")
    state.phase = Phase.BATTLE


def _us_armor(state: NormandyState, ctx: Session, record: BattleRecord) -> bool:
    """NO-C1.72: one point a battle: 75 mm Radio (VP 4), 2 Satchels (VP 1), a free Deploy."""
    pool = state.armor[US]
    used = pool.balance > 0 and ctx.choose(
        "us_armor",
        rule="NO-C1.72",
        prompt=msg(
            "%(side)s: use an Armor Support Point (%(left)s left)?",
            side=ctx.name(US),
            left=pool.balance,
        ),
        options=(True, False),
        chooser=US,
    )
    record.extras["us_armor"] = used
    if used:
        pool.change(-1, reason=msg("American Armor Support"), rule="NO-C1.72", battle=state.battle)
        ctx.step("NO-C1.72", msg("American Armor Support: 75 mm Radio (FP 8)"), pool.balance)
        pay_vp(ctx, record, US, ARMOR_VP, reason=msg("the 75 mm Radio"), rule="NO-C1.72")
    else:
        ctx.step("NO-C1.72", msg("no American Armor Support this battle"), pool.balance)
    if used or not state.options.satchels_with_armor:
        record.extras["satchels"] = 2
        ctx.step(
            "NO-C1.72",
            msg("the Americans receive 2 Satchel Charges and may take one free Deploy [E52]"),
        )
        pay_vp(ctx, record, US, SATCHEL_VP, reason=msg("2 Satchel Charges"), rule="NO-C1.72")
    return used


def _german_armor(state: NormandyState, ctx: Session, record: BattleRecord, us_armor: bool) -> bool:
    """NO-C1.73: the single point: 105 mm Radio (VP 4); it cancels US Armor Support."""
    pool = state.armor[GERMAN]
    used = pool.balance > 0 and ctx.choose(
        "german_armor",
        rule="NO-C1.73",
        prompt=msg(
            "%(side)s: use the Armor Support Point (no Artillery Support this battle if so)?",
            side=ctx.name(GERMAN),
        ),
        options=(True, False),
        chooser=GERMAN,
    )
    record.extras["german_armor"] = used
    if not used:
        ctx.step("NO-C1.73", msg("no German Armor Support this battle"), pool.balance)
        return False
    pool.change(-1, reason=msg("German Armor Support"), rule="NO-C1.73", battle=state.battle)
    ctx.step("NO-C1.73", msg("German Armor Support: 105 mm Radio (FP 10)"), pool.balance)
    pay_vp(ctx, record, GERMAN, ARMOR_VP, reason=msg("the 105 mm Radio"), rule="NO-C1.73")
    if us_armor:
        record.extras["us_armor"] = "cancelled"
        ctx.step(
            "NO-C1.73",
            msg(
                "American Armor Support cancelled: the American Radio is removed, its point is lost"
            ),
        )
        if state.options.refund_cancelled_armor_vp:
            pay_vp(
                ctx,
                record,
                GERMAN,
                ARMOR_VP,
                reason=msg("refunding the American Radio"),
                rule="NO-C1.73",
            )
    return True


def _german_artillery(state: NormandyState, ctx: Session, record: BattleRecord) -> None:
    """NO-C1.74: 1–3 points: 150 mm Radio (VP 5 flat) and one Pre-Registered Fire per point."""
    pool = state.artillery
    spent = ctx.enter_int(
        "german_artillery",
        rule="NO-C1.74",
        prompt=msg(
            "%(side)s: Artillery Support Points to spend (%(left)s left)",
            side=ctx.name(GERMAN),
            left=pool.balance,
        ),
        chooser=GERMAN,
        low=0,
        high=min(ARTILLERY_PER_BATTLE, pool.balance),
    )
    record.extras["pre_registered_fire"] = spent
    if not spent:
        ctx.step("NO-C1.74", msg("no German Artillery Support this battle"), pool.balance)
        return
    pool.change(
        -spent, reason=msg("German Artillery Support"), rule="NO-C1.74", battle=state.battle
    )
    ctx.step(
        "NO-C1.74",
        nmsg(
            "150 mm Radio (FP 12) and %(n)s Pre-Registered Fire marker",
            "150 mm Radio (FP 12) and %(n)s Pre-Registered Fire markers",
            spent,
        ),
        pool.balance,
    )
    pay_vp(ctx, record, GERMAN, ARTILLERY_VP, reason=msg("the 150 mm Radio"), rule="NO-C1.74")


def _defense_in_depth(state: NormandyState, ctx: Session, record: BattleRecord) -> None:
    """NO-C1.9: German Fortification OBs paid from the 7 points and from German VP."""
    pool = state.fortification
    spent = ctx.enter_int(
        "fortify.axis",
        rule="NO-C1.9",
        prompt=msg(
            "%(side)s: Fortification Points spent on Fortification OBs (also paid in VP)",
            side=ctx.name(GERMAN),
        ),
        chooser=GERMAN,
        low=0,
        high=pool.balance,
    )
    if not spent:
        ctx.step("NO-C1.9", msg("no German Defense in Depth this battle"), pool.balance)
        return
    pool.change(-spent, reason=msg("German Defense in Depth"), rule="NO-C1.9", battle=state.battle)
    ctx.step(
        "NO-C1.9",
        nmsg(
            "%(side)s spend %(n)s Fortification Point",
            "%(side)s spend %(n)s Fortification Points",
            spent,
            side=ctx.name(GERMAN),
        ),
        pool.balance,
    )
    pay_vp(ctx, record, GERMAN, spent, reason=msg("Fortification OBs"), rule="NO-C1.9")


# ---------------------------------------------------------------------------------------------
# NO-C3: after a battle


def conclude_battle(
    state: NormandyState,
    winner: Faction,
    tables: CampaignTables,
    dice: DiceSource | None,
    choices: Mapping[str, Any] | None = None,
) -> Outcome[NormandyState]:
    """NO-C3.1–NO-C3.8 in order.

    Choices: `quality`, `rest_day.allies` / `rest_day.axis` (leaders back to Divisional),
    `divisional.<side>` (the winner's kept result).
    """
    return run(
        state,
        lambda s, ctx: _conclude(s, ctx, winner, tables),
        phase=Phase.BATTLE,
        choices=choices,
        dice=dice,
    )


def _conclude(state: NormandyState, ctx: Session, winner: Faction, tables: CampaignTables) -> None:
    record = state.current
    record.winner = winner
    state.wins[winner] += 1
    ctx.step(
        "NO-C3.1",
        msg(
            "the %(side)s won battle %(n)s at %(cp)s; wins",
            side=ctx.name(winner),
            n=state.battle,
            cp=state.position,
        ),
        state.wins[winner],
    )
    if state.wins[winner] == WINS_NEEDED:
        state.winner, state.victory, state.phase = winner, "four_wins", Phase.ENDED
        ctx.step(
            "NO-C3.1",
            msg("the %(side)s win the campaign with four battles won", side=ctx.name(winner)),
            "four_wins",
        )
        return
    for side in ORDER:
        sections = record.fielded[side][1:]
        state.exhausted[side].extend(sections)
        ctx.step(
            "NO-C3.2",
            msg(
                "%(side)s: Command Section leader back to the Regimental Reserve; exhausted",
                side=ctx.name(side),
            ),
            sections,
        )
    state.position = next_position(state.position, state.played, winner is US)
    ctx.step("NO-C3.3", msg("next Campaign Position"), state.position)
    state.rank[winner] = RANKS[RANKS.index(state.rank[winner]) + 1]
    ctx.step(
        "NO-C3.4",
        msg("%(side)s: Command Section leader promoted", side=ctx.name(winner)),
        state.command_leader(winner),
    )
    adjust_quality(ctx, state.quality, winner, rule="NO-C3.5")
    if state.battle == REST_DAY_AFTER and not state.rest_day_done:
        _rest_day(state, ctx, tables)
    divisional_requests(
        ctx,
        tables,
        winner,
        available=lambda side, leader: leader in state.divisional[side],
        grant=lambda side, leader: _move(state.divisional[side], state.regimental[side], [leader]),
        rule="NO-C3.7",
    )
    state.battle += 1
    state.air_superiority = "recall"
    ctx.step(
        "NO-C3.8",
        msg("VP marker to 0, Air Superiority to Recall; battle %(n)s from NO-C1.1", n=state.battle),
    )
    state.phase = Phase.FORCES


def _move(source: list[str], target: list[str], names: list[str]) -> None:
    for name in names:
        source.remove(name)
        target.append(name)


def _rest_day(state: NormandyState, ctx: Session, tables: CampaignTables) -> None:
    """NO-C3.6 (once, after three battles): exhausted leaders back to Divisional Resources."""
    back = ctx.choose_some(
        "rest_day.allies",
        rule="NO-C3.6",
        prompt=msg(
            "%(side)s: move any or all exhausted Section Leaders back to Divisional Resources",
            side=ctx.name(US),
        ),
        options=state.exhausted[US],
        chooser=US,
    )
    _move(state.exhausted[US], state.divisional[US], back)
    ctx.step("NO-C3.6", msg("American leaders back to Divisional Resources Available"), back)
    named = []
    for i in range(REST_DAY_ROLLS):
        roll = ctx.roll(f"rest_day.{i + 1}", purpose=msg("German rest-day roll"), rule="NO-C3.6")
        result = tables.divisional_result(GERMAN, roll.value, rule="NO-C3.6")
        ctx.step(
            "NO-C3.6",
            msg(
                "%(side)s: Divisional Reserve roll %(roll)s", side=ctx.name(GERMAN), roll=roll.value
            ),
            result,
            roll,
        )
        named.append(result)
    matched = [n for n in dict.fromkeys(named) if n in state.exhausted[GERMAN]]
    back = ctx.choose_some(
        "rest_day.axis",
        rule="NO-C3.6",
        prompt=msg(
            "%(side)s: move these exhausted leaders back to Divisional Resources",
            side=ctx.name(GERMAN),
        ),
        options=matched,
        chooser=GERMAN,
    )
    _move(state.exhausted[GERMAN], state.divisional[GERMAN], back)
    ctx.step("NO-C3.6", msg("German leaders back to Divisional Resources Available"), back)
    state.rest_day_done = True

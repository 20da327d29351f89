"""The actions of an activated soldier (§4.3.2, §4.3.3, §5, §6, §8.3.2): `act` checks one
action against the mandatory order, the PA budget and the per-turn limits.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.data import weapon as nation_weapon
from rules.parabellum.ledger import (
    ACTION_COSTS,
    ACTION_RULES,
    ASSAULT_CM,
    ATTACKS,
    GRENADE_RANGE_CM,
    QUICK_RETURN_RULES,
    Activation,
    ActivationOptions,
    SideTurn,
    SoldierTurn,
    Step,
    name_of,
)
from rules.parabellum.movement import (
    CAUTIOUS_OR_CRAWL_PER_TURN,
    MOVES,
    Terrain,
    movement_cap,
)
from rules.parabellum.orders import (
    INSPIRES_PER_ACTIVATION,
    LEADERS,
    ORDERS_PER_ACTIVATION,
    ORDERS_PER_TURN,
    check_inspire_target,
    check_order_target,
    is_political,
    order_kind,
)
from rules.parabellum.roster import soldier_weapon
from rules.parabellum.shooting import BOLT_AIM_RANGE_BONUS, shots_allowed
from rules.parabellum.squad import Roster, Soldier


@dataclass(frozen=True)
class _Ctx:
    """One `act` call's inputs."""

    side: SideTurn
    roster: Roster
    a: Activation
    rec: SoldierTurn
    soldier: Soldier
    action: str
    ex: Explanation
    options: ActivationOptions


def act(
    side: SideTurn,
    roster: Roster,
    action: str,
    *,
    distance_cm: float | None = None,
    target: str | None = None,
    terrain: Terrain = "open",
    started_in_rough: bool = False,
    started_touching_obstacle: bool = False,
    crosses_obstacle: bool = False,
    target_distance_cm: float | None = None,
    target_in_los: bool = True,
    target_suppressed: bool = False,
    team_with: str | None = None,
    options: ActivationOptions | None = None,
) -> Step:
    """One action of the active soldier, checked against the order, PA and limits of §4.3.2.

    `target`: the friend ordered, inspired or tended, or the enemy attacked (then
    `target_distance_cm`, `target_in_los`, `target_suppressed` describe it). `team_with`: the
    MG teammate in base contact, who returns to action or is inspired with the soldier (§8.1.3).
    """
    a = side.active
    if a is None:
        raise RuleError(msg("activate a soldier first"), rule="4.3.2")
    if action not in ACTION_COSTS:
        raise RuleError(msg("unknown action %(action)s", action=str(action)), rule="4.3.2")
    rec = side.record(a.soldier_id)
    ctx = _Ctx(
        side,
        roster,
        a,
        rec,
        roster.soldier(a.soldier_id),
        action,
        Explanation(),
        options or ActivationOptions(),
    )
    if (
        a.via == "anticipation"
        and action != "crawl"
        and not (action == "shoot" and ctx.options.motti_in_anticipation)
    ):
        raise RuleError(msg("an anticipation is a crawl and nothing else"), rule="7.4")
    if rec.suppressed and action != "return_to_action":
        raise RuleError(
            msg("%(name)s is suppressed: return to action first", name=name_of(a.soldier_id)),
            rule="6.5",
        )
    if action == "return_to_action":
        return _return(ctx, team_with)
    if action == "covering_fire":
        return _covering(ctx)
    if action in MOVES:
        return _move(
            ctx, distance_cm, terrain, started_in_rough, started_touching_obstacle, crosses_obstacle
        )
    if action == "aim":
        return _aim(ctx)
    if action in ATTACKS:
        return _attack(ctx, target_distance_cm, target_in_los, target_suppressed)
    if action == "inspire":
        return _inspire(ctx, target, target_distance_cm, target_in_los, team_with)
    if action == "order":
        return _order(ctx, target, target_distance_cm, target_in_los)
    return _tend(ctx, target)


def _pay(ctx: _Ctx, cost: int, rule: str = "4.3.2") -> int:
    if cost > ctx.a.pa_left:
        raise RuleError(
            msg("%(cost)s PA needed, %(left)s left", cost=cost, left=ctx.a.pa_left), rule="4.3.2"
        )
    ctx.ex.add(
        ACTION_RULES.get(ctx.action, rule),
        msg("%(action)s: PA cost", action=pbl.label(pbl.ACTIONS, ctx.action)),
        cost,
    )
    return cost


def _done(ctx: _Ctx, cost: int, side: SideTurn | None = None, **changes) -> Step:
    side = side or ctx.side
    active = dataclasses.replace(ctx.a, pa_left=ctx.a.pa_left - cost, **changes)
    return Step(dataclasses.replace(side, active=active), cost, ctx.ex)


def _teammate(ctx: _Ctx, of: Soldier, team_with: str | None) -> SoldierTurn | None:
    if team_with is None:
        return None
    mate = ctx.roster.soldier(team_with)
    if {of.role, mate.role} != {"mg_gunner", "mg_assistant"}:
        raise RuleError(msg("only the MG gunner and his assistant act as a team"), rule="8.1.3")
    return ctx.side.record(team_with)


def _return(ctx: _Ctx, team_with: str | None) -> Step:
    s = ctx.soldier
    if not ctx.rec.suppressed:
        raise RuleError(msg("%(name)s is not suppressed", name=name_of(s.id)), rule="6.5")
    quick = ctx.roster.type.special_rules & QUICK_RETURN_RULES
    if s.role in LEADERS or is_political(s) or quick:
        rule = (
            "8.1.1"
            if s.role == "officer"
            else "8.1.2"
            if s.role == "nco"
            else "8.3.3"
            if is_political(s)
            else "8.4.2"
        )
        cost = _pay(ctx, 1, rule)
    else:
        cost = _pay(ctx, ACTION_COSTS["return_to_action"], "6.5")
    side = ctx.side.with_record(dataclasses.replace(ctx.rec, suppressed=False))
    mate = _teammate(ctx, s, team_with)
    if mate is not None:
        side = side.with_record(dataclasses.replace(mate, suppressed=False))
        ctx.ex.add("8.1.3", msg("one activation returns both MG team members to action"))
    return _done(ctx, cost, side, returned=True)


def _covering(ctx: _Ctx) -> Step:
    a = ctx.a
    if a.covering_called:
        raise RuleError(msg("covering fire is called once per activation"), rule="6.2.10")
    if a.movement is not None or a.attack is not None or a.aimed:
        raise RuleError(msg("covering fire is called before the move and the attack"), rule="4.3.2")
    cost = _pay(ctx, ACTION_COSTS["covering_fire"], "6.2.10")
    ctx.ex.add("6.2.10", msg("friends within 20 cm, not suppressed, mark one enemy each"))
    return _done(ctx, cost, covering_called=True)


def _move(ctx: _Ctx, distance_cm, terrain, started_in_rough, started_touching, crosses) -> Step:
    a, rec, move = ctx.a, ctx.rec, ctx.action
    if a.attack is not None or a.aimed:
        raise RuleError(msg("the movement comes before aiming and attacking"), rule="4.3.2")
    if a.movement is not None:
        raise RuleError(msg("one movement action per activation"), rule="5 A")
    if move == "no_move":
        cost = _pay(ctx, 0)
        return _done(ctx, cost, movement=move)
    if rec.double_time:
        raise RuleError(msg("after a double-time move no other move this turn"), rule="5 B")
    if move == "double_time" and rec.cautious_or_crawl_moves:
        raise RuleError(msg("a double-time move is the only move of its turn"), rule="5 B")
    if rec.cautious_or_crawl_moves >= CAUTIOUS_OR_CRAWL_PER_TURN:
        raise RuleError(msg("two cautious or crawl moves per turn at most"), rule="5 B")
    if distance_cm is None or distance_cm < 0:
        raise RuleError(msg("give the distance moved"), rule="5")
    low, cap = movement_cap(
        move,
        terrain=terrain,
        all_terrain="all_terrain" in ctx.roster.type.special_rules,
        started_in_rough=started_in_rough,
        started_touching_obstacle=started_touching,
        crosses_obstacle=crosses,
        any_double_time_distance=ctx.options.any_double_time_distance,
        ex=ctx.ex,
    )
    if not low <= distance_cm <= cap:
        raise RuleError(
            msg(
                "%(move)s here: %(low)s to %(cap)s cm, not %(cm)s",
                move=pbl.label(pbl.ACTIONS, move),
                low=low,
                cap=cap,
                cm=distance_cm,
            ),
            rule="5",
        )
    cost = _pay(ctx, ACTION_COSTS[move], "5")
    rec = dataclasses.replace(
        rec,
        double_time=move == "double_time",
        cautious_or_crawl_moves=rec.cautious_or_crawl_moves + (move != "double_time"),
        distance_cm=rec.distance_cm + distance_cm,
    )
    ctx.ex.add("5 B", msg("moved this turn (cm)"), rec.distance_cm)
    return _done(ctx, cost, ctx.side.with_record(rec), movement=move, distance_cm=distance_cm)


def _aim(ctx: _Ctx) -> Step:
    a = ctx.a
    if a.attack is not None or a.aimed:
        raise RuleError(msg("aim once, before the shot"), rule="6.2.6")
    w = soldier_weapon(ctx.roster, ctx.soldier)
    if not w.has("aim"):
        raise RuleError(msg("%(model)s has no Aim rule", model=w.model), rule="6.2.6")
    cost = _pay(ctx, ACTION_COSTS["aim"], "6.2.6")
    return _done(ctx, cost, movement=a.movement or "no_move", aimed=True)


def _carried(ctx: _Ctx, rule_key: str):
    s, nation = ctx.soldier, ctx.roster.type.nation
    for key in (s.weapon, *s.extras):
        w = nation_weapon(nation, key)
        if w.has(rule_key):
            return w
    raise RuleError(
        msg(
            "%(name)s carries no weapon to %(what)s",
            name=name_of(s.id),
            what=pbl.label(pbl.ACTIONS, ctx.action),
        ),
        rule=ACTION_RULES[ctx.action],
    )


def _attack(ctx: _Ctx, distance, in_los: bool, target_suppressed: bool) -> Step:
    a, action = ctx.a, ctx.action
    if a.tended:
        raise RuleError(msg("a medic who tends the wounded makes no attack"), rule="8.3.2")
    if a.attack is not None and not (action == "shoot" == a.attack):
        raise RuleError(msg("one kind of attack per activation"), rule="4.3.2 C")
    if a.aimed and action != "shoot":
        raise RuleError(msg("an aim is followed by a shot"), rule="6.2.6")
    if action != "grenade" and not in_los:
        rule = "6.3 B" if action == "assault" else "6.1"
        raise RuleError(msg("the target must be in line of sight"), rule=rule)
    movement = a.movement or "no_move"
    if action == "shoot":
        cost = _shot(ctx, movement, distance)
    elif action == "grenade":
        if distance is not None and distance > GRENADE_RANGE_CM:
            raise RuleError(msg("grenades reach 20 cm"), rule="6.4")
        cost = _pay(ctx, ACTION_COSTS["grenade"], "6.4")
    elif action == "assault":
        if movement not in ("cautious", "double_time"):
            raise RuleError(msg("an assault follows a cautious or double-time move"), rule="6.3")
        if distance is not None and distance > ASSAULT_CM:
            raise RuleError(msg("assault an enemy within 3 cm"), rule="6.3")
        cost = _pay(ctx, 0, "6.3")
        if target_suppressed:
            ctx.ex.add("6.3", msg("the defender is suppressed"))
    else:
        w = _carried(ctx, "grenade_projector" if action == "projector" else "grenade_launcher")
        if distance is not None and not w.min_range_cm <= distance <= w.range_cm:
            raise RuleError(
                msg(
                    "%(model)s reaches %(low)s to %(high)s cm",
                    model=w.model,
                    low=w.min_range_cm,
                    high=w.range_cm,
                ),
                rule=ACTION_RULES[action],
            )
        cost = _pay(ctx, ACTION_COSTS[action])
    shots = a.shots + (action == "shoot")
    return _done(ctx, cost, movement=movement, attack=action, shots=shots)


def _shot(ctx: _Ctx, movement: str, distance) -> int:
    a = ctx.a
    w = soldier_weapon(ctx.roster, ctx.soldier)
    motti = "motti" in ctx.roster.type.special_rules
    allowance = shots_allowed(
        w,
        "none" if movement == "no_move" else movement,
        aimed=a.aimed,
        targets_within_cm=distance,
        motti=motti,
    )
    if movement != "crawl" and a.pa_left < ACTION_COSTS["shoot"]:
        _pay(ctx, ACTION_COSTS["shoot"])
    if a.shots >= allowance.max_shots:
        raise RuleError(
            msg("%(model)s: %(n)s shots this activation", model=w.model, n=allowance.max_shots),
            rule="4.3.2" if movement == "crawl" and not motti else "6.6",
        )
    reach = w.range_cm + (BOLT_AIM_RANGE_BONUS if a.aimed and w.has("bolt") else 0)
    if distance is not None and distance > reach:
        raise RuleError(
            msg("target beyond the %(reach)s cm effective range", reach=reach), rule="6.2.1"
        )
    if movement == "crawl":
        ctx.ex.add("10 FINLANDIA", msg("MOTTI: a rifle shot after the crawl, no PA"), 0)
        return 0
    return _pay(ctx, ACTION_COSTS["shoot"], "6.1")


def _friend(ctx: _Ctx, target: str | None) -> tuple[Soldier, SoldierTurn]:
    if target is None:
        raise RuleError(msg("choose the soldier"), rule=ACTION_RULES.get(ctx.action, "4.3.3"))
    return ctx.roster.soldier(target), ctx.side.record(target)


def _inspire(ctx: _Ctx, target, distance, in_los: bool, team_with: str | None) -> Step:
    if ctx.a.inspires >= INSPIRES_PER_ACTIVATION:
        raise RuleError(msg("three inspire courage actions per activation at most"), rule="4.3.3")
    soldier, rec = _friend(ctx, target)
    if rec.out:
        raise RuleError(
            msg("%(name)s is out of the battle", name=name_of(soldier.id)), rule="4.3.3"
        )
    check_inspire_target(
        ctx.soldier,
        soldier,
        suppressed=rec.suppressed,
        distance_cm=distance,
        in_los=in_los,
        ex=ctx.ex,
    )
    cost = _pay(ctx, ACTION_COSTS["inspire"], "4.3.3")
    side = ctx.side.with_record(dataclasses.replace(rec, suppressed=False))
    mate = _teammate(ctx, soldier, team_with)
    if mate is not None:
        side = side.with_record(dataclasses.replace(mate, suppressed=False))
        ctx.ex.add("8.1.3", msg("one inspire courage returns both MG team members to action"))
    return _done(ctx, cost, side, inspires=ctx.a.inspires + 1)


def _order(ctx: _Ctx, target, distance, in_los: bool) -> Step:
    side = ctx.side
    if len(ctx.a.orders_given) >= ORDERS_PER_ACTIVATION:
        raise RuleError(msg("three orders per activation at most"), rule="4.3.3 B")
    if side.orders_given >= ORDERS_PER_TURN:
        raise RuleError(msg("three orders per turn at most"), rule="4.3.3 C")
    kind = order_kind(
        ctx.soldier,
        independence="independence" in ctx.roster.type.special_rules,
        independence_used=side.independence_used,
        political_used=side.political_used,
        ex=ctx.ex,
    )
    soldier, rec = _friend(ctx, target)
    if rec.out or rec.rests:
        raise RuleError(
            msg("%(name)s cannot be activated this turn", name=name_of(soldier.id)), rule="8.3.2"
        )
    check_order_target(
        ctx.soldier,
        soldier,
        kind,
        suppressed=rec.suppressed,
        order_received=rec.order_received,
        activations=rec.activations,
        distance_cm=distance,
        in_los=in_los,
        ex=ctx.ex,
    )
    cost = _pay(ctx, ACTION_COSTS["order"], "4.3.3")
    side = dataclasses.replace(
        side.with_record(dataclasses.replace(rec, order_received=True)),
        orders_given=side.orders_given + 1,
        political_used=side.political_used or kind == "political",
        independence_used=side.independence_used or kind == "independence",
    )
    ctx.ex.add("4.3.3 C", msg("orders given this turn"), side.orders_given)
    return _done(ctx, cost, side, orders_given=(*ctx.a.orders_given, soldier.id))


def _tend(ctx: _Ctx, target) -> Step:
    if ctx.soldier.specialist != "medic":
        raise RuleError(msg("only the medic tends the wounded"), rule="8.3.2")
    if ctx.a.attack is not None:
        raise RuleError(msg("a medic who tends the wounded makes no attack"), rule="8.3.2")
    if ctx.side.tended:
        raise RuleError(msg("the medic tends one soldier per turn"), rule="8.3.2")
    soldier, rec = _friend(ctx, target)
    if not rec.out:
        raise RuleError(msg("%(name)s is not downed", name=name_of(soldier.id)), rule="8.3.2")
    cost = _pay(ctx, 0, "8.3.2")
    ctx.ex.add("8.3.2", msg("roll 3D6 for the downed soldier: 11+ stands up suppressed"))
    return _done(ctx, cost, dataclasses.replace(ctx.side, tended=True), tended=True)

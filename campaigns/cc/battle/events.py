"""Procedures for the Events and the Sniper! check that change units [E42–E77, 1.9.1.3,
PA-E55]: one unit changed (Battle Harden, Interdiction, KIA, Medic …), several units at once
(Cower, Air Support), the Commissar roll, and Élan on the Surrender marker.

Tracked with every unit, the receiver picks a registered unit and the registry changes;
tracked lightly, the players name the counter, whose it is and whether it is broken, and
only the tracks change: an elimination's VP and Casualty space, the Surrender marker. The
players read the map (Cover, Command radii, MG range, the random hex); the rules check the
rest. Eliminations by an Event read the battle's reading of E42 on VP after Sudden Death.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from campaigns.cc.battle import melee_cards
from campaigns.cc.battle.common import UNIT_ID, side_choices
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import actions, clock, events, victory
from rules.cc.battle.events import EventResult
from rules.cc.battle.registered import label
from rules.cc.battle.state import (
    BattleMode,
    BattleState,
    Place,
    RegisteredUnit,
    UnitStatus,
    get_unit,
    set_unit_status,
)
from rules.cc.battle.units import SOLDIERS, Unit, UnitKind, apply_change
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import Msg, msg

Targets = dict[str, tuple[Unit, str | None]]
"""Each unit an Event may touch, by the name the rules know it by: the unit and its registry
id (None when tracked lightly)."""

UNIT = replace(UNIT_ID, name="unit")
NAME = Field("name", msg("Which counter (tracks only)"), "text", required=False, max_length=80)
OWNER = Field(
    "owner",
    msg("Whose counter it is (tracks only)"),
    "choice",
    required=False,
    choices=lambda context: (("", msg("— the receiver's —")), *side_choices(context)),
)
BROKEN = Field("broken", msg("It is broken now (tracks only)"), "bool", default=False)
VP_VALUE = Field(
    "vp_value",
    msg("Its VP value, if it is eliminated"),
    low=0,
    high=20,
    required=False,
    help=msg("From the counter or the player aid's unit VP table."),
)


def as_unit(unit: RegisteredUnit) -> Unit:
    """A registered counter as the Event rules describe a unit."""
    return Unit(
        name=label(unit),
        owner=unit.side,
        kind=unit.kind,
        broken=unit.status is UnitStatus.BROKEN,
        suppressed=unit.suppressed,
        veteran=unit.veteran,
        eliminated=unit.eliminated or unit.exited or unit.place is not Place.MAP,
        weapon=unit.weapons[0] if unit.weapons else "",
    )


def registered(state: BattleState) -> Targets:
    """Every registered unit (mode "full")."""
    return {label(u): (as_unit(u), u.id) for u in state.units.values() if u.kind in SOLDIERS}


def named(inputs: Mapping[str, Any], context: Context, name: str, **flags) -> Unit:
    """A counter the players name (mode "light"): whose, and broken or not."""
    owner = Faction(inputs.get("owner") or context.side)
    return Unit(**{"name": name, "owner": owner, "broken": bool(inputs.get("broken")), **flags})


def chosen_unit(inputs: Mapping[str, Any], context: Context) -> tuple[Targets, str]:
    """The units the Event may touch and the one the receiver chose."""
    state = context.state
    if state.mode is BattleMode.FULL:
        if not inputs.get("unit"):
            raise RuleError(msg("choose the unit from the registry"), rule="4")
        return registered(state), label(get_unit(state, inputs["unit"]))
    name = (inputs.get("name") or "").strip()
    if not name:
        raise RuleError(msg("say which counter: what it says"), rule="4")
    return {name: (named(inputs, context, name), None)}, name


def apply_result(
    state: BattleState,
    result: EventResult,
    targets: Targets,
    vp_value: int | None,
    *,
    by_event: bool = True,
) -> tuple[BattleState, Explanation]:
    """Put an Event's unit changes on the state: the registry's markers and sides, and every
    elimination on the tracks (VP to the opponent, a Casualty space) [3.2.4, 7.1, E42]."""
    why = result.explanation
    readings = state.readings
    for change in result.changes:
        unit, unit_id = targets[change.unit]
        after = apply_change(unit, change.change, v19=readings.v19)
        targets[change.unit] = (after, unit_id)
        if after.eliminated and not unit.eliminated:
            state, gone = victory.eliminate_unit(
                state,
                side=unit.owner,
                vp_value=vp_value,
                unit_id=unit_id,
                name=None if unit_id else unit.name,
                hero=unit.kind is UnitKind.HERO,
                by_event=by_event,
                freeze_event_vp_after_sudden_death=readings.freeze_event_vp_after_sudden_death,
            )
            why.extend(gone)
        elif unit_id is not None:
            status = None
            if after.broken != unit.broken:
                status = UnitStatus.BROKEN if after.broken else UnitStatus.GOOD_ORDER
            state, marked = set_unit_status(
                state,
                unit_id=unit_id,
                status=status,
                suppressed=after.suppressed,
                veteran=after.veteran,
            )
            why.extend(marked)
    return state, why


def refuse_decision(run: Callable[[], EventResult]) -> EventResult:
    """Run a rule that may ask the receiver to choose: the form always says, so a question
    left is refused with its words."""
    try:
        return run()
    except DecisionRequired as ask:
        raise RuleError(ask.decision.prompt, rule=ask.decision.rule) from None


# ---------------------------------------------------------------------------------------------
# One unit


Rule = Callable[[Mapping[str, Any], Context, tuple[Unit, ...], str], EventResult]


def _pool(targets: Targets) -> tuple[Unit, ...]:
    return tuple(unit for unit, _id in targets.values())


def _only(chosen: str, inputs: Mapping[str, Any]) -> frozenset[str]:
    """The chosen unit, when the players say it meets the Event's condition on the map."""
    return frozenset({chosen} if inputs.get("qualifies") else ())


ONE_UNIT: dict[str, tuple[Msg, Rule]] = {
    "E44": (
        msg("Battle Harden: a Veteran marker"),
        lambda inputs, c, units, chosen: events.battle_harden(
            receiver=c.side, units=units, chosen=chosen
        ),
    ),
    "E60": (
        msg("Interdiction: suppress a unit in a hex with Cover below 1"),
        lambda inputs, c, units, chosen: events.interdiction(
            receiver=c.side,
            units=units,
            cover={chosen: inputs["cover"]} if inputs.get("cover") is not None else {},
            chosen=chosen,
        ),
    ),
    "E62": (
        msg("KIA: eliminate a broken unit"),
        lambda inputs, c, units, chosen: events.kia(receiver=c.side, units=units, chosen=chosen),
    ),
    "E64": (
        msg("Medic!: rally a broken unit"),
        lambda inputs, c, units, chosen: events.medic(receiver=c.side, units=units, chosen=chosen),
    ),
    "E66": (
        msg("Prisoners of War: eliminate an own broken unit next to the enemy"),
        lambda inputs, c, units, chosen: events.prisoners_of_war(
            receiver=c.side, units=units, near_enemy=_only(chosen, inputs), chosen=chosen
        ),
    ),
    "E72": (
        msg("Shell Shock: the unit nearest the random hex breaks"),
        lambda inputs, c, units, chosen: events.shell_shock(
            receiver=c.side, nearest=tuple(u for u in units if u.name == chosen), chosen=chosen
        ),
    ),
    "E75": (
        msg("Suppressing Fire: suppress an enemy unit in range of a working MG"),
        lambda inputs, c, units, chosen: events.suppressing_fire(
            receiver=c.side, units=units, in_working_mg_range=_only(chosen, inputs), chosen=chosen
        ),
    ),
    "PA-E55": (
        msg("Bushido: the Japanese player rallies a broken unit, Veteran"),
        lambda inputs, c, units, chosen: events.bushido(units=units, chosen=chosen),
    ),
    "1.9.1.3": (
        msg("Sniper!: break a unit in or next to the random hex"),
        lambda inputs, c, units, chosen: actions.sniper(
            roller=c.side,
            candidates=units,
            chosen=chosen,
            enemy_only=c.state.readings.sniper_enemy_only,
        ),
    ),
}


def _elan(context: Context) -> Done:
    change = clock.move_surrender_marker(context.state, side=context.side)
    space = change.state.surrender[context.side]
    return Done(
        change.state,
        change.explanation,
        msg(
            "Élan: the %(side)s Surrender marker moves to space %(n)s",
            side=context.state.sides[context.side],
            n=space,
        ),
        (msg("Surrender marker on space %(n)s", n=space),),
    )


def _event(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    key = inputs["event"]
    if key == "E54":
        return _elan(context)
    if key == "1.9.1.3" and not (inputs.get("unit") or (inputs.get("name") or "").strip()):
        return melee_cards.sniper_fails(context)  # ST-3.1: the Urban Sniper marker moves
    title, rule = ONE_UNIT[key]
    targets, chosen = chosen_unit(inputs, context)
    result = refuse_decision(lambda: rule(inputs, context, _pool(targets), chosen))
    state, why = apply_result(
        context.state, result, targets, inputs.get("vp_value"), by_event=key != "1.9.1.3"
    )
    shown = tuple(step.text for step in result.explanation.steps if step.rule == result.rule)
    return Done(state, why, msg("Event: %(what)s", what=title), shown[-1:])


EVENT_CHOICES = (
    *(
        (key, msg("%(title)s [%(rule)s]", title=title, rule=key))
        for key, (title, _r) in ONE_UNIT.items()
    ),
    ("E54", msg("Élan: the receiver's Surrender marker moves up a space [E54]")),
)

EVENT = Procedure(
    key="event",
    title=msg("An Event or a Sniper! on one unit"),
    rule="E42",
    fields=(
        Field("event", msg("Event"), "choice", choices=EVENT_CHOICES),
        UNIT,
        NAME,
        OWNER,
        BROKEN,
        Field(
            "qualifies",
            msg("It meets the Event's condition on the map"),
            "bool",
            default=False,
            help=msg(
                "Prisoners of War: next to an enemy unit. Suppressing Fire: in Range and LOS of a working MG."
            ),
        ),
        Field(
            "cover",
            msg("Cover of its hex (Interdiction)"),
            low=-10,
            high=10,
            required=False,
        ),
        VP_VALUE,
    ),
    run=_event,
    help=msg(
        "The receiver makes the choices; a broken unit that breaks again is eliminated and "
        "the opponent scores it."
    ),
)


# ---------------------------------------------------------------------------------------------
# Several units


def _lines(inputs: Mapping[str, Any], context: Context) -> tuple[Targets, dict[str, int]]:
    """The units typed one per line: a registry id, or (tracks only) "name" or, for a
    broken counter, "name; VP value"."""
    state, targets, values = context.state, {}, {}
    for n, line in enumerate((inputs.get("units") or "").splitlines(), start=1):
        parts = [p.strip() for p in line.split(";")]
        if not parts[0]:
            continue
        if state.mode is BattleMode.FULL:
            unit = get_unit(state, parts[0])
            if unit.kind not in SOLDIERS:
                raise RuleError(msg("%(name)s is not a unit", name=unit.name), rule="3")
            targets[label(unit)] = (as_unit(unit), unit.id)
            continue
        if len(parts) > 2 or (len(parts) == 2 and not parts[1].isdecimal()):
            raise RuleError(
                msg("line %(n)s: write “name” or, for a broken counter, “name; VP value”", n=n),
                rule="4",
            )
        targets[parts[0]] = (named(inputs, context, parts[0], broken=len(parts) == 2), None)
        if len(parts) == 2:
            values[parts[0]] = int(parts[1])
    if not targets:
        raise RuleError(msg("name at least one unit"), rule="E42")
    return targets, values


def _several(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    targets, values = _lines(inputs, context)
    units = _pool(targets)
    if inputs["event"] == "E51":
        title = msg("Cower")
        result = events.cower(
            receiver=context.side, units=units, outside_command=frozenset(targets)
        )
    else:
        title = msg("Air Support")
        result = events.air_support(units_in_hex=units, break_them=True)
    state, why = context.state, result.explanation
    for change in result.changes:
        one = EventResult(result.rule, (change,), explanation=Explanation())
        value = values.get(change.unit, inputs.get("vp_value"))
        state, more = apply_result(state, one, targets, value)
        why.extend(more)
    shown = tuple(s.text for s in result.explanation.steps if s.rule == result.rule)
    return Done(state, why, msg("Event: %(what)s", what=title), shown)


SEVERAL = Procedure(
    key="event_units",
    title=msg("An Event on several units (Cower, Air Support)"),
    rule="E42",
    fields=(
        Field(
            "event",
            msg("Event"),
            "choice",
            choices=(
                ("E51", msg("Cower: the receiver's Squads outside every Command radius [E51]")),
                ("E43", msg("Air Support: break every unit in the hex [E43]")),
            ),
        ),
        Field(
            "units",
            msg("The units, one per line"),
            "lines",
            max_length=2000,
            help=msg(
                "Their registry ids; tracked by the tracks only, what each counter says, "
                "and for a broken one “name; its VP value”."
            ),
        ),
        OWNER,
        VP_VALUE,
    ),
    run=_several,
    help=msg("Air Support may be declined: then do not record it."),
)


# ---------------------------------------------------------------------------------------------
# Commissar


def _commissar_unit(inputs: Mapping[str, Any], context: Context) -> tuple[Targets, str]:
    if context.state.mode is BattleMode.FULL:
        return chosen_unit(inputs, context)
    targets, chosen = chosen_unit({**inputs, "owner": context.side.value}, context)
    unit, _id = targets[chosen]
    return {chosen: (replace(unit, broken=True), None)}, chosen


def _commissar(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    targets, chosen = _commissar_unit(inputs, context)
    result = events.commissar(
        receiver=context.side,
        units=_pool(targets),
        morale=inputs["morale"],
        dice=dice,
        chosen=chosen,
    )
    rolled, words = result.explanation.rolls[0].value, result.explanation.steps[-1].text
    state, why = apply_result(context.state, result, targets, inputs.get("vp_value"))
    return Done(state, why, words, (msg("%(roll)s: %(what)s", roll=rolled, what=words),))


def _commissar_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    p = events.commissar_odds(morale=inputs["morale"])
    return [Odds(msg("rallied"), p), Odds(msg("eliminated"), 1 - p)]


COMMISSAR = Procedure(
    key="commissar",
    title=msg("Commissar"),
    rule="E50",
    fields=(
        UNIT,
        NAME,
        Field("morale", msg("Its current Morale"), low=1, high=20),
        VP_VALUE,
    ),
    run=_commissar,
    odds=_commissar_odds,
    rolls=1,
    help=msg(
        "The Russian player picks one of his broken units and rolls: at or below its Morale "
        "it rallies, above it is eliminated."
    ),
)

"""Procedures for the Events and Actions that bring a counter onto the map or swap one for
another [E52, E56, E58, E76, A36]: Hero, Field Promotion, Walking Wounded, Deploy and Light
Wounds.

Tracked with every unit, a new counter is put on the registry with an id made from its kind
(shown beside its name) and a replaced Squad goes back to the counter mix. Tracked lightly,
only the tracks change: Walking Wounded takes its unit off the Casualty track, Light Wounds
costs its player 1 VP. Where the counter goes (a friendly hex, a hex holding a broken unit,
the random hex) the players say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from campaigns.cc.battle.events import (
    NAME,
    UNIT,
    apply_result,
    as_unit,
    refuse_decision,
    registered,
)
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Procedure
from rules.cc.battle import actions, events, victory
from rules.cc.battle.events import EventResult
from rules.cc.battle.registered import label
from rules.cc.battle.state import (
    BattleMode,
    BattleState,
    Place,
    RegisteredUnit,
    UnitStatus,
    get_unit,
    with_units,
)
from rules.cc.battle.units import Unit, UnitKind
from rules.cc.campaign_steps import QUALITY_WORDS
from rules.cc.common import Faction, Quality
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg


def casualty_choices(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    """The units on both Casualty tracks, by side and space."""
    if context is None:
        return ()
    state = context.state
    return tuple(
        (
            f"{side.value}:{n}",
            msg(
                "%(side)s, space %(n)s: %(name)s",
                side=state.sides[side],
                n=n + 1,
                name=_casualty_name(state, key),
            ),
        )
        for side, track in state.casualties.items()
        for n, key in enumerate(track)
    )


def _casualty_name(state: BattleState, key: str) -> str:
    return label(state.units[key]) if key in state.units else key


def _new_ids(state: BattleState, base: str, count: int = 1) -> list[str]:
    """Registry ids not yet taken: `base` and the first free numbers."""
    found, n = [], 1
    while len(found) < count:
        if f"{base}{n}" not in state.units:
            found.append(f"{base}{n}")
        n += 1
    return found


def _text(inputs: Mapping[str, Any], key: str, refusal: Msg, rule: str) -> str:
    value = (inputs.get(key) or "").strip()
    if not value:
        raise RuleError(refusal, rule=rule)
    return value


def _quality(inputs: Mapping[str, Any], rule: str) -> Quality:
    if not inputs.get("quality"):
        raise RuleError(msg("give the quality of the OB's Teams"), rule=rule)
    return Quality(inputs["quality"])


def _picked(inputs: Mapping[str, Any], context: Context) -> RegisteredUnit | None:
    """The registered unit the form names, if any (mode "full")."""
    if context.state.mode is not BattleMode.FULL or not inputs.get("unit"):
        return None
    return get_unit(context.state, inputs["unit"])


def _own_squad(inputs: Mapping[str, Any], context: Context, rule: str) -> tuple[Unit, Any]:
    """The receiver's Squad: registered (full) or named (light)."""
    picked = _picked(inputs, context)
    if picked is not None:
        if picked.side is not context.side:
            raise RuleError(msg("%(unit)s is not one of your units", unit=label(picked)), rule=rule)
        return as_unit(picked), picked
    if context.state.mode is BattleMode.FULL:
        raise RuleError(msg("choose the unit from the registry"), rule="4")
    name = _text(inputs, "name", msg("say which counter: what it says"), "4")
    return Unit(name, context.side, UnitKind.SQUAD), None


def _register(state: BattleState, *units: RegisteredUnit) -> BattleState:
    return replace(state, units=with_units(state, *units))


def _hero(inputs: Mapping[str, Any], context: Context) -> tuple[BattleState, EventResult]:
    state, side = context.state, context.side
    hex = _text(inputs, "hex", msg("say the friendly hex where the Hero enters"), "E58")
    name = _text(inputs, "new_name", msg("say what the Hero counter says"), "E58")
    picked = _picked(inputs, context)
    if state.mode is BattleMode.FULL:
        targets = registered(state)
        friends = [replace(u, hex=hex) for u, _id in targets.values() if u.owner is side]
        on_map = any(
            u.kind is UnitKind.HERO and u.owner is side and not u.eliminated
            for u, _id in targets.values()
        )
    else:
        rally = (inputs.get("name") or "").strip()
        targets = {rally: (Unit(rally, side, broken=True), None)} if rally else {}
        friends, on_map = [Unit("", side, hex=hex)], False
    rallied = label(picked) if picked else (inputs.get("name") or "").strip() or None
    pool = (*friends, *(replace(u, hex=hex) for u, _id in targets.values() if u.name == rallied))
    result = refuse_decision(
        lambda: events.hero(
            receiver=side, units=pool, hero_name=name, hero_on_map=on_map, hex=hex, rally=rallied
        )
    )
    if result.placed and state.mode is BattleMode.FULL:
        new = RegisteredUnit(_new_ids(state, "hero")[0], side, "", UnitKind.HERO, name)
        state = _register(state, new)
        result.explanation.add("E58", msg("registered as %(unit)s", unit=label(new)), new.id)
    state, _why = apply_result(state, result, targets, None)
    return state, result


def _field_promotion(
    inputs: Mapping[str, Any], context: Context
) -> tuple[BattleState, EventResult]:
    state, side = context.state, context.side
    hex = (inputs.get("hex") or "").strip() or None
    name = _text(inputs, "new_name", msg("say what the Private counter says"), "E56")
    picked = _picked(inputs, context)
    if state.mode is BattleMode.FULL:
        if hex and picked is None:
            raise RuleError(msg("choose your broken unit in that hex"), rule="E56")
        pool = (replace(as_unit(picked), hex=hex),) if picked else ()
        on_map = any(
            u.side is side and u.name == name and u.kind is UnitKind.LEADER and u.place is Place.MAP
            for u in state.units.values()
        )
    else:
        pool, on_map = (
            (Unit((inputs.get("name") or "").strip(), side, broken=True, hex=hex),),
            False,
        )
    result = events.field_promotion(
        receiver=side, units=pool, private=name, private_on_map=on_map, hex=hex
    )
    if result.placed and state.mode is BattleMode.FULL:
        new = RegisteredUnit(_new_ids(state, "leader")[0], side, "", UnitKind.LEADER, name)
        state = _register(state, new)
        result.explanation.add("E56", msg("registered as %(unit)s", unit=label(new)), new.id)
    return state, result


def _walking_wounded(
    inputs: Mapping[str, Any], context: Context
) -> tuple[BattleState, EventResult]:
    state = context.state
    hex = _text(inputs, "hex", msg("say the hex where the unit returns"), "E76")
    side_value, _colon, index = (inputs.get("casualty") or "").partition(":")
    sides = {f.value: f for f in Faction}
    track = state.casualties[sides[side_value]] if side_value in sides else None
    if track is None or not index.isdecimal() or int(index) >= len(track):
        raise RuleError(msg("choose a unit on a Casualty track"), rule="E76")
    side, n = Faction(side_value), int(index)
    key = track[n]
    casualties = tuple(
        Unit(_casualty_name(state, k), s, eliminated=True)
        for s, keys in state.casualties.items()
        for k in keys
    )
    result = events.walking_wounded(
        receiver=context.side,
        casualties=casualties,
        hex=hex,
        chosen=_casualty_name(state, key),
    )
    left = (*track[:n], *track[n + 1 :])
    state = replace(state, casualties={**state.casualties, side: left})
    result.explanation.add(
        "4.2",
        msg(
            "it leaves the %(side)s Casualty track, which now holds %(n)s units; the VP "
            "scored for it stand",
            side=state.sides[side],
            n=len(left),
        ),
        len(left),
    )
    if key in state.units:
        back = replace(
            state.units[key],
            place=Place.MAP,
            status=UnitStatus.BROKEN,
            eliminated=False,
            suppressed=False,
            veteran=False,
            weapons=(),
            time_space=None,
        )
        state = _register(state, back)
    return state, result


def _deploy(inputs: Mapping[str, Any], context: Context) -> tuple[BattleState, EventResult]:
    state = context.state
    squad, picked = _own_squad(inputs, context, "E52")
    name = _text(inputs, "new_name", msg("say what the Team counters say"), "E52")
    ids = _new_ids(state, f"{picked.id}-", 2) if picked else ("", "")
    teams = tuple(f"{name} ({i})" if i else name for i in ids)
    to = 1 if inputs.get("markers_second") else 0
    result = actions.deploy(
        squad=squad,
        teams=teams,
        quality=_quality(inputs, "E52"),
        weapon_to=to,
        suppressed_to=to,
        veteran_to=to,
    )
    if picked:
        state = _register(state, replace(picked, place=Place.COUNTER_MIX, weapons=()))
        for team_id, placed in zip(ids, result.placed, strict=True):
            state = _register(state, _team(picked, team_id, name, placed.unit))
    return state, result


def _team(squad: RegisteredUnit, team_id: str, name: str, unit: Unit) -> RegisteredUnit:
    """A Team taking over (part of) a registered Squad's markers [E52.2, A36]."""
    return replace(
        squad,
        id=team_id,
        kind=UnitKind.TEAM,
        name=name,
        suppressed=unit.suppressed,
        veteran=unit.veteran,
        weapons=(unit.weapon,) if unit.weapon else (),
    )


def _light_wounds(inputs: Mapping[str, Any], context: Context) -> tuple[BattleState, EventResult]:
    state = context.state
    squad, picked = _own_squad(inputs, context, "A36")
    name = _text(inputs, "new_name", msg("say what the Team counter says"), "A36")
    team_id = _new_ids(state, f"{picked.id}-")[0] if picked else ""
    result = actions.light_wounds(
        squad=squad,
        team=f"{name} ({team_id})" if picked else name,
        quality=_quality(inputs, "A36"),
    )
    if picked:
        state = _register(state, replace(picked, place=Place.COUNTER_MIX, weapons=()))
        state = _register(state, _team(picked, team_id, name, result.placed[0].unit))
    state, paid = victory.light_wounds(state, side=context.side)
    result.explanation.extend(paid)
    return state, result


ARRIVALS = {
    "E58": (msg("Hero: the Hero enters, and may rally a broken unit in his hex"), _hero),
    "E56": (msg("Field Promotion: the Private enters by a broken unit"), _field_promotion),
    "E76": (msg("Walking Wounded: an eliminated unit returns broken"), _walking_wounded),
    "E52": (msg("Deploy: a Squad becomes two Teams"), _deploy),
    "A36": (msg("Light Wounds: a breaking Squad becomes a Team, −1 VP"), _light_wounds),
}


def _arrive(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    title, run = ARRIVALS[inputs["event"]]
    state, result = run(inputs, context)
    why = Explanation()
    why.extend(result.explanation)
    shown = tuple(s.text for s in result.explanation.steps if s.rule == result.rule)
    return Done(state, why, title, shown[:2])


ARRIVE = Procedure(
    key="event_arrival",
    title=msg("A counter enters or is replaced (Hero, Deploy, Light Wounds …)"),
    rule="E42",
    fields=(
        Field(
            "event",
            msg("Event or Action"),
            "choice",
            choices=tuple(
                (key, msg("%(title)s [%(rule)s]", title=title, rule=key))
                for key, (title, _run) in ARRIVALS.items()
            ),
        ),
        Field(
            "unit",
            UNIT.label,
            "choice",
            required=False,
            choices=UNIT.choices,
            help=msg(
                "Deploy, Light Wounds: your Squad. Hero: the broken unit he rallies. Field "
                "Promotion: your broken unit in the hex."
            ),
        ),
        NAME,
        Field(
            "casualty",
            msg("Unit returning from a Casualty track (Walking Wounded)"),
            "choice",
            required=False,
            choices=lambda context: (("", msg("—")), *casualty_choices(context)),
        ),
        Field(
            "new_name",
            msg("What the new counter says (Hero, Private, Team)"),
            "text",
            required=False,
            max_length=80,
        ),
        Field("hex", msg("Hex where it enters"), "text", required=False, max_length=10),
        Field(
            "quality",
            msg("Quality of the OB's Teams (Deploy, Light Wounds)"),
            "choice",
            required=False,
            choices=(("", msg("—")), *((q.value, QUALITY_WORDS[q]) for q in Quality)),
        ),
        Field(
            "markers_second",
            msg("Deploy: the Weapon and markers go to the second Team"),
            "bool",
            default=False,
        ),
    ),
    run=_arrive,
    help=msg("The receiver places the counter; stacking limits apply."),
)

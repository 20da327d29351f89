"""Procedures on the battle's tracks: Time and Sudden Death, VP from eliminations, exits and
Objectives, the Initiative card [6, 7, 9]."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.cc.battle.common import UNIT_ID, WHOSE, acting_side
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import clock, victory
from rules.cc.battle.state import OBJECTIVES, BattleState, VPSource
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.i18n import Msg, msg

VP_VALUE = Field(
    "vp_value",
    msg("VP value printed for it"),
    low=0,
    high=20,
    help=msg("From the counter or the player aid's unit VP table."),
)
NAME = Field("name", msg("Which counter"), "text", required=False, max_length=80)


def _time(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    advance = clock.advance_time(
        context.state,
        side=acting_side(inputs, context),
        dice=dice,
        time_trigger=inputs["cause"] in ("trigger", "both"),
        last_card=inputs["cause"] in ("last_card", "both"),
        smoke_hex=(inputs.get("smoke_hex") or "").strip() or None,
    )
    return Done(
        advance.state,
        advance.explanation,
        msg("Time advances to space %(n)s", n=advance.state.time),
        time_shown(advance),
    )


def time_shown(advance: clock.TimeAdvance) -> tuple[Msg, ...]:
    """A Time advance in a few words: the new space and any Sudden Death roll [6.1.2, 6.2.2]."""
    shown = [msg("Time marker on space %(n)s", n=advance.state.time)]
    if advance.sudden_death_roll is not None:
        shown.append(
            msg(
                "Sudden Death roll %(roll)s: the battle %(what)s",
                roll=advance.sudden_death_roll.value,
                what=msg("ends") if advance.ended else msg("goes on"),
            )
        )
    return tuple(shown)


def _time_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    return sudden_death_rows(context.state)


def sudden_death_rows(state: BattleState) -> list[Odds]:
    """The odds of the Sudden Death roll the next Time advance makes, if it makes one."""
    space = state.time + 1
    if space < state.sudden_death:
        return []
    p = clock.sudden_death_odds(space)
    return [
        Odds(msg("the battle ends on the Sudden Death roll (below %(n)s)", n=space), p),
        Odds(msg("the battle goes on"), 1 - p),
    ]


TIME = Procedure(
    key="time",
    title=msg("Advance the Time marker"),
    rule="6.1.2",
    fields=(
        WHOSE,
        Field(
            "cause",
            msg("Why"),
            "choice",
            choices=(
                ("trigger", msg("a Time! trigger")),
                ("last_card", msg("the last card of the deck")),
                ("both", msg("the last card showed Time!")),
            ),
            default="trigger",
        ),
        Field(
            "smoke_hex",
            msg("Smoke marker removed (its hex)"),
            "text",
            required=False,
            max_length=10,
            help=msg("Leave empty when no Smoke is on the map."),
        ),
    ),
    run=_time,
    odds=_time_odds,
    rolls=1,
    help=msg("Reinforcements on the new space enter; past the Sudden Death marker, roll."),
)


def _leaving(inputs: Mapping[str, Any], context: Context, leave, summary, **more) -> Done:
    """A unit leaves the map, eliminated or exited: the rules move the VP marker and the
    tracks; the log names it (its registered name when tracked fully)."""
    side = acting_side(inputs, context)
    unit_id = inputs.get("unit_id") or None
    change = leave(
        context.state,
        side=side,
        vp_value=inputs["vp_value"],
        unit_id=unit_id,
        name=inputs.get("name") or None,
        hero=inputs.get("hero", False),
        last_unit=inputs.get("last_unit", False),
        **more,
    )
    registered = context.state.units.get(unit_id) if unit_id else None
    unit = inputs.get("name") or (registered.name if registered else msg("a unit"))
    return Done(change.state, change.explanation, summary(context.state.sides[side], unit))


def _eliminate(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    return _leaving(
        inputs,
        context,
        victory.eliminate_unit,
        lambda side, unit: msg("%(side)s lose %(unit)s", side=side, unit=unit),
    )


LEAVING = (WHOSE, UNIT_ID, NAME, VP_VALUE)
ELIMINATE = Procedure(
    key="eliminate",
    title=msg("A unit is eliminated"),
    rule="7.1",
    fields=(
        *LEAVING,
        Field("hero", msg("It is a Hero (no VP, not a casualty)"), "bool", default=False),
        Field("last_unit", msg("It was the side's last unit on the map"), "bool", default=False),
    ),
    run=_eliminate,
)


def _exit(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    return _leaving(
        inputs,
        context,
        victory.exit_unit,
        lambda side, unit: msg("%(side)s exit %(unit)s", side=side, unit=unit),
        time_space=inputs["time_space"],
    )


EXIT = Procedure(
    key="exit",
    title=msg("A unit exits off the enemy edge"),
    rule="7.2.1",
    fields=(
        *LEAVING,
        Field("time_space", msg("Time-track space it waits on"), low=0, high=30),
        Field("hero", msg("It is a Hero"), "bool", default=False),
        Field("last_unit", msg("It was the side's last unit on the map"), "bool", default=False),
    ),
    run=_exit,
)


def _objective(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    side = acting_side(inputs, context)
    number = int(inputs["objective"])
    change = victory.set_objective_control(context.state, objective=number, side=side)
    return Done(
        change.state,
        change.explanation,
        msg(
            "%(side)s control Objective %(n)s",
            side=context.state.sides[side],
            n=number,
        ),
    )


OBJECTIVE = Procedure(
    key="objective",
    title=msg("An Objective changes hands"),
    rule="7.3.1",
    fields=(
        WHOSE,
        Field(
            "objective",
            msg("Objective"),
            "choice",
            choices=tuple((str(n), msg("Objective %(n)s", n=n)) for n in OBJECTIVES),
        ),
    ),
    run=_objective,
)


def _vp(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    side = acting_side(inputs, context)
    reason = (inputs.get("reason") or "").strip()
    change = victory.move_vp(
        context.state,
        side=side,
        vp=inputs["vp"],
        source=VPSource.OTHER,
        rule=(inputs.get("rule") or "").strip() or "7",
        reason=msg("%(why)s", why=reason) if reason else None,
    )
    return Done(
        change.state,
        change.explanation,
        msg("%(side)s gain %(vp)s VP", side=context.state.sides[side], vp=inputs["vp"]),
    )


VP = Procedure(
    key="vp",
    title=msg("Other VP award"),
    rule="7",
    fields=(
        WHOSE,
        Field("vp", msg("VP gained (negative: lost)"), low=-20, high=20),
        Field("reason", msg("Why (the card or rule)"), "text", max_length=120),
        Field("rule", msg("Rule"), "text", required=False, max_length=20),
    ),
    run=_vp,
    help=msg("For awards the other forms do not cover: No Quarter, an Event's VP …"),
)


def _only(context: Context, side: Faction, refusal, rule: str) -> None:
    """Refuse a player acting for a side that is not `side` (the card's holder, the player
    whose turn it is)."""
    if context.side is not side:
        raise RuleError(refusal(context.state.sides[side]), rule=rule)


def _initiative(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    _only(
        context,
        context.state.initiative,
        lambda side: msg(
            "only its holder gives the Initiative card: the %(side)s hold it", side=side
        ),
        "9.1",
    )
    change = clock.pass_initiative(context.state, reroll=False)
    return Done(
        change.state,
        change.explanation,
        msg(
            "The Initiative card goes to the %(side)s",
            side=change.state.sides[change.state.initiative],
        ),
    )


INITIATIVE = Procedure(
    key="initiative",
    title=msg("Give the Initiative card"),
    rule="9.1",
    fields=(),
    run=_initiative,
    help=msg("To cancel a roll with the card: undo the roll, give the card, then roll again."),
)


def _end_turn(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    _only(
        context,
        context.state.active,
        lambda side: msg("only the %(side)s, whose turn it is, end it", side=side),
        "5",
    )
    change = clock.end_turn(context.state)
    return Done(
        change.state,
        change.explanation,
        msg("Turn of the %(side)s", side=change.state.sides[change.state.active]),
    )


END_TURN = Procedure(
    key="end_turn",
    title=msg("End the turn"),
    rule="5",
    fields=(),
    run=_end_turn,
    help=msg("The other player takes the turn; once-a-turn orders are open again."),
)

"""Procedures that are one or two Fate-card rolls on values the players read off their
counters: Rally [O22.3], Rout [O23.2] and the Retreat [O23.3]."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.cc.battle.common import UNIT_ID
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.keywords import keyword
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import recover, rout, victory
from rules.cc.battle.rolls import TRIGGER_LABELS, Trigger
from rules.cc.battle.units import Unit, UnitKind
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.i18n import Msg, msg

RALLY_WORDS = {
    recover.RallyOutcome.RALLIED: msg("rallied"),
    recover.RallyOutcome.SUPPRESSED: msg("Suppressed, still broken"),
    recover.RallyOutcome.NO_EFFECT: msg("no effect"),
}
ROUT_WORDS = {
    rout.RoutOutcome.NO_EFFECT: msg("no effect"),
    rout.RoutOutcome.SUPPRESSED: msg("Suppressed"),
    rout.RoutOutcome.RETREAT: msg("retreats"),
}
KINDS = (
    (UnitKind.SQUAD.value, msg("Squad")),
    (UnitKind.TEAM.value, msg("Team")),
    (UnitKind.LEADER.value, msg("Leader")),
)

KIND_VALUES = [value for value, _words in KINDS]

UNIT = Field("unit", msg("Unit (as its counter says)"), "text", max_length=80)
KIND = Field(
    "kind", msg("Kind"), "choice", choices=KINDS, default=UnitKind.SQUAD.value, required=False
)
TRIGGER_VALUES = [t.value for t in (Trigger.NONE, Trigger.EVENT, Trigger.SNIPER, Trigger.TIME)]
TRIGGER = Field(
    "trigger",
    msg("Trigger on the card"),
    "choice",
    choices=tuple((t, TRIGGER_LABELS[Trigger(t)]) for t in TRIGGER_VALUES),
    default=Trigger.NONE.value,
    required=False,
    help=msg("With the site's dice no card is revealed: leave it at no trigger."),
)


def _unit(inputs: Mapping[str, Any], context: Context, *, broken: bool) -> Unit:
    return Unit(
        name=inputs["unit"].strip(),
        owner=context.side,
        kind=UnitKind(inputs.get("kind") or UnitKind.SQUAD),
        broken=broken,
    )


def _trigger(inputs: Mapping[str, Any]) -> Trigger:
    return Trigger(inputs.get("trigger") or Trigger.NONE)


def _odds(table: Mapping[Any, Any], words: Mapping[Any, Msg]) -> list[Odds]:
    return [Odds(words[k], p) for k, p in table.items()]


def _broken_units(inputs: Mapping[str, Any], context: Context) -> list[tuple[Unit, int]]:
    """The broken units typed one per line: "name; Morale" or "name; kind; Morale"."""
    units = []
    for n, line in enumerate(inputs["units"].splitlines(), start=1):
        parts = [p.strip() for p in line.split(";")]
        if not parts[0]:
            continue
        kind = keyword(parts[1]) if len(parts) == 3 else UnitKind.SQUAD.value
        if len(parts) not in (2, 3) or not parts[-1].isdecimal() or kind not in KIND_VALUES:
            raise RuleError(
                msg(
                    "line %(n)s: write “name; Morale” or “name; squad, team or leader; Morale”",
                    n=n,
                ),
                rule="O22.2",
            )
        units.append((Unit(parts[0], context.side, UnitKind(kind), broken=True), int(parts[-1])))
    return units


def _recover(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    broken = _broken_units(inputs, context)
    suppressed = [
        Unit(name.strip(), context.side, suppressed=True)
        for name in (inputs.get("suppressed") or "").splitlines()
        if name.strip()
    ]
    side = context.side.value
    result = recover.recover(
        player=context.side,
        units=(*(u for u, _m in broken), *suppressed),
        morale={u.name: m for u, m in broken},
        dice=dice,
        already_activated=bool({("recover", side), ("rout", side)} & context.this_turn),
    )
    shown = tuple(
        msg(
            "%(unit)s: %(roll)s, %(result)s",
            unit=r.unit,
            roll=r.roll.value,
            result=RALLY_WORDS[r.outcome],
        )
        for r in result.rallies
    )
    return Done(
        context.state,
        result.explanation,
        msg("Recover: %(results)s", results=list(shown) or msg("Suppressed markers removed")),
        shown,
    )


def _recover_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    return [
        Odds(
            msg("%(unit)s rallies", unit=unit.name),
            recover.rally_odds(morale=morale)[recover.RallyOutcome.RALLIED],
        )
        for unit, morale in _broken_units(inputs, context)
    ]


RECOVER = Procedure(
    key="recover",
    title=msg("Recover order"),
    rule="O22",
    fields=(
        Field(
            "units",
            msg("Broken units, one per line: name; Morale"),
            "lines",
            max_length=2000,
            help=msg(
                "Their current Morale (broken side, Cover, Leaders, markers). They roll Leaders "
                "first, then Squads, then Teams; below the Morale rallies, equal suppresses."
            ),
        ),
        Field(
            "suppressed",
            msg("Suppressed units in good order, one per line"),
            "lines",
            required=False,
            max_length=2000,
            help=msg("Their Suppressed markers come off first."),
        ),
    ),
    run=_recover,
    odds=_recover_odds,
    rolls=12,
    help=msg("Once a turn: the Recover or Rout order activates the player for this turn."),
)


def _rout(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    result = rout.rout_roll(
        unit=_unit(inputs, context, broken=True),
        morale=inputs["morale"],
        dice=dice,
        leader_command=inputs.get("leader_command") or 0,
        trigger=_trigger(inputs),
    )
    words = (
        msg("retreats %(n)s hexes", n=result.retreat_hexes)
        if result.outcome is rout.RoutOutcome.RETREAT
        else ROUT_WORDS[result.outcome]
    )
    return Done(
        context.state,
        result.explanation,
        msg("Rout roll for %(unit)s: %(result)s", unit=result.unit, result=words),
        (msg("%(roll)s: %(result)s", roll=result.roll.value, result=words),),
    )


ROUT = Procedure(
    key="rout",
    title=msg("Rout roll"),
    rule="O23.2",
    fields=(
        UNIT,
        KIND,
        Field(
            "morale",
            msg("Its current Morale, without stacked Leaders"),
            low=1,
            high=20,
        ),
        Field(
            "leader_command",
            msg("Command of the Leaders stacked with it"),
            low=0,
            high=6,
            default=0,
            required=False,
        ),
        TRIGGER,
    ),
    run=_rout,
    odds=lambda inputs, context: _odds(
        rout.rout_odds(morale=inputs["morale"] + (inputs.get("leader_command") or 0)),
        ROUT_WORDS,
    ),
    rolls=1,
    help=msg("Below the Morale nothing; equal suppresses; above retreats by the difference."),
)


FLAGS = ("enemy", "impassable", "cliff", "mines", "safe")


def _path(inputs: Mapping[str, Any]) -> tuple[rout.RetreatStep, ...]:
    """The hexes the owner moves it through, one per line: "hex; hexes from the friendly
    edge" (0 adjacent to it, "off" off it) and any of enemy, impassable, cliff, mines, safe."""
    steps = []
    for n, line in enumerate((inputs.get("path") or "").splitlines(), start=1):
        parts = [keyword(p.strip()) for p in line.split(";") if p.strip()]
        if not parts:
            continue
        flags = set(parts[2:])
        distance = parts[1] if len(parts) > 1 else ""
        if not (distance == "off" or distance.isdecimal()) or flags - set(FLAGS):
            raise RuleError(
                msg(
                    "line %(n)s: write “hex; hexes from your edge (or off)” and any of: %(flags)s",
                    n=n,
                    flags=", ".join(FLAGS),
                ),
                rule="O23.3",
            )
        steps.append(
            rout.RetreatStep(
                hex=line.split(";")[0].strip(),
                edge_distance=rout.OFF_MAP if distance == "off" else int(distance),
                enemy="enemy" in flags,
                impassable="impassable" in flags,
                cliff="cliff" in flags,
                mines="mines" in flags,
                safe_alternative="safe" in flags,
            )
        )
    return tuple(steps)


def _retreat(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    unit = _unit(inputs, context, broken=True)
    moved = rout.retreat(
        unit=unit,
        hexes=inputs["hexes"],
        start_distance=inputs["start_distance"],
        path=_path(inputs),
        allow_eliminating_choice=context.state.readings.allow_eliminating_choice,
    )
    state, why = context.state, moved.explanation
    if moved.eliminated:
        if inputs.get("vp_value") is None:
            raise RuleError(
                msg("%(unit)s is eliminated: give its VP value for the opponent", unit=unit.name),
                rule="O23.3.5",
            )
        state, gone = victory.eliminate_unit(
            state,
            side=context.side,
            vp_value=inputs["vp_value"],
            unit_id=inputs.get("unit_id") or None,
            name=None if inputs.get("unit_id") else unit.name,
        )
        why.extend(gone)
    words = (
        msg("%(unit)s is eliminated: %(why)s", unit=unit.name, why=rout.END_WORDS[moved.end])
        if moved.eliminated
        else msg("%(unit)s retreats to %(hex)s", unit=unit.name, hex=moved.final_hex or "—")
    )
    return Done(state, why, msg("Retreat: %(result)s", result=words), (words,))


RETREAT = Procedure(
    key="retreat",
    title=msg("Retreat"),
    rule="O23.3",
    fields=(
        UNIT_ID,
        UNIT,
        KIND,
        Field("hexes", msg("Hexes to retreat (from the Rout roll)"), low=1, high=12),
        Field(
            "start_distance",
            msg("Hexes between it and your friendly edge now"),
            low=0,
            high=40,
            help=msg("0: it is next to the edge."),
        ),
        Field(
            "path",
            msg("Its path, one hex per line"),
            "lines",
            required=False,
            max_length=1000,
            help=msg(
                "“hex; hexes from your edge” (“off” when it leaves the map), then any of: "
                "enemy, impassable, cliff, mines; “safe” if another hex would not have "
                "eliminated it."
            ),
        ),
        Field(
            "vp_value",
            msg("Its VP value, if the retreat eliminates it"),
            low=0,
            high=20,
            required=False,
        ),
    ),
    run=_retreat,
    help=msg(
        "Each hex closer to your edge; off the edge, into an enemy hex or impassable terrain "
        "the unit is eliminated (it surrenders) and the opponent scores it."
    ),
)

"""Melee [O16.4] and the Melee markers of Stalingrad's Urban Melee [ST-7] (and the Pacific's,
PA-19.2).

Core rules: the Melee is resolved at once, at the end of the Order or trigger that left both
sides in the hex. Urban Melee: the hex gets a Melee marker and waits for the start of the Axis
turn (Pacific: the Allied turn) — right after the turn passed and before that side resolved
anything but Melees — when the Axis orders the hexes by resolving them one by one. Either way
the inactive player rolls first [O16.4.2, ST-7.2.2]; the lower total loses all its units.
Before the rolls the Ambushes [A25]; on a roll Stalingrad's Urban Sniper marker [ST-3.2];
after them No Quarter [A38] — all in `melee_cards`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from campaigns.cc.battle import lines, melee_cards
from campaigns.cc.battle.common import side_choices
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.melee_cards import NATION_WORDS, WHO_CHOICES, Group
from campaigns.cc.battle.rolls import TRIGGER
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import melee
from rules.cc.battle.melee import MeleeMoment, MeleeRules
from rules.cc.battle.rolls import Trigger
from rules.cc.battle.state import BattleState
from rules.cc.battle.values import Outcome
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg

RULE = {MeleeRules.CORE: "O16.4", MeleeRules.STALINGRAD: "ST-7", MeleeRules.PACIFIC: "PA-19.2"}


def _rules(context: Context) -> MeleeRules:
    return MeleeRules(context.state.melee_rules)


def _hex(inputs: Mapping[str, Any]) -> str:
    return (inputs.get("hex") or "").strip()


def _at_turn_start(context: Context) -> bool:
    """The start of the turn: nothing but Melees resolved since the turn passed [ST-7.2]."""
    return all(procedure == "melee" for procedure, _side in context.this_turn)


# ---------------------------------------------------------------------- the Melee marker


def _marker(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    state, rules, hex_ = context.state, _rules(context), _hex(inputs)
    if rules is MeleeRules.CORE:
        raise RuleError(
            msg("In the core rules a Melee is resolved at once: resolve the Melee now"),
            rule="O16.4",
        )
    why = Explanation()
    if inputs.get("change") == "remove":
        if hex_ not in state.melee_hexes:
            raise RuleError(msg("%(hex)s has no Melee marker", hex=hex_), rule="ST-7.1")
        why.add(
            "ST-7.1",
            msg("%(hex)s no longer holds both sides: its Melee marker is removed", hex=hex_),
        )
        new = tuple(h for h in state.melee_hexes if h != hex_)
        summary = msg("Melee marker removed from %(hex)s", hex=hex_)
    else:
        if hex_ in state.melee_hexes:
            raise RuleError(msg("%(hex)s already has a Melee marker", hex=hex_), rule="ST-7.1")
        why.add("ST-7.1", msg("%(hex)s holds both sides: a Melee marker goes on it", hex=hex_))
        waits = melee.melee_schedule(
            rules=rules, moment=MeleeMoment.END_OF_ORDER, active=state.active, hexes=(hex_,)
        )
        why.extend(waits.explanation)
        new = (*state.melee_hexes, hex_)
        summary = msg("Melee marker on %(hex)s", hex=hex_)
    return Done(replace(state, melee_hexes=new), why, summary, (summary,))


MELEE_MARKER = Procedure(
    key="melee_marker",
    title=msg("Melee marker (Urban Melee)"),
    rule="ST-7.1",
    fields=(
        Field("hex", msg("Hex"), "text", max_length=10),
        Field(
            "change",
            msg("Marker"),
            "choice",
            choices=(
                ("place", msg("placed: both sides share the hex")),
                ("remove", msg("removed: the hex no longer holds both sides")),
            ),
            default="place",
        ),
    ),
    run=_marker,
    help=msg(
        "Stalingrad: the Melee waits for the start of the Axis turn; units in the hex cannot "
        "fire and it cannot be the target of a Fire Attack."
    ),
)

# ----------------------------------------------------------------------------- the Melee


def _groups(inputs: Mapping[str, Any], context: Context) -> tuple[Group, Group]:
    """Each side's units as typed, the inactive player's first [O16.4.1]."""
    active = context.state.active
    found = [
        lines.entries(inputs[f"{who}_units"], context, faction, reads="fp", rule="O16.4.1")
        for faction, who in ((active.other, "inactive"), (active, "active"))
    ]
    return found[0], found[1]


def _sides(
    inputs: Mapping[str, Any],
    context: Context,
    groups: tuple[Group, Group],
    sniper: tuple[Faction | None, int],
) -> tuple[melee.MeleeSide, melee.MeleeSide]:
    """Each side's MeleeSide, Melee FP from current FP, with its roll's modifiers."""
    found, active = [], context.state.active
    for group, faction, who in zip(
        groups, (active.other, active), ("inactive", "active"), strict=True
    ):
        side = melee.MeleeSide(
            faction,
            tuple(
                melee.MeleeUnit(e.label, lines.current(group, i).fp, e.unit.boxed_fp)
                for i, e in enumerate(group)
            ),
            bayonets=inputs.get(f"{who}_bayonets") or 0,
            urban_sniper=sniper[1] if sniper[0] is faction else 0,
            trigger=Trigger(inputs.get(f"{who}_trigger") or Trigger.NONE),
            emptied=frozenset({faction}) if inputs.get("emptied_by") == who else frozenset(),
        )
        found.append(side)
    return found[0], found[1]


def _tie(inputs: Mapping[str, Any]) -> melee.FortificationTie | None:
    began, last = inputs.get("began_in") or None, inputs.get("last_occupant") or None
    if not (began or last):
        return None
    return melee.FortificationTie(
        Faction(began) if began else None, Faction(last) if last else None
    )


def _schedule(inputs: Mapping[str, Any], context: Context) -> Explanation:
    """Core: at once. Urban Melee: only a marked hex, at the start of the Axis turn."""
    state, rules, hex_ = context.state, _rules(context), _hex(inputs)
    if rules is MeleeRules.CORE:
        return Explanation()
    if hex_ not in state.melee_hexes:
        raise RuleError(
            msg("Choose a hex with a Melee marker: an Urban Melee waits for its turn"),
            rule=RULE[rules],
        )
    moment = MeleeMoment.START_OF_TURN if _at_turn_start(context) else MeleeMoment.END_OF_ORDER
    order = (hex_, *(h for h in state.melee_hexes if h != hex_))
    schedule = melee.melee_schedule(
        rules=rules, moment=moment, active=state.active, hexes=state.melee_hexes, order=order
    )
    if not schedule.resolve_now:
        turn = Faction.AXIS if rules is MeleeRules.STALINGRAD else Faction.ALLIES
        raise RuleError(
            msg(
                "The Melee in %(hex)s waits for the start of the %(side)s turn, before they "
                "resolve anything else",
                hex=hex_,
                side=state.sides[turn],
            ),
            rule=RULE[rules],
        )
    return schedule.explanation


def _unmark(
    state: BattleState, inputs: Mapping[str, Any], context: Context, why: Explanation
) -> BattleState:
    """The resolved hex loses its Melee marker [ST-7, PA-19.2]."""
    hex_ = _hex(inputs)
    if hex_ not in state.melee_hexes:
        return state
    why.add(RULE[_rules(context)], msg("The Melee marker leaves %(hex)s", hex=hex_))
    return replace(state, melee_hexes=tuple(h for h in state.melee_hexes if h != hex_))


def _melee(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    why = _schedule(inputs, context)
    no_quarter = melee_cards.no_quarter(inputs, context)
    sniper = melee_cards.urban_sniper(inputs, context)
    ambushed = melee_cards.ambushes(inputs, context, _groups(inputs, context))
    why.extend(ambushed.explanation)
    state, applied = lines.apply(context.state, ambushed.results)
    why.extend(applied)
    groups = dict(zip((state.active.other, state.active), ambushed.groups, strict=True))
    shown: tuple[Msg, ...] = ()
    if ambushed.ends:
        lost: frozenset[Faction] = frozenset()
        words = msg("the Ambushes left a side with no units: the Melee ends with no effect")
    else:
        inactive, active = _sides(inputs, context, ambushed.groups, sniper)
        result = melee.melee(
            inactive=inactive,
            active=active,
            dice=dice,
            fortification=_tie(inputs),
            tie_by_last_sole_occupant=context.state.readings.tie_by_last_sole_occupant,
        )
        why.extend(result.explanation)
        rolled = len(result.rolls) == 2 if sniper[0] is state.active else bool(result.rolls)
        if sniper[0] is not None and rolled:
            state = melee_cards.spend_urban_sniper(state, sniper[0], why)
        lost = result.eliminated
        dead = [(e, Outcome.ELIMINATED, e.unit) for f in lost for e in groups[f]]
        state, applied = lines.apply(state, dead)
        why.extend(applied)
        names = [context.state.sides[f] for f in sorted(lost)]
        if result.ended_by_trigger:
            words = msg("a trigger left a side with no units: the Melee ends with no effect")
        elif names:
            words = msg("every unit of the %(side)s in the hex is eliminated", side=names)
        else:
            words = msg("no side is eliminated")
        shown = tuple(
            msg("%(side)s: %(total)s", side=context.state.sides[f], total=t)
            for f, t in result.totals.items()
        )
    state = _unmark(state, inputs, context, why)
    if no_quarter is not None:
        alive = 0 if no_quarter.side in lost else len(groups[no_quarter.side])
        state = melee_cards.score_no_quarter(state, no_quarter, alive, why)
    return Done(state, why, msg("Melee: %(result)s", result=words), (*shown, words))


def _melee_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    if not (inputs.get("inactive_units") and inputs.get("active_units")):
        return []
    sniper = melee_cards.urban_sniper(inputs, context)
    ambushed = melee_cards.ambushes(inputs, context, _groups(inputs, context))
    if ambushed.ends:
        return [Odds(msg("the Ambushes end the Melee: no Melee roll"), Fraction(1))]
    inactive, active = _sides(inputs, context, ambushed.groups, sniper)
    odds = melee.melee_odds(
        inactive=inactive,
        active=active,
        fortification=_tie(inputs),
        tie_by_last_sole_occupant=context.state.readings.tie_by_last_sole_occupant,
    )
    names = context.state.sides
    return [
        Odds(msg("the %(side)s lose", side=names[inactive.faction]), odds.inactive_eliminated),
        Odds(msg("the %(side)s lose", side=names[active.faction]), odds.active_eliminated),
        Odds(msg("both lose"), odds.both_eliminated),
    ]


def _hex_choices(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    marked = context.state.melee_hexes if context is not None else ()
    return (
        ("", msg("— no Melee marker (core rules) —")),
        *((h, msg("%(hex)s", hex=h)) for h in marked),
    )


def _holder_choices(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    return (("", msg("nobody")), *side_choices(context))


TRIGGER_CHOICE = {
    "kind": "choice",
    "choices": TRIGGER.choices,
    "default": Trigger.NONE.value,
    "required": False,
    "help": TRIGGER.help,
}
AMBUSH_HELP = msg(
    "Each line names the unit its owner chose, as in the units above; a unit in good order "
    "also gives its FP once broken (“name; FP”) unless the counter table has it [A25]."
)
NATIONS = (("", msg("—")), *((n.value, words) for n, words in NATION_WORDS.items()))
NATION_VALUES = [n.value for n in NATION_WORDS]
UNITS_HELP = msg(
    "“name; current FP”, “boxed” for a boxed FP, “leader”, “vp N”; Weapons do not count. "
    "Tracked with every unit: its registry id. Locked before the first roll."
)

MELEE = Procedure(
    key="melee",
    title=msg("Melee"),
    rule="O16.4",
    fields=(
        Field(
            "hex",
            msg("Melee hex"),
            "choice",
            choices=_hex_choices,
            required=False,
            help=msg("Stalingrad: the marked hexes, in the order the Axis resolves them."),
        ),
        Field(
            "inactive_units",
            msg("Units of the player whose turn it is not (rolls first), one per line"),
            "lines",
            max_length=2000,
            help=UNITS_HELP,
        ),
        Field(
            "active_units",
            msg("Units of the player whose turn it is, one per line"),
            "lines",
            max_length=2000,
            help=UNITS_HELP,
        ),
        Field(
            "inactive_ambushes",
            msg("Ambushes of the player whose turn it is not: the unit each breaks, one per line"),
            "lines",
            max_length=1000,
            required=False,
            help=AMBUSH_HELP,
        ),
        Field(
            "active_ambushes",
            msg("Ambushes of the player whose turn it is: the unit each breaks, one per line"),
            "lines",
            max_length=1000,
            required=False,
            help=AMBUSH_HELP,
        ),
        Field(
            "inactive_bayonets",
            msg("Bayonets played by the player whose turn it is not"),
            low=0,
            high=3,
            default=0,
            required=False,
        ),
        Field(
            "active_bayonets",
            msg("Bayonets played by the player whose turn it is"),
            low=0,
            high=3,
            default=0,
            required=False,
        ),
        Field("inactive_trigger", msg("Trigger on the first roll's card"), **TRIGGER_CHOICE),
        Field("active_trigger", msg("Trigger on the second roll's card"), **TRIGGER_CHOICE),
        Field(
            "emptied_by",
            msg("A trigger left a side with no units in the hex"),
            "choice",
            choices=(
                ("", msg("no")),
                ("inactive", msg("yes, the first roll's")),
                ("active", msg("yes, the second roll's")),
            ),
            default="",
            required=False,
            help=msg("The Melee then ends with no effect [O16.4.2]."),
        ),
        Field(
            "began_in",
            msg("Side that began the Melee in a Bunker or Pillbox"),
            "choice",
            choices=_holder_choices,
            default="",
            required=False,
        ),
        Field(
            "last_occupant",
            msg("Last sole occupant of that Bunker or Pillbox"),
            "choice",
            choices=_holder_choices,
            default="",
            required=False,
            help=msg("It wins a tie when the campaign plays F101/F104's reading."),
        ),
        Field(
            "urban_sniper",
            msg("Urban Sniper marker given up for a Melee roll (Stalingrad)"),
            "choice",
            choices=WHO_CHOICES,
            default="",
            required=False,
            help=msg("Its holder adds the face up, +2 or +4, to his Melee roll [ST-3.2]."),
        ),
        Field(
            "no_quarter",
            msg("No Quarter played at the end of the Melee"),
            "choice",
            choices=WHO_CHOICES,
            default="",
            required=False,
            help=msg(
                "+2 VP if one of his units survives: a German player against Russia, or a "
                "Russian player [A38]."
            ),
        ),
        Field(
            "no_quarter_nation",
            msg("Nation of the player of No Quarter"),
            "choice",
            choices=NATIONS,
            default="",
            required=False,
            help=msg("Stalingrad: Germany or Russia, by side, when left blank."),
        ),
        Field(
            "no_quarter_opponent",
            msg("Nation of his opponent"),
            "choice",
            choices=NATIONS,
            default="",
            required=False,
        ),
    ),
    run=_melee,
    odds=_melee_odds,
    rolls=2,
    help=msg(
        "After the Ambushes: Melee FP = current FP + 1 per boxed FP; the lower total loses all "
        "its units, a tie both, unless one side holds the Bunker or Pillbox."
    ),
)

"""What the players add to a Melee beside its rolls: the Ambushes played before them [A25], No
Quarter after it [A38] and, in Stalingrad, the Urban Sniper marker on a Melee roll [ST-3.2]
(and its moves when a Sniper! fails [ST-3.1]).

The Ambushes are deterministic: each breaks a unit the opponent chooses (a broken one is
eliminated) before the Melee FPs are counted, so the odds of the Melee that follows stay exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.keywords import keywords
from campaigns.cc.battle.lines import Entry
from campaigns.cc.battle.spec import Context, Done
from rules.cc.battle import actions, melee, victory
from rules.cc.battle.actions import UrbanSniper, urban_sniper_after_failure, use_urban_sniper
from rules.cc.battle.counters import unit_type
from rules.cc.battle.melee import Ambush, MeleeRules
from rules.cc.battle.state import BattleState, VPSource
from rules.cc.battle.units import Unit as Participant
from rules.cc.battle.values import Outcome, Printed, Unit
from rules.cc.common import Faction, Nation
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg

Group = tuple[Entry, ...]
STALINGRAD_NATIONS = {Faction.AXIS: Nation.GERMANY, Faction.ALLIES: Nation.RUSSIA}
NATION_WORDS = {
    Nation.GERMANY: msg("Germany"),
    Nation.ITALY: msg("Italy"),
    Nation.USA: msg("the United States"),
    Nation.BRITAIN: msg("Britain"),
    Nation.FRANCE: msg("France"),
    Nation.RUSSIA: msg("Russia"),
}
WHO_CHOICES = (
    ("", msg("nobody")),
    ("inactive", msg("the player whose turn it is not")),
    ("active", msg("the player whose turn it is")),
)
WHO_VALUES = [value for value, _words in WHO_CHOICES if value]


def who(inputs: Mapping[str, Any], name: str, context: Context) -> Faction | None:
    """The side an "inactive"/"active" choice names, or None."""
    value = inputs.get(name) or ""
    if not value:
        return None
    return context.state.active if value == "active" else context.state.active.other


# ---------------------------------------------------------------------------- Ambush [A25]


@dataclass(frozen=True)
class Ambushed:
    """The participants after the Ambushes, what they did to the tracks, whether it ends."""

    groups: tuple[Group, Group]  # inactive, active; eliminated units dropped
    results: tuple[tuple[Entry, Outcome, Unit], ...]
    ends: bool
    explanation: Explanation


def _key(entry: Entry) -> str:
    return entry.unit_id or entry.label


def _plays(inputs: Mapping[str, Any], context: Context) -> list[tuple[Faction, str, str]]:
    """Each Ambush in order, the inactive player's first [A25]: who plays it, the victim's
    name and what else its line says."""
    active = context.state.active
    found = []
    for faction, name in ((active.other, "inactive_ambushes"), (active, "active_ambushes")):
        for line in (inputs.get(name) or "").splitlines():
            victim, _sep, rest = line.partition(";")
            if victim.strip():
                found.append((faction, victim.strip(), rest))
    return found


def _broken_fp(rest: str, n: int) -> tuple[int | None, bool]:
    """The FP typed after a victim's name (its current FP once broken) and “boxed”."""
    fp, boxed = None, False
    for part in (p.strip() for p in rest.split(";") if p.strip()):
        word, more = keywords(part)
        if part.isdecimal() and fp is None:
            fp = int(part)
        elif word == "boxed" and not more:
            boxed = True
        else:
            raise RuleError(
                msg("Ambush line %(n)s: write “name; FP once broken” and maybe “boxed”", n=n),
                rule="A25",
            )
    return fp, boxed


def _broken(entry: Entry, rest: str, n: int, context: Context) -> Unit:
    """The victim's counter flipped to its broken side: from the counter table, or the FP
    the players typed."""
    fp, boxed = _broken_fp(rest, n)
    if not entry.unit.typed:
        found = context.state.units[entry.unit_id]
        side = unit_type(context.counters, found.nationality, found.name).broken
        return replace(entry.unit, broken=True, boxed_fp="fp" in side.boxed)
    if fp is None:
        raise RuleError(
            msg("give the FP of %(unit)s once broken: “name; FP”", unit=entry.label), rule="A25"
        )
    printed = Printed(fp, 0, 0, 0)
    return replace(entry.unit, good=printed, broken_side=printed, broken=True, boxed_fp=boxed)


def ambushes(inputs: Mapping[str, Any], context: Context, groups: tuple[Group, Group]) -> Ambushed:
    """A25: the Ambushes' breaks and eliminations, before the Melee FPs are counted."""
    plays = _plays(inputs, context)
    if not plays:
        return Ambushed(groups, (), False, Explanation())
    entries = [e for group in groups for e in group]
    keys = [_key(e) for e in entries]
    if len(set(keys)) != len(keys):
        raise RuleError(msg("to play an Ambush, name each unit in the Melee once"), rule="A25")
    result = melee.resolve_ambushes(
        active=context.state.active,
        units=tuple(
            Participant(_key(e), e.side, e.unit.kind, broken=e.unit.broken) for e in entries
        ),
        ambushes=tuple(Ambush(faction, victim) for faction, victim, _rest in plays),
    )
    left = {u.name: u for u in result.units}
    lines = {victim: (n, rest) for n, (_f, victim, rest) in enumerate(plays, start=1)}
    results, kept = [], []
    for group in groups:
        stays = []
        for entry in group:
            after = left.get(_key(entry))
            if after is None:
                results.append((entry, Outcome.ELIMINATED, entry.unit))
            elif after.broken and not entry.unit.broken:
                n, rest = lines[_key(entry)]
                flipped = _broken(entry, rest, n, context)
                results.append((entry, Outcome.BROKEN, flipped))
                stays.append(replace(entry, unit=flipped))
            else:
                stays.append(entry)
        kept.append(tuple(stays))
    return Ambushed((kept[0], kept[1]), tuple(results), result.melee_ends, result.explanation)


# ------------------------------------------------------------------ Urban Sniper [ST-3]


def marker(state: BattleState) -> UrbanSniper:
    return UrbanSniper(state.urban_sniper, state.urban_sniper_face)


def urban_sniper(inputs: Mapping[str, Any], context: Context) -> tuple[Faction | None, int]:
    """ST-3.2: the side that gives up the Urban Sniper marker for its Melee roll, and its face."""
    user = who(inputs, "urban_sniper", context)
    if user is None:
        return None, 0
    if context.state.melee_rules != MeleeRules.STALINGRAD:
        raise RuleError(
            msg("The Urban Sniper marker is used only in Stalingrad battles"), rule="ST-3.2"
        )
    face, _nobody = use_urban_sniper(user=user, marker=marker(context.state))
    return user, face


def fire_sniper(inputs: Mapping[str, Any], context: Context) -> int:
    """ST-3.2: the +2/+4 the acting side gets on its Fire Attack roll by giving up the Urban
    Sniper marker (0 when it does not)."""
    if not inputs.get("urban_sniper"):
        return 0
    if context.state.melee_rules != MeleeRules.STALINGRAD:
        raise RuleError(
            msg("The Urban Sniper marker is used only in Stalingrad battles"), rule="ST-3.2"
        )
    return use_urban_sniper(user=context.side, marker=marker(context.state))[0]


URBAN_SNIPER_FIRE = Field(
    "urban_sniper",
    msg("Give up the Urban Sniper marker for this roll (Stalingrad)"),
    "bool",
    default=False,
    help=msg("ST-3.2: +2 or +4 to the roll, as its face shows; only its holder may."),
)


def spend_urban_sniper(state: BattleState, user: Faction, why: Explanation) -> BattleState:
    """ST-3.2: the marker is set aside, held by nobody."""
    face, left = use_urban_sniper(user=user, marker=marker(state))
    why.add(
        "ST-3.2",
        msg(
            "The %(side)s give up the Urban Sniper marker for +%(n)s to their roll; "
            "nobody holds it now",
            side=state.sides[user],
            n=face,
        ),
        face,
    )
    return replace(state, urban_sniper=left.holder, urban_sniper_face=left.face)


def marker_words(state: BattleState) -> Msg:
    if state.urban_sniper is None:
        return msg("Nobody holds the Urban Sniper marker")
    return msg(
        "The %(side)s hold the Urban Sniper marker at +%(n)s",
        side=state.sides[state.urban_sniper],
        n=state.urban_sniper_face,
    )


def sniper_fails(context: Context) -> Done:
    """A Sniper! whose roller breaks no unit [1.9.1.3]; in Stalingrad it "fails" and moves the
    Urban Sniper marker toward the roller [ST-3.1]."""
    state, roller = context.state, context.side
    why = actions.sniper(
        roller=roller, candidates=(), enemy_only=state.readings.sniper_enemy_only
    ).explanation
    shown = msg("no unit broken")
    if state.melee_rules == MeleeRules.STALINGRAD:
        moved = urban_sniper_after_failure(roller=roller, marker=marker(state))
        state = replace(state, urban_sniper=moved.holder, urban_sniper_face=moved.face)
        shown = msg("The Sniper! fails: %(marker)s", marker=marker_words(state))
        why.add("ST-3.1", shown, state.urban_sniper_face if state.urban_sniper else 0)
    return Done(state, why, msg("Sniper!: no unit broken"), (shown,))


# ------------------------------------------------------------------- No Quarter [A38]


@dataclass(frozen=True)
class NoQuarter:
    side: Faction
    nation: Nation
    opponent: Nation


def no_quarter(inputs: Mapping[str, Any], context: Context) -> NoQuarter | None:
    """A38, checked before the rolls: who plays No Quarter and whether his nation may.
    Stalingrad's nations are known (Germany, Russia); otherwise the inputs name them."""
    side = who(inputs, "no_quarter", context)
    if side is None:
        return None
    nation = inputs.get("no_quarter_nation") or ""
    opponent = inputs.get("no_quarter_opponent") or ""
    if not (nation and opponent):
        if context.state.melee_rules != MeleeRules.STALINGRAD:
            raise RuleError(msg("No Quarter: give the nations of both players"), rule="A38")
        nation, opponent = STALINGRAD_NATIONS[side], STALINGRAD_NATIONS[side.other]
    played = NoQuarter(side, Nation(nation), Nation(opponent))
    if played.nation.faction is not side or played.opponent.faction is side:
        raise RuleError(
            msg("No Quarter: those nations are not the two sides of this Melee"), rule="A38"
        )
    melee.no_quarter(player=played.nation, opponent=played.opponent, survivors=1)
    return played


def score_no_quarter(
    state: BattleState, played: NoQuarter, survivors: int, why: Explanation
) -> BattleState:
    """A38 at the end of the Melee: +2 VP if a unit of the player survived; else the card
    cannot be played and is kept."""
    if survivors < 1:
        why.add(
            "A38",
            msg(
                "No Quarter cannot be played: no unit of the %(side)s survived the Melee",
                side=state.sides[played.side],
            ),
        )
        return state
    vp = melee.no_quarter(player=played.nation, opponent=played.opponent, survivors=survivors)
    state, moved = victory.move_vp(
        state, side=played.side, vp=vp, source=VPSource.NO_QUARTER, rule="A38"
    )
    why.extend(moved)
    return state

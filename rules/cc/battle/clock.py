"""The clock and the end of a Combat Commander battle [6, 6.1.2, 6.2, 6.3, 9.2].

`advance_time` runs the Time advance checklist of 6.1.2 in the seed's order: the marker moves
one space (a Time! trigger, or the last card of a deck revealed or drawn: once, not twice,
when both happen together), the triggering player reshuffles, makes the Sudden Death roll
when the Time marker is at or past the Sudden Death marker (the battle ends on a roll *less
than* the number of the Time marker's space, locked just before the roll), then, if the
battle goes on, the Defender gains 1 VP, one Smoke marker is removed, the units on the
reached space enter (inactive player first) and both players may play Dig In.

`check_game_end` decides the battle once an end condition is met [6.3.1, 6.3.2, 9.2]:
Surrender or the loss of the last unit loses whatever the VP (both at once: the Initiative
holder wins); an exit of the last unit or Sudden Death reveals the secret chits and the VP
marker decides, on 0 the Initiative holder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rules.cc.battle.objective_chits import final_count, unknown_chits
from rules.cc.battle.rolls import distribution, roll
from rules.cc.battle.state import (
    BOTH,
    END_LABELS,
    OBJECTIVES,
    BattleMode,
    BattleState,
    Change,
    ChitKind,
    EndCause,
    ObjectiveChit,
    Outcome,
    Place,
    VPSource,
    add_end,
    require_open,
    waiting_on,
    with_units,
)
from rules.cc.battle.units import UnitKind
from rules.cc.battle.victory import move_vp
from rules.cc.common import Faction, Posture
from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg

LOSING = (EndCause.SURRENDER, EndCause.LAST_UNIT_ELIMINATED)  # 6.3 (1) and (2)


@dataclass(frozen=True)
class TimeAdvance:
    """The state after a Time advance, what happened and who entered."""

    state: BattleState
    explanation: Explanation
    sudden_death_roll: RollRecord | None = None
    ended: bool = False
    entering: dict[Faction, tuple[str, ...]] = field(default_factory=dict)


def all_objectives_holder(state: BattleState) -> Faction | None:
    """Who wins by the special chit just before a Sudden Death roll [7.3.2], if anyone.

    The chit counts whether open or secret, once its face is known to the site.
    """
    if not any(c.kind is ChitKind.SUDDEN_DEATH_CONTROL for c in state.chits):
        return None
    holders = {state.objectives[n] for n in OBJECTIVES}
    return holders.pop() if len(holders) == 1 else None


def sudden_death_odds(time_space: int) -> Fraction:
    """The exact chance that a Sudden Death roll ends the battle: roll < time_space [6.2.2]."""
    return distribution().p(lambda value: value < time_space)


def advance_time(
    state: BattleState,
    *,
    side: Faction,
    dice: DiceSource,
    time_trigger: bool = False,
    last_card: bool = False,
    smoke_hex: str | None = None,
    starshell_hex: str | None = None,
    pacific: bool = False,
    faces: Mapping[str, ObjectiveChit] | None = None,
) -> TimeAdvance:
    """One Time advance triggered by `side` [6.1.2].

    `time_trigger`: a roll of `side` showed Time!; `last_card`: `side` revealed or drew the
    last card of its deck (both: one advance). `smoke_hex`: the Smoke marker the triggering
    player removes (None: no Smoke on the map); `starshell_hex` removes a Starshell instead
    [NO-6.3]; `pacific` skips the step [PA-13.2]. `faces` gives secret chits the site does
    not know, needed only if Sudden Death ends the battle. The Sudden Death roll is made
    during a trigger, so its own card triggers nothing [1.9.1]. An Initiative re-roll [9.1]
    is `pass_initiative` then this function again on the state from before the advance.
    """
    require_open(state)
    side = Faction(side)
    if not (time_trigger or last_card):
        raise RuleError(
            msg("the Time marker advances on a Time! trigger or the last card of a deck"),
            rule="6.1.2",
        )
    why = Explanation()
    new = replace(state, time=state.time + 1)
    cause = (
        msg("the last card of the deck was revealed for a roll showing Time!: one advance")
        if time_trigger and last_card
        else msg("Time! trigger")
        if time_trigger
        else msg("the last card of the deck was revealed or drawn")
    )
    why.add(
        "6.1.2",
        msg(
            "%(side)s: %(cause)s; the Time marker advances to space %(n)s",
            side=state.sides[side],
            cause=cause,
            n=new.time,
        ),
        new.time,
    )
    cards = state.cards[side]
    reshuffled = replace(
        cards, deck=cards.deck + cards.discard, discard=0, reshuffles=cards.reshuffles + 1
    )
    new = replace(new, cards={**new.cards, side: reshuffled})
    why.add(
        "1.4",
        msg(
            "step 1: %(side)s shuffle deck and discard pile into a new deck of %(n)s cards",
            side=state.sides[side],
            n=reshuffled.deck,
        ),
        reshuffled.deck,
    )
    record, ended = None, False
    if new.time >= new.sudden_death:
        new, record, ended = _sudden_death(new, side, dice, why)
    if ended:
        outcome = check_game_end(
            new, faces=faces, retroactive_doubling=new.readings.retroactive_doubling
        )
        if outcome.state.outcome is None:
            outcome.explanation.add(
                "6.3.2", msg("enter the secret chits' faces to decide the battle")
            )
        why.extend(outcome.explanation)
        return TimeAdvance(outcome.state, why, record, True, {})
    for defender in (s for s in BOTH if new.postures[s] is Posture.DEFEND):
        new, gained = move_vp(new, side=defender, vp=1, source=VPSource.DEFENDER, rule="6.1.2")
        why.extend(gained)
    why.add("6.1.2", _smoke_step(state, side, smoke_hex, starshell_hex, pacific))
    new, entering = _reinforcements(new, why)
    why.add("6.1.2", msg("step 6: both players may play Dig In actions [A32]"))
    return TimeAdvance(new, why, record, False, entering)


def _sudden_death(
    state: BattleState, side: Faction, dice: DiceSource, why: Explanation
) -> tuple[BattleState, RollRecord | None, bool]:
    holder = all_objectives_holder(state)
    if holder is not None:
        why.add(
            "7.3.2",
            msg(
                "just before the Sudden Death roll the %(side)s control all five Objectives",
                side=state.sides[holder],
            ),
        )
        return add_end(state, EndCause.ALL_OBJECTIVES, holder), None, True
    locked = state.time
    why.add(
        "6.2.2",
        msg(
            "step 2: the Time marker (space %(time)s) is at or past the Sudden Death marker (space %(sd)s): Sudden Death roll; the number %(time)s is locked",
            time=locked,
            sd=state.sudden_death,
        ),
        locked,
    )
    result = roll(dice, purpose=msg("Sudden Death roll"), rule="6.2.2")
    ends = result.value < locked
    why.add(
        "6.2.2",
        msg(
            "Sudden Death roll %(roll)s is less than %(time)s: the battle ends",
            roll=result.value,
            time=locked,
        )
        if ends
        else msg(
            "Sudden Death roll %(roll)s is not less than %(time)s: the battle goes on",
            roll=result.value,
            time=locked,
        ),
        ends,
        roll=result.record,
    )
    return (add_end(state, EndCause.SUDDEN_DEATH, side) if ends else state), result.record, ends


def _smoke_step(
    state: BattleState,
    side: Faction,
    smoke_hex: str | None,
    starshell_hex: str | None,
    pacific: bool,
) -> Msg:
    name = state.sides[side]
    if pacific:
        return msg("step 4: in the Pacific no Smoke is removed on a Time advance [PA-13.2]")
    if starshell_hex:
        return msg(
            "step 4: %(side)s remove the Starshell in %(hex)s instead of a Smoke [NO-6.3]",
            side=name,
            hex=starshell_hex,
        )
    if smoke_hex:
        return msg("step 4: %(side)s remove the Smoke in %(hex)s", side=name, hex=smoke_hex)
    return msg("step 4: no Smoke marker on the map to remove")


def _reinforcements(
    state: BattleState, why: Explanation
) -> tuple[BattleState, dict[Faction, tuple[str, ...]]]:
    """Step 5: what waits on the reached space enters, the inactive player first [6.1.2]."""
    waiting = waiting_on(state, state.time)
    order = (state.active.other, state.active)
    entering = {s: waiting[s] for s in order if waiting[s]}
    if not entering:
        why.add("6.1.2", msg("step 5: no reinforcements on space %(n)s", n=state.time))
        return state, {}
    for side, pieces in entering.items():
        why.add(
            "6.1.2",
            msg(
                "step 5: %(side)s reinforcements enter along their friendly edge, stacking limits respected (Radios to the Artillery box): %(pieces)s",
                side=state.sides[side],
                pieces=", ".join(state.units[p].name if p in state.units else p for p in pieces),
            ),
            list(pieces),
        )
    if state.mode is BattleMode.FULL:
        arrived = [
            replace(
                state.units[p],
                place=Place.ARTILLERY_BOX if state.units[p].kind is UnitKind.RADIO else Place.MAP,
                time_space=None,
            )
            for pieces in entering.values()
            for p in pieces
        ]
        return replace(state, units=with_units(state, *arrived)), entering
    track = {
        s: {k: v for k, v in state.reinforcements[s].items() if k != state.time}
        for s in state.reinforcements
    }
    return replace(state, reinforcements=track), entering


def check_game_end(
    state: BattleState,
    *,
    faces: Mapping[str, ObjectiveChit] | None = None,
    retroactive_doubling: bool = True,
) -> Change:
    """Decide the battle if an end condition of 6.3 is pending; else nothing changes.

    Call it once the Order, Action or Event that eliminated or exited units is resolved, so
    that two sides losing at once are seen together [6.3.1].
    """
    require_open(state)
    why = Explanation()
    if not state.pending_end:
        why.add("6.3", msg("no end condition is met: the battle goes on"))
        return Change(state, why)
    for event in state.pending_end:
        why.add(
            "6.3",
            msg("%(side)s: %(cause)s", side=state.sides[event.side], cause=END_LABELS[event.cause]),
        )
    losers = {e.side for e in state.pending_end if e.cause in LOSING}
    winners = {e.side for e in state.pending_end if e.cause is EndCause.ALL_OBJECTIVES}
    if losers:
        cause = next(e.cause for e in state.pending_end if e.cause in LOSING)
        if len(losers) == 2:
            why.add(
                "9.2",
                msg(
                    "both players lose at once: the holder of the Initiative card, the %(side)s, wins",
                    side=state.sides[state.initiative],
                ),
            )
            return _decided(state, why, state.initiative, cause, "6.3.1", tie_break=True)
        loser = losers.pop()
        why.add("6.3.1", msg("the %(side)s lose whatever the VP", side=state.sides[loser]))
        return _decided(state, why, loser.other, cause, "6.3.1")
    if winners:
        winner = winners.pop()
        why.add("7.3.2", msg("the %(side)s win whatever the VP", side=state.sides[winner]))
        return _decided(state, why, winner, EndCause.ALL_OBJECTIVES, "7.3.2")
    unknown = unknown_chits(state, faces)
    if unknown:
        why.add(
            "6.3.2",
            msg("the secret chits %(letters)s must be revealed first", letters=", ".join(unknown)),
        )
        return Change(state, why)
    counted, reveal = final_count(state, faces=faces, retroactive_doubling=retroactive_doubling)
    why.extend(reveal)
    winner, tie = vp_winner(counted)
    why.add(
        "9.2" if tie else "6.3.2",
        msg(
            "VP marker on 0: the holder of the Initiative card, the %(side)s, wins",
            side=counted.sides[winner],
        )
        if tie
        else msg("the %(side)s have more VP and win", side=counted.sides[winner]),
        counted.vp_axis,
    )
    return _decided(counted, why, winner, state.pending_end[0].cause, "6.3.2", tie_break=tie)


def _decided(
    state: BattleState,
    why: Explanation,
    winner: Faction,
    cause: EndCause,
    rule: str,
    *,
    tie_break: bool = False,
) -> Change:
    outcome = Outcome(winner, cause, rule, state.vp_axis, tie_break)
    return Change(replace(state, outcome=outcome, pending_end=()), why)


def end_turn(state: BattleState) -> Change:
    """The turn passes to the other player [5]."""
    require_open(state)
    why = Explanation()
    why.add("5", msg("the %(side)s take the turn", side=state.sides[state.active.other]))
    return Change(replace(state, active=state.active.other), why)


def take_cards(
    state: BattleState, *, side: Faction, n: int = 1, to_discard: bool = True
) -> tuple[Change, bool]:
    """Reveal (to the discard pile) or draw (to the hand) `n` cards from `side`'s deck.

    Returns the change and whether the last card of the deck was taken: that is a Time
    advance [6.1.2], to run with `advance_time(last_card=True)`.
    """
    require_open(state)
    cards = state.cards[side]
    if not 1 <= n <= cards.deck:
        raise RuleError(
            msg(
                "the %(side)s deck holds %(deck)s cards; %(n)s cannot be taken",
                side=state.sides[side],
                deck=cards.deck,
                n=n,
            ),
            rule="1.3",
        )
    left = replace(cards, deck=cards.deck - n, discard=cards.discard + (n if to_discard else 0))
    why = Explanation()
    why.add(
        "1.3" if to_discard else "5.4",
        msg(
            "%(side)s: %(n)s cards taken from the deck, %(left)s left",
            side=state.sides[side],
            n=n,
            left=left.deck,
        ),
        left.deck,
    )
    if left.deck == 0:
        why.add("6.1.2", msg("the last card of the deck was taken: the Time marker advances"))
    return Change(replace(state, cards={**state.cards, side: left}), why), left.deck == 0


def vp_winner(state: BattleState) -> tuple[Faction, bool]:
    """The side the VP marker favours; on 0 the Initiative holder, a tie-break [6.3.2, 9.2]."""
    if state.vp_axis == 0:
        return state.initiative, True
    return (Faction.AXIS if state.vp_axis > 0 else Faction.ALLIES), False


def pass_initiative(state: BattleState, *, reroll: bool = True) -> Change:
    """The holder gives the Initiative card to the opponent [9.1].

    To cancel a roll, pass the card and run the procedure again on the state from before
    that roll, with a new roll: nothing of the cancelled roll is kept.
    """
    require_open(state)
    holder, receiver = state.initiative, state.initiative.other
    why = Explanation()
    names = {"holder": state.sides[holder], "receiver": state.sides[receiver]}
    why.add(
        "9.1",
        msg(
            "%(holder)s cancel the last roll and give the Initiative card to the %(receiver)s",
            **names,
        )
        if reroll
        else msg("%(holder)s give the Initiative card to the %(receiver)s", **names),
        receiver.value,
    )
    return Change(replace(state, initiative=receiver), why)


def move_surrender_marker(state: BattleState, *, side: Faction) -> Change:
    """Élan: the receiver's Surrender marker moves to the next higher-value space [E54, 4.2]."""
    require_open(state)
    side = Faction(side)
    space = state.surrender[side]
    if space is None:
        raise RuleError(
            msg("the %(side)s have no Surrender marker", side=state.sides[side]), rule="E54"
        )
    why = Explanation()
    why.add(
        "E54",
        msg(
            "the %(side)s Surrender marker moves to space %(n)s of their Casualty track",
            side=state.sides[side],
            n=space + 1,
        ),
        space + 1,
    )
    return Change(replace(state, surrender={**state.surrender, side: space + 1}), why)

"""The Fate decks as far as the procedures need them [1.1, 1.3, 5.4, 6.1.2]: each side's deck,
discard pile and hand counts, set up from the posture's hand size, and the Time advance when
a deck runs out, with its Sudden Death roll (the same path as the Time procedure)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from campaigns.cc.battle.common import WHOSE, acting_side
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from campaigns.cc.battle.tracks import sudden_death_rows, time_shown
from rules.cc.battle import clock
from rules.cc.battle.state import BattleState
from rules.cc.common import Faction
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg

FATE_DECK = 72  # 1: each nation's Fate deck holds 72 cards

ACTIONS = (
    ("setup", msg("set up: the hand dealt, the rest is the deck")),
    ("draw", msg("draw into the hand")),
    ("reveal", msg("reveal onto the discard pile (a roll, a random hex, an Event)")),
    ("play", msg("play or discard from the hand")),
)


def _with(state: BattleState, side: Faction, **counts: int) -> BattleState:
    return replace(state, cards={**state.cards, side: replace(state.cards[side], **counts)})


def _words(state: BattleState, side: Faction) -> Msg:
    cards = state.cards[side]
    return msg(
        "deck %(deck)s, hand %(hand)s, discards %(discard)s",
        deck=cards.deck,
        hand=cards.hand,
        discard=cards.discard,
    )


def _setup(state: BattleState, side: Faction, why: Explanation) -> BattleState:
    cards = state.cards[side]
    if cards.deck or cards.hand or cards.discard:
        raise RuleError(
            msg("the %(side)s cards are already set up", side=state.sides[side]), rule="1.1"
        )
    hand = state.postures[side].hand_size
    why.add(
        "1.1",
        msg(
            "%(side)s: a hand of %(hand)s cards for their posture; %(deck)s cards left in the deck",
            side=state.sides[side],
            hand=hand,
            deck=FATE_DECK - hand,
        ),
        hand,
    )
    return _with(state, side, deck=FATE_DECK - hand, hand=hand)


def _play(state: BattleState, side: Faction, n: int, why: Explanation) -> BattleState:
    cards = state.cards[side]
    if n > cards.hand:
        raise RuleError(
            msg(
                "the %(side)s hold %(hand)s cards; %(n)s cannot be played",
                side=state.sides[side],
                hand=cards.hand,
                n=n,
            ),
            rule="1.5",
        )
    why.add("1.5", msg("%(n)s cards from the hand go to the discard pile", n=n), n)
    return _with(state, side, hand=cards.hand - n, discard=cards.discard + n)


def _cards(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    side, action = acting_side(inputs, context), inputs["action"]
    state, why, shown = context.state, Explanation(), []
    n = inputs.get("n") or 1
    if action == "setup":
        state = _setup(state, side, why)
    elif action == "play":
        state = _play(state, side, n, why)
    else:
        while n and state.outcome is None and not state.pending_end:
            take = min(n, state.cards[side].deck) or n  # an empty deck: take_cards refuses
            (state, taken), last = clock.take_cards(
                state, side=side, n=take, to_discard=action == "reveal"
            )
            why.extend(taken)
            if action == "draw":
                state = _with(state, side, hand=state.cards[side].hand + take)
            n -= take
            if last:
                advance = clock.advance_time(
                    state,
                    side=side,
                    dice=dice,
                    time_trigger=bool(inputs.get("time")),
                    last_card=True,
                    smoke_hex=(inputs.get("smoke_hex") or "").strip() or None,
                )
                state = advance.state
                why.extend(advance.explanation)
                shown.extend(time_shown(advance))
    words = _words(state, side)
    return Done(
        state,
        why,
        msg("%(side)s cards: %(words)s", side=state.sides[side], words=words),
        (words, *shown),
    )


def _cards_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    """The Sudden Death odds when the cards taken empty the deck past the SD marker."""
    state, side = context.state, acting_side(inputs, context)
    deck = state.cards[side].deck
    taking = inputs["action"] in ("draw", "reveal")
    empties = taking and 0 < deck <= (inputs.get("n") or 1)
    return sudden_death_rows(state) if empties else []


CARDS = Procedure(
    key="cards",
    title=msg("Fate cards: deck, hand and discards"),
    rule="1.3",
    fields=(
        WHOSE,
        Field("action", msg("What happens"), "choice", choices=ACTIONS, default="draw"),
        Field("n", msg("How many cards"), low=1, high=FATE_DECK, default=1, required=False),
        Field(
            "time",
            msg("The deck's last card showed Time!"),
            "bool",
            default=False,
            help=msg("The Time marker then advances once, not twice."),
        ),
        Field(
            "smoke_hex",
            msg("Smoke marker removed if the deck runs out (its hex)"),
            "text",
            required=False,
            max_length=10,
        ),
    ),
    run=_cards,
    odds=_cards_odds,
    rolls=1,
    help=msg(
        "Taking the deck's last card advances the Time marker: the deck and discards are "
        "shuffled into a new deck, and past the Sudden Death marker the battle may end."
    ),
)

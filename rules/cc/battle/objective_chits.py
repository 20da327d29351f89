"""Objective chits drawn, revealed and counted at the end [7.3.2, 7.3.3, E67, 6.3.2].

A chit's face scores once it is public: open chits at once, secret ones when revealed or at
game end; a doubling chit revealed late may double the VP already scored (the
`retroactive_doubling` reading). A secret chit's letter and face reach only its owner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.cc.battle.state import (
    BOTH,
    OBJECTIVES,
    BattleState,
    Change,
    ChitKind,
    ObjectiveChit,
    VPSource,
    check_chit,
    require_open,
)
from rules.cc.battle.victory import doubling, record_vp
from rules.cc.common import Faction
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg


def reveal_chit(
    state: BattleState,
    *,
    letter: str,
    owner: Faction | None = None,
    face: ObjectiveChit | None = None,
    rule: str = "E67",
    retroactive_doubling: bool = True,
) -> Change:
    """A secret chit (of `owner`, when given) is revealed (E67, or at game end): it scores
    now for current control.

    `face` gives what the chit says when the site did not know it. A doubling chit revealed
    late doubles the elimination or exit VP already scored too (`retroactive_doubling`).
    """
    require_open(state)
    return _reveal(state, letter, owner, face, rule, retroactive_doubling, Explanation())


DOUBLED = {ChitKind.ELIMINATION_DOUBLED: VPSource.ELIMINATION, ChitKind.EXIT_DOUBLED: VPSource.EXIT}


def _reveal(
    state: BattleState,
    letter: str,
    owner: Faction | None,
    face: ObjectiveChit | None,
    rule: str,
    retroactive: bool,
    why: Explanation,
) -> Change:
    found = [
        i
        for i, c in enumerate(state.chits)
        if c.letter == letter and c.secret and owner in (None, c.owner)
    ]
    if not found:
        raise RuleError(msg("there is no secret chit %(letter)s in play", letter=letter), rule=rule)
    if any(c.letter == letter and not c.secret for c in state.chits):
        raise RuleError(
            msg(
                "chit %(letter)s is already open: one of the two was entered wrongly, undo it",
                letter=letter,
            ),
            rule="7.3.2",
        )
    index = found[0]
    chit = state.chits[index]
    if chit.kind is None:
        if face is None or face.kind is None:
            raise RuleError(
                msg("chit %(letter)s is revealed: enter what its face says", letter=letter),
                rule=rule,
            )
        chit = replace(chit, kind=face.kind, objective=face.objective, vp=face.vp)
    chit = replace(chit, secret=False)
    check_chit(chit)
    why.add(rule, msg("revealed: %(chit)s", chit=chit.words()), chit.letter)
    new = replace(state, chits=tuple(chit if i == index else c for i, c in enumerate(state.chits)))
    return Change(_score(state, new, chit, retroactive, why), why)


def _score(
    state: BattleState, new: BattleState, chit: ObjectiveChit, retroactive: bool, why: Explanation
) -> BattleState:
    """A face made public scores at once for the current controllers [7.3.3]; a doubling
    chit also doubles the VP already scored when `retroactive` [7.3.2]."""
    letter = chit.letter
    reason = msg("chit %(letter)s", letter=letter)
    if chit.kind in (ChitKind.OBJECTIVE, ChitKind.ALL_OBJECTIVES):
        named = OBJECTIVES if chit.kind is ChitKind.ALL_OBJECTIVES else (chit.objective,)
        for holder in (new.objectives[n] for n in named):
            if holder is not None and chit.vp:
                new = record_vp(new, why, holder, chit.vp, VPSource.OBJECTIVE, "7.3.3", reason)
    if retroactive and chit.kind in DOUBLED and doubling(state, chit.kind) == 1:
        again = msg("%(chit)s doubles the VP already scored", chit=reason)
        for side in BOTH:
            sign = 1 if side is Faction.AXIS else -1
            gained = sum(
                e.delta_axis * sign
                for e in state.ledger
                if e.source is DOUBLED[chit.kind] and e.delta_axis * sign > 0
            )
            if gained:
                new = record_vp(new, why, side, gained, DOUBLED[chit.kind], "7.3.2", again)
    return new


def place_chit(
    state: BattleState,
    *,
    chit: ObjectiveChit,
    counted: bool = False,
    retroactive_doubling: bool = True,
) -> Change:
    """A chit drawn for the battle [7.3.2, 7.3.3]: open, face up in the centre, or secret,
    face down by the player who drew it (its face, when given, known only to him).

    An open chit scores at once for the current controllers unless its VP are already
    `counted` on the VP marker (the scenario's starting VP); a secret one scores when
    revealed (E67) or at the end. The explanation of a secret chit names neither its letter
    nor its face: it is logged for both sides.
    """
    require_open(state)
    check_chit(chit)
    # another side's secret chits are not compared: a refusal would tell their letters
    if any(c.letter == chit.letter for c in state.chits if c.owner == chit.owner or not c.secret):
        raise RuleError(msg("chit %(letter)s is already in play", letter=chit.letter), rule="7.3.2")
    why = Explanation()
    new = replace(state, chits=(*state.chits, chit))
    if chit.secret:
        if chit.owner is None:
            raise RuleError(msg("say who drew the secret chit"), rule="7.3.3")
        why.add(
            "7.3.3",
            msg("the %(side)s keep an Objective chit secret", side=state.sides[chit.owner]),
        )
        return Change(new, why)
    why.add("7.3.3", msg("placed open: %(chit)s", chit=chit.words()), chit.letter)
    if counted:
        why.add("7.3.3", msg("its VP are already on the VP marker"))
        return Change(new, why)
    return Change(_score(state, new, chit, retroactive_doubling, why), why)


def final_count(
    state: BattleState,
    *,
    faces: Mapping[str, ObjectiveChit] | None = None,
    retroactive_doubling: bool = True,
) -> Change:
    """Reveal every secret chit and give its VP to the current controllers [6.3.2]."""
    faces = faces or {}
    unknown = unknown_chits(state, faces)
    if unknown:
        raise RuleError(
            msg("enter the faces of the secret chits %(letters)s", letters=", ".join(unknown)),
            rule="6.3.2",
        )
    why = Explanation()
    new = state
    for chit in state.chits:
        if chit.secret:
            face = faces.get(chit.letter)
            new = _reveal(
                new, chit.letter, chit.owner, face, "6.3.2", retroactive_doubling, why
            ).state
    return Change(new, why)


def unknown_chits(
    state: BattleState, faces: Mapping[str, ObjectiveChit] | None = None
) -> list[str]:
    """Letters of secret chits whose face the site does not know and was not given."""
    return [
        c.letter
        for c in state.chits
        if c.secret and c.kind is None and c.letter not in (faces or {})
    ]

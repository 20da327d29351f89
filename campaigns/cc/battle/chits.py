"""Procedures on the Objective chits [7.3.2, 7.3.3, E67]: a chit drawn (open, or secret to the
player who drew it) and a secret chit revealed. A secret chit's letter and face never reach
the other side: the log line, the explanation and the result name only whose it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.cc.battle.common import SIDE_FIELD, side_choices
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Procedure
from rules.cc.battle import objective_chits
from rules.cc.battle.state import OBJECTIVES, ChitKind, ObjectiveChit
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.i18n import Msg, msg

KIND_WORDS: dict[ChitKind, Msg] = {
    ChitKind.OBJECTIVE: msg("Objective X is worth Y VP"),
    ChitKind.ALL_OBJECTIVES: msg("each of the five Objectives is worth Y VP"),
    ChitKind.SUDDEN_DEATH_CONTROL: msg("all five Objectives before a Sudden Death roll win"),
    ChitKind.EXIT_DOUBLED: msg("exit VP doubled"),
    ChitKind.ELIMINATION_DOUBLED: msg("elimination VP doubled"),
}
VALUED = (ChitKind.OBJECTIVE, ChitKind.ALL_OBJECTIVES)
FACE_VALUES = [k.value for k in KIND_WORDS]

FACE = (
    Field(
        "kind",
        msg("What its face says"),
        "choice",
        required=False,
        choices=(("", msg("— not entered —")), *((k.value, w) for k, w in KIND_WORDS.items())),
    ),
    Field(
        "objective",
        msg("Its Objective (X)"),
        "choice",
        required=False,
        choices=(("", msg("—")), *((str(n), msg("Objective %(n)s", n=n)) for n in OBJECTIVES)),
    ),
    Field("vp", msg("Its VP (Y)"), low=0, high=20, default=0, required=False),
)
WHOSE = Field(
    SIDE_FIELD,
    msg("Whose chit"),
    "choice",
    required=False,
    choices=lambda context: (("", msg("— my side —")), *side_choices(context)),
    help=msg("A player's own side; a game master names it."),
)
LETTER = Field(
    "letter", msg("Its letter"), "text", max_length=2, help=msg("As printed on the chit: C, G, K…")
)


def _letter(inputs: Mapping[str, Any]) -> str:
    letter = str(inputs.get("letter") or "").strip().upper()
    if not (letter.isascii() and letter.isalpha()):
        raise RuleError(msg("enter the chit's letter, as printed on it"), rule="7.3.2")
    return letter


def _face(inputs: Mapping[str, Any], letter: str) -> ObjectiveChit | None:
    """The face typed for chit `letter` (None: not entered); a value chit needs its VP."""
    if not inputs.get("kind"):
        return None
    kind = ChitKind(inputs["kind"])
    if kind in VALUED and not inputs.get("vp"):
        raise RuleError(msg("chit %(letter)s: enter the VP it shows", letter=letter), rule="7.3.2")
    objective = inputs.get("objective") if kind is ChitKind.OBJECTIVE else None
    return ObjectiveChit(
        letter,
        kind=kind,
        objective=int(objective) if objective else None,
        vp=(inputs.get("vp") or 0) if kind in VALUED else 0,
    )


def _draw(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    letter = _letter(inputs)
    secret = inputs["placed"] == "secret"
    face = _face(inputs, letter) or ObjectiveChit(letter)
    chit = ObjectiveChit(
        letter,
        owner=context.side if secret else None,
        secret=secret,
        kind=face.kind,
        objective=face.objective,
        vp=face.vp,
    )
    change = objective_chits.place_chit(
        context.state,
        chit=chit,
        counted=bool(inputs.get("counted")),
        retroactive_doubling=context.state.readings.retroactive_doubling,
    )
    if secret:
        side = context.state.sides[context.side]
        return Done(
            change.state,
            change.explanation,
            msg("The %(side)s draw a secret Objective chit", side=side),
            (msg("Kept secret: only the %(side)s see its face on the tracks", side=side),),
        )
    return Done(
        change.state,
        change.explanation,
        msg("Objective chit placed open: %(chit)s", chit=change.state.chits[-1].words()),
    )


DRAW = Procedure(
    key="chit",
    title=msg("An Objective chit is drawn"),
    rule="7.3.2",
    fields=(
        WHOSE,
        LETTER,
        Field(
            "placed",
            msg("Placed"),
            "choice",
            choices=(
                ("open", msg("open, face up in the centre")),
                ("secret", msg("secret, face down by the player who drew it")),
            ),
            default="open",
        ),
        *FACE,
        Field(
            "counted",
            msg("Its VP are already on the VP marker (the scenario's start)"),
            "bool",
            default=False,
        ),
    ),
    run=_draw,
    help=msg(
        "A secret chit: only its owner sees its face; the other side reads only that it is "
        "secret, until it is revealed."
    ),
)


def own_secret_chits(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    """The acting side's own secret chits by letter (never another side's: their letters
    would tell their faces)."""
    if context is None:
        return ()
    return tuple(
        (c.letter, c.words()) for c in context.state.chits if c.secret and c.owner is context.side
    )


def _reveal(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    state = context.state
    letter = _letter(inputs)
    if not any(c.letter == letter for c in state.chits if c.secret and c.owner is context.side):
        raise RuleError(
            msg(
                "the %(side)s keep no secret chit %(letter)s",
                side=state.sides[context.side],
                letter=letter,
            ),
            rule="7.3.3",
        )
    change = objective_chits.reveal_chit(
        state,
        letter=letter,
        owner=context.side,
        face=_face(inputs, letter),
        rule="6.3.2" if state.pending_end else "E67",
        retroactive_doubling=state.readings.retroactive_doubling,
    )
    chit = next(c for c in change.state.chits if c.letter == letter and c.owner is context.side)
    return Done(
        change.state,
        change.explanation,
        msg("The %(side)s reveal %(chit)s", side=state.sides[context.side], chit=chit.words()),
    )


REVEAL = Procedure(
    key="reveal_chit",
    title=msg("A secret Objective chit is revealed"),
    rule="E67",
    fields=(
        WHOSE,
        Field(
            "letter",
            msg("Your secret chit"),
            "choice",
            choices=own_secret_chits,
            help=msg("Its owner reveals it (Reconnaissance, or the end of the battle)."),
        ),
        *FACE,
    ),
    run=_reveal,
    help=msg(
        "It scores at once for the Objectives' current controllers. Enter its face only if "
        "it was not entered when drawn."
    ),
)

"""Fog of war with numbered tokens (Section XIV.1–5): numbering, hidden movement,
reinforcements, detection at the end of the turn and bombarded squares.

Squares ("casillas") have no size in the seed; the site counts squares and passes them in.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.m1936.army import Role
from rules.m1936.data import parse_rule
from rules.serial import Serializable

SETUP_RULE = "M36-XIV.1"
MOVE_RULE = "M36-XIV.2"
REINFORCE_RULE = "M36-XIV.3"
REVEAL_RULE = "M36-XIV.4"
BOMBARD_RULE = "M36-XIV.5"
TOKEN_LIMIT = 15
NEAR_SQUARES = 2
RECON_SQUARES = 3
LOW_VISIBILITY_SQUARES = 1
RECONNAISSANCE = "Reconocimiento"
LOW_VISIBILITY = "Baja Visibilidad"


@dataclass(frozen=True)
class FogOptions(Serializable):
    """`near_ignores_los`: a token within 2 squares of a revealed unit is revealed even out of
    line of sight (the clause "independientemente de la cobertura o línea de visión"); by
    default every condition of XIV.4, line of sight included, must hold.
    `defender_half_rounds_up`: with an odd number of tokens the defender deploys the larger
    half (default), else the smaller."""

    near_ignores_los: bool = False
    defender_half_rounds_up: bool = True


DEFAULT_OPTIONS = FogOptions()


@dataclass(frozen=True)
class Token(Serializable):
    """A numbered token on a square; `unit_key` None is a decoy ("señuelo")."""

    number: int
    unit_key: str | None
    square: str
    revealed: bool = False

    @property
    def is_decoy(self) -> bool:
        return self.unit_key is None


def check_token_numbers(tokens: Sequence[Token], limit: int = TOKEN_LIMIT) -> list[Msg]:
    """Every problem with one player's tokens: numbers unique and 1..limit, one token per unit
    (XIV.1). Decoys carry numbers like units do."""
    problems: list[Msg] = []
    numbers = Counter(t.number for t in tokens)
    for number in sorted(n for n, c in numbers.items() if c > 1):
        problems.append(msg("token number %(number)s is used twice", number=number))
    for t in tokens:
        if (
            isinstance(t.number, bool)
            or not isinstance(t.number, int)
            or not 1 <= t.number <= limit
        ):
            problems.append(
                msg(
                    "token number %(number)s is not between 1 and %(limit)s",
                    number=str(t.number),
                    limit=limit,
                )
            )
    units = Counter(t.unit_key for t in tokens if not t.is_decoy)
    for key in sorted(k for k, c in units.items() if c > 1):
        problems.append(msg("unit %(unit)s has more than one token", unit=key))
    return problems


class TokenKind(StrEnum):
    INFANTRY = "infantería"
    VEHICLE = "vehículo"
    DECOY = "señuelo"


HIDDEN_MOVE = {TokenKind.INFANTRY: 1, TokenKind.VEHICLE: 2, TokenKind.DECOY: 2}


def hidden_move_allowance(kind: TokenKind) -> int:
    """Squares a hidden token may move per turn: infantry 1, vehicles 2, decoys 1 or 2 at
    will (the maximum, 2, is returned). Revealed units move in cm as usual (XIV.2)."""
    return HIDDEN_MOVE[TokenKind(kind)]


def check_hidden_move(kind: TokenKind, squares: int) -> Explanation:
    exp = Explanation()
    allowance = exp.add(
        MOVE_RULE,
        msg("squares a hidden %(kind)s token may move", kind=TokenKind(kind)),
        hidden_move_allowance(kind),
    )
    if isinstance(squares, bool) or not isinstance(squares, int) or not 0 <= squares <= allowance:
        raise RuleError(
            msg(
                "a hidden %(kind)s token moves 0 to %(allowance)s squares, not %(squares)s",
                kind=TokenKind(kind),
                allowance=allowance,
                squares=str(squares),
            ),
            rule=MOVE_RULE,
        )
    return exp


REINFORCEMENTS = {Role.ATACANTE: 3, Role.DEFENSOR: 1}


def reinforcement_tokens(role: Role | str) -> int:
    """New tokens per turn: the attacker 3 in its attack phase from its rear edge, the
    defender 1 in its defence phase from its edge (XIV.3)."""
    return REINFORCEMENTS[Role(role)]


def defender_initial_tokens(total: int, options: FogOptions = DEFAULT_OPTIONS) -> int:
    """Tokens the defender deploys on the field at the start; the rest are in reserve."""
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise RuleError(
            msg("a number of tokens is a whole number ≥ 0, not %(n)s", n=str(total)),
            rule=SETUP_RULE,
        )
    return (total + 1) // 2 if options.defender_half_rounds_up else total // 2


def _reach(observer_rules: Collection[str], exp: Explanation) -> tuple[int, bool]:
    """(squares within which cover does not hide a token, whether open squares count)."""
    names = {parse_rule(r)[0] for r in observer_rules}
    if LOW_VISIBILITY in names:
        exp.add(
            f"M36-III {LOW_VISIBILITY}",
            msg("Baja Visibilidad: sees hidden units only in an adjacent square"),
            LOW_VISIBILITY_SQUARES,
        )
        return LOW_VISIBILITY_SQUARES, False
    if RECONNAISSANCE in names:
        exp.add(
            f"M36-III {RECONNAISSANCE}",
            msg("Reconocimiento: sees hidden units 3 squares away"),
            RECON_SQUARES,
        )
        return RECON_SQUARES, True
    return NEAR_SQUARES, True


def revealed_at_end_of_turn(
    *,
    in_los: bool,
    square_has_cover: bool,
    squares_away: int,
    observer_rules: Collection[str] = frozenset(),
    options: FogOptions = DEFAULT_OPTIONS,
) -> tuple[bool, Explanation]:
    """Whether a revealed unit of mine reveals an enemy token at the end of the turn (XIV.4):
    in its line of sight, and on a square without cover or within 2 squares of it."""
    if isinstance(squares_away, bool) or not isinstance(squares_away, int) or squares_away < 0:
        raise RuleError(
            msg("squares away is a whole number ≥ 0, not %(n)s", n=str(squares_away)),
            rule=REVEAL_RULE,
        )
    exp = Explanation()
    near, open_counts = _reach(observer_rules, exp)
    is_near = exp.add(
        REVEAL_RULE,
        msg("%(n)s squares away; within %(near)s", n=squares_away, near=near),
        squares_away <= near,
    )
    is_open = open_counts and not square_has_cover
    exp.add(REVEAL_RULE, msg("square without cover"), not square_has_cover)
    exp.add(REVEAL_RULE, msg("in line of sight of the revealed unit"), bool(in_los))
    if options.near_ignores_los and is_near:
        revealed = True
    else:
        revealed = bool(in_los) and (is_open or is_near)
    return exp.add(REVEAL_RULE, msg("token revealed"), revealed), exp


@dataclass(frozen=True)
class FogUpdate(Serializable):
    """Tokens after a reveal: decoys revealed are removed from play."""

    tokens: tuple[Token, ...]
    revealed: tuple[int, ...]
    decoys_removed: tuple[int, ...]
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def reveal_tokens(tokens: Sequence[Token], numbers: Collection[int], rule: str) -> FogUpdate:
    """Reveal the tokens with these numbers: the miniature replaces a unit's token, a decoy
    leaves play (XIV.4)."""
    exp = Explanation()
    kept, revealed, removed = [], [], []
    for t in tokens:
        if t.number not in numbers or t.revealed:
            kept.append(t)
        elif t.is_decoy:
            removed.append(
                exp.add(rule, msg("token %(n)s was a decoy: removed", n=t.number), t.number)
            )
        else:
            exp.add(rule, msg("token %(n)s revealed: place %(unit)s", n=t.number, unit=t.unit_key))
            revealed.append(t.number)
            kept.append(dataclasses.replace(t, revealed=True))
    return FogUpdate(tuple(kept), tuple(revealed), tuple(removed), exp)


def reveal_bombarded(tokens: Sequence[Token], squares: Collection[str]) -> FogUpdate:
    """Artillery or aircraft bombarding a square reveal every token on it (XIV.5)."""
    hit = {t.number for t in tokens if t.square in squares and not t.revealed}
    return reveal_tokens(tokens, hit, BOMBARD_RULE)


def require_revealed(token: Token) -> None:
    """A unit must be revealed to fire (XIV.4)."""
    if not token.revealed:
        raise RuleError(
            msg("token %(n)s must be revealed before it fires", n=token.number), rule=REVEAL_RULE
        )

"""Fog of war with numbered tokens (M36-XIV.1–5), T34."""

import pytest

from rules.errors import RuleError
from rules.m1936.army import Role
from rules.m1936.fog import (
    FogOptions,
    Token,
    TokenKind,
    check_hidden_move,
    check_token_numbers,
    defender_initial_tokens,
    hidden_move_allowance,
    reinforcement_tokens,
    require_revealed,
    reveal_bombarded,
    revealed_at_end_of_turn,
)


def test_T34_M36_XIV_4_open_square_in_los_4_squares():
    revealed, _ = revealed_at_end_of_turn(in_los=True, square_has_cover=False, squares_away=4)
    assert revealed is True


@pytest.mark.parametrize(("away", "revealed"), [(4, False), (3, False), (2, True), (0, True)])
def test_T34_M36_XIV_4_wood_square(away, revealed):
    got, _ = revealed_at_end_of_turn(in_los=True, square_has_cover=True, squares_away=away)
    assert got is revealed


@pytest.mark.parametrize(("near_ignores_los", "revealed"), [(False, False), (True, True)])
def test_M36_XIV_4_near_without_los_is_an_option(near_ignores_los, revealed):
    got, _ = revealed_at_end_of_turn(
        in_los=False,
        square_has_cover=True,
        squares_away=2,
        options=FogOptions(near_ignores_los=near_ignores_los),
    )
    assert got is revealed
    far, _ = revealed_at_end_of_turn(
        in_los=False,
        square_has_cover=False,
        squares_away=3,
        options=FogOptions(near_ignores_los=near_ignores_los),
    )
    assert far is False


@pytest.mark.parametrize(("away", "revealed"), [(3, True), (4, False)])
def test_M36_III_reconocimiento_sees_3_squares(away, revealed):
    got, _ = revealed_at_end_of_turn(
        in_los=True,
        square_has_cover=True,
        squares_away=away,
        observer_rules={"Reconocimiento", "Granadas de Mano"},
    )
    assert got is revealed


@pytest.mark.parametrize(
    ("away", "cover", "revealed"), [(1, True, True), (2, True, False), (3, False, False)]
)
def test_M36_III_baja_visibilidad_adjacent_only(away, cover, revealed):
    got, _ = revealed_at_end_of_turn(
        in_los=True,
        square_has_cover=cover,
        squares_away=away,
        observer_rules={"Baja Visibilidad"},
    )
    assert got is revealed


def test_M36_XIV_4_refuses_negative_distance():
    with pytest.raises(RuleError):
        revealed_at_end_of_turn(in_los=True, square_has_cover=False, squares_away=-1)


def test_M36_XIV_1_token_numbers():
    good = [Token(1, "a", "A1"), Token(15, "b", "A2"), Token(7, None, "A1")]
    assert check_token_numbers(good) == []
    bad = [Token(1, "a", "A1"), Token(1, None, "A1"), Token(16, "b", "A2"), Token(0, "a", "A3")]
    problems = [str(p) for p in check_token_numbers(bad)]
    assert problems == [
        "token number 1 is used twice",
        "token number 16 is not between 1 and 15",
        "token number 0 is not between 1 and 15",
        "unit a has more than one token",
    ]
    assert check_token_numbers([Token(16, "b", "A2")], limit=20) == []


@pytest.mark.parametrize(("total", "up", "down"), [(8, 4, 4), (7, 4, 3), (0, 0, 0)])
def test_M36_XIV_1_defender_deploys_half(total, up, down):
    assert defender_initial_tokens(total) == up
    assert defender_initial_tokens(total, FogOptions(defender_half_rounds_up=False)) == down


@pytest.mark.parametrize(
    ("kind", "squares"), [(TokenKind.INFANTRY, 1), (TokenKind.VEHICLE, 2), (TokenKind.DECOY, 2)]
)
def test_M36_XIV_2_hidden_move_allowance(kind, squares):
    assert hidden_move_allowance(kind) == squares
    check_hidden_move(kind, squares)
    with pytest.raises(RuleError):
        check_hidden_move(kind, squares + 1)


def test_M36_XIV_2_decoy_may_move_one():
    assert check_hidden_move(TokenKind.DECOY, 1).steps[0].value == 2


def test_M36_XIV_3_reinforcements():
    assert reinforcement_tokens(Role.ATACANTE) == 3
    assert reinforcement_tokens("Defensor") == 1


def test_M36_XIV_5_bombarded_square_reveals_all_tokens():
    tokens = [
        Token(2, "mg", "B3"),
        Token(5, None, "B3"),
        Token(6, "sec", "B3", revealed=True),
        Token(8, "tank", "B4"),
    ]
    update = reveal_bombarded(tokens, {"B3"})
    assert update.revealed == (2,)
    assert update.decoys_removed == (5,)
    assert [(t.number, t.revealed) for t in update.tokens] == [(2, True), (6, True), (8, False)]


def test_M36_XIV_4_must_be_revealed_to_fire():
    with pytest.raises(RuleError):
        require_revealed(Token(2, "mg", "B3"))
    require_revealed(Token(2, "mg", "B3", revealed=True))

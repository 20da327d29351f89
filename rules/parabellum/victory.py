"""Victory points and the winner for the three game modes (§9.1, §9.2, §9.3).

Simple game: "Take the enemy line" for both. Orders game: each player's priority order (at most
6 VP) plus two officer directives. Open game: casual objectives checked at the end of every
turn; the first player to meet one scores it, both at once discards it. Most VP wins; the seed
gives no tie-break, so equal VP is a draw (DECISIONS D-14).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.parabellum import labels as pbl
from rules.parabellum.battle import Battle, BattleSide, ModelState, SideState, TurnState
from rules.parabellum.roster import Soldier

PRIORITY_CAP = 6
ARTILLERY_CAUSES = frozenset({"artillery", "light_mortar", "sniper"})


@dataclass(frozen=True)
class ScoreItem:
    source: str | Msg
    rule: str
    vp: Fraction


@dataclass
class SideScore:
    player: str
    items: list[ScoreItem] = field(default_factory=list)

    @property
    def total(self) -> Fraction:
        return sum((i.vp for i in self.items), Fraction(0))


@dataclass
class BattleScore:
    sides: tuple[SideScore, SideScore]
    winner: int | None
    explanation: Explanation

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": [
                {
                    "player": s.player,
                    "total": str(s.total),
                    "items": [
                        {
                            "source": str(i.source),
                            "rule": i.rule,
                            "vp": str(i.vp),
                            **(
                                {"source_msg": i.source.as_dict()}
                                if isinstance(i.source, Msg)
                                else {}
                            ),
                        }
                        for i in s.items
                    ],
                }
                for s in self.sides
            ],
            "winner": self.winner,
            "explanation": self.explanation.as_list(),
        }


# ---------------------------------------------------------------------------------------------
# Priority orders (§9.1 step 8, §9.2)


def banded(models: tuple[ModelState, ...], inner: str, outer: str, *, cumulative: bool) -> int:
    """+2 per model in the inner band, +1 per model only in the outer one; with `cumulative` a
    model in the inner band scores both (DECISIONS D-12)."""
    vp = 0
    for m in models:
        if getattr(m, inner):
            vp += 3 if cumulative else 2
        elif getattr(m, outer):
            vp += 1
    return vp


def take_enemy_line(own: SideState, *, cumulative: bool = False) -> int:
    return banded(
        own.models, "wholly_in_enemy_deployment", "wholly_in_enemy_half", cumulative=cumulative
    )


def defend_position(own: SideState, enemy: SideState) -> int:
    """+1 per own model within 10 cm of the centre line, −1 per enemy model wholly in your half."""
    return sum(m.near_centre_line for m in own.models) - sum(
        m.wholly_in_enemy_half for m in enemy.models
    )


def control_objective(own: SideState, *, cumulative: bool = False) -> int:
    return banded(own.models, "touching_objective", "near_objective", cumulative=cumulative)


def priority_vp(order: int, own: SideState, enemy: SideState, *, cumulative: bool = False) -> int:
    scorers: dict[int, Callable[[], int]] = {
        1: lambda: take_enemy_line(own, cumulative=cumulative),
        2: lambda: defend_position(own, enemy),
        3: lambda: control_objective(own, cumulative=cumulative),
    }
    return min(PRIORITY_CAP, scorers[order]())


# ---------------------------------------------------------------------------------------------
# Officer directives (§9.2)


def _killed(enemy: BattleSide, turn: int) -> list[Soldier]:
    return [enemy.roster.soldier(sid) for sid in enemy.eliminated(turn)]


def directive_vp(
    number: int, own: BattleSide, enemy: BattleSide, turn: int, po_left: int
) -> Fraction:
    """VP of one officer directive at the end of the game (`turn` = the last turn)."""
    lost = len(own.eliminated(turn))
    killed = _killed(enemy, turn)
    if number == 1:
        return Fraction(3) if lost <= 4 else Fraction(-1)
    if number == 2:
        officer = next(
            (
                c
                for c in enemy.casualties
                if c.eliminated_at(turn) and enemy.roster.soldier(c.soldier_id).role == "officer"
            ),
            None,
        )
        if officer is None:
            return Fraction(-1)
        return Fraction(0) if officer.cause in ARTILLERY_CAUSES else Fraction(3, 2)
    if number == 3:
        return Fraction(2) if len(killed) >= 6 else Fraction(-1)
    if number == 4:
        return Fraction(3, 2) if any(s.role == "mg_gunner" for s in killed) else Fraction(-1)
    if number == 5:
        return Fraction(sum(1 for s in killed if s.specialist))
    if number == 6:
        return Fraction(-1) if po_left == 0 else min(Fraction(3), Fraction(po_left, 2))
    raise RuleError(msg("there is no directive %(number)s", number=number), rule="9.2")


# ---------------------------------------------------------------------------------------------
# Casual objectives (§9.3)


@dataclass(frozen=True)
class CasualObjective:
    key: str
    name: str
    vp: int
    final_only: bool
    met: Callable[[Battle, int, TurnState], bool]


def _fresh(state: TurnState, i: int) -> list[ModelState]:
    return [m for m in state.sides[i].models if not m.suppressed]


CASUAL_OBJECTIVES = (
    CasualObjective(
        "take_line",
        "Tomar la línea enemiga",
        3,
        False,
        lambda b, i, t: any(m.in_enemy_deployment for m in _fresh(t, i)),
    ),
    CasualObjective(
        "infiltration",
        "Infiltración",
        2,
        False,
        lambda b, i, t: sum(m.wholly_in_enemy_half for m in _fresh(t, i)) >= 2,
    ),
    CasualObjective(
        "control_objective",
        "Controlar el objetivo",
        2,
        False,
        lambda b, i, t: any(m.within_3cm_of_objective for m in _fresh(t, i)),
    ),
    CasualObjective(
        "snake",
        "¡Le cortaremos la cabeza a la serpiente!",
        1,
        False,
        lambda b, i, t: any(s.role == "officer" for s in _killed(b.sides[1 - i], t.turn)),
    ),
    CasualObjective(
        "scum",
        "¡Eliminaremos esa escoria sea como sea, sin piedad!",
        1,
        False,
        lambda b, i, t: len(b.sides[1 - i].eliminated(t.turn)) >= 6,
    ),
    CasualObjective(
        "minimal_reinforcements",
        "¡Contamos con refuerzos mínimos!",
        1,
        False,
        lambda b, i, t: t.sides[i].po > 2 * t.sides[1 - i].po,
    ),
    CasualObjective(
        "no_more_losses",
        "¡No perderemos más hombres!",
        1,
        True,
        lambda b, i, t: len(b.sides[i].eliminated(t.turn)) <= 5,
    ),
)


def casual_objectives(battle: Battle, ex: Explanation) -> tuple[list[ScoreItem], list[ScoreItem]]:
    """Claim casual objectives turn by turn, discarding any met by both players at once."""
    claimed: tuple[list[ScoreItem], list[ScoreItem]] = ([], [])
    open_ = list(CASUAL_OBJECTIVES)
    last = battle.final.turn
    for state in battle.turns:
        for obj in list(open_):
            if obj.final_only and state.turn != last:
                continue
            met = [obj.met(battle, i, state) for i in (0, 1)]
            if all(met):
                open_.remove(obj)
                ex.add(
                    "9.3",
                    msg(
                        "turn %(turn)s: both meet “%(name)s”: discarded, nobody scores",
                        turn=state.turn,
                        name=pbl.label(pbl.CASUAL_OBJECTIVES, obj.key, obj.name),
                    ),
                )
            elif any(met):
                i = met.index(True)
                open_.remove(obj)
                claimed[i].append(
                    ScoreItem(
                        pbl.label(pbl.CASUAL_OBJECTIVES, obj.key, obj.name), "9.3", Fraction(obj.vp)
                    )
                )
                ex.add(
                    "9.3",
                    msg(
                        "turn %(turn)s: %(player)s claims “%(name)s”",
                        turn=state.turn,
                        player=battle.sides[i].player,
                        name=pbl.label(pbl.CASUAL_OBJECTIVES, obj.key, obj.name),
                    ),
                    obj.vp,
                )
    return claimed


# ---------------------------------------------------------------------------------------------


def score_battle(battle: Battle, *, cumulative_bands: bool = False) -> BattleScore:
    """VP per player and the winner (None for a draw) from a battle record."""
    ex = Explanation()
    final = battle.final
    scores = (SideScore(battle.sides[0].player), SideScore(battle.sides[1].player))
    if battle.mode == "open":
        for score, items in zip(scores, casual_objectives(battle, ex), strict=True):
            score.items.extend(items)
    for i, side in enumerate(battle.sides):
        own, enemy = final.sides[i], final.sides[1 - i]
        if battle.mode == "simple":
            vp = take_enemy_line(own, cumulative=cumulative_bands)
            scores[i].items.append(ScoreItem(pbl.PRIORITY_ORDERS[1], "9.1", Fraction(vp)))
            ex.add("9.1", msg("%(player)s: Take the enemy line", player=side.player), vp)
        elif battle.mode == "orders":
            if side.priority_order is None:
                raise RuleError(
                    msg("%(player)s has no priority order", player=side.player), rule="9.2"
                )
            vp = priority_vp(side.priority_order, own, enemy, cumulative=cumulative_bands)
            scores[i].items.append(
                ScoreItem(pbl.PRIORITY_ORDERS[side.priority_order], "9.2", Fraction(vp))
            )
            ex.add(
                "9.2",
                msg(
                    "%(player)s: priority order %(name)s (max 6)",
                    player=side.player,
                    name=pbl.PRIORITY_ORDERS[side.priority_order],
                ),
                vp,
            )
            for d in side.directives:
                dvp = directive_vp(d, side, battle.sides[1 - i], final.turn, own.po)
                scores[i].items.append(ScoreItem(pbl.DIRECTIVES[d], "9.2", dvp))
                ex.add(
                    "9.2",
                    msg(
                        "%(player)s: directive %(d)s %(v)s",
                        player=side.player,
                        d=d,
                        v=pbl.DIRECTIVES[d],
                    ),
                    str(dvp),
                )
    a, b = scores[0].total, scores[1].total
    winner = None if a == b else (0 if a > b else 1)
    ex.add(
        "9",
        msg(
            "%(player)s %(a)s – %(player2)s %(b)s",
            player=scores[0].player,
            a=str(a),
            player2=scores[1].player,
            b=str(b),
        ),
        "draw" if winner is None else scores[winner].player,
    )
    return BattleScore(scores, winner, ex)

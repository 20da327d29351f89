"""Battle records for the three game modes (§9), plus the setup and tactical-phase rolls.

A `Battle` holds each side's roster snapshot, attacker/defender role, secret priority order and
officer directives (orders game, §9.2), casualties with their cause and turn, the reinforcement
ledger and, per turn, every model's scoring position and the PO held. `validate_battle` lists
what is inconsistent; `rules.parabellum.victory.score_battle` turns a record into VP.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, Literal

from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.parabellum.data import special_rule
from rules.parabellum.roster import Roster, Violation
from rules.parabellum.supports import Call

Mode = Literal["simple", "orders", "open"]
Side = Literal["attacker", "defender"]
Cause = Literal[
    "shot",
    "reaction_shot",
    "assault",
    "grenade",
    "grenade_launcher",
    "projector",
    "artillery",
    "light_mortar",
    "sniper",
    "fire_at_will",
    "other",
]
CAUSES: tuple[str, ...] = typing.get_args(Cause)
"""Why a soldier became a casualty; artillery-type causes change the victory points."""
TURNS = 5
PRIORITY_ORDERS = (1, 2, 3)
DIRECTIVES = (1, 2, 3, 4, 5, 6)
DIRECTIVES_CHOSEN = 2
TOKENS_CHOSEN = 6
BLUE_TOKENS = 6
YELLOW_TOKENS = 4


@dataclass(frozen=True)
class Casualty:
    """A soldier eliminated on `turn`; `healed_turn`: a medic stood it up that turn (§8.3.2)."""

    soldier_id: str
    turn: int
    cause: Cause = "other"
    healed_turn: int | None = None

    def eliminated_at(self, turn: int) -> bool:
        """Counts as eliminated at the end of `turn` (downed soldiers do, §8.3.2)."""
        return self.turn <= turn and (self.healed_turn is None or self.healed_turn > turn)


@dataclass(frozen=True)
class ModelState:
    """Where one model on the table stands at the end of a turn, as §9 scores it."""

    soldier_id: str
    wholly_in_enemy_half: bool = False
    in_enemy_deployment: bool = False
    wholly_in_enemy_deployment: bool = False
    near_centre_line: bool = False
    near_objective: bool = False
    touching_objective: bool = False
    within_3cm_of_objective: bool = False
    suppressed: bool = False


@dataclass(frozen=True)
class SideState:
    po: int
    models: tuple[ModelState, ...] = ()


@dataclass(frozen=True)
class TurnState:
    """Both sides at the end of `turn` (sides in the order of `Battle.sides`)."""

    turn: int
    sides: tuple[SideState, SideState]


@dataclass(frozen=True)
class BattleSide:
    """One player: roster snapshot as fielded, role, secret orders, own losses, PO ledger."""

    player: str
    roster: Roster
    role: Side
    start_po: int
    priority_order: int | None = None
    directives: tuple[int, ...] = ()
    casualties: tuple[Casualty, ...] = ()
    calls: tuple[Call, ...] = ()

    def eliminated(self, turn: int) -> list[str]:
        return [c.soldier_id for c in self.casualties if c.eliminated_at(turn)]


def turn_states(data) -> tuple[TurnState, ...]:
    """End-of-turn states from their JSON (`Battle.to_dict()["turns"]`)."""
    return tuple(
        TurnState(
            turn=t["turn"],
            sides=tuple(
                SideState(po=s["po"], models=tuple(ModelState(**m) for m in s["models"]))
                for s in t["sides"]
            ),
        )
        for t in data
    )


@dataclass(frozen=True)
class Battle:
    mode: Mode
    sides: tuple[BattleSide, BattleSide]
    turns: tuple[TurnState, ...] = ()
    terrain: Literal["free", "controlled"] = "controlled"
    notes: str = ""

    @property
    def final(self) -> TurnState:
        if not self.turns:
            raise RuleError(
                msg("record the positions at the end of the game to score it"), rule="9"
            )
        return self.turns[-1]

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        for side, raw_side in zip(self.sides, data["sides"], strict=True):
            raw_side["roster"] = side.roster.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Battle:
        sides = tuple(
            BattleSide(
                player=s["player"],
                roster=Roster.from_dict(s["roster"]),
                role=s["role"],
                start_po=s["start_po"],
                priority_order=s.get("priority_order"),
                directives=tuple(s.get("directives", ())),
                casualties=tuple(Casualty(**c) for c in s.get("casualties", ())),
                calls=tuple(Call(**c) for c in s.get("calls", ())),
            )
            for s in data["sides"]
        )
        turns = turn_states(data.get("turns", ()))
        return cls(
            mode=data["mode"],
            sides=sides,  # type: ignore[arg-type]
            turns=turns,
            terrain=data.get("terrain", "controlled"),
            notes=data.get("notes", ""),
        )


def validate_battle(battle: Battle) -> list[Violation]:
    """Every inconsistency of a battle record with §9 (roles, secret orders, turns, casualties)."""
    out: list[Violation] = []
    if sorted(s.role for s in battle.sides) != ["attacker", "defender"]:
        out.append(Violation("9.1", "roles", "one player is ATTACKER and the other DEFENDER"))
    orders = [s.priority_order for s in battle.sides]
    if battle.mode == "orders":
        if any(o not in PRIORITY_ORDERS for o in orders) or orders[0] == orders[1]:
            out.append(
                Violation("9.2", "priority", "each player draws a different priority order 1-3")
            )
        for s in battle.sides:
            if len(set(s.directives)) != DIRECTIVES_CHOSEN or not set(s.directives) <= set(
                DIRECTIVES
            ):
                out.append(
                    Violation(
                        "9.2", "directives", f"{s.player} must choose 2 different directives 1-6"
                    )
                )
    elif any(orders) or any(s.directives for s in battle.sides):
        out.append(
            Violation(
                "9",
                "orders",
                f"priority orders and directives belong to the orders game, not {battle.mode}",
            )
        )
    numbers = [t.turn for t in battle.turns]
    if numbers != sorted(set(numbers)) or any(not 1 <= n <= TURNS for n in numbers):
        out.append(
            Violation("4", "turns", f"turn states must be for distinct turns 1-{TURNS}, in order")
        )
    for s in battle.sides:
        ids = {x.id for x in s.roster.soldiers}
        dead = [c.soldier_id for c in s.casualties]
        for sid in dead:
            if sid not in ids:
                out.append(Violation("9", "casualty", f"{s.player} has no soldier {sid!r}", sid))
        if len(dead) != len(set(dead)):
            out.append(
                Violation("9", "casualty", f"{s.player}: a soldier is listed as a casualty twice")
            )
    return out


# ---------------------------------------------------------------------------------------------
# Setup: attacker / defender (§9.1.2) and the tactical phase (§4.1)


@dataclass
class RoleRoll:
    winner: int
    forced: Side | None
    explanation: Explanation


def roll_for_roles(nations: tuple[str, str], dice: DiceSource) -> RoleRoll:
    """Each player rolls 1D6, ties re-rolled; Italy adds +2 and, winning, must defend (§9.1.2)."""
    ex = Explanation()
    bonus = special_rule("defence_of_homeland")["role_roll_bonus"]
    while True:
        totals = []
        for i, code in enumerate(nations):
            r = dice.roll(
                "d6", purpose=msg("player %(n)s attacker/defender roll", n=i + 1), rule="9.1"
            )
            extra = bonus if code == "ITA" else 0
            totals.append(
                ex.add(
                    "9.1",
                    f"player {i + 1} ({code}) rolls" + (" +2 (Italy)" if extra else ""),
                    r.value + extra,
                    roll=r,
                )
            )
        if totals[0] != totals[1]:
            break
        ex.add("9.1", msg("tie: both roll again"))
    winner = 0 if totals[0] > totals[1] else 1
    forced: Side | None = "defender" if nations[winner] == "ITA" else None
    if forced:
        ex.add(
            "10 ITALIA (RSI)",
            msg("Defence of the homeland: the Italian winner must defend"),
            forced,
        )
    return RoleRoll(winner, forced, ex)


def assign_roles(roll: RoleRoll, choice: Side | None = None) -> tuple[Side, Side]:
    """The winner's choice of role; asks for it when missing and not forced."""
    pick = roll.forced or choice
    if choice and roll.forced and choice != roll.forced:
        raise RuleError(
            msg("an Italian player who wins the roll must be the defender"), rule="10 ITALIA (RSI)"
        )
    if pick is None:
        raise DecisionRequired(
            Decision(
                key="role",
                rule="9.1",
                prompt=msg("You won the roll: be ATTACKER or DEFENDER?"),
                options=("attacker", "defender"),
                chooser=f"player {roll.winner + 1}",
            )
        )
    other: Side = "defender" if pick == "attacker" else "attacker"
    return (pick, other) if roll.winner == 0 else (other, pick)


@dataclass
class TacticalResult:
    initiative: int
    po_gained: tuple[int, int]
    explanation: Explanation


def tactical_phase(
    blue: tuple[int, int], *, turn: int, attacker: int, previous_holder: int | None = None
) -> TacticalResult:
    """Both players reveal 6 of their 10 tokens: more blue takes the initiative (tie: last
    turn's holder, the attacker on turn 1); each yellow gives 1 PO, 2 if the opponent chose
    no yellow ("¡Operativa inmediata!") (§4.1)."""
    ex = Explanation()
    low = TOKENS_CHOSEN - YELLOW_TOKENS
    if any(not low <= b <= BLUE_TOKENS for b in blue):
        raise RuleError(
            msg("6 tokens of 6 blue and 4 yellow: %(low)s to 6 blue", low=low), rule="4.1"
        )
    yellow = tuple(TOKENS_CHOSEN - b for b in blue)
    if blue[0] != blue[1]:
        holder = (
            ex.add(
                "4.1",
                msg("more blue tokens: initiative to the player shown"),
                1 if blue[0] > blue[1] else 2,
            )
            - 1
        )
    elif turn == 1:
        holder = (
            ex.add(
                "4.1",
                msg("tie on turn 1: initiative to the attacker, the player shown"),
                attacker + 1,
            )
            - 1
        )
    elif previous_holder is not None:
        holder = (
            ex.add(
                "4.1",
                msg("tie: last turn's holder keeps the initiative, the player shown"),
                previous_holder + 1,
            )
            - 1
        )
    else:
        raise RuleError(msg("a tie after turn 1 needs last turn's initiative holder"), rule="4.1")
    gained = []
    for i in (0, 1):
        each = 2 if yellow[i] and not yellow[1 - i] else 1
        text = (
            msg("yellow tokens ×2 (¡Operativa inmediata!)")
            if each == 2
            else msg("yellow tokens ×1")
        )
        gained.append(
            ex.add(
                "4.1",
                msg(
                    "player %(player)s: %(yellow)s %(text)s",
                    player=i + 1,
                    yellow=yellow[i],
                    text=text,
                ),
                yellow[i] * each,
            )
        )
    return TacticalResult(holder, (gained[0], gained[1]), ex)

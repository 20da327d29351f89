"""Reinforcements (§4.2, §7) and British bombardments (10 GRAN BRETAÑA).

`check_call` enforces the calling rules: one reinforcement (or anticipation) per turn, never
the same reinforcement in consecutive turns, one sniper per battle (two for US squads), enough
PO. The procedures then resolve artillery (radius by PO, 3D6 deviation, radio operator), the
light mortar, the STONK, the sniper shot and MG fire at will; area hits are resolved with
`evasion.resolve_fixed_evasions(bombardment.attack, targets, dice)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource, Distribution, RollRecord
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.data import special_rule, squad_type
from rules.parabellum.deviation import Deviation, DeviationDice, roll_deviation
from rules.parabellum.evasion import (
    ARTILLERY,
    LIGHT_MORTAR,
    SNIPER,
    STONK,
    EvasionResult,
    FixedEvasion,
    Target,
    fire_at_will,
    resolve_fixed_evasions,
)
from rules.parabellum.rolls import roll_3d6

CallKind = Literal["sniper", "artillery", "fire_at_will", "light_mortar", "anticipation"]
ARTILLERY_RADIUS_CM = {1: 6, 2: 9, 3: 12, 4: 15}
SNIPER_PO = 2
LIGHT_MORTAR_PO = 1
STONK_PO_EQUIVALENT = 4
RADIO_ONE_D6 = 15
RADIO_TWO_D6 = 9
SNIPER_SPLASH_CM = 3
GBR = "10 GRAN BRETAÑA"


@dataclass(frozen=True)
class Call:
    """One reinforcement call or anticipation in the PO ledger (`po` spent)."""

    turn: int
    kind: CallKind
    po: int

    @property
    def family(self) -> str:
        """The light mortar is an artillery reinforcement (10 GRAN BRETAÑA; DECISIONS D-11)."""
        return "artillery" if self.kind == "light_mortar" else self.kind


@dataclass(frozen=True)
class CallCheck:
    po_left: int
    explanation: Explanation


def call_cost(call: Call) -> int:
    fixed = {"sniper": SNIPER_PO, "light_mortar": LIGHT_MORTAR_PO}
    if call.kind in fixed:
        return fixed[call.kind]
    if call.kind == "artillery" and call.po not in ARTILLERY_RADIUS_CM:
        raise RuleError(msg("artillery costs 1, 2, 3 or 4 PO"), rule="7.2")
    if call.po < 1:
        raise RuleError(
            msg("%(support)s costs at least 1 PO", support=pbl.label(pbl.SUPPORTS, call.kind)),
            rule="7",
        )
    return call.po


def check_call(squad_id: str, previous: list[Call], call: Call, po_available: int) -> CallCheck:
    """Whether a squad may make `call` after its `previous` calls this battle; PO left after it."""
    rules = squad_type(squad_id).special_rules
    ex = Explanation()
    if call.kind == "light_mortar" and "light_mortar" not in rules:
        raise RuleError(msg("only British squads have the light mortar"), rule=GBR)
    if any(p.turn == call.turn for p in previous):
        raise RuleError(
            msg("one reinforcement or anticipation per turn (turn %(turn)s)", turn=call.turn),
            rule="4.2.2 B",
        )
    if call.kind != "anticipation" and any(
        p.turn == call.turn - 1 and p.family == call.family for p in previous
    ):
        raise RuleError(
            msg(
                "%(support)s was called on turn %(last)s; not again on turn %(turn)s",
                support=pbl.label(pbl.SUPPORTS, call.family),
                last=call.turn - 1,
                turn=call.turn,
            ),
            rule="7",
        )
    if call.kind == "sniper":
        allowed = special_rule("squad_sniper")["sniper_calls"] if "squad_sniper" in rules else 1
        used = sum(1 for p in previous if p.kind == "sniper")
        if used >= allowed:
            raise RuleError(
                msg("sniper shots per battle: %(allowed)s, all used", allowed=allowed), rule="7.1"
            )
        ex.add(
            "7.1",
            msg("sniper call %(call)s of %(allowed)s this battle", call=used + 1, allowed=allowed),
        )
    cost = ex.add(
        "7",
        msg("PO cost of %(support)s", support=pbl.label(pbl.SUPPORTS, call.kind)),
        call_cost(call),
    )
    if cost > po_available:
        raise RuleError(
            msg(
                "%(cost)s PO needed, %(po_available)s available",
                cost=cost,
                po_available=po_available,
            ),
            rule="4.2.2",
        )
    left = ex.add("4.2.2", msg("PO left"), po_available - cost)
    return CallCheck(left, ex)


@dataclass
class Bombardment:
    """A placed and deviated explosive marker, its radius and the evasion its hits require."""

    radius_cm: int
    deviation: Deviation
    attack: FixedEvasion
    explanation: Explanation
    radio_roll: RollRecord | None = None
    radio_odds: dict[DeviationDice, Fraction] = field(default_factory=dict)


def radio_technician_odds() -> dict[DeviationDice, Fraction]:
    d = Distribution.of("3d6")
    return {
        "1d6": d.p_at_least(RADIO_ONE_D6),
        "2d6": d.p(lambda v: RADIO_TWO_D6 <= v < RADIO_ONE_D6),
        "3d6": d.p_at_most(RADIO_TWO_D6 - 1),
    }


def artillery(po: int, dice: DiceSource, *, radio_operator: bool = False) -> Bombardment:
    """Artillery fire (§7.2): radius 6/9/12/15 cm for 1-4 PO; the marker, in LOS of any friend,
    deviates 3D6 cm (a triple: none). A radio operator that sees the marker and is not
    suppressed first rolls 3D6: 15+ → 1D6 cm, 9+ → 2D6 cm (§8.3.1)."""
    if po not in ARTILLERY_RADIUS_CM:
        raise RuleError(msg("artillery costs 1, 2, 3 or 4 PO"), rule="7.2")
    ex = Explanation()
    radius = ex.add("7.2", msg("%(po)s PO spent: radius in cm", po=po), ARTILLERY_RADIUS_CM[po])
    expr: DeviationDice = "3d6"
    radio = None
    if radio_operator:
        radio = roll_3d6(dice, purpose=msg("radio technician"), rule="8.3.1")
        expr = (
            "1d6"
            if radio.value >= RADIO_ONE_D6
            else "2d6"
            if radio.value >= RADIO_TWO_D6
            else "3d6"
        )
        ex.add("8.3.1", msg("radio technician: 15+ → 1D6, 9+ → 2D6, else 3D6"), expr, roll=radio)
    deviation = roll_deviation(expr, dice, rule="7.2", ex=ex)
    ex.add("7.2", msg("soldiers wholly or partly inside: suppressed, evade 9+ or eliminated"))
    return Bombardment(
        radius, deviation, ARTILLERY, ex, radio, radio_technician_odds() if radio_operator else {}
    )


def light_mortar(dice: DiceSource) -> Bombardment:
    """British light mortar: 1 PO artillery, 6 cm radius, 1D6+2 cm deviation, no radio (GBR)."""
    ex = Explanation()
    ex.add(GBR, msg("light mortar: 1 PO, radius 6 cm, deviation 1D6+2 cm"))
    return Bombardment(6, roll_deviation("1d6+2", dice, rule=GBR, ex=ex), LIGHT_MORTAR, ex)


def stonk(dice: DiceSource) -> Bombardment:
    """Free British preliminary bombardment before turn 1: as 4-PO artillery (radius 15 cm),
    affected soldiers evade 9+ or are suppressed; no radio operator (GBR)."""
    ex = Explanation()
    radius = ex.add(
        GBR, msg("STONK: as a 4 PO artillery call"), ARTILLERY_RADIUS_CM[STONK_PO_EQUIVALENT]
    )
    return Bombardment(radius, roll_deviation("3d6", dice, rule=GBR, ex=ex), STONK, ex)


@dataclass
class SupportFire:
    """Results of a sniper shot or MG fire at will: per-soldier evasions and PO cost."""

    po_cost: int
    evasions: list[EvasionResult]
    suppressed_without_roll: list[str]
    explanation: Explanation


def sniper_shot(target: Target, nearby: list[str], dice: DiceSource) -> SupportFire:
    """Sniper (2 PO, §7.1): any enemy in LOS of a friend, unlimited range; the target and the
    enemies within 3 cm are suppressed; the target evades 11+ or is eliminated."""
    ex = Explanation()
    ex.add(
        "7.1",
        f"sniper shot at {target.name}; suppressed within {SNIPER_SPLASH_CM} cm: "
        + (", ".join(nearby) or "nobody else"),
    )
    results = resolve_fixed_evasions(SNIPER, [target], dice)
    return SupportFire(SNIPER_PO, results, list(nearby), ex)


def mg_fire_at_will(
    targets: list[Target], dice: DiceSource, *, team_ready: bool, mg42: bool
) -> SupportFire:
    """MG fire at will (§7.3): needs the gunner with assistant, neither suppressed. One enemy in
    LOS and MG range plus any within 10 cm of it; 1 PO per soldier that rolls (an assisted
    MG costs 2 PO and both roll). 11+ (12+ for MG42) no effect, ≤6 eliminated, else suppressed."""
    if not team_ready:
        raise RuleError(
            msg("fire at will needs the MG gunner with assistant, neither suppressed"), rule="7.3"
        )
    if not targets:
        raise RuleError(msg("choose at least one enemy"), rule="7.3")
    ex = Explanation()
    attack = fire_at_will(mg42)
    cost = ex.add("7.3", msg("1 PO per soldier affected"), len(targets))
    ex.add("10 ALEMANIA" if mg42 else "7.3", msg("evasion needed (3D6)"), attack.needed)
    return SupportFire(cost, resolve_fixed_evasions(attack, targets, dice), [], ex)

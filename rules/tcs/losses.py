"""Step-loss allocation helpers [10.0.e–h, 24.1.d]."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.tcs.options import DEFAULT_OPTIONS, CarriedRounding, TcsOptions
from rules.tcs.rounding import round_std


@dataclass(frozen=True)
class LossTarget:
    """A unit in the target hex with its remaining steps."""

    id: str
    steps: int
    carried_on_transport: bool = False


@dataclass
class AreaLossSplit:
    """Who assigns which steps of an area-fire result [10.0.f]."""

    total: int
    first_step: str | None
    defender_steps: int
    attacker_steps: int
    explanation: Explanation = field(default_factory=Explanation)


def _eligible(targets: Sequence[LossTarget]) -> dict[str, int]:
    return {t.id: t.steps for t in targets if not t.carried_on_transport and t.steps > 0}


def split_area_losses(
    losses: int, targets: Sequence[LossTarget], *, first_step_choice: str | None = None
) -> AreaLossSplit:
    """The first step comes from the largest eligible unit (by remaining steps; the
    defender breaks ties); the defender assigns half the rest, rounded normally, and the
    attacker the others [10.0.f]. Losses beyond the eligible steps are ignored [10.0.e].
    In an assault, pass only the stack being fired on."""
    exp = Explanation()
    eligible = _eligible(targets)
    skipped = [t.id for t in targets if t.carried_on_transport]
    if skipped:
        exp.add(
            "10.0.f",
            msg("carried on a transport, not eligible: %(units)s", units=", ".join(skipped)),
        )
    total = min(losses, sum(eligible.values()))
    if total < losses:
        exp.add("10.0.e", msg("%(n)s excess step losses ignored", n=losses - total), total)
    if total == 0:
        return AreaLossSplit(0, None, 0, 0, exp)
    most = max(eligible.values())
    largest = tuple(u for u, s in eligible.items() if s == most)
    if len(largest) > 1 and first_step_choice not in largest:
        raise DecisionRequired(
            Decision(
                "first_step",
                "10.0.f",
                msg(
                    "units tie as largest (%(most)s steps): choose which loses the first step",
                    most=most,
                ),
                largest,
                chooser="defender",
            )
        )
    first = largest[0] if len(largest) == 1 else first_step_choice
    exp.add("10.0.f", msg("first step from the largest unit"), first)
    rest = total - 1
    defender = round_std(Fraction(rest, 2))
    exp.add(
        "10.0.f", msg("defender assigns half of %(rest)s, rounded normally", rest=rest), defender
    )
    exp.add("10.0.f", msg("attacker assigns the rest"), rest - defender)
    return AreaLossSplit(total, first, defender, rest - defender, exp)


@dataclass
class Allocation:
    losses: dict[str, int]
    eliminated: tuple[str, ...]
    explanation: Explanation = field(default_factory=Explanation)


def allocate_area_losses(
    split: AreaLossSplit,
    targets: Sequence[LossTarget],
    defender: Mapping[str, int],
    attacker: Mapping[str, int],
) -> Allocation:
    """Check both players' assignments against the split and total them per unit [10.0.f]."""
    exp = Explanation()
    eligible = _eligible(targets)
    for side, picks, due in (
        ("defender", defender, split.defender_steps),
        ("attacker", attacker, split.attacker_steps),
    ):
        if sum(picks.values()) != due or any(n < 0 for n in picks.values()):
            raise RuleError(
                msg("the %(side)s assigns exactly %(due)s steps", side=side, due=due), rule="10.0.f"
            )
        if not set(picks) <= set(eligible):
            raise RuleError(
                msg("the %(side)s assigns steps to an ineligible unit", side=side), rule="10.0.f"
            )
    losses = {u: defender.get(u, 0) + attacker.get(u, 0) for u in eligible}
    if split.first_step is not None:
        losses[split.first_step] += 1
    for unit, n in losses.items():
        if n > eligible[unit]:
            raise RuleError(
                msg("%(unit)s has only %(n)s steps", unit=unit, n=eligible[unit]), rule="10.0.d"
            )
    losses = {u: n for u, n in losses.items() if n}
    eliminated = tuple(u for u, n in losses.items() if n == eligible[u])
    exp.add("10.0.f", msg("steps lost per unit"), losses)
    if eliminated:
        exp.add("10.0.c", msg("eliminated"), eliminated)
    return Allocation(losses, eliminated, exp)


@dataclass
class CarriedLosses:
    steps: int
    explanation: Explanation = field(default_factory=Explanation)


def carried_step_losses(
    carrier_steps: int,
    carrier_lost: int,
    carried_steps: int,
    options: TcsOptions = DEFAULT_OPTIONS,
) -> CarriedLosses:
    """Carried units lose the carrier's proportion of their steps [10.0.g]; a destroyed
    carrier destroys them all [24.1.d]. Allocate the result by 10.0.f; no morale check."""
    exp = Explanation()
    if not 0 <= carrier_lost <= carrier_steps or carrier_steps < 1 or carried_steps < 0:
        raise RuleError(msg("a carrier loses at most its remaining steps"), rule="10.0.g")
    share = Fraction(carried_steps * carrier_lost, carrier_steps)
    up = options.carried_rounding is CarriedRounding.UP
    steps = math.ceil(share) if up else round_std(share)
    text = f"{carried_steps} carried steps × {carrier_lost}/{carrier_steps}"
    exp.add(
        "10.0.g",
        msg(
            "%(text)s, rounded %(carried_rounding)s",
            text=text,
            carried_rounding=options.carried_rounding.value,
        ),
        steps,
    )
    return CarriedLosses(steps, exp)


@dataclass
class PointFireAllocation:
    picks: list[tuple[str, str]]
    losses: dict[str, int]
    explanation: Explanation = field(default_factory=Explanation)


def allocate_point_fire(
    kills: int, targets: Sequence[LossTarget], picks: Sequence[str] = ()
) -> PointFireAllocation:
    """Players alternately remove one step at a time from the selected targets, the firing
    player first [10.0.h]; excess kills are ignored [10.0.e]. Raises `DecisionRequired` for
    the next pick while `picks` is short."""
    exp = Explanation()
    left = {t.id: t.steps for t in targets if t.steps > 0}
    total = min(kills, sum(left.values()))
    if len(picks) > total:
        raise RuleError(msg("only %(total)s steps are removed", total=total), rule="10.0.h")
    done = []
    for i, unit in enumerate([*picks, None][:total]):
        chooser = "firer" if i % 2 == 0 else "target owner"
        if unit is None:
            raise DecisionRequired(
                Decision(
                    f"point_fire_pick:{i + 1}",
                    "10.0.h",
                    msg(
                        "step %(v)s of %(total)s: choose a target step to remove",
                        v=i + 1,
                        total=total,
                    ),
                    tuple(u for u, s in left.items() if s),
                    chooser=chooser,
                )
            )
        if left.get(unit, 0) < 1:
            raise RuleError(msg("%(unit)s has no step left to remove", unit=unit), rule="10.0.h")
        left[unit] -= 1
        done.append((chooser, unit))
        exp.add(
            "10.0.h",
            msg("%(chooser)s removes a step of %(unit)s", chooser=chooser, unit=unit),
            i + 1,
        )
    losses: dict[str, int] = {}
    for _, unit in done:
        losses[unit] = losses.get(unit, 0) + 1
    return PointFireAllocation(done, losses, exp)

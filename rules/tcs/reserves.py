"""Reserves, alternatives and the check die roll [6.14.b, 6.14.c, 6.14.d]."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, Explanation
from rules.i18n import Msg, msg
from rules.tcs import labels
from rules.tcs.opsheet import CheckGroup, OpSheet, OpSheetType, SheetResult, SheetStatus

RESERVE_ORDERS = (OpSheetType.ATTACK, OpSheetType.HASTY_DEFENSE, OpSheetType.MOVE)


@dataclass
class CheckResult:
    success: bool
    roll: RollRecord
    explanation: Explanation = field(default_factory=Explanation)


def check_roll(rating: int, dice: DiceSource, *, purpose: str | Msg) -> CheckResult:
    """1d6 ≥ Command Prep rating succeeds; a rating of 7 or more never can [6.14.d]."""
    exp = Explanation()
    roll = dice.roll("d6", purpose=purpose, rule="6.14.d")
    success = roll.value >= rating
    exp.add(
        "6.14.d",
        msg("check roll %(roll)s against rating %(rating)s", roll=roll.value, rating=rating),
        success,
        roll=roll,
    )
    return CheckResult(success, roll, exp)


def _usable(sheet: OpSheet, rating: int, rule: str) -> None:
    if rating >= 7:
        raise RuleError(
            msg("rating %(rating)s can never pass a check roll", rating=rating), rule="6.14.d"
        )
    if sheet.status is not SheetStatus.IMPLEMENTED:
        raise RuleError(
            msg(
                "%(id)s is %(status)s, not implemented",
                id=sheet.id,
                status=labels.sheet_state(sheet.status),
            ),
            rule=rule,
        )


def _new_group(sheet: OpSheet, group: CheckGroup, rule: str) -> None:
    if not group.id or any(g.id == group.id for g in sheet.check_groups):
        raise RuleError(msg("a check group needs a new, unique id"), rule=rule)
    sheet.check_groups.append(group)


def commit_reserves(
    sheet: OpSheet, group_id: str, units: Iterable[str], order: OpSheetType, *, rating: int
) -> SheetResult:
    """Commit reserves as a group with one order; they stop counting as reserves at once
    but stay unassigned until their check roll passes [6.14.b]."""
    exp = Explanation()
    _usable(sheet, rating, "6.14.b")
    units = tuple(units)
    if order not in RESERVE_ORDERS:
        raise RuleError(msg("committed reserves get Attack, Hasty Defense or Move"), rule="6.14.b")
    free = set(sheet.uncommitted_reserves)
    if not units or not set(units) <= free or len(set(units)) != len(units):
        raise RuleError(
            msg("commit some of the uncommitted reserves %(units)s", units=", ".join(sorted(free))),
            rule="6.14.b",
        )
    _new_group(sheet, CheckGroup(group_id, units, order=order), "6.14.b")
    exp.add(
        "6.14.b",
        msg(
            "%(id)s: reserves %(v)s committed (%(order)s)",
            id=sheet.id,
            v=", ".join(units),
            order=order.value,
        ),
    )
    return SheetResult(sheet, units, explanation=exp)


def choose_alternative(sheet: OpSheet, alternative: str, *, rating: int) -> SheetResult:
    """Start choosing an alternative drawn on the sheet; irreversible [6.14.c]."""
    exp = Explanation()
    _usable(sheet, rating, "6.14.c")
    if alternative not in sheet.alternatives:
        raise RuleError(
            msg("%(id)s has no alternative %(alternative)s", id=sheet.id, alternative=alternative),
            rule="6.14.c",
        )
    if any(g.alternative == alternative for g in sheet.check_groups):
        raise RuleError(
            msg("alternative %(alternative)s is already chosen", alternative=alternative),
            rule="6.14.c",
        )
    units = sheet.alternatives[alternative]
    _new_group(sheet, CheckGroup(f"alt:{alternative}", units, alternative=alternative), "6.14.c")
    exp.add(
        "6.14.c",
        msg("%(id)s: choosing alternative %(alternative)s", id=sheet.id, alternative=alternative),
        units,
    )
    return SheetResult(sheet, units, explanation=exp)


def roll_check(sheet: OpSheet, group_id: str, *, rating: int, dice: DiceSource) -> CheckResult:
    """Command Phase step 4: a pending group's check roll, each phase until it passes
    [6.14.d]. Passed reserves take their order; a passed alternative is in force."""
    group = next((g for g in sheet.check_groups if g.id == group_id), None)
    if group is None or group.passed:
        raise RuleError(
            msg("%(id)s has no pending check group %(group_id)s", id=sheet.id, group_id=group_id),
            rule="6.14.d",
        )
    _usable(sheet, rating, "6.14.d")
    result = check_roll(
        rating,
        dice,
        purpose=msg("check roll for %(sheet)s/%(group)s", sheet=sheet.id, group=group_id),
    )
    group.rolls.append(result.roll)
    if result.success:
        group.passed = True
        if group.order is not None:
            for unit in group.units:
                entry = sheet.active(unit)
                if entry is not None:
                    entry.mission = group.order
            result.explanation.add(
                "6.14.b", msg("reserves %(group_id)s assigned", group_id=group_id), group.order
            )
        else:
            result.explanation.add(
                "6.14.c", msg("alternative %(alternative)s in force", alternative=group.alternative)
            )
    return result


def forced_commitment(sheet: OpSheet) -> Decision | None:
    """More than half the sheet's units uncommitted reserves in a Command Phase: commit
    enough to bring them to 50 % or less [6.14.b]. None when nothing is forced."""
    if sheet.status is not SheetStatus.IMPLEMENTED:
        return None
    units = len(sheet.active_units)
    reserves = sheet.uncommitted_reserves
    if 2 * len(reserves) <= units:
        return None
    need = len(reserves) - units // 2
    return Decision(
        f"commit:{sheet.id}",
        "6.14.b",
        msg(
            "%(v)s of %(units)s units on %(id)s are uncommitted reserves: commit at least %(need)s",
            v=len(reserves),
            units=units,
            id=sheet.id,
            need=need,
        ),
        tuple(reserves),
    )

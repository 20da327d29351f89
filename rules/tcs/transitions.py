"""Op sheet transitions [6.10–6.13]: implementing and starting preliminary instructions (the
units leave older sheets), success and failure wholly or per unit, striking units, and a
destroyed unit leaving every sheet."""

from __future__ import annotations

from collections.abc import Iterable

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.tcs import labels
from rules.tcs.clock import Phase
from rules.tcs.opsheet import EntryStatus, OpSheet, SheetResult, SheetStatus


def release_elsewhere(
    units: Iterable[str], sheet_id: str, sheets: Iterable[OpSheet], explanation: Explanation
) -> dict[str, tuple[str, ...]]:
    """Strike units from older implemented sheets [6.10.a, 6.13.a] and from closed sheets
    whose rally points they kept [6.11.a, 6.12.b], when a sheet implements or its
    preliminary instructions start."""
    units = set(units)
    holding = (EntryStatus.ACTIVE, EntryStatus.SUCCEEDED, EntryStatus.FAILED)
    released: dict[str, tuple[str, ...]] = {}
    for other in sheets:
        if other.id == sheet_id or other.status.in_prep:
            continue
        struck = []
        for entry in other.entries:
            if entry.unit in units and entry.status in holding:
                entry.status = EntryStatus.REASSIGNED
                struck.append(entry.unit)
        if struck:
            released[other.id] = tuple(struck)
            explanation.add(
                "6.10.a", msg("struck from %(id)s: %(units)s", id=other.id, units=", ".join(struck))
            )
    return released


def implement(sheet: OpSheet, sheets: Iterable[OpSheet], explanation: Explanation) -> SheetResult:
    """The sheet implements [6.10]: its units leave older sheets [6.10.a]."""
    if not sheet.status.in_prep:
        raise RuleError(
            msg(
                "%(id)s is %(status)s, not in Command Prep", id=sheet.id, status=sheet.status.value
            ),
            rule="6.10",
        )
    sheet.status = SheetStatus.IMPLEMENTED
    explanation.add("6.10", msg("%(id)s implemented", id=sheet.id), sheet.status.value)
    released = release_elsewhere(sheet.active_units, sheet.id, sheets, explanation)
    return SheetResult(sheet, tuple(sheet.active_units), released, explanation=explanation)


def start_prelims(
    sheet: OpSheet, sheets: Iterable[OpSheet], explanation: Explanation
) -> SheetResult:
    """Preliminary instructions start [6.14.a]: failure instructions and rally points become
    active [6.5.c, 6.12.a] and the units leave older implemented sheets [6.13.a]."""
    if sheet.status is not SheetStatus.UNIMPLEMENTED:
        raise RuleError(
            msg("%(id)s is %(status)s", id=sheet.id, status=labels.sheet_state(sheet.status)),
            rule="6.14.a",
        )
    sheet.status = SheetStatus.PRELIMS_ACTIVE
    explanation.add(
        "6.14.a", msg("%(id)s: preliminary instructions start", id=sheet.id), sheet.status.value
    )
    released = release_elsewhere(sheet.active_units, sheet.id, sheets, explanation)
    return SheetResult(sheet, tuple(sheet.active_units), released, explanation=explanation)


def _close(
    sheet: OpSheet, units: Iterable[str] | None, outcome: EntryStatus, rule: str
) -> SheetResult:
    exp = Explanation()
    if sheet.status is not SheetStatus.IMPLEMENTED:
        raise RuleError(
            msg(
                "%(id)s is %(status)s, not implemented",
                id=sheet.id,
                status=labels.sheet_state(sheet.status),
            ),
            rule=rule,
        )
    chosen = list(sheet.active_units if units is None else units)
    if not chosen:
        raise RuleError(msg("name at least one unit"), rule=rule)
    for unit in chosen:
        entry = sheet.active(unit)
        if entry is None:
            raise RuleError(
                msg("%(unit)s is not active on %(id)s", unit=unit, id=sheet.id), rule=rule
            )
        entry.status = outcome
    word = outcome.value
    exp.add(
        rule,
        msg(
            "%(id)s: %(units)s %(word)s; now unassigned",
            id=sheet.id,
            units=", ".join(chosen),
            word=labels.entry_state(word),
        ),
        tuple(chosen),
    )
    if not sheet.active_units:
        sheet.status = SheetStatus(word)
        sheet.additions = [a for a in sheet.additions if not a.status.in_prep]
        exp.add(
            rule,
            msg("%(id)s %(word)s", id=sheet.id, word=labels.entry_state(word)),
            sheet.status.value,
        )
    return SheetResult(sheet, tuple(chosen), explanation=exp)


def declare_success(
    sheet: OpSheet, phase: Phase, units: Iterable[str] | None = None
) -> SheetResult:
    """Declare the sheet, or some of its units, succeeded: only in the Command Phase
    [6.11.a, 6.13.a; ambiguity 19]. Units keep their rally point until reassigned."""
    rule = "6.11.a" if units is None else "6.13.a"
    if phase is not Phase.COMMAND:
        raise RuleError(msg("success is declared in the Command Phase"), rule=rule)
    return _close(sheet, units, EntryStatus.SUCCEEDED, rule)


def declare_failure(
    sheet: OpSheet, phase: Phase, units: Iterable[str] | None = None
) -> SheetResult:
    """Declare the sheet, or some of its units, failed: in any of the player's own Action
    Phases [6.11.b, 6.11.d, 6.13.a; ambiguity 19]. They execute failure instructions."""
    rule = "6.11.b" if units is None else "6.11.d"
    if phase is not Phase.OWN_ACTION:
        raise RuleError(msg("failure is declared in the player's own Action Phase"), rule=rule)
    return _close(sheet, units, EntryStatus.FAILED, rule)


def fail_units(units: Iterable[str], sheets: Iterable[OpSheet]) -> list[SheetResult]:
    """A failed vehicle morale check: the units leave every implemented sheet, failing, at
    once in any phase [17.8.c]; unimplemented sheets keep them (ambiguity 7)."""
    units = set(units)
    results = []
    for sheet in sheets:
        if sheet.status is SheetStatus.IMPLEMENTED:
            hit = [u for u in sheet.active_units if u in units]
            if hit:
                results.append(_close(sheet, hit, EntryStatus.FAILED, "17.8.c"))
    return results


def strike_units(sheet: OpSheet, units: Iterable[str]) -> SheetResult:
    """Strike units from an unimplemented sheet; size and weighted turns stay [6.13.b]."""
    exp = Explanation()
    if not sheet.status.in_prep:
        raise RuleError(
            msg("%(id)s is %(status)s", id=sheet.id, status=labels.sheet_state(sheet.status)),
            rule="6.13.b",
        )
    chosen = list(units)
    for unit in chosen:
        entry = sheet.active(unit)
        if entry is None:
            raise RuleError(
                msg("%(unit)s is not active on %(id)s", unit=unit, id=sheet.id), rule="6.13.b"
            )
        entry.status = EntryStatus.STRUCK
    exp.add(
        "6.13.b",
        msg("struck from %(id)s; size stays %(size)s", id=sheet.id, size=sheet.size),
        tuple(chosen),
    )
    return SheetResult(sheet, tuple(chosen), explanation=exp)


def eliminate(unit: str, sheets: Iterable[OpSheet]) -> None:
    """A destroyed unit leaves every sheet and pending addition."""
    for sheet in sheets:
        entry = sheet.entry(unit)
        if entry is not None and entry.status is EntryStatus.ACTIVE:
            entry.status = EntryStatus.ELIMINATED
        for addition in sheet.pending_additions:
            addition.missions.pop(unit, None)


def may_enter(units: Iterable[str], sheets: Iterable[OpSheet]) -> Explanation:
    """Reinforcements enter the map only when on an implemented sheet or executing
    preliminary instructions [6.13.e, 27.2.b]; refused naming every unit that is not."""
    sheets = list(sheets)
    exp = Explanation()
    refused = []
    for unit in units:
        holder = next(
            (
                s
                for s in sheets
                if s.active(unit) is not None
                and s.status in (SheetStatus.IMPLEMENTED, SheetStatus.PRELIMS_ACTIVE)
            ),
            None,
        )
        if holder is None:
            refused.append(unit)
            continue
        exp.add(
            "27.2.b",
            msg(
                "%(unit)s may enter: %(id)s is %(status)s",
                unit=unit,
                id=holder.id,
                status=labels.sheet_state(holder.status),
            ),
        )
    if refused:
        raise RuleError(
            msg(
                "%(units)s may not enter the map: not on an implemented op sheet nor executing "
                "preliminary instructions",
                units=", ".join(refused),
            ),
            rule="27.2.b",
        )
    return exp

"""One side as the engine sees it (order of battle, op sheets), written back after a step,
and the frame every Command Phase step runs in."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Side
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsFormation, TcsSide, TcsUnit
from campaigns.services.tcs.common import locked, log_explanation, may_act
from campaigns.tcs.state import current_turn
from rules.explain import Explanation
from rules.tcs.clock import Turn
from rules.tcs.command_prep import CommandPrepTable
from rules.tcs.opsheet import OpSheet
from rules.tcs.units import Formation, MoraleKind, OrderOfBattle, Unit, UnitCategory
from rules.tcs.vehicle_morale import VehicleMoraleTrack


@dataclass
class SideEngine:
    """One side's order of battle and op sheets as the engine sees them."""

    campaign: Campaign
    side: Side
    settings: TcsSide
    formations: dict[str, TcsFormation]
    units: dict[str, TcsUnit]
    records: list[OpSheetRecord]
    oob: OrderOfBattle
    sheets: dict[int, OpSheet]

    @property
    def sheet_list(self) -> list[OpSheet]:
        return list(self.sheets.values())

    @property
    def table(self) -> CommandPrepTable | None:
        return (
            CommandPrepTable.from_data(self.settings.prep_table)
            if self.settings.prep_table
            else None
        )

    def record(self, pk: int) -> OpSheetRecord:
        found = next((r for r in self.records if r.pk == pk), None)
        if found is None:
            raise ValidationError({"sheet": _("Choose one of this side's op sheets.")})
        return found

    def save_sheets(self, turn: int) -> None:
        for record in self.records:
            new = self.sheets[record.pk].to_dict()
            if new != record.state:
                record.state = new
                snapshot(record.history, turn, status=new["status"], wt=new["weighted_turns"])
                record.save(update_fields=["state", "history", "updated_at"])


def snapshot(history: list, turn: int, **values) -> None:
    """One timeline point per turn: the last one of the turn wins."""
    if history and history[-1].get("turn") == turn:
        history[-1].update(values)
    else:
        history.append({"turn": turn, **values})


def load_side(campaign: Campaign, side: Side) -> SideEngine:
    formations = {f.code: f for f in TcsFormation.objects.filter(side=side)}
    units = {u.code: u for u in TcsUnit.objects.filter(side=side).select_related("formation")}
    records = list(OpSheetRecord.objects.filter(side=side).order_by("created_at", "id"))
    settings, _created = TcsSide.objects.get_or_create(side=side)
    oob = OrderOfBattle.of(
        [Formation(f.code, MoraleKind(f.morale), f.is_battalion) for f in formations.values()],
        [
            Unit(u.code, UnitCategory(u.category), u.formation.code if u.formation else None)
            for u in units.values()
        ],
    )
    oob.eliminated = [u.code for u in units.values() if u.eliminated]
    sheets = {r.pk: OpSheet.from_dict(r.state) for r in records}
    return SideEngine(campaign, side, settings, formations, units, records, oob, sheets)


def vehicle_track(engine: SideEngine, formation: TcsFormation) -> VehicleMoraleTrack | None:
    total = sum(u.steps for u in engine.units.values() if u.formation_id == formation.pk)
    if total < 1:
        return None
    return VehicleMoraleTrack.from_dict(
        {**formation.state, "formation": formation.code, "total_steps": total}
    )


def track_state(track: VehicleMoraleTrack) -> dict[str, Any]:
    """What a vehicle formation stores of its track (the rest is recomputed on load)."""
    return {k: v for k, v in track.to_dict().items() if k not in ("formation", "total_steps")}


def save_formation(formation: TcsFormation, state: dict, turn: int, cause: str) -> None:
    formation.state = state
    snapshot(formation.history, turn, value=state.get("value", 0), cause=cause)
    formation.save(update_fields=["state", "history"])


# --- the Command Phase frame ----------------------------------------------------------------


def open_phase(phase: CommandPhase, actor) -> tuple[Campaign, CommandPhase, SideEngine, Turn]:
    """Lock, re-read the phase and check it is this turn's and still open."""
    campaign = locked(phase.campaign_id)
    phase = CommandPhase.objects.select_related("side").get(pk=phase.pk)
    may_act(campaign, actor, phase.side_id)
    turn = current_turn(campaign)
    if phase.status == CommandPhase.Status.COMPLETED:
        raise ValidationError(_("This Command Phase is completed."))
    if phase.turn != turn.number:
        raise ValidationError(_("This Command Phase belongs to an earlier turn."))
    return campaign, phase, load_side(campaign, phase.side), turn


def mark(phase: CommandPhase, key: str, value: Any) -> None:
    """Record what a step did in the phase (lists are appended to)."""
    steps = dict(phase.steps)
    if isinstance(value, list):
        steps[key] = [*steps.get(key, []), *value]
    else:
        steps[key] = value
    phase.steps = steps
    phase.save(update_fields=["steps"])


@dataclass
class PhaseStep:
    """A step of a side's Command Phase on one of its sheets, inside the lock."""

    campaign: Campaign
    phase: CommandPhase
    engine: SideEngine
    turn: Turn
    record: OpSheetRecord | None
    actor: Any

    @property
    def sheet(self) -> OpSheet:
        return self.engine.sheets[self.record.pk]

    def log(self, explanation: Explanation, tag: dict | None = None) -> None:
        """The explanation, private to the side, tagged with the sheet."""
        log_explanation(
            self.campaign,
            explanation,
            actor=self.actor,
            private_to=self.phase.side,
            tag=tag or {"sheet": self.record.pk},
            turn=self.turn.number,
        )

    def save(self, explanation: Explanation | None = None) -> None:
        """Write the sheets back, then log `explanation`."""
        self.engine.save_sheets(self.turn.number)
        if explanation is not None:
            self.log(explanation)


@contextmanager
def phase_step(
    phase: CommandPhase, actor, sheet: OpSheetRecord | None = None
) -> Iterator[PhaseStep]:
    with transaction.atomic():
        campaign, phase, engine, turn = open_phase(phase, actor)
        record = engine.record(sheet.pk) if sheet is not None else None
        yield PhaseStep(campaign, phase, engine, turn, record, actor)


def current_phase(campaign: Campaign, side_id: int) -> CommandPhase:
    """This turn's open Command Phase of the side; units are added to and struck from sheets
    only in it [6.13]."""
    turn = current_turn(campaign)
    phase = CommandPhase.objects.filter(
        campaign=campaign, side_id=side_id, turn=turn.number
    ).first()
    if phase is None or phase.status == CommandPhase.Status.COMPLETED:
        raise ValidationError(
            _(
                "Units are added to or struck from op sheets in your Command Phase (step 5) "
                "[6.13]: open this turn's Command Phase first."
            )
        )
    return phase

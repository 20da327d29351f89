"""Reads for TCS operations, filtered by who may see a side's secrets [1.5].

Each function costs a fixed number of queries however many sheets, units and turns there
are (the tests assert it). Nothing here returns another side's op sheet, task organisation
or morale unless the sheet was revealed or the operation is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from campaigns.models import Campaign, Side
from campaigns.models.tcs import (
    CommandPhase,
    OpSheetRecord,
    TcsDecision,
    TcsFormation,
    TcsSide,
    TcsUnit,
)
from campaigns.permissions import Viewer, can_act_for_side, can_see_tcs_secret
from rules.tcs.clock import Turn


def is_finished(campaign: Campaign) -> bool:
    return campaign.status in (Campaign.Status.FINISHED, Campaign.Status.ABANDONED)


def visible_side_ids(campaign: Campaign, viewer: Viewer, sides: list[Side]) -> set[int]:
    finished = is_finished(campaign)
    return {s.pk for s in sides if can_see_tcs_secret(viewer, s.pk, finished=finished)}


def visible_sheets(campaign: Campaign, viewer: Viewer) -> QuerySet[OpSheetRecord]:
    """The op sheets this viewer may read: their own side's, revealed ones, all once over."""
    qs = OpSheetRecord.objects.filter(campaign=campaign).select_related("side")
    if is_finished(campaign) or viewer.is_gm:
        return qs
    return qs.filter(Q(side_id__in=viewer.side_ids) | Q(revealed_at__isnull=False))


def sheet_for(campaign: Campaign, viewer: Viewer, pk: int) -> OpSheetRecord | None:
    return visible_sheets(campaign, viewer).filter(pk=pk).first()


@dataclass
class FormationView:
    formation: TcsFormation
    units: list[TcsUnit] = field(default_factory=list)

    @property
    def boxes(self) -> list[dict[str, Any]]:
        """The vehicle track's boxes with the filled ones marked."""
        filled = self.formation.state.get("filled", 0)
        return [
            {**b, "filled": i < filled} for i, b in enumerate(self.formation.state.get("boxes", []))
        ]


@dataclass
class SideView:
    side: Side
    settings: TcsSide | None
    can_see: bool
    can_act: bool
    formations: list[FormationView] = field(default_factory=list)
    loose_units: list[TcsUnit] = field(default_factory=list)
    sheets: list[OpSheetRecord] = field(default_factory=list)
    phase: CommandPhase | None = None

    @property
    def unit_count(self) -> int:
        return sum(len(f.units) for f in self.formations) + len(self.loose_units)


@dataclass
class OperationView:
    campaign: Campaign
    turn: Turn
    sides: list[SideView]
    finished: bool

    @property
    def started(self) -> bool:
        return self.campaign.status != Campaign.Status.SETUP

    @property
    def ready_to_advance(self) -> bool:
        return all(
            s.phase is not None and s.phase.status == CommandPhase.Status.COMPLETED
            for s in self.sides
        )


def tcs_operation(campaign: Campaign, viewer: Viewer) -> OperationView:
    """The operation page (5 queries beyond the campaign with its sides and seats)."""
    from campaigns.services.tcs import current_turn

    turn = current_turn(campaign)
    sides = list(campaign.sides.all())
    seen = visible_side_ids(campaign, viewer, sides)
    settings = {t.side_id: t for t in TcsSide.objects.filter(side__campaign=campaign)}
    formations = list(TcsFormation.objects.filter(campaign=campaign, side_id__in=seen))
    units = list(TcsUnit.objects.filter(campaign=campaign, side_id__in=seen))
    sheets = list(visible_sheets(campaign, viewer).order_by("created_at", "id"))
    phases = {
        p.side_id: p for p in CommandPhase.objects.filter(campaign=campaign, turn=turn.number)
    }
    views = []
    for side in sides:
        fviews = {f.pk: FormationView(f) for f in formations if f.side_id == side.pk}
        loose = []
        for unit in units:
            if unit.side_id != side.pk:
                continue
            if unit.formation_id in fviews:
                fviews[unit.formation_id].units.append(unit)
            else:
                loose.append(unit)
        views.append(
            SideView(
                side=side,
                settings=settings.get(side.pk),
                can_see=side.pk in seen,
                can_act=can_act_for_side(viewer, side.pk) and not is_finished(campaign),
                formations=list(fviews.values()),
                loose_units=loose,
                sheets=[s for s in sheets if s.side_id == side.pk],
                phase=phases.get(side.pk),
            )
        )
    return OperationView(campaign, turn, views, is_finished(campaign))


def decisions_to_make(campaign: Campaign, viewer: Viewer) -> int:
    """How many choices [17.1.c] wait for a side this viewer plays (or any, for a GM): one
    query, none when the viewer plays no side."""
    if not (viewer.is_gm or viewer.side_ids):
        return 0
    qs = TcsDecision.objects.filter(campaign=campaign, status=TcsDecision.Status.OPEN)
    return qs.count() if viewer.is_gm else qs.filter(chooser_id__in=viewer.side_ids).count()


def decisions_awaited(side: Side) -> list[TcsDecision]:
    """The side's losses waiting for the opponent's choice of battalion [17.1.c]."""
    return list(
        TcsDecision.objects.filter(side=side, status=TcsDecision.Status.OPEN).select_related("unit")
    )


@dataclass
class Timeline:
    turns: list[dict[str, Any]]
    sheets: list[OpSheetRecord]
    formations: list[TcsFormation]


def tcs_timeline(campaign: Campaign, viewer: Viewer) -> Timeline:
    """Turns played, the visible sheets' states and the visible morale over time
    (3 queries)."""
    sides = list(campaign.sides.all())
    seen = visible_side_ids(campaign, viewer, sides)
    phases = CommandPhase.objects.filter(campaign=campaign).order_by("turn", "side_id")
    turns: dict[int, dict[str, Any]] = {}
    for p in phases:
        turns.setdefault(p.turn, {"turn": p.turn, "clock": p.clock, "light": p.light})
    sheets = list(visible_sheets(campaign, viewer).order_by("side__order", "created_at", "id"))
    formations = list(
        TcsFormation.objects.filter(campaign=campaign, side_id__in=seen)
        .exclude(morale=TcsFormation.Morale.NONE)
        .select_related("side")
    )
    return Timeline([turns[k] for k in sorted(turns)], sheets, formations)


def api_sheets(user, campaign_ids: QuerySet | None = None) -> QuerySet[OpSheetRecord]:
    """Every op sheet the user may read across the campaigns they may see (for the API)."""
    from campaigns.permissions import visible_campaigns

    campaigns = visible_campaigns(user).filter(system="tcs")
    qs = OpSheetRecord.objects.filter(campaign__in=campaigns).select_related("side", "campaign")
    if not user.is_authenticated:
        return qs.filter(Q(revealed_at__isnull=False) | Q(campaign__status="finished"))
    return qs.filter(
        Q(revealed_at__isnull=False)
        | Q(campaign__status__in=["finished", "abandoned"])
        | Q(side__seats__user=user)
        | Q(campaign__game_masters=user)
    ).distinct()


def api_formations(user) -> QuerySet[TcsFormation]:
    """Formations (with morale) of the sides whose secrets the user may see."""
    from campaigns.permissions import visible_campaigns

    campaigns = visible_campaigns(user).filter(system="tcs")
    qs = TcsFormation.objects.filter(campaign__in=campaigns).select_related("side")
    if not user.is_authenticated:
        return qs.filter(campaign__status__in=["finished", "abandoned"])
    return (
        qs.filter(
            Q(campaign__status__in=["finished", "abandoned"])
            | Q(side__seats__user=user)
            | Q(campaign__game_masters=user)
        )
        .distinct()
        .prefetch_related("units")
    )

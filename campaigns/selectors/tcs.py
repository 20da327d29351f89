"""Reads for TCS operations, filtered by who may see a side's secrets [1.5].

Each function costs a fixed number of queries however many sheets, units and turns there
are (the tests assert it). Nothing here returns another side's op sheet, task organisation
or morale unless the sheet was revealed or the operation is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.models import Campaign, Side
from campaigns.models.tcs import (
    CommandPhase,
    OpSheetRecord,
    TcsDecision,
    TcsFormation,
    TcsSide,
    TcsUnit,
)
from campaigns.permissions import (
    Viewer,
    can_act_for_side,
    can_see_tcs_secret,
    visible_campaigns,
)
from campaigns.tcs.state import END_AGREED, blockers_for, current_turn
from rules.tcs.clock import Turn
from rules.tcs.opsheet import OpSheet


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


@dataclass(frozen=True)
class Waiting:
    """One thing the operation waits for: `who` must do `what` (side_id: that side's)."""

    who: str
    what: str
    side_id: int | None = None


def start_blockers(campaign: Campaign, viewer: Viewer) -> list[Waiting]:
    """Sheets that keep play from starting [27.1.f], one line per side (1 query): the codes
    of the sheets this viewer may see, a count of the others."""
    waiting = (
        OpSheetRecord.objects.filter(campaign=campaign)
        .exclude(state__status="implemented")
        .select_related("side")
        .order_by("side__order", "created_at", "id")
    )
    by_side: dict[int, list[OpSheetRecord]] = {}
    for sheet in waiting:
        by_side.setdefault(sheet.side_id, []).append(sheet)
    found = []
    for sheets in by_side.values():
        side = sheets[0].side
        if can_see_tcs_secret(viewer, side.pk, finished=is_finished(campaign)):
            what = _("delete the unimplemented op sheet(s) %(codes)s") % {
                "codes": ", ".join(s.code for s in sheets)
            }
        else:
            what = ngettext(
                "delete %(n)s unimplemented op sheet",
                "delete %(n)s unimplemented op sheets",
                len(sheets),
            ) % {"n": len(sheets)}
        found.append(Waiting(side.name, what, side.pk))
    return found


def operation_waiting(
    campaign: Campaign, viewer: Viewer, op: OperationView | None = None
) -> list[Waiting]:
    """What the operation waits for and from whom, as this viewer may know it: another
    side's op sheets and what its Command Phase still needs stay private [1.5]. Every line
    names an action someone can take (2 queries beyond `tcs_operation`)."""
    if is_finished(campaign):
        return []
    op = op or tcs_operation(campaign, viewer)
    found: list[Waiting] = []
    anyone = _("the organiser, a game master or any player")
    agreed = set(campaign.state.get(END_AGREED, []))
    if agreed:
        for sv in op.sides:
            if sv.side.pk not in agreed:
                found.append(
                    Waiting(
                        sv.side.name,
                        _("agree to end the operation, or the agreeing side withdraws"),
                        sv.side.pk,
                    )
                )
    if campaign.status == Campaign.Status.SETUP:
        found += [
            Waiting(w.who, w.what + " " + _("before play can start [27.1.f]"), w.side_id)
            for w in start_blockers(campaign, viewer)
        ]
        found.append(Waiting(anyone, _("start play at turn 1")))
    elif campaign.status == Campaign.Status.ACTIVE:
        for sv in op.sides:
            if sv.phase is None:
                what = _("open this turn's Command Phase")
            elif sv.phase.status == CommandPhase.Status.COMPLETED:
                continue
            elif sv.can_see:
                todo = blockers_for(
                    sv.phase.steps,
                    [OpSheet.from_dict(r.state) for r in sv.sheets],
                    [f.formation for f in sv.formations],
                    sv.settings.rating if sv.settings else 3,
                    campaign,
                )
                what = _("complete the Command Phase")
                if todo:
                    what += ": " + "; ".join(todo)
            else:
                what = _("complete the Command Phase")
            found.append(Waiting(sv.side.name, what, sv.side.pk))
        if op.ready_to_advance:
            found.append(Waiting(anyone, _("start the next turn")))
    if viewer.is_gm or viewer.side_ids:
        decisions = TcsDecision.objects.filter(
            campaign=campaign, status=TcsDecision.Status.OPEN
        ).select_related("chooser")
        if not viewer.is_gm:
            decisions = decisions.filter(
                Q(chooser_id__in=viewer.side_ids) | Q(side_id__in=viewer.side_ids)
            )
        for d in decisions:
            found.append(
                Waiting(
                    d.chooser.name,
                    _("choose which battalion a lost unit counts for [17.1.c]"),
                    d.chooser_id,
                )
            )
    return found


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

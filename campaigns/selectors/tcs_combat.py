"""Reads for the resolve panel: the fire results a side must apply, and the latest
procedures it may see (bounded: a fixed window, however long the operation runs).

Fire is public, as it is at the table; a morale check or a recovery belongs to the side that
made it [1.5], and so does what the target's owner did with a fire result (`applied`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from campaigns.models import Campaign, Side
from campaigns.models.tcs import TcsCombat, TcsUnit
from campaigns.permissions import Viewer

WINDOW = 10
FIRE_KINDS = ("area_fire", "point_fire", "at_rolls", "artillery")


def owner_of(combat: TcsCombat) -> int:
    """The side whose units a record's `applied` part concerns: a fire's target, else the
    side that made the check or the recovery."""
    return combat.target_side_id or combat.side_id


@dataclass(frozen=True)
class SeenCombat:
    combat: TcsCombat
    own: bool  # the viewer plays the side whose units it concerns

    @property
    def applied(self) -> dict:
        return self.combat.applied if self.own else {}


def to_apply(side: Side) -> list[TcsCombat]:
    """Fire results on this side's stacks still waiting for it (1 query, at most WINDOW)."""
    return list(
        TcsCombat.objects.filter(target_side=side, status=TcsCombat.Status.OPEN).order_by(
            "created_at", "id"
        )[:WINDOW]
    )


def recent(campaign: Campaign, viewer: Viewer, side: Side) -> list[SeenCombat]:
    """The latest procedures this side's page shows (1 query): every fire, and this side's
    own checks and recoveries."""
    rows = TcsCombat.objects.filter(campaign=campaign).filter(
        Q(kind__in=FIRE_KINDS) | Q(side=side)
    )[:WINDOW]
    mine = set(viewer.side_ids) | ({side.pk} if viewer.is_gm else set())
    return [SeenCombat(c, c.side_id in mine or (c.target_side_id in mine)) for c in rows]


def units_in_play(side: Side) -> list[TcsUnit]:
    """The side's units, for the stack pickers (its order of battle: bounded by set-up)."""
    return list(TcsUnit.objects.filter(side=side).select_related("formation"))

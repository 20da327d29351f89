"""Roster and skirmish reads, with a bounded number of queries however long the history."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext

from campaigns.models import (
    Campaign,
    Roster,
    RosterChange,
    SealedOrders,
    SkirmishBattle,
    SkirmishEvent,
    SkirmishSide,
    SkirmishUndo,
)
from campaigns.paging import Window, as_int, seek
from campaigns.permissions import is_neutral_gm, player_side, visible_campaigns_q
from rules.parabellum.battle import TURNS
from rules.ratings.charts import Series, line_chart

EVENTS_WINDOW = 40  # battle log entries per window, newest first


def rosters_for(user, *, archived: bool = False) -> QuerySet[Roster]:
    """A player's own rosters (1 query)."""
    return Roster.objects.filter(owner=user, archived_at__isnull=not archived).select_related(
        "campaign"
    )


def visible_rosters(user) -> QuerySet[Roster]:
    """Own rosters and those in campaigns the user may see."""
    campaigns = Campaign.objects.filter(visible_campaigns_q(user)).values("pk")
    q = Q(campaign__in=campaigns)
    if user.is_authenticated:
        q |= Q(owner=user)
    return Roster.objects.filter(q).select_related("owner", "campaign").distinct()


def roster_detail(pk: int) -> Roster:
    return Roster.objects.select_related("owner", "campaign").get(pk=pk)


def roster_history(roster: Roster) -> QuerySet[RosterChange]:
    """The history, newest first, with the actor and battle joined (1 query per page)."""
    return (
        RosterChange.objects.filter(roster=roster)
        .select_related("actor", "battle")
        .order_by("-seq")
    )


def roster_battles(roster: Roster) -> QuerySet[SkirmishBattle]:
    return SkirmishBattle.objects.filter(sides__roster=roster).order_by("-created_at").distinct()


def battles_for(user) -> QuerySet[SkirmishBattle]:
    ids = SkirmishSide.objects.filter(player=user).values("battle_id")
    return (
        SkirmishBattle.objects.filter(Q(pk__in=ids) | Q(created_by=user))
        .prefetch_related("sides__player")
        .order_by("-created_at")
        .distinct()
    )


def skirmish_detail(pk: int) -> SkirmishBattle:
    sides = SkirmishSide.objects.select_related("player", "roster__campaign").order_by("index")

    return (
        SkirmishBattle.objects.select_related("campaign", "created_by")
        .prefetch_related(Prefetch("sides", queryset=sides))
        .get(pk=pk)
    )


def visible_side_ids(user, battle: SkirmishBattle) -> set[int] | None:
    """Sides whose private data this user sees; None means every side (GM or revealed)."""
    if battle.revealed_at is not None or is_neutral_gm(user, battle):
        return None
    mine = player_side(user, battle)
    return {mine.pk} if mine else set()


def battle_events(user, battle: SkirmishBattle) -> QuerySet[SkirmishEvent]:
    """The battle log as this user may see it: another side's private entries are left out
    until the battle ends."""
    qs = SkirmishEvent.objects.filter(battle=battle).select_related("actor", "private_to")
    seen = visible_side_ids(user, battle)
    if seen is not None:
        qs = qs.filter(Q(private_to__isnull=True) | Q(private_to__in=seen))
    return qs.order_by("seq")


def battle_events_window(
    user, battle: SkirmishBattle, *, cursor: str | None = None, size: int = EVENTS_WINDOW
) -> Window:
    """A window of the battle log as this user may see it, newest first (one query); the
    cursor of the older window is sealed, so it says nothing of the writing order."""
    return seek(
        battle_events(user, battle),
        ("seq",),
        cursor=cursor,
        context=f"skirmish-log:{battle.pk}",
        size=size,
        parse=[as_int],
    )


def battle_orders(user, battle: SkirmishBattle) -> list[SealedOrders]:
    """Sealed orders this user may read (their own, or all once revealed / for a GM)."""
    seen = visible_side_ids(user, battle)
    qs = SealedOrders.objects.filter(side__battle=battle).select_related("side__player")
    if seen is not None:
        qs = qs.filter(side__in=seen)
    return list(qs.order_by("side__index"))


def sealed_status(battle: SkirmishBattle) -> dict[int, bool]:
    """Which sides have sealed their orders (no content): side index → sealed."""
    done = set(
        SealedOrders.objects.filter(side__battle=battle).values_list("side__index", flat=True)
    )
    return {i: i in done for i in (0, 1)}


def parabellum_turn_series(battle: SkirmishBattle, sides: list[SkirmishSide]) -> dict[str, Any]:
    """Each side's casualties and PO held at the end of each turn of a Parabellum battle (the
    game is `TURNS` turns long, so the chart never grows), with the rows of a text table.
    PO come from the recorded end-of-turn positions; a turn not recorded yet shows none."""
    po = {t["turn"]: [s.get("po") for s in t["sides"]] for t in battle.turns or []}
    rows, down = [], [0] * len(sides)
    for turn in range(1, TURNS + 1):
        for i, side in enumerate(sides):
            down[i] += sum(1 for c in side.casualties or [] if c.get("turn") == turn)
        held = po.get(turn)
        rows.append(
            {
                "turn": turn,
                "casualties": list(down),
                "po": held,
                "cells": [(down[i], held[i] if held else None) for i in range(len(sides))],
            }
        )
    players = [str(s.player) for s in sides]
    turn_label = gettext("Turn")
    return {
        "turn_rows": rows,
        "casualties_svg": line_chart(
            [
                Series(name, [(0, 0)] + [(r["turn"], r["casualties"][i]) for r in rows])
                for i, name in enumerate(players)
            ],
            title=gettext("Casualties by turn"),
            step=True,
            x_label=turn_label,
            y_label=gettext("Soldiers out of action"),
        ),
        "po_svg": line_chart(
            [
                Series(name, [(r["turn"], r["po"][i]) for r in rows if r["po"]])
                for i, name in enumerate(players)
            ],
            title=gettext("PO held at the end of each turn"),
            x_label=turn_label,
            y_label=gettext("PO"),
        )
        if po
        else "",
    }


def last_action_to_undo(user, battle: SkirmishBattle) -> SkirmishEvent | None:
    """The log entry of the battle's last action when this user may undo it (he made it and
    the battle is being played), else None."""
    if battle.status != SkirmishBattle.Status.PLAYING or not user.is_authenticated:
        return None
    undo = (
        SkirmishUndo.objects.filter(battle=battle, actor=user)
        .select_related("event__private_to")
        .first()
    )
    return undo.event if undo is not None else None

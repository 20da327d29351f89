"""What waits for a signed-in user ("your move"), and the live version of a page.

Each kind of thing waiting is one queryset (`_waiting`): the badge counts them all in one
query (a UNION ALL), the inbox page reads at most ``INBOX_ROWS`` rows of each. Only what is
the user's own is listed: a decision or sealed choice of a side they play, a TCS Command
Phase or choice of their side, their new seats, skirmishes naming them as opponent, results
they must confirm and disputes of clubs they organise. Nothing of another side's secrets.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from django.db.models import (
    CharField,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Campaign,
    ClubMembership,
    CommandPhase,
    Decision,
    GameSystem,
    LogEntry,
    NoticeSettings,
    Result,
    ResultPlayer,
    SealedOrders,
    Side,
    SidePlayer,
    SkirmishBattle,
    SkirmishCorrection,
    SkirmishEvent,
    SkirmishSide,
    TcsDecision,
)
from campaigns.permissions import Viewer
from campaigns.selectors.rosters import visible_side_ids

INBOX_ROWS = 20  # rows of each kind on the inbox page
SEAT_NEWS_DAYS = 30  # a seat is news for this long when the inbox was never opened


@dataclass(frozen=True)
class Item:
    """One thing waiting for the user: what to do, where, and the link that does it."""

    kind: str
    where: str
    what: str
    url: str
    when: dt.datetime
    campaign_id: int | None = None


# --- The querysets of what waits -----------------------------------------------------------


def _seen_at(user):
    """When the user last read the inbox (as an expression: no query of its own)."""
    seen = NoticeSettings.objects.filter(user=user).values("inbox_seen_at")[:1]
    return Coalesce(Subquery(seen), Value(timezone.now() - dt.timedelta(days=SEAT_NEWS_DAYS)))


def _decisions(user) -> QuerySet[Decision]:
    """Open CC decisions and sealed choices of a side the user plays (or of all the players,
    when the engine names no side)."""
    plays_chooser = SidePlayer.objects.filter(side=OuterRef("chooser"), user=user)
    plays_campaign = SidePlayer.objects.filter(side__campaign=OuterRef("campaign"), user=user)
    return Decision.objects.filter(status=Decision.Status.OPEN).filter(
        Exists(plays_chooser) | (Q(chooser__isnull=True) & Exists(plays_campaign))
    )


def _tcs_decisions(user) -> QuerySet[TcsDecision]:
    plays = SidePlayer.objects.filter(side=OuterRef("chooser"), user=user)
    return TcsDecision.objects.filter(Exists(plays), status=TcsDecision.Status.OPEN)


def _command_phases(user) -> QuerySet[Side]:
    """The user's sides in TCS operations in play whose Command Phase of the current turn
    (the operation state's turn) is not completed yet."""
    turn = Cast(
        KeyTextTransform("number", KeyTransform("turn", OuterRef("campaign__state"))),
        IntegerField(),
    )
    done = CommandPhase.objects.filter(
        side=OuterRef("pk"), turn=turn, status=CommandPhase.Status.COMPLETED
    )
    return Side.objects.filter(
        seats__user=user,
        campaign__system=GameSystem.TCS,
        campaign__status=Campaign.Status.ACTIVE,
    ).exclude(Exists(done))


def _seats(user, since) -> QuerySet[SidePlayer]:
    """Seats someone else gave the user since the inbox was last read."""
    return (
        SidePlayer.objects.filter(user=user, joined_at__gt=since)
        .exclude(side__campaign__created_by=user)
        .exclude(side__campaign__status__in=[Campaign.Status.FINISHED, Campaign.Status.ABANDONED])
    )


def _invitations(user) -> QuerySet[SkirmishSide]:
    """Skirmishes naming the user as opponent that they have not joined yet."""
    return SkirmishSide.objects.filter(
        player=user, roster__isnull=True, battle__status=SkirmishBattle.Status.SETUP
    ).exclude(battle__created_by=user)


def _results(user) -> QuerySet[Result]:
    """Results reported by an opponent that the user must confirm (or dispute)."""
    mine = ResultPlayer.objects.filter(result=OuterRef("pk"), user=user).values("team")[:1]
    reporter = ResultPlayer.objects.filter(
        result=OuterRef("pk"), user=OuterRef("entered_by")
    ).values("team")[:1]
    return (
        Result.objects.filter(status=Result.Status.REPORTED)
        .annotate(my_team=Subquery(mine), reporter_team=Subquery(reporter))
        .filter(my_team__isnull=False)
        .exclude(my_team=F("reporter_team"))
    )


def _disputes(user) -> QuerySet[Result]:
    organiser = ClubMembership.objects.filter(
        club=OuterRef("league__club"), user=user, role=ClubMembership.Role.ORGANISER
    )
    return Result.objects.filter(Exists(organiser), status=Result.Status.DISPUTED)


def _waiting(user) -> dict[str, QuerySet]:
    return {
        "decision": _decisions(user),
        "tcs_decision": _tcs_decisions(user),
        "command_phase": _command_phases(user),
        "seat": _seats(user, _seen_at(user)),
        "invitation": _invitations(user),
        "result": _results(user),
        "dispute": _disputes(user),
    }


# --- Reads ---------------------------------------------------------------------------------


# the campaign each kind of row belongs to (None: not a campaign's)
CAMPAIGN_OF = {
    "decision": "campaign_id",
    "tcs_decision": "campaign_id",
    "command_phase": "campaign_id",
    "seat": "side__campaign_id",
}


def _summary(user) -> QuerySet:
    """(kind, campaign id) of everything waiting, as one UNION ALL query."""
    parts = [
        qs.order_by().values_list(
            Value(kind, output_field=CharField()),
            F(CAMPAIGN_OF[kind]) if kind in CAMPAIGN_OF else Value(None, IntegerField()),
        )
        for kind, qs in _waiting(user).items()
    ]
    return parts[0].union(*parts[1:], all=True)


def inbox_count(user) -> int:
    """How many things wait for the user (1 query)."""
    return _summary(user).count() if user.is_authenticated else 0


def waiting_summary(user) -> tuple[int, set[int]]:
    """How many things wait for the user, and the campaigns where a decision, a choice or
    a Command Phase waits (for the home cards): 1 query."""
    rows = list(_summary(user))
    return len(rows), {c for kind, c in rows if c is not None and kind != "seat"}


def inbox_items(user) -> list[Item]:
    """Everything waiting for the user, newest first (a fixed number of queries, at most
    ``INBOX_ROWS`` rows of each kind)."""
    qs = _waiting(user)
    items: list[Item] = []
    for d in qs["decision"].select_related("campaign", "battle", "chooser")[:INBOX_ROWS]:
        what = _("Your sealed choice") if d.sealed else _("Your decision")
        items.append(
            Item(
                "decision",
                d.campaign.name,
                f"{what}: {d.prompt_text}",
                d.campaign.get_absolute_url() + "#dashboard",
                d.created_at,
                d.campaign_id,
            )
        )
    for d in qs["tcs_decision"].select_related("campaign", "unit")[:INBOX_ROWS]:
        items.append(
            Item(
                "tcs_decision",
                d.campaign.name,
                _("Choose which battalion a lost unit counts for [17.1.c]"),
                reverse("tcs-operation", args=[d.campaign_id]),
                d.created_at,
                d.campaign_id,
            )
        )
    for side in qs["command_phase"].select_related("campaign")[:INBOX_ROWS]:
        turn = (side.campaign.state.get("turn") or {}).get("number", 0)
        items.append(
            Item(
                "command_phase",
                side.campaign.name,
                _("%(side)s: complete the Command Phase of turn %(n)s")
                % {"side": side.name, "n": turn},
                reverse("tcs-operation", args=[side.campaign_id]),
                side.campaign.updated_at,
                side.campaign_id,
            )
        )
    for seat in qs["seat"].select_related("side__campaign")[:INBOX_ROWS]:
        items.append(
            Item(
                "seat",
                seat.side.campaign.name,
                _("You were seated on %(side)s") % {"side": seat.side.name},
                seat.side.campaign.get_absolute_url(),
                seat.joined_at,
                seat.side.campaign_id,
            )
        )
    for s in qs["invitation"].select_related("battle__created_by")[:INBOX_ROWS]:
        items.append(
            Item(
                "invitation",
                str(s.battle),
                _("%(name)s named you as opponent: join with your roster")
                % {"name": s.battle.created_by.get_username()},
                s.battle.get_absolute_url() + "#action-join",
                s.battle.created_at,
            )
        )
    for r in qs["result"].select_related("league", "entered_by")[:INBOX_ROWS]:
        items.append(
            Item(
                "result",
                r.league.name,
                _("%(name)s reported a result: confirm or dispute it")
                % {"name": r.entered_by.get_username() if r.entered_by else "?"},
                r.league.get_absolute_url() + f"#result-{r.pk}",
                r.created_at,
            )
        )
    for r in qs["dispute"].select_related("league")[:INBOX_ROWS]:
        items.append(
            Item(
                "dispute",
                r.league.name,
                _("A result is disputed: settle it as organiser"),
                r.league.get_absolute_url() + f"#result-{r.pk}",
                r.updated_at,
            )
        )
    items.sort(key=lambda i: i.when, reverse=True)
    return items


# --- Live versions -------------------------------------------------------------------------


def _digest(*parts) -> str:
    """A short token that changes when the parts do; it reveals none of them."""
    return hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()[:12]


def campaign_version(campaign: Campaign, viewer: Viewer) -> str:
    """Changes whenever the campaign's log as this viewer may see it, or what it waits for,
    changes (1 query). Another side's private entries are not counted, so the token never
    moves when only they are written."""
    log = LogEntry.objects.filter(campaign=OuterRef("pk"))
    if not viewer.is_gm:
        log = log.filter(Q(private_to__isnull=True) | Q(private_to__in=viewer.side_ids))
    # the newest visible entry by a backward walk of the (campaign, seq) index: it stops at
    # the first entry this viewer may see, whatever the log's length
    last = log.order_by("-seq").values("seq")[:1]
    open_cc = (
        Decision.objects.filter(campaign=OuterRef("pk"), status=Decision.Status.OPEN)
        .order_by()
        .values("campaign")
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    open_tcs = (
        TcsDecision.objects.filter(campaign=OuterRef("pk"), status=TcsDecision.Status.OPEN)
        .order_by()
        .values("campaign")
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    row = (
        Campaign.objects.filter(pk=campaign.pk)
        .annotate(last=Subquery(last), cc=Subquery(open_cc), tcs=Subquery(open_tcs))
        .values("status", "last", "cc", "tcs")
        .first()
    )
    return _digest(*(row or {}).values())


def skirmish_version(user, battle: SkirmishBattle) -> str:
    """Changes whenever the skirmish's log as this user may see it, its status, the sealed
    orders count or its corrections change (1 query)."""
    events = SkirmishEvent.objects.filter(battle=OuterRef("pk"))
    seen = visible_side_ids(user, battle)
    if seen is not None:
        events = events.filter(Q(private_to__isnull=True) | Q(private_to__in=seen))
    last = events.order_by("-seq").values("seq")[:1]
    sealed = (
        SealedOrders.objects.filter(side__battle=OuterRef("pk"))
        .order_by()
        .values("side__battle")
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    fixes = SkirmishCorrection.objects.filter(battle=OuterRef("pk")).order_by().values("battle")
    proposed = fixes.annotate(n=Count("pk")).values("n")[:1]
    applied = (
        fixes.filter(status=SkirmishCorrection.Status.APPLIED)
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    row = (
        SkirmishBattle.objects.filter(pk=battle.pk)
        .annotate(
            last=Subquery(last),
            sealed=Subquery(sealed),
            proposed=Subquery(proposed),
            applied=Subquery(applied),
        )
        .values("status", "last", "sealed", "proposed", "applied")
        .first()
    )
    return _digest(*(row or {}).values())

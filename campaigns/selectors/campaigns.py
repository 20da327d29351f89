from __future__ import annotations

from django.db.models import Case, F, JSONField, Prefetch, Q, QuerySet, Value, When

from campaigns.models import Campaign, GameSystem, LogEntry, Side, SidePlayer
from campaigns.permissions import Viewer


def with_sides(qs: QuerySet[Campaign]) -> QuerySet[Campaign]:
    seats = SidePlayer.objects.select_related("user").order_by("joined_at")
    sides = Side.objects.prefetch_related(Prefetch("seats", queryset=seats))
    return qs.select_related("club", "created_by").prefetch_related(
        Prefetch("sides", queryset=sides), "game_masters"
    )


def campaigns_for_user(user) -> QuerySet[Campaign]:
    """The campaigns a signed-in user plays or runs, newest activity first (4 queries)."""
    ids = Campaign.objects.filter(
        Q(created_by=user) | Q(game_masters=user) | Q(sides__seats__user=user)
    ).values("pk")
    return with_sides(Campaign.objects.filter(pk__in=ids))


def campaign_with_sides(pk: int) -> Campaign:
    """One campaign for a page. A Combat Commander state grows with the campaign's battles,
    and pages read it decoded once per version (`CCTemplate.read`), so it is not fetched
    here; reading `campaign.state` fetches it. Other systems' states are small: kept."""
    campaign = (
        with_sides(Campaign.objects.defer("state"))
        .annotate(
            small_state=Case(
                When(system=GameSystem.COMBAT_COMMANDER, then=Value(None, JSONField())),
                default=F("state"),
                output_field=JSONField(),
            )
        )
        .get(pk=pk)
    )
    if campaign.system != GameSystem.COMBAT_COMMANDER:
        campaign.state = campaign.small_state
    return campaign


def campaign_log(campaign: Campaign, viewer: Viewer, *, kind: str | None = None):
    """The log as this viewer may see it: another side's private entries are left out."""
    qs = LogEntry.objects.filter(campaign=campaign).select_related("actor", "private_to")
    if not viewer.is_gm:
        qs = qs.filter(Q(private_to__isnull=True) | Q(private_to__in=viewer.side_ids))
    if kind:
        qs = qs.filter(kind=kind)
    return qs.order_by("seq")

"""The home page's reads for a signed-out visitor: a few public things to browse."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Club, League, LeagueParticipant

BROWSE_ROWS = 6


def public_showcase() -> dict[str, list]:
    """The newest public clubs, open leagues, public campaigns and league players (4
    queries, at most ``BROWSE_ROWS`` rows each)."""
    players = LeagueParticipant.objects.order_by("-joined_at").values("user")
    return {
        "clubs": list(Club.objects.order_by("-created_at")[:BROWSE_ROWS]),
        "leagues": list(
            League.objects.filter(status=League.Status.OPEN)
            .select_related("club")
            .order_by("-id")[:BROWSE_ROWS]
        ),
        "campaigns": list(
            Campaign.objects.filter(visibility=Campaign.Visibility.PUBLIC)
            .defer("state", "tables")
            .order_by("-updated_at")[:BROWSE_ROWS]
        ),
        "players": list(
            get_user_model()
            .objects.filter(pk__in=players)
            .order_by("username")
            .only("username")[:BROWSE_ROWS]
        ),
    }

"""REST API for rosters (with their entries and history) and skirmish battles (with sealed
orders, casualties, results). Same services, selectors and permissions as the pages.

Modules: roster_views (rosters), skirmish (battles), dispatch (action bodies → services),
serializers."""

from __future__ import annotations

from campaigns.api.rosters.roster_views import RosterViewSet
from campaigns.api.rosters.skirmish import SkirmishViewSet

__all__ = ["RosterViewSet", "SkirmishViewSet", "register"]


def register(router) -> None:
    """Add this package's viewsets to the API router."""
    router.register("rosters", RosterViewSet, basename="api-roster")
    router.register("skirmishes", SkirmishViewSet, basename="api-skirmish")

"""Combat Commander campaigns in the API: every action the campaign and battle pages offer.

The campaign and battle actions live on the campaign viewset (campaigns/api/views.py mixes in
`CCCampaignActions` and `CCBattleActions`), so they share its URLs and visibility rule
(`/api/v1/campaigns/{id}/…`); the templates have their own route.
"""

from __future__ import annotations

from .battles import CCBattleActions
from .campaigns import CCCampaignActions, CCTemplateViewSet
from .tracker import CCTrackerActions

__all__ = [
    "CCBattleActions",
    "CCCampaignActions",
    "CCTemplateViewSet",
    "CCTrackerActions",
    "register",
]


def register(router) -> None:
    """Add this module's viewsets to the API router."""
    router.register("cc/templates", CCTemplateViewSet, basename="api-cc-template")

"""Reads that matter, with a bounded number of queries however long the history."""

from campaigns.selectors.campaigns import (
    campaign_log,
    campaign_with_sides,
    campaigns_for_user,
    with_sides,
)

__all__ = ["campaign_log", "campaign_with_sides", "campaigns_for_user", "with_sides"]
